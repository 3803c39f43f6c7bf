//! `team register`: writes the record for one seat that is already running, without touching
//! it (docs/spec/team-register.md).
//!
//! The run: who may (`who`) → the file's seat (declared, not stopped) → the session (not
//! `default`, running, this team's own) → the pane (the name the multiplexer gives the seat,
//! or `--pane` for one it never named) → no other seat's record holds it, and this seat's
//! record names no other pane → the pane's processes hold the profile's CLI in front of the
//! shell → the profile reads the screen as the seat at its prompt (`pane`). Then, unless
//! `--dry-run`: the name (`--pane`), the sidebar lines, and the records — the seat's state in
//! `.agents/team.state.json`, the launched pointer under the state dir, the registry's agent
//! record, team record and roster line (with the native address read from the pane) — and the
//! team.log line.
//!
//! The sidebar lines, as a launch writes them: the workspace's label is the team's name, the
//! pane's display line `<seat> (<label>) — <model> <version>` from the file (the parts the
//! file gives).
//!
//! Invariants: nothing is typed into the pane and nothing is launched; a record naming another
//! pane (or none) is never overwritten; on a pane already recorded the run is the repair —
//! the registry is rewritten from the file, the state's record only completed (an id or a
//! process identity it lacks); a dry run writes nothing at all.

pub mod doc;

pub mod who;

use std::path::Path;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::{Kind, TeamError};
use crate::history::{self, LogLine};
use crate::legs::native::LiveAddress;
use crate::mux::{Mux, MuxError, PaneInfo};
use crate::profiles::{Description, ProfileHost};
use crate::registry::{self, AgentRecord, ProcessIdentity, Registry, RosterLine, TeamPointers};
use crate::seat_pane;
use crate::state::{self, NewSeat, State};
use crate::team_file::{Loaded, Seat};
use crate::workspace::Workspace;

pub use who::{Admitted, NO_TERMINAL};

/// What the invocation asks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    pub seat: String,
    /// `--session`: the session to verify the pane in instead of the file's.
    pub session: Option<String>,
    /// `--pane`: a pane the multiplexer never named.
    pub pane: Option<String>,
    pub dry_run: bool,
}

/// What a run is given: the multiplexer, the profiles, the run's context (folders, clock,
/// ids), and the two readings of `/proc` (seams: a recorded herdr session's pids mean nothing
/// on a test machine).
pub struct Means<'a> {
    pub mux: &'a dyn Mux,
    pub profiles: &'a ProfileHost,
    pub ctx: &'a Ctx,
    pub identity: fn(u32) -> Option<ProcessIdentity>,
    pub native: fn(&Description, &Path, ProcessIdentity) -> Option<LiveAddress>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The record was written.
    Ready,
    /// The pane already held the seat ready: the repair.
    Already,
    DryRun,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::Already => "already",
            Status::DryRun => "dry-run",
        }
    }
}

/// What a run did: the working lines it says (`notes`) and its closing line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub project: String,
    pub session: String,
    pub seat: String,
    pub pane: String,
    pub status: Status,
    pub notes: Vec<String>,
    pub line: String,
}

fn refuse(id: &str, msg: impl Into<String>) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("register.{id}"))
}

/// A multiplexer that could not answer, in the spec's words.
fn mux_refusal(mux: &dyn Mux, session: &str, e: MuxError) -> TeamError {
    match e {
        MuxError::NoSession(_) | MuxError::ServerStopped(_) => {
            // the spec's sentence names a launch command this build does not ship: the repair
            // line says how to start the session here
            refuse("not-running", format!("session \"{session}\" is not running; run team up first"))
                .with_repair(crate::mux::repair::start_repair(mux, session))
        }
        other => refuse("mux", format!("{} doesn't answer", mux.name())).with_repair(other.to_string()),
    }
}

/// `team register` from the working set: the team file of the checkout the run stands in
/// (refused outside one), the registry, and the caller through the file's multiplexer.
pub fn run_here(ws: &Workspace, req: &Request) -> Result<Report, TeamError> {
    let file = ws.team_in_checkout()?;
    let (reg, who) = (ws.reg()?, ws.caller()?);
    let m = Means {
        mux: ws.team_mux()?,
        profiles: ws.profiles(),
        ctx: ws.ctx,
        identity: ProcessIdentity::read,
        native: crate::legs::native::live_address,
    };
    run(&m, file, reg, who, req)
}

