//! The history read per message: every line of one id (the send, the watch's retries, the
//! "taken but never acted on" line) and its receipts, folded into one [`Entry`] — what the
//! feed shows as read or not yet, what `--stats` counts, and what `team watch` acts on.
//!
//! Invariants: the fold is a pure function of the lines and receipts in view (no clock, no
//! file); the order of ids is the order their first lines were read in; a line or receipt
//! whose id is no message id is left out of the fold (the reader passed it over already: this
//! keeps any other caller's input to the same rule); an id that was ever delivered is
//! delivered for good (no later line makes it anything else, and nothing is ever typed for it
//! again); a confirmation is either the send's own (a delivered line with no qualifier waiting
//! for a sign) or a `read` receipt; a retry whose intent (`retry-started`) has no line of its
//! own is in doubt — no delivery, and nothing to retry until its end is read from the seat.

use super::receipts::{Receipt, ReceiptKind};
use super::MessageLine;
use crate::vocab::outcome::{Note, Outcome};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// A history timestamp as an instant (`None` when it does not parse).
pub fn instant(ts: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(ts).ok().map(|t| t.with_timezone(&Utc))
}

/// Where a delivered message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadState {
    /// The send itself saw the sign (a delivered line with no qualifier waiting for one).
    AtSend,
    /// A `read` receipt (index into the ledger's receipts).
    Receipt(usize),
    /// The watch said it was taken but never acted on (index of that line).
    NeverActed(usize),
    /// Taken, and no sign yet.
    NotYet,
}

/// The word the history and the receipts use for the owner, who is no seat.
pub const OWNER: &str = "owner";

/// One message id: indexes into the ledger's lines and receipts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The first line of the id in view (the send, unless it rotated away).
    pub first: usize,
    /// The last line of a run that tried to deliver it: the send or a retry.
    pub last_try: usize,
    /// The first line that ended delivered.
    pub delivered: Option<usize>,
    /// The highest retry number among its lines (0: never retried).
    pub retries: u32,
    /// The "taken but never acted on" line.
    pub never_acted: Option<usize>,
    /// The first `read` receipt.
    pub read: Option<usize>,
    /// The first `retries-stopped` receipt.
    pub stopped: Option<usize>,
    /// The highest try a `retry-started` receipt announced (0: none), and that receipt.
    pub started: u32,
    pub started_at: Option<usize>,
    /// The first `acked` receipt of the seat the message went to (`team ack`).
    pub acked: Option<usize>,
    /// The first `acked` receipt of the owner (an alert about it set aside).
    pub set_aside: Option<usize>,
    /// The `hook-stopped` receipt: the watch said the seat's CLI ran no hook for it.
    pub hook_stopped: Option<usize>,
}

impl Entry {
    /// The try that was started and never ended — its intent recorded, no history line of its
    /// own — while the message is neither delivered nor stopped: the watch reads the seat for
    /// it before anything else, and never types it again on a guess.
    pub fn in_doubt(&self) -> Option<u32> {
        (self.delivered.is_none() && self.stopped.is_none() && self.started > self.retries).then_some(self.started)
    }
}

/// The fold of a project's lines and receipts.
#[derive(Debug)]
pub struct Ledger<'a> {
    pub lines: &'a [MessageLine],
    pub receipts: &'a [Receipt],
    pub entries: Vec<Entry>,
    by_id: HashMap<&'a str, usize>,
}

