//! The rules of `decide` on histories built in memory: every rule, no terminal, no file.

use super::*;
use crate::history::ledger::instant;
use crate::history::{Receipt, ReceiptKind};
use crate::vocab::id::uid;

const T0: &str = "2026-11-29T09:00:00Z";

fn at(min: i64, sec: i64) -> DateTime<Utc> {
    instant(T0).unwrap() + Duration::minutes(min) + Duration::seconds(sec)
}

fn ts(min: i64, sec: i64) -> String {
    at(min, sec).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn line(id: &str, outcome: &str, when: String) -> MessageLine {
    MessageLine {
        ts: when.into(),
        from: "owner".into(),
        to: "rev".into(),
        body: "b".into(),
        id: uid(id),
        outcome: outcome.into(),
        ms: Some(1_000),
        cli: Some("codex".into()),
        profile: Some("0.1.0".into()),
        ..Default::default()
    }
}

fn taken(id: &str, when: String) -> MessageLine {
    MessageLine {
        via: Some("typed".into()),
        note: Some("taken, not yet confirmed".into()),
        ..line(id, "delivered", when)
    }
}

fn any_seat(_: &str) -> bool {
    true
}

fn ready() -> Look {
    Look { free: true, ready: true, ..Look::default() }
}

fn pass(
    lines: &[MessageLine],
    receipts: &[Receipt],
    now: DateTime<Utc>,
    look: Option<Look>,
    mem: &mut Memory,
) -> Vec<Action> {
    let ledger = Ledger::build(lines, receipts);
    let (wanted, mut out) = plan(&ledger, now, &Limits::SPEC, &any_seat, mem);
    for (seat, w) in &wanted {
        out.extend(after_look(seat, w, look.as_ref(), &ledger, now, &Limits::SPEC, mem));
    }
    out
}

#[test]
fn a_held_send_is_retried_only_when_the_seat_is_ready() {
    let lines = [line("a", "held", ts(0, 0))];
    let mut m = Memory::default();
    let busy = Look { free: true, ready: false, ..Look::default() };
    assert_eq!(pass(&lines, &[], at(1, 0), Some(busy), &mut m), vec![]);
    assert_eq!(pass(&lines, &[], at(1, 0), None, &mut m), vec![]);
    assert_eq!(
        pass(&lines, &[], at(1, 0), Some(ready()), &mut m),
        vec![Action::Retry { id: uid("a"), seat: "rev".into(), n: 1 }]
    );
}

#[test]
fn what_is_retried_and_what_never_is() {
    let mut m = Memory::default();
    let now = at(1, 0);
    let dialog = MessageLine { dialog: Some("permission".into()), ..line("d", "unreachable", ts(0, 0)) };
    let no_pane = line("u", "unreachable", ts(0, 0));
    let not_sub = line("n", "not-submitted", ts(0, 0));
    let old_build = MessageLine { cli: None, ..line("o", "held", ts(0, 0)) };
    let delivered = MessageLine { note: None, via: Some("typed".into()), ..line("x", "delivered", ts(0, 0)) };
    for (l, retried) in [(dialog, true), (no_pane, false), (not_sub, true), (old_build, false), (delivered, false)] {
        let got = pass(std::slice::from_ref(&l), &[], now, Some(ready()), &mut m);
        assert_eq!(got.iter().any(|a| matches!(a, Action::Retry { .. })), retried, "{l:?}: {got:?}");
    }
}

#[test]
fn a_send_once_delivered_is_never_retried() {
    let lines = [
        line("a", "held", ts(0, 0)),
        MessageLine { retry: Some(1), ..taken("a", ts(0, 30)) },
        // a stray later line cannot make it retryable again
        MessageLine { retry: Some(2), ..line("a", "held", ts(0, 40)) },
    ];
    let mut m = Memory::default();
    let got = pass(&lines, &[], at(0, 50), Some(ready()), &mut m);
    assert!(!got.iter().any(|a| matches!(a, Action::Retry { .. })), "{got:?}");
}

#[test]
fn the_fourth_try_is_a_stop_and_a_stop_is_said_once() {
    let mut lines = vec![line("a", "not-submitted", ts(0, 0))];
    for n in 1..=2 {
        lines.push(MessageLine { retry: Some(n), ..line("a", "not-submitted", ts(n as i64, 0)) });
    }
    let mut m = Memory::default();
    assert_eq!(
        pass(&lines, &[], at(3, 0), Some(ready()), &mut m),
        vec![Action::Retry { id: uid("a"), seat: "rev".into(), n: 3 }]
    );
    lines.push(MessageLine { retry: Some(3), ..line("a", "not-submitted", ts(3, 0)) });
    let got = pass(&lines, &[], at(3, 1), Some(ready()), &mut m);
    assert_eq!(got, vec![Action::Stop { id: uid("a"), seat: "rev".into(), why: StopWhy::Tries }]);
    let stopped = Receipt {
        ts: ts(3, 1).into(),
        id: uid("a"),
        to: "rev".into(),
        receipt: ReceiptKind::RetriesStopped,
        sign: None,
        ms: None,
        why: Some(StopWhy::Tries.words()),
        attempt: None,
        event: None,
        session: None,
        note: None,
        by: None,
    };
    assert_eq!(pass(&lines, &[stopped], at(3, 2), Some(ready()), &mut m), vec![]);
}

#[test]
fn thirty_minutes_close_the_window_and_a_late_watch_says_nothing_of_older_sends() {
    let lines = [line("a", "held", ts(0, 0))];
    let mut m = Memory::default();
    assert_eq!(pass(&lines, &[], at(30, 0), Some(ready()), &mut m).len(), 1, "still inside at 30:00");
    assert_eq!(
        pass(&lines, &[], at(30, 1), Some(ready()), &mut m),
        vec![Action::Stop { id: uid("a"), seat: "rev".into(), why: StopWhy::Window }]
    );
    assert_eq!(pass(&lines, &[], at(61, 0), Some(ready()), &mut m), vec![], "past the grace: left alone");
}

#[test]
fn the_first_sign_confirms_a_taken_send_silently() {
    let lines = [taken("a", ts(0, 20))];
    let mut m = Memory::default();
    let mut look = Look::default();
    look.transcript_read.insert(uid("a"));
    let got = pass(&lines, &[], at(0, 30), Some(look), &mut m);
    assert_eq!(got, vec![Action::Confirm { id: uid("a"), seat: "rev".into(), sign: Sign::Transcript, ms: 11_000 }]);
    let mut look = Look::default();
    look.screen_read.insert(uid("a"));
    assert!(matches!(pass(&lines, &[], at(0, 30), Some(look), &mut m)[0], Action::Confirm { sign: Sign::Screen, .. }));
}

#[test]
fn working_is_a_sign_only_after_the_seat_was_seen_free_since_the_send() {
    let lines = [taken("a", ts(0, 20))];
    let mut m = Memory::default();
    let working = Look { working: true, status_is_a_sign: true, ..Look::default() };
    assert_eq!(pass(&lines, &[], at(0, 25), Some(working.clone()), &mut m), vec![], "its turn before ours");
    assert_eq!(pass(&lines, &[], at(0, 30), Some(Look { free: true, ..Look::default() }), &mut m), vec![]);
    // A CLI whose transcript the watch reads is confirmed by that alone.
    let mut m2 = m.clone();
    let transcribed = Look { status_is_a_sign: false, ..working.clone() };
    assert_eq!(pass(&lines, &[], at(0, 35), Some(transcribed), &mut m2), vec![]);
    let got = pass(&lines, &[], at(0, 35), Some(working), &mut m);
    assert!(matches!(got[0], Action::Confirm { sign: Sign::Status, .. }), "{got:?}");
}

#[test]
fn an_acked_message_is_not_looked_at_again_and_never_said_unacted() {
    let free = || Some(Look { free: true, ..Look::default() });
    let lines = vec![taken("a", ts(0, 20))];
    let ack = |to: &str, by: Option<&str>| Receipt {
        ts: ts(0, 25).into(),
        id: uid("a"),
        to: to.into(),
        receipt: ReceiptKind::Acked,
        sign: None,
        ms: Some(5_000),
        why: None,
        attempt: None,
        note: Some("on it".into()),
        by: by.map(str::to_string),
        event: None,
        session: None,
    };
    let mut m = Memory::default();
    // the seat's own ack: no look, no "never acted on", even thirty minutes on
    let acked = [ack("rev", None)];
    let ledger = Ledger::build(&lines, &acked);
    let (wanted, _) = plan(&ledger, at(1, 30), &Limits::SPEC, &any_seat, &m);
    assert!(wanted.is_empty(), "{wanted:?}");
    assert_eq!(pass(&lines, &acked, at(30, 0), None, &mut m), vec![]);
    // the owner setting an alert aside, or another seat's word, is no ack of the seat's
    for other in [ack("rev", Some("owner")), ack("keeper", None)] {
        let mut m = Memory::default();
        assert_eq!(pass(&lines, std::slice::from_ref(&other), at(0, 30), free(), &mut m), vec![]);
        assert_eq!(
            pass(&lines, std::slice::from_ref(&other), at(1, 30), free(), &mut m),
            vec![Action::NeverActed { id: uid("a"), seat: "rev".into() }],
            "{other:?}"
        );
    }
}

#[test]
fn a_minute_free_past_the_send_or_thirty_minutes_is_never_acted_on_once() {
    let free = || Some(Look { free: true, ..Look::default() });
    let mut lines = vec![taken("a", ts(0, 20))];
    let mut m = Memory::default();
    assert_eq!(pass(&lines, &[], at(0, 30), free(), &mut m), vec![]);
    assert_eq!(pass(&lines, &[], at(1, 19), free(), &mut m), vec![], "free since 0:30, taken at 0:20: 49 s");
    assert_eq!(
        pass(&lines, &[], at(1, 30), free(), &mut m),
        vec![Action::NeverActed { id: uid("a"), seat: "rev".into() }]
    );
    lines
        .push(MessageLine { note: Some(crate::vocab::outcome::Note::NeverActed), ..line("a", "delivered", ts(1, 30)) });
    assert_eq!(pass(&lines, &[], at(1, 40), free(), &mut m), vec![], "said once");
    // A seat that works in between starts its minute again; a record 30 minutes old is said
    // whatever the seat does.
    let lines = vec![taken("b", ts(0, 0))];
    let mut m = Memory::default();
    assert_eq!(pass(&lines, &[], at(0, 10), free(), &mut m), vec![]);
    assert_eq!(pass(&lines, &[], at(0, 50), Some(Look::default()), &mut m), vec![]);
    assert_eq!(pass(&lines, &[], at(1, 20), free(), &mut m), vec![]);
    assert_eq!(
        pass(&lines, &[], at(30, 0), None, &mut m),
        vec![Action::NeverActed { id: uid("b"), seat: "rev".into() }]
    );
}

#[test]
fn a_confirmed_send_and_another_seat_s_are_left_alone() {
    let lines = [MessageLine { note: None, via: Some("typed".into()), ..line("a", "delivered", ts(0, 0)) }];
    assert_eq!(pass(&lines, &[], at(40, 0), None, &mut Memory::default()), vec![]);
    let ledger = Ledger::build(&lines, &[]);
    let held = [line("h", "held", ts(0, 0))];
    let l2 = Ledger::build(&held, &[]);
    let (w, s) = plan(&l2, at(1, 0), &Limits::SPEC, &|seat| seat != "rev", &Memory::default());
    assert!(w.is_empty());
    assert_eq!(s, vec![Action::Stop { id: uid("h"), seat: "rev".into(), why: StopWhy::SeatGone }]);
    let (w, s) = plan(&ledger, at(1, 0), &Limits::SPEC, &|seat| seat != "rev", &Memory::default());
    assert!(w.is_empty() && s.is_empty(), "a delivered send to a gone seat is left alone");
}

#[test]
fn limits_scale_down_only() {
    let l = Limits::SPEC.scaled(0.05);
    assert_eq!(l.window, Duration::seconds(90));
    assert_eq!(l.free, Duration::seconds(3));
}

fn started(id: &str, n: u32, when: String) -> Receipt {
    Receipt {
        ts: when.into(),
        id: uid(id),
        to: "rev".into(),
        receipt: ReceiptKind::RetryStarted,
        sign: None,
        ms: None,
        why: None,
        attempt: Some(n),
        event: None,
        session: None,
        note: None,
        by: None,
    }
}

#[test]
fn a_retry_cut_off_is_ended_by_the_sign_the_seat_shows_and_never_typed_again() {
    let lines = [line("a", "held", ts(0, 0))];
    let intent = [started("a", 1, ts(0, 30))];
    let mut m = Memory::default();
    // No sign, the seat busy or not looked at: waited on, nothing typed.
    let busy = Look { free: false, working: true, ..Look::default() };
    assert_eq!(pass(&lines, &intent, at(1, 0), Some(busy), &mut m), vec![]);
    assert_eq!(pass(&lines, &intent, at(1, 0), None, &mut m), vec![]);
    // The screen (or the transcript) shows the drop read: the try ends delivered.
    let mut look = ready();
    look.screen_read.insert(uid("a"));
    assert_eq!(
        pass(&lines, &intent, at(1, 0), Some(look), &mut m),
        vec![Action::Resolve { id: uid("a"), seat: "rev".into(), n: 1, sign: Sign::Screen, ms: 61_000 }]
    );
    let mut look = Look { working: true, ..Look::default() };
    look.transcript_read.insert(uid("a"));
    assert!(matches!(
        pass(&lines, &intent, at(1, 0), Some(look), &mut m)[..],
        [Action::Resolve { sign: Sign::Transcript, n: 1, .. }]
    ));
    // A ready seat with no sign: stopped, said where the message is; never retried.
    assert_eq!(
        pass(&lines, &intent, at(1, 0), Some(ready()), &mut m),
        vec![Action::Stop { id: uid("a"), seat: "rev".into(), why: StopWhy::InDoubt(1) }]
    );
}

#[test]
fn a_retry_cut_off_comes_before_any_other_retry_of_its_seat() {
    let lines = [line("a", "held", ts(0, 0)), line("b", "held", ts(0, 1))];
    let intent = [started("a", 1, ts(0, 30))];
    let mut m = Memory::default();
    let working = Look { working: true, ..Look::default() };
    assert_eq!(pass(&lines, &intent, at(1, 0), Some(working), &mut m), vec![], "b waits on a's end");
    let got = pass(&lines, &intent, at(1, 0), Some(ready()), &mut m);
    assert_eq!(got, vec![Action::Stop { id: uid("a"), seat: "rev".into(), why: StopWhy::InDoubt(1) }]);
    // Its own line ended it: the next try is a plain retry again.
    let ended = [lines[0].clone(), lines[1].clone(), MessageLine { retry: Some(1), ..line("a", "held", ts(0, 40)) }];
    assert_eq!(
        pass(&ended, &intent, at(1, 0), Some(ready()), &mut m),
        vec![Action::Retry { id: uid("a"), seat: "rev".into(), n: 2 }]
    );
}

#[test]
fn a_retry_cut_off_past_the_window_is_stopped_as_such_and_past_the_grace_left_alone() {
    let lines = [line("a", "held", ts(0, 0))];
    let intent = [started("a", 2, ts(5, 0))];
    let mut m = Memory::default();
    assert_eq!(
        pass(&lines, &intent, at(30, 1), None, &mut m),
        vec![Action::Stop { id: uid("a"), seat: "rev".into(), why: StopWhy::InDoubt(2) }]
    );
    assert_eq!(pass(&lines, &intent, at(61, 0), Some(ready()), &mut m), vec![]);
    assert!(StopWhy::InDoubt(2).words().starts_with("(retry 2 was cut off before its end was written down"));
}

#[test]
fn a_message_given_up_is_left_alone_for_the_life_of_the_process() {
    let lines = [line("a", "held", ts(0, 0)), taken("b", ts(0, 0))];
    let mut m = Memory::default();
    m.give_up(&uid("a"));
    m.give_up(&uid("b"));
    assert_eq!(pass(&lines, &[], at(1, 0), Some(ready()), &mut m), vec![]);
    assert_eq!(pass(&lines, &[], at(30, 0), None, &mut m), vec![], "no never-acted-on either");
    assert_eq!(
        StopWhy::Unrecorded("File too large (os error 27)".into()).words(),
        "(its records cannot be written: File too large (os error 27); nothing more is typed for it)"
    );
}

fn in_inbox(id: &str, when: String) -> MessageLine {
    MessageLine { via: Some("mcp-inbox".into()), ..line(id, "held", when) }
}

#[test]
fn a_seat_seen_working_then_free_with_its_inbox_message_unclaimed_met_no_hook() {
    let lines = [in_inbox("a", ts(0, 0))];
    let working = Look { working: true, ..Look::default() };
    let (id, seat) = (uid("a"), "rev".to_string());
    // free before it was ever seen working (a dialog cancelled, a draft cleared): no word
    let mut m = Memory::default();
    assert_eq!(
        pass(&lines, &[], at(1, 0), Some(ready()), &mut m),
        vec![Action::Retry { id: id.clone(), seat: seat.clone(), n: 1 }]
    );
    // working: marked once; then free with the message still there: said, before the retry
    let mut m = Memory::default();
    assert_eq!(
        pass(&lines, &[], at(0, 30), Some(working.clone()), &mut m),
        vec![Action::SeenWorking { id: id.clone(), seat: seat.clone() }]
    );
    assert_eq!(pass(&lines, &[], at(0, 40), Some(working), &mut m), vec![], "marked once");
    assert_eq!(
        pass(&lines, &[], at(1, 0), Some(ready()), &mut m),
        vec![
            Action::HookStopped { id: id.clone(), seat: seat.clone() },
            Action::Retry { id: id.clone(), seat: seat.clone(), n: 1 }
        ]
    );
    // a watch that starts again reads its marks; a hook-stopped receipt ends the rule for good
    let mut m = Memory { inbox_working: [id.clone()].into(), ..Memory::default() };
    let said: Receipt = serde_json::from_value(
        serde_json::json!({"ts": ts(1, 0), "id": id, "to": seat, "receipt": "hook-stopped", "why": "no hook"}),
    )
    .unwrap();
    assert_eq!(said.receipt, ReceiptKind::HookStopped);
    assert_eq!(
        pass(&lines, &[said], at(1, 5), Some(ready()), &mut m),
        vec![Action::Retry { id: id.clone(), seat: seat.clone(), n: 1 }]
    );
    // a typed send held at a draft is no inbox message
    let mut m = Memory::default();
    let typed = [line("b", "held", ts(0, 0))];
    assert_eq!(pass(&typed, &[], at(0, 30), Some(Look { working: true, ..Look::default() }), &mut m), vec![]);
}
