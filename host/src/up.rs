//! `team up` and `team add <seat>`: the team starts its own seats (docs/launch.md).
//!
//! The run: who may (judged as `team register` judges `up`: `register::who`) → the session as
//! the multiplexer lists it, held against the state's records: a pane no record of this session
//! holds refuses the whole `up` (nothing is started; each pane named with the repair `team
//! register`) → per seat of the file, in its order: a seat recorded and running is `already
//! running`; else its launch — the seat's `launch:` line, run only once the owner approved those
//! very words for this checkout (`trust`), or its profile's own (`profiles::launch`) → its pane
//! opened in the checkout and named as the seat before anything runs there, the launch typed
//! into the pane's shell as a person types it → one bounded wait over every launched seat until
//! its profile reads it idle (`wait`) → the record `team register` writes (reused whole), and
//! what only a launch knows (`state::Launch`).
//!
//! Invariants: one `up`, `add` or `down` of a team runs at a time (the team file's lock), so no
//! seat is started twice; a dialog is never pressed — a seat that stops at one is reported waiting for the
//! person, with its pane; an unapproved line is never typed; `--dry-run` opens, types and writes
//! nothing; no second CLI is started for a seat whose recorded CLI still runs.

pub mod doc;
mod plan;
pub mod version;
mod wait;
pub mod words;

use std::path::Path;
use std::time::Duration;

use crate::caller::Caller;
use crate::error::{Kind, TeamError};
use crate::mux::{Mux, MuxError, PaneInfo};
use crate::profiles::ProfileHost;
use crate::state::{self, State};
use crate::team_file::Loaded;
use crate::workspace::Workspace;

pub use plan::Plan;
pub use wait::Waited;

/// Which command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Up,
    Add,
}

impl Verb {
    pub fn word(self) -> &'static str {
        match self {
            Verb::Up => "up",
            Verb::Add => "add",
        }
    }
}

/// What the invocation asks.
#[derive(Debug, Clone)]
pub struct Request {
    pub verb: Verb,
    /// `team add <seat>`: the one seat.
    pub seat: Option<String>,
    pub dry_run: bool,
    /// How long the wait for the seats' prompts may take, in all.
    pub timeout: Duration,
}

/// How one seat's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Started, at its prompt, and recorded; `version`: the CLI's, as its installed package
    /// names it (`version`), where one does.
    Up { cli: String, version: Option<String>, pane: String },
    /// Its recorded CLI still runs in its pane: nothing was started.
    Already { pane: String },
    /// Its pane runs it, and no record names it (`team add`): `team register` adopts it.
    Unrecorded { pane: String },
    /// Started, and stopped at a dialog the person answers (never pressed).
    Waiting { pane: String, dialog: String },
    /// Its `launch:` line is not approved for this checkout: nothing was typed.
    NotApproved { line: String, other: bool },
    /// Neither a `launch:` line nor its profile's own launch.
    NoLaunch { cli: String },
    /// `stopped: true` in the file.
    StoppedInFile,
    /// The launch left no CLI running.
    Exited { pane: String, last: Vec<String> },
    /// Still not at its prompt when the bound passed.
    NotReady { pane: String, shows: String, secs: u64 },
    /// It could not be started.
    Failed { why: String },
    /// Started and at its prompt, and its record could not be written (`team register`'s
    /// refusal); its pane stays recorded as launching.
    NotRecorded { pane: String, why: String },
    /// `--dry-run`: what the run would type, and where.
    WouldStart { line: String, own: bool },
}

impl Outcome {
    /// Whether the seat stands as the file wants it after the run (ready, or stopped in the file).
    pub fn ready(&self) -> bool {
        matches!(
            self,
            Outcome::Up { .. } | Outcome::Already { .. } | Outcome::WouldStart { .. } | Outcome::StoppedInFile
        )
    }
}

/// One seat's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLine {
    pub seat: String,
    pub outcome: Outcome,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub verb: Verb,
    pub project: String,
    pub session: String,
    pub dry_run: bool,
    /// Lines said before the seats' (hooks or MCP entries that could not be written).
    pub notes: Vec<String>,
    pub seats: Vec<SeatLine>,
}