/// Runs `team register` for `caller`; a refusal writes its own team.log line (not on
/// `--dry-run`).
pub fn run(m: &Means, file: &Loaded, reg: &Registry, caller: &Caller, req: &Request) -> Result<Report, TeamError> {
    let admitted = who::admit(&file.file, caller, req.session.is_some(), &m.ctx.paths.config, m.ctx.clock.now());
    let res = admitted.clone().and_then(|a| register(m, file, reg, caller, &a, req));
    if let Err(e) = &res {
        if !req.dry_run && !matches!(e.kind, Kind::Usage | Kind::BadFile) {
            let row = e.id_for("register");
            let a = admitted.as_ref().ok();
            log(m.ctx, &file.root, caller, a, &req.seat, row.trim_start_matches("register."), e.message());
        }
    }
    res
}

fn log(
    ctx: &Ctx,
    root: &Path,
    caller: &Caller,
    admitted: Option<&Admitted>,
    seat: &str,
    outcome: &str,
    detail: String,
) {
    let who = match admitted {
        Some(a @ (Admitted::Grant(_) | Admitted::Delegate)) => format!("{} (as {})", caller.describe(), a.words()),
        _ => caller.describe(),
    };
    let _ = history::append_log(
        root,
        &ctx.clock.now_iso(),
        &LogLine {
            command: "register".into(),
            caller: who,
            seat: Some(seat.into()),
            outcome: outcome.into(),
            bytes: None,
            detail: Some(detail),
        },
    );
}

/// The seat's two sidebar lines: (workspace label, pane display line).
pub fn sidebar_lines(team: &str, seat: &Seat) -> (String, String) {
    let mut display = seat.name.clone();
    if let Some(l) = seat.label.as_deref().filter(|l| !l.trim().is_empty()) {
        display.push_str(&format!(" ({})", l.trim()));
    }
    let model: Vec<&str> = [seat.model.as_deref(), seat.version.as_deref()].into_iter().flatten().collect();
    if !model.is_empty() {
        display.push_str(&format!(" — {}", model.join(" ")));
    }
    (team.to_string(), display)
}

/// What the checks found: the seat of the file, the session, the pane (and whether this run
/// names it), the seat's record on that pane (a repair), the CLI in front of the shell, its
/// process identity, and the profile's description.
struct Found<'f> {
    seat: &'f Seat,
    session: String,
    pane: PaneInfo,
    adopt: bool,
    state: State,
    recorded: Option<state::SeatState>,
    cli: crate::mux::Proc,
    identity: Option<ProcessIdentity>,
    desc: Description,
}

fn register(
    m: &Means,
    file: &Loaded,
    reg: &Registry,
    caller: &Caller,
    admitted: &Admitted,
    req: &Request,
) -> Result<Report, TeamError> {
    let found = check(m, file, reg, req)?;
    let (f, name) = (&file.file, req.seat.as_str());
    let gaps = registry::seat_gaps(reg, &f.team, name);
    let repair = found.recorded.is_some();
    let mut notes = Vec::new();
    if repair && gaps.team_was_missing {
        notes.push(format!(
            "{name}: the team registry held no record of team {}; the team record, the seat's agent record and its roster line {}",
            f.team,
            if req.dry_run { "would be written" } else { "were written" }
        ));
    }
    let report = |status, line: String, notes: Vec<String>| Report {
        project: f.project.clone(),
        session: found.session.clone(),
        seat: name.to_string(),
        pane: found.pane.id.clone(),
        status,
        notes,
        line,
    };
    if req.dry_run {
        let line = dry_run_line(name, &found.pane.id, repair, gaps.roster_was_missing, found.adopt);
        return Ok(report(Status::DryRun, line, notes));
    }
    let (status, line, detail) = write(m, file, reg, &found, name, &mut notes)?;
    log(
        m.ctx,
        &file.root,
        caller,
        Some(admitted),
        name,
        if repair { "already registered" } else { "registered" },
        detail,
    );
    Ok(report(status, line, notes))
}

/// Every check, in the spec's order, before anything is written.
fn check<'f>(m: &Means, file: &'f Loaded, reg: &Registry, req: &Request) -> Result<Found<'f>, TeamError> {
    let (seat, session) = seat_and_session(m, file, req)?;
    let (pane, adopt) = the_pane(m.mux, &session, &req.seat, req.pane.as_deref())?;
    let state = State::load(&file.root)?;
    let recorded = pane_free(&state, reg, &file.file.team, &session, &req.seat, &pane)?;
    let (cli, identity, desc) = the_cli(m, file, seat, &session, &pane, recorded.as_ref())?;
    Ok(Found { seat, session, pane, adopt, state, recorded, cli, identity, desc })
}

