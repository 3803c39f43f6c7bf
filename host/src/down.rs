//! `team down [<seat>…] [--force]`: the team stops its own seats (docs/launch.md).
//!
//! The run: who may (as `team up`) → per seat (those named, else every seat of the file) its
//! record in this session → its pane and the CLI in front of the pane's shell → the screen its
//! profile reads: only idle with an empty composer is the CLI asked to leave, its own way (the
//! keys its profile declares: `profiles::launch::exit_steps`), and waited for, bounded; a seat
//! that is working, holds a draft or shows a dialog is left running and named with why.
//! `--force` ends the CLI's process tree instead: TERM, then KILL after [`FORCE_BOUND`]. A seat
//! whose CLI has left has its pane closed (the session ends with its last seat) and its
//! record's stage set to `stopped`. Messages still unclaimed in its inbox are named, never
//! dropped.
//!
//! Invariants: no key reaches a seat whose screen is not idle with an empty composer (a draft
//! stays whole); `--dry-run` presses, kills, closes and writes nothing.

pub mod doc;
pub mod words;

use std::time::{Duration, Instant};

use crate::error::{Kind, TeamError};
use crate::mux::{Mux, PaneInfo, PaneRef};
use crate::profiles::launch::{exit_steps, ExitStep};
use crate::profiles::{Composer, Profile, State as Screen};
use crate::registry::ProcessIdentity;
use crate::seat_pane::{self, NoCli};
use crate::state::{Stage, State};
use crate::team_file::Loaded;
use crate::vocab::key::Key;
use crate::workspace::Workspace;

/// How long a CLI asked to leave is waited for.
pub const LEAVE_BOUND: Duration = Duration::from_secs(10);
/// How long `--force`'s TERM is given before KILL.
pub const FORCE_BOUND: Duration = Duration::from_secs(5);

/// What the invocation asks.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The seats to stop (every seat of the file when empty).
    pub seats: Vec<String>,
    pub force: bool,
    pub dry_run: bool,
}

/// Why a seat was left running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    Draft(String),
    Working,
    Dialog(String),
    /// The screen reads something this version does not take for an idle prompt.
    Shows(String),
    /// Its profile declares no way out.
    NoExit(String),
    /// It was asked to leave and still runs after the bound.
    Stayed(String),
}

/// How one seat's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Asked to leave its own way (`exit` shows the keys), left; its pane closed.
    Down {
        pane: String,
        exit: String,
    },
    /// Its CLI had already left; its pane closed.
    Gone {
        pane: String,
    },
    /// `--force`: its process tree ended (`killed`: TERM was not enough).
    Forced {
        pane: String,
        killed: bool,
    },
    /// No record of it runs in this session.
    NotRunning,
    LeftRunning {
        pane: String,
        why: Why,
    },
    Failed {
        why: String,
    },
    /// `--dry-run`: what the run would do.
    Would {
        pane: String,
        what: String,
    },
}

impl Outcome {
    pub fn down(&self) -> bool {
        matches!(
            self,
            Outcome::Down { .. }
                | Outcome::Gone { .. }
                | Outcome::Forced { .. }
                | Outcome::NotRunning
                | Outcome::Would { .. }
        )
    }
}

/// One seat's line, and the messages its inbox still holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLine {
    pub seat: String,
    pub outcome: Outcome,
    pub unclaimed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub project: String,
    pub session: String,
    pub dry_run: bool,
    pub seats: Vec<SeatLine>,
}

impl Report {
    /// Exit 0 when every named seat is down.
    pub fn code(&self) -> i32 {
        if self.seats.iter().all(|s| s.outcome.down()) {
            0
        } else {
            1
        }
    }
}

fn refuse(id: &str, msg: impl Into<String>) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("down.{id}"))
}

