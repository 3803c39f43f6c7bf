//! The `team.send.list` and `team.send.all` documents, built from their reports; their
//! schemas are generated from these types (`crate::schema`).

use schemars::JsonSchema;
use serde::Serialize;

use super::all::{Fanout, Row};
use super::{ListReport, SendReport};
use crate::plan::Reach;
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::id::ID_PATTERN;
use crate::vocab::leg::Leg;

/// The document `team send --list --json` prints: the addressable seats — the file's own
/// roster, then the seats of the caller's entity's other teams as <seat>@<team> — and the `N
/// seats` summary.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDoc {
    pub schema: Named<ListDoc>,
    pub format: FormatOne,
    pub project: Option<String>,
    pub session: Option<String>,
    pub seats: Vec<ListSeat>,
    #[schemars(regex(pattern = r"^[0-9]+ seats?$"))]
    pub summary: String,
}

impl Document for ListDoc {
    const NAME: &'static str = "team.send.list";
    const FILE: &'static str = "send-list";
}

/// One addressable seat.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints admitted_by; the spec's own example predates it)
#[schemars(transform = crate::vocab::doc::not_required(&["admitted_by"]))]
pub struct ListSeat {
    /// The seat's address: its name, or <seat>@<team> for another team's seat.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The seat's human-name address: @<nickname>, or <nickname>@<team> for another team's
    /// seat; null when the file writes none.
    #[schemars(regex(pattern = r"^[^@\s]*@[^@\s]+$"))]
    pub nickname: Option<String>,
    #[schemars(length(min = 1))]
    pub cli: String,
    pub role: Option<String>,
    pub project: String,
    /// The channel the seat is reachable by once every leg ships; null when its cli names no
    /// usable profile (problem says why).
    pub reach: Option<Reach>,
    pub stopped: bool,
    /// The rule that admits this run's caller sending to the seat, in the words the sender
    /// header and the history use (`the owner`, `lead of beacon`, `own lead`, `orchestrator of
    /// api`, `the entity's assistant`, `grant <file>`); null when a send from this caller would
    /// be refused (docs/admission.md). Written by every run of this build; the spec's own
    /// example predates it.
    pub admitted_by: Option<String>,
    /// Present when a send to the seat would be refused before anything is written: the
    /// refusal's words after the seat's name (`runs "codx", which names no installed profile
    /// (did you mean codex?); …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub problem: Option<String>,
}

impl ListReport {
    /// The `team.send.list` document.
    pub fn document(&self) -> ListDoc {
        ListDoc {
            schema: Named::new(),
            format: FormatOne,
            project: self.context.as_ref().map(|c| c.0.clone()),
            session: self.context.as_ref().map(|c| c.1.clone()),
            seats: self
                .seats
                .iter()
                .map(|r| ListSeat {
                    name: r.name.clone(),
                    nickname: r.nickname.clone(),
                    cli: r.cli.clone(),
                    role: r.role.clone(),
                    project: r.project.clone(),
                    reach: r.reach,
                    stopped: r.stopped,
                    admitted_by: r.admitted_by.clone(),
                    problem: r.problem.clone(),
                })
                .collect(),
            summary: self.summary(),
        }
    }
}

/// The document `team send all <message> --json` prints: one recipient per seat the caller may
/// reach, each sent to on its own as team send <seat> would (its own id, outcome and sentence),
/// and the summary. status delivered when every seat took it, queued when every seat took it or
/// has it queued in its inbox (both exit 0), partial otherwise (exit 1).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllDoc {
    pub schema: Named<AllDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub status: AllStatus,
    pub project: String,
    pub session: String,
    #[schemars(length(min = 1))]
    pub recipients: Vec<Recipient>,
    pub summary: String,
}

impl Document for AllDoc {
    const NAME: &'static str = "team.send.all";
    const FILE: &'static str = "send-all";
}

/// `delivered` when every seat took it, `queued` when every seat took it or has it queued in
/// its inbox for its hook (an agent's broadcast to working seats), else `partial`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AllStatus {
    Delivered,
    Queued,
    Partial,
}

/// One seat's send.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Recipient {
    pub seat: String,
    pub outcome: super::OutcomeWord,
    #[schemars(regex(pattern = ID_PATTERN))]
    pub id: Option<String>,
    pub channel: Option<Leg>,
    /// The seat's line, as a plain run prints it.
    pub sentence: String,
}