impl Report {
    /// Exit 0 when every seat stands ready.
    pub fn code(&self) -> i32 {
        if self.seats.iter().all(|s| s.outcome.ready()) {
            0
        } else {
            1
        }
    }
}

/// What the run is handed: the working set, and what installs a launched seat's hooks and MCP
/// entry before its CLI starts (the command line's choice: `--no-hooks`, `--no-mcp`), answering
/// the lines to say.
pub struct Means<'a> {
    pub ws: &'a Workspace<'a>,
    pub prepare: &'a dyn Fn(&[String]) -> Vec<String>,
}

fn refuse(verb: Verb, id: &str, msg: impl Into<String>) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("{}.{id}", verb.word()))
}

/// Runs `team up` / `team add` in the checkout the run stands in.
pub fn run_here(m: &Means, req: &Request) -> Result<Report, TeamError> {
    let ws = m.ws;
    let file = ws.team_in_checkout()?;
    let caller = ws.caller()?;
    admit(file, caller, req.verb, &ws.ctx.paths.config, ws.ctx.clock.now())?;
    let _held = one_at_a_time(ws, file, req)?;
    let mux = ws.team_mux()?;
    let f = &file.file;
    if let Some(name) = &req.seat {
        if f.seat(name).is_none() {
            return Err(refuse(req.verb, "no-seat", format!("the file has no seat \"{name}\"")));
        }
    }
    let session = f.session.clone();
    let panes = session_panes(mux, &session, &f.team).map_err(|e| refuse(req.verb, "mux", e.to_string()))?;
    let mut st = State::load(&file.root)?;
    if req.verb == Verb::Up {
        unrecorded(&st, &session, &panes, f.seats.iter().map(|s| s.name.as_str()))?;
    }
    let names: Vec<&str> = match &req.seat {
        Some(n) => vec![n.as_str()],
        None => f.seat_names(),
    };
    let plans: Vec<(String, Plan)> =
        names.iter().map(|n| (n.to_string(), plan::plan(ws, file, &st, &session, &panes, n))).collect();
    let mut report = Report {
        verb: req.verb,
        project: f.project.clone(),
        session: session.clone(),
        dry_run: req.dry_run,
        notes: Vec::new(),
        seats: Vec::new(),
    };
    let to_launch: Vec<String> =
        plans.iter().filter(|(_, p)| matches!(p, Plan::Launch { .. })).map(|(n, _)| n.clone()).collect();
    if !req.dry_run && !to_launch.is_empty() {
        report.notes = (m.prepare)(&to_launch);
    }
    let mut launched = Vec::new();
    for (name, p) in plans {
        match p {
            Plan::Done(o) => report.seats.push(SeatLine { seat: name, outcome: o }),
            Plan::Launch { line, own, reuse } if req.dry_run => {
                let _ = reuse;
                report.seats.push(SeatLine { seat: name, outcome: Outcome::WouldStart { line, own } });
            }
            Plan::Launch { line, reuse, .. } => {
                match start(mux, ws.profiles(), &ws.ctx.paths.state, file, &mut st, &session, &name, &line, reuse) {
                    Ok(l) => launched.push(l),
                    Err(e) => report.seats.push(SeatLine { seat: name, outcome: Outcome::Failed { why: e.message() } }),
                }
            }
            Plan::Await { pane, .. } if req.dry_run => {
                let why = format!("launched in pane {} and not yet at its prompt; nothing would be typed", pane.id);
                report.seats.push(SeatLine { seat: name, outcome: Outcome::Failed { why } });
            }
            Plan::Await { pane, line } => match awaited(ws.profiles(), file, &name, pane, &line) {
                Ok(l) => launched.push(l),
                Err(e) => report.seats.push(SeatLine { seat: name, outcome: Outcome::Failed { why: e.message() } }),
            },
        }
    }
    for (l, waited) in wait::all(mux, launched, req.timeout) {
        let outcome = settle(ws, file, &session, &l, waited, req.timeout);
        report.seats.push(SeatLine { seat: l.seat.clone(), outcome });
    }
    let order = |s: &SeatLine| names.iter().position(|n| *n == s.seat).unwrap_or(usize::MAX);
    report.seats.sort_by_key(order);
    Ok(report)
}

