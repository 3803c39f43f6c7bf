//! Delivery figures per CLI and profile version (`team feed --stats`): for each message id in
//! view, where it ended, counted under the CLI and profile version of the line that ended it,
//! with the median and 90th percentile of the milliseconds to delivered and to read.
//!
//! Invariants: one message is one send however many lines it has (its retries and the
//! "taken but never acted on" line are the same send); a delivered send is either read
//! (confirmed by its own run or by a receipt) or taken-not-confirmed, never both; percentiles
//! are nearest-rank over the values present (a send with no measured span adds none), so every
//! figure is one of the measured values.

use super::ledger::{Ledger, ReadState};
use crate::vocab::outcome::Outcome;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The word a line without the field is counted under.
pub const UNKNOWN: &str = "-";

/// The median and 90th percentile of a set of spans (nearest rank), and how many there were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spread {
    pub median: Option<u64>,
    pub p90: Option<u64>,
    /// How many sends had the span.
    pub n: usize,
}

impl Spread {
    /// Nearest-rank percentiles of `values` (sorted here).
    pub fn of(values: &mut [u64]) -> Spread {
        values.sort_unstable();
        let at = |p: f64| {
            let n = values.len();
            (n > 0).then(|| values[((p * n as f64).ceil() as usize).clamp(1, n) - 1])
        };
        Spread { median: at(0.5), p90: at(0.9), n: values.len() }
    }
}

/// The figures of one CLI and profile version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub cli: String,
    pub profile: String,
    pub sends: usize,
    pub delivered: usize,
    /// Delivered and confirmed: by the send's own evidence, or a later receipt of team watch.
    pub read: usize,
    /// Delivered with no sign yet, or said to be taken but never acted on.
    pub taken_not_confirmed: usize,
    /// Delivered and acked by the receiving model (team ack, or its team reply): counted
    /// beside read and taken, not instead of them (docs/conversations.md).
    pub acked: usize,
    pub held: usize,
    /// Queued in its seat's inbox by an agent's send, and no hook has handed it yet (it is
    /// counted delivered once one has); absent while none is.
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub queued: usize,
    pub not_submitted: usize,
    pub unreachable: usize,
    /// answered or timeout (the native leg's; no run of this build reaches them).
    pub other: usize,
    /// The sends that went by the inbox leg (via mcp-inbox: handed by the seat's own hook, or
    /// held in its inbox); absent while none did.
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub inbox: usize,
    pub ms_to_delivered: Spread,
    pub ms_to_read: Spread,
}

#[derive(Debug, Default)]
struct Acc {
    row: Row,
    to_delivered: Vec<u64>,
    to_read: Vec<u64>,
}

impl Acc {
    fn finish(mut self) -> Row {
        self.row.ms_to_delivered = Spread::of(&mut self.to_delivered);
        self.row.ms_to_read = Spread::of(&mut self.to_read);
        self.row
    }
}

/// The tally over one or more projects' ledgers.
#[derive(Debug, Default)]
pub struct Tally {
    groups: BTreeMap<(String, String), Acc>,
    total: Acc,
}