impl Fanout {
    /// The `team.send.all` document; `line` renders a row's sentence.
    pub fn document(&self, dry_run: bool, line: impl Fn(&Row) -> String) -> AllDoc {
        AllDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run,
            status: match (self.done(), dry_run || self.all_delivered()) {
                (true, true) => AllStatus::Delivered,
                (true, false) => AllStatus::Queued,
                (false, _) => AllStatus::Partial,
            },
            project: self.project.clone(),
            session: self.session.clone(),
            recipients: self
                .rows
                .iter()
                .map(|r| {
                    let (id, channel) = match r {
                        Row::Sent(s) if !dry_run => (s.id.clone(), s.channel),
                        _ => (None, None),
                    };
                    Recipient { seat: r.seat().to_string(), outcome: r.said(), id, channel, sentence: line(r) }
                })
                .collect(),
            summary: self.summary(dry_run),
        }
    }
}

/// The document `team send … --json` prints for a run that exits 0: the action surface and the
/// outcome in one — {format, dry_run, status, action_summary, project, session, seat, channel,
/// ids, reply?, plan?}. A run that exits 1 or 2 prints team.error instead (error.schema.json).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [{
    "if": { "properties": { "dry_run": { "const": true } } },
    "then": { "required": ["plan"], "properties": { "channel": { "const": null } } }
}]))]
pub struct SendDoc {
    pub schema: Named<SendDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub status: SendStatus,
    /// The outcome line a plain run prints (`gpt-reviewer: delivered`, `claude-keeper: recorded
    /// (native, 812 ms)`, `gpt-reviewer: dry-run: codex via …`).
    #[schemars(length(min = 1))]
    pub action_summary: String,
    pub project: Option<String>,
    pub session: Option<String>,
    /// The seat the target resolved to.
    #[schemars(length(min = 1))]
    pub seat: String,
    /// The leg that took the send (for a queued send, the inbox leg whose hook will hand it);
    /// null on a dry run.
    pub channel: Option<Leg>,
    pub ids: SendIds,
    /// The dry run's own step: the channel its walk would take and what it would write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<SendPlan>,
    /// The short qualifier the outcome word cannot carry alone: `taken, not yet confirmed`
    /// when the box cleared before the status or the transcript showed the seat act, or the
    /// dialog the seat opened after taking the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Option<String>>,
    /// The drop file's path: the message, whole, on disk (delivered and queued).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<Option<String>>,
    /// Whole milliseconds from send to outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub ms: Option<Option<u64>>,
    /// Present when the send's history line could not be written (messages.jsonl): why, in the
    /// project's words — a read-only folder is named as a sandbox in the way. The send itself
    /// is as status says; team.log says the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub history_error: Option<String>,
}

impl Document for SendDoc {
    const NAME: &'static str = "team.send";
    const FILE: &'static str = "send";
}

/// The outcome of a run that exits 0: delivered, queued (an agent's send left in a working
/// seat's inbox for its hook: docs/inbox.md), recorded (--record), or the dry run's own word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SendStatus {
    Delivered,
    Queued,
    Recorded,
    DryRun,
}

/// The ids of the run.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendIds {
    /// The id of the message this command composed.
    pub sent: Option<String>,
}

/// A dry run's plan: the walk's, a waited send's refusal, or a record.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SendPlan {
    Walk(WalkPlan),
    WaitRefused(WaitRefusedPlan),
    Record(RecordPlan),
}

/// The walk a send would take.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints order, set_aside and rule; the spec's own example predates them)
#[schemars(transform = crate::vocab::doc::not_required(&["order", "set_aside", "rule"]))]
pub struct WalkPlan {
    /// The leg that would take the send; null when the walk runs out of legs.
    pub channel: Option<Leg>,
    /// The legs of the order in force.
    pub order: Vec<Leg>,
    /// The legs that could not take it before `channel` would, each with why.
    pub failed: Vec<String>,
    /// The legs a level of the seat's chain names that the order in force has not.
    pub set_aside: Vec<String>,
    /// The admission rule's words.
    pub rule: String,
    /// The compose leg's plan, one step a sentence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compose: Vec<String>,
}

/// A waited send to a seat whose CLI carries the native channel: refused.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitRefusedPlan {
    pub refused: String,
    pub order: Vec<Leg>,
}

/// A `--record` that would be written down.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordPlan {
    #[schemars(extend("const" = "messages.jsonl"))]
    pub record: &'static str,
    pub via: Leg,
    pub ms: u64,
    pub rule: String,
}

impl SendDoc {
    /// The parts every `team.send` carries; the delivered members are set by the caller.
    pub fn new(
        r: &SendReport,
        status: SendStatus,
        summary: &str,
        channel: Option<Leg>,
        plan: Option<SendPlan>,
    ) -> SendDoc {
        let dry_run = status == SendStatus::DryRun;
        let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
        SendDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run,
            status,
            action_summary: summary.to_string(),
            project: opt(&r.project),
            session: opt(&r.session),
            seat: r.seat.clone(),
            channel,
            ids: SendIds { sent: if dry_run { None } else { r.id.clone() } },
            plan,
            note: None,
            drop: None,
            ms: None,
            history_error: None,
        }
    }
}
