//! Leading a compose seat's pane back to where the compose found it, after a refusal that came
//! once keys were typed (`codex cloud` taken from its task list to New Task with its
//! environment chooser up, the brief never typed): the profile names its CLI's way back in its
//! description (`compose-back=esc`, [`BACK_FEATURE`]), and its classifier says where the pane
//! is.
//!
//! The walk: read the screen; where it reads as it did when the compose began (the same state,
//! dialog and composer: [`Place`]), the pane is back, and the outcome says so with the
//! reading's own words. Where it reads as a dialog, press the way back once and wait for the
//! screen to read otherwise (a condition wait, bounded): a press the screen does not answer is
//! never followed by another. The way back is pressed only to close a dialog: on a page it
//! leaves the page without the screen always showing it — `codex cloud` cancels New Task on
//! Esc without redrawing it, so the screen would go on showing a New Task page that is gone,
//! and a second Esc, on its task list, quits it (docs/grok-and-compose.md part C). Where the
//! walk stops, the outcome says where the pane was left.
//!
//! Invariant: nothing but the profile's way-back key is pressed, only on a screen that reads as
//! a dialog, at most [`MAX_PRESSES`] times, each only after the screen changed since the last;
//! nothing of the brief is typed.

use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::profiles::{Reading, Screen};

use super::Pane;

/// The description feature naming the CLI's way back one screen: `compose-back=esc`.
pub const BACK_FEATURE: &str = "compose-back=";

/// The keys a way back may name, and the bytes a terminal sends for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackKey {
    Esc,
}

impl BackKey {
    /// The key a description's `compose-back=<name>` names (`esc`); another name: none.
    pub fn from_features(features: &[String]) -> Option<BackKey> {
        features.iter().find_map(|f| f.strip_prefix(BACK_FEATURE)).and_then(|k| match k {
            "esc" => Some(BackKey::Esc),
            _ => None,
        })
    }

    pub fn bytes(self) -> &'static str {
        match self {
            BackKey::Esc => "\x1b",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BackKey::Esc => "Esc",
        }
    }
}

/// The most presses a walk back makes.
pub const MAX_PRESSES: usize = 3;

/// How long one press waits for the screen to answer (before `TEAM_TIME_SCALE`).
const ANSWER_MS: u64 = 5_000;

/// How often the screen is read while waiting for it to answer.
const POLL: Duration = Duration::from_millis(10);

/// Where a reading puts the pane: its state's word, its dialog's kind, its composer's word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    state: &'static str,
    dialog: Option<String>,
    composer: &'static str,
}

impl Place {
    pub fn of(r: &Reading) -> Place {
        Place {
            state: r.state.word(),
            dialog: r.state.dialog().map(|d| d.kind.other_name().unwrap_or(d.kind.word()).to_string()),
            composer: r.composer.word(),
        }
    }
}

/// How a walk back ended: the sentence the outcome ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Back {
    /// The screen reads as it did when the compose began (its reading's `why`).
    Back { presses: usize, why: String },
    /// The pane was left here (its reading's `why`), and why the walk stopped.
    Left { presses: usize, why: String, stopped: String },
}

impl Back {
    /// The words the refusal ends with.
    pub fn sentence(&self, key: Option<BackKey>) -> String {
        let k = key.map(BackKey::name).unwrap_or("a key");
        match self {
            Back::Back { presses, why } => {
                format!("the pane was led back to where the compose found it ({presses} × {k}): {why}")
            }
            Back::Left { why, stopped, .. } => format!("the pane was left where it stands: {why} ({stopped})"),
        }
    }
}

/// What the walk needs of the compose module: its classifier.
pub trait Reader {
    fn read(&mut self, screen: &Screen) -> Option<Reading>;
}

