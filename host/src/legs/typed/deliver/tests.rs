//! The decision core on scripted seats and the real timing table, without sleeping.

use super::*;
use crate::clock::TestTimer;
use crate::legs::typed::SeatError;
use crate::legs::typed::TIMINGS;
use crate::vocab::outcome::Outcome;
use std::collections::VecDeque;
use std::time::Instant;

/// A seat scripted by what it shows after each action; it records what was pressed.
struct Scripted {
    idle_box: BoxText,
    seen: Seen,
    status: Option<Status>,
    typed: Vec<String>,
    enters: u32,
    /// How many Enters it ignores before taking the line.
    ignore_enters: u32,
    /// What it shows once it takes the line.
    after_take: VecDeque<Observation>,
    current: Option<Observation>,
    transcript: bool,
}

impl Scripted {
    fn idle() -> Self {
        Scripted {
            idle_box: BoxText::Empty,
            seen: Seen::Idle,
            status: Some(Status::Idle),
            typed: vec![],
            enters: 0,
            ignore_enters: 0,
            after_take: VecDeque::new(),
            current: None,
            transcript: false,
        }
    }
    fn obs(seen: Seen, boxed: BoxText, status: Option<Status>, read_shown: bool) -> Observation {
        Observation {
            seen,
            boxed,
            rate_limited: false,
            status,
            status_change: None,
            status_by: crate::vocab::outcome::Decider::MuxStatus,
            read_shown,
            queued: false,
            mode: None,
        }
    }
}

impl Seat for Scripted {
    fn observe(&mut self, _id: &str, _trigger: &str) -> Result<Observation, SeatError> {
        if let Some(o) = &self.current {
            let o = o.clone();
            if let Some(next) = self.after_take.pop_front() {
                self.current = Some(next);
            }
            return Ok(o);
        }
        let boxed = if let Some(t) = self.typed.last() { BoxText::Holds(t.clone()) } else { self.idle_box.clone() };
        Ok(Scripted::obs(self.seen.clone(), boxed, self.status, false))
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.typed.push(text.to_string());
        Ok(())
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.enters += 1;
        if self.enters > self.ignore_enters {
            if let Some(first) = self.after_take.pop_front() {
                self.current = Some(first);
            }
        }
        Ok(())
    }
    fn transcript_shows_read(&mut self, _id: &str) -> bool {
        self.transcript && self.current.is_some()
    }
}

fn traits() -> Traits {
    Traits {
        cli: "codex".into(),
        max_trigger: 400,
        enter_pause_ms: 0,
        queues_while_working: true,
        forbidden_starts: vec!["!".into(), "/".into(), "cat".into()],
    }
}

/// Runs `deliver` on the real timing table and a test clock: the run, and the time it took.
fn timed(seat: &mut dyn Seat, traits: &Traits) -> (Run, Duration) {
    let clock = TestTimer::new();
    let r = deliver(seat, traits, TRIG, "1", "x/1", &TIMINGS, &clock);
    (r, clock.elapsed())
}
const TRIG: &str = "Please read the team message at x/1";

/// A seat whose first look is a torn frame (read between a full-screen CLI's clear and its
/// repaint); every later look is the scripted seat's.
struct Torn {
    torn: Option<Seen>,
    seat: Scripted,
}

impl Seat for Torn {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        if let Some(seen) = self.torn.take() {
            return Ok(Scripted::obs(seen, BoxText::Unreadable, None, false));
        }
        self.seat.observe(id, trigger)
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.seat.type_text(text)
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.seat.press_enter()
    }
    fn transcript_shows_read(&mut self, id: &str) -> bool {
        self.seat.transcript_shows_read(id)
    }
}

