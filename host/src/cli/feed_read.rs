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
