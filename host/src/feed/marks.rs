//! Where a delivered message stands past its own send, from the receipts `team watch`,
//! `team hook`, `team ack` and `team reply` write (docs/watch.md, docs/conversations.md): read
//! (the sign, and when), not yet read, or never acted on; and whether its seat acked it.
//!
//! Invariant: a mark is made only from the ledger's join of the lines and receipts of one
//! history folder; a message its own send confirmed gets no read mark (its line says it all).

use schemars::JsonSchema;
use serde::Serialize;

use crate::history::{Ledger, ReadState, Receipt, Sign};

/// Where a delivered message that its own send could not confirm stands (`read` on its
/// `--json` event: `{"state": "read" | "not-yet" | "never-acted-on", …}`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "state", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ReadMark {
    /// A receipt: the sign, when, and ms from the send's start.
    #[serde(rename = "read")]
    At {
        #[schemars(extend("format" = "date-time"))]
        ts: String,
        sign: Sign,
        ms: Option<u64>,
    },
    /// Delivered, and no sign yet.
    NotYet,
    /// The watch said it was taken but never acted on, at `ts`.
    #[serde(rename = "never-acted-on")]
    NeverActed {
        #[schemars(extend("format" = "date-time"))]
        ts: String,
    },
}

impl ReadMark {
    /// The mark of a read state (`None`: the send confirmed it itself).
    pub fn of(ledger: &Ledger, state: ReadState) -> Option<ReadMark> {
        Some(match state {
            ReadState::AtSend => return None,
            ReadState::Receipt(i) => {
                let r: &Receipt = &ledger.receipts[i];
                ReadMark::At { ts: r.ts.to_string(), sign: r.sign.unwrap_or(Sign::Screen), ms: r.ms }
            }
            ReadState::NotYet => ReadMark::NotYet,
            ReadState::NeverActed(i) => ReadMark::NeverActed { ts: ledger.line(i).ts.to_string() },
        })
    }
}

/// A message its seat acked (`team ack`, or its own reply): when, and what it said (`acked`
/// on its `--json` event).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AckMark {
    #[schemars(extend("format" = "date-time"))]
    pub ts: String,
    pub note: Option<String>,
}

impl AckMark {
    /// The mark of the ack receipt at `receipt` of the ledger.
    pub fn of(ledger: &Ledger, receipt: usize) -> AckMark {
        let r: &Receipt = &ledger.receipts[receipt];
        AckMark { ts: r.ts.to_string(), note: r.note.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_document_of_each_state() {
        let at = ReadMark::At { ts: "2026-11-29T09:00:41Z".into(), sign: Sign::Screen, ms: Some(41_000) };
        assert_eq!(
            serde_json::to_value(&at).unwrap(),
            json!({"state": "read", "ts": "2026-11-29T09:00:41Z", "sign": "screen", "ms": 41_000})
        );
        let no_ms = ReadMark::At { ts: "t".into(), sign: Sign::Status, ms: None };
        assert_eq!(
            serde_json::to_value(&no_ms).unwrap(),
            json!({"state": "read", "ts": "t", "sign": "status", "ms": null})
        );
        assert_eq!(serde_json::to_value(ReadMark::NotYet).unwrap(), json!({"state": "not-yet"}));
        assert_eq!(
            serde_json::to_value(ReadMark::NeverActed { ts: "2026-11-29T09:01:00Z".into() }).unwrap(),
            json!({"state": "never-acted-on", "ts": "2026-11-29T09:01:00Z"})
        );
        assert_eq!(
            serde_json::to_value(AckMark { ts: "t".into(), note: None }).unwrap(),
            json!({"ts": "t", "note": null})
        );
    }
}