/// The file's seat (declared, not stopped) and the session to register it into (not
/// `default`, and not one launched from another team file).
fn seat_and_session<'f>(m: &Means, file: &'f Loaded, req: &Request) -> Result<(&'f Seat, String), TeamError> {
    let f = &file.file;
    let name = req.seat.as_str();
    let seat = f.seat(name).ok_or_else(|| refuse("no-seat", format!("the file has no seat \"{name}\"")))?;
    if seat.stopped {
        return Err(refuse(
            "stopped",
            format!("{name} is stopped in this file; a lead clears `stopped` and starts the team"),
        ));
    }
    let session = req.session.clone().unwrap_or_else(|| f.session.clone());
    if session == "default" {
        return Err(refuse("default-session", "session can't be \"default\", herdr's own session"));
    }
    if let Some(l) = state::read_launched(&m.ctx.paths.state, &session) {
        if Path::new(&l.file) != file.path {
            return Err(refuse(
                "other-session",
                format!(
                    "session \"{session}\" was launched from {}; a seat is registered into its own team's session",
                    l.file
                ),
            ));
        }
    }
    Ok((seat, session))
}

/// The pane, and whether this run names it: the one the multiplexer names the seat, or
/// `--pane`'s (`given`) when the multiplexer never named it and no other pane has the name.
fn the_pane(mux: &dyn Mux, session: &str, name: &str, given: Option<&str>) -> Result<(PaneInfo, bool), TeamError> {
    let named = mux.named(session, name).map_err(|e| mux_refusal(mux, session, e))?;
    let Some(id) = given else {
        return match named.as_slice() {
            [] => {
                let e = refuse(
                    "no-agent",
                    format!("no agent named {name} is running in session \"{session}\"; nothing was registered"),
                );
                // tmux names a seat only by the mark a user sets: say how
                Err(match mux.name() {
                    "tmux" => e.with_repair(format!(
                        "mark its pane (tmux set -p -t <pane> @team-seat {name}), or let this run name it: team register {name} --pane <pane>"
                    )),
                    _ => e,
                })
            }
            [one] => Ok((one.clone(), false)),
            many => Err(refuse(
                "many-agents",
                format!("session \"{session}\" has {} agents named {name}; registering one would guess", many.len()),
            )),
        };
    };
    let p = match mux.pane(session, id) {
        Ok(p) => p,
        Err(MuxError::NoSeat(_)) => {
            return Err(refuse("no-pane", format!("no pane {id} in session \"{session}\"; nothing was registered")))
        }
        Err(e) => return Err(mux_refusal(mux, session, e)),
    };
    if !p.name.is_empty() && p.name != name {
        return Err(refuse(
            "pane-named",
            format!(
                "pane {id} is named {} in session \"{session}\"; --pane names a pane {} never named, nothing was registered",
                p.name,
                mux.name()
            ),
        ));
    }
    if let Some(other) = named.iter().find(|n| n.id != p.id) {
        return Err(refuse(
            "name-taken",
            format!("{name} is already pane {}'s name in session \"{session}\"; nothing was registered", other.id),
        ));
    }
    let adopt = p.name.is_empty();
    Ok((p, adopt))
}

/// No other seat's record (the state's, or the registry's of any team) holds the pane, and
/// this seat's record names no other pane. Returns this seat's record on the pane (a repair).
fn pane_free(
    st: &State,
    reg: &Registry,
    team: &str,
    session: &str,
    name: &str,
    pane: &PaneInfo,
) -> Result<Option<state::SeatState>, TeamError> {
    let holder = st
        .seats(session)
        .into_iter()
        .find(|(s, r)| s != name && r.pane.as_deref() == Some(pane.id.as_str()))
        .map(|(s, _)| s)
        .or_else(|| {
            reg.agents
                .iter()
                .find(|a| {
                    a.session.as_deref() == Some(session)
                        && a.pane.as_deref() == Some(pane.id.as_str())
                        && !(a.team == team && a.seat == name)
                })
                .map(|a| if a.team == team { a.seat.clone() } else { format!("{}@{}", a.seat, a.team) })
        });
    if let Some(other) = holder {
        return Err(refuse(
            "pane-held",
            format!("pane {} is {other}'s in session \"{session}\"; nothing was registered", pane.id),
        ));
    }
    let recorded = st.seat(session, name);
    if let Some(r) = &recorded {
        if r.pane.as_deref() != Some(pane.id.as_str()) {
            let on = r.pane.as_ref().map(|p| format!("on pane {p}")).unwrap_or_else(|| "with no pane".into());
            return Err(refuse(
                "recorded-elsewhere",
                format!(
                    "{name} is already recorded {on}, not on {}; a lead stops the team and starts it again (`team down`, then `team up`); the seat's own team registers it",
                    pane.id
                ),
            ));
        }
    }
    Ok(recorded)
}

