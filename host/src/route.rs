//! `team route <seat>`: one seat's address for the native channel (docs/spec/team-route.md). A
//! sender that delivers with its own cross-session tool asks here first, delivers itself, then
//! writes the delivery down with `team send --record`.
//!
//! The run: admission exactly as a send's (`send::decide`: the same resolution, rules,
//! grants and default deny) → the seat's registry record (none: refused) → the recipient
//! resolved live (the multiplexer names the seat on exactly one pane of its session, the pane
//! its record names, running the CLI its record names) → the socket's state
//! ([`SocketState`]) → one line appended to the receiving project's `routes.jsonl` → the
//! team.log line `looked up <seat>: <state>, native <yes|no>` → the answer.
//!
//! Invariants: this process never opens, dials or writes to another session's socket; a
//! recorded address is never silently swapped for another (a pane that cannot be read leaves
//! it `unread`); a route that cannot be written down is refused, never answered; `--dry-run`
//! writes nothing.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::caller::Caller;
use crate::error::{Kind, TeamError};
use crate::history::{self, LogLine};
use crate::mux::{Mux, PaneInfo, Proc};
use crate::profiles::Description;
use crate::registry::ProcessIdentity;
use crate::seat_pane;
use crate::send;
use crate::workspace::Workspace;

mod doc;
pub use doc::{PlusPrefix, RouteDoc, RouteStatus};

/// What the socket reading found (spec "The address").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SocketState {
    /// The recorded address, its process still running in the pane and holding the path.
    Live,
    /// The recorded address, its process gone: named so the sender does not dial it.
    Stale,
    /// No recorded address, and one socket among the pane's processes.
    Pane,
    /// A recorded address and a pane that could not be read: nothing is claimed about it.
    Unread,
    /// Nothing.
    None,
}

impl SocketState {
    pub fn word(self) -> &'static str {
        match self {
            SocketState::Live => "live",
            SocketState::Stale => "stale",
            SocketState::Pane => "pane",
            SocketState::Unread => "unread",
            SocketState::None => "none",
        }
    }

    /// The answer's line about the socket.
    pub fn sentence(self, why: Option<&str>) -> String {
        match self {
            SocketState::Live => "socket live: the recorded address, held by its own process in the pane".into(),
            SocketState::Stale => {
                "socket stale: the recorded address, and its process is gone from the pane; do not dial it".into()
            }
            SocketState::Pane => "socket found on the pane: none was recorded, and one process of the pane listens on it".into(),
            SocketState::Unread => format!(
                "socket unread: the pane could not be read ({}); the recorded path is named, and nothing about it is claimed",
                why.unwrap_or("no reason given")
            ),
            SocketState::None => "no socket: none was recorded, and none was found on the pane".into(),
        }
    }
}

/// The answer of one route.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The caller's context line: `team <project>, session "<session>"`.
    pub project: String,
    pub session: String,
    pub seat: String,
    pub agent: String,
    /// The name the recipient's native session answers to (what SendMessage addresses);
    /// `None` where its CLI carries no native channel or no name could be read.
    pub recipient_session: Option<String>,
    pub cli: String,
    pub pane: String,
    pub address: Option<String>,
    pub state: SocketState,
    /// Why the pane could not be read (`unread`).
    pub unread_why: Option<String>,
    pub native: bool,
    pub rule: String,
    /// The receiving project's `routes.jsonl`.
    pub record: PathBuf,
    pub dry_run: bool,
}

impl Report {
    /// `<seat>: routed at <path|no socket> (<state>)`.
    pub fn closing(&self) -> String {
        format!("{}: routed at {} ({})", self.seat, self.address.as_deref().unwrap_or("no socket"), self.state.word())
    }
}

/// One line of `routes.jsonl`.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct RouteLine {
    pub ts: String,
    pub from: String,
    pub to: String,
    /// The agent id the seat resolved to.
    pub agent: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    pub rule: String,
    pub pane: String,
    pub address: Option<String>,
    pub state: String,
    pub native: bool,
    pub recipient_session: Option<String>,
}

