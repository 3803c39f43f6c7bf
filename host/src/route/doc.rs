//! The `team.route` document (`team route <seat> --json`), built from a [`Report`] — its schema
//! generated from this type (`crate::schema`) — and the answer's plain words.
//!
//! Invariant: `address` is null exactly when `socket_state` is `none`, and `plan` is there
//! exactly on a dry run (the schema says both).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Report, SocketState};
use crate::error::context_line;
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::text::one_line;

/// The document `team route <seat> --json` prints (docs/spec/team-route.md): the action
/// surface and the answer in one — {format, dry_run, status, action_summary, project, session,
/// seat, agent, recipient_session, cli, pane, address, socket_state, native, rule, plan?}.
/// session is the caller's team session; the recipient's travels as recipient_session, the
/// name its Claude session answers to (what SendMessage addresses), null where the CLI has no
/// native channel. A refusal prints team.error instead (route.<row>).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [
    {
        "if": { "properties": { "socket_state": { "const": "none" } } },
        "then": { "properties": { "address": { "const": null } } },
        "else": { "properties": { "address": { "type": "string" } } }
    },
    {
        "if": { "properties": { "dry_run": { "const": true } } },
        "then": { "required": ["plan"], "properties": { "status": { "const": "dry-run" }, "action_summary": { "const": "dry run: nothing was run" } } },
        "else": { "not": { "required": ["plan"] }, "properties": { "status": { "const": "routed" } } }
    }
]))]
pub struct RouteDoc {
    pub schema: Named<RouteDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub status: RouteStatus,
    /// The closing line `<seat>: routed at <path|no socket> (<state>)`, or `dry run: nothing
    /// was run`.
    #[schemars(length(min = 1))]
    pub action_summary: String,
    pub project: String,
    pub session: String,
    #[schemars(length(min = 1))]
    pub seat: String,
    #[schemars(regex(pattern = r"^agt_[0-9a-z]{1,64}$"))]
    pub agent: String,
    pub recipient_session: Option<String>,
    #[schemars(length(min = 1))]
    pub cli: String,
    #[schemars(length(min = 1))]
    pub pane: String,
    /// The socket path answered; null only when socket_state is none.
    pub address: Option<String>,
    // (each word's description is its variant's doc comment)
    pub socket_state: SocketState,
    /// Whether the recipient's CLI carries the cross-session channel (its profile's
    /// description).
    pub native: bool,
    /// The admission rule that admitted the pair, as a send names it.
    #[schemars(length(min = 1))]
    pub rule: String,
    /// A dry run's one step: what a real run would append.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1))]
    pub plan: Option<Vec<PlanStep>>,
}

impl Document for RouteDoc {
    const NAME: &'static str = "team.route";
    const FILE: &'static str = "route";
}

/// `routed`, or `dry-run` when nothing was appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RouteStatus {
    Routed,
    DryRun,
}

/// The step a dry run did not take.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanStep {
    pub step: RecordStep,
    #[schemars(length(min = 1))]
    pub seat: String,
    /// `<seat>: append the route to <routes.jsonl>`.
    #[schemars(regex(pattern = r": append the route to .+routes\.jsonl$"))]
    pub detail: String,
    pub prefix: PlusPrefix,
}

/// The plan's only step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RecordStep {
    Record,
}

/// The plan line's prefix, `+`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum PlusPrefix {
    #[serde(rename = "+")]
    Plus,
}

impl Report {
    /// The answer in words: the context line, then the seat's agent, session, cli and pane, the
    /// socket's state, native and the rule, the closing line (and a dry run's plan) — every
    /// line made one safe line (a session name, a path come from outside).
    pub fn said(&self) -> String {
        let s = &self.seat;
        let mut out = format!(
            "{s}: agent {}, session {}, cli {}, pane {}\n",
            self.agent,
            self.recipient_session.as_deref().unwrap_or("-"),
            self.cli,
            self.pane
        );
        out.push_str(&format!("{s}: {}\n", self.state.sentence(self.unread_why.as_deref())));
        out.push_str(&format!("{s}: native {}, admitted by: {}\n", if self.native { "yes" } else { "no" }, self.rule));
        out.push_str(&self.closing());
        out.push('\n');
        if self.dry_run {
            out.push_str(&format!("+ record: {}\ndry run: nothing was run\n", self.plan_step()));
        }
        let lines: String = out.lines().map(|l| format!("{}\n", one_line(l))).collect();
        format!("{}{lines}", context_line(&self.project, &self.session))
    }

    /// The plan step a dry run prints: `<seat>: append the route to <routes.jsonl>`.
    pub fn plan_step(&self) -> String {
        format!("{}: append the route to {}", self.seat, self.record.display())
    }

    /// The `team.route` document.
    pub fn document(&self) -> RouteDoc {
        RouteDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run: self.dry_run,
            status: if self.dry_run { RouteStatus::DryRun } else { RouteStatus::Routed },
            action_summary: if self.dry_run { "dry run: nothing was run".to_string() } else { self.closing() },
            project: self.project.clone(),
            session: self.session.clone(),
            seat: self.seat.clone(),
            agent: self.agent.clone(),
            recipient_session: self.recipient_session.clone(),
            cli: self.cli.clone(),
            pane: self.pane.clone(),
            address: self.address.clone(),
            socket_state: self.state,
            native: self.native,
            rule: self.rule.clone(),
            plan: self.dry_run.then(|| {
                vec![PlanStep {
                    seat: self.seat.clone(),
                    step: RecordStep::Record,
                    detail: self.plan_step(),
                    prefix: PlusPrefix::Plus,
                }]
            }),
        }
    }
}