/// A look that lands on a torn frame reads as nothing the profile knows: it is looked at
/// again, and the seat is judged on the drawn frame.
#[test]
fn a_torn_frame_before_typing_is_looked_at_again() {
    // Read between the rows (nothing known) or right after the clear (an empty screen).
    for torn in [Seen::Unknown("no composer and no known dialog".into()), Seen::Starting] {
        let mut seat = Scripted::idle();
        let working = Seen::Working("esc to interrupt".into());
        seat.after_take.push_back(Scripted::obs(working, BoxText::Empty, Some(Status::Working), false));
        let mut s = Torn { torn: Some(torn.clone()), seat };
        let (r, _) = timed(&mut s, &traits());
        assert_eq!(r.verdict, Ended::delivered(None).by(Decider::MuxStatus), "{torn:?}");
        assert_eq!((s.seat.typed.len(), s.seat.enters), (1, 1));
    }
}

#[test]
fn a_screen_that_stays_unreadable_is_unreachable_after_the_settle_with_nothing_typed() {
    let mut s = Scripted::idle();
    s.seen = Seen::Unknown("no composer and no known dialog".into());
    let (r, took) = timed(&mut s, &traits());
    assert!(
        r.verdict.outcome == Outcome::Unreachable
            && r.verdict.reason().starts_with("the pane could not be read as codex"),
        "{r:?}"
    );
    assert!(s.typed.is_empty() && s.enters == 0);
    assert_eq!(took, TIMINGS.settle, "looked at again for the settle, then judged");
}

#[test]
fn a_seat_that_works_after_enter_is_delivered_with_one_enter() {
    let mut s = Scripted::idle();
    s.after_take.push_back(Scripted::obs(
        Seen::Working("esc to interrupt".into()),
        BoxText::Empty,
        Some(Status::Working),
        false,
    ));
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(None).by(Decider::MuxStatus));
    assert_eq!((s.typed.len(), s.enters), (1, 1));
}

#[test]
fn an_ignored_enter_gets_a_second_one_only_while_the_box_holds_the_trigger() {
    let mut s = Scripted::idle();
    s.ignore_enters = 1;
    s.after_take.push_back(Scripted::obs(Seen::Idle, BoxText::Empty, Some(Status::Working), false));
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(None).by(Decider::MuxStatus));
    assert_eq!((s.typed.len(), s.enters), (1, 2));
}

#[test]
fn a_box_that_never_clears_is_not_submitted_after_three_enters() {
    let mut s = Scripted::idle();
    s.ignore_enters = 99;
    let (r, took) = timed(&mut s, &traits());
    assert_eq!(s.enters, 3);
    assert_eq!(took, Duration::from_secs(1 + 3 + 9), "the spec's waits after each Enter: 1, 3, then 9 s");
    assert_eq!(r.verdict.outcome, Outcome::NotSubmitted, "{r:?}");
    let m = r.verdict.reason();
    assert!(m.starts_with("3 Enters pressed; the box holds \"Please read"), "{m}");
}

#[test]
fn a_box_that_clears_without_evidence_is_taken_not_yet_confirmed() {
    let mut s = Scripted::idle();
    s.after_take.push_back(Scripted::obs(Seen::Idle, BoxText::Empty, Some(Status::Idle), false));
    let (r, took) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(Some("taken, not yet confirmed".into())).by(Decider::Screen));
    assert_eq!(s.enters, 1, "a cleared box never gets another Enter");
    assert_eq!(took, Duration::from_secs(20), "a cleared box is waited on for the whole window");
}

#[test]
fn a_line_the_cli_shows_queued_ends_the_wait_at_once() {
    let busy = || Seen::Working("esc to interrupt".into());
    let mut s = Scripted::idle();
    s.seen = busy();
    let mut queued = Scripted::obs(busy(), BoxText::Empty, None, false);
    queued.queued = true;
    s.after_take.push_back(queued);
    let (r, took) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(Some(crate::vocab::outcome::Note::Queued)).by(Decider::Screen));
    assert_eq!(s.enters, 1);
    assert_eq!(took, TIMINGS.poll, "the first look after Enter decides");

    // The same seat without the marker: nothing can show before its turn ends.
    let mut s = Scripted::idle();
    s.seen = busy();
    s.after_take.push_back(Scripted::obs(busy(), BoxText::Empty, None, false));
    let (r, took) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(Some(crate::vocab::outcome::Note::Taken)).by(Decider::Screen));
    assert_eq!(took, TIMINGS.window);
}