/// The sentence a run with no terminal (and no verified pane) is refused with.
pub use crate::caller::NO_TERMINAL;

fn refuse(id: &str, msg: String) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("route.{id}"))
}

/// What a route is given: what a send is given (the run's context, the profile host, the
/// multiplexer for a team file's choice), and the readings of `/proc`.
pub struct Means<'a> {
    pub send: &'a send::Means<'a>,
    /// The listening socket paths a process holds, `None` when its open files cannot be read
    /// (`native::listening_paths_of`; a seam: a recorded herdr session's pids mean nothing here).
    pub listeners: fn(u32) -> Option<Vec<PathBuf>>,
    /// A process's identity (`ProcessIdentity::read`; the same seam).
    pub identity: fn(u32) -> Option<ProcessIdentity>,
    /// Whether a socket's path is still there (`Path::exists`; the same seam).
    pub exists: fn(&Path) -> bool,
}

/// One process of a pane with the listening socket paths it holds (`None`: its open files
/// could not be read).
pub type Reading = (u32, Option<Vec<PathBuf>>);

/// What the socket reading concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub state: SocketState,
    pub address: Option<String>,
    /// The process holding the socket (live, pane).
    pub holder: Option<u32>,
}

/// The socket's state (spec "The address") from the recorded address and the pane's processes
/// with the listening paths each holds: `readings` is `None` when the pane's processes could
/// not be read, and a process's paths `None` when its open files could not be.
pub fn judge_socket(recorded: Option<&str>, readings: Option<&[Reading]>, exists: &dyn Fn(&Path) -> bool) -> Judged {
    let readable: Option<Vec<(u32, &Vec<PathBuf>)>> = readings
        .map(|r| r.iter().filter_map(|(pid, l)| l.as_ref().map(|l| (*pid, l))).collect())
        .filter(|r: &Vec<_>| !r.is_empty() || readings.is_some_and(|all| all.is_empty()));
    match (recorded, readable) {
        (Some(path), None) => Judged { state: SocketState::Unread, address: Some(path.into()), holder: None },
        (Some(path), Some(r)) => {
            let held = r.iter().find(|(_, l)| l.iter().any(|p| p == Path::new(path))).map(|(pid, _)| *pid);
            match held.filter(|_| exists(Path::new(path))) {
                Some(pid) => Judged { state: SocketState::Live, address: Some(path.into()), holder: Some(pid) },
                None => Judged { state: SocketState::Stale, address: Some(path.into()), holder: None },
            }
        }
        (None, Some(r)) => {
            let mut found: Vec<(u32, &PathBuf)> = Vec::new();
            for (pid, l) in &r {
                for p in l.iter() {
                    if !found.iter().any(|(_, f)| *f == p) {
                        found.push((*pid, p));
                    }
                }
            }
            match found.as_slice() {
                [(pid, one)] => {
                    Judged { state: SocketState::Pane, address: Some(one.display().to_string()), holder: Some(*pid) }
                }
                _ => Judged { state: SocketState::None, address: None, holder: None },
            }
        }
        (None, None) => Judged { state: SocketState::None, address: None, holder: None },
    }
}

/// `team route <seat>` from the working set. A run with no terminal is refused before the
/// team file is read, unless its own pane vouches for it; then the team file and the
/// registry, the caller through the file's multiplexer, and [`run`] with the live seams.
pub fn answer(ws: &Workspace, seat: &str, dry_run: bool) -> Result<Report, TeamError> {
    if !crate::caller::has_terminal() {
        let c = ws.caller_in(ws.reg()?, None, ws.mux(None).as_ref());
        if !matches!(c, Caller::Seat { .. }) {
            return Err(TeamError::new(Kind::Refused, NO_TERMINAL).with_id("route.no-terminal"));
        }
    }
    let load = send::Loadout::of(ws)?;
    let who = ws.caller()?.clone();
    let sm = send::Means::of(ws);
    let m = Means {
        send: &sm,
        listeners: crate::legs::native::listening_paths_of,
        identity: ProcessIdentity::read,
        exists: |p| p.exists(),
    };
    run(&m, load, who, seat, dry_run)
}

