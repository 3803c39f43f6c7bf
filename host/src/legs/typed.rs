//! The typed leg: the drop file, the seat lock, the trigger line, the read-back before Enter,
//! the Enters, and the evidence that the seat took the line (docs/spec/team-send.md "Outcomes",
//! docs/DESIGN.md §7).
//!
//! Invariants that matter to a user:
//! - nothing is ever typed into a dialog or over text someone left in the box: the screen is
//!   read before typing, and Enter goes only to a box that holds exactly our trigger;
//! - the trigger is typed once; a second or third Enter is the only thing ever repeated;
//! - `delivered` needs the line to have left the box AND (a working/done/blocked status new
//!   against everything read before Enter (`evidence`), the screen showing the drop read, or
//!   the transcript showing it) — or the CLI showing our
//!   line queued behind its turn, or, after the whole window, the box cleared with no sign
//!   yet: both `delivered` with a note that it is not yet confirmed.
//!
//! The parts, one concern each:
//! - `deliver`: the decision core, over the `Seat` trait and a `Timer`, unit-tested on the
//!   real timing table without sleeping;
//! - `evidence`: what, after Enter, counts as the seat acting on the line;
//! - `lock`: the seat lock around a send;
//! - `drop_file`: the drop file and how the trigger names it;
//! - `transcript`: the watch on the CLI's session transcript, and the one spelling of
//!   `{cwd-dashed}`;
//! - `pane`: the real `Seat`, a multiplexer pane read by the seat's profile;
//! - `run`: one plain send from a decided target (`send_plain`), or the same typed run for a
//!   drop already on disk (`retrigger`, the watch's retry, which records its intent before
//!   the first keystroke and types nothing when it cannot): the public boundary.

mod deliver;
mod drop_file;
mod evidence;
mod lock;
mod pane;
mod run;
pub mod transcript;

pub use deliver::{check_trigger, deliver, holds_trigger, judge_before, BadTrigger};
pub use drop_file::{drop_path, drop_ref, parse_trigger, trigger_line, write_drop, DropError, TRIGGER_PREFIX};
pub use evidence::BeforeEnter;
pub use lock::{lock_seat, SeatLock, SeatLockError, LOCK_WAIT_MS};
pub use pane::{dialog_word, SeatPane};
pub use run::{retrigger, send_plain, whereabouts, Means, PlainSend, Prepared, Report, Retrigger, HERDR_BLOCKED};
pub use transcript::{cwd_dashed, TranscriptWatch};

use crate::vocab::outcome::Decider;
use std::time::Duration;

/// Every wait of the typed leg, before `TEAM_TIME_SCALE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Timings {
    /// How long the read-back waits for the typed trigger to show in the box. It ends as soon
    /// as the box holds the trigger, so it costs only a seat that is slow to echo — which is
    /// the seat's speed, not a wait to shorten: never scaled (scaled to tests' 100 ms, a seat
    /// starved on a loaded machine echoed after the run had given up, leaving the trigger in
    /// the box for every later send to be held on).
    pub readback: Duration,
    /// How long the read-back waits while the box still shows none of the typed keys (empty, as
    /// before the typing): a CLI that draws a burst of keys all at once, late, is still taking
    /// them (opencode 1.18.33 on a loaded machine drew a typed trigger 1.1–7.2 s after the keys;
    /// docs/more-vendors.md), and giving up then leaves the trigger in the box for every later
    /// send to be held on. A box showing anything else is judged at [`Timings::readback`].
    /// Never scaled.
    pub readback_unechoed: Duration,
    /// How often the read-back looks again for its first [`READBACK_QUICK_LOOKS`] looks: a CLI
    /// echoes typed text within tens of ms, and every ms between the echo and the look is a ms
    /// before the Enter. Never scaled.
    pub readback_poll: Duration,
    /// How often the screen is re-read while waiting (each look is a multiplexer call): never
    /// scaled, so a shortened run does not look at a seat fifty times as often.
    pub poll: Duration,
    /// The wait after each Enter (at most three Enters).
    pub enter_waits: [Duration; 3],
    /// The whole window, from the first Enter, for a cleared box to show evidence.
    pub window: Duration,
    /// How long a look before typing that reads as nothing the profile knows (or as an empty,
    /// starting screen) is taken again:
    /// a full-screen CLI redraws by clearing and repainting, and a read that lands between the
    /// two is a torn frame, not the seat. A property of terminals, not a wait to shorten: never
    /// scaled.
    pub settle: Duration,
}

