//! What one pass of the watch does, decided from the history in view, the looks at the seats
//! and the time — no terminal, no file, no clock of its own, so every rule is unit-tested here.
//!
//! The rules (docs/spec/team-send.md "Outcomes"):
//! - a send that ended held, not-submitted, or unreachable at a dialog is retried while its
//!   seat is idle with an empty box and no dialog — one retry per seat per pass, at most three
//!   tries, only within thirty minutes of the send; a send that was ever delivered is never
//!   retried;
//! - a retry that stops (three tries, or thirty minutes passed) says where the message is,
//!   once: a `retries-stopped` receipt keeps that it was said;
//! - a delivered send still waiting for its sign is confirmed by the first sign a look finds —
//!   the transcript or the screen showing the drop read, or the seat seen free after the send
//!   and later working — silently, by a receipt;
//! - one with no sign, whose seat has sat free for a minute past the send or whose record is
//!   thirty minutes old, is said once to have been taken but never acted on: the line the watch
//!   writes then keeps that it was said, and it is never retried.
//!
//! A watch that starts late leaves alone what it could not have watched: a stop or a "never
//! acted on" is said only within a grace of thirty more minutes after the window closed.

use crate::history::ledger::{instant, Entry, Ledger, ReadState};
use crate::history::{MessageLine, Sign};
use chrono::{DateTime, Duration, Utc};
use std::collections::{HashMap, HashSet};

/// At most this many tries by the watch.
pub const TRIES: u32 = 3;

/// The spans the rules name, before `TEAM_TIME_SCALE`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Retries happen within this span of the send; a record this old with no sign is said.
    pub window: Duration,
    /// A seat free this long past the send, with no sign, is said.
    pub free: Duration,
    /// How long after the window closed a stop or a "never acted on" is still said.
    pub grace: Duration,
}

impl Limits {
    /// The spec's: thirty minutes, a minute, and thirty minutes of grace.
    pub const SPEC: Limits =
        Limits { window: Duration::minutes(30), free: Duration::minutes(1), grace: Duration::minutes(30) };

    /// Every span multiplied by `factor` (the run's clock scale; tests only shorten).
    pub fn scaled(self, factor: f64) -> Limits {
        let s = |d: Duration| Duration::milliseconds(((d.num_milliseconds() as f64) * factor).max(1.0) as i64);
        Limits { window: s(self.window), free: s(self.free), grace: s(self.grace) }
    }
}

/// Whether the watch retries a send that ended with `outcome` (and, for an unreachable one,
/// stopped at `dialog`): the one rule the send's "the watch will retry it" follows too.
pub fn retryable(outcome: &str, dialog: Option<&str>) -> bool {
    matches!(outcome, "held" | "not-submitted") || (outcome == "unreachable" && dialog.is_some())
}

/// Why the retries of a send stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopWhy {
    /// Three tries, none taken.
    Tries,
    /// Thirty minutes passed.
    Window,
    /// A retry was refused (the drop gone, the trigger too long, …): the reason.
    Refused(String),
    /// The team file no longer has the seat as one the typed leg reaches.
    SeatGone,
}

impl StopWhy {
    /// The words the watch says and the receipt keeps.
    pub fn words(&self) -> String {
        match self {
            StopWhy::Tries => format!("after {TRIES} tries"),
            StopWhy::Window => "after thirty minutes without the seat idle with an empty box".to_string(),
            StopWhy::Refused(why) => format!("(the retry was refused: {why})"),
            StopWhy::SeatGone => "(the team file no longer has the seat as one a trigger line reaches)".to_string(),
        }
    }
}

/// One look at a seat, as the pass needs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Look {
    /// Idle (not working, no dialog, not starting or exited), whatever the box holds.
    pub free: bool,
    /// Free, the box empty, no rate limit on its last turn, and no blocked status: a retry may type.
    pub ready: bool,
    /// Working, by the multiplexer's status or the profile's reading.
    pub working: bool,
    /// Whether working counts as the sign: only for a seat with no transcript the watch can read
    /// (a seat whose transcript would show the drop read is confirmed by that, and its working
    /// may be a person's next prompt).
    pub status_is_a_sign: bool,
    /// The ids whose drop the screen shows read.
    pub screen_read: HashSet<String>,
    /// The ids whose drop the seat's transcript shows read.
    pub transcript_read: HashSet<String>,
}

/// What the watch remembers between passes (nothing of it is needed for correctness across
/// restarts: the history and the receipts keep what was said).
#[derive(Debug, Default, Clone)]
pub struct Memory {
    /// Since when each seat has been seen free, pass after pass.
    free_since: HashMap<String, DateTime<Utc>>,
    /// The waiting ids whose seat has been seen free since their send.
    free_seen: HashSet<String>,
}

/// What a pass does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Trigger the drop of `id` again (try `n` of three).
    Retry { id: String, seat: String, n: u32 },
    /// Say the retries stopped, and keep it.
    Stop { id: String, seat: String, why: StopWhy },
    /// Confirm a delivered send silently.
    Confirm { id: String, seat: String, sign: Sign, ms: u64 },
    /// Say the send was taken but never acted on, and keep it.
    NeverActed { id: String, seat: String },
}

