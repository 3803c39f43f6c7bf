//! One plain send over the typed leg, from a decided target to a verdict: the seat lock, the
//! drop file, the pane located through the multiplexer, the profile loaded for the seat's CLI,
//! the transcript watched, and `deliver`.
//!
//! Invariant: the drop file is written (under the lock) before anything touches the pane, so
//! every outcome past this point leaves the message safely on disk. A retry
//! ([`retrigger`]) runs every step but the write: the drop is the one the send wrote, never
//! rewritten, and its caller's intent is recorded before the first keystroke (nothing is typed
//! when it cannot be: `history::intent`). The multiplexer, the
//! profile host, the clock and the state folder are the caller's (`send`'s typed leg).

use super::pane::SeatPane;
use super::{
    deliver, drop_path, drop_ref, lock_seat, trigger_line, write_drop, Observation, Run, Seat, SeatError, Seen, Status,
    Traits, TranscriptWatch, LOCK_WAIT_MS, TIMINGS,
};
use crate::clock::{Clock, RealTimer};
use crate::legs::SeatTarget;
use crate::mux::{self, Mux, MuxError};
use crate::profiles::{Profile, ProfileHost};
use crate::vocab::outcome::{Ended, Outcome};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a plain send needs to know about its target, decided before it runs.
pub struct PlainSend<'a> {
    pub at: SeatTarget<'a>,
    /// The drop file's whole text: the sender header, a blank line, the body.
    pub text: &'a str,
    /// The message id (the drop file's name).
    pub id: &'a str,
    /// The seat's inbox holding the trigger's companion (an idle seat with team's hooks): its
    /// hook's hand-over is evidence that the seat took the line.
    pub companion: Option<&'a crate::mailbox::SeatBox>,
    /// The inbox leg looked first and handed the send on (a seat with team's hooks, idle or not
    /// readable for the inbox at its look): when this leg's own look before typing finds the
    /// seat busy, it gives the send back with nothing typed ([`Report::kept`]), for the message
    /// belongs in the inbox then.
    pub gives_back: bool,
}

/// What a look before the typed leg already holds for the seat (the inbox leg's look at an idle
/// seat): the seat lock, never let go in between, the pane that look found and the profile that
/// read it. The seat is then located and its profile loaded once per send; the typed leg still
/// takes its own look before typing, so nothing is typed on an older reading.
pub struct Prepared {
    pub lock: super::SeatLock,
    pub pane: mux::PaneRef,
    pub profile: Profile,
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
    /// The version of the profile that read the seat, once one was loaded.
    pub profile: Option<String>,
    /// The dialog kind (its report word) that stopped the send at the first look, before
    /// anything was typed: `None` for every other verdict.
    pub dialog: Option<String>,
    /// For a send given back (`run.back`): the seat lock, never let go, the pane and the
    /// profile, for the inbox leg to queue the message under — the drop already written.
    pub kept: Option<Prepared>,
}

/// What a retry needs to know: the drop file already on disk is triggered again.
pub struct Retrigger<'a> {
    pub at: SeatTarget<'a>,
    /// The message id: the drop file is `<root>/.agents/send-drops/<session>/<seat>/<id>`.
    pub id: &'a str,
}

fn unreachable(e: MuxError, drop: &Path) -> Ended {
    Ended::unreachable(format!("{e}; the message is at {}", drop.display()))
}

/// Runs one plain send. Every verdict but a refusal before the drop leaves the drop file.
/// `prepared`: the lock, pane and profile a look before this leg holds for the seat.
pub fn send_plain(req: &PlainSend, means: &Means, prepared: Option<Prepared>) -> Report {
    let watch = means.clock.stopwatch();
    let (lock, found) = match prepared {
        Some(p) => (p.lock, Some((p.pane, p.profile))),
        None => {
            match lock_seat(means.state, req.at.session, req.at.seat, "send", Duration::from_millis(LOCK_WAIT_MS)) {
                Ok(l) => (l, None),
                Err(why) => return not_typed(Ended::refused(format!("{why}; nothing was sent")), None, watch.ms()),
            }
        }
    };
    let drop = match write_drop(req.at.root, req.at.session, req.at.seat, req.id, req.text) {
        Ok(p) => p,
        Err(why) => return not_typed(Ended::refused(format!("{why}; nothing was sent")), None, watch.ms()),
    };
    let (mut report, kept) =
        trigger(&req.at, req.id, drop, means, &watch, None, (req.companion, req.gives_back), found);
    report.kept = kept.map(|(pane, profile)| Prepared { lock, pane, profile });
    report
}

