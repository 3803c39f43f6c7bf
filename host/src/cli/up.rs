//! `team up [--dry-run] [--json] [--no-hooks] [--no-mcp] [--timeout <s>]` and `team add <seat>
//! …`: parses, calls `crate::up`, prints its lines (`up::words`) and the `team status` table
//! after, or its `team.up` document. Exit 0 when every seat stands ready, 1 otherwise.

use std::time::Duration;

use super::Ran;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::up::{self, Means, Request, Verb};
use crate::workspace::Workspace;

/// The flags `team up` and `team add` share.
#[derive(clap::Args, Debug, Clone)]
pub struct Flags {
    /// Say what would be started, and start, type and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Print one team.up document (a refusal: the team.error document)
    #[arg(long)]
    pub json: bool,
    /// Do not install the seats' hooks (team hooks install) before their CLIs start
    #[arg(long)]
    pub no_hooks: bool,
    /// Do not install the seats' MCP entries (team mcp install) before their CLIs start
    #[arg(long)]
    pub no_mcp: bool,
    /// How long to wait, in all, for the seats to reach their prompts
    #[arg(long, value_name = "s", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
}

/// Arguments of `team up`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Starts the team file's session on its multiplexer (tmux) with one pane per seat, in the
checkout, named as the seat before its CLI draws. Each pane's shell runs the seat's launch: line
— once the owner approved it (team trust launch <seat>) — or the launch its profile declares
(Claude Code: claude; Codex: codex --no-daemon). It waits until each CLI is at its prompt and
records it (as team register does). A first-run dialog is never answered for you: the seat is
reported waiting, with its pane. A seat already running is left as it is; a session holding
panes no record names is refused whole. docs/launch.md says more.")]
pub struct Args {
    #[command(flatten)]
    pub flags: Flags,
}

/// Arguments of `team add`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Starts one seat of the team file into the team's running session (a seat just added to the
file), as team up starts each seat; a seat already running is left as it is.")]
pub struct AddArgs {
    /// The seat of the team file to start
    #[arg(value_name = "seat")]
    pub seat: String,
    #[command(flatten)]
    pub flags: Flags,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    go(Verb::Up, None, a.flags, ctx, out)
}

pub fn run_add(a: AddArgs, ctx: &Ctx, out: &mut Output) -> Ran {
    go(Verb::Add, Some(a.seat), a.flags, ctx, out)
}

fn go(verb: Verb, seat: Option<String>, f: Flags, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = Workspace::new(ctx);
    let prepare = |names: &[String]| crate::mcp::seats::prepare(&ws, names, !f.no_hooks, !f.no_mcp);
    let req = Request { verb, seat, dry_run: f.dry_run, timeout: Duration::from_secs(f.timeout) };
    let r = up::run_here(&Means { ws: &ws, prepare: &prepare }, &req)?;
    if f.json {
        out.doc(&r.document());
        return Ok(r.code());
    }
    let mut text = crate::error::context_line(&r.project, &r.session);
    text.push_str(&up::words::lines(&r));
    if !r.dry_run {
        let here = crate::status::Here::of(&ws)?;
        text.push('\n');
        text.push_str(&crate::status::words::plain(&here.read()));
    }
    out.out(&text);
    Ok(r.code())
}
