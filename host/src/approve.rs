//! `team trust`: the owner reads, and approves, the commands the checkout's team file makes
//! `team` run (`crate::trust` keeps the approvals). A team file comes with the repository, so a
//! command it names runs only once the owner has approved those very words for this checkout.
//!
//! Invariant: only the owner approves — a caller placed as the owner at a terminal; a seat (an
//! agent in its pane), an unplaced caller or one with no terminal is refused, so no agent can
//! approve the command its own team file runs. Listing is open to any caller: it runs nothing.
//! The words each says are here too ([`listed`], [`approved`]).

use crate::caller::Caller;
use crate::error::{self, context_line, TeamError};
use crate::team_file::Loaded;
use crate::trust::{self, Approval, Stands, Wanted, What};
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// One command the file makes team run, and where its approval stands.
#[derive(Debug, Clone)]
pub struct Row {
    pub wanted: Wanted,
    pub line: Option<usize>,
    pub stands: Stands,
}

/// The commands of the team file in reach, each with its standing.
pub fn list<'w>(ws: &'w Workspace) -> error::Result<(&'w Loaded, Vec<Row>)> {
    let loaded = ws.team()?;
    let config = &ws.ctx.paths.config;
    let rows = crate::trust::wanted(loaded)
        .into_iter()
        .map(|(wanted, line)| {
            let stands = crate::trust::stands(config, &wanted);
            Row { wanted, line, stands }
        })
        .collect();
    Ok((loaded, rows))
}

/// Approves the file's command `what` for this checkout, as the owner.
pub fn approve<'w>(ws: &'w Workspace, what: &What) -> error::Result<(&'w Loaded, Approval)> {
    let loaded = ws.team()?;
    let caller = ws.caller()?;
    if !matches!(caller, Caller::Owner) {
        return Err(TeamError::refused(format!(
            "only the owner approves a command the team file runs, from a terminal of their own; this call is {}",
            caller.describe()
        )));
    }
    let Some((wanted, _)) = crate::trust::wanted(loaded).into_iter().find(|(w, _)| &w.what == what) else {
        return Err(TeamError::refused(format!("the team file has no {} command to approve", what.words())));
    };
    let at = ws.ctx.clock.now_iso();
    let approval = crate::trust::approve(&ws.ctx.paths.config, &wanted, &at)
        .map_err(|e| TeamError::failed(format!("the approval could not be written: {e}")))?;
    Ok((loaded, approval))
}

/// `team trust`'s words: under the context line, each command with where its approval stands
/// (and, unapproved, the way to approve it), or that the file makes team run none.
pub fn listed(loaded: &Loaded, rows: &[Row]) -> String {
    let mut text = context_line(&loaded.file.project, &loaded.file.session);
    if rows.is_empty() {
        text.push_str("the team file makes team run no command\n");
    }
    for r in rows {
        let at = r.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        let head = format!("{}{at}: {}", r.wanted.what.words(), trust::shown(&r.wanted.argv));
        text.push_str(&match &r.stands {
            Stands::Approved { at } => format!("{head} — approved {}\n", one_line(at)),
            Stands::Other { argv } => format!(
                "{head} — not approved: the approval is of other words ({})\n  {}\n",
                trust::shown(argv),
                trust::repair(&r.wanted)
            ),
            Stands::None => format!("{head} — not approved\n  {}\n", trust::repair(&r.wanted)),
        });
    }
    text
}

/// `team trust <command>`'s words: under the context line, what was approved, for which
/// checkout, in which words.
pub fn approved(loaded: &Loaded, approval: &Approval) -> String {
    format!(
        "{}{}: approved for {}: {}\n",
        context_line(&loaded.file.project, &loaded.file.session),
        approval.what.words(),
        one_line(&approval.root.display().to_string()),
        trust::shown(&approval.argv)
    )
}
