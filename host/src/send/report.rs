//! What a send (or a `--record`, or `--list`) returns to the command layer: typed, and
//! serialisable as it stands.
//!
//! Invariant: a report is the whole truth of the run — the outcome, the leg that took it and
//! the legs that failed before it, what was left on disk, and whether the history line could
//! be written. `words` says it and `cli::send` prints it; nothing here prints.

use std::path::PathBuf;

use serde::Serialize;

use crate::error::Kind;
use crate::plan::{Facts, Failed, Reach, SetAside};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Ended, Note, Outcome as Said};

/// How one send, record or dry run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A carried send: the outcome its history line says, and the leg's note (delivered) or
    /// reason (held, not-submitted, unreachable, refused once a leg ran: a lock another
    /// command holds, a trigger longer than the CLI takes whole).
    Ended(Ended),
    /// A native delivery the sender made was written down.
    Recorded { ms: u64 },
    /// Nothing was written: what the run would do.
    DryRun(DryRun),
}

impl Outcome {
    /// The outcome word (`delivered`, `held`, …, `recorded`, `dry-run`): a carried send's is
    /// its history outcome's ([`Outcome::ended`]).
    pub fn word(&self) -> &'static str {
        self.said().word()
    }

    /// The outcome as its word.
    pub fn said(&self) -> OutcomeWord {
        match self {
            Outcome::Ended(e) => OutcomeWord::Ended(e.outcome.clone()),
            Outcome::Recorded { .. } => OutcomeWord::Recorded,
            Outcome::DryRun(_) => OutcomeWord::DryRun,
        }
    }

    /// How a carried send ended, as its history line says it; `None` for a record (whose
    /// line says `delivered`: `send::record`) and a dry run (which writes none).
    pub fn ended(&self) -> Option<Said> {
        match self {
            Outcome::Ended(e) => Some(e.outcome.clone()),
            Outcome::Recorded { .. } | Outcome::DryRun(_) => None,
        }
    }

    /// A carried send that waits in its seat's inbox for the hook, the send not waiting for the
    /// receipt (an agent's): what it waits for.
    pub fn queued(&self) -> Option<&str> {
        match self {
            Outcome::Ended(e) if e.outcome == Said::Queued => Some(e.reason()),
            _ => None,
        }
    }

    /// A carried send's note, when it was delivered (`Some(None)`: delivered, nothing to add).
    pub fn delivered(&self) -> Option<Option<&Note>> {
        match self {
            Outcome::Ended(e) if e.is_delivered() => Some(e.note.as_ref()),
            _ => None,
        }
    }

    /// The error kind of an outcome that exits 1 (derived from its word: `Kind::ending`), and
    /// its reason; `None` for one that exits 0.
    pub fn failure(&self) -> Option<(Kind, &str)> {
        match self {
            Outcome::Ended(e) => Kind::ending(&e.outcome).map(|k| (k, e.reason())),
            Outcome::Recorded { .. } | Outcome::DryRun(_) => None,
        }
    }
}

/// Serialised as it stands: `{"status": <word>, "note": …}` for a delivered send, `reason` for
/// another ended one, `ms` for a record, and a dry run's plan beside its status.
impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Delivered<'a> {
            status: &'a str,
            note: &'a Option<Note>,
        }
        #[derive(Serialize)]
        struct Because<'a> {
            status: &'a str,
            reason: &'a str,
        }
        #[derive(Serialize)]
        struct Recorded<'a> {
            status: &'a str,
            ms: u64,
        }
        #[derive(Serialize)]
        struct Dry<'a> {
            status: &'a str,
            #[serde(flatten)]
            would: &'a DryRun,
        }
        let status = self.word();
        match self {
            Outcome::Ended(e) if e.is_delivered() => Delivered { status, note: &e.note }.serialize(s),
            Outcome::Ended(e) => Because { status, reason: e.reason() }.serialize(s),
            Outcome::Recorded { ms } => Recorded { status, ms: *ms }.serialize(s),
            Outcome::DryRun(would) => Dry { status, would }.serialize(s),
        }
    }
}

/// The word a send's outcome is said by (`Outcome::word`, `team send all`'s recipients): a
/// carried send's is its history outcome's word, then `recorded` and `dry-run`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutcomeWord {
    Ended(Said),
    Recorded,
    DryRun,
}

impl OutcomeWord {
    pub fn word(&self) -> &'static str {
        match self {
            OutcomeWord::Ended(o) => o.known_word().unwrap_or_default(),
            OutcomeWord::Recorded => "recorded",
            OutcomeWord::DryRun => "dry-run",
        }
    }

    /// Every word a send's outcome is said by, in the schema's order.
    fn listed() -> Vec<&'static str> {
        let ended = |o: Said| OutcomeWord::Ended(o).word();
        vec![
            ended(Said::Delivered),
            OutcomeWord::DryRun.word(),
            ended(Said::Queued),
            ended(Said::Held),
            ended(Said::NotSubmitted),
            ended(Said::Unreachable),
            ended(Said::Refused),
            OutcomeWord::Recorded.word(),
        ]
    }
}

crate::vocab::doc::words!(OutcomeWord => OutcomeWord::listed());

/// What a dry run resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "would", rename_all = "kebab-case")]
pub enum DryRun {
    /// The walk: the leg that would take the send (`None`: the walk runs out of legs), and for
    /// the compose leg its module's plan, one step a sentence.
    Send {
        channel: Option<Leg>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        compose: Vec<String>,
    },
    /// A waited send to a seat whose CLI carries the native channel: its refusal.
    WaitRefused { refusal: String },
    /// A `--record` that would be written down.
    Record { ms: u64 },
}

