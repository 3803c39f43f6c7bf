//! Conversations (docs/conversations.md): a seat answers the message it got (`reply`), says it
//! read it and will act on it (`ack`), sees what waits for it (`inbox`); the owner, who is no
//! seat, gets replies and alerts in an inbox of its own and is told at once what needs them
//! (`notify`).
//!
//! Every use-case here reads one team's history and receipts (the team file the caller stands
//! in: [`Book`]) and folds them by id (`history::Ledger`).
//!
//! Invariants: who asks is the caller found from its pane (`caller::find`), never a word of
//! the command line; a message is answered or acked only by the seat its history line says it
//! was delivered to (or, for a message to the owner, by the owner); an id from the command
//! line is checked against the id grammar before it is looked up, and an id read back is never
//! joined into a path unchecked; nothing here prints.

pub mod ack;
pub mod inbox;
pub mod owner;
pub mod reply;

use std::path::PathBuf;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::{self, TeamError};
use crate::history::{self, Entry, Ledger, MessageLine, Receipt};
use crate::team_file::Loaded;

pub use crate::history::ledger::OWNER;

/// One team's history and receipts, read once for a run.
pub struct Book {
    pub project: String,
    pub session: String,
    pub team: String,
    /// The checkout root.
    pub root: PathBuf,
    /// `<config>/<project>-<hash8>`.
    pub dir: PathBuf,
    pub lines: Vec<MessageLine>,
    pub receipts: Vec<Receipt>,
}

impl Book {
    /// Reads the history and receipts of the team `file` names.
    pub fn open(ctx: &Ctx, file: &Loaded) -> error::Result<Book> {
        let project = file.file.project.clone();
        let dir = history::project_dir(&ctx.paths.config, &project, &file.root);
        let unread = |e: std::io::Error| TeamError::refused(format!("the history of {project} cannot be read: {e}"));
        let lines = history::read_history(&ctx.paths.config, &dir).map_err(unread)?.lines;
        let receipts = history::read_receipts_checked(&ctx.paths.config, &dir).map_err(unread)?.lines;
        Ok(Book {
            project: project.clone(),
            session: file.file.session.clone(),
            team: file.file.team.clone(),
            root: file.root.clone(),
            dir,
            lines,
            receipts,
        })
    }

    pub fn ledger(&self) -> Ledger<'_> {
        Ledger::build(&self.lines, &self.receipts)
    }
}

/// Who a conversation's caller is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who {
    Owner,
    /// A seat of the book's team.
    Seat(String),
}

impl Who {
    /// The name the history uses: `owner`, or the seat's.
    pub fn name(&self) -> &str {
        match self {
            Who::Owner => OWNER,
            Who::Seat(s) => s,
        }
    }
}

/// The caller as a conversation sees it: the owner, or a seat of `team` (the team file it
/// stands in); anything else is refused with `what` (`answers`, `acks`, …) in the sentence.
pub fn who(caller: &Caller, team: &str, what: &str) -> error::Result<Who> {
    match caller {
        Caller::Owner => Ok(Who::Owner),
        Caller::Seat { team: t, seat, .. } if t == team => Ok(Who::Seat(seat.clone())),
        Caller::Seat { team: t, seat, .. } => Err(TeamError::refused(format!(
            "seat {seat} of {t} stands in the checkout of {team}: a seat {what} from its own team's checkout"
        ))),
        other => Err(TeamError::refused(format!(
            "{} {what} nothing: only a seat, from its own pane, or the owner at a terminal does",
            other.describe()
        ))),
    }
}

/// Checks an id from the command line: a usage error (exit 2) when it is no message id.
pub fn checked_id(id: &str) -> error::Result<&str> {
    crate::vocab::id::check_id(id).map_err(|why| TeamError::usage(format!("{why}; team inbox lists the ids")))?;
    Ok(id)
}

/// The entry of `id` in `ledger`, or the refusal naming the history looked in.
pub fn entry<'l>(ledger: &'l Ledger, id: &str, book: &Book) -> error::Result<&'l Entry> {
    ledger.entry(id).ok_or_else(|| {
        TeamError::refused(format!(
            "no message {id} in the history of {}; team inbox lists the messages waiting for you",
            book.project
        ))
    })
}

pub use crate::history::in_reply_to;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{first_line, message_of};

    #[test]
    fn the_message_and_its_first_line() {
        let body = "from the owner — admitted by: the owner\n\n\n  review the parser\nbranch please";
        assert_eq!(message_of(body), "\n  review the parser\nbranch please");
        assert_eq!(first_line(body), "review the parser");
        assert_eq!(first_line("plain\nbody"), "plain");
        assert!(first_line(&"x".repeat(200)).starts_with(&format!("{}… (120 more", "x".repeat(80))));
        let reply = "from a — admitted by: reply to i\nin-reply-to: i (q)\n\nanswer";
        assert_eq!(message_of(reply), "answer");
        assert_eq!(in_reply_to("i", "from x — admitted by: y\n\nwhat\u{1b}[31m?"), "in-reply-to: i (what\\x1b[31m?)");
    }
}