/// Answers the route for `spec`, as `caller`.
pub fn run(m: &Means, load: send::Loadout, caller: Caller, spec: &str, dry_run: bool) -> Result<Report, TeamError> {
    refuse_caller(&caller)?;
    // admission: the send's own code path
    let book = send::FactsBook::new(m.send.profiles);
    let d = send::decide(m.send, &book, load, caller, spec, "answered")?;
    let (project, session) = d.context();
    let seat = d.target.name().to_string();
    let Some(rec) = d.target.seat.agent.clone() else {
        return Err(refuse(
            "no-record",
            format!("{seat}: the registry holds no record of it; a route hands out a recorded address, and team up or team register writes the record"),
        ));
    };
    let Some(root) = d.root().map(Path::to_path_buf).or_else(|| rec.root.clone()) else {
        return Err(refuse(
            "no-root",
            format!("{seat}: its team's checkout is not known to the registry, so the route cannot be written down; no address was answered"),
        ));
    };
    let cli = rec.cli.clone().unwrap_or_else(|| d.target.cli().to_string());
    let team = &d.target.team;
    let rsession = rec.session.clone().unwrap_or_else(|| team.session.clone());
    let pins = team.file.as_ref().map(|f| f.profiles.clone()).unwrap_or_default();
    let (desc, _) = m.send.profiles.description(&cli, &pins)?;
    let mux = (m.send.mux)(team.file.as_ref().and_then(|f| f.multiplexer.as_deref()));
    let mux = mux.as_ref();
    // live resolution: named once, on its recorded pane, running its recorded CLI
    let pane = live_pane(mux, &rsession, &seat, rec.pane.as_deref())?;
    let (procs, read_error) = pane_processes(mux, &pane, &seat, &desc, &cli)?;
    // every process of the pane with the listening sockets it holds (`None`: unreadable)
    let readings: Option<Vec<Reading>> = procs
        .as_ref()
        .map(|(_, all, own)| all.iter().chain(own.iter()).map(|p| (p.pid, (m.listeners)(p.pid))).collect());
    let judged = judge_socket(rec.socket.as_deref(), readings.as_deref(), &m.exists);
    let unread_why = (judged.state == SocketState::Unread).then(|| match read_error {
        Some(e) => e,
        None => format!("the open files of pane {}'s processes cannot be read", pane.id),
    });
    let (state, address) = (judged.state, judged.address);
    // the process whose sessions-registry entry names the session: the socket's holder, else the CLI
    let holder = judged.holder.or_else(|| procs.as_ref().map(|(c, _, _)| c.pid));
    let cli_proc = procs.as_ref().map(|(c, _, _)| c);
    let recipient_session = recipient_session(m, &desc, cli_proc, holder, rec.native_session.as_deref());
    let native = desc.native_channel;
    let config = &m.send.ctx.paths.config;
    let record = history::routes_path(config, &history_project(&d), &root);
    let report = Report {
        project,
        session,
        seat: seat.clone(),
        agent: rec.id.clone(),
        recipient_session,
        cli,
        pane: pane.id.clone(),
        address,
        state,
        unread_why,
        native,
        rule: d.rule.words(),
        record,
        dry_run,
    };
    if dry_run {
        return Ok(report);
    }
    let record = write_down(m, &d, &root, &report)?;
    Ok(Report { record, ..report })
}

/// A caller no pane vouches for is answered no address: no terminal, a multiplexer that does
/// not answer, a pane that cannot vouch.
fn refuse_caller(caller: &Caller) -> Result<(), TeamError> {
    match caller {
        Caller::NoTerminal => Err(refuse("no-terminal", NO_TERMINAL.into())),
        Caller::Unreachable { why } => {
            Err(TeamError::new(Kind::Unreachable, format!("unreachable: {why}; no address was answered"))
                .with_id("route.unreachable"))
        }
        Caller::Blocked { why, repair } => {
            let mut e = refuse("caller", format!("{why}; no address was answered"));
            e.hints.extend(repair.clone());
            Err(e)
        }
        _ => Ok(()),
    }
}