/// Types the trigger for a drop file a send already wrote, as the send did: under the seat
/// lock, the screen read before typing, the read-back, the Enters and the evidence. The drop
/// file is never written here: one that is gone, or is not a regular file, is refused with
/// nothing typed, and so is an id that is no message id. (`team watch` retries held,
/// not-submitted and dialog-stopped sends by this.)
///
/// `intent` is called once, under the seat lock, after the look before typing allowed it and
/// before the first keystroke: the caller records there, durably, that it is about to type
/// (`history::claim`). An `Err` (why) from it ends the run refused, with nothing typed. A
/// retry without such a record could be typed twice by a watch that never learned how the
/// first ended.
pub fn retrigger(req: &Retrigger, means: &Means, intent: &mut dyn FnMut() -> Result<(), SeatError>) -> Report {
    let watch = means.clock.stopwatch();
    let drop = match drop_path(req.at.root, req.at.session, req.at.seat, req.id) {
        Ok(p) => p,
        Err(why) => return not_typed(Ended::refused(format!("{why}; nothing was typed")), None, watch.ms()),
    };
    let _lock = match lock_seat(means.state, req.at.session, req.at.seat, "send", Duration::from_millis(LOCK_WAIT_MS)) {
        Ok(l) => l,
        Err(why) => return not_typed(Ended::refused(format!("{why}; nothing was sent")), None, watch.ms()),
    };
    match std::fs::symlink_metadata(&drop) {
        Ok(m) if m.file_type().is_file() => {}
        Ok(_) => {
            let why = format!("{} is not a regular file; nothing was typed", drop.display());
            return not_typed(Ended::refused(why), None, watch.ms());
        }
        Err(e) => {
            let why = format!("the drop file {} cannot be read ({e}); nothing was typed", drop.display());
            return not_typed(Ended::refused(why), None, watch.ms());
        }
    }
    trigger(&req.at, req.id, drop, means, &watch, Some(intent), (None, false), None).0
}

/// Where the seat's CLI runs, as its own process tells: `(cwd, home)`, the agent process
/// named by the profile's `process_names` (else the pane's first process).
pub fn whereabouts(mux: &dyn Mux, pane: &mux::PaneRef, process_names: &[String]) -> (Option<PathBuf>, Option<PathBuf>) {
    let mut procs = mux.foreground_processes(pane).unwrap_or_default();
    if procs.is_empty() {
        // The CLI may be the pane's own process (started as the pane's command, no shell).
        procs.extend(pane.shell_pid.map(mux::proc_info));
    }
    let agent = procs.iter().find(|p| process_names.iter().any(|n| n == &p.name)).or_else(|| procs.first());
    (agent.and_then(|p| p.cwd.clone()), agent.and_then(|p| p.home.clone()))
}

fn not_typed(verdict: Ended, drop: Option<PathBuf>, ms: u64) -> Report {
    let run = Run { verdict, typed: false, enters: 0, back: None };
    Report { run, drop, ms, profile: None, dialog: None, kept: None }
}

