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

pub mod pane;
pub mod who;

use std::path::Path;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::history::{self, LogLine};
use crate::mux::{Mux, MuxError, PaneInfo};
use crate::native::LiveAddress;
use crate::outcome::{Kind, TeamError};
use crate::profiles::{Description, ProfileHost};
use crate::registry::{self, AgentRecord, ProcessIdentity, Registry, RosterLine, TeamPointers};
use crate::state::{self, NewSeat, State};
use crate::team_file::{Loaded, Seat};

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
                .with_repair(crate::status::start_repair(mux, session))
        }
        other => refuse("mux", format!("{} doesn't answer", mux.name())).with_repair(other.to_string()),
    }
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

fn register(
    m: &Means,
    file: &Loaded,
    reg: &Registry,
    caller: &Caller,
    admitted: &Admitted,
    req: &Request,
) -> Result<Report, TeamError> {
    let f = &file.file;
    let (config, state_dir) = (&m.ctx.paths.config, &m.ctx.paths.state);
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
    if let Some(l) = state::read_launched(state_dir, &session) {
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
    let mux = m.mux;
    let named = mux.named(&session, name).map_err(|e| mux_refusal(mux, &session, e))?;
    // the pane, and whether this run names it (`--pane` on a pane the multiplexer never named)
    let (pane, adopt) = match &req.pane {
        None => match named.as_slice() {
            [] => {
                let e = refuse(
                    "no-agent",
                    format!("no agent named {name} is running in session \"{session}\"; nothing was registered"),
                );
                // tmux names a seat only by the mark a user sets: say how
                return Err(match mux.name() {
                    "tmux" => e.with_repair(format!(
                        "mark its pane (tmux set -p -t <pane> @team-seat {name}), or let this run name it: team register {name} --pane <pane>"
                    )),
                    _ => e,
                });
            }
            [one] => (one.clone(), false),
            many => {
                return Err(refuse(
                    "many-agents",
                    format!(
                        "session \"{session}\" has {} agents named {name}; registering one would guess",
                        many.len()
                    ),
                ))
            }
        },
        Some(id) => {
            let p = match mux.pane(&session, id) {
                Ok(p) => p,
                Err(MuxError::NoSeat(_)) => {
                    return Err(refuse(
                        "no-pane",
                        format!("no pane {id} in session \"{session}\"; nothing was registered"),
                    ))
                }
                Err(e) => return Err(mux_refusal(mux, &session, e)),
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
                    format!(
                        "{name} is already pane {}'s name in session \"{session}\"; nothing was registered",
                        other.id
                    ),
                ));
            }
            let adopt = p.name.is_empty();
            (p, adopt)
        }
    };
    let st = State::load(&file.root)?;
    // another seat's record holding the pane
    let holder = st
        .seats(&session)
        .into_iter()
        .find(|(s, r)| s != name && r.pane.as_deref() == Some(pane.id.as_str()))
        .map(|(s, _)| s)
        .or_else(|| {
            reg.agents
                .iter()
                .find(|a| {
                    a.session.as_deref() == Some(session.as_str())
                        && a.pane.as_deref() == Some(pane.id.as_str())
                        && !(a.team == f.team && a.seat == name)
                })
                .map(|a| if a.team == f.team { a.seat.clone() } else { format!("{}@{}", a.seat, a.team) })
        });
    if let Some(other) = holder {
        return Err(refuse(
            "pane-held",
            format!("pane {} is {other}'s in session \"{session}\"; nothing was registered", pane.id),
        ));
    }
    let recorded = st.seat(&session, name);
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
    // the CLI in front of the shell, and the screen at its prompt
    let mut profile = m.profiles.load(&seat.cli, &f.profiles)?;
    let desc = profile.describe().clone();
    let (procs, own) = pane::processes(mux, &pane, name).map_err(|e| mux_refusal(mux, &session, e))?;
    let cli = pane::cli_process(&procs, own, &desc.process_names, pane.label.as_deref()).map_err(|why| match why {
        pane::NoCli::Nothing => refuse(
            "no-process",
            format!("{name}: pane {} holds no process in front of its shell; nothing was registered", pane.id),
        ),
        pane::NoCli::Other => refuse(
            "cli",
            format!(
                "{name}: pane {} holds no `{}` process; nothing was registered",
                pane.id,
                desc.process_names.first().map(String::as_str).unwrap_or(&seat.cli)
            ),
        ),
    })?;
    let identity = (m.identity)(cli.pid);
    if let (Some(r), Some(now)) = (recorded.as_ref().and_then(|r| r.process), identity) {
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
    pane::at_prompt(mux, &pane, name, &mut profile).map_err(|reading| {
        refuse(
            "not-at-prompt",
            format!("{name}: its pane is not the seat at its prompt ({reading}); nothing was registered"),
        )
    })?;

    let gaps = registry::seat_gaps(reg, &f.team, name);
    let repair = recorded.is_some();
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
        session: session.clone(),
        seat: name.to_string(),
        pane: pane.id.clone(),
        status,
        notes,
        line,
    };
    let p = &pane.id;
    if req.dry_run {
        let line = match (repair, gaps.roster_was_missing, adopt) {
            (true, true, _) => format!("{name}: already registered — pane {p}; the team registry's roster would be written"),
            (true, false, _) => {
                format!("{name}: already registered — pane {p}; the record would be refreshed from the file, nothing relaunched")
            }
            (false, _, true) => format!(
                "{name}: would register — pane {p}; the pane would be named {name} and recorded, nothing would be launched"
            ),
            (false, _, false) => format!("{name}: would register — pane {p}; nothing would be launched"),
        };
        return Ok(report(Status::DryRun, line, notes));
    }

    // the writes: the name, the sidebar, then the records
    let took =
        if adopt { Some(mux.name_pane(&session, p, name).map_err(|e| mux_refusal(mux, &session, e))?) } else { None };
    let shown = PaneInfo { name: name.to_string(), ..pane.clone() };
    let (label, display) = sidebar_lines(&f.team, seat);
    if let Err(e) = mux.sidebar(&shown, &label, &display) {
        notes.push(format!("{name}: the sidebar lines could not be written ({e})"));
    }
    let old = reg.agent_for(&f.team, name);
    let id = match recorded.as_ref().and_then(|r| r.id.clone()).or_else(|| old.map(|a| a.id.clone())) {
        Some(id) => id,
        None => registry::new_agent_id(config, &m.ctx.ids)?,
    };
    let home = cli.home.clone().or_else(|| m.ctx.home.clone());
    let address = match (desc.native_channel, identity, &home) {
        (true, Some(who), Some(h)) => (m.native)(&desc, h, who),
        _ => None,
    };
    let mut st = st;
    let registered = m.ctx.clock.now_iso();
    if repair {
        let added = st.complete(&session, name, &file.path, &id, identity);
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
            &session,
            name,
            &file.path,
            &NewSeat {
                id: id.clone(),
                cli: seat.cli.clone(),
                pane: p.clone(),
                workspace: pane.workspace.clone(),
                process: identity,
                agent_session: pane.agent_session.clone(),
                registered: registered.clone(),
            },
        );
    }
    st.save(&file.root)?;
    state::write_launched(state_dir, &session, &file.path, name, p)?;
    let rec = AgentRecord {
        id: id.clone(),
        name: old.and_then(|a| a.name.clone()),
        seat: name.to_string(),
        team: f.team.clone(),
        session: Some(session.clone()),
        cli: Some(seat.cli.clone()),
        project: Some(f.project.clone()),
        root: Some(file.root.clone()),
        pane: Some(p.clone()),
        socket: address.as_ref().map(|a| a.socket.display().to_string()),
        native_session: address.as_ref().and_then(|a| a.name.clone()),
        process: identity.or_else(|| old.and_then(|a| a.process)),
        created: old.and_then(|a| a.created.clone()).or(Some(registered)),
    };
    let line = RosterLine {
        seat: name.to_string(),
        agent: Some(id.clone()),
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
    let wrote = registry::write_seat(config, &f.team, &pointers, &line, &rec)?;
    let (status, closing) = if repair {
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
    log(
        m.ctx,
        &file.root,
        caller,
        Some(admitted),
        name,
        if repair { "already registered" } else { "registered" },
        detail,
    );
    Ok(report(status, closing, notes))
}

#[cfg(test)]
mod tests;
