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
//!   writes then keeps that it was said, and it is never retried;
//! - a retry started and never ended (its intent recorded, no line of its own: the watch was
//!   killed, or could not write) comes before anything else for its seat: its end is read from
//!   the seat — the screen or the transcript showing the drop read ends it delivered; a seat
//!   idle with an empty box and no such sign, or thirty minutes, stops the retries — and
//!   nothing is ever typed for it again on a guess (`history::intent`);
//! - a message held in a seat's inbox (the inbox leg) whose seat is seen working is marked so
//!   (`Action::SeenWorking`); seen free later with the message still unclaimed, the seat's CLI
//!   ran none of team's hooks through a turn that should have run one (the PostToolUse of a
//!   tool call, the Stop of a turn's end, the UserPromptSubmit of a prompt): said once
//!   (`Action::HookStopped`), before the retry that types it;
//! - a message the watch gave up on (a record it could not write) is left alone for the life of
//!   the process.
//!
//! A watch that starts late leaves alone what it could not have watched: a stop or a "never
//! acted on" is said only within a grace of thirty more minutes after the window closed.

use crate::history::ledger::{Entry, Ledger, ReadState};
use crate::history::{MessageLine, Sign};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::Outcome;
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
/// stopped at `dialog`): the one rule the send's "the watch will retry it" follows too. A
/// queued send (an agent's, left in a working seat's inbox) is the watch's as a held one is:
/// withdrawn and typed if its seat goes idle with no hook having taken it.
pub fn retryable(outcome: &Outcome, dialog: Option<&str>) -> bool {
    matches!(outcome, Outcome::Held | Outcome::Queued | Outcome::NotSubmitted)
        || (*outcome == Outcome::Unreachable && dialog.is_some())
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
    /// Try `n` was started and its end never written, and the seat shows no sign it read
    /// the message.
    InDoubt(u32),
    /// A record the retry needed (its intent, its line) could not be written: the error.
    Unrecorded(String),
}

impl StopWhy {
    /// The words the watch says and the receipt keeps.
    pub fn words(&self) -> String {
        match self {
            StopWhy::Tries => format!("after {TRIES} tries"),
            StopWhy::Window => "after thirty minutes without the seat idle with an empty box".to_string(),
            StopWhy::Refused(why) => format!("(the retry was refused: {why})"),
            StopWhy::SeatGone => "(the team file no longer has the seat as one a trigger line reaches)".to_string(),
            StopWhy::InDoubt(n) => format!(
                "(retry {n} was cut off before its end was written down, and nothing on the seat shows the message read; nothing is typed again on a guess)"
            ),
            StopWhy::Unrecorded(e) => format!("(its records cannot be written: {e}; nothing more is typed for it)"),
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
    /// The ids this process leaves alone: their stop (or another record) could not be kept on
    /// disk, so only this memory keeps the watch from acting, and saying, again.
    given_up: HashSet<String>,
    /// The inbox-held ids whose seat was seen working while they waited (read from the watch's
    /// marks on disk at each pass: a restarted watch keeps them).
    pub inbox_working: HashSet<String>,
}

impl Memory {
    /// Leave `id` alone for the life of the process.
    pub fn give_up(&mut self, id: &str) {
        self.given_up.insert(id.to_string());
    }

    /// Whether `id` is left alone.
    pub fn gave_up(&self, id: &str) -> bool {
        self.given_up.contains(id)
    }
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
    /// End try `n`, cut off before its end was written, as delivered: the seat shows `sign`.
    Resolve { id: String, seat: String, n: u32, sign: Sign, ms: u64 },
    /// Say the send was taken but never acted on, and keep it.
    NeverActed { id: String, seat: String },
    /// Mark that the seat of an inbox-held send was seen working while it waited.
    SeenWorking { id: String, seat: String },
    /// Say the seat's CLI ran no hook for an inbox-held send through a turn, and keep it.
    HookStopped { id: String, seat: String },
}

/// The sends a pass has to look at a seat for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wanted {
    /// Retries the seat's look may allow, oldest first.
    pub retry: Vec<(String, u32)>,
    /// Delivered ids waiting for a sign, with the instant each was taken.
    pub awaiting: Vec<(String, DateTime<Utc>)>,
    /// Retries started and never ended: the id, the try, and when it was started.
    pub doubt: Vec<(String, u32, DateTime<Utc>)>,
    /// Of `retry`, the ids held in the seat's inbox (their last line went via the inbox leg)
    /// and not yet said to have met no hook.
    pub inbox: Vec<String>,
}

impl Wanted {
    /// Every id the look is asked to find read, with the instant from which to look.
    pub fn sought(&self) -> Vec<(String, DateTime<Utc>)> {
        let doubt = self.doubt.iter().map(|(id, _, t)| (id.clone(), *t));
        self.awaiting.iter().cloned().chain(doubt).collect()
    }
}

/// The ledger's work before any look: what needs a look, per seat, and the stops that need
/// none. `typed_seat(seat)` answers whether the watch may act for the seat at all (it is in the
/// team file, and its profile types a trigger line rather than composing). An id `memory`
/// gave up on is left alone.
pub fn plan(
    ledger: &Ledger,
    now: DateTime<Utc>,
    limits: &Limits,
    typed_seat: &dyn Fn(&str) -> bool,
    memory: &Memory,
) -> (HashMap<String, Wanted>, Vec<Action>) {
    let mut wanted: HashMap<String, Wanted> = HashMap::new();
    let mut stops = Vec::new();
    for e in &ledger.entries {
        let first = ledger.line(e.first);
        let seat = first.to.clone();
        let Some(sent) = first.ts.at() else { continue };
        if memory.gave_up(&first.id) {
            continue;
        }
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
            // an acked message was read by its model's own word: no sign is looked for
            Some(ReadState::NotYet) if e.acked.is_none() => {
                let line = ledger.line(e.delivered.expect("delivered"));
                let Some(taken) = line.ts.at() else { continue };
                if line.went_by(Leg::Typed) && now - taken <= limits.window + limits.grace {
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
                if let Some(n) = e.in_doubt() {
                    // Its end is read from the seat before anything else; never typed again.
                    if age <= limits.window {
                        let since = e.started_at.and_then(|r| ledger.receipts[r].ts.at()).unwrap_or(sent);
                        wanted.entry(seat).or_default().doubt.push((first.id.clone(), n, since));
                    } else if age <= limits.window + limits.grace {
                        stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::InDoubt(n) });
                    }
                    continue;
                }
                if e.retries >= TRIES {
                    stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::Tries });
                } else if age > limits.window {
                    if age <= limits.window + limits.grace {
                        stops.push(Action::Stop { id: first.id.clone(), seat, why: StopWhy::Window });
                    }
                } else {
                    let w = wanted.entry(seat).or_default();
                    w.retry.push((first.id.clone(), e.retries + 1));
                    if last.went_by(Leg::McpInbox) && e.hook_stopped.is_none() {
                        w.inbox.push(first.id.clone());
                    }
                }
            }
        }
    }
    (wanted, stops)
}