#[test]
fn a_queued_line_still_in_the_box_is_not_taken() {
    // A box that still holds the trigger has not let it go, whatever else the screen shows.
    let mut s = Scripted::idle();
    s.ignore_enters = 99;
    let mut o = Scripted::obs(Seen::Working("x".into()), BoxText::Holds(TRIG.into()), None, false);
    o.queued = true;
    s.current = None;
    struct Stuck(Scripted, Observation);
    impl Seat for Stuck {
        fn observe(&mut self, id: &str, t: &str) -> Result<Observation, SeatError> {
            if self.0.enters == 0 {
                return self.0.observe(id, t);
            }
            Ok(self.1.clone())
        }
        fn type_text(&mut self, x: &str) -> Result<(), SeatError> {
            self.0.type_text(x)
        }
        fn press_enter(&mut self) -> Result<(), SeatError> {
            self.0.press_enter()
        }
        fn transcript_shows_read(&mut self, _: &str) -> bool {
            false
        }
    }
    let mut st = Stuck(s, o);
    let (r, _) = timed(&mut st, &traits());
    assert!(r.verdict.outcome == Outcome::NotSubmitted, "{r:?}");
    assert_eq!(st.0.enters, 3);
}

#[test]
fn a_dialog_before_typing_is_unreachable_and_nothing_is_typed() {
    let mut s = Scripted::idle();
    s.seen = Seen::Dialog { kind: "permission".into(), title: "Bash command".into() };
    let (r, _) = timed(&mut s, &traits());
    assert!(
        r.verdict.outcome == Outcome::Unreachable
            && r.verdict.reason().contains("permission dialog")
            && r.verdict.reason().contains("x/1")
    );
    assert!(s.typed.is_empty());
    assert_eq!(s.enters, 0);
}

#[test]
fn a_draft_is_held_and_nothing_is_typed() {
    let mut s = Scripted::idle();
    s.idle_box = BoxText::Holds("half a thought".into());
    let (r, _) = timed(&mut s, &traits());
    assert!(
        r.verdict.outcome == Outcome::Held && r.verdict.reason().starts_with("the composer already holds unsent text")
    );
    assert!(s.typed.is_empty());
}

#[test]
fn a_working_seat_whose_cli_does_not_queue_is_held() {
    let mut s = Scripted::idle();
    s.seen = Seen::Working("esc to interrupt".into());
    let mut t = traits();
    t.queues_while_working = false;
    let (r, _) = timed(&mut s, &t);
    assert!(r.verdict.outcome == Outcome::Held);
    assert!(s.typed.is_empty());
}

#[test]
fn an_already_working_seat_needs_more_than_its_status() {
    let mut s = Scripted::idle();
    s.seen = Seen::Working("esc to interrupt".into());
    s.status = Some(Status::Working);
    s.after_take.push_back(Scripted::obs(Seen::Working("x".into()), BoxText::Empty, Some(Status::Working), false));
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(Some("taken, not yet confirmed".into())).by(Decider::Screen));
    let mut s = Scripted::idle();
    s.seen = Seen::Working("esc to interrupt".into());
    s.status = Some(Status::Working);
    s.transcript = true;
    s.after_take.push_back(Scripted::obs(Seen::Working("x".into()), BoxText::Empty, Some(Status::Working), false));
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(None).by(Decider::Transcript));
}

