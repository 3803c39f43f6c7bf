//! The `team.rename` document (`team rename <seat> <new-name> … --json`), built from a
//! [`Report`] — its schema generated from these types (`crate::schema`) — and the run's plain
//! words.
//!
//! Invariant: a real run carries `steps`; a dry run carries `plan` and `detail` instead (the
//! schema says so).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Report, Status, Step};
use crate::error::context_line;
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::text::one_line;

crate::vocab::doc::words!(Status: Renamed, DryRun);
crate::vocab::doc::words!(Step = ["file", "pane", "state", "launched", "registry"]);

/// A seat's name, in the grammar of the team file.
const NAME_PATTERN: &str = "^[a-z0-9][a-z0-9._-]{0,62}$";

/// The document `team rename <seat> <new-name> … --json` prints for a run that exits 0
/// (docs/team-file.md "team rename"): project, session, the old name as seat and the new one as
/// new_name, the pane the multiplexer named anew (null when no pane was named the seat), the
/// agent ids the registry's renamed records keep, the working lines as notes, and the closing
/// line as action_summary. A real run lists what it changed as steps; a dry run carries
/// dry_run: true, status "dry-run", action_summary "dry run: nothing was run", its plan — one
/// step per place it would change — and the line the real run would print as detail. A refusal
/// prints team.error instead, its id the refusal's row (rename.caller, rename.no-seat,
/// rename.name, rename.reserved, rename.taken, rename.pane-taken, rename.recorded, …).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [{
    "if": { "properties": { "dry_run": { "const": true } } },
    "then": { "required": ["plan", "detail"], "not": { "required": ["steps"] }, "properties": { "status": { "const": "dry-run" }, "action_summary": { "const": "dry run: nothing was run" } } },
    "else": { "required": ["steps"], "allOf": [{ "not": { "required": ["plan"] } }, { "not": { "required": ["detail"] } }], "properties": { "status": { "const": "renamed" } } }
}]))]
pub struct RenameDoc {
    pub schema: Named<RenameDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub status: Status,
    /// The closing line a plain run prints (`lead: renamed to keeper2 — the file, pane %3, its
    /// state record and its registry record (agt_…)`), or `dry run: nothing was run`.
    #[schemars(length(min = 1))]
    pub action_summary: String,
    #[schemars(length(min = 1))]
    pub project: String,
    /// The multiplexer session the seat's pane is looked for in.
    #[schemars(length(min = 1))]
    pub session: String,
    /// The seat's name before the rename.
    #[schemars(regex(pattern = NAME_PATTERN))]
    pub seat: String,
    /// The seat's name after it.
    #[schemars(regex(pattern = NAME_PATTERN))]
    pub new_name: String,
    /// The pane renamed (herdr `w1:p2`, tmux `%3`); null when no pane was named the seat.
    #[schemars(length(min = 1))]
    pub pane: Option<String>,
    /// The ids of the registry's agent records renamed: each keeps its id.
    #[schemars(inner(regex(pattern = r"^agt_[0-9a-z]{1,64}$")))]
    pub agents: Vec<String>,
    /// The working lines printed before the closing line (an owner's grant that still names
    /// the old seat, sidebar lines that could not be written).
    #[schemars(inner(length(min = 1)))]
    pub notes: Vec<String>,
    /// What the run changed, one step per place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub steps: Option<Vec<StepDoc>>,
    /// What a dry run would change, one step per place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub plan: Option<Vec<StepDoc>>,
    /// A dry run's closing line: what the real run would print, `…; nothing was written`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub detail: Option<String>,
}

impl Document for RenameDoc {
    const NAME: &'static str = "team.rename";
    const FILE: &'static str = "rename";
}

/// One place changed (or that would be).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    /// file: the team file's values (or that it already declares the new name); pane: the pane
    /// named anew (or that none is named the seat); state: its record in
    /// .agents/team.state.json; launched: its pane in the session's launched record; registry:
    /// its agent records and roster line.
    pub step: Step,
    #[schemars(length(min = 1))]
    pub detail: String,
    pub prefix: crate::route::PlusPrefix,
}

impl Report {
    /// The run's words: the context line, a dry run's step lines, the notes, the closing line.
    pub fn said(&self) -> String {
        let mut text = context_line(&self.project, &self.session);
        if self.status == Status::DryRun {
            for s in &self.steps {
                text.push_str(&format!("{}\n", one_line(&s.plan_line(&self.seat, self.mux, &self.session))));
            }
        }
        for n in &self.notes {
            text.push_str(&format!("{}\n", one_line(n)));
        }
        text.push_str(&format!("{}\n", one_line(&self.line)));
        text
    }

    /// The `team.rename` document.
    pub fn document(&self) -> RenameDoc {
        let dry = self.status == Status::DryRun;
        let steps: Vec<StepDoc> = self
            .steps
            .iter()
            .map(|s| StepDoc { step: s.clone(), detail: self.detail(s), prefix: crate::route::PlusPrefix::Plus })
            .collect();
        let (steps, plan) = if dry { (None, Some(steps)) } else { (Some(steps), None) };
        RenameDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run: dry,
            status: self.status,
            action_summary: if dry { "dry run: nothing was run".to_string() } else { self.line.clone() },
            project: self.project.clone(),
            session: self.session.clone(),
            seat: self.seat.clone(),
            new_name: self.new.clone(),
            pane: self.pane().map(str::to_string),
            agents: self.agents(),
            notes: self.notes.clone(),
            steps,
            plan,
            detail: dry.then(|| self.line.clone()),
        }
    }
}
