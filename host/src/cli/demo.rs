//! `team demo`: the first thing a newcomer runs; the run itself is `demo::tour` (a throwaway
//! project, two demo seats in a private tmux server, a send to each, the feed), and its words
//! `demo::words`; this prints its steps as they come.
//!
//! It sends as the owner, who is a person at a terminal: without one it says so at once and
//! starts nothing. It ends with what to do next; `--keep` leaves its folder and tmux server and
//! prints the exact commands that drive them and that remove them.

use super::Ran;
use crate::demo::tour::{self, Given};
use crate::demo::words;
use crate::output::Output;

/// Arguments of `team demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Keep the throwaway folder and tmux session (prints the commands that drive and remove them).
    #[arg(long)]
    pub keep: bool,
}

/// Arguments of `team demo-seat` (hidden): one of the demo's seats, run by `team demo` in its
/// own tmux panes.
#[derive(clap::Args, Debug)]
pub struct SeatArgs {
    /// The CLI whose screens it draws: `claude-code` or `codex`.
    #[arg(long)]
    pub cli: String,
    /// The byte log `team demo` made for it (appended to; never created).
    #[arg(long)]
    pub log: std::path::PathBuf,
}

/// `team demo-seat`: draws the seat until its terminal closes.
pub fn run_seat(args: SeatArgs) -> Ran {
    crate::demo::seat::run_named(&args.cli, &args.log).map(|()| 0)
}

pub fn run(args: Args, ctx: &crate::ctx::Ctx, out: &mut Output) -> Ran {
    let given = Given::here(ctx, args.keep)?;
    let ended = tour::run(&given, &mut |step| out.out(&step.said()))?;
    if let Some(k) = &ended.kept {
        out.out(&k.said(&given.me));
    }
    out.out(words::NEXT);
    Ok(ended.worst)
}
