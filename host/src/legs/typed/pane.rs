//! The real seat behind the typed leg: one pane through the multiplexer port, read by the
//! seat's profile, with its session transcript watched from the start of the send.
//!
//! Invariant: this only observes and types what `typed::deliver` tells it to; every decision
//! is made there.

use super::{BoxText, Observation, Seat, SeatError, Seen, Status, TranscriptWatch};
use crate::mux::{AgentStatus, Mux, PaneRef};
use crate::profiles::{Composer, Probe, Profile, State, TurnError};
use crate::vocab::outcome::Decider;

/// One seat's pane, its profile and its transcript.
pub struct SeatPane<'a> {
    pub mux: &'a dyn Mux,
    pub pane: PaneRef,
    pub profile: &'a mut Profile,
    pub transcript: Option<TranscriptWatch>,
    /// Whether a trigger was typed: until then a look judges the screen alone and asks for no
    /// recent rows (on herdr a call of its own); after it, a drop-read may have scrolled off.
    pub typed: bool,
    /// The CLI's own status reports, where its profile says it writes them and a pipe on the
    /// pane keeps them (`legs::reports`): asked when the multiplexer gives no status.
    pub reports: Option<crate::legs::reports::Witness>,
}

fn status_of(s: AgentStatus) -> Status {
    match s {
        AgentStatus::Idle => Status::Idle,
        AgentStatus::Working => Status::Working,
        AgentStatus::Blocked => Status::Blocked,
        AgentStatus::Done => Status::Done,
        AgentStatus::Unknown => Status::Unknown,
    }
}

/// The dialog kind as the reports spell it (`vendor notice`, `held-message`, …): the
/// vocabulary's one rendering, `DialogKind::label`.
pub fn dialog_word(kind: &crate::profiles::DialogKind) -> &str {
    kind.label()
}

impl Seat for SeatPane<'_> {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        let cap = if self.typed { self.mux.read(&self.pane) } else { self.mux.read_screen(&self.pane) };
        let mut cap = cap?;
        let mode = cap.mode.take();
        let screen = cap.into_screen();
        // One look: the reading and the drop read in one profile call (team:profile@0.2.0).
        let reading = self.profile.read(&screen, &Probe::new(id, trigger)).map_err(SeatError::Profile)?;
        let status = self.mux.status(&self.pane)?;
        let (status, status_change, status_by) = match status {
            Some(s) => (Some(status_of(s.status)), s.change, Decider::MuxStatus),
            None => match self.reports.as_mut().and_then(|w| w.look()) {
                Some((s, seq)) => (Some(s), Some(seq), Decider::StatusReport),
                None => (None, None, Decider::MuxStatus),
            },
        };
        let read_shown = reading.drop_read;
        let queued = reading.queued_holds(trigger);
        let seen = match reading.state {
            State::Idle => Seen::Idle,
            State::Working(h) => Seen::Working(h),
            State::Dialog(d) => Seen::Dialog { kind: dialog_word(&d.kind).to_string(), title: d.title },
            State::Starting => Seen::Starting,
            State::Exited => Seen::Exited,
            State::Unknown(w) => Seen::Unknown(w),
        };
        let boxed = match reading.composer {
            Composer::Empty => BoxText::Empty,
            Composer::Holds(t) => BoxText::Holds(t),
            Composer::Unreadable => BoxText::Unreadable,
        };
        Ok(Observation {
            seen,
            boxed,
            rate_limited: reading.last_error == Some(TurnError::RateLimit),
            status,
            status_change,
            status_by,
            read_shown,
            queued,
            mode,
        })
    }

    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        // set before the call: a type that fails half-way may still have left text in the box
        self.typed = true;
        Ok(self.mux.type_text(&self.pane, text)?)
    }

    fn press_enter(&mut self) -> Result<(), SeatError> {
        Ok(self.mux.press_enter(&self.pane)?)
    }

    fn transcript_shows_read(&mut self, id: &str) -> bool {
        let Some(w) = self.transcript.as_mut() else { return false };
        match w.new_rows() {
            Some(rows) if !rows.is_empty() => self.profile.transcript_shows_drop_read(&rows, id).unwrap_or(false),
            _ => false,
        }
    }
}