/// Runs `team down` in the checkout the run stands in.
pub fn run_here(ws: &Workspace, req: &Request) -> Result<Report, TeamError> {
    let file = ws.team_in_checkout()?;
    let caller = ws.caller()?;
    crate::register::who::admit(&file.file, caller, false, &ws.ctx.paths.config, ws.ctx.clock.now()).map_err(|e| {
        let row = e.id.strip_prefix("register.").unwrap_or(&e.id).to_string();
        let msg = if row == "caller" {
            format!(
                "only the owner, a seat of this team or a delegate for `up` stops the team's seats; this call is {}",
                caller.describe()
            )
        } else {
            e.message()
        };
        TeamError::new(e.kind, msg).with_id(format!("down.{row}"))
    })?;
    let f = &file.file;
    for n in &req.seats {
        if f.seat(n).is_none() {
            return Err(refuse("no-seat", format!("the file has no seat \"{n}\"")));
        }
    }
    let names: Vec<String> =
        if req.seats.is_empty() { f.seat_names().into_iter().map(str::to_string).collect() } else { req.seats.clone() };
    let _held = if req.dry_run {
        None
    } else {
        let wait = LEAVE_BOUND + FORCE_BOUND + Duration::from_secs(60);
        Some(
            crate::team_file::lock::lock(&ws.ctx.paths.state, &file.path, "down", wait)
                .map_err(|e| refuse("busy", e.to_string()))?,
        )
    };
    let mux = ws.team_mux()?;
    let session = f.session.clone();
    let panes = crate::up::session_panes(mux, &session, &f.team).map_err(|e| refuse("mux", e.to_string()))?;
    let mut seats = Vec::new();
    for name in &names {
        let outcome = stop(ws, file, mux, &session, &panes, name, req);
        let unclaimed = unclaimed(ws, file, &session, name);
        seats.push(SeatLine { seat: name.clone(), outcome, unclaimed });
    }
    Ok(Report { project: f.project.clone(), session, dry_run: req.dry_run, seats })
}

/// The ids of the messages still waiting, unclaimed, in the seat's inbox.
fn unclaimed(ws: &Workspace, file: &Loaded, session: &str, seat: &str) -> Vec<String> {
    let f = &file.file;
    crate::mailbox::seat_box_at(&ws.ctx.paths.config, &f.project, &file.root, session, seat)
        .and_then(|b| b.waiting().ok())
        .map(|keys| keys.iter().map(|k| k.id().to_string()).collect())
        .unwrap_or_default()
}

/// Stops one seat.
fn stop(
    ws: &Workspace,
    file: &Loaded,
    mux: &dyn Mux,
    session: &str,
    panes: &[PaneInfo],
    name: &str,
    req: &Request,
) -> Outcome {
    let st = match State::load(&file.root) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed { why: e.message() },
    };
    let Some(rec) = st.seat(session, name).filter(|r| r.stage != Stage::Stopped) else { return Outcome::NotRunning };
    let Some(pane) = rec.pane.as_deref().and_then(|p| panes.iter().find(|x| x.id == p)) else {
        if !req.dry_run {
            stopped(ws, file, session, name);
        }
        return Outcome::NotRunning;
    };
    let seat = file.file.seat(name).expect("a seat of the file");
    let mut profile = match ws.profiles().load(&seat.cli, &file.file.profiles) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed { why: e.message() },
    };
    let desc = profile.describe().clone();
    let (procs, own) = match seat_pane::processes(mux, pane, name) {
        Ok(x) => x,
        Err(e) => return Outcome::Failed { why: e.to_string() },
    };
    let id = pane.id.clone();
    let cli = match seat_pane::cli_process(&procs, own, &desc.process_names, pane.label.as_deref()) {
        Ok(c) => c,
        Err(NoCli::Nothing) if req.dry_run => return Outcome::Would { pane: id, what: "close its pane".into() },
        Err(NoCli::Nothing) => return close(ws, file, mux, session, name, Outcome::Gone { pane: id }),
        Err(NoCli::Other) => {
            let what = procs.first().map(|p| p.name.clone()).unwrap_or_default();
            return Outcome::Failed {
                why: format!("its pane {id} runs `{what}` in front of its shell, not its CLI; it was left alone"),
            };
        }
    };
    let at = pane.pane_ref(name);
    if req.force {
        if req.dry_run {
            return Outcome::Would { pane: id, what: format!("end its process tree (pid {})", cli.pid) };
        }
        let killed = end_tree(cli.pid);
        return close(ws, file, mux, session, name, Outcome::Forced { pane: id, killed });
    }
    let steps = match gate(mux, &at, &mut profile) {
        Err(why) => return Outcome::LeftRunning { pane: id, why },
        Ok(()) => match exit_steps(&desc) {
            Some(s) => s,
            None => return Outcome::LeftRunning { pane: id, why: Why::NoExit(seat.cli.clone()) },
        },
    };
    let exit = crate::profiles::launch::shown(&steps);
    if req.dry_run {
        return Outcome::Would { pane: id, what: format!("ask it to leave with {exit}") };
    }
    if let Err(e) = press(mux, &at, &steps, desc.enter_pause_ms) {
        return Outcome::Failed { why: e.to_string() };
    }
    let who = ProcessIdentity::read(cli.pid);
    let t = Instant::now();
    while who.is_some_and(|w| w.alive()) && t.elapsed() < LEAVE_BOUND {
        std::thread::sleep(Duration::from_millis(50));
    }
    if who.is_some_and(|w| w.alive()) {
        return Outcome::LeftRunning { pane: id, why: Why::Stayed(exit) };
    }
    close(ws, file, mux, session, name, Outcome::Down { pane: id, exit })
}