/// The seat's address could not be resolved live: why.
fn unresolved(seat: &str, why: String) -> TeamError {
    refuse("unresolved", format!("{seat}: {why}; no address was answered"))
}

/// The one pane the multiplexer names the seat in `rsession`, which must be the pane its
/// record names (`recorded`).
fn live_pane(mux: &dyn Mux, rsession: &str, seat: &str, recorded: Option<&str>) -> Result<PaneInfo, TeamError> {
    let named = mux.named(rsession, seat).map_err(|e| unresolved(seat, e.to_string()))?;
    let pane = match named.as_slice() {
        [] => return Err(unresolved(seat, format!("{} names no pane {seat} in session \"{rsession}\"", mux.name()))),
        [one] => one.clone(),
        many => {
            return Err(unresolved(
                seat,
                format!("{} names {} panes {seat} in session \"{rsession}\"", mux.name(), many.len()),
            ))
        }
    };
    if let Some(p) = recorded.filter(|p| *p != pane.id) {
        return Err(unresolved(
            seat,
            format!(
                "{} names it on pane {}, but its record names pane {p}; a lead stops the team and starts it again (`team down`, then `team up`)",
                mux.name(),
                pane.id
            ),
        ));
    }
    Ok(pane)
}

/// A pane's CLI process, the tree below its shell, and its own first process.
type PaneProcs = (Proc, Vec<Proc>, Option<Proc>);

/// The pane's CLI process with every process of the pane (`None`: they cannot be read, and
/// herdr's own word says the CLI runs there), and why they could not be read.
fn pane_processes(
    mux: &dyn Mux,
    pane: &PaneInfo,
    seat: &str,
    desc: &Description,
    cli: &str,
) -> Result<(Option<PaneProcs>, Option<String>), TeamError> {
    match seat_pane::processes(mux, pane, seat) {
        Ok((procs, own)) => {
            let cli_proc = seat_pane::cli_process(&procs, own.clone(), &desc.process_names, pane.label.as_deref())
                .map_err(|_| {
                    unresolved(
                        seat,
                        format!(
                            "pane {} runs no `{}`, the CLI its record names ({cli})",
                            pane.id,
                            desc.process_names.first().map(String::as_str).unwrap_or(cli)
                        ),
                    )
                })?;
            Ok((Some((cli_proc, procs, own)), None))
        }
        // the pane's processes cannot be read: only herdr's own word that the CLI runs there
        Err(e) if pane.label.as_deref().is_some_and(|l| desc.process_names.iter().any(|n| n == l)) => {
            Ok((None, Some(e.to_string())))
        }
        Err(e) => Err(unresolved(seat, format!("pane {} could not be read: {e}", pane.id))),
    }
}

/// The name SendMessage addresses: the sessions-registry entry of the process in the pane
/// (`holder`), else the record's (`recorded`); none for a CLI with no native channel.
fn recipient_session(
    m: &Means,
    desc: &Description,
    cli: Option<&Proc>,
    holder: Option<u32>,
    recorded: Option<&str>,
) -> Option<String> {
    if !desc.native_channel {
        return None;
    }
    let home = cli.and_then(|c| c.home.clone()).or_else(|| m.send.ctx.home.clone());
    let live = match (holder.and_then(m.identity), home) {
        (Some(who), Some(h)) => crate::legs::native::session_name(desc, &h, who),
        _ => None,
    };
    live.or_else(|| recorded.map(str::to_string))
}

