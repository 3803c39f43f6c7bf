//! One entry of the feed — a message (with where it stands), a brief or an audit line — and
//! the form the `team.feed` document carries it in (`schema/feed.schema.json`).
//!
//! Invariant: an event's document is its whole content: a message is its history line as
//! written, with `project` (only when the run names no single team), `read` and `acked` added;
//! a brief and an audit line say their `kind` first. Two events with the same document are
//! the same entry (`--follow` tells entries apart by it).

use std::path::PathBuf;

use serde::ser::{Serialize, Serializer};
use serde_json::Value;

use super::{AckMark, ReadMark};
use crate::history::{self, MessageLine};

/// One entry of the feed.
// (A message is most of the entries and the largest: boxing it would add an allocation per
// history line to save a move.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Message {
        line: MessageLine,
        /// The project it belongs to, when the run names no single team (`--all`).
        project: Option<String>,
        /// Where a delivered message waiting for its sign stands (from the receipts).
        read: Option<ReadMark>,
        /// Its seat acked it (`team ack`, or its reply), on the line that delivered it.
        acked: Option<AckMark>,
    },
    Brief {
        ts: String,
        from: String,
        to: String,
        body: String,
        path: PathBuf,
    },
    Audit {
        ts: String,
        from: Option<String>,
        to: Option<String>,
        action: Option<String>,
        detail: Option<String>,
        path: PathBuf,
        record: Value,
    },
}

impl Event {
    /// Its time as written (RFC 3339 when it parses).
    pub fn ts(&self) -> &str {
        match self {
            Event::Message { line, .. } => line.ts.as_str(),
            Event::Brief { ts, .. } | Event::Audit { ts, .. } => ts,
        }
    }

    /// Whether `seat` sent or received it.
    pub fn involves(&self, seat: &str) -> bool {
        match self {
            Event::Message { line, .. } => line.from == seat || line.to == seat,
            Event::Brief { from, to, .. } => from == seat || to == seat,
            Event::Audit { from, to, .. } => from.as_deref() == Some(seat) || to.as_deref() == Some(seat),
        }
    }

    /// The message id and the id it answers (`(None, None)` for an event that is no message):
    /// what threads a reply under its question.
    pub fn thread_key(&self) -> (Option<&str>, Option<&str>) {
        match self {
            Event::Message { line, .. } => (Some(line.id.as_str()), line.reply_to.as_deref()),
            _ => (None, None),
        }
    }
}

impl From<history::Brief> for Event {
    fn from(b: history::Brief) -> Event {
        Event::Brief { ts: b.ts, from: b.from, to: b.to, body: b.body, path: b.path }
    }
}

impl From<history::AuditLine> for Event {
    fn from(a: history::AuditLine) -> Event {
        Event::Audit {
            ts: a.ts,
            from: a.from,
            to: a.to,
            action: a.action,
            detail: a.detail,
            path: a.path,
            record: a.record,
        }
    }
}

/// A message's document: the history line's fields, then what the feed adds.
#[derive(serde::Serialize)]
struct MessageDoc<'a> {
    #[serde(flatten)]
    line: &'a MessageLine,
    #[serde(skip_serializing_if = "Option::is_none")]
    project: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read: &'a Option<ReadMark>,
    #[serde(skip_serializing_if = "Option::is_none")]
    acked: &'a Option<AckMark>,
}

/// A brief's and an audit line's documents, `kind` first.
#[derive(serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum OtherDoc<'a> {
    Brief {
        ts: &'a str,
        from: &'a str,
        to: &'a str,
        body: &'a str,
        path: String,
    },
    Audit {
        ts: &'a str,
        from: &'a Option<String>,
        to: &'a Option<String>,
        action: &'a Option<String>,
        body: &'a Option<String>,
        path: String,
        record: &'a Value,
    },
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Event::Message { line, project, read, acked } => MessageDoc { line, project, read, acked }.serialize(s),
            Event::Brief { ts, from, to, body, path } => {
                OtherDoc::Brief { ts, from, to, body, path: path.display().to_string() }.serialize(s)
            }
            Event::Audit { ts, from, to, action, detail, path, record } => {
                OtherDoc::Audit { ts, from, to, action, body: detail, path: path.display().to_string(), record }
                    .serialize(s)
            }
        }
    }
}
