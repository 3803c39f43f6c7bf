//! The one bounded wait over every seat a run launched: each is looked at in turn until its
//! CLI runs in front of the pane's shell and its profile reads the screen idle (ready), shows a
//! dialog (the person's to answer: never pressed), or its launch left nothing running (exited,
//! with the screen's last lines) — or the bound passes (still pending, saying what it shows).
//!
//! Invariant: it only reads — nothing is typed or pressed; a seat whose launch has not yet put
//! a process in front of the shell is given [`START_GRACE`] before it counts as exited.

use std::time::{Duration, Instant};

use crate::mux::{Mux, PaneInfo};
use crate::profiles::{Profile, State};
use crate::seat_pane::{self, NoCli};

/// How long a launch may take to put any process in front of the pane's shell.
pub const START_GRACE: Duration = Duration::from_secs(3);
/// How often each pending seat is looked at.
const POLL: Duration = Duration::from_millis(50);

/// A seat whose launch was typed.
pub struct Launched {
    pub seat: String,
    pub cli: String,
    pub pane: PaneInfo,
    pub line: String,
    profile: Profile,
    names: Vec<String>,
    seen: bool,
    shows: String,
    started: Instant,
}

impl Launched {
    /// The process names its CLI runs as (its profile's).
    pub fn process_names(&self) -> &[String] {
        &self.names
    }

    pub fn new(seat: &str, cli: &str, pane: PaneInfo, profile: Profile, line: &str) -> Launched {
        let names = profile.describe().process_names.clone();
        Launched {
            seat: seat.into(),
            cli: cli.into(),
            pane,
            line: line.into(),
            profile,
            names,
            seen: false,
            shows: "its launch has not started".into(),
            started: Instant::now(),
        }
    }
}

impl Launched {
    /// A seat whose CLI was already found running (launched by an earlier run).
    pub fn seen(mut self) -> Launched {
        self.seen = true;
        self
    }
}

/// How a launched seat's wait ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waited {
    Idle,
    /// A dialog, by its kind (`a trust dialog`).
    Dialog(String),
    /// Nothing runs in front of the shell: the screen's last lines.
    Exited(Vec<String>),
    /// The bound passed; what it showed last.
    Pending(String),
    /// Its pane could not be read.
    Unread(String),
}

/// Waits for every seat of `launched`, `bound` in all; answers each with how its wait ended.
pub fn all(mux: &dyn Mux, launched: Vec<Launched>, bound: Duration) -> Vec<(Launched, Waited)> {
    let t = Instant::now();
    let mut pending: Vec<Launched> = launched;
    let mut done = Vec::new();
    while !pending.is_empty() {
        let mut still = Vec::new();
        for mut l in pending {
            match look(mux, &mut l) {
                Some(w) => done.push((l, w)),
                None => still.push(l),
            }
        }
        pending = still;
        if pending.is_empty() {
            break;
        }
        if t.elapsed() > bound {
            done.extend(pending.into_iter().map(|l| {
                let shows = l.shows.clone();
                (l, Waited::Pending(shows))
            }));
            break;
        }
        std::thread::sleep(POLL);
    }
    done
}

/// One look at a launched seat: `Some` once its wait has ended.
fn look(mux: &dyn Mux, l: &mut Launched) -> Option<Waited> {
    let (procs, own) = match seat_pane::processes(mux, &l.pane, &l.seat) {
        Ok(x) => x,
        Err(e) => return Some(Waited::Unread(e.to_string())),
    };
    match seat_pane::cli_process(&procs, own, &l.names, None) {
        Ok(_) => l.seen = true,
        Err(NoCli::Nothing) if l.seen || l.started.elapsed() > START_GRACE => {
            return Some(Waited::Exited(last_lines(mux, l)));
        }
        Err(NoCli::Nothing) => return None,
        Err(NoCli::Other) => {
            let name = procs.first().map(|p| p.name.as_str()).unwrap_or_default();
            l.shows = format!("`{name}` runs in front of its shell, not the CLI its profile names");
            return None;
        }
    }
    let cap = match mux.read_screen(&l.pane.pane_ref(&l.seat)) {
        Ok(c) => c,
        Err(e) => return Some(Waited::Unread(e.to_string())),
    };
    let reading = match l.profile.classify(&cap.into_screen()) {
        Ok(r) => r,
        Err(e) => return Some(Waited::Unread(e.message())),
    };
    match reading.state {
        State::Idle => Some(Waited::Idle),
        State::Dialog(d) => Some(Waited::Dialog(format!("a {} dialog", d.kind.label()))),
        s => {
            l.shows = seat_pane::reading_words(&s);
            None
        }
    }
}

/// The last non-empty rows of the pane (at most three).
fn last_lines(mux: &dyn Mux, l: &Launched) -> Vec<String> {
    let Ok(cap) = mux.read_screen(&l.pane.pane_ref(&l.seat)) else { return Vec::new() };
    let rows: Vec<String> = cap.plain.iter().map(|r| r.trim_end().to_string()).filter(|r| !r.is_empty()).collect();
    rows[rows.len().saturating_sub(3)..].to_vec()
}
