//! `team feed`'s use-cases: what a run reads (its [`Scope`]), the events in view joined with
//! their receipts ([`read`]), one listing ([`list`]), the passes of a follow ([`Follow`]) and
//! the `--stats` figures ([`stats`]), and the words they are said in ([`words`]). `cli::feed`
//! parses the arguments and prints what these return; nothing here prints.
//!
//! Invariant: a feed writes nothing. It creates no folder, no lock file, no log line, and
//! following never grows anything; every history, receipt, brief and audit file is read with
//! the history's own readers (O_NOFOLLOW, the ladder from `<config>` down checked).
//!
//! What it reads, oldest event first:
//! - **messages** — `<config>/<project>-<hash8>/messages.jsonl.2`, `.1`, then the current
//!   file (`history::read_history`: O_NOFOLLOW, a link or FIFO on the ladder from `<config>`
//!   down refused, unparsable lines skipped and counted). In a checkout that is the team
//!   file's project; with `--all`, or outside a checkout, every `<name>-<8 hex>` folder of
//!   `<config>`, each event then also naming its `project`.
//! - **briefs** — (`history::read_briefs`) every `<from>-to-<to>.md` file of `--briefs <dir>`,
//!   or of `<root>/briefs` in a checkout (none by default under `--all`). The name is split at
//!   its first `-to-`; a file whose name does not split into two non-empty parts is not a
//!   brief and is passed over. Its time is the file's modification time; its event carries the
//!   whole text as `body` and the file as `path`. Kind `brief`.
//! - **audit lines** — (`history::audit_files`, `history::read_audit`) Desk guard and bridge
//!   `audit.jsonl` files: `<config>/lobby/audit.jsonl` and `<config>/lobby/<any>/audit.jsonl`,
//!   or only `--audit <path>` (a file, or a folder read the same way as the lobby) when given.
//!   Each line is one JSON object; its time is the first of `ts`, `time`, `at`; the actor the
//!   first of `from`, `actor`, `caller`, `sender`; the target the first of `to`, `target`,
//!   `seat`; the action the first of `action`, `event`, `decision`, `outcome`; the text the
//!   first of `detail`, `reason`, `message`, `summary`. A line with a `project` other than the
//!   run's is another team's and is left out; a line that is not an object or has no time is
//!   skipped and counted. Kind `audit`; the event keeps the whole object as `record`. Signed
//!   answer files in the lobby are not read by this build.
//! - **receipts** — `receipts.jsonl` beside the history (`history::read_receipts`), which
//!   `team watch` writes: joined by id (`history::Ledger`), a delivered message still waiting
//!   for its sign is marked read (and when), not yet read, or never acted on ([`ReadMark`]);
//!   a message its seat acked carries an [`AckMark`]. A delivered line with no mark was
//!   confirmed by its own send.
//!
//! Events are ordered by time; events of equal time keep the order they were read in
//! (messages in file order, then briefs by name, then audit lines).

pub mod doc;
mod event;
mod follow;
mod marks;
mod read;
mod scope;
pub mod stats;
mod thread;
pub mod words;

pub use event::Event;
pub use follow::Follow;
pub use marks::{AckMark, ReadMark};
pub use read::{read, Read, Skipped};
pub use scope::{Scope, Want};
pub use thread::threaded;

use crate::error::{self, TeamError};

/// What a listing keeps of the events in view.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Only the events this seat sent or received (its name, or `@<nickname>` of the team
    /// file's seats).
    pub seat: Option<String>,
    /// Only the last `n` events.
    pub limit: Option<usize>,
}

/// The events a listing shows and the lines it passed over.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub events: Vec<Event>,
    pub skipped: Skipped,
}

/// The events in view, the seat's only (a seat neither the file nor the history knows is a
/// usage error), the last `limit` of them.
pub fn list(scope: &Scope, q: &Query) -> error::Result<Report> {
    let Read { events, skipped } = read(scope)?;
    let events = scope.of_seat(events, q.seat.as_deref(), true)?;
    Ok(Report { events: limited(events, q.limit), skipped })
}

/// The last `limit` events (all of them with no limit).
pub fn limited(mut events: Vec<Event>, limit: Option<usize>) -> Vec<Event> {
    if let Some(n) = limit {
        let drop = events.len().saturating_sub(n);
        events.drain(..drop);
    }
    events
}

/// A history file the feed could not read: refused with the reader's own sentence.
fn refusal(e: std::io::Error) -> TeamError {
    TeamError::refused(e.to_string())
}

/// A delivered message from `from` to `to`, as the feed's tests and its renderer's build them.
#[cfg(test)]
pub(crate) fn sample_message(ts: &str, from: &str, to: &str, body: &str) -> Event {
    Event::Message {
        line: crate::history::MessageLine {
            ts: ts.into(),
            from: from.into(),
            to: to.into(),
            body: body.into(),
            id: "00000000-0000-4000-8000-000000000000".into(),
            outcome: "delivered".into(),
            ms: Some(0),
            via: Some("typed".into()),
            ..Default::default()
        },
        project: None,
        read: None,
        acked: None,
    }
}

#[cfg(test)]
mod tests;
