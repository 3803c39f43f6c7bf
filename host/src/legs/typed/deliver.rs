//! The decision core of the typed leg: from one look before typing to a verdict — the checks
//! before anything is typed, the read-back, the Enters, and the evidence after each.
//!
//! Invariant: every wait here runs on the `Timer` it is given and the `Timings` table, so
//! the unit tests below run the real table (1, 3, 9 s; 20 s in all) and measure it without
//! sleeping; only the seat itself touches a terminal.

use super::evidence::{evidence, BeforeEnter};
use super::{BoxText, Busy, Observation, Run, Seat, Seen, Status, Timings, Traits};
use crate::clock::Timer;
use crate::vocab::outcome::Note;
use crate::vocab::outcome::{Decider, Ended};
use std::time::Duration;

/// Why a trigger line cannot be typed into a seat's CLI (the values escaped for the sentence).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadTrigger {
    #[error("the trigger line would hold a control character ({char}) from the drop's path \"{path}\", which the pane would read as keys; move the checkout to a folder whose name has none")]
    Control { char: String, path: String },
    #[error("the trigger line is {len} characters and {cli} takes at most {max} whole")]
    TooLong { len: usize, cli: String, max: usize },
    #[error("the trigger line would begin with {start:?}, which {cli} runs itself")]
    RunByCli { start: String, cli: String },
}

/// Checks a trigger against the profile before anything is typed. A trigger never holds a
/// control character: a carriage return or line feed in it (from a checkout folder's name)
/// would submit half of it, an escape would be read as keys.
pub fn check_trigger(trigger: &str, traits: &Traits) -> Result<(), BadTrigger> {
    if let Some(c) = trigger.chars().find(|&c| crate::vocab::text::is_unsafe(c)) {
        return Err(BadTrigger::Control {
            char: crate::vocab::text::one_line(&c.to_string()).into_owned(),
            path: crate::vocab::text::one_line(trigger.strip_prefix(super::TRIGGER_PREFIX).unwrap_or(trigger))
                .into_owned(),
        });
    }
    let len = trigger.chars().count();
    if len > traits.max_trigger {
        return Err(BadTrigger::TooLong { len, cli: traits.cli.clone(), max: traits.max_trigger });
    }
    let lower = trigger.to_lowercase();
    for f in &traits.forbidden_starts {
        let f = f.to_lowercase();
        let word_like = f.chars().all(|c| c.is_alphanumeric());
        let hit = if word_like { lower.split_whitespace().next() == Some(f.as_str()) } else { lower.starts_with(&f) };
        if hit {
            return Err(BadTrigger::RunByCli { start: f, cli: traits.cli.clone() });
        }
    }
    Ok(())
}

/// Whether the box holds exactly the trigger: equal once wrapping whitespace is folded.
pub fn holds_trigger(boxed: &BoxText, trigger: &str) -> bool {
    match boxed {
        BoxText::Holds(t) => {
            let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            fold(t) == fold(trigger) || squash(t) == squash(trigger)
        }
        _ => false,
    }
}

fn describe_box(boxed: &BoxText, trigger: &str) -> String {
    match boxed {
        // The box's wrapping can put a space where a row broke: name our line as typed.
        b if holds_trigger(b, trigger) => format!("the box holds {:?}", trigger),
        BoxText::Empty => "the box is empty".to_string(),
        BoxText::Holds(t) => format!("the box holds {:?}", t),
        BoxText::Unreadable => "the box could not be read".to_string(),
    }
}

fn enters_word(n: u32) -> String {
    match n {
        1 => "1 Enter pressed".to_string(),
        n => format!("{n} Enters pressed"),
    }
}

/// Who says the seat is blocked, as the reason says it: herdr, or the CLI's own report.
fn blocked_by(o: &Observation, cli: &str) -> String {
    match o.status_by {
        Decider::StatusReport => format!("{cli} reports itself blocked (its own status report)"),
        _ => "herdr reports the seat blocked".to_string(),
    }
}