#[test]
fn an_unreadable_box_gets_one_enter_and_is_judged_by_status() {
    let mut s = Scripted::idle();
    s.idle_box = BoxText::Unreadable;
    s.current = None;
    // It never shows the typed text: observe keeps answering Unreadable.
    struct Blind(Scripted);
    impl Seat for Blind {
        fn observe(&mut self, id: &str, t: &str) -> Result<Observation, SeatError> {
            let mut o = self.0.observe(id, t)?;
            o.boxed = BoxText::Unreadable;
            Ok(o)
        }
        fn type_text(&mut self, x: &str) -> Result<(), SeatError> {
            self.0.type_text(x)
        }
        fn press_enter(&mut self) -> Result<(), SeatError> {
            self.0.press_enter()
        }
        fn transcript_shows_read(&mut self, id: &str) -> bool {
            self.0.transcript_shows_read(id)
        }
    }
    let mut b = Blind(s);
    let (r, took) = timed(&mut b, &traits());
    assert_eq!(b.0.enters, 1);
    assert_eq!(took, TIMINGS.window, "judged by status alone for the whole window");
    assert!(
        r.verdict.outcome == Outcome::NotSubmitted && r.verdict.reason().contains("the box could not be read"),
        "{r:?}"
    );
}

#[test]
fn a_dialog_after_the_line_left_is_delivered_naming_it() {
    let mut s = Scripted::idle();
    s.after_take.push_back(Scripted::obs(
        Seen::Dialog { kind: "permission".into(), title: "Bash".into() },
        BoxText::Unreadable,
        Some(Status::Blocked),
        false,
    ));
    let (r, _) = timed(&mut s, &traits());
    assert!(r.verdict.is_delivered() && r.verdict.note.as_ref().is_some_and(|n| n.to_string().contains("permission")));
}

#[test]
fn triggers_respect_length_and_forbidden_starts() {
    let t = traits();
    assert!(check_trigger(TRIG, &t).is_ok());
    assert!(check_trigger("cat the drop", &t).is_err());
    assert!(check_trigger("/clear", &t).is_err());
    let mut short = traits();
    short.max_trigger = 10;
    assert!(check_trigger(TRIG, &short).unwrap_err().to_string().contains("at most 10"));
}

#[test]
fn a_pane_in_copy_mode_is_left_alone() {
    let mut o = Scripted::obs(Seen::Idle, BoxText::Empty, None, false);
    o.mode = Some("copy-mode".into());
    assert_eq!(
        judge_before(&o, &traits(), "x/1"),
        Some(Ended::held("the pane is in copy mode; nothing was typed; the message is at x/1").by(Decider::Screen))
    );
}

#[test]
fn an_earlier_trigger_of_ours_in_the_box_is_named_with_its_id() {
    let earlier = "Please read the team message at .agents/send-drops/s/a/11111111-2222-4333-8444-555555555555";
    let o = Scripted::obs(Seen::Idle, BoxText::Holds(earlier.into()), None, false);
    let Some(held) = judge_before(&o, &traits(), "x/1").filter(|e| e.outcome == Outcome::Held) else { panic!() };
    let m = held.reason();
    assert!(m.starts_with("the composer holds the trigger of an earlier message, 11111111-2222-4333-8444-555555555555, typed and never submitted"), "{m}");
    assert!(m.contains("clear the box") && m.ends_with("the message is at x/1"), "{m}");
}

#[test]
fn a_trigger_with_a_control_character_is_refused() {
    let e = check_trigger("Please read the team message at /tmp/a\rb/.agents/x", &traits()).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "the trigger line would hold a control character (\\r) from the drop's path \"/tmp/a\\rb/.agents/x\""
        ),
        "{e}"
    );
    assert!(check_trigger("Please read the team message at /tmp/a\u{1b}[2J", &traits()).is_err());
}

#[test]
fn wrapped_box_text_still_counts_as_the_trigger() {
    let wrapped = BoxText::Holds("Please read the team message at   x/1".into());
    assert!(holds_trigger(&wrapped, TRIG));
    assert!(!holds_trigger(&BoxText::Holds("Please read".into()), TRIG));
    assert!(!holds_trigger(&BoxText::Empty, TRIG));
}

