//! `team watch`: its arguments and the rendering of what each
//! pass did — one plain line per thing done (never a body), or under `--json` one JSON object
//! per line (JSON Lines, `schema/watch.schema.json`), since a watch runs until it is stopped.
//!
//! The run itself — the team file, the project's watch lock, the passes every 2 s (`--once`:
//! one) — is `watch::run`; this file is its listener and decides nothing.

use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;
use crate::vocab::text::one_line;
use crate::watch::doc::{LineDoc, Run, Said};
use crate::watch::{self, Event, Pass};

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

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let mut l = Lines { json: args.json, once: args.once, ctx, out, context: None };
    let ran = watch::run::run(&crate::workspace::Workspace::new(ctx), args.once, &mut l);
    match ran {
        Ok(()) => Ok(0),
        // under --json the error is one line of the watch's JSON Lines, not a document of its own
        Err(e) if args.json => {
            out.json_line(&e.document("watch"));
            Ok(e.kind.exit_code())
        }
        Err(e) => Err(e),
    }
}

/// The watch's lines (or JSON Lines) as its passes come.
struct Lines<'a> {
    json: bool,
    once: bool,
    ctx: &'a Ctx,
    out: &'a mut Output,
    /// The project and session, once started.
    context: Option<(String, String)>,
}

impl Lines<'_> {
    /// Prints `said` as one JSON line, stamped.
    fn line(&mut self, said: Said<'_>) {
        let (project, session) = self.context.clone().unwrap_or_default();
        let doc = LineDoc::new(said, self.ctx.clock.now_iso(), &project, &session);
        self.out.json_line(&doc);
    }
}

impl watch::run::Listener for Lines<'_> {
    fn started(&mut self, project: &str, session: &str, once: bool) {
        self.context = Some((project.to_string(), session.to_string()));
        if self.json {
            if !once {
                self.line(Said::Run(Run::Started { pid: std::process::id() }));
            }
        } else {
            self.out.out(&context_line(project, session));
            if !once {
                self.out.out(&format!(
                    "watching {} (pid {}): held, not-submitted and dialog-stopped sends are retried, delivered ones confirmed\n",
                    one_line(project),
                    std::process::id()
                ));
            }
        }
    }

    fn pass(&mut self, pass: &Pass) {
        for e in &pass.events {
            if self.json {
                self.line(Said::Event(e));
            } else {
                self.out.out(&format!("{}\n", one_line(&plain(e))));
            }
        }
        for p in &pass.problems {
            self.problem(p);
        }
        if self.once {
            let summary = pass.summary();
            if self.json {
                self.line(Said::Run(summary));
            } else if let Run::Pass { retried, stopped, never_acted_on } = summary {
                self.out.out(&format!(
                    "one pass: {retried} retried, {stopped} stopped, {never_acted_on} taken but never acted on\n"
                ));
            }
        }
    }

    fn problem(&mut self, message: &str) {
        if self.json {
            self.line(Said::Run(Run::Problem { message: message.to_string() }));
        } else {
            self.out.err(&format!("team watch: {}\n", one_line(message)));
        }
    }

    fn gone(&mut self) -> bool {
        self.out.closed() || self.out.reader_gone()
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
            "{seat}: retry {n} of a send from {from} was cut off before its end was written down; the seat's {} shows the message read: {outcome}; the message is at {}",
            sign.word(),
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
            sign: crate::history::Sign::Transcript,
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
