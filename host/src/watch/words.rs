//! The words `team watch` says in plain lines: the one it starts with, one per thing a pass
//! did (never a body), and `--once`'s count.
//!
//! Invariant: words only; the caller escapes each line (a seat's name, a path come from
//! outside).

use super::doc::Run;
use super::Event;
use crate::vocab::text::one_line;

/// The line a running watch starts with (after the context line).
pub fn watching(project: &str, pid: u32) -> String {
    format!(
        "watching {} (pid {pid}): held, not-submitted and dialog-stopped sends are retried, delivered ones confirmed\n",
        one_line(project)
    )
}

impl Run {
    /// `--once`'s closing line: what its one pass did (nothing for the other lines of a run).
    pub fn said(&self) -> String {
        match self {
            Run::Pass { retried, stopped, never_acted_on } => {
                format!("one pass: {retried} retried, {stopped} stopped, {never_acted_on} taken but never acted on\n")
            }
            _ => String::new(),
        }
    }
}

impl Event {
    /// The plain line of one event (escaped by the caller).
    pub fn said(&self) -> String {
        match self {
            Event::Retried { seat, from, n, tries, outcome, detail, .. } => match detail {
                Some(d) => format!("{seat}: retried a send from {from} (try {n} of {tries}): {outcome} ({d})"),
                None => format!("{seat}: retried a send from {from} (try {n} of {tries}): {outcome}"),
            },
            Event::Stopped { seat, from, why, drop, .. } => {
                format!("{seat}: stopped retrying a send from {from} {why}; the message is at {}", drop.display())
            }
            Event::NeverActedOn { seat, from, drop, .. } => {
                format!("{seat}: a send from {from} was taken but never acted on; the message is at {}", drop.display())
            }
            Event::Handed { seat, from, note, ms, drop, .. } => {
                let after = ms.map(|ms| format!(", {ms} ms after the send")).unwrap_or_default();
                format!(
                    "{seat}: a send from {from} held in its inbox was delivered ({note}{after}); the message is at {}",
                    drop.display()
                )
            }
            Event::HookStopped { seat, from, drop, .. } => format!(
                "{seat}: a send from {from} waited in its inbox while the seat worked and finished its turn, and its CLI ran none of team's hooks (team hooks status {seat}); it is typed instead when the seat is ready; the message is at {}",
                drop.display()
            ),
            Event::Resolved { seat, from, n, outcome, sign, drop, .. } => format!(
                "{seat}: retry {n} of a send from {from} was cut off before its end was written down; the seat's {} shows the message read: {outcome}; the message is at {}",
                sign.word(),
                drop.display()
            ),
            Event::ReadBack { seat, from, host, outcome, detail, .. } => {
                let d = detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
                format!("{seat}: a send from {from} left in doubt was read back from {host} by its id: {outcome}{d}; nothing was sent again")
            }
            Event::SentAgain { seat, from, host, n, tries, outcome, detail, .. } => {
                let d = detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
                format!("{seat}: a send from {from} left in doubt was never taken on {host}: sent again under its id (try {n} of {tries}): {outcome}{d}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_lines_a_watch_prints() {
        let drop = PathBuf::from("/r/.agents/send-drops/beacon/rev/id1");
        let never =
            Event::NeverActedOn { seat: "rev".into(), from: "owner".into(), id: "id1".into(), drop: drop.clone() };
        assert_eq!(
            Event::said(&never),
            "rev: a send from owner was taken but never acted on; the message is at /r/.agents/send-drops/beacon/rev/id1"
        );
        let stop = Event::Stopped {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            why: crate::watch::StopWhy::Tries.words(),
            drop: drop.clone(),
        };
        assert_eq!(
            Event::said(&stop),
            "rev: stopped retrying a send from owner after 3 tries; the message is at /r/.agents/send-drops/beacon/rev/id1"
        );
        let retry = Event::Retried {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            n: 2,
            tries: 3,
            outcome: "delivered".into(),
            detail: None,
            drop,
        };
        assert_eq!(Event::said(&retry), "rev: retried a send from owner (try 2 of 3): delivered");
        let v = serde_json::to_value(&retry).unwrap();
        assert_eq!((v["event"].as_str(), v["try"].as_u64(), v["tries"].as_u64()), (Some("retried"), Some(2), Some(3)));
        let resolved = Event::Resolved {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            n: 1,
            outcome: "delivered".into(),
            sign: crate::history::Sign::Transcript,
            drop: PathBuf::from("/r/d"),
        };
        assert_eq!(
            Event::said(&resolved),
            "rev: retry 1 of a send from owner was cut off before its end was written down; the seat's transcript shows the message read: delivered; the message is at /r/d"
        );
        let back = Event::ReadBack {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            host: "lab".into(),
            outcome: "delivered".into(),
            detail: None,
        };
        assert_eq!(
            Event::said(&back),
            "rev: a send from owner left in doubt was read back from lab by its id: delivered; nothing was sent again"
        );
        assert_eq!(serde_json::to_value(&back).unwrap()["event"], "read-back");
        let again = Event::SentAgain {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            host: "lab".into(),
            n: 1,
            tries: 3,
            outcome: "delivered".into(),
            detail: None,
        };
        assert_eq!(
            Event::said(&again),
            "rev: a send from owner left in doubt was never taken on lab: sent again under its id (try 1 of 3): delivered"
        );
        assert_eq!(serde_json::to_value(&again).unwrap()["event"], "sent-again");
        let v = serde_json::to_value(&resolved).unwrap();
        assert_eq!(
            (v["event"].as_str(), v["try"].as_u64(), v["sign"].as_str()),
            (Some("resolved"), Some(1), Some("transcript"))
        );
    }
}