/// A scripted seat that records its intent (or fails to) and the order of what happened.
struct Intending {
    inner: Scripted,
    fail: bool,
    events: Vec<&'static str>,
}

impl Seat for Intending {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        self.inner.observe(id, trigger)
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.events.push("type");
        self.inner.type_text(text)
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.events.push("enter");
        self.inner.press_enter()
    }
    fn transcript_shows_read(&mut self, id: &str) -> bool {
        self.inner.transcript_shows_read(id)
    }
    fn before_typing(&mut self) -> Result<(), SeatError> {
        self.events.push("intent");
        if self.fail {
            return Err(SeatError::Intent("the retry could not be recorded before typing (File too large)".into()));
        }
        Ok(())
    }
}

#[test]
fn the_intent_is_recorded_once_before_the_first_keystroke_and_its_failure_types_nothing() {
    let working = Scripted::obs(Seen::Working("x".into()), BoxText::Empty, Some(Status::Working), false);
    let mut inner = Scripted::idle();
    inner.after_take.push_back(working);
    let mut s = Intending { inner, fail: false, events: vec![] };
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(None).by(Decider::MuxStatus));
    assert_eq!(s.events, ["intent", "type", "enter"]);

    let mut s = Intending { inner: Scripted::idle(), fail: true, events: vec![] };
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(
        r,
        Run {
            verdict: Ended::refused(
                "the retry could not be recorded before typing (File too large); nothing was typed; the message is at x/1"
            ),
            typed: false,
            enters: 0,
            back: None
        }
    );
    assert_eq!(s.events, ["intent"]);
    assert!(s.inner.typed.is_empty());

    // A look that stops the run before typing records no intent.
    let mut draft = Scripted::idle();
    draft.idle_box = BoxText::Holds("half a thought".into());
    let mut s = Intending { inner: draft, fail: false, events: vec![] };
    let (r, _) = timed(&mut s, &traits());
    assert!(r.verdict.outcome == Outcome::Held, "{r:?}");
    assert!(s.events.is_empty(), "{:?}", s.events);
}

/// A scripted seat on a test clock: its echo shows after `echo_after` looks past the typing,
/// and it notes the clock's time of the typing and of each Enter.
struct Echoing<'c> {
    seat: Scripted,
    clock: &'c TestTimer,
    echo_after: u32,
    looks_since_typing: u32,
    typed_at: Option<Instant>,
    enter_at: Vec<Instant>,
}

impl Seat for Echoing<'_> {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        let mut o = self.seat.observe(id, trigger)?;
        if self.typed_at.is_some() && self.enter_at.is_empty() {
            self.looks_since_typing += 1;
            if self.looks_since_typing <= self.echo_after {
                o.boxed = BoxText::Empty;
            }
        }
        Ok(o)
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.typed_at = Some(self.clock.now());
        self.seat.type_text(text)
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.enter_at.push(self.clock.now());
        self.seat.press_enter()
    }
    fn transcript_shows_read(&mut self, id: &str) -> bool {
        self.seat.transcript_shows_read(id)
    }
}

/// From the typing to the first Enter, for a seat that echoes after `echo_after` looks and a
/// profile pause of `pause_ms`; and whether it was delivered.
fn typed_to_enter(echo_after: u32, pause_ms: u64, idle_box: BoxText) -> (Duration, bool) {
    let clock = TestTimer::new();
    let mut seat = Scripted::idle();
    seat.idle_box = idle_box;
    seat.after_take.push_back(Scripted::obs(Seen::Working("esc".into()), BoxText::Empty, None, true));
    let mut s = Echoing { seat, clock: &clock, echo_after, looks_since_typing: 0, typed_at: None, enter_at: vec![] };
    let t = Traits { enter_pause_ms: pause_ms, ..traits() };
    let r = deliver(&mut s, &t, TRIG, "1", "x/1", &TIMINGS, &clock);
    let gap = s.enter_at[0] - s.typed_at.unwrap();
    (gap, r.verdict.is_delivered())
}

