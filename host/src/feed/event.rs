//! One entry of the feed — a message (with where it stands), a brief or an audit line — and
//! the form the `team.feed` document carries it in (`schema/feed.schema.json`).
//!
//! Invariant: an event's document is its whole content: a message is its history line as
//! written, with `project` (only when the run names no single team), `read` and `acked` added;
//! a brief and an audit line say their `kind` first. Two events with the same document are
//! the same entry (`--follow` tells entries apart by it).

use std::path::PathBuf;

use schemars::JsonSchema;
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

/// One history line, as messages.jsonl keeps it. The last six of the spec's fields are
/// optional and appear only when the line carries them; so do cli, profile, dialog and retry
/// (settled in docs/watch.md), read and acked, joined from the receipts; and reply_to, the id
/// of the message a reply answers (docs/conversations.md).
#[derive(serde::Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false), transform = crate::vocab::doc::absent_not_null)]
struct MessageDoc<'a> {
    #[serde(flatten)]
    line: &'a MessageLine,
    /// Only when the run names no single team.
    #[serde(skip_serializing_if = "Option::is_none")]
    project: &'a Option<String>,
    /// Joined from receipts.jsonl by id, on the delivered line of a message its own send
    /// could not confirm (a note of taken/queued, not yet confirmed): read (the sign team
    /// watch found, when, and ms from the send's start), not yet, or never acted on. A
    /// delivered line without it was confirmed by its send.
    #[serde(skip_serializing_if = "Option::is_none")]
    read: &'a Option<ReadMark>,
    /// Joined from receipts.jsonl by id, on the line that delivered it: its seat acked the
    /// message (team ack, or its team reply), when, and what it said.
    #[serde(skip_serializing_if = "Option::is_none")]
    acked: &'a Option<AckMark>,
}

/// A brief's and an audit line's documents, `kind` first.
#[derive(serde::Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum OtherDoc<'a> {
    /// A briefs/<from>-to-<to>.md file; ts is its modification time, body its whole text.
    Brief {
        #[schemars(extend("format" = "date-time"))]
        ts: &'a str,
        #[schemars(length(min = 1))]
        from: &'a str,
        #[schemars(length(min = 1))]
        to: &'a str,
        body: &'a str,
        path: String,
    },
    /// One Desk guard or bridge audit.jsonl line; record is the line's whole object.
    Audit {
        ts: &'a str,
        from: &'a Option<String>,
        to: &'a Option<String>,
        action: &'a Option<String>,
        body: &'a Option<String>,
        path: String,
        #[schemars(with = "serde_json::Map<String, Value>")]
        record: &'a Value,
    },
}

/// An event's schema: a message, a brief or an audit line.
impl JsonSchema for Event {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Event".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let message = g.subschema_for::<MessageDoc<'static>>();
        let other = g.subschema_for::<OtherDoc<'static>>();
        schemars::json_schema!({ "oneOf": [message, other] })
    }
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