/// One launch (or stop) of this team at a time — two at once would start a seat twice: the
/// team file's lock, held for the run (none for a dry run, which starts nothing).
fn one_at_a_time(
    ws: &Workspace,
    file: &Loaded,
    req: &Request,
) -> Result<Option<crate::team_file::lock::EditLock>, TeamError> {
    if req.dry_run {
        return Ok(None);
    }
    let wait = req.timeout + Duration::from_secs(30);
    crate::team_file::lock::lock(&ws.ctx.paths.state, &file.path, req.verb.word(), wait)
        .map(Some)
        .map_err(|e| refuse(req.verb, "busy", e.to_string()))
}

/// Judges the caller as `team register` judges `up`, in this command's words.
fn admit(
    file: &Loaded,
    caller: &Caller,
    verb: Verb,
    config: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), TeamError> {
    crate::register::who::admit(&file.file, caller, false, config, now).map(|_| ()).map_err(|e| {
        let row = e.id.strip_prefix("register.").unwrap_or(&e.id).to_string();
        let msg = if row == "caller" {
            format!(
                "only the owner, a seat of this team or a delegate for `up` starts the team's seats; this call is {}",
                caller.describe()
            )
        } else {
            e.message()
        };
        let mut out = TeamError::new(e.kind, msg).with_id(format!("{}.{row}", verb.word()));
        out.hints = e.hints;
        out
    })
}

/// The panes of the session where `team`'s seats run (`Mux::team_panes`); a session (or
/// server) not running has none.
pub fn session_panes(mux: &dyn Mux, session: &str, team: &str) -> Result<Vec<PaneInfo>, MuxError> {
    match mux.team_panes(session, team) {
        Ok(p) => Ok(p),
        Err(MuxError::NoSession(_) | MuxError::ServerStopped(_)) => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Refuses the whole session when a pane of it is held by no record of this session that names
/// a running seat (the spec: up refuses the session as one whose agents this state does not
/// record), naming each pane and its repair.
fn unrecorded<'s>(
    st: &State,
    session: &str,
    panes: &[PaneInfo],
    seats: impl Iterator<Item = &'s str>,
) -> Result<(), TeamError> {
    let seats: Vec<&str> = seats.collect();
    let held: Vec<String> = st
        .seats(session)
        .into_iter()
        .filter(|(_, r)| r.stage != state::Stage::Stopped)
        .filter_map(|(_, r)| r.pane)
        .collect();
    let foreign: Vec<&PaneInfo> = panes.iter().filter(|p| !held.contains(&p.id)).collect();
    if foreign.is_empty() {
        return Ok(());
    }
    let mut e = refuse(
        Verb::Up,
        "unrecorded",
        format!(
            "session \"{session}\" has {} this file's state does not record: {}; nothing was started",
            if foreign.len() == 1 { "a pane" } else { "panes" },
            foreign.iter().map(|p| words::pane_named(p)).collect::<Vec<_>>().join(", ")
        ),
    );
    for p in foreign {
        let seat = if seats.contains(&p.name.as_str()) { p.name.as_str() } else { "<seat>" };
        e = e.with_repair(format!("team register {seat} --pane {}", p.id));
    }
    Err(e.with_repair("or stop what runs there and close the panes, then team up again"))
}

/// Opens the seat's pane (or takes the recorded pane its CLI left) and types the launch into
/// its shell.
#[allow(clippy::too_many_arguments)]
fn start(
    mux: &dyn Mux,
    profiles: &ProfileHost,
    state: &Path,
    file: &Loaded,
    st: &mut State,
    session: &str,
    name: &str,
    line: &str,
    reuse: Option<PaneInfo>,
) -> Result<wait::Launched, TeamError> {
    let (seat, profile) = seat_profile(profiles, file, name)?;
    st.forget(session, name);
    let pane = match reuse {
        Some(p) => p,
        None => mux.open_team_seat(session, &file.root, name, &file.file.team).map_err(mux_failed)?,
    };
    st.launching(session, name, &file.path, &seat.cli, &pane.id, line);
    st.save(&file.root)?;
    if crate::profiles::launch::reports_status(profile.describe()) {
        // the CLI's own status reports, kept from its first byte: a second witness for the
        // typed leg (docs/status-reports.md); a pane that cannot be piped loses nothing else
        let _ = crate::legs::reports::attach(mux, state, session, &pane.id);
    }
    let at = pane.pane_ref(name);
    mux.launch(&at, line).map_err(mux_failed)?;
    Ok(wait::Launched::new(name, &seat.cli, pane, profile, line))
}

/// A seat an earlier run launched, waited for again.
fn awaited(
    profiles: &ProfileHost,
    file: &Loaded,
    name: &str,
    pane: PaneInfo,
    line: &str,
) -> Result<wait::Launched, TeamError> {
    let (seat, profile) = seat_profile(profiles, file, name)?;
    Ok(wait::Launched::new(name, &seat.cli, pane, profile, line).seen())
}

/// The file's seat `name` and its CLI's profile, loaded.
fn seat_profile<'f>(
    profiles: &ProfileHost,
    file: &'f Loaded,
    name: &str,
) -> Result<(&'f crate::team_file::Seat, crate::profiles::Profile), TeamError> {
    let seat = file.file.seat(name).ok_or_else(|| TeamError::failed(format!("the file has no seat \"{name}\"")))?;
    let profile = profiles.load(&seat.cli, &file.file.profiles)?;
    Ok((seat, profile))
}