/// What a pass does for one seat after its look (`None`: the seat could not be looked at).
/// A retry in doubt comes first (ended by a sign, stopped on a ready seat with none, else
/// waited on — and while one is, nothing is retried for the seat), then a sign, then "never
/// acted on", then what an inbox-held send's look shows of the seat's hooks, then at most one
/// retry.
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
    let shown = |id: &String| {
        look.and_then(|l| {
            if l.transcript_read.contains(id) {
                Some(Sign::Transcript)
            } else if l.screen_read.contains(id) {
                Some(Sign::Screen)
            } else {
                None
            }
        })
    };
    for (id, n, _) in &wanted.doubt {
        match shown(id) {
            Some(sign) => {
                let ms = ledger.entry(id).map(|e| ms_since_start(ledger, e, now)).unwrap_or(0);
                out.push(Action::Resolve { id: id.clone(), seat: seat.to_string(), n: *n, sign, ms });
            }
            None if look.is_some_and(|l| l.ready) => {
                out.push(Action::Stop { id: id.clone(), seat: seat.to_string(), why: StopWhy::InDoubt(*n) })
            }
            None => {}
        }
    }
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
    out.extend(inbox_actions(seat, &wanted.inbox, look, memory));
    if let (Some((id, n)), Some(true), true) = (wanted.retry.first(), look.map(|l| l.ready), wanted.doubt.is_empty()) {
        out.push(Action::Retry { id: id.clone(), seat: seat.to_string(), n: *n });
    }
    out
}

/// What a look shows of the hooks of a seat with messages held in its inbox (`inbox`): seen
/// working, marked; seen free after that with the message still unclaimed, its CLI ran none.
fn inbox_actions(seat: &str, inbox: &[String], look: Option<&Look>, memory: &mut Memory) -> Vec<Action> {
    let mut out = Vec::new();
    for id in inbox {
        match look {
            Some(l) if l.working && !memory.inbox_working.contains(id) => {
                memory.inbox_working.insert(id.clone());
                out.push(Action::SeenWorking { id: id.clone(), seat: seat.to_string() });
            }
            Some(l) if l.free && memory.inbox_working.remove(id) => {
                out.push(Action::HookStopped { id: id.clone(), seat: seat.to_string() })
            }
            _ => {}
        }
    }
    out
}

/// Milliseconds from the start of the send of `e` (its first line's time less its span) to `now`.
fn ms_since_start(ledger: &Ledger, e: &Entry, now: DateTime<Utc>) -> u64 {
    let first: &MessageLine = ledger.line(e.first);
    let Some(t) = first.ts.at() else { return 0 };
    let since = (now - t).num_milliseconds().max(0) as u64;
    since + first.ms.unwrap_or(0)
}

#[cfg(test)]
mod tests;
