//! `team watch`: its arguments, the project lock, the pass loop, and the rendering of what each
//! pass did — one plain line per thing done (never a body), or under `--json` one JSON object
//! per line (JSON Lines, `schema/watch.schema.json`), since a watch runs until it is stopped.
//!
//! Order of a run: the team file (found like every command) → the project's watch lock (a
//! second watch is refused naming the holder) → passes, one every 2 s (`--once`: one pass and
//! exit). This file decides nothing about what a pass does (`crate::watch`).

use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::outcome::{self, context_line, TeamError};
use crate::output::{one_line, Output};
use crate::profiles::ProfileHost;
use crate::watch::{self, Event, Pass, Watch};

/// Arguments of `team watch`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Retry held, not-submitted and dialog-stopped sends; confirm delivered ones, or say they were taken but never acted on.",
    after_help = "One watch per project at a time. It runs until stopped (meant for a pane or a user service); --once makes one pass and exits (cron, tests)."
)]
pub struct Args {
    /// Make one pass and exit.
    #[arg(long)]
    once: bool,
    /// Print one JSON object per line (JSON Lines) instead of plain lines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    match watch_loop(&args, ctx, out) {
        Ok(code) => code,
        Err(e) if args.json => {
            out.json_line(&e.document("watch"));
            e.kind.exit_code()
        }
        Err(e) => super::report_error("watch", false, &e, out),
    }
}

fn watch_loop(args: &Args, ctx: &Ctx, out: &mut Output) -> outcome::Result<i32> {
    let cwd = ctx.cwd()?;
    let Some(team) = crate::team_file::find(&cwd)? else {
        return Err(TeamError::bad_file(
            "no .agents/team.yaml in this folder or above it up to the checkout's root: a watch watches one team's project",
        )
        .with_repair("run team watch in the team's checkout"));
    };
    let (project, session) = (team.file.project.clone(), team.file.session.clone());
    let _lock = watch::acquire(&ctx.paths.state, &project, &team.root)
        .map_err(|why| TeamError::refused(format!("{why} ({}); this one did not start", team.root.display())))?;
    let host = ProfileHost::new(&ctx.paths);
    let mut w = Watch::new(ctx, &host, team);
    let stamp = |ctx: &Ctx, mut v: Value| {
        v["schema"] = json!({"name": "team.watch", "version": 1});
        v["format"] = json!(1);
        v["ts"] = json!(ctx.clock.now_iso());
        v["project"] = json!(project);
        v["session"] = json!(session);
        v
    };
    if args.json {
        if !args.once {
            out.json_line(&stamp(ctx, json!({"event": "started", "pid": std::process::id()})));
        }
    } else {
        out.out(&context_line(&project, &session));
        if !args.once {
            out.out(&format!(
                "watching {} (pid {}): held, not-submitted and dialog-stopped sends are retried, delivered ones confirmed\n",
                one_line(&project),
                std::process::id()
            ));
        }
    }
    let mut last_problem: Option<String> = None;
    loop {
        let pass = match w.pass() {
            Ok(p) => p,
            Err(e) if args.once => return Err(e),
            Err(e) => {
                if !w.team().path.exists() {
                    return Err(TeamError::failed(format!("{} is gone; the watch stopped", w.team().path.display())));
                }
                // Said once, not on every pass, until it changes.
                if last_problem.as_deref() != Some(e.message().as_str()) {
                    problem(args.json, &e.message(), out, |v| stamp(ctx, v));
                    last_problem = Some(e.message());
                }
                Pass::default()
            }
        };
        for e in &pass.events {
            if args.json {
                out.json_line(&stamp(ctx, serde_json::to_value(e).expect("an event serialises")));
            } else {
                out.out(&format!("{}\n", one_line(&plain(e))));
            }
        }
        for p in &pass.problems {
            problem(args.json, p, out, |v| stamp(ctx, v));
        }
        if args.once {
            let count = |f: fn(&Event) -> bool| pass.events.iter().filter(|e| f(e)).count();
            let retried = count(|e| matches!(e, Event::Retried { .. }));
            let stopped = count(|e| matches!(e, Event::Stopped { .. }));
            let never = count(|e| matches!(e, Event::NeverActedOn { .. }));
            if args.json {
                let v = json!({"event": "pass", "retried": retried, "stopped": stopped, "never_acted_on": never});
                out.json_line(&stamp(ctx, v));
            } else {
                out.out(&format!("one pass: {retried} retried, {stopped} stopped, {never} taken but never acted on\n"));
            }
            return Ok(0);
        }
        // Until stopped, or until nobody reads what it prints.
        let wait = ctx.clock.scaled(watch::PASS_MS);
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            if out.closed() || out.reader_gone() {
                return Ok(0);
            }
            std::thread::sleep(wait.min(std::time::Duration::from_millis(100)));
        }
    }
}

