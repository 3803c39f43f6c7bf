//! `team watch`: its arguments and the printing of what each pass did — one plain line per
//! thing done (never a body; the words are `watch::words`'), or under `--json` one JSON object
//! per line (JSON Lines, `schema/watch.schema.json`), since a watch runs until it is stopped.
//!
//! The run itself — the team file, the project's watch lock, the passes every 2 s (`--once`:
//! one) — is `watch::run`; this file is its listener and decides nothing.

use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;
use crate::vocab::text::one_line;
use crate::watch::doc::{LineDoc, Run, Said};
use crate::watch::{self, words, Pass};

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
                self.out.out(&words::watching(project, std::process::id()));
            }
        }
    }

    fn pass(&mut self, pass: &Pass) {
        for e in &pass.events {
            if self.json {
                self.line(Said::Event(e));
            } else {
                self.out.out(&format!("{}\n", one_line(&e.said())));
            }
        }
        for p in &pass.problems {
            self.problem(p);
        }
        if self.once {
            let summary = pass.summary();
            if self.json {
                self.line(Said::Run(summary));
            } else {
                self.out.out(&summary.said());
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
