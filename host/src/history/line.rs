//! One line of `messages.jsonl` ([`MessageLine`]): its fields in the spec's order, and the
//! schema of the line as `team feed --json` carries it (`schema/feed.schema.json`).
//!
//! Invariant: a line read and written back is the line that was read — every field is kept
//! as written (the vocab types keep a word they do not know), and an absent optional field
//! stays absent, so the schema's optional fields are never `null`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::vocab::id::ID_PATTERN;
use crate::vocab::outcome::{Decider, Note, Outcome, Ts, Via};

/// One line of `messages.jsonl`, fields in the spec's order. The six optional fields are
/// left out of the line when absent (`None`, or an empty `failed`).
///
/// **Settled** (docs/watch.md): four more optional fields follow the spec's twelve, each left
/// out when absent, so a line without them is the spec's line as it stands — `cli` and
/// `profile` (the profile id and version that read the seat's screens, on a line whose leg
/// loaded one: the figures of `team feed --stats`), `dialog` (the dialog kind that stopped a
/// send before anything was typed: what `team watch` retries once it is gone), and `retry`
/// (the watch's try that wrote this line, 1 to 3); and `reply_to`, the id a `team reply`
/// answers (docs/conversations.md); and `by`, what decided the outcome (the screen, the CLI's
/// own status report, its transcript, its hook's receipt, the multiplexer's status:
/// docs/status-reports.md).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Default)]
#[schemars(transform = crate::vocab::doc::absent_not_null)]
#[schemars(extend("dependentRequired" = { "spec": ["resolved"], "resolved": ["spec"] }))]
pub struct MessageLine {
    pub ts: Ts,
    pub from: String,
    pub to: String,
    pub body: String,
    #[schemars(length(min = 1))]
    pub id: String,
    pub outcome: Outcome,
    /// The address as the sender wrote it, when it was a form rather than the seat's own
    /// name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    /// The registry id (agt_…) that spec resolved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
    /// The legs that failed before the one that took the send, each `<leg>: <why>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1), inner(regex(pattern = r"^[a-z][a-z-]*: .+")))]
    pub failed: Vec<String>,
    /// The qualifier the outcome word cannot carry alone: taken, not yet confirmed; queued,
    /// not yet confirmed; on the watch's later line for the id, taken but never acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Note>,
    /// Settled (docs/watch.md): the profile id that read the seat's screens, on a line whose
    /// leg loaded one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cli: Option<String>,
    /// The version of that profile: team feed --stats counts per cli and profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The dialog kind that stopped the send before anything was typed (an unreachable line):
    /// what team watch retries once it is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<String>,
    /// The try of team watch that wrote this line for the id (the send's own line has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3))]
    pub retry: Option<u32>,
    /// The id of the message this one answers (team reply; docs/conversations.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_PATTERN))]
    pub reply_to: Option<String>,
    /// What decided the outcome (docs/status-reports.md); absent on a line written before it
    /// was kept, or where no witness was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Decider>,
    /// The host word the sender's machine answers to, on a line the far side of a hop wrote
    /// (docs/remote.md, Replies across the hop): `team reply` sends its answer back there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_host: Option<String>,
    /// On the far side's line of a hop: the message came over ssh from another machine (its
    /// `team` handed it here; `from_host` names that machine when it named itself).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over_ssh: bool,
    /// On the near side's line of a hop (`via: ssh`): the host word of the machine it went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub to_host: Option<String>,
    /// On the near side's line of a hop: the leg that carried it on the far side, as the far
    /// side answered it (`typed`, `inbox`, `owner-inbox`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub far_via: Option<Via>,
}

impl MessageLine {
    /// Whether the message travelled by `leg` (its `via` names it).
    pub fn went_by(&self, leg: crate::vocab::leg::Leg) -> bool {
        self.via.as_ref().is_some_and(|v| v.is(leg))
    }
}

/// The message a history body carries, without its sender header (`from … — admitted by: …`,
/// and a reply's `in-reply-to:` line).
pub fn message_of(body: &str) -> &str {
    match body.split_once("\n\n") {
        Some((h, b)) if h.starts_with("from ") && h.contains(" — admitted by: ") => b,
        _ => body,
    }
}

/// A history body split into its sender header (`from … — admitted by: …`, and a reply's one
/// `in-reply-to:` line) and its message; `None` for a body that opens with no such header.
pub fn header_split(body: &str) -> Option<(&str, &str)> {
    let (h, b) = body.split_once("\n\n")?;
    let one_header = !h.contains('\n')
        || h.split_once('\n').is_some_and(|(_, r)| r.starts_with("in-reply-to: ") && !r.contains('\n'));
    (h.starts_with("from ") && h.contains(" — admitted by: ") && one_header).then_some((h, b))
}

/// The header line a reply's drop carries under its sender line.
pub fn in_reply_to(id: &str, question: &str) -> String {
    format!("in-reply-to: {id} ({})", first_line(question))
}

/// The first non-empty line of a message, at most 80 characters, on one line.
pub fn first_line(body: &str) -> String {
    let line = message_of(body).lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    crate::vocab::text::one_line(&crate::vocab::text::bound(line, 80)).into_owned()
}