/// The profile's CLI in front of the pane's shell (the very process recorded, on a repair),
/// its identity, and the screen read as the seat at its prompt.
fn the_cli(
    m: &Means,
    file: &Loaded,
    seat: &Seat,
    session: &str,
    pane: &PaneInfo,
    recorded: Option<&state::SeatState>,
) -> Result<(crate::mux::Proc, Option<ProcessIdentity>, Description), TeamError> {
    let (mux, name) = (m.mux, seat.name.as_str());
    let mut profile = m.profiles.load(&seat.cli, &file.file.profiles)?;
    let desc = profile.describe().clone();
    let (procs, own) = seat_pane::processes(mux, pane, name).map_err(|e| mux_refusal(mux, session, e))?;
    let cli =
        seat_pane::cli_process(&procs, own, &desc.process_names, pane.label.as_deref()).map_err(|why| match why {
            seat_pane::NoCli::Nothing => refuse(
                "no-process",
                format!("{name}: pane {} holds no process in front of its shell; nothing was registered", pane.id),
            ),
            seat_pane::NoCli::Other => refuse(
                "cli",
                format!(
                    "{name}: pane {} holds no `{}` process; nothing was registered",
                    pane.id,
                    desc.process_names.first().map(String::as_str).unwrap_or(&seat.cli)
                ),
            ),
        })?;
    let identity = (m.identity)(cli.pid);
    if let (Some(r), Some(now)) = (recorded.and_then(|r| r.process), identity) {
        if r != now {
            return Err(refuse(
                "replaced",
                format!(
                    "{name}: the `{}` process in pane {} (pid {}) is not the one recorded (pid {}); nothing was registered; a lead stops the team and starts it again (`team down`, then `team up`)",
                    cli.name, pane.id, now.pid, r.pid
                ),
            ));
        }
    }
    seat_pane::at_prompt(mux, pane, name, &mut profile).map_err(|reading| {
        refuse(
            "not-at-prompt",
            format!("{name}: its pane is not the seat at its prompt ({reading}); nothing was registered"),
        )
    })?;
    Ok((cli, identity, desc))
}

/// A dry run's closing line.
fn dry_run_line(name: &str, p: &str, repair: bool, roster_missing: bool, adopt: bool) -> String {
    match (repair, roster_missing, adopt) {
        (true, true, _) => {
            format!("{name}: already registered — pane {p}; the team registry's roster would be written")
        }
        (true, false, _) => {
            format!("{name}: already registered — pane {p}; the record would be refreshed from the file, nothing relaunched")
        }
        (false, _, true) => format!(
            "{name}: would register — pane {p}; the pane would be named {name} and recorded, nothing would be launched"
        ),
        (false, _, false) => format!("{name}: would register — pane {p}; nothing would be launched"),
    }
}

