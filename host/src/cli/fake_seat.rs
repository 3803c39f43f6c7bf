//! `team fake-seat` (hidden): the flags of the test double in `crate::fake_seat`; the double itself lives there.

use std::path::PathBuf;

/// Arguments of `team fake-seat`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The CLI to imitate: `claude-code`, `codex`, `codex-cloud` (its own modes: `fake_seat/codex_cloud.rs`) (and `cursor`, implied by `narrow-cursor`).
    #[arg(long, default_value = "claude-code")]
    pub cli: String,
    /// How it behaves (see the module docs): takes-line, ignores-first-enter, ignores-enter,
    /// clears-without-working, dialog:<kind>, draft, placeholder, exited, narrow-cursor,
    /// already-working.
    #[arg(long, default_value = "takes-line")]
    pub mode: String,
    /// Append every byte received to this file.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Write the session transcript rows (the vendor's format) into this directory; `auto`:
    /// where the CLI writes them (`$HOME/.claude/projects/<cwd, each character not a letter or
    /// digit as ->/`,
    /// `$HOME/.codex/sessions/YYYY/MM/DD/`).
    #[arg(long)]
    pub transcript: Option<String>,
    /// Write the plain rows of every frame drawn to this file (its first line: `<cols>x<rows>`),
    /// so a test can wait until the pane shows a whole frame.
    #[arg(long)]
    pub drawn: Option<PathBuf>,
    /// How long a turn works, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub delay_ms: u64,
    /// How much of Claude Code's native channel to show: `full` (its sessions-registry entry
    /// and its listening socket), `socket-only`, `none`.
    #[arg(long, default_value = "full")]
    pub native: String,
}

pub fn run(args: Args, ctx: &crate::ctx::Ctx, out: &mut crate::output::Output) -> i32 {
    let opts = crate::fake_seat::Options {
        cli: args.cli,
        mode: args.mode,
        log: args.log,
        transcript: args.transcript,
        drawn: args.drawn,
        delay_ms: args.delay_ms,
        native: args.native,
        paths: ctx.paths.clone(),
    };
    match crate::fake_seat::run(opts) {
        Ok(()) => 0,
        Err(e) => super::report_error("fake-seat", false, &crate::outcome::TeamError::usage(e), out),
    }
}