/// A multiplexer's failure to open, type into or press in a pane, as the seat's line says it.
fn mux_failed(e: MuxError) -> TeamError {
    TeamError::failed(e.to_string())
}

/// A launched seat's outcome: recorded through `team register` once idle.
fn settle(ws: &Workspace, file: &Loaded, session: &str, l: &wait::Launched, w: Waited, bound: Duration) -> Outcome {
    let pane = l.pane.id.clone();
    match w {
        Waited::Idle => match record(ws, file, session, l) {
            Ok(version) => Outcome::Up { cli: l.cli.clone(), version, pane },
            Err(e) => Outcome::NotRecorded { pane, why: e.message() },
        },
        Waited::Dialog(dialog) => Outcome::Waiting { pane, dialog },
        Waited::Exited(last) => Outcome::Exited { pane, last },
        Waited::Pending(shows) => Outcome::NotReady { pane, shows, secs: bound.as_secs() },
        Waited::Unread(why) => Outcome::Failed { why: format!("its pane {pane} could not be read: {why}") },
    }
}

/// The record `team register` writes, then what only the launch knows; answers the CLI's
/// version read from the recorded process (`version`).
fn record(ws: &Workspace, file: &Loaded, session: &str, l: &wait::Launched) -> Result<Option<String>, TeamError> {
    // the launching record gives way to the one register writes (stage ready, id, identity)
    let mut st = State::load(&file.root)?;
    if st.forget(session, &l.seat) {
        st.save(&file.root)?;
    }
    let req = crate::register::Request { seat: l.seat.clone(), session: None, pane: None, dry_run: false };
    if let Err(e) = crate::register::run_here(ws, &req) {
        // the pane stays this state's: a later up finds the seat again
        let mut st = State::load(&file.root)?;
        st.launching(session, &l.seat, &file.path, &l.cli, &l.pane.id, &l.line);
        st.save(&file.root)?;
        return Err(e);
    }
    let seat = file.file.seat(&l.seat);
    let mut st = State::load(&file.root)?;
    let pid = st.seat(session, &l.seat).and_then(|r| r.process).map(|p| p.pid);
    let cli_version = pid.and_then(|p| version::of_process(p, l.process_names()));
    let launch = state::Launch {
        model: seat.and_then(|s| s.model.clone()),
        version: seat.and_then(|s| s.version.clone()),
        effort: seat.and_then(|s| s.effort.clone()),
        cli_version: cli_version.clone(),
        launch_line: l.line.clone(),
    };
    st.set_launch(session, &l.seat, &launch);
    st.save(&file.root)?;
    Ok(cli_version)
}

#[cfg(test)]
mod tests;
