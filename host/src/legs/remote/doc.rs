//! The two documents of a hop, versioned: what the near side hands the far side's
//! `team hop deliver` on its stdin ([`Request`]), and what the far side answers on its stdout
//! ([`Answer`]), each carrying the hop protocol ([`PROTOCOL`]) and the `team` version that
//! wrote it.
//!
//! Invariant: a side reads a document of another protocol as nothing it acts on — the far
//! side answers the mismatch without running a leg, the near side says it as `unreachable`
//! with the repair; a `team` of another version speaking the same protocol is said, never
//! refused.

use serde::{Deserialize, Serialize};

/// The hop protocol this build speaks. A change of either document's meaning is a new one.
pub const PROTOCOL: u32 = 1;

/// This build's version, as both documents carry it.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The sender as the near side's admission found it: the owner, or a seat of a team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum From {
    Owner,
    Seat { team: String, seat: String },
}

impl From {
    /// How the far side's history names it.
    pub fn words(&self) -> String {
        match self {
            From::Owner => "the owner".into(),
            From::Seat { team, seat } => format!("{seat}@{team}"),
        }
    }
}

/// What `team hop deliver` reads on its stdin.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub hop: u32,
    pub team_version: String,
    /// The message id: the far side's once-only key.
    pub id: String,
    /// The host word the hop came by (the far side's seats under that word are its own).
    pub here: String,
    /// The receiving team and seat.
    pub team: String,
    pub seat: String,
    pub from: From,
    /// The host word (a name of `hosts:`, or an ssh destination) the sender's machine answers
    /// to, as the sender's `team` knows it: the sender seat's own `host:`, else the first word
    /// of that machine's `<config>/here`. The far side keeps it on its history line
    /// (`from_host`), so an answer to the message (`team reply`) goes back over ssh to the
    /// machine it came from. Absent: the sender's machine named none (an answer then follows
    /// the far side's team file alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_host: Option<String>,
    /// The message as the sender wrote it (the far side puts its own sender header on top).
    pub body: String,
    /// The message this one answers, for a reply.
    #[serde(default)]
    pub reply_to: Option<String>,
}

/// What `team hop deliver` and `team hop status` answer on stdout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub hop: u32,
    pub team_version: String,
    pub id: String,
    pub state: State,
}

/// What became of the id on the far side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum State {
    /// The far side's leg ended: its outcome word, its reason or note, the leg that carried it;
    /// `already` when this answer was read back (a second deliver or a status), not run now;
    /// `by`: what decided it there (a `Decider` word; absent from a far side that does not say).
    Ended {
        outcome: String,
        reason: Option<String>,
        channel: Option<String>,
        already: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// The far side took the id and its leg has not ended (still running, or cut short before
    /// it wrote its outcome): nothing is known of the seat, and nothing will be typed again.
    InDoubt { why: String },
    /// The far side never took this id: nothing was sent under it.
    Unknown,
    /// The far side refused the request before running any leg (another protocol, a bad id, a
    /// team it does not have): why.
    Refused { why: String },
}

/// What `team hop ping` answers: that a `team` of this protocol runs there, and its version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub hop: u32,
    pub team_version: String,
}

impl Hello {
    pub fn here() -> Hello {
        Hello { hop: PROTOCOL, team_version: version().into() }
    }
}

impl Answer {
    pub fn new(id: &str, state: State) -> Answer {
        Answer { hop: PROTOCOL, team_version: version().into(), id: id.into(), state }
    }
}

/// Whether a message id may name a file of the far side's claims: the product's ids (uuids)
/// and nothing with a path's characters.
pub fn id_ok(id: &str) -> bool {
    !id.is_empty() && id.len() <= 80 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_round_trip_and_ids_are_file_safe() {
        let a = Answer::new(
            "x-1",
            State::Ended {
                outcome: "delivered".into(),
                reason: None,
                channel: Some("typed".into()),
                already: true,
                by: Some("screen".into()),
            },
        );
        let t = serde_json::to_string(&a).unwrap();
        assert!(t.contains("\"state\":\"ended\""), "{t}");
        assert_eq!(serde_json::from_str::<Answer>(&t).unwrap(), a);
        assert!(id_ok("0d9c2b1e-5a7f-4e6b-9a1c-3f2e1d0c9b8a"));
        for bad in ["", "../x", "a/b", "a b", "a.json"] {
            assert!(!id_ok(bad), "{bad}");
        }
    }
}