/// The read-back's quick looks (at [`Timings::readback_poll`]); past them a CLI slow to echo is
/// looked at every [`Timings::poll`], so a read-back that never matches costs no more looks
/// than before.
pub const READBACK_QUICK_LOOKS: u32 = 8;

/// The one table of the typed leg's timings (spec: 1, 3, 9 s; 20 s in all).
pub const TIMINGS: Timings = Timings {
    readback: Duration::from_millis(2_000),
    readback_unechoed: Duration::from_millis(10_000),
    readback_poll: Duration::from_millis(15),
    poll: Duration::from_millis(40),
    enter_waits: [Duration::from_millis(1_000), Duration::from_millis(3_000), Duration::from_millis(9_000)],
    window: Duration::from_millis(20_000),
    settle: Duration::from_millis(400),
};

impl Timings {
    /// The spec's waits (after each Enter, the window) multiplied by `factor` (the run's clock
    /// scale; tests only shorten), at least 1 ms each; the read-back bounds, the poll and the
    /// settle are the seat's and the terminal's, and stay as they are.
    pub fn scaled(&self, factor: f64) -> Timings {
        let s = |d: Duration| d.mul_f64(factor).max(Duration::from_millis(1));
        Timings {
            readback: self.readback,
            readback_unechoed: self.readback_unechoed,
            readback_poll: self.readback_poll,
            poll: self.poll,
            enter_waits: self.enter_waits.map(s),
            window: s(self.window),
            settle: self.settle,
        }
    }
}

/// The agent's status, where something reports one: the multiplexer (herdr), or the CLI itself
/// through a status-report pipe (`legs::reports`); plain tmux has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Idle,
    Working,
    Blocked,
    Done,
    Unknown,
}

/// What the seat's screen shows, as its profile read it.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Idle,
    Working(String),
    Dialog { kind: String, title: String },
    Starting,
    Exited,
    Unknown(String),
}

/// What the seat's input box holds.
#[derive(Debug, Clone, PartialEq)]
pub enum BoxText {
    Empty,
    Holds(String),
    Unreadable,
}

/// One look at the seat: the profile's reading, the multiplexer's status, and whether the
/// screen shows the drop being read.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub seen: Seen,
    pub boxed: BoxText,
    /// The last turn ended in a rate limit (an idle prompt showing it).
    pub rate_limited: bool,
    pub status: Option<Status>,
    /// Which of the multiplexer's status changes `status` is, where it numbers them (herdr
    /// ≥ 0.7.5's `state_change_seq`): the same number read again is the same status.
    pub status_change: Option<u64>,
    /// Who gave `status`: the multiplexer ([`Decider::MuxStatus`]) or the CLI's own status
    /// report ([`Decider::StatusReport`], numbered in `status_change`).
    pub status_by: Decider,
    pub read_shown: bool,
    /// The CLI shows the trigger line queued, to be sent when its current turn ends.
    pub queued: bool,
    /// The multiplexer's mode the pane is in (tmux's `copy-mode`): keys would go to it.
    pub mode: Option<String>,
}

/// A seat busy with something of its own, as one look reads it: a turn, a dialog (its kind), or
/// text someone left in its box (with or without either). A seat with hooks takes a message in
/// its inbox then and nothing is typed: the inbox leg's look judges by this
/// (`inbox::leg::judge`), and so does the typed leg's own look before typing, when the inbox
/// leg handed it the send ([`Seat::gives_back`], [`Run::back`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Busy {
    /// The dialog the screen shows (its kind); `None`: a turn, or a draft alone.
    pub dialog: Option<String>,
    /// Text someone left in the box.
    pub draft: bool,
}

