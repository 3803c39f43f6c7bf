//! The `team.down` document (`team down … --json`), built from a [`Report`]; its schema is
//! generated from these types (`crate::schema`).
//!
//! Invariant: each seat's `line` is the very line the plain run prints.

use schemars::JsonSchema;
use serde::Serialize;

use super::{words, Outcome, Report};
use crate::vocab::doc::{Document, FormatOne, Named};

/// How one seat's run ended, as one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownStatus {
    Down,
    Forced,
    NotRunning,
    LeftRunning,
    Failed,
    Would,
}

impl DownStatus {
    pub fn word(self) -> &'static str {
        match self {
            DownStatus::Down => "down",
            DownStatus::Forced => "forced",
            DownStatus::NotRunning => "not-running",
            DownStatus::LeftRunning => "left-running",
            DownStatus::Failed => "failed",
            DownStatus::Would => "would",
        }
    }

    fn of(o: &Outcome) -> DownStatus {
        match o {
            Outcome::Down { .. } | Outcome::Gone { .. } => DownStatus::Down,
            Outcome::Forced { .. } => DownStatus::Forced,
            Outcome::NotRunning => DownStatus::NotRunning,
            Outcome::LeftRunning { .. } => DownStatus::LeftRunning,
            Outcome::Failed { .. } => DownStatus::Failed,
            Outcome::Would { .. } => DownStatus::Would,
        }
    }
}

crate::vocab::doc::words!(DownStatus: Down, Forced, NotRunning, LeftRunning, Failed, Would);

/// The document `team down --json` prints: the project, the session, whether it was a dry run,
/// `down` (every named seat is down: exit 0), and one entry per seat — its status word, the
/// line the plain run prints, and the ids of the messages still unclaimed in its inbox (kept).
/// A refusal prints team.error.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DownDoc {
    pub schema: Named<DownDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    pub down: bool,
    #[schemars(length(min = 1))]
    pub project: String,
    #[schemars(length(min = 1))]
    pub session: String,
    pub seats: Vec<DownSeat>,
}

/// One seat of a `team down` run.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DownSeat {
    #[schemars(length(min = 1))]
    pub seat: String,
    pub status: DownStatus,
    /// The line(s) the plain run prints for the seat.
    #[schemars(length(min = 1))]
    pub line: String,
    /// Messages still unclaimed in the seat's inbox, by id (never dropped).
    #[schemars(inner(length(min = 1)))]
    pub unclaimed: Vec<String>,
}

impl Document for DownDoc {
    const NAME: &'static str = "team.down";
    const FILE: &'static str = "down";
}

impl Report {
    /// The `team.down` document.
    pub fn document(&self) -> DownDoc {
        DownDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run: self.dry_run,
            down: self.code() == 0,
            project: self.project.clone(),
            session: self.session.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| DownSeat {
                    seat: s.seat.clone(),
                    status: DownStatus::of(&s.outcome),
                    line: words::line(s),
                    unclaimed: s.unclaimed.clone(),
                })
                .collect(),
        }
    }
}
