//! `team mark`'s use-case: a tmux pane of the team's session marked as a seat of the team file
//! — the caller's own pane (the one this process descends from), or the one named — with the
//! `@team-seat` pane option the tmux adapter finds seats by.
//!
//! Refused, with nothing marked: a seat the file does not declare (the nearest is named), a
//! team whose seats run in herdr, a pane outside the team's session, a seat another pane
//! already holds, and a pane already marked as another declared seat (unmark it first).
//!
//! Invariant: the caller's own pane is found by ancestry (the pane whose shell this process
//! descends from), never by `TMUX_PANE` alone; that variable only helps say where the caller
//! is when it is not in the team's session.

use crate::error::{self, TeamError};
use crate::mux::tmux::{MarkedPane, Tmux};
use crate::mux::{Hints, Mux, MuxError};
use crate::team_file::Loaded;

/// What `team mark` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marked {
    /// The pane already carried the seat's mark: nothing changed.
    Already { pane: String },
    /// The pane now carries the seat's mark; `was` is the mark it had (not a declared seat's).
    Marked { pane: String, was: Option<String> },
}

impl Marked {
    /// What `team mark` says of marking `seat` of `file`'s session (after the context line).
    pub fn said(&self, file: &crate::team_file::TeamFile, seat: &str) -> String {
        use crate::vocab::text::one_line;
        match self {
            Marked::Already { pane } => format!("{seat}: pane {} is already marked as it\n", one_line(pane)),
            Marked::Marked { pane, was } => {
                let was = was.as_ref().map(|w| format!(" (it was marked {w:?})")).unwrap_or_default();
                format!("{seat}: marked pane {} of tmux session {:?}{}\n", one_line(pane), file.session, one_line(&was))
            }
        }
    }
}

fn refused(why: impl AsRef<str>) -> TeamError {
    TeamError::refused(format!("{}; nothing was marked", why.as_ref()))
}

fn mux_error(e: MuxError) -> TeamError {
    refused(e.to_string())
}

/// Marks `pane` (default: the caller's own) of the cwd's team's tmux session as `seat`, on the
/// tmux the run's hints name; the team file with what was done.
pub fn mark_here<'w>(
    ws: &'w crate::workspace::Workspace,
    seat: &str,
    pane: Option<&str>,
) -> error::Result<(&'w Loaded, Marked)> {
    let loaded = ws.team()?;
    let hints = &ws.ctx.mux;
    Ok((loaded, mark(loaded, &Tmux::from_hints(hints), hints, seat, pane)?))
}

/// Marks `pane` (default: the caller's own) of the team's tmux session as `seat`.
pub fn mark(loaded: &Loaded, tmux: &Tmux, hints: &Hints, seat: &str, pane: Option<&str>) -> error::Result<Marked> {
    let f = &loaded.file;
    if f.seat(seat).is_none() {
        let hint =
            crate::nearest::nearest(seat, f.seat_names()).map(|n| format!(" (did you mean {n}?)")).unwrap_or_default();
        let names = if f.seats.is_empty() { "none yet".to_string() } else { f.seat_names().join(", ") };
        return Err(refused(format!("{seat}: it is not a declared seat{hint}; the file's seats are {names}"))
            .with_repair("declare the seat in .agents/team.yaml first (name: and cli:)"));
    }
    let session = f.session.as_str();
    if crate::mux::chosen(hints, f.multiplexer.as_deref()) != "tmux" {
        return Err(refused("team mark marks tmux panes, and this team's seats run in herdr")
        .with_repair(format!(
            "name the pane in herdr: herdr --session {session} agent rename <pane> {seat}; or write multiplexer: tmux in .agents/team.yaml"
        )));
    }
    let pane: MarkedPane = match pane {
        Some(id) => {
            let p = tmux.pane_marked(id).map_err(mux_error)?;
            if p.session != session {
                return Err(refused(format!(
                    "pane {} is in tmux session {:?}, and this team's seats are found in session {session:?}",
                    p.id, p.session
                ))
                .with_repair(format!(
                    "name a pane of session {session:?}, or write session: {} in .agents/team.yaml",
                    p.session
                )));
            }
            p
        }
        None => caller_pane(tmux, hints, session, seat)?,
    };
    let others = tmux.named(session, seat).map_err(mux_error)?;
    if let Some(o) = others.iter().find(|o| o.id != pane.id) {
        return Err(refused(format!("seat {seat} is already pane {}'s in tmux session {session:?}", o.id))
            .with_repair(format!("unmark that pane first: tmux set -p -u -t {} @team-seat", o.id)));
    }
    if pane.mark == seat {
        return Ok(Marked::Already { pane: pane.id });
    }
    if !pane.mark.is_empty() && f.seat(&pane.mark).is_some() {
        return Err(refused(format!("pane {} is marked as seat {}", pane.id, pane.mark))
            .with_repair(format!("unmark it first: tmux set -p -u -t {} @team-seat", pane.id)));
    }
    if !tmux.name_pane(session, &pane.id, seat).map_err(mux_error)? {
        return Err(refused(format!("tmux did not keep the mark on pane {}", pane.id)));
    }
    let was = (!pane.mark.is_empty()).then_some(pane.mark);
    Ok(Marked::Marked { pane: pane.id, was })
}

/// The pane of `session` this process runs in (by ancestry, never by `TMUX_PANE` alone).
fn caller_pane(tmux: &Tmux, hints: &Hints, session: &str, seat: &str) -> error::Result<MarkedPane> {
    let ancestry: Vec<u32> = crate::mux::procfs::ancestry().iter().map(|a| a.pid).collect();
    match tmux.pane_of_caller(session, &ancestry).map(|l| l.pane) {
        Ok(Some(p)) => tmux.pane_marked(&p.id).map_err(mux_error),
        Ok(None) => {
            // Say where the caller is when tmux can tell: a pane of another session.
            let elsewhere = hints
                .tmux_pane
                .as_ref()
                .and_then(|id| tmux.pane_marked(id).ok())
                .filter(|p| p.session != session && p.shell_pid.is_some_and(|pid| ancestry.contains(&pid)));
            let why = match elsewhere {
                Some(p) => format!(
                    "this runs in pane {} of tmux session {:?}, and this team's seats are found in session {session:?}",
                    p.id, p.session
                ),
                None => format!("this does not run inside a pane of tmux session {session:?}"),
            };
            Err(refused(why).with_repair(format!(
                "run team mark {seat} inside the seat's pane, or name the pane: team mark {seat} --pane <id> (tmux list-panes -s -t {session} lists them)"
            )))
        }
        Err(e) => Err(mux_error(e)),
    }
}
