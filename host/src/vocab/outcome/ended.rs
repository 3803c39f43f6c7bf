//! How one delivery ended, as every leg says it: the history's [`Outcome`] word and the leg's
//! words beside it — a delivered send's [`Note`], or the reason any other outcome is said with.
//! The typed, compose and inbox legs, the walk, the watch's retry and the send's report all
//! speak this one type; the error kind of an outcome that stops a run is derived from the
//! word (`error::Kind::ending`), never kept in a table of its own.

use super::{Decider, Note, Outcome};

/// How one delivery ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub outcome: Outcome,
    /// A delivered send's note (`taken, not yet confirmed`, …; `None`: proven, nothing to add);
    /// for any other outcome the reason, in the leg's own words ([`Note::Said`]).
    pub note: Option<Note>,
    /// What decided it (`None`: no witness was read — a refusal before any look).
    pub by: Option<Decider>,
}

impl Ended {
    /// The seat took the line; `note` qualifies it.
    pub fn delivered(note: Option<Note>) -> Ended {
        Ended { outcome: Outcome::Delivered, note, by: None }
    }

    /// The same ending, decided by `d`.
    pub fn by(self, d: Decider) -> Ended {
        Ended { by: Some(d), ..self }
    }

    /// The message is safely on disk; nothing was typed (or typed and not submitted because the
    /// read-back failed): why.
    pub fn held(reason: impl Into<String>) -> Ended {
        Ended::because(Outcome::Held, reason)
    }

    /// The message waits in the seat's inbox for its CLI's next hook; the send did not wait
    /// for the receipt (an agent's send): what it waits for.
    pub fn queued(reason: impl Into<String>) -> Ended {
        Ended::because(Outcome::Queued, reason)
    }

    /// A line was typed and never taken: why.
    pub fn not_submitted(reason: impl Into<String>) -> Ended {
        Ended::because(Outcome::NotSubmitted, reason)
    }

    /// The seat was not reached: why.
    pub fn unreachable(reason: impl Into<String>) -> Ended {
        Ended::because(Outcome::Unreachable, reason)
    }

    /// Nothing sent on purpose: why.
    pub fn refused(reason: impl Into<String>) -> Ended {
        Ended::because(Outcome::Refused, reason)
    }

    fn because(outcome: Outcome, reason: impl Into<String>) -> Ended {
        Ended { outcome, note: Some(Note::Said(reason.into())), by: None }
    }

    pub fn is_delivered(&self) -> bool {
        self.outcome == Outcome::Delivered
    }

    pub fn is_refused(&self) -> bool {
        self.outcome == Outcome::Refused
    }

    /// The reason an outcome other than delivered is said with (empty for a delivered send).
    pub fn reason(&self) -> &str {
        match &self.note {
            Some(Note::Said(why)) if !self.is_delivered() => why,
            _ => "",
        }
    }

    /// The same ending with its reason — and a delivered send's unconfirmed note's why —
    /// reworded by `f` (a leg adding where the message is).
    pub fn reworded(self, f: impl FnOnce(&str) -> String) -> Ended {
        let note = match self.note {
            Some(Note::Said(why)) if !self.is_delivered() => Some(Note::Said(f(&why))),
            Some(Note::TakenUnconfirmed(why)) if self.is_delivered() => Some(Note::TakenUnconfirmed(f(&why))),
            n => n,
        };
        Ended { note, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_said_beside_every_outcome_but_delivered() {
        assert_eq!(Ended::held("h").reason(), "h");
        assert_eq!(Ended::refused("r").outcome, Outcome::Refused);
        assert_eq!((Ended::queued("q").outcome, Ended::queued("q").reason()), (Outcome::Queued, "q"));
        assert_eq!(Ended::delivered(Some(Note::Said("x".into()))).reason(), "");
        let at = |w: &str| format!("{w}; at d");
        assert_eq!(Ended::unreachable("u").reworded(at).reason(), "u; at d");
        let unconfirmed = Ended::delivered(Some(Note::TakenUnconfirmed("t".into()))).reworded(at);
        assert_eq!(unconfirmed.note, Some(Note::TakenUnconfirmed("t; at d".into())));
        let created = Ended::delivered(Some(Note::Created("1".into()))).reworded(at);
        assert_eq!(created.note, Some(Note::Created("1".into())));
    }
}
