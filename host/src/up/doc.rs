//! The `team.up` document (`team up --json`, `team add <seat> --json`), built from a
//! [`Report`]; its schema is generated from these types (`crate::schema`).
//!
//! Invariant: each seat's `line` is the very line the plain run prints, and `status` the one
//! word for its outcome.

use schemars::JsonSchema;
use serde::Serialize;

use super::{words, Outcome, Report};
use crate::vocab::doc::{Document, FormatOne, Named};

/// How one seat's run ended, as one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatStatus {
    Up,
    Already,
    Unrecorded,
    Waiting,
    NotApproved,
    NoLaunch,
    StoppedInFile,
    Exited,
    NotReady,
    Failed,
    NotRecorded,
    WouldStart,
}

impl SeatStatus {
    pub fn word(self) -> &'static str {
        match self {
            SeatStatus::Up => "up",
            SeatStatus::Already => "already",
            SeatStatus::Unrecorded => "unrecorded",
            SeatStatus::Waiting => "waiting",
            SeatStatus::NotApproved => "not-approved",
            SeatStatus::NoLaunch => "no-launch",
            SeatStatus::StoppedInFile => "stopped-in-file",
            SeatStatus::Exited => "exited",
            SeatStatus::NotReady => "not-ready",
            SeatStatus::Failed => "failed",
            SeatStatus::NotRecorded => "not-recorded",
            SeatStatus::WouldStart => "would-start",
        }
    }

    fn of(o: &Outcome) -> (SeatStatus, Option<&str>) {
        match o {
            Outcome::Up { pane, .. } => (SeatStatus::Up, Some(pane)),
            Outcome::Already { pane } => (SeatStatus::Already, Some(pane)),
            Outcome::Unrecorded { pane } => (SeatStatus::Unrecorded, Some(pane)),
            Outcome::Waiting { pane, .. } => (SeatStatus::Waiting, Some(pane)),
            Outcome::NotApproved { .. } => (SeatStatus::NotApproved, None),
            Outcome::NoLaunch { .. } => (SeatStatus::NoLaunch, None),
            Outcome::StoppedInFile => (SeatStatus::StoppedInFile, None),
            Outcome::Exited { pane, .. } => (SeatStatus::Exited, Some(pane)),
            Outcome::NotReady { pane, .. } => (SeatStatus::NotReady, Some(pane)),
            Outcome::Failed { .. } => (SeatStatus::Failed, None),
            Outcome::NotRecorded { pane, .. } => (SeatStatus::NotRecorded, Some(pane)),
            Outcome::WouldStart { .. } => (SeatStatus::WouldStart, None),
        }
    }
}

crate::vocab::doc::words!(
    SeatStatus: Up,
    Already,
    Unrecorded,
    Waiting,
    NotApproved,
    NoLaunch,
    StoppedInFile,
    Exited,
    NotReady,
    Failed,
    NotRecorded,
    WouldStart
);

/// The document `team up --json` and `team add <seat> --json` print: the project, the
/// session, whether it was a dry run, the lines said before the seats' (notes), and one entry
/// per seat — its status word, its pane where it has one, and the line the plain run prints.
/// `ready` is whether every seat stands ready (the exit code 0). A refusal prints team.error.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpDoc {
    pub schema: Named<UpDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub ready: bool,
    #[schemars(length(min = 1))]
    pub project: String,
    #[schemars(length(min = 1))]
    pub session: String,
    #[schemars(inner(length(min = 1)))]
    pub notes: Vec<String>,
    pub seats: Vec<UpSeat>,
}

/// One seat of a `team up` run.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpSeat {
    #[schemars(length(min = 1))]
    pub seat: String,
    pub status: SeatStatus,
    /// The pane as the multiplexer names it (tmux `%3`), where the seat has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub pane: Option<String>,
    /// The CLI's version as its installed package names it, for a seat this run started
    /// (`up`), where the package names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub cli_version: Option<String>,
    /// The line the plain run prints for the seat.
    #[schemars(length(min = 1))]
    pub line: String,
}

impl Document for UpDoc {
    const NAME: &'static str = "team.up";
    const FILE: &'static str = "up";
}

impl Report {
    /// The `team.up` document.
    pub fn document(&self) -> UpDoc {
        UpDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run: self.dry_run,
            ready: self.code() == 0,
            project: self.project.clone(),
            session: self.session.clone(),
            notes: self.notes.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| {
                    let (status, pane) = SeatStatus::of(&s.outcome);
                    UpSeat {
                        seat: s.seat.clone(),
                        status,
                        pane: pane.map(str::to_string),
                        cli_version: match &s.outcome {
                            Outcome::Up { version, .. } => version.clone(),
                            _ => None,
                        },
                        line: words::line(self.verb, s),
                    }
                })
                .collect(),
        }
    }
}
