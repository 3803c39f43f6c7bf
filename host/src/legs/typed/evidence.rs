//! What counts, after Enter, as the seat acting on the line — judged against everything read
//! before Enter (docs/spec/team-send.md: "herdr reported the seat working (or done or blocked, and
//! not the status read before Enter)"; "a seat that was already working before Enter proves
//! nothing by its status").
//!
//! Invariant: nothing read before Enter is ever evidence. Every look from the first read to
//! the last read-back is noted in [`BeforeEnter`]; a status counts only when it is new against
//! all of them — by herdr's change number where it gives one (`state_change_seq`, 0.8: the same
//! status read again carries the same number), else by being a status none of them showed — and
//! a seat that showed working at any of them proves nothing by its status or its screen.

use super::{Observation, Seen, Status};
use crate::vocab::outcome::Decider;

/// Everything the seat showed before Enter.
#[derive(Debug, Clone, Default)]
pub struct BeforeEnter {
    statuses: Vec<Status>,
    /// The greatest change number read before Enter.
    last_change: Option<u64>,
    /// A status or a screen read as working.
    working: bool,
    /// The first look was a dialog (the typed leg stops there; kept so the rule is whole).
    dialog: bool,
    looks: u32,
}

impl BeforeEnter {
    /// Notes one look taken before Enter.
    pub fn note(&mut self, o: &Observation) {
        if let Some(s) = o.status.filter(|s| !self.statuses.contains(s)) {
            self.statuses.push(s);
        }
        self.last_change = self.last_change.max(o.status_change);
        self.working |= o.status == Some(Status::Working) || matches!(o.seen, Seen::Working(_));
        self.dialog |= self.looks == 0 && matches!(o.seen, Seen::Dialog { .. });
        self.looks += 1;
    }

    /// Whether the seat showed working before Enter: then only the drop read can show it took
    /// this line (a dialog or a status after Enter may be its running turn's).
    pub fn was_working(&self) -> bool {
        self.working
    }

    /// Whether `status` (read after Enter, with `change`) is one the seat did not show before.
    fn is_new(&self, status: Status, change: Option<u64>) -> bool {
        match (change, self.last_change) {
            (Some(now), Some(before)) => now > before,
            _ => !self.statuses.contains(&status),
        }
    }
}

/// Whether an observation after Enter shows the seat acting on the line, and what showed it:
/// the screen (the drop read, the seat working) or the status (the multiplexer's, or the
/// CLI's own report: idle turned working after Enter is the line submitted).
pub fn evidence(o: &Observation, before: &BeforeEnter) -> Option<Decider> {
    if o.read_shown {
        return Some(Decider::Screen);
    }
    if before.dialog || before.working {
        return None;
    }
    match o.status {
        Some(s @ (Status::Working | Status::Done | Status::Blocked)) if before.is_new(s, o.status_change) => {
            return Some(o.status_by.clone())
        }
        _ => {}
    }
    // The profile's own reading of the screen: tmux has no status, and herdr's can lag.
    if matches!(o.seen, Seen::Working(_)) {
        return Some(Decider::Screen);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::BoxText;
    use super::*;

    fn look(seen: Seen, status: Option<Status>, change: Option<u64>) -> Observation {
        Observation {
            seen,
            boxed: BoxText::Empty,
            rate_limited: false,
            status,
            status_change: change,
            status_by: Decider::MuxStatus,
            read_shown: false,
            queued: false,
            mode: None,
        }
    }

    #[test]
    fn a_status_read_before_enter_is_never_evidence() {
        for s in [Status::Idle, Status::Working, Status::Blocked, Status::Done, Status::Unknown] {
            for change in [None, Some(7)] {
                let mut before = BeforeEnter::default();
                before.note(&look(Seen::Idle, Some(Status::Idle), change.map(|c| c - 1)));
                // the read-back, still before Enter, already showed it
                before.note(&look(Seen::Idle, Some(s), change));
                assert_eq!(evidence(&look(Seen::Idle, Some(s), change), &before), None, "{s:?} {change:?}");
            }
        }
    }

    #[test]
    fn a_change_number_tells_a_new_status_from_the_one_read_before() {
        let mut before = BeforeEnter::default();
        before.note(&look(Seen::Idle, Some(Status::Idle), Some(9)));
        assert_eq!(evidence(&look(Seen::Idle, Some(Status::Working), Some(10)), &before), Some(Decider::MuxStatus));
        // blocked → idle → blocked again is a new blocked, which the value alone cannot tell
        let mut before = BeforeEnter::default();
        before.note(&look(Seen::Idle, Some(Status::Done), Some(12)));
        assert_eq!(evidence(&look(Seen::Idle, Some(Status::Done), Some(12)), &before), None);
        assert_eq!(evidence(&look(Seen::Idle, Some(Status::Done), Some(14)), &before), Some(Decider::MuxStatus));
        // an idle with a greater number is no sign: what happened between is not known
        assert_eq!(evidence(&look(Seen::Idle, Some(Status::Idle), Some(14)), &before), None);
    }

    #[test]
    fn a_seat_working_before_enter_proves_nothing_but_the_drop_read() {
        let mut before = BeforeEnter::default();
        before.note(&look(Seen::Idle, Some(Status::Idle), Some(3)));
        before.note(&look(Seen::Working("title spinner".into()), Some(Status::Idle), Some(3)));
        for s in [Status::Working, Status::Done, Status::Blocked] {
            assert_eq!(evidence(&look(Seen::Working("x".into()), Some(s), Some(9)), &before), None, "{s:?}");
        }
        let mut read = look(Seen::Idle, Some(Status::Idle), Some(3));
        read.read_shown = true;
        assert_eq!(evidence(&read, &before), Some(Decider::Screen));
    }
}