/// Judges the screen read before typing: `Some(verdict)` stops the send with nothing typed,
/// said with what decided it.
pub fn judge_before(o: &Observation, traits: &Traits, drop_path: &str) -> Option<Ended> {
    judged_before(o, traits, drop_path).map(|(v, by)| v.by(by))
}

fn judged_before(o: &Observation, traits: &Traits, drop_path: &str) -> Option<(Ended, Decider)> {
    let screen = |v: Ended| Some((v, Decider::Screen));
    // A pane in the multiplexer's copy mode takes keys as copy-mode commands: left alone.
    if let Some(mode) = &o.mode {
        return screen(Ended::held(format!(
            "the pane is in {}; nothing was typed; the message is at {drop_path}",
            mode.replace('-', " ")
        )));
    }
    match &o.seen {
        Seen::Dialog { kind, title } => {
            let what =
                if kind == "held-message" { "the held-message dialog".to_string() } else { format!("a {kind} dialog") };
            let title = if title.is_empty() { String::new() } else { format!(" ({title})") };
            return screen(Ended::unreachable(format!(
                "the pane shows {what}{title}; nothing was pressed; the message is at {drop_path}"
            )));
        }
        Seen::Starting => {
            return screen(Ended::unreachable(format!(
                "{} is still starting; nothing was typed; the message is at {drop_path}",
                traits.cli
            )))
        }
        Seen::Exited => {
            return screen(Ended::unreachable(format!(
                "{} has exited in that pane; nothing was typed; start {} again in that pane, then send the message again (team watch does not retry a send to an exited CLI); the message is at {drop_path}",
                traits.cli, traits.cli
            )))
        }
        Seen::Unknown(why) => {
            return screen(Ended::unreachable(format!(
                "the pane could not be read as {} ({why}); nothing was typed; the message is at {drop_path}",
                traits.cli
            )))
        }
        Seen::Idle | Seen::Working(_) => {}
    }
    // herdr's `blocked` is a dialog it recognised (0.8 also names Claude's trust and "Enter to
    // confirm" dialogs so) even where the profile reads none, and so is the CLI's own `blocked`
    // report (Codex's approval prompts): nothing is typed into it, whatever the screen seems.
    if o.status == Some(Status::Blocked) {
        let who = blocked_by(o, &traits.cli);
        return Some((
            Ended::unreachable(format!("{who} on a dialog; nothing was pressed; the message is at {drop_path}")),
            o.status_by.clone(),
        ));
    }
    if o.rate_limited {
        return screen(Ended::unreachable(format!(
            "its last turn hit a rate limit (rate limit), so a line would be taken and not acted on; nothing was typed; the message is at {drop_path}"
        )));
    }
    if let BoxText::Holds(t) = &o.boxed {
        // An earlier send of ours stopped between typing and Enter: its trigger is still there.
        if let Some((earlier, id)) = super::parse_trigger(t) {
            return screen(Ended::held(format!(
                "the composer holds the trigger of an earlier message, {id}, typed and never submitted; nothing was typed; clear the box (or press Enter to submit that one, at {earlier}) and team send again; the message is at {drop_path}"
            )));
        }
        return screen(Ended::held(format!(
            "the composer already holds unsent text; nothing was typed; the message is at {drop_path}"
        )));
    }
    if matches!(o.seen, Seen::Working(_)) && !traits.queues_while_working {
        return screen(Ended::held(format!(
            "the seat is working and {} does not queue a line sent meanwhile; nothing was typed; the message is at {drop_path}",
            traits.cli
        )));
    }
    None
}

