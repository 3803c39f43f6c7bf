//! `team reply <id> <message>`: its arguments, and the rendering of what `converse::reply`
//! reports — the reply's outcome line (a send's words), or the owner's-inbox line, and the
//! `team.reply` document. This file decides nothing about the reply itself.

use std::path::PathBuf;

use crate::converse::reply::{self, Ask, Replied, Status, Went};
use crate::ctx::Ctx;
use crate::error::{self, context_line, Kind, TeamError};
use crate::output::Output;
use crate::send::{HistoryWrite, Outcome};
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

const USAGE: &str =
    "usage: team reply <id> <message> [--json] [--dry-run]\n       team reply <id> --file <path> [--json] [--dry-run]";

/// Arguments of `team reply`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "The reply goes to the message's sender only, admitted by its own rule (reply to <id>), and \
is delivered as any send is; its drop opens with in-reply-to: <id> and the question's first line. \
A reply to the owner is left in the owner's inbox (team inbox, run by the owner). A delivered \
reply acks its question. team inbox lists the ids (docs/conversations.md).")]
pub struct Args {
    /// The id of the message you answer (team inbox lists them).
    pub id: Option<String>,
    /// The reply: every remaining word, joined with single spaces.
    pub message: Vec<String>,
    /// Read the whole reply from a file instead of message words (`-`: standard input).
    #[arg(long, value_name = "path")]
    pub file: Option<PathBuf>,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Find the asker and name the channel; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE)
}

/// Checks the invocation.
pub fn ask(a: &Args) -> error::Result<Ask> {
    let Some(id) = a.id.clone() else { return Err(usage("a message id is required (team inbox lists them)")) };
    if !a.message.is_empty() && a.file.is_some() {
        return Err(usage("a reply and --file together: give the body one way"));
    }
    let body = match &a.file {
        Some(p) => crate::send::body::of_file(p)?,
        None if a.message.is_empty() => return Err(usage("a reply is required: words after the id, or --file <path>")),
        None => crate::send::body::of_words(a.message.join(" "))?,
    };
    if body.trim().is_empty() {
        return Err(usage("the reply is empty: nothing to send"));
    }
    Ok(Ask { id, body, dry_run: a.dry_run })
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let json = a.json;
    let ask = ask(&a)?;
    let ws = Workspace::new(ctx);
    let r = reply::reply_here(&ws, &ask)?;
    let (line, status) = said(&r, ask.dry_run)?;
    render(&r, ask.dry_run, status, &line, json, out);
    Ok(0)
}

/// The `team.reply` document (`schema/reply.schema.json`).
pub fn doc(r: &Replied, dry_run: bool, status: Status, summary: &str) -> crate::converse::reply::ReplyDoc {
    r.document(dry_run, status, summary)
}

/// The reply's line and status word (`delivered`, `dry-run`), or — a reply that was not
/// delivered — the error `team reply` reports (held, unreachable, refused…), whose message is
/// the line. `team reply` and the MCP tool `team_reply` both say it this way.
pub fn said(r: &Replied, dry_run: bool) -> Result<(String, Status), TeamError> {
    let about = format!("(reply to {}: {})", r.question, r.question_line);
    Ok(match &r.went {
        Went::Owner(None) => (
            format!("owner: dry-run: the reply would be left in the owner's inbox {about}; nothing was written"),
            Status::DryRun,
        ),
        Went::Owner(Some(o)) => (
            format!(
                "owner: left in the owner's inbox at {} {about}{}",
                r.shown(&o.drop).display(),
                history_words(&o.history)
            ),
            Status::Delivered,
        ),
        Went::Seat(s) => match &s.outcome {
            Outcome::DryRun(_) if dry_run => {
                let how = match reply::dry_channel(r) {
                    Some(leg) => format!("{} via {}", s.cli, super::send::via_words(leg)),
                    None => "unreachable: no leg of its delivery order would take the reply".to_string(),
                };
                (format!("{}: dry-run: {how} {about}; nothing was written", s.seat), Status::DryRun)
            }
            o if o.delivered().is_some() => {
                let n = o.delivered().flatten().map(|n| format!(" ({n})")).unwrap_or_default();
                (format!("{}: delivered{n} {about}{}", s.seat, history_words(&s.history)), Status::Delivered)
            }
            other => {
                let Some((kind, reason)) = other.failure() else {
                    return Err(TeamError::failed(format!("{}: the reply ended {}", s.seat, other.word())));
                };
                return Err(match kind {
                    Kind::Refused => TeamError::refused(format!("{}: {reason}", s.seat)),
                    k => TeamError::new(
                        k,
                        format!(
                            "{}: {} ({reason}) {about}{}{}",
                            s.seat,
                            other.word(),
                            history_words(&s.history),
                            super::send::watch_words(s)
                        ),
                    )
                    .with_context((r.project.clone(), r.session.clone())),
                });
            }
        },
    })
}

fn render(r: &Replied, dry_run: bool, status: Status, line: &str, json: bool, out: &mut Output) {
    if json {
        out.doc(&doc(r, dry_run, status, line));
    } else {
        out.out(&format!("{}{}\n", context_line(&r.project, &r.session), one_line(line)));
        if let Some(p) = &r.ack_problem {
            out.err(&format!("team reply: the question could not be marked acked: {}\n", one_line(p)));
        }
    }
}

fn history_words(h: &HistoryWrite) -> String {
    super::send::history_words(h)
}
