//! `team hooks install | status | remove [<seat>…]`: its arguments and the rendering of what
//! `crate::hooks` answers. This file decides nothing: which file a CLI reads is its profile's
//! word, and what each file holds is `crate::hooks`'s.

use super::Ran;
use crate::ctx::Ctx;
use crate::hooks::{self, Action};
use crate::output::Output;
use crate::vocab::leg::HookFormat;
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// Arguments of `team hooks`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "install writes, in the team's checkout, the hooks each seat's CLI runs: `<this team> hook \
post-tool-use | stop | user-prompt-submit`, which hand the seat's inbox to its model mid-turn. Claude Code reads \
them from .claude/settings.local.json; Codex from .codex/hooks.json, with [features] codex_hooks = true in \
.codex/config.toml, and asks once to trust them; Gemini CLI from .gemini/settings.json (AfterTool, AfterAgent, \
BeforeAgent); Qwen Code from .qwen/settings.json. docs/inbox.md says more.")]
pub struct Args {
    #[command(subcommand)]
    pub action: Verb,
}

/// `team hooks install | status | remove`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Verb {
    /// Write team's hooks where each seat's CLI reads them (merging; never clobbering).
    Install(Seats),
    /// Say, for each seat, whether its CLI runs team's hooks, and when they last handed a message.
    Status(Seats),
    /// Take team's hooks out (only team's; the rest stays).
    Remove(Seats),
}

/// The seats an action covers.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Seats {
    /// Seats of the team file (all when none is named).
    pub seats: Vec<String>,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// Whether the run was asked for one JSON document.
    pub fn json(&self) -> bool {
        match &self.action {
            Verb::Install(s) | Verb::Status(s) | Verb::Remove(s) => s.json,
        }
    }
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let (action, s) = match a.action {
        Verb::Install(s) => (Action::Install, s),
        Verb::Status(s) => (Action::Status, s),
        Verb::Remove(s) => (Action::Remove, s),
    };
    let ws = Workspace::new(ctx);
    let (l, rows, ignored) = hooks::run_here(&ws, &s.seats, action)?;
    let seen = |seat: &str| hooks::last_seen(&ctx.paths.config, &l.file.project, &l.root, seat);
    if s.json {
        out.doc(&hooks::doc::document(&l.file.project, &l.file.session, &rows, seen));
        return Ok(0);
    }
    let mut text = crate::error::context_line(&l.file.project, &l.file.session);
    for r in &rows {
        let done = r.done.map(|d| format!(" → {}", d.word())).unwrap_or_default();
        let last = match (action, r.format) {
            (Action::Status, Some(_)) => {
                format!("; last handed a message: {}", seen(&r.seat).unwrap_or_else(|| "never".into()))
            }
            _ => String::new(),
        };
        text.push_str(&format!(
            "{}: {}{done} ({}{last})\n",
            one_line(&r.seat),
            r.state.word(),
            one_line(&r.state.detail(r.format))
        ));
    }
    for i in &ignored {
        text.push_str(&format!(
            "{}: → {} (the line `{}`, so that the file tools of {}'s CLI read the message drops)\n",
            i.file.word(),
            i.done.word(),
            crate::project_files::ignore::LINE,
            i.seats.iter().map(|s| one_line(s)).collect::<Vec<_>>().join(", ")
        ));
    }
    if action == Action::Install && rows.iter().any(|r| r.format == Some(HookFormat::CodexHooksJson)) {
        text.push_str("Codex asks once to trust new hooks (its `Hooks need review` screen): answer it in each Codex seat's pane.\n");
    }
    out.out(&text);
    Ok(0)
}