/// Writes the route down (the receiving project's `routes.jsonl`; refused when it cannot be)
/// and the team.log line. Returns the file written.
fn write_down(m: &Means, d: &send::Decision, root: &Path, report: &Report) -> Result<PathBuf, TeamError> {
    let (seat, native, state) = (&report.seat, report.native, report.state);
    let (spec_written, _) = d.target.spec_and_resolved();
    let line = RouteLine {
        ts: m.send.ctx.clock.now_iso(),
        from: match &d.caller {
            Caller::Seat { team, seat, .. } if *team != d.target.team.name => format!("{seat}@{team}"),
            c => c.from_name(),
        },
        to: seat.clone(),
        agent: report.agent.clone(),
        spec: spec_written,
        rule: report.rule.clone(),
        pane: report.pane.clone(),
        address: report.address.clone(),
        state: state.word().into(),
        native,
        recipient_session: report.recipient_session.clone(),
    };
    let config = &m.send.ctx.paths.config;
    let record = history::append_route(config, &history_project(d), root, &line).map_err(|e| {
        refuse("not-recorded", format!("{seat}: the route could not be written down ({e}); no address was answered"))
    })?;
    let _ = history::append_log(
        root,
        &m.send.ctx.clock.now_iso(),
        &LogLine {
            command: "route".into(),
            caller: d.caller.describe(),
            seat: Some(seat.clone()),
            outcome: "looked up".into(),
            bytes: None,
            detail: Some(format!("looked up {seat}: {}, native {}", state.word(), if native { "yes" } else { "no" })),
        },
    );
    Ok(record)
}

/// The project key the receiving team's history lives under (the send's own).
fn history_project(d: &send::Decision) -> String {
    d.target.team.file_project.clone().unwrap_or_else(|| d.target.team.project.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_socket_states() {
        let sock = "/run/cc-socks/10.sock";
        let p = |s: &str| PathBuf::from(s);
        let there = |_: &Path| true;
        let gone = |_: &Path| false;
        let holds = [(10, Some(vec![p(sock)])), (11, Some(vec![]))];
        let judged = |rec, r: Option<&[Reading]>, e: &dyn Fn(&Path) -> bool| {
            let j = judge_socket(rec, r, e);
            (j.state, j.address, j.holder)
        };
        // live: recorded, held by a process of the pane, the path there
        assert_eq!(judged(Some(sock), Some(&holds), &there), (SocketState::Live, Some(sock.into()), Some(10)));
        // stale: recorded, nobody in the pane holds it (or its path is gone)
        assert_eq!(
            judged(Some(sock), Some(&[(12, Some(vec![]))]), &there),
            (SocketState::Stale, Some(sock.into()), None)
        );
        assert_eq!(judged(Some(sock), Some(&holds), &gone).0, SocketState::Stale);
        // pane: none recorded, exactly one socket among the pane's processes
        assert_eq!(judged(None, Some(&holds), &there), (SocketState::Pane, Some(sock.into()), Some(10)));
        // unread: recorded, and the pane (or every process's open files) could not be read
        assert_eq!(judged(Some(sock), None, &there), (SocketState::Unread, Some(sock.into()), None));
        assert_eq!(judged(Some(sock), Some(&[(10, None)]), &there).0, SocketState::Unread);
        // none: nothing recorded and nothing (or more than one socket) found
        assert_eq!(judged(None, Some(&[(11, Some(vec![]))]), &there), (SocketState::None, None, None));
        let two = [(10, Some(vec![p(sock), p("/x.sock")]))];
        assert_eq!(judged(None, Some(&two), &there).0, SocketState::None);
        assert_eq!(judged(None, None, &there).0, SocketState::None);
    }
}

/// The rules item `team route --rules-item` prints, for the owner to paste into a team
/// file's `rules:` (spec "Telling a seat to use it"); no team file here carries it.
pub const RULES_ITEM: &str = "Deliver to another seat natively when team route <seat> admits the pair and answers native yes — route first, then your own cross-session SendMessage to the session the answer prints, then write the delivery down with team send --record <seat> --channel native --ms <n> — and fall back to plain team send <seat> <message> only on a definite failure, the route refused, the seat not Claude's, or your SendMessage call itself failed or reported no such session; a call that returned delivered the message, so record it native and never send it again however long an answer takes, and a delivery is recorded exactly once, by the path that delivered it.";

#[cfg(test)]
mod tests_herdr;