fn problem(json: bool, message: &str, out: &mut Output, stamp: impl Fn(Value) -> Value) {
    if json {
        out.json_line(&stamp(json!({"event": "problem", "message": message})));
    } else {
        out.err(&format!("team watch: {}\n", one_line(message)));
    }
}

/// The plain line of one event.
fn plain(e: &Event) -> String {
    match e {
        Event::Retried { seat, from, n, tries, outcome, detail, .. } => match detail {
            Some(d) => format!("{seat}: retried a send from {from} (try {n} of {tries}): {outcome} ({d})"),
            None => format!("{seat}: retried a send from {from} (try {n} of {tries}): {outcome}"),
        },
        Event::Stopped { seat, from, why, drop, .. } => {
            format!("{seat}: stopped retrying a send from {from} {why}; the message is at {}", drop.display())
        }
        Event::NeverActedOn { seat, from, drop, .. } => {
            format!("{seat}: a send from {from} was taken but never acted on; the message is at {}", drop.display())
        }
        Event::Handed { seat, from, note, ms, drop, .. } => {
            let after = ms.map(|ms| format!(", {ms} ms after the send")).unwrap_or_default();
            format!(
                "{seat}: a send from {from} held in its inbox was delivered ({note}{after}); the message is at {}",
                drop.display()
            )
        }
        Event::HookStopped { seat, from, drop, .. } => format!(
            "{seat}: a send from {from} waited in its inbox while the seat worked and finished its turn, and its CLI ran none of team's hooks (team hooks status {seat}); it is typed instead when the seat is ready; the message is at {}",
            drop.display()
        ),
        Event::Resolved { seat, from, n, outcome, sign, drop, .. } => format!(
            "{seat}: retry {n} of a send from {from} was cut off before its end was written down; the seat's {sign} shows the message read: {outcome}; the message is at {}",
            drop.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_lines_a_watch_prints() {
        let drop = PathBuf::from("/r/.agents/send-drops/beacon/rev/id1");
        let never =
            Event::NeverActedOn { seat: "rev".into(), from: "owner".into(), id: "id1".into(), drop: drop.clone() };
        assert_eq!(
            plain(&never),
            "rev: a send from owner was taken but never acted on; the message is at /r/.agents/send-drops/beacon/rev/id1"
        );
        let stop = Event::Stopped {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            why: watch::StopWhy::Tries.words(),
            drop: drop.clone(),
        };
        assert_eq!(
            plain(&stop),
            "rev: stopped retrying a send from owner after 3 tries; the message is at /r/.agents/send-drops/beacon/rev/id1"
        );
        let retry = Event::Retried {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            n: 2,
            tries: 3,
            outcome: "delivered".into(),
            detail: None,
            drop,
        };
        assert_eq!(plain(&retry), "rev: retried a send from owner (try 2 of 3): delivered");
        let v = serde_json::to_value(&retry).unwrap();
        assert_eq!((v["event"].as_str(), v["try"].as_u64(), v["tries"].as_u64()), (Some("retried"), Some(2), Some(3)));
        let resolved = Event::Resolved {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            n: 1,
            outcome: "delivered".into(),
            sign: "transcript".into(),
            drop: PathBuf::from("/r/d"),
        };
        assert_eq!(
            plain(&resolved),
            "rev: retry 1 of a send from owner was cut off before its end was written down; the seat's transcript shows the message read: delivered; the message is at /r/d"
        );
        let v = serde_json::to_value(&resolved).unwrap();
        assert_eq!(
            (v["event"].as_str(), v["try"].as_u64(), v["sign"].as_str()),
            (Some("resolved"), Some(1), Some("transcript"))
        );
    }
}