/// Types the trigger into one seat and proves it was taken, or says why not.
///
/// `drop_path` is for the report; `id` is the drop's id the screen and transcript are asked
/// about. The caller holds the seat lock and has written the drop file.
pub fn deliver(
    seat: &mut dyn Seat,
    traits: &Traits,
    trigger: &str,
    id: &str,
    drop_path: &str,
    t: &Timings,
    clock: &dyn Timer,
) -> Run {
    let mut a = Attempt { seat, traits, trigger, id, drop_path, t, clock, seen_before: BeforeEnter::default() };
    let not_typed = |verdict| Run { verdict, typed: false, enters: 0, back: None };
    let readable = match a.look_before() {
        Ok(before) => before.boxed != BoxText::Unreadable,
        Err(Stopped::Judged(v)) => return not_typed(v),
        Err(Stopped::Back(busy)) => {
            let verdict = Ended::held(format!(
                "the seat turned busy ({}) after the look that chose the typed leg; nothing was typed; the message is at {drop_path}",
                busy_words(&busy)
            ))
            .by(Decider::Screen);
            return Run { verdict, typed: false, enters: 0, back: Some(busy) };
        }
    };
    // Intent before action: a retry's record is on the disk before its first keystroke.
    if let Err(why) = a.seat.before_typing() {
        return not_typed(Ended::refused(format!("{why}; nothing was typed; the message is at {drop_path}")));
    }
    if let Err(e) = a.seat.type_text(trigger) {
        return not_typed(Ended::unreachable(format!(
            "the pane would not take the trigger ({e}); the message is at {drop_path}"
        )));
    }
    let typed_at = clock.now();
    // The profile's pause is the least time its CLI needs between the typed text and Enter
    // (Codex turns an Enter in the same burst as the text into a newline): a property of the
    // CLI, never scaled. It runs from the typing, and the read-back's first look comes at its
    // end: a look sooner finds the CLI not yet echoing (measured on Claude Code), and the look
    // nearest the Enter is the one that sees a dialog that opened meanwhile.
    let pause = Duration::from_millis(traits.enter_pause_ms);
    if readable {
        clock.sleep(pause);
        if let Err(v) = a.read_back() {
            return Run { verdict: v, typed: true, enters: 0, back: None };
        }
    }
    let since = clock.now().saturating_duration_since(typed_at);
    clock.sleep(pause.saturating_sub(since));
    a.enters(readable)
}

/// Why the look before typing stopped a run, nothing typed.
enum Stopped {
    /// Judged there (`judge_before`, a bad trigger, an unreadable pane): the verdict.
    Judged(Ended),
    /// Given back: the seat is busy and gives busy sends back ([`Seat::gives_back`]).
    Back(Busy),
}

/// What keeps the seat busy, as a `held` reason says it.
fn busy_words(b: &Busy) -> String {
    match (&b.dialog, b.draft) {
        (Some(kind), _) => format!("it shows a {kind} dialog"),
        (None, true) => "a draft is in its box".to_string(),
        (None, false) => "it is working".to_string(),
    }
}

/// One delivery under way: the seat, what it is given, and every look before Enter (none of
/// which can be evidence that the seat took the line).
struct Attempt<'a> {
    seat: &'a mut dyn Seat,
    traits: &'a Traits,
    trigger: &'a str,
    id: &'a str,
    drop_path: &'a str,
    t: &'a Timings,
    clock: &'a dyn Timer,
    seen_before: BeforeEnter,
}