/// The pane, the profile, the transcript watch and `deliver`, for a drop on disk (the lock
/// held); `intent` is the retry's record before typing; `found`: the pane and profile a look
/// under the same lock already has. A run given back returns its pane and profile beside its
/// report.
#[allow(clippy::too_many_arguments)]
fn trigger(
    req: &SeatTarget,
    id: &str,
    drop: PathBuf,
    means: &Means,
    watch: &crate::clock::Stopwatch,
    intent: Option<&mut dyn FnMut() -> Result<(), SeatError>>,
    (companion, gives_back): (Option<&crate::mailbox::SeatBox>, bool),
    found: Option<(mux::PaneRef, Profile)>,
) -> (Report, Option<(mux::PaneRef, Profile)>) {
    let mux = means.mux;
    let (pane, mut profile) = match found {
        Some(f) => f,
        None => match locate_and_load(req, means) {
            Ok(f) => f,
            Err(Unfound::Pane(e)) => return (not_typed(unreachable(e, &drop), Some(drop), watch.ms()), None),
            Err(Unfound::Profile(e)) => {
                let why = format!("{}; the message is at {}", e.message(), drop.display());
                return (not_typed(Ended::refused(why), Some(drop), watch.ms()), None);
            }
        },
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
    let (cwd, home) = whereabouts(mux, &pane, &d.process_names);
    let transcript =
        (!d.transcript_patterns.is_empty()).then(|| TranscriptWatch::begin(&d.transcript_patterns, home, cwd.clone()));

    let trigger = trigger_line(&drop_ref(&drop, req.root, cwd.as_deref()));
    let reports = status_reports(means, req.session, &pane, &d);
    let seat = SeatPane { mux, pane, profile: &mut profile, transcript, typed: false, reports };
    let mut seat = FirstLook { seat, first: None, intent, companion, gives_back };
    let timings = TIMINGS.scaled(means.clock.scale());
    let run = deliver(&mut seat, &traits, &trigger, id, &drop.display().to_string(), &timings, &RealTimer);
    let FirstLook { seat: SeatPane { pane, .. }, first, .. } = seat;
    // `deliver` judges its first look before typing: a dialog there stopped it.
    let dialog = match (&run.verdict.outcome, run.typed, first) {
        (Outcome::Unreachable, false, Some(o)) => match o.seen {
            Seen::Dialog { kind, .. } => Some(kind),
            _ if o.status == Some(Status::Blocked) => Some(HERDR_BLOCKED.to_string()),
            _ => None,
        },
        _ => None,
    };
    let kept = run.back.is_some().then_some((pane, profile));
    (Report { run, drop: Some(drop), ms: watch.ms(), profile: Some(d.version), dialog, kept: None }, kept)
}

/// The seat's status-report witness, when its profile says its CLI reports and the pane's
/// server can be named (the file is keyed by it); whether a pipe keeps the file is the
/// witness's own question, asked at each look.
fn status_reports(
    means: &Means,
    session: &str,
    pane: &mux::PaneRef,
    d: &crate::profiles::Description,
) -> Option<crate::legs::reports::Witness> {
    if !crate::profiles::launch::reports_status(d) {
        return None;
    }
    let server = means.mux.server(session, &pane.id)?;
    crate::legs::reports::file_of(means.state, means.mux.name(), &server, &pane.id)
        .map(crate::legs::reports::Witness::new)
}

/// Why a run found no pane or no profile for its seat.
enum Unfound {
    Pane(MuxError),
    Profile(crate::error::TeamError),
}

/// The seat's pane (the registry first: its recorded pane while its recorded process runs
/// there) and the profile that reads it.
fn locate_and_load(req: &SeatTarget, means: &Means) -> Result<(mux::PaneRef, Profile), Unfound> {
    let pane =
        crate::state::locate_with(means.mux, req.session, req.seat, req.team, req.record).map_err(Unfound::Pane)?;
    let profile = means.profiles.load(req.cli, req.pins).map_err(Unfound::Profile)?;
    Ok((pane, profile))
}

/// The dialog word for a seat herdr reports `blocked` on a dialog its profile does not read.
pub const HERDR_BLOCKED: &str = "blocked";

/// A seat that keeps its first observation (the look `deliver` judges before typing), and
/// records a retry's intent before typing.
struct FirstLook<'a, 'i, 'c> {
    seat: SeatPane<'a>,
    first: Option<Observation>,
    intent: Option<&'i mut dyn FnMut() -> Result<(), SeatError>>,
    companion: Option<&'c crate::mailbox::SeatBox>,
    gives_back: bool,
}

impl Seat for FirstLook<'_, '_, '_> {
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, SeatError> {
        let o = self.seat.observe(id, trigger)?;
        if self.first.is_none() {
            self.first = Some(o.clone());
        }
        Ok(o)
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
    fn hook_handed(&mut self, id: &str) -> bool {
        self.companion.is_some_and(|b| matches!(b.find(id), Ok(crate::mailbox::Where::Handed(_))))
    }
    fn before_typing(&mut self) -> Result<(), SeatError> {
        match self.intent.take() {
            Some(record) => record(),
            None => Ok(()),
        }
    }
    fn gives_back(&self) -> bool {
        self.gives_back
    }
}