#[test]
fn the_profile_s_pause_runs_from_the_typing_and_the_read_back_counts_toward_it() {
    let pause = 50;
    let pause_d = Duration::from_millis(pause);
    // the first look back comes at the pause's end: echoed by then, Enter at once
    assert_eq!(typed_to_enter(0, pause, BoxText::Empty), (pause_d, true));
    // echoed at the next quick look, or the one after
    assert_eq!(typed_to_enter(1, pause, BoxText::Empty), (pause_d + TIMINGS.readback_poll, true));
    assert_eq!(typed_to_enter(2, pause, BoxText::Empty), (pause_d + TIMINGS.readback_poll * 2, true));
    // past the quick looks a seat slow to echo is looked at every poll
    let quick = crate::legs::typed::READBACK_QUICK_LOOKS;
    assert_eq!(
        typed_to_enter(quick + 1, pause, BoxText::Empty),
        (pause_d + TIMINGS.readback_poll * (quick - 1) + TIMINGS.poll * 2, true)
    );
    // a box that cannot be read has no read-back: the whole pause
    assert_eq!(typed_to_enter(0, pause, BoxText::Unreadable), (Duration::from_millis(pause), true));
    // never less than the pause, whatever it is
    for p in [0, 30, 50, 300] {
        for echo in 0..4 {
            let (gap, ok) = typed_to_enter(echo, p, BoxText::Empty);
            assert!(ok && gap >= Duration::from_millis(p), "pause {p}, echo after {echo}: {gap:?}");
        }
    }
}

/// A seat whose box, once typed into, shows other text than the keys (they went elsewhere).
struct Elsewhere(Scripted);

impl Seat for Elsewhere {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        self.0.observe(id, trigger)
    }
    fn type_text(&mut self, _text: &str) -> Result<(), SeatError> {
        self.0.type_text("half a word")
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.0.press_enter()
    }
    fn transcript_shows_read(&mut self, id: &str) -> bool {
        self.0.transcript_shows_read(id)
    }
}

#[test]
fn a_box_showing_none_of_the_keys_yet_is_waited_for_longer_than_one_showing_other_text() {
    // drawn all at once ~5 s after the keys (opencode on a loaded machine): delivered
    let (gap, delivered) = typed_to_enter(125, 0, BoxText::Empty);
    assert!(delivered && gap > TIMINGS.readback && gap < TIMINGS.readback_unechoed, "{gap:?}");
    // never drawn: held once the longer bound is out, naming the empty box
    let clock = TestTimer::new();
    let mut seat = Echoing {
        seat: Scripted::idle(),
        clock: &clock,
        echo_after: u32::MAX,
        looks_since_typing: 0,
        typed_at: None,
        enter_at: vec![],
    };
    let r = deliver(&mut seat, &traits(), TRIG, "1", "x/1", &TIMINGS, &clock);
    assert_eq!(r.verdict.outcome, Outcome::Held, "{:?}", r.verdict);
    assert!(r.verdict.reason().contains("(the box is empty)"), "{}", r.verdict.reason());
    assert!(clock.elapsed() >= TIMINGS.readback_unechoed && seat.enter_at.is_empty(), "{:?}", clock.elapsed());
    // other text in the box: judged at the read-back's own bound
    let (r, took) = timed(&mut Elsewhere(Scripted::idle()), &traits());
    assert_eq!(r.verdict.outcome, Outcome::Held, "{:?}", r.verdict);
    assert!(r.verdict.reason().contains("the box holds \"half a word\""), "{}", r.verdict.reason());
    assert!(took >= TIMINGS.readback && took < TIMINGS.readback + TIMINGS.poll * 2, "{took:?}");
}

