//! Where a delivered message its own send could not confirm stands in `team feed`: read (the
//! sign `team watch` found, and when), not yet read, or never acted on — the words its KIND
//! cell ends with and the `read` object of its `--json` event (docs/watch.md).

use crate::history::{Ledger, ReadState, Receipt, Sign};
use serde_json::{json, Value};

/// Where a delivered message that its own send could not confirm stands.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ReadMark {
    /// A receipt: the sign, when, and ms from the send's start.
    At {
        ts: String,
        sign: Sign,
        ms: Option<u64>,
    },
    NotYet,
    /// The watch said it was taken but never acted on, at `ts`.
    NeverActed {
        ts: String,
    },
}

impl ReadMark {
    pub(super) fn of(ledger: &Ledger, state: ReadState) -> Option<ReadMark> {
        Some(match state {
            ReadState::AtSend => return None,
            ReadState::Receipt(i) => {
                let r: &Receipt = &ledger.receipts[i];
                ReadMark::At { ts: r.ts.clone(), sign: r.sign.unwrap_or(Sign::Screen), ms: r.ms }
            }
            ReadState::NotYet => ReadMark::NotYet,
            ReadState::NeverActed(i) => ReadMark::NeverActed { ts: ledger.line(i).ts.clone() },
        })
    }

    /// The words the KIND cell adds, its time as `time` spells the table's times.
    pub(super) fn words(&self, time: impl Fn(&str) -> String) -> String {
        match self {
            ReadMark::At { ts, sign: Sign::Status, .. } => format!("acted on {}", time(ts)),
            ReadMark::At { ts, .. } => format!("read {}", time(ts)),
            ReadMark::NotYet => "not yet read".to_string(),
            ReadMark::NeverActed { .. } => "never acted on".to_string(),
        }
    }

    pub(super) fn to_json(&self) -> Value {
        match self {
            ReadMark::At { ts, sign, ms } => json!({"state": "read", "ts": ts, "sign": sign.word(), "ms": ms}),
            ReadMark::NotYet => json!({"state": "not-yet"}),
            ReadMark::NeverActed { ts } => json!({"state": "never-acted-on", "ts": ts}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_and_the_document_of_each_state() {
        let at = |sign| ReadMark::At { ts: "2026-11-29T09:00:41Z".into(), sign, ms: Some(41_000) };
        let t = |ts: &str| ts[11..19].to_string();
        assert_eq!(at(Sign::Transcript).words(t), "read 09:00:41");
        assert_eq!(at(Sign::Screen).words(t), "read 09:00:41");
        assert_eq!(at(Sign::Status).words(t), "acted on 09:00:41");
        assert_eq!(ReadMark::NotYet.words(t), "not yet read");
        assert_eq!(ReadMark::NeverActed { ts: "2026-11-29T09:01:00Z".into() }.words(t), "never acted on");
        assert_eq!(
            at(Sign::Screen).to_json(),
            json!({"state": "read", "ts": "2026-11-29T09:00:41Z", "sign": "screen", "ms": 41_000})
        );
        assert_eq!(ReadMark::NotYet.to_json(), json!({"state": "not-yet"}));
    }
}

/// A message its seat acked (`team ack`, or its own reply): when, and what it said.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct AckMark {
    pub ts: String,
    pub note: Option<String>,
}

impl AckMark {
    pub(super) fn of(ledger: &Ledger, receipt: usize) -> AckMark {
        let r: &Receipt = &ledger.receipts[receipt];
        AckMark { ts: r.ts.clone(), note: r.note.clone() }
    }

    pub(super) fn words(&self, time: impl Fn(&str) -> String) -> String {
        format!("acked {}", time(&self.ts))
    }

    pub(super) fn to_json(&self) -> Value {
        json!({"ts": self.ts, "note": self.note})
    }
}

/// The table's order with replies threaded: each event in order, except that a reply whose
/// question is in view follows that question's first event (after the replies before it),
/// at one more depth. `keys[i]` is event i's `(message id, reply_to)` (`None` for an event
/// that is no message). Returns `(index, depth)` pairs, every index once.
pub(super) fn threaded(keys: &[(Option<&str>, Option<&str>)]) -> Vec<(usize, usize)> {
    use std::collections::HashMap;
    // the first event of each id, and the replies hung under it
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut top: Vec<usize> = Vec::new();
    for (i, (id, reply_to)) in keys.iter().enumerate() {
        let parent = reply_to.and_then(|q| first.get(q).copied());
        if let Some(id) = id {
            // a later line of an id already in view (a retry) stays in time order
            if first.contains_key(id) {
                top.push(i);
                continue;
            }
            first.insert(id, i);
        }
        match parent {
            Some(p) => children.entry(p).or_default().push(i),
            None => top.push(i),
        }
    }
    fn walk(
        i: usize,
        depth: usize,
        children: &std::collections::HashMap<usize, Vec<usize>>,
        out: &mut Vec<(usize, usize)>,
    ) {
        out.push((i, depth));
        for &c in children.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            walk(c, depth + 1, children, out);
        }
    }
    let mut out = Vec::with_capacity(keys.len());
    for i in top {
        walk(i, 0, &children, &mut out);
    }
    out
}

#[cfg(test)]
mod thread_tests {
    use super::threaded;

    #[test]
    fn a_reply_follows_its_question() {
        let keys = [
            (Some("q"), None),
            (Some("other"), None),
            (Some("r1"), Some("q")),
            (None, None),
            (Some("r2"), Some("r1")),
            (Some("lost"), Some("gone")),
        ];
        assert_eq!(threaded(&keys), [(0, 0), (2, 1), (4, 2), (1, 0), (3, 0), (5, 0)]);
    }
}