impl Observation {
    /// Whether this look finds the seat busy with something of its own ([`Busy`]).
    pub fn busy(&self) -> Option<Busy> {
        let draft = matches!(&self.boxed, BoxText::Holds(t) if !t.trim().is_empty());
        match &self.seen {
            Seen::Dialog { kind, .. } => Some(Busy { dialog: Some(kind.clone()), draft }),
            Seen::Working(_) => Some(Busy { dialog: None, draft }),
            Seen::Idle if draft => Some(Busy { dialog: None, draft: true }),
            _ => None,
        }
    }
}

/// Why a look at a seat, a keystroke into it, or the record before typing failed; rendered
/// into the verdict's sentence.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// The multiplexer would not read or type.
    #[error("{0}")]
    Mux(#[from] crate::mux::MuxError),
    /// The seat's profile could not read the screen.
    #[error("{}", .0.message())]
    Profile(crate::error::TeamError),
    /// A retry's intent could not be recorded (why), so nothing may be typed.
    #[error("{0}")]
    Intent(String),
}

/// What the typed leg needs from one seat.
pub trait Seat {
    /// Reads the pane, classifies it, reads the status, and asks whether a row shows the drop
    /// `id` read (not the echo of `trigger`) and whether the CLI shows `trigger` queued.
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError>;
    fn type_text(&mut self, text: &str) -> Result<(), SeatError>;
    fn press_enter(&mut self) -> Result<(), SeatError>;
    /// Whether rows appended to the seat's transcript since the send began prove the read.
    fn transcript_shows_read(&mut self, id: &str) -> bool;
    /// Whether the seat's own hook handed the message `id` whole — the trigger's companion in
    /// its inbox (`inbox::leg::queue_companion`) — since it was queued: the CLI took a prompt
    /// and the model has the text. A seat with no companion: never.
    fn hook_handed(&mut self, _id: &str) -> bool {
        false
    }
    /// Called once, after the look before typing allowed it and before the first keystroke:
    /// where a retry records its intent (`history::intent`). An `Err` (why) stops the run
    /// with nothing typed. A first send has nothing to record.
    fn before_typing(&mut self) -> Result<(), SeatError> {
        Ok(())
    }
    /// Whether a look before typing that finds the seat [`Busy`] gives the send back, nothing
    /// typed ([`Run::back`]), instead of judging it: a seat whose inbox leg looked a moment
    /// earlier and handed the send on (it read idle — the message queued as the trigger's
    /// companion — or not readable for the inbox: starting, a torn frame) — busy now, the
    /// message belongs in its inbox. Any other seat: never.
    fn gives_back(&self) -> bool {
        false
    }
}

/// What the profile says about typing into its CLI.
#[derive(Debug, Clone)]
pub struct Traits {
    pub cli: String,
    pub max_trigger: usize,
    pub enter_pause_ms: u64,
    pub queues_while_working: bool,
    pub forbidden_starts: Vec<String>,
}

/// How one typed send ended (the verdict: delivered with its note, or held, not-submitted,
/// unreachable or refused with the reason — nothing typed, or typed and never taken), and
/// what was done on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub verdict: crate::vocab::outcome::Ended,
    /// Whether the trigger was typed into the pane.
    pub typed: bool,
    pub enters: u32,
    /// The send given back before anything was typed ([`Seat::gives_back`]): what the look
    /// found. The verdict then says `held`, for a caller that cannot take the send back.
    pub back: Option<Busy>,
}

// herdr's recorded agent status against the typed leg's decision core (test-only)
#[cfg(test)]
mod tests_herdr;
#[cfg(test)]
mod tests_herdr_bench;
