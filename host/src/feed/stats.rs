//! `team feed --stats`: the delivery figures per CLI and profile version over the history in
//! view (`history::stats`). It reads what the feed reads — the history files and the receipts
//! beside them, with the same ladder checks — and writes nothing.
//!
//! Invariant: a line that names no CLI is counted under the CLI its seat has in the team file
//! in view, and only there: another project's file is not this one's, so under `--all` such a
//! line counts under `-`.

use super::{refusal, Scope, Skipped};
use crate::error;
use crate::history::stats::{Row, Tally};
use crate::history::{self, Ledger};

/// The figures of a `--stats` run.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// The team in view, `(project, session)` (`None` under `--all` or outside a checkout).
    pub team: Option<(String, String)>,
    /// One row per CLI and profile version.
    pub rows: Vec<Row>,
    /// Every row's sum.
    pub total: Row,
    pub skipped: Skipped,
}

/// Counts every folder in view; `seat` (a name, or `@<nickname>` of the team file's seats):
/// only the messages to that seat.
pub fn stats(scope: &Scope, seat: Option<&str>) -> error::Result<Stats> {
    let seat = seat.map(|s| scope.seat_name(s));
    let cli_of = |s: &str| scope.clis.iter().find(|(name, _)| name == s).map(|(_, c)| c.clone());
    let mut t = Tally::new();
    let mut skipped = Skipped::default();
    for (_, dir) in &scope.dirs {
        let mut h = history::read_history(&scope.config, dir).map_err(refusal)?;
        let r = history::read_receipts_checked(&scope.config, dir).map_err(refusal)?;
        skipped.lines += h.skipped + r.skipped;
        skipped.bad_ids += h.bad_ids() + r.bad_ids();
        let receipts = r.lines;
        if let Some(seat) = &seat {
            h.lines.retain(|l| &l.to == seat);
        }
        let ledger = Ledger::build(&h.lines, &receipts);
        if scope.team.is_some() {
            t.add(&ledger, &cli_of);
        } else {
            t.add(&ledger, &|_| None);
        }
    }
    let (rows, total) = t.finish();
    Ok(Stats { team: scope.team.clone(), rows, total, skipped })
}