impl<'a> Ledger<'a> {
    /// Folds `lines` (oldest first) and `receipts` by id.
    pub fn build(lines: &'a [MessageLine], receipts: &'a [Receipt]) -> Ledger<'a> {
        let mut entries: Vec<Entry> = Vec::new();
        let mut by_id: HashMap<&'a str, usize> = HashMap::with_capacity(lines.len());
        for (i, l) in lines.iter().enumerate() {
            if !crate::vocab::id::valid_id(&l.id) {
                continue;
            }
            let e = match by_id.get(l.id.as_str()) {
                Some(&n) => &mut entries[n],
                None => {
                    by_id.insert(l.id.as_str(), entries.len());
                    entries.push(Entry {
                        first: i,
                        last_try: i,
                        delivered: None,
                        retries: 0,
                        never_acted: None,
                        read: None,
                        stopped: None,
                        started: 0,
                        started_at: None,
                        acked: None,
                        set_aside: None,
                        hook_stopped: None,
                    });
                    entries.last_mut().expect("just pushed")
                }
            };
            if l.outcome == Outcome::Delivered && l.note == Some(Note::NeverActed) {
                e.never_acted.get_or_insert(i);
                continue;
            }
            // A line after the id was delivered changes nothing: delivered is for good.
            if e.delivered.is_none() {
                e.last_try = i;
                if l.outcome == Outcome::Delivered {
                    e.delivered = Some(i);
                }
            }
            e.retries = e.retries.max(l.retry.unwrap_or(0));
        }
        for (i, r) in receipts.iter().enumerate() {
            let Some(&n) = by_id.get(r.id.as_str()) else { continue };
            let e = &mut entries[n];
            match r.receipt {
                // a message handed whole by the seat's own hook is in the model's context
                ReceiptKind::Read | ReceiptKind::Handed => {
                    e.read.get_or_insert(i);
                }
                ReceiptKind::RetriesStopped => {
                    e.stopped.get_or_insert(i);
                }
                ReceiptKind::RetryStarted => {
                    let n = r.attempt.unwrap_or(0);
                    if n > e.started {
                        (e.started, e.started_at) = (n, Some(i));
                    }
                }
                // only the seat the message went to acks it; the owner's ack sets an alert aside
                ReceiptKind::Acked if r.by.as_deref() == Some(OWNER) => {
                    e.set_aside.get_or_insert(i);
                }
                ReceiptKind::Acked if r.by.is_none() && r.to == lines[e.first].to => {
                    e.acked.get_or_insert(i);
                }
                ReceiptKind::Acked => {}
                ReceiptKind::HookStopped => {
                    e.hook_stopped.get_or_insert(i);
                }
            }
        }
        Ledger { lines, receipts, entries, by_id }
    }

    /// The entry of `id`.
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.by_id.get(id).map(|&n| &self.entries[n])
    }

    /// The line at `i`.
    pub fn line(&self, i: usize) -> &'a MessageLine {
        &self.lines[i]
    }

    /// Where a delivered entry stands; `None` for one never delivered.
    pub fn read_state(&self, e: &Entry) -> Option<ReadState> {
        let d = e.delivered?;
        Some(if !self.lines[d].note.as_ref().is_some_and(Note::awaits_sign) {
            ReadState::AtSend
        } else if let Some(r) = e.read {
            ReadState::Receipt(r)
        } else if let Some(n) = e.never_acted {
            ReadState::NeverActed(n)
        } else {
            ReadState::NotYet
        })
    }

    /// Whole milliseconds from the start of the send to the line that delivered it: the
    /// line's own span when the send delivered it, else the time between the send's line and
    /// the retry's (seconds precision) plus the send's span.
    pub fn ms_to_delivered(&self, e: &Entry) -> Option<u64> {
        let d = e.delivered?;
        let (first, line) = (&self.lines[e.first], &self.lines[d]);
        if d == e.first {
            return line.ms;
        }
        let between = (line.ts.at()? - first.ts.at()?).num_milliseconds().max(0) as u64;
        Some(between + first.ms.unwrap_or(0))
    }

    /// Whole milliseconds from the start of the send to the sign it was read: the delivery's
    /// own when the send saw it, a receipt's otherwise.
    pub fn ms_to_read(&self, e: &Entry) -> Option<u64> {
        match self.read_state(e)? {
            ReadState::AtSend => self.ms_to_delivered(e),
            ReadState::Receipt(r) => self.receipts[r].ms,
            ReadState::NeverActed(_) | ReadState::NotYet => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{ReceiptKind, Sign};
    use crate::vocab::id::uid;

    fn line(id: &str, outcome: &str, note: Option<&str>, retry: Option<u32>, ts: &str, ms: u64) -> MessageLine {
        MessageLine {
            ts: ts.into(),
            from: "owner".into(),
            to: "rev".into(),
            body: "b".into(),
            id: uid(id),
            outcome: outcome.into(),
            ms: Some(ms),
            note: note.map(Note::from),
            retry,
            ..Default::default()
        }
    }

    fn receipt(id: &str, kind: ReceiptKind, ms: Option<u64>) -> Receipt {
        Receipt {
            sign: ms.map(|_| Sign::Screen),
            ms,
            ..Receipt::new(kind, "2026-11-29T09:05:00Z".into(), &uid(id), "rev")
        }
    }

    #[test]
    fn a_held_send_delivered_by_its_second_retry_is_one_entry() {
        let lines = vec![
            line("a", "held", None, None, "2026-11-29T09:00:00Z", 40),
            line("b", "delivered", None, None, "2026-11-29T09:00:01Z", 120),
            line("a", "held", None, Some(1), "2026-11-29T09:01:00Z", 30),
            line("a", "delivered", Some("taken, not yet confirmed"), Some(2), "2026-11-29T09:02:00Z", 1_000),
        ];
        let receipts = vec![receipt("a", ReceiptKind::Read, Some(150_000)), receipt("zzz", ReceiptKind::Read, Some(1))];
        let l = Ledger::build(&lines, &receipts);
        assert_eq!(l.entries.len(), 2);
        let a = l.entry(&uid("a")).unwrap();
        assert_eq!((a.first, a.last_try, a.delivered, a.retries), (0, 3, Some(3), 2));
        assert_eq!(l.read_state(a), Some(ReadState::Receipt(0)));
        assert_eq!(l.ms_to_delivered(a), Some(120_000 + 40));
        assert_eq!(l.ms_to_read(a), Some(150_000));
        let b = l.entry(&uid("b")).unwrap();
        assert_eq!(l.read_state(b), Some(ReadState::AtSend));
        assert_eq!((l.ms_to_delivered(b), l.ms_to_read(b)), (Some(120), Some(120)));
    }

    #[test]
    fn delivered_is_for_good_and_never_acted_on_is_its_own_state() {
        let lines = vec![
            line("a", "delivered", Some("taken, not yet confirmed"), None, "2026-11-29T09:00:00Z", 20_000),
            line("a", "delivered", Some("taken but never acted on"), None, "2026-11-29T09:30:00Z", 0),
            line("a", "held", None, Some(1), "2026-11-29T09:31:00Z", 0),
        ];
        let l = Ledger::build(&lines, &[]);
        let a = l.entry(&uid("a")).unwrap();
        assert_eq!((a.delivered, a.last_try, a.never_acted), (Some(0), 0, Some(1)));
        assert_eq!(l.read_state(a), Some(ReadState::NeverActed(1)));
        assert_eq!(l.ms_to_read(a), None);
        let queued = vec![line("q", "delivered", Some("queued, not yet confirmed"), None, "2026-11-29T09:00:00Z", 5)];
        let l = Ledger::build(&queued, &[]);
        assert_eq!(l.read_state(&l.entries[0]), Some(ReadState::NotYet));
        let held = vec![line("h", "held", None, None, "2026-11-29T09:00:00Z", 5)];
        let l = Ledger::build(&held, &[]);
        assert_eq!(l.read_state(&l.entries[0]), None);
    }

    #[test]
    fn a_started_retry_with_no_line_of_its_own_is_in_doubt_and_no_delivery() {
        let started = |n| Receipt { attempt: Some(n), ..receipt("a", ReceiptKind::RetryStarted, None) };
        let held = line("a", "held", None, None, "2026-11-29T09:00:00Z", 40);
        let lines = vec![held.clone()];
        let one = [started(1)];
        let l = Ledger::build(&lines, &one);
        let a = l.entry(&uid("a")).unwrap();
        assert_eq!((a.started, a.started_at, a.retries, a.in_doubt()), (1, Some(0), 0, Some(1)));
        assert_eq!((a.delivered, l.read_state(a)), (None, None), "a cut-off retry is no delivery");
        // Its line ends it; the next try's intent is in doubt again until its own line.
        let lines = vec![held.clone(), line("a", "held", None, Some(1), "2026-11-29T09:01:00Z", 30)];
        let l = Ledger::build(&lines, &one);
        assert_eq!(l.entry(&uid("a")).unwrap().in_doubt(), None);
        let receipts = [started(1), started(2)];
        let l = Ledger::build(&lines, &receipts);
        assert_eq!(l.entry(&uid("a")).unwrap().in_doubt(), Some(2));
        // A stop or a delivery ends the doubt.
        let receipts = [started(1), receipt("a", ReceiptKind::RetriesStopped, None)];
        let l = Ledger::build(&lines[..1], &receipts);
        assert_eq!(l.entry(&uid("a")).unwrap().in_doubt(), None);
    }

    #[test]
    fn lines_and_receipts_whose_id_is_no_message_id_are_left_out() {
        let bad =
            MessageLine { id: "/etc/hostname".into(), ..line("a", "held", None, None, "2026-11-29T09:00:00Z", 1) };
        let lines = vec![bad.clone(), line("b", "held", None, None, "2026-11-29T09:00:01Z", 1)];
        let receipts = [Receipt { id: "../x".into(), ..receipt("b", ReceiptKind::RetriesStopped, None) }];
        let l = Ledger::build(&lines, &receipts);
        assert_eq!(l.entries.len(), 1);
        assert!(l.entry("/etc/hostname").is_none());
        assert_eq!(l.entry(&uid("b")).unwrap().stopped, None);
    }

    #[test]
    fn which_notes_wait_for_a_sign() {
        let awaits_sign = |n: &str| Note::parse(n).awaits_sign();
        assert!(awaits_sign("taken, not yet confirmed"));
        assert!(awaits_sign("queued, not yet confirmed"));
        assert!(awaits_sign("taken, not yet confirmed: the task list did not show it"));
        assert!(!awaits_sign("created task_e_1"));
        assert!(!awaits_sign("the seat opened a permission dialog after taking the line"));
        assert!(!awaits_sign("the text did not pass through this CLI"));
        assert!(!awaits_sign("taken but never acted on"));
    }
}
