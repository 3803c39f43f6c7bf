//! The `team.register` document (`team register <seat> … --json`), built from a [`Report`] —
//! its schema generated from these types (`crate::schema`) — and the run's plain words.
//!
//! Invariant: `plan` is there exactly on a dry run (the schema says so).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Report, Status};
use crate::vocab::doc::{Document, FormatOne, Named};

crate::vocab::doc::words!(Status: Ready, Already, DryRun);

/// The document `team register <seat> … --json` prints for a run that exits 0
/// (docs/spec/team-register.md "Output and exit codes"): project, session, the seat, its pane, the working
/// lines the run printed as notes, and the closing line as action_summary; status says what the
/// run did — ready (the record was written) or already (the pane already held it ready: the
/// repair). A dry run carries dry_run: true, status "dry-run", action_summary "dry run: nothing
/// was run" and a plan of one register step whose detail is the line the real run would print.
/// A refusal prints team.error instead, its id the contract row (register.caller,
/// register.no-seat, register.cli, …).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [{
    "if": { "properties": { "dry_run": { "const": true } } },
    "then": { "required": ["plan"], "properties": { "status": { "const": "dry-run" }, "action_summary": { "const": "dry run: nothing was run" } } },
    "else": { "not": { "required": ["plan"] }, "properties": { "status": { "enum": ["ready", "already"] } } }
}]))]
pub struct RegisterDoc {
    pub schema: Named<RegisterDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub status: Status,
    /// The closing line a plain run prints (`claude-beacon: registered — pane w1:p1; nothing
    /// was launched`), or `dry run: nothing was run`.
    #[schemars(length(min = 1))]
    pub action_summary: String,
    #[schemars(length(min = 1))]
    pub project: String,
    /// The multiplexer session the pane was verified in.
    #[schemars(length(min = 1))]
    pub session: String,
    #[schemars(length(min = 1))]
    pub seat: String,
    /// The pane as the multiplexer names it (herdr `w1:p1`, tmux `%3`).
    #[schemars(length(min = 1))]
    pub pane: String,
    /// The working lines the run printed before its closing line (the team record written, a
    /// short record completed, sidebar lines that could not be written).
    #[schemars(inner(length(min = 1)))]
    pub notes: Vec<String>,
    /// A dry run's one step: the line the real run would print.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1))]
    pub plan: Option<Vec<PlanStep>>,
}

impl Document for RegisterDoc {
    const NAME: &'static str = "team.register";
    const FILE: &'static str = "register";
}

/// The step a dry run did not take.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanStep {
    pub step: RegisterStep,
    #[schemars(length(min = 1))]
    pub seat: String,
    #[schemars(length(min = 1))]
    pub detail: String,
    pub prefix: crate::route::PlusPrefix,
}

/// The plan's only step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RegisterStep {
    Register,
}

impl Report {
    /// The run's lines: its notes, then the closing line, each one safe line.
    pub fn said(&self) -> String {
        let lines = self.notes.iter().chain([&self.line]);
        lines.map(|l| format!("{}\n", crate::vocab::text::one_line(l))).collect()
    }

    /// The `team.register` document.
    pub fn document(&self) -> RegisterDoc {
        let dry = self.status == Status::DryRun;
        RegisterDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run: dry,
            status: self.status,
            action_summary: if dry { "dry run: nothing was run".to_string() } else { self.line.clone() },
            project: self.project.clone(),
            session: self.session.clone(),
            seat: self.seat.clone(),
            pane: self.pane.clone(),
            notes: self.notes.clone(),
            plan: dry.then(|| {
                vec![PlanStep {
                    step: RegisterStep::Register,
                    seat: self.seat.clone(),
                    detail: self.line.clone(),
                    prefix: crate::route::PlusPrefix::Plus,
                }]
            }),
        }
    }
}
