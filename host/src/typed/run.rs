//! One plain send over the typed leg, from a decided target to a verdict: the seat lock, the
//! drop file, the pane located through the multiplexer, the profile loaded for the seat's CLI,
//! the transcript watched, and `deliver`.
//!
//! Invariant: the drop file is written (under the lock) before anything touches the pane, so
//! every outcome past this point leaves the message safely on disk. The multiplexer, the
//! profile host, the clock and the state folder are the caller's (`send`'s typed leg).

use super::pane::SeatPane;
use super::{
    deliver, drop_ref, lock_seat, trigger_line, write_drop, Run, Traits, TranscriptWatch, Verdict, LOCK_WAIT_MS,
    TIMINGS,
};
use crate::clock::{Clock, RealTimer};
use crate::mux::{self, Mux, MuxError};
use crate::profiles::ProfileHost;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a plain send needs to know about its target, decided before it runs.
pub struct PlainSend<'a> {
    /// The receiving team's multiplexer session.
    pub session: &'a str,
    /// The receiving team (a pane marked `<seat>@<team>` is its seat too).
    pub team: &'a str,
    pub seat: &'a str,
    /// The seat's profile id (`claude-code`, `codex`, …).
    pub cli: &'a str,
    /// The receiving team's checkout root: its `.agents/` takes the drop.
    pub root: &'a Path,
    /// The drop file's whole text: the sender header, a blank line, the body.
    pub text: &'a str,
    /// The message id (the drop file's name).
    pub id: &'a str,
    /// The team's profile pins.
    pub pins: &'a BTreeMap<String, String>,
    /// The seat's registry record, when it has one: its pane and process come first
    /// (`state::locate_with`).
    pub record: Option<&'a crate::registry::AgentRecord>,
}

/// What a plain send runs on, given by its caller: the receiving team's multiplexer, the
/// profile host, the run's clock and its `<state>` folder (the seat locks).
pub struct Means<'a> {
    pub mux: &'a dyn Mux,
    pub profiles: &'a ProfileHost,
    pub clock: &'a Clock,
    pub state: &'a Path,
}

/// How a plain send ended, with what it left behind.
pub struct Report {
    pub run: Run,
    /// The drop file, once written.
    pub drop: Option<PathBuf>,
    /// Whole milliseconds from the start of the send to its verdict.
    pub ms: u64,
}

fn unreachable(e: MuxError, drop: &Path) -> Verdict {
    Verdict::Unreachable(format!("{e}; the message is at {}", drop.display()))
}

/// Runs one plain send. Every verdict but a refusal before the drop leaves the drop file.
pub fn send_plain(req: &PlainSend, means: &Means) -> Report {
    let watch = means.clock.stopwatch();
    let not_typed =
        |verdict, drop: Option<PathBuf>| Report { run: Run { verdict, typed: false, enters: 0 }, drop, ms: watch.ms() };

    let _lock = match lock_seat(means.state, req.session, req.seat, "send", Duration::from_millis(LOCK_WAIT_MS)) {
        Ok(l) => l,
        Err(why) => return not_typed(Verdict::Refused(why), None),
    };
    let drop = match write_drop(req.root, req.session, req.seat, req.id, req.text) {
        Ok(p) => p,
        Err(why) => return not_typed(Verdict::Refused(format!("{why}; nothing was sent")), None),
    };

    let mux = means.mux;
    // the registry first: the seat's recorded pane while its recorded process runs there
    let pane = match crate::state::locate_with(mux, req.session, req.seat, req.team, req.record) {
        Ok(p) => p,
        Err(e) => return not_typed(unreachable(e, &drop), Some(drop)),
    };
    let mut profile = match means.profiles.load(req.cli, req.pins) {
        Ok(p) => p,
        Err(e) => {
            return not_typed(
                Verdict::Refused(format!("{}; the message is at {}", e.message, drop.display())),
                Some(drop),
            )
        }
    };
    let d = profile.describe().clone();
    let traits = Traits {
        cli: req.cli.to_string(),
        max_trigger: d.max_trigger as usize,
        enter_pause_ms: d.enter_pause_ms as u64,
        queues_while_working: d.queues_while_working,
        forbidden_starts: d.forbidden_starts.clone(),
    };

    // The seat's own process tells where it works (for the drop's spelling) and where its
    // CLI writes transcripts.
    let mut procs = mux.foreground_processes(&pane).unwrap_or_default();
    if procs.is_empty() {
        // The CLI may be the pane's own process (started as the pane's command, no shell).
        procs.extend(pane.shell_pid.map(mux::proc_info));
    }
    let agent = procs.iter().find(|p| d.process_names.iter().any(|n| n == &p.name)).or_else(|| procs.first());
    let cwd = agent.and_then(|p| p.cwd.clone());
    let home = agent.and_then(|p| p.home.clone());
    let transcript =
        (!d.transcript_patterns.is_empty()).then(|| TranscriptWatch::begin(&d.transcript_patterns, home, cwd.clone()));

    let trigger = trigger_line(&drop_ref(&drop, req.root, cwd.as_deref()));
    let mut seat = SeatPane { mux, pane, profile: &mut profile, transcript };
    let timings = TIMINGS.scaled(means.clock.scale());
    let run = deliver(&mut seat, &traits, &trigger, req.id, &drop.display().to_string(), &timings, &RealTimer);
    Report { run, drop: Some(drop), ms: watch.ms() }
}
