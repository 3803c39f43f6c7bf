//! `team send`: its arguments, and the rendering of what `crate::send` reports — the outcome
//! line, the `--list` table, the `team.send` / `team.send.list` / `team.error` documents.
//!
//! Order of a run: the invocation → the team file and the registry → the caller (neither a
//! verified pane's seat nor the owner at a terminal: refused, `--list` included) →
//! `crate::send::run`. This file decides nothing about the send itself.

use std::path::PathBuf;

use crate::ctx::Ctx;
use crate::error::{self, context_line, TeamError};
use crate::output::Output;
use crate::send::{self, Ask, ListReport, Means, Report, SendReport};
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// Arguments of `team send`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    after_help = "Quote a message that holds words starting with `-` (team send seat \"fix the --json output\"), \
or end the options with `--` (team send seat -- fix the --json output).

--list's REACH is the channel a seat is reachable by once every leg ships:
  socket   a Claude Code seat whose delivery order keeps native: its own cross-session channel
  compose  a CLI that builds a work item from its screens (codex cloud): the body is typed there
  typed    a drop file and one trigger line typed into the seat's pane
  -        the seat's cli names no usable profile (a send to it is refused)
This build sends every plain message typed (or composed). Which seats you may send to: --list
--json names the rule that admits you for each (admitted_by; null when refused), and team status
run from your pane marks them (docs/admission.md)."
)]
pub struct Args {
    /// The seat to reach: a seat or nickname of this team, @nickname, seat@team, lead@team, or agt_… id.
    pub target: Option<String>,
    /// The message: every remaining word, joined with single spaces (quote it when a word starts with `-`).
    pub message: Vec<String>,
    /// Read the whole body from a file instead of message words (`-`: standard input).
    #[arg(long, value_name = "path")]
    pub file: Option<PathBuf>,
    /// Wait for the reply (needs the native leg; refused in this build).
    #[arg(long)]
    pub wait: bool,
    /// Seconds to wait, 1 to 86400 (only with --wait).
    #[arg(long, value_name = "s")]
    pub timeout: Option<String>,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Resolve the seat and name the channel; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// List the addressable seats (SEAT, NICKNAME, ROLE, PROJECT, REACH; see below); send nothing.
    #[arg(long)]
    pub list: bool,
    /// Write down a delivery the sender made with its own native tool.
    #[arg(long, value_name = "seat")]
    pub record: Option<String>,
    /// The channel of a --record: native only.
    #[arg(long, value_name = "channel")]
    pub channel: Option<String>,
    /// The span the sender measured for a --record, in whole milliseconds.
    #[arg(long, value_name = "N")]
    pub ms: Option<String>,
}

/// Checks the invocation: every usage error is exit 2 (`send::ask`).
pub fn ask(a: &Args) -> error::Result<Ask> {
    Ask::of(&send::ask::Words {
        target: a.target.clone(),
        message: a.message.clone(),
        file: a.file.clone(),
        wait: a.wait,
        timeout: a.timeout.clone(),
        dry_run: a.dry_run,
        list: a.list,
        record: a.record.clone(),
        channel: a.channel.clone(),
        ms: a.ms.clone(),
    })
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let json = a.json;
    let ask = ask(&a)?;
    let ws = Workspace::new(ctx);
    let (load, caller) = send::standing(&ws, &ask)?;
    match send::run(&Means::of(&ws), load, caller, &ask, a.dry_run)? {
        Report::List(l) => Ok(render_list(&l, json, out)),
        Report::All(f) => Ok(super::send_all::render(&f, a.dry_run, json, out)),
        Report::Send(r) => render_send(&r, json, out),
    }
}

/// Prints one send's report: exit 0 for delivered, recorded and a dry run; every other
/// outcome is the error it exits 1 with.
fn render_send(r: &SendReport, json: bool, out: &mut Output) -> Result<i32, TeamError> {
    super::send_all::notify_words(r, json, out);
    let (line, doc) = r.said()?;
    if json {
        out.doc(&doc);
    } else {
        out.out(&format!("{}{line}", context_line(&r.project, &r.session)));
    }
    Ok(0)
}