/// A look whose status is the CLI's own report (`legs::reports`), numbered `seq`.
fn reported(seen: Seen, boxed: BoxText, status: Status, seq: u64) -> Observation {
    Observation {
        status_change: Some(seq),
        status_by: Decider::StatusReport,
        ..Scripted::obs(seen, boxed, Some(status), false)
    }
}

#[test]
fn a_blocked_report_stops_the_send_before_typing_though_the_screen_reads_idle() {
    let o = reported(Seen::Idle, BoxText::Empty, Status::Blocked, 4);
    let v = judge_before(&o, &traits(), "x/1").expect("stopped");
    assert_eq!(
        v,
        Ended::unreachable(
            "codex reports itself blocked (its own status report) on a dialog; nothing was pressed; the message is at x/1"
        )
        .by(Decider::StatusReport)
    );
    // herdr's blocked keeps its words
    let o = Observation { status_by: Decider::MuxStatus, ..o };
    assert!(judge_before(&o, &traits(), "x/1").unwrap().reason().starts_with("herdr reports the seat blocked on"));
}

/// A seat whose reports say idle until Enter and blocked once the trigger is typed: the
/// read-back sees it and presses no Enter.
struct BlockedWhileTyping(Scripted);

impl Seat for BlockedWhileTyping {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        let o = self.0.observe(id, trigger)?;
        let (status, seq) = if self.0.typed.is_empty() { (Status::Idle, 1) } else { (Status::Blocked, 2) };
        Ok(reported(o.seen, o.boxed, status, seq))
    }
    fn type_text(&mut self, text: &str) -> Result<(), SeatError> {
        self.0.type_text(text)
    }
    fn press_enter(&mut self) -> Result<(), SeatError> {
        self.0.press_enter()
    }
    fn transcript_shows_read(&mut self, id: &str) -> bool {
        self.0.transcript_shows_read(id)
    }
}

#[test]
fn a_blocked_report_during_the_read_back_presses_no_enter() {
    let mut s = BlockedWhileTyping(Scripted::idle());
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict.outcome, Outcome::Held, "{r:?}");
    assert!(r.verdict.reason().starts_with("codex reports itself blocked (its own status report) while the trigger"));
    assert_eq!(r.verdict.by, Some(Decider::StatusReport));
    assert_eq!((s.0.typed.len(), s.0.enters), (1, 0));
}

#[test]
fn a_working_report_numbered_after_enter_proves_the_line_submitted() {
    // the screen shows nothing after Enter (the box cleared, idle): the report alone proves it
    let mut s = Scripted::idle();
    s.status = None;
    s.after_take.push_back(reported(Seen::Idle, BoxText::Empty, Status::Working, 2));
    let (r, took) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(None).by(Decider::StatusReport));
    assert_eq!((s.typed.len(), s.enters), (1, 1));
    assert!(took < TIMINGS.enter_waits[0], "decided at the first look after Enter: {took:?}");
    // the same seat with no reports: taken, not yet confirmed, after the whole window
    let mut s = Scripted::idle();
    s.status = None;
    s.after_take.push_back(Scripted::obs(Seen::Idle, BoxText::Empty, None, false));
    let (r, _) = timed(&mut s, &traits());
    assert_eq!(r.verdict, Ended::delivered(Some(Note::Taken)).by(Decider::Screen));
}

#[test]
fn a_working_report_read_before_enter_proves_nothing() {
    // the CLI already reported working (its own turn) before the trigger went in
    let mut s = Scripted::idle();
    s.status = None;
    s.current = Some(reported(Seen::Idle, BoxText::Empty, Status::Working, 1));
    s.after_take.push_back(reported(Seen::Idle, BoxText::Empty, Status::Working, 1));
    let (r, _) = timed(&mut s, &traits());
    assert_ne!(r.verdict.by, Some(Decider::StatusReport), "{r:?}");
}