/// Only an idle screen with an empty composer is asked to leave.
fn gate(mux: &dyn Mux, at: &PaneRef, profile: &mut Profile) -> Result<(), Why> {
    let cap = mux.read_screen(at).map_err(|e| Why::Shows(format!("its screen could not be read: {e}")))?;
    let r = profile.classify(&cap.into_screen()).map_err(|e| Why::Shows(e.message()))?;
    match (&r.state, &r.composer) {
        (Screen::Idle, Composer::Empty) => Ok(()),
        (Screen::Idle, Composer::Holds(t)) => Err(Why::Draft(t.clone())),
        (Screen::Working(_), _) => Err(Why::Working),
        (Screen::Dialog(d), _) => Err(Why::Dialog(d.kind.label().to_string())),
        (s, _) => Err(Why::Shows(seat_pane::reading_words(s))),
    }
}

/// Presses the CLI's way out: text typed, an Enter after the profile's pause, keys by name.
fn press(mux: &dyn Mux, at: &PaneRef, steps: &[ExitStep], pause_ms: u32) -> Result<(), crate::mux::MuxError> {
    for s in steps {
        match s {
            ExitStep::Type(t) => mux.type_text(at, t)?,
            ExitStep::Key(Key::Enter) => {
                std::thread::sleep(Duration::from_millis(u64::from(pause_ms)));
                mux.press_enter(at)?;
            }
            ExitStep::Key(k) => mux.press_key(at, *k)?,
        }
    }
    Ok(())
}

/// TERM to the process and everything below it, then KILL to what is left after
/// [`FORCE_BOUND`]; `true` when KILL was needed.
fn end_tree(pid: u32) -> bool {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let tree = |pid: u32| -> Vec<ProcessIdentity> {
        std::iter::once(pid)
            .chain(crate::mux::procfs::process_tree_below(pid).into_iter().map(|p| p.pid))
            .filter_map(ProcessIdentity::read)
            .collect()
    };
    let all = tree(pid);
    let signal = |sig| {
        for p in all.iter().filter(|p| p.alive()) {
            let _ = kill(Pid::from_raw(p.pid as i32), sig);
        }
    };
    signal(Signal::SIGTERM);
    let t = Instant::now();
    while all.iter().any(|p| p.alive()) && t.elapsed() < FORCE_BOUND {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = all.iter().any(|p| p.alive());
    if left {
        signal(Signal::SIGKILL);
    }
    left
}

/// Closes the seat's pane and records it stopped; answers `done`.
fn close(ws: &Workspace, file: &Loaded, mux: &dyn Mux, session: &str, name: &str, done: Outcome) -> Outcome {
    let pane = match &done {
        Outcome::Down { pane, .. } | Outcome::Gone { pane } | Outcome::Forced { pane, .. } => pane.clone(),
        _ => return done,
    };
    if let Err(e) = mux.close_pane(session, &pane) {
        return Outcome::Failed { why: format!("its CLI left, and its pane {pane} could not be closed: {e}") };
    }
    stopped(ws, file, session, name);
    done
}

/// The record's stage becomes `stopped`.
fn stopped(ws: &Workspace, file: &Loaded, session: &str, name: &str) {
    if let Ok(mut st) = State::load(&file.root) {
        if st.set_stopped(session, name, &ws.ctx.clock.now_iso()) {
            let _ = st.save(&file.root);
        }
    }
}