impl Tally {
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Counts every message of `ledger`. `cli_of(seat)` answers the CLI of a seat whose line
    /// does not name one (a line written before the field, or by no leg that loaded a
    /// profile), from the team file when the run stands in one.
    pub fn add(&mut self, ledger: &Ledger, cli_of: &dyn Fn(&str) -> Option<String>) {
        for e in &ledger.entries {
            let last = ledger.line(e.delivered.unwrap_or(e.last_try));
            let cli = last.cli.clone().or_else(|| cli_of(&last.to)).unwrap_or_else(|| UNKNOWN.to_string());
            let profile = last.profile.clone().unwrap_or_else(|| UNKNOWN.to_string());
            let to_delivered = ledger.ms_to_delivered(e);
            let to_read = ledger.ms_to_read(e);
            let read = ledger.read_state(e);
            let acc = self
                .groups
                .entry((cli.clone(), profile.clone()))
                .or_insert_with(|| Acc { row: Row { cli, profile, ..Row::default() }, ..Acc::default() });
            let inbox = last.went_by(crate::vocab::leg::Leg::McpInbox);
            for a in [acc, &mut self.total] {
                a.row.sends += 1;
                a.row.inbox += usize::from(inbox);
                match read {
                    Some(r) => {
                        a.row.delivered += 1;
                        a.row.acked += usize::from(e.acked.is_some());
                        match r {
                            ReadState::AtSend | ReadState::Receipt(_) => a.row.read += 1,
                            ReadState::NeverActed(_) | ReadState::NotYet => a.row.taken_not_confirmed += 1,
                        }
                    }
                    None => match last.outcome {
                        Outcome::Held => a.row.held += 1,
                        Outcome::Queued => a.row.queued += 1,
                        Outcome::NotSubmitted => a.row.not_submitted += 1,
                        Outcome::Unreachable => a.row.unreachable += 1,
                        _ => a.row.other += 1,
                    },
                }
                a.to_delivered.extend(to_delivered);
                a.to_read.extend(to_read);
            }
        }
    }

    /// The rows, by CLI then profile version, and the total over all of them.
    pub fn finish(self) -> (Vec<Row>, Row) {
        let rows = self.groups.into_values().map(Acc::finish).collect();
        let mut total = self.total.finish();
        total.cli = "all".into();
        total.profile = UNKNOWN.into();
        (rows, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::MessageLine;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(Spread::of(&mut []), Spread { median: None, p90: None, n: 0 });
        assert_eq!(Spread::of(&mut [7]), Spread { median: Some(7), p90: Some(7), n: 1 });
        let mut v: Vec<u64> = (1..=10).rev().collect();
        assert_eq!(Spread::of(&mut v), Spread { median: Some(5), p90: Some(9), n: 10 });
        let mut v = vec![10, 20, 30, 40];
        assert_eq!(Spread::of(&mut v), Spread { median: Some(20), p90: Some(40), n: 4 });
    }

    #[test]
    fn a_send_counts_once_under_the_line_that_ended_it() {
        let l = |id: &str, outcome: &str, cli: Option<&str>, profile: Option<&str>, retry: Option<u32>| MessageLine {
            ts: "2026-11-29T09:00:00Z".into(),
            to: "rev".into(),
            id: crate::vocab::id::uid(id),
            outcome: outcome.into(),
            ms: Some(100),
            cli: cli.map(str::to_string),
            profile: profile.map(str::to_string),
            retry,
            ..Default::default()
        };
        let lines = vec![
            l("a", "held", Some("codex"), Some("0.1.0"), None),
            l("a", "delivered", Some("codex"), Some("0.2.0"), Some(1)),
            l("b", "unreachable", None, None, None),
        ];
        let ledger = Ledger::build(&lines, &[]);
        let mut t = Tally::new();
        t.add(&ledger, &|seat| (seat == "rev").then(|| "codex".to_string()));
        let (rows, total) = t.finish();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].cli.as_str(), rows[0].profile.as_str(), rows[0].unreachable), ("codex", "-", 1));
        assert_eq!((rows[1].profile.as_str(), rows[1].sends, rows[1].delivered, rows[1].read), ("0.2.0", 1, 1, 1));
        assert_eq!(rows[1].ms_to_delivered.median, Some(100), "same second: the send's own span");
        assert_eq!((total.sends, total.delivered, total.unreachable, total.held), (2, 1, 1, 0));

        // an agent's send queued in the inbox: queued until the hook's line, then delivered
        let mut lines = vec![l("q", "queued", Some("codex"), Some("0.2.0"), None)];
        let queued = |lines: &[MessageLine]| {
            let mut t = Tally::new();
            t.add(&Ledger::build(lines, &[]), &|_| None);
            let total = t.finish().1;
            (total.queued, total.delivered, total.held, total.other)
        };
        assert_eq!(queued(&lines), (1, 0, 0, 0));
        lines.push(l("q", "delivered", Some("codex"), Some("0.2.0"), None));
        assert_eq!(queued(&lines), (0, 1, 0, 0));
    }
}
