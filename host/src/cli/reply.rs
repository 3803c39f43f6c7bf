//! `team reply <id> <message>`: its arguments, and the printing of what `converse::reply`
//! reports (the line `Replied::said` words, or its `team.reply` document). This file decides
//! nothing about the reply itself.

use std::path::PathBuf;

use crate::converse::reply::{self, Ask, Replied, Status};
use crate::ctx::Ctx;
use crate::error::{self, context_line};
use crate::output::Output;
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// Arguments of `team reply`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "The reply goes to the message's sender only, admitted by its own rule (reply to <id>), and \
is delivered as any send is; its drop opens with in-reply-to: <id> and the question's first line. \
A reply to the owner is left in the owner's inbox (team inbox, run by the owner). A reply to a \
working seat whose hooks are installed is queued in its inbox and answered at once (queued). A \
delivered or queued reply acks its question. team inbox lists the ids (docs/conversations.md).")]
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
    /// Answer once more a message you already answered (the asker asked for more).
    #[arg(long)]
    pub again: bool,
}

/// Checks the invocation.
pub fn ask(a: &Args) -> error::Result<Ask> {
    Ask::of(a.id.clone(), &a.message, a.file.as_deref(), a.dry_run, a.again)
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let json = a.json;
    let ask = ask(&a)?;
    let ws = Workspace::new(ctx);
    let r = reply::reply_here(&ws, &ask)?;
    let (line, status) = r.said(ask.dry_run)?;
    render(&r, ask.dry_run, status, &line, json, out);
    Ok(0)
}

fn render(r: &Replied, dry_run: bool, status: Status, line: &str, json: bool, out: &mut Output) {
    if json {
        out.doc(&r.document(dry_run, status, line));
    } else {
        out.out(&format!("{}{}\n", context_line(&r.project, &r.session), one_line(line)));
        if let Some(p) = &r.ack_problem {
            out.err(&format!("team reply: the question could not be marked acked: {}\n", one_line(p)));
        }
    }
}