/// The sends a pass has to look at a seat for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wanted {
    /// Retries the seat's look may allow, oldest first.
    pub retry: Vec<(String, u32)>,
    /// Delivered ids waiting for a sign, with the instant each was taken.
    pub awaiting: Vec<(String, DateTime<Utc>)>,
}

/// The ledger's work before any look: what needs a look, per seat, and the stops that need
/// none. `typed_seat(seat)` answers whether the watch may act for the seat at all (it is in the
/// team file, and its profile types a trigger line rather than composing).
pub fn plan(
    ledger: &Ledger,
    now: DateTime<Utc>,
    limits: &Limits,
    typed_seat: &dyn Fn(&str) -> bool,
) -> (HashMap<String, Wanted>, Vec<Action>) {
    let mut wanted: HashMap<String, Wanted> = HashMap::new();
    let mut stops = Vec::new();
    for e in &ledger.entries {
        let first = ledger.line(e.first);
        let seat = first.to.clone();
        let Some(sent) = instant(&first.ts) else { continue };
        if !typed_seat(&seat) {
            // A seat gone from the file (or no longer typed) cannot be tried again: a send the
            // watch would have retried says where its message is.
            let last = ledger.line(e.last_try);
            let open = e.delivered.is_none() && e.stopped.is_none() && last.cli.is_some();
            if open && retryable(&last.outcome, last.dialog.as_deref()) && now - sent <= limits.window + limits.grace {
                stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::SeatGone });
            }
            continue;
        }
        match ledger.read_state(e) {
            Some(ReadState::NotYet) => {
                let line = ledger.line(e.delivered.expect("delivered"));
                let Some(taken) = instant(&line.ts) else { continue };
                if line.via.as_deref() == Some("typed") && now - taken <= limits.window + limits.grace {
                    wanted.entry(seat).or_default().awaiting.push((first.id.clone(), taken));
                }
            }
            Some(_) => {}
            None => {
                let last = ledger.line(e.last_try);
                // Only a line the typed leg wrote with its profile loaded can be tried again.
                if !retryable(&last.outcome, last.dialog.as_deref()) || last.cli.is_none() || e.stopped.is_some() {
                    continue;
                }
                let age = now - sent;
                if e.retries >= TRIES {
                    stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::Tries });
                } else if age > limits.window {
                    if age <= limits.window + limits.grace {
                        stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::Window });
                    }
                } else {
                    wanted.entry(seat).or_default().retry.push((first.id.clone(), e.retries + 1));
                }
            }
        }
    }
    (wanted, stops)
}

/// What a pass does for one seat after its look (`None`: the seat could not be looked at).
/// A sign comes first, then "never acted on", then at most one retry.
pub fn after_look(
    seat: &str,
    wanted: &Wanted,
    look: Option<&Look>,
    ledger: &Ledger,
    now: DateTime<Utc>,
    limits: &Limits,
    memory: &mut Memory,
) -> Vec<Action> {
    let mut out = Vec::new();
    let free_since = match look {
        Some(l) if l.free => Some(*memory.free_since.entry(seat.to_string()).or_insert(now)),
        _ => {
            memory.free_since.remove(seat);
            None
        }
    };
    for (id, taken) in &wanted.awaiting {
        let sign = look.and_then(|l| {
            if l.transcript_read.contains(id) {
                Some(Sign::Transcript)
            } else if l.screen_read.contains(id) {
                Some(Sign::Screen)
            } else if l.working && l.status_is_a_sign && memory.free_seen.contains(id) {
                Some(Sign::Status)
            } else {
                None
            }
        });
        if let Some(sign) = sign {
            memory.free_seen.remove(id);
            let ms = ledger.entry(id).map(|e| ms_since_start(ledger, e, now)).unwrap_or(0);
            out.push(Action::Confirm { id: id.clone(), seat: seat.to_string(), sign, ms });
            continue;
        }
        if look.is_some_and(|l| l.free) {
            memory.free_seen.insert(id.clone());
        }
        let old = now - *taken >= limits.window;
        let sat_free = free_since.is_some_and(|since| now - since.max(*taken) >= limits.free);
        if old || sat_free {
            memory.free_seen.remove(id);
            out.push(Action::NeverActed { id: id.clone(), seat: seat.to_string() });
        }
    }
    if let (Some((id, n)), Some(true)) = (wanted.retry.first(), look.map(|l| l.ready)) {
        out.push(Action::Retry { id: id.clone(), seat: seat.to_string(), n: *n });
    }
    out
}