/// The writes: the pane's name (`--pane`), the sidebar, the state's record, the launched
/// pointer, the registry's records. Returns the status, the closing line and the log's detail.
fn write(
    m: &Means,
    file: &Loaded,
    reg: &Registry,
    found: &Found,
    name: &str,
    notes: &mut Vec<String>,
) -> Result<(Status, String, String), TeamError> {
    let (f, mux, p, session) = (&file.file, m.mux, &found.pane.id, &found.session);
    let took = if found.adopt {
        Some(mux.name_pane(session, p, name).map_err(|e| mux_refusal(mux, session, e))?)
    } else {
        None
    };
    let shown = PaneInfo { name: name.to_string(), ..found.pane.clone() };
    let (label, display) = sidebar_lines(&f.team, found.seat);
    if let Err(e) = mux.sidebar(&shown, &label, &display) {
        notes.push(format!("{name}: the sidebar lines could not be written ({e})"));
    }
    let old = reg.agent_for(&f.team, name);
    let id = match found.recorded.as_ref().and_then(|r| r.id.clone()).or_else(|| old.map(|a| a.id.clone())) {
        Some(id) => id,
        None => registry::new_agent_id(&m.ctx.paths.config, &m.ctx.ids)?,
    };
    let home = found.cli.home.clone().or_else(|| m.ctx.home.clone());
    let address = match (found.desc.native_channel, found.identity, &home) {
        (true, Some(who), Some(h)) => (m.native)(&found.desc, h, who),
        _ => None,
    };
    let registered = m.ctx.clock.now_iso();
    write_state(m, file, found, name, &id, &registered, notes)?;
    let wrote = write_registry(m, file, found, old, &id, address.as_ref(), registered)?;
    let (status, closing) = if found.recorded.is_some() {
        let tail = if wrote.roster_was_missing {
            "the team registry's roster did not list it, and was written"
        } else {
            "the record was refreshed from the file, nothing relaunched"
        };
        (Status::Already, format!("{name}: already registered — pane {p}; {tail}"))
    } else {
        let tail = match took {
            None => "nothing was launched".to_string(),
            Some(true) => format!("the pane was named {name}, nothing was launched"),
            Some(false) => format!("{} did not take the name, nothing was launched", mux.name()),
        };
        (Status::Ready, format!("{name}: registered — pane {p}; {tail}"))
    };
    let mut detail = format!("pane {p}, id {id}");
    if let Some(a) = &address {
        detail.push_str(&format!(", socket {}", a.socket.display()));
    }
    Ok((status, closing, detail))
}

/// The seat's state record (completed on a repair, inserted otherwise) and the launched
/// pointer.
fn write_state(
    m: &Means,
    file: &Loaded,
    found: &Found,
    name: &str,
    id: &str,
    registered: &str,
    notes: &mut Vec<String>,
) -> Result<(), TeamError> {
    let (session, p) = (&found.session, &found.pane.id);
    let mut st = found.state.clone();
    if found.recorded.is_some() {
        let added = st.complete(session, name, &file.path, id, found.identity);
        if !added.is_empty() {
            notes.push(format!(
                "{name}: its record lacked {}, which a launch before this version did not write; completed",
                added
                    .iter()
                    .map(|a| if *a == "id" { "an id" } else { "a process identity" })
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        }
    } else {
        st.insert(
            session,
            name,
            &file.path,
            &NewSeat {
                id: id.to_string(),
                cli: found.seat.cli.clone(),
                pane: p.clone(),
                workspace: found.pane.workspace.clone(),
                process: found.identity,
                agent_session: found.pane.agent_session.clone(),
                registered: registered.to_string(),
            },
        );
    }
    st.save(&file.root)?;
    state::write_launched(&m.ctx.paths.state, session, &file.path, name, p)?;
    Ok(())
}

/// The registry's agent record, team record and roster line.
fn write_registry(
    m: &Means,
    file: &Loaded,
    found: &Found,
    old: Option<&AgentRecord>,
    id: &str,
    address: Option<&LiveAddress>,
    registered: String,
) -> Result<registry::SeatWrite, TeamError> {
    let (f, seat) = (&file.file, found.seat);
    let rec = AgentRecord {
        id: id.to_string(),
        name: old.and_then(|a| a.name.clone()),
        seat: seat.name.clone(),
        team: f.team.clone(),
        session: Some(found.session.clone()),
        cli: Some(seat.cli.clone()),
        project: Some(f.project.clone()),
        root: Some(file.root.clone()),
        pane: Some(found.pane.id.clone()),
        socket: address.map(|a| a.socket.display().to_string()),
        native_session: address.and_then(|a| a.name.clone()),
        process: found.identity.or_else(|| old.and_then(|a| a.process)),
        created: old.and_then(|a| a.created.clone()).or(Some(registered)),
    };
    let line = RosterLine {
        seat: seat.name.clone(),
        agent: Some(id.to_string()),
        nickname: seat.nickname.clone(),
        role: seat.role.clone(),
        cli: Some(seat.cli.clone()),
        leads: seat.leads,
        assistant: seat.assistant,
        stopped: seat.stopped,
    };
    let pointers = TeamPointers {
        entity: f.entity.clone(),
        project: f.project.clone(),
        session: f.session.clone(),
        root: file.root.clone(),
    };
    registry::write_seat(&m.ctx.paths.config, &f.team, &pointers, &line, &rec)
}

#[cfg(test)]
mod tests;
