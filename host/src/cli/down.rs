//! `team down [<seat>…] [--force] [--dry-run] [--json]`: parses, calls `crate::down`, prints its
//! lines (`down::words`) or its `team.down` document. Exit 0 when every named seat is down.

use super::Ran;
use crate::ctx::Ctx;
use crate::down::{self, Request};
use crate::output::Output;
use crate::workspace::Workspace;

/// Arguments of `team down`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Asks each seat's CLI to leave its own way (the keys its profile declares: Claude Code /exit,
Codex Ctrl-C) — only when its screen reads idle with an empty composer. A seat that is working,
holds a draft or shows a dialog is left running and named with why; --force ends its process
tree instead (TERM, then KILL after 5 s). A stopped seat's pane is closed (the session ends with
its last seat) and its record's stage becomes stopped. Messages still unclaimed in a seat's inbox
are named and kept.")]
pub struct Args {
    /// Seats of the team file (every seat when none is named)
    #[arg(value_name = "seat")]
    pub seats: Vec<String>,
    /// End the process tree of a seat that is not idle with an empty composer
    #[arg(long)]
    pub force: bool,
    /// Say what would be stopped, and press, end, close and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Print one team.down document (a refusal: the team.error document)
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = Workspace::new(ctx);
    let req = Request { seats: a.seats, force: a.force, dry_run: a.dry_run };
    let r = down::run_here(&ws, &req)?;
    if a.json {
        out.doc(&r.document());
    } else {
        let mut text = crate::error::context_line(&r.project, &r.session);
        text.push_str(&down::words::lines(&r));
        out.out(&text);
    }
    Ok(r.code())
}
