//! A send the inbox leg handed on (a seat with hooks, idle at its look) whose own look before
//! typing finds the seat busy: given back with nothing typed, on the real timing table.

use super::*;
use crate::clock::TestTimer;
use crate::legs::typed::{SeatError, TIMINGS};
use crate::vocab::outcome::Outcome;

/// A seat that shows `first` at the look before typing and an idle, empty prompt after it
/// (holding what was typed), takes a line at the first Enter (working after), and gives busy
/// sends back when `gives_back`.
struct Turned {
    first: Option<Observation>,
    gives_back: bool,
    typed: Vec<String>,
    enters: u32,
}

fn obs(seen: Seen, boxed: BoxText) -> Observation {
    Observation {
        seen,
        boxed,
        rate_limited: false,
        status: None,
        status_change: None,
        status_by: Decider::MuxStatus,
        read_shown: false,
        queued: false,
        mode: None,
    }
}

impl Seat for Turned {
    fn observe(&mut self, _id: &str, _trigger: &str) -> Result<Observation, SeatError> {
        if let Some(o) = self.first.take() {
            return Ok(o);
        }
        Ok(match (self.typed.last(), self.enters) {
            (_, 1..) => obs(Seen::Working("esc to interrupt".into()), BoxText::Empty),
            (Some(t), 0) => obs(Seen::Idle, BoxText::Holds(t.clone())),
            (None, 0) => obs(Seen::Idle, BoxText::Empty),
        })
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.typed.push(text.to_string());
        Ok(())
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.enters += 1;
        Ok(())
    }
    fn transcript_shows_read(&mut self, _id: &str) -> bool {
        false
    }
    fn gives_back(&self) -> bool {
        self.gives_back
    }
}

fn traits(queues_while_working: bool) -> Traits {
    Traits {
        cli: "gemini-cli".into(),
        max_trigger: 400,
        enter_pause_ms: 0,
        queues_while_working,
        forbidden_starts: vec!["!".into(), "/".into()],
    }
}

const TRIG: &str = "Please read the team message at x/1";

fn run(seat: &mut Turned, traits: &Traits) -> Run {
    deliver(seat, traits, TRIG, "1", "x/1", &TIMINGS, &TestTimer::new())
}

fn working() -> Observation {
    obs(Seen::Working("esc to cancel".into()), BoxText::Empty)
}

/// The race of issue 31: the inbox leg read the seat idle, the typed leg's look reads it
/// working. Whether or not its CLI queues a line sent meanwhile, nothing is typed and the run
/// says, typed, that it gave the send back.
#[test]
fn a_seat_busy_at_the_look_before_typing_gives_the_send_back_with_nothing_typed() {
    let draft = obs(Seen::Idle, BoxText::Holds("half a thought".into()));
    let dialog = obs(Seen::Dialog { kind: "permission".into(), title: "Allow?".into() }, BoxText::Unreadable);
    let cases = [
        (working(), Busy { dialog: None, draft: false }, "it is working"),
        (draft, Busy { dialog: None, draft: true }, "a draft is in its box"),
        (dialog, Busy { dialog: Some("permission".into()), draft: false }, "it shows a permission dialog"),
    ];
    for queues in [false, true] {
        for (first, busy, words) in cases.clone() {
            let mut seat = Turned { first: Some(first), gives_back: true, typed: vec![], enters: 0 };
            let r = run(&mut seat, &traits(queues));
            assert_eq!(r.back, Some(busy), "{words}");
            assert_eq!((r.typed, r.enters, seat.typed.len(), seat.enters), (false, 0, 0, 0), "{words}");
            let why = format!("the seat turned busy ({words}) after the look that chose the typed leg; nothing was typed; the message is at x/1");
            assert_eq!(r.verdict, Ended::held(why).by(Decider::Screen));
        }
    }
}

/// The same seat still idle at the look is typed as before; a seat that does not give sends
/// back (no hooks: the typed leg alone) keeps today's `held`.
#[test]
fn an_idle_seat_is_typed_and_a_seat_without_hooks_is_held_as_before() {
    let mut seat = Turned { first: None, gives_back: true, typed: vec![], enters: 0 };
    let r = run(&mut seat, &traits(false));
    assert_eq!((r.back.clone(), r.typed, seat.typed.as_slice()), (None, true, [TRIG.to_string()].as_slice()));
    assert_eq!(r.verdict.outcome, Outcome::Delivered, "{r:?}");

    let mut seat = Turned { first: Some(working()), gives_back: false, typed: vec![], enters: 0 };
    let r = run(&mut seat, &traits(false));
    assert_eq!((r.back, r.typed, seat.typed.len()), (None, false, 0));
    assert_eq!(
        r.verdict,
        Ended::held(
            "the seat is working and gemini-cli does not queue a line sent meanwhile; nothing was typed; the message is at x/1"
        )
        .by(Decider::Screen)
    );
}