/// Milliseconds from the start of the send of `e` (its first line's time less its span) to `now`.
fn ms_since_start(ledger: &Ledger, e: &Entry, now: DateTime<Utc>) -> u64 {
    let first: &MessageLine = ledger.line(e.first);
    let Some(t) = instant(&first.ts) else { return 0 };
    let since = (now - t).num_milliseconds().max(0) as u64;
    since + first.ms.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::ledger::NOTE_NEVER_ACTED;
    use crate::history::{Receipt, ReceiptKind};

    const T0: &str = "2026-11-29T09:00:00Z";

    fn at(min: i64, sec: i64) -> DateTime<Utc> {
        instant(T0).unwrap() + Duration::minutes(min) + Duration::seconds(sec)
    }

    fn ts(min: i64, sec: i64) -> String {
        at(min, sec).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    }

    fn line(id: &str, outcome: &str, when: String) -> MessageLine {
        MessageLine {
            ts: when,
            from: "owner".into(),
            to: "rev".into(),
            body: "b".into(),
            id: id.into(),
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
        let (wanted, mut out) = plan(&ledger, now, &Limits::SPEC, &any_seat);
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
            vec![Action::Retry { id: "a".into(), seat: "rev".into(), n: 1 }]
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
        for (l, retried) in [(dialog, true), (no_pane, false), (not_sub, true), (old_build, false), (delivered, false)]
        {
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
            vec![Action::Retry { id: "a".into(), seat: "rev".into(), n: 3 }]
        );
        lines.push(MessageLine { retry: Some(3), ..line("a", "not-submitted", ts(3, 0)) });
        let got = pass(&lines, &[], at(3, 1), Some(ready()), &mut m);
        assert_eq!(got, vec![Action::Stop { id: "a".into(), seat: "rev".into(), why: StopWhy::Tries }]);
        let stopped = Receipt {
            ts: ts(3, 1),
            id: "a".into(),
            to: "rev".into(),
            receipt: ReceiptKind::RetriesStopped,
            sign: None,
            ms: None,
            why: Some(StopWhy::Tries.words()),
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
            vec![Action::Stop { id: "a".into(), seat: "rev".into(), why: StopWhy::Window }]
        );
        assert_eq!(pass(&lines, &[], at(61, 0), Some(ready()), &mut m), vec![], "past the grace: left alone");
    }

    #[test]
    fn the_first_sign_confirms_a_taken_send_silently() {
        let lines = [taken("a", ts(0, 20))];
        let mut m = Memory::default();
        let mut look = Look::default();
        look.transcript_read.insert("a".into());
        let got = pass(&lines, &[], at(0, 30), Some(look), &mut m);
        assert_eq!(
            got,
            vec![Action::Confirm { id: "a".into(), seat: "rev".into(), sign: Sign::Transcript, ms: 11_000 }]
        );
        let mut look = Look::default();
        look.screen_read.insert("a".into());
        assert!(matches!(
            pass(&lines, &[], at(0, 30), Some(look), &mut m)[0],
            Action::Confirm { sign: Sign::Screen, .. }
        ));
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
    fn a_minute_free_past_the_send_or_thirty_minutes_is_never_acted_on_once() {
        let free = || Some(Look { free: true, ..Look::default() });
        let mut lines = vec![taken("a", ts(0, 20))];
        let mut m = Memory::default();
        assert_eq!(pass(&lines, &[], at(0, 30), free(), &mut m), vec![]);
        assert_eq!(pass(&lines, &[], at(1, 19), free(), &mut m), vec![], "free since 0:30, taken at 0:20: 49 s");
        assert_eq!(
            pass(&lines, &[], at(1, 30), free(), &mut m),
            vec![Action::NeverActed { id: "a".into(), seat: "rev".into() }]
        );
        lines.push(MessageLine { note: Some(NOTE_NEVER_ACTED.into()), ..line("a", "delivered", ts(1, 30)) });
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
            vec![Action::NeverActed { id: "b".into(), seat: "rev".into() }]
        );
    }

    #[test]
    fn a_confirmed_send_and_another_seat_s_are_left_alone() {
        let lines = [MessageLine { note: None, via: Some("typed".into()), ..line("a", "delivered", ts(0, 0)) }];
        assert_eq!(pass(&lines, &[], at(40, 0), None, &mut Memory::default()), vec![]);
        let ledger = Ledger::build(&lines, &[]);
        let held = [line("h", "held", ts(0, 0))];
        let l2 = Ledger::build(&held, &[]);
        let (w, s) = plan(&l2, at(1, 0), &Limits::SPEC, &|seat| seat != "rev");
        assert!(w.is_empty());
        assert_eq!(s, vec![Action::Stop { id: "h".into(), seat: "rev".into(), why: StopWhy::SeatGone }]);
        let (w, s) = plan(&ledger, at(1, 0), &Limits::SPEC, &|seat| seat != "rev");
        assert!(w.is_empty() && s.is_empty(), "a delivered send to a gone seat is left alone");
    }

    #[test]
    fn limits_scale_down_only() {
        let l = Limits::SPEC.scaled(0.05);
        assert_eq!(l.window, Duration::seconds(90));
        assert_eq!(l.free, Duration::seconds(3));
    }
}