fn render_list(l: &ListReport, json: bool, out: &mut Output) -> i32 {
    let summary = l.summary();
    if json {
        out.doc(&l.document());
        return 0;
    }
    let dash = |o: &Option<String>| o.as_deref().map(|s| one_line(s).into_owned()).unwrap_or_else(|| "-".into());
    let table: Vec<[String; 5]> =
        std::iter::once(["SEAT".into(), "NICKNAME".into(), "ROLE".into(), "PROJECT".into(), "REACH".into()])
            .chain(l.seats.iter().map(|r| {
                [
                    one_line(&r.name).into_owned(),
                    dash(&r.nickname),
                    dash(&r.role),
                    one_line(&r.project).into_owned(),
                    r.reach.map(|x| x.word()).unwrap_or("-").to_string(),
                ]
            }))
            .collect();
    let mut text = String::new();
    if let Some((p, s)) = &l.context {
        text.push_str(&context_line(p, s));
    }
    if !l.seats.is_empty() {
        text.push_str(&crate::vocab::table::table(&table));
    }
    text.push_str(&summary);
    text.push('\n');
    out.out(&text);
    for r in &l.seats {
        if let Some(p) = &r.problem {
            out.err(&format!("team send: {} {}\n", one_line(&r.name), one_line(p)));
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    fn args(words: &[&str]) -> Args {
        #[derive(clap::Parser)]
        struct T {
            #[command(flatten)]
            a: Args,
        }
        use clap::Parser;
        T::try_parse_from(std::iter::once("send").chain(words.iter().copied())).unwrap().a
    }

    fn usage_msg(words: &[&str]) -> String {
        let e = ask(&args(words)).unwrap_err();
        assert_eq!(e.kind, Kind::Usage, "{words:?}");
        e.message()
    }

    #[test]
    fn the_invocation() {
        assert_eq!(
            ask(&args(&["x", "hello", "there"])).unwrap(),
            Ask::Send { target: "x".into(), body: "hello there".into(), wait: false }
        );
        assert_eq!(
            ask(&args(&["x", "hi", "--wait", "--timeout", "86400"])).unwrap(),
            Ask::Send { target: "x".into(), body: "hi".into(), wait: true }
        );
        assert_eq!(ask(&args(&["--list"])).unwrap(), Ask::List);
        assert_eq!(
            ask(&args(&["--record", "k", "--channel", "native", "--ms", "812"])).unwrap(),
            Ask::Record { target: "k".into(), body: None, ms: 812 }
        );
        assert_eq!(
            ask(&args(&["--record", "k", "--channel", "native", "--ms", "5", "done", "it"])).unwrap(),
            Ask::Record { target: "k".into(), body: Some("done it".into()), ms: 5 }
        );
        assert!(usage_msg(&["x", "hi", "--file", "/etc/hostname"]).starts_with("a message and --file together"));
        for t in ["0", "86401", "1.5", "-3", "soon"] {
            assert!(
                usage_msg(&["x", "hi", "--wait", &format!("--timeout={t}")])
                    .starts_with("--timeout takes a whole number"),
                "{t}"
            );
        }
        assert!(usage_msg(&["--record", "k", "--channel", "socket", "--ms", "1"])
            .starts_with("--channel takes native only"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1", "--wait"])
            .starts_with("--wait and --timeout are refused beside --record"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1", "--timeout", "5"])
            .starts_with("--wait and --timeout"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1.5"])
            .starts_with("--ms takes a whole number"));
        assert!(usage_msg(&["x"]).starts_with("a message is required"));
        assert!(usage_msg(&["x", " "]).starts_with("the message is empty"));
        assert!(usage_msg(&[]).starts_with("a target seat is required"));
        assert!(usage_msg(&["x", "hi", "--channel", "native"]).starts_with("--channel and --ms go with --record"));
    }

    #[test]
    fn a_double_dash_ends_the_options() {
        assert_eq!(
            ask(&args(&["seat", "--", "fix", "the", "--json", "output"])).unwrap(),
            Ask::Send { target: "seat".into(), body: "fix the --json output".into(), wait: false }
        );
        let a = args(&["seat", "--", "--dry-run"]);
        assert!(!a.dry_run && !a.json);
    }
}