/// Whether the send's history line was written.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "history", content = "why", rename_all = "kebab-case")]
pub enum HistoryWrite {
    /// The run writes no history line (a dry run, a refusal).
    None,
    Written,
    /// It could not be written: why (a sandbox in the way, a link on the ladder, …).
    NotWritten(String),
}

/// One send's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SendReport {
    /// `(project, session)` of the context line.
    pub project: String,
    pub session: String,
    /// The seat the target resolved to.
    pub seat: String,
    pub cli: String,
    pub facts: Facts,
    pub outcome: Outcome,
    /// The leg that took the send (`None` on a dry run, a refusal, a walk that ran out).
    pub channel: Option<Leg>,
    /// The legs of the order in force.
    pub order: Vec<Leg>,
    /// The legs that definitely could not take it before `channel` did.
    pub failed: Vec<Failed>,
    pub set_aside: Vec<SetAside>,
    /// The admission rule's words.
    pub rule: String,
    /// The message id this run composed.
    pub id: Option<String>,
    /// The drop file: the message, whole, on disk.
    pub drop: Option<PathBuf>,
    pub ms: Option<u64>,
    pub history: HistoryWrite,
    /// The pid of the running `team watch` that will retry this send (a held, not-submitted
    /// or dialog-stopped typed send, while a watch runs for the receiving project).
    pub watch_retry: Option<u32>,
    /// The owner's notification command failed (said once: `converse::notify`).
    pub notify: Option<String>,
    /// What a hop's far side adds (`send::hop`): its `team` is another version than this one.
    pub far: Option<String>,
}

/// One `--list` row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListRow {
    /// Its address: the seat's name, or `<seat>@<team>` in another team.
    pub name: String,
    pub nickname: Option<String>,
    pub cli: String,
    pub role: Option<String>,
    pub project: String,
    /// `None` when its CLI has no usable profile (`problem` says why).
    pub reach: Option<Reach>,
    pub stopped: bool,
    /// Why a send to it would be refused before anything is written, when it would be.
    pub problem: Option<String>,
    /// The rule that admits this run's caller sending to it (`None`: refused).
    pub admitted_by: Option<String>,
}

/// `--list`'s report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListReport {
    /// `(project, session)` of the cwd's team file, when the run stands in one.
    pub context: Option<(String, String)>,
    pub seats: Vec<ListRow>,
}

impl ListReport {
    /// `2 seats`.
    pub fn summary(&self) -> String {
        match self.seats.len() {
            1 => "1 seat".to_string(),
            n => format!("{n} seats"),
        }
    }
}

/// What `send::run` answers.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Report {
    Send(Box<SendReport>),
    List(ListReport),
    /// `team send all`: one row per seat (each said by `Row::line`, never serialised whole).
    #[serde(skip)]
    All(super::all::Fanout),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Cannot;

    #[test]
    fn a_report_serialises_as_it_stands() {
        let r = SendReport {
            project: "beacon".into(),
            session: "beacon".into(),
            seat: "gpt-reviewer".into(),
            cli: "codex".into(),
            facts: Facts::default(),
            outcome: Outcome::Ended(Ended::delivered(Some("taken, not yet confirmed".into()))),
            channel: Some(Leg::Typed),
            order: Leg::ORDER.to_vec(),
            failed: vec![Failed { leg: Leg::Native, why: Cannot::NoNativeChannel }],
            set_aside: Vec::new(),
            rule: "the owner".into(),
            id: Some("x".into()),
            drop: None,
            ms: Some(12),
            history: HistoryWrite::NotWritten("/c is read-only here".into()),
            watch_retry: None,
            far: None,
            notify: None,
        };
        let v = serde_json::to_value(Report::Send(Box::new(r))).unwrap();
        assert_eq!(v["outcome"], serde_json::json!({"status": "delivered", "note": "taken, not yet confirmed"}));
        assert_eq!(v["channel"], "typed");
        assert_eq!(v["order"], serde_json::json!(["native", "mcp-inbox", "typed"]));
        assert_eq!(v["failed"], serde_json::json!(["native: the CLI carries no native channel"]));
        assert_eq!(v["history"], serde_json::json!({"history": "not-written", "why": "/c is read-only here"}));
        let dry = serde_json::to_value(Outcome::DryRun(DryRun::Send { channel: None, compose: Vec::new() })).unwrap();
        assert_eq!(dry, serde_json::json!({"status": "dry-run", "would": "send", "channel": null}));
        assert_eq!(Outcome::Ended(Ended::not_submitted("r")).failure(), Some((Kind::NotSubmitted, "r")));
        let held = serde_json::to_value(Outcome::Ended(Ended::held("h"))).unwrap();
        assert_eq!(held, serde_json::json!({"status": "held", "reason": "h"}));
        let queued = Outcome::Ended(Ended::queued("q"));
        assert_eq!(serde_json::to_value(&queued).unwrap(), serde_json::json!({"status": "queued", "reason": "q"}));
        assert_eq!((queued.failure(), queued.queued(), queued.delivered()), (None, Some("q"), None));
        let rec = serde_json::to_value(Outcome::Recorded { ms: 3 }).unwrap();
        assert_eq!(rec, serde_json::json!({"status": "recorded", "ms": 3}));
    }
}