impl Attempt<'_> {
    /// The checks before anything is typed: the trigger, then one look at the seat (looked at
    /// again, briefly, while it cannot be read or is still starting), judged — or, on a seat
    /// that gives busy sends back and is busy, given back.
    fn look_before(&mut self) -> Result<Observation, Stopped> {
        let (id, trigger, drop_path) = (self.id, self.trigger, self.drop_path);
        if let Err(why) = check_trigger(trigger, self.traits) {
            return Err(Stopped::Judged(Ended::refused(format!(
                "{why}; nothing was typed; the message is at {drop_path}"
            ))));
        }
        let unreachable = |e| Stopped::Judged(Ended::unreachable(format!("{e}; the message is at {drop_path}")));
        let mut before = self.seat.observe(id, trigger).map_err(unreachable)?;
        // A screen the profile cannot read, or an empty one, may be a frame caught mid-repaint
        // (between the clear and the rows): look again, briefly, before calling the seat
        // unreadable or still starting. Nothing has been typed, so looking costs nothing.
        let settle_until = self.clock.now() + self.t.settle;
        while matches!(before.seen, Seen::Unknown(_) | Seen::Starting) && self.clock.now() < settle_until {
            self.clock.sleep(self.t.poll);
            before = self.seat.observe(id, trigger).map_err(unreachable)?;
        }
        if let Some(busy) = before.busy().filter(|_| self.seat.gives_back()) {
            return Err(Stopped::Back(busy));
        }
        if let Some(v) = judge_before(&before, self.traits, drop_path) {
            return Err(Stopped::Judged(v));
        }
        self.seen_before.note(&before);
        Ok(before)
    }

    /// Read back: the box must hold exactly the trigger before any Enter. A dialog or a mode
    /// the pane went into meanwhile, or a box that never shows the trigger, holds the send; a
    /// box still showing none of the keys is waited for longer than one showing other text.
    fn read_back(&mut self) -> Result<(), Ended> {
        let (id, trigger, drop_path) = (self.id, self.trigger, self.drop_path);
        let start = self.clock.now();
        let (until, unechoed_until) = (start + self.t.readback, start + self.t.readback_unechoed);
        let mut last: BoxText;
        let mut looks = 0u32;
        loop {
            looks += 1;
            match self.seat.observe(id, trigger) {
                Ok(o) => {
                    self.seen_before.note(&o);
                    if let Some(mode) = &o.mode {
                        return Err(Ended::held(format!(
                            "the pane went into {} while the trigger was typed; no Enter was pressed; the message is at {drop_path}",
                            mode.replace('-', " ")
                        ))
                        .by(Decider::Screen));
                    }
                    let blocked = o.status == Some(Status::Blocked);
                    let reported = blocked && o.status_by == Decider::StatusReport;
                    let dialog = matches!(o.seen, Seen::Dialog { .. });
                    if dialog || (blocked && !reported) {
                        let by = if dialog { Decider::Screen } else { o.status_by };
                        return Err(Ended::held(format!(
                            "a dialog opened while the trigger was typed (the composer read-back did not match the trigger); no Enter was pressed; the message is at {drop_path}"
                        ))
                        .by(by));
                    }
                    if reported {
                        let who = blocked_by(&o, &self.traits.cli);
                        return Err(Ended::held(format!(
                            "{who} while the trigger was typed; no Enter was pressed; the message is at {drop_path}"
                        ))
                        .by(o.status_by));
                    }
                    if holds_trigger(&o.boxed, trigger) {
                        return Ok(());
                    }
                    last = o.boxed;
                }
                Err(e) => last = BoxText::Holds(format!("<{e}>")),
            }
            let now = self.clock.now();
            if now >= until && (last != BoxText::Empty || now >= unechoed_until) {
                return Err(Ended::held(format!(
                    "the composer read-back did not match the trigger ({}); no Enter was pressed; the message is at {drop_path}",
                    describe_box(&last, trigger)
                ))
                .by(Decider::Screen));
            }
            self.clock.sleep(if looks < super::READBACK_QUICK_LOOKS { self.t.readback_poll } else { self.t.poll });
        }
    }

    /// The Enters, each followed by its wait for evidence; another Enter goes only to a box
    /// still holding exactly the trigger. Ends in the verdict.
    fn enters(&mut self, readable: bool) -> Run {
        let (trigger, drop_path) = (self.trigger, self.drop_path);
        let typed = |verdict, enters| Run { verdict, typed: true, enters, back: None };
        let start = self.clock.now();
        let mut enters = 0u32;
        let mut last_box = BoxText::Holds(trigger.to_string());
        let mut left_box = false;
        for (i, wait) in self.t.enter_waits.iter().enumerate() {
            if let Err(e) = self.seat.press_enter() {
                if enters == 0 {
                    return typed(
                        Ended::unreachable(format!(
                            "the pane would not take Enter ({e}); the message is at {drop_path}"
                        )),
                        0,
                    );
                }
                break;
            }
            enters += 1;
            let last_try = i + 1 == self.t.enter_waits.len() || !readable;
            let until = self.clock.now() + *wait;
            let window = Window { start, until, readable };
            if let Some(v) = self.watch(window, &mut last_box, &mut left_box) {
                return typed(v, enters);
            }
            if left_box || last_try {
                break;
            }
            if !holds_trigger(&last_box, trigger) {
                // Another Enter goes only to a box holding exactly the trigger.
                break;
            }
        }
        if left_box {
            // the box cleared, and nothing else showed: the screen's word alone
            return typed(Ended::delivered(Some(Note::Taken)).by(Decider::Screen), enters);
        }
        let what =
            if readable { describe_box(&last_box, trigger) } else { describe_box(&BoxText::Unreadable, trigger) };
        let ended = Ended::not_submitted(format!("{}; {what}; the message is at {drop_path}", enters_word(enters)));
        typed(ended.by(Decider::Screen), enters)
    }

    /// Looks after one Enter until evidence that the seat took the line (`Some`: delivered),
    /// or until its wait ends — the whole window once the box cleared or cannot be read.
    fn watch(&mut self, w: Window, last_box: &mut BoxText, left_box: &mut bool) -> Option<Ended> {
        let (id, trigger) = (self.id, self.trigger);
        loop {
            self.clock.sleep(self.t.poll);
            if let Ok(o) = self.seat.observe(id, trigger) {
                let gone = if w.readable { !holds_trigger(&o.boxed, trigger) } else { true };
                if gone {
                    *left_box = *left_box || w.readable;
                    if let Seen::Dialog { kind, .. } = &o.seen {
                        // The seat asks about what our line asked it to do: it is acting on it
                        // — unless it was already working, when the dialog is its turn's.
                        if w.readable && !self.seen_before.was_working() {
                            let note = Note::DialogAfter(kind.to_string());
                            return Some(Ended::delivered(Some(note)).by(Decider::Screen));
                        }
                    }
                    if let Some(by) = evidence(&o, &self.seen_before) {
                        return Some(Ended::delivered(None).by(by));
                    }
                    if self.seat.transcript_shows_read(id) {
                        return Some(Ended::delivered(None).by(Decider::Transcript));
                    }
                    if self.seat.hook_handed(id) {
                        // its prompt hook handed the message whole: the CLI took a prompt
                        return Some(Ended::delivered(Some(Note::HandedWhole)).by(Decider::HookReceipt));
                    }
                    if o.queued {
                        // The CLI shows our line queued behind its turn: it took it, and no
                        // sign can come before that turn ends. Waiting longer proves nothing.
                        return Some(Ended::delivered(Some(Note::Queued)).by(Decider::Screen));
                    }
                }
                *last_box = o.boxed;
            } else if self.seat.transcript_shows_read(id) && (*left_box || !w.readable) {
                return Some(Ended::delivered(None).by(Decider::Transcript));
            } else if self.seat.hook_handed(id) && (*left_box || !w.readable) {
                return Some(Ended::delivered(Some(Note::HandedWhole)).by(Decider::HookReceipt));
            }
            let now = self.clock.now();
            if *left_box || !w.readable {
                // A cleared box, or one that cannot be read (judged by status alone), is waited
                // on for the whole window; no more Enters.
                if now >= w.start + self.t.window {
                    return None;
                }
            } else if now >= w.until {
                return None;
            }
        }
    }
}

/// When one Enter's wait ends: at `until`, or (a cleared or unreadable box) at the window
/// from the first Enter's `start`.
#[derive(Clone, Copy)]
struct Window {
    start: std::time::Instant,
    until: std::time::Instant,
    readable: bool,
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_back;