/// Walks the pane back towards `found` with `key` (none: only says where it is).
pub fn lead_back(
    pane: &mut dyn Pane,
    reader: &mut dyn Reader,
    found: &Place,
    key: Option<BackKey>,
    clock: &Clock,
) -> Back {
    let mut presses = 0;
    let read = |pane: &mut dyn Pane, reader: &mut dyn Reader| pane.read().ok().and_then(|s| reader.read(&s));
    let Some(mut now) = read(pane, reader) else {
        return Back::Left {
            presses,
            why: "the screen could not be read".into(),
            stopped: "nothing was pressed".into(),
        };
    };
    loop {
        if Place::of(&now) == *found {
            return Back::Back { presses, why: now.why };
        }
        let Some(k) = key else {
            let stopped = "its profile names no way back, so nothing was pressed".into();
            return Back::Left { presses, why: now.why, stopped };
        };
        if now.state.dialog().is_none() {
            let stopped = format!(
                "{} closes only a dialog the compose opened: on a page it can leave the page without the screen showing it, so it was not pressed there",
                k.name()
            );
            return Back::Left { presses, why: now.why, stopped };
        }
        if presses >= MAX_PRESSES {
            let stopped = format!("{} was pressed {presses} times, the most a walk back presses", k.name());
            return Back::Left { presses, why: now.why, stopped };
        }
        if let Err(e) = pane.type_text(k.bytes()) {
            let stopped = format!("the pane would not take {}: {e}", k.name());
            return Back::Left { presses, why: now.why, stopped };
        }
        presses += 1;
        // the screen's answer to the press: a reading of another place
        let here = Place::of(&now);
        let limit = clock.scaled(ANSWER_MS);
        let start = Instant::now();
        let answered = loop {
            if let Some(r) = read(pane, reader).filter(|r| Place::of(r) != here) {
                // A full-screen CLI redraws by clearing and repainting, and a look between the
                // two reads a torn frame (a page with no composer drawn yet reads as the list):
                // the screen has answered once a look a settle later reads the same place.
                std::thread::sleep(crate::legs::typed::TIMINGS.settle);
                if let Some(again) = read(pane, reader).filter(|a| Place::of(a) == Place::of(&r)) {
                    break Some(again);
                }
            }
            if start.elapsed() > limit {
                break None;
            }
            std::thread::sleep(POLL);
        };
        match answered {
            Some(r) => now = r,
            None => {
                let stopped = format!(
                    "{} was pressed there and the screen did not change, so nothing more was pressed",
                    k.name()
                );
                return Back::Left { presses, why: now.why, stopped };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::{Composer, Dialog, DialogKind, Key, State};

    /// A CLI of four screens (list ← page ← chooser, and a chooser over the list), each Esc one
    /// step back; `stuck` is a screen where Esc is taken but nothing is redrawn.
    struct Cli {
        at: usize,
        stuck: Option<usize>,
        typed: Vec<String>,
        /// Reads after a press that show a torn frame (read as the list) before the new screen.
        torn: usize,
        torn_left: usize,
    }

    fn reading(at: usize) -> Reading {
        let chooser = State::Dialog(Dialog { kind: DialogKind::Other("chooser".into()), title: "x".into() });
        let (state, composer) = match at {
            0 => (State::Idle, Composer::Unreadable),
            1 => (State::Idle, Composer::Empty),
            _ => (chooser, Composer::Unreadable),
        };
        Reading::new(state, composer, None, ["the list", "the page", "the chooser", "the list's chooser"][at])
    }

    impl Pane for Cli {
        fn read(&mut self) -> Result<Screen, crate::mux::MuxError> {
            if self.torn_left > 0 {
                self.torn_left -= 1;
                return Ok(Screen::from_plain("0", ""));
            }
            Ok(Screen::from_plain(&self.at.to_string(), ""))
        }
        fn type_text(&mut self, text: &str) -> Result<(), crate::mux::MuxError> {
            self.typed.push(text.into());
            self.torn_left = self.torn;
            if self.stuck != Some(self.at) {
                self.at = if self.at == 3 { 0 } else { self.at.saturating_sub(1) };
            }
            Ok(())
        }
        fn press(&mut self, _: &Key) -> Result<(), crate::mux::MuxError> {
            unreachable!("a walk back presses only its own key")
        }
    }

    struct Classify;
    impl Reader for Classify {
        fn read(&mut self, s: &Screen) -> Option<Reading> {
            Some(reading(s.plain[0].parse().unwrap()))
        }
    }

    fn walk(at: usize, stuck: Option<usize>, key: Option<BackKey>) -> (Back, Vec<String>) {
        walk_torn(at, stuck, key, 0)
    }

    fn walk_torn(at: usize, stuck: Option<usize>, key: Option<BackKey>, torn: usize) -> (Back, Vec<String>) {
        let mut cli = Cli { at, stuck, typed: Vec::new(), torn, torn_left: 0 };
        // (the CLI here answers a press at once, or never: the bound only ends the wait for
        // a screen that cannot change)
        let clock = Clock::real().with_scale(0.1);
        let b = lead_back(&mut cli, &mut Classify, &Place::of(&reading(0)), key, &clock);
        (b, cli.typed)
    }

    #[test]
    fn a_dialog_is_closed_and_the_walk_ends_where_it_began() {
        let (b, typed) = walk(3, None, Some(BackKey::Esc));
        assert_eq!(b, Back::Back { presses: 1, why: "the list".into() });
        assert_eq!(typed, ["\x1b"]);
        assert_eq!(
            b.sentence(Some(BackKey::Esc)),
            "the pane was led back to where the compose found it (1 × Esc): the list"
        );
        // already there: nothing pressed
        assert_eq!(walk(0, None, Some(BackKey::Esc)), (Back::Back { presses: 0, why: "the list".into() }, vec![]));
    }

    #[test]
    fn a_page_is_never_left_with_the_way_back_and_the_outcome_says_where_it_stands() {
        let (b, typed) = walk(2, None, Some(BackKey::Esc));
        assert_eq!(typed, ["\x1b"], "the chooser closed, the page not left");
        let Back::Left { presses: 1, why, stopped } = &b else { panic!("{b:?}") };
        assert_eq!(why, "the page");
        assert!(stopped.starts_with("Esc closes only a dialog the compose opened"), "{stopped}");
        assert!(b.sentence(Some(BackKey::Esc)).starts_with("the pane was left where it stands: the page ("));
    }

    #[test]
    fn a_torn_frame_after_the_press_is_not_taken_for_the_place_the_compose_began() {
        // the chooser closes onto the page, whose first look is torn and reads as the list
        let (b, typed) = walk_torn(2, None, Some(BackKey::Esc), 1);
        assert_eq!(typed, ["\x1b"]);
        let Back::Left { presses: 1, why, .. } = &b else { panic!("{b:?}") };
        assert_eq!(why, "the page");
    }

    #[test]
    fn a_press_the_screen_does_not_answer_is_never_followed_by_another() {
        let (b, typed) = walk(3, Some(3), Some(BackKey::Esc));
        assert_eq!(typed.len(), 1, "{typed:?}");
        let Back::Left { why, stopped, .. } = &b else { panic!("{b:?}") };
        assert_eq!(why, "the list's chooser");
        assert!(stopped.contains("did not change, so nothing more was pressed"), "{stopped}");
    }

    #[test]
    fn with_no_way_back_it_only_says_where_the_pane_is() {
        let (b, typed) = walk(2, None, None);
        assert!(typed.is_empty());
        assert!(matches!(&b, Back::Left { why, .. } if why == "the chooser"), "{b:?}");
    }

    #[test]
    fn the_feature_names_the_key() {
        assert_eq!(BackKey::from_features(&["compose".into(), "compose-back=esc".into()]), Some(BackKey::Esc));
        assert_eq!(BackKey::from_features(&["compose-back=ctrl-c".into()]), None);
        assert_eq!(BackKey::from_features(&[]), None);
    }
}
