//! `team demo`: the first thing a newcomer runs; the run itself is `demo::tour` (a throwaway
//! project, two demo seats in a private tmux server, a send to each, the feed), this renders
//! its steps.
//!
//! It sends as the owner, who is a person at a terminal: without one it says so at once and
//! starts nothing. It ends with what to do next; `--keep` leaves its folder and tmux server and
//! prints the exact commands that drive them and that remove them.

use std::path::Path;

use super::Ran;
use crate::demo::tour::{self, Given, Kept, Step};
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
    let ended = tour::run(&given, &mut |step| show(step, out))?;
    if let Some(k) = &ended.kept {
        out.out(&kept(k, &given.me));
    }
    out.out(NEXT);
    Ok(ended.worst)
}

/// One step of the demo, in words (the sends' and the feed's own words come from them).
fn show(step: Step, out: &mut Output) {
    match step {
        Step::Ready { project } => {
            out.out(&format!(
                "A throwaway project in {} with two fake seats in a private tmux session:\n",
                project.display()
            ));
            out.out("  keeper    draws real Claude Code screens\n");
            out.out("  reviewer  draws real Codex screens\n");
            out.out("\n");
        }
        Step::Sending { seat, message } => out.out(&format!("$ team send {seat} \"{message}\"\n")),
        Step::Received { seat, line } => {
            if let Some(line) = line {
                out.out(&format!("  ({seat}'s terminal received one line: {line})\n"));
            }
            out.out("\n");
        }
        Step::Feed => out.out("$ team feed\n"),
        Step::FeedDone => out.out("\n"),
    }
}

/// What to do after the demo, with one's own agents.
const NEXT: &str = "Next, with your own agents (each in a tmux or herdr pane):
  team init                  in your project: writes .agents/team.yaml; declare a seat per agent there
  team mark <seat>           inside each seat's tmux pane (herdr: herdr agent rename <pane> <seat>)
  team status                what each seat's screen shows now
  team send <seat> \"hello\"   one message, proven taken; team feed shows what happened
";

/// The commands that drive the kept demo and the ones that remove it.
fn kept(k: &Kept, me: &Path) -> String {
    let q = |p: &Path| tour::shell_word(&p.display().to_string());
    let team = tour::on_path(me).unwrap_or_else(|| q(me));
    let sock = q(&k.socket);
    format!(
        "Kept the demo: its folder {base} and its tmux server {sock}. To drive it:
  cd {project}
  export TEAM_CONFIG_DIR={config} TEAM_STATE_DIR={state} TEAM_TMUX_SOCKET={sock}
  {team} status
  {team} send reviewer \"one more\"
  {team} feed
  tmux -S {sock} attach -t demo     (the seats themselves; ctrl-b d detaches)
To remove it:
  tmux -S {sock} kill-server; rm -rf {base}

",
        base = q(&k.dir),
        project = q(&k.project),
        config = q(&k.config),
        state = q(&k.state),
    )
}
