//! `team route <seat>`: one seat's address for the native channel (spec/team-route.md). A
//! sender that delivers with its own cross-session tool asks here first, delivers itself, then
//! writes the delivery down with `team send --record`.
//!
//! The run: admission exactly as a send's (`cli::send::decide`: the same resolution, rules,
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

use serde::Serialize;

use crate::caller::Caller;
use crate::history::{self, LogLine};
use crate::mux::{Mux, MuxError};
use crate::outcome::{Kind, TeamError};
use crate::profiles::ProfileHost;
use crate::register::pane;
use crate::registry::{ProcessIdentity, Registry};
use crate::team_file::Loaded;

/// What the socket reading found (spec "The address").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
        format!(
            "{}: routed at {} ({})",
            self.seat,
            self.address.as_deref().unwrap_or("no socket"),
            self.state.word()
        )
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
pub const NO_TERMINAL: &str = crate::cli::send::NO_TERMINAL;

fn refuse(id: &str, msg: String) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("route.{id}"))
}

/// What a route is given.
pub struct Means<'a> {
    pub profiles: &'a ProfileHost,
    /// The multiplexer adapter for a team file's `multiplexer:` choice.
    pub mux: &'a dyn Fn(Option<&str>) -> Box<dyn Mux>,
}

/// Answers the route for `spec`, as `caller`.
pub fn run(
    m: &Means,
    file: Option<Loaded>,
    reg: &Registry,
    caller: Caller,
    spec: &str,
    dry_run: bool,
) -> Result<Report, TeamError> {
    match &caller {
        Caller::NoTerminal => return Err(refuse("no-terminal", NO_TERMINAL.into())),
        Caller::Blocked { why, repair } => {
            let mut e = refuse("caller", format!("{why}; no address was answered"));
            e.repair = repair.clone();
            return Err(e);
        }
        _ => {}
    }
    // admission: the send's own code path
    let d = crate::cli::send::decide(file, reg, caller, spec)?;
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
    let (desc, _) = m.profiles.description(&cli, &pins)?;
    let mux = (m.mux)(team.file.as_ref().and_then(|f| f.multiplexer.as_deref()));
    let mux = mux.as_ref();
    let none = |why: String| refuse("unresolved", format!("{seat}: {why}; no address was answered"));
    // live resolution: named once, on its recorded pane, running its recorded CLI
    let named = mux.named(&rsession, &seat).map_err(|e| none(e.to_string()))?;
    let pane = match named.as_slice() {
        [] => return Err(none(format!("{} names no pane {seat} in session \"{rsession}\"", mux.name()))),
        [one] => one.clone(),
        many => {
            return Err(none(format!("{} names {} panes {seat} in session \"{rsession}\"", mux.name(), many.len())))
        }
    };
    if let Some(p) = rec.pane.as_deref().filter(|p| *p != pane.id) {
        return Err(none(format!(
            "{} names it on pane {}, but its record names pane {p}; a lead stops the team and starts it again (`team down`, then `team up`)",
            mux.name(),
            pane.id
        )));
    }
    let read = pane::processes(mux, &pane, &seat);
    let procs = match &read {
        Ok((procs, own)) => {
            let cli_proc = pane::cli_process(procs, own.clone(), &desc.process_names, pane.label.as_deref())
                .map_err(|_| {
                    none(format!(
                        "pane {} runs no `{}`, the CLI its record names ({cli})",
                        pane.id,
                        desc.process_names.first().map(String::as_str).unwrap_or(&cli)
                    ))
                })?;
            Some((cli_proc, procs.clone(), own.clone()))
        }
        // the pane's processes cannot be read: only herdr's own word that the CLI runs there
        Err(_) if pane.label.as_deref().is_some_and(|l| desc.process_names.iter().any(|n| n == l)) => None,
        Err(e) => return Err(none(format!("pane {} could not be read: {e}", pane.id))),
    };
    let mut unread_why = None;
    let (state, address, holder) = match (&rec.socket, &procs) {
        (Some(path), None) => {
            unread_why = read.as_ref().err().map(MuxError::to_string);
            (SocketState::Unread, Some(path.clone()), None)
        }
        (Some(path), Some((cli_proc, all, own))) => {
            let mut everyone: Vec<u32> = all.iter().map(|p| p.pid).collect();
            everyone.extend(own.as_ref().map(|o| o.pid));
            let readable: Vec<(u32, Option<Vec<PathBuf>>)> =
                everyone.iter().map(|pid| (*pid, crate::native::listening_paths_of(*pid))).collect();
            if readable.iter().all(|(_, l)| l.is_none()) {
                unread_why = Some(format!("the open files of pane {}'s processes cannot be read", pane.id));
                (SocketState::Unread, Some(path.clone()), None)
            } else {
                let held = readable
                    .iter()
                    .find(|(_, l)| l.as_ref().is_some_and(|l| l.iter().any(|p| Path::new(path) == p)))
                    .map(|(pid, _)| *pid);
                match held.filter(|_| Path::new(path).exists()) {
                    Some(pid) => (SocketState::Live, Some(path.clone()), Some(pid)),
                    None => (SocketState::Stale, Some(path.clone()), Some(cli_proc.pid)),
                }
            }
        }
        (None, Some((cli_proc, all, own))) => {
            let mut found: Vec<(u32, PathBuf)> = Vec::new();
            for p in all.iter().chain(own.iter()) {
                for s in crate::native::listening_paths(p.pid) {
                    if !found.iter().any(|(_, f)| *f == s) {
                        found.push((p.pid, s));
                    }
                }
            }
            match found.as_slice() {
                [(pid, one)] => (SocketState::Pane, Some(one.display().to_string()), Some(*pid)),
                _ => (SocketState::None, None, Some(cli_proc.pid)),
            }
        }
        (None, None) => (SocketState::None, None, None),
    };
    // the name SendMessage addresses: the entry of the process in the pane, else the record's
    let recipient_session = if desc.native_channel {
        let home = procs
            .as_ref()
            .and_then(|(c, _, _)| c.home.clone())
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from));
        let live = match (holder.and_then(ProcessIdentity::read), home) {
            (Some(who), Some(h)) => crate::native::session_name(&desc, &h, who),
            _ => None,
        };
        live.or_else(|| rec.native_session.clone())
    } else {
        None
    };
    let native = desc.native_channel;
    let record = history::routes_path(&history_project(&d), &root);
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
    let (spec_written, _) = d.target.spec_and_resolved();
    let line = RouteLine {
        ts: crate::clock::now_iso(),
        from: match &d.caller {
            Caller::Seat { team, seat, .. } if *team != d.target.team.name => format!("{seat}@{team}"),
            c => c.from_name(),
        },
        to: seat.clone(),
        agent: rec.id.clone(),
        spec: spec_written,
        rule: report.rule.clone(),
        pane: report.pane.clone(),
        address: report.address.clone(),
        state: state.word().into(),
        native,
        recipient_session: report.recipient_session.clone(),
    };
    let record = history::append_route(&history_project(&d), &root, &line).map_err(|e| {
        refuse("not-recorded", format!("{seat}: the route could not be written down ({e}); no address was answered"))
    })?;
    let _ = history::append_log(
        &root,
        &LogLine {
            command: "route".into(),
            caller: d.caller.describe(),
            seat: Some(seat.clone()),
            outcome: "looked up".into(),
            bytes: None,
            detail: Some(format!("looked up {seat}: {}, native {}", state.word(), if native { "yes" } else { "no" })),
        },
    );
    Ok(Report { record, ..report })
}

/// The project key the receiving team's history lives under (the send's own).
fn history_project(d: &crate::cli::send::Decision) -> String {
    d.target.team.file_project.clone().unwrap_or_else(|| d.target.team.project.clone())
}

/// The rules item `team route --rules-item` prints, for the owner to paste into a team
/// file's `rules:` (spec "Telling a seat to use it"); no team file here carries it.
pub const RULES_ITEM: &str = "Deliver to another seat natively when team route <seat> admits the pair and answers native yes — route first, then your own cross-session SendMessage to the session the answer prints, then write the delivery down with team send --record <seat> --channel native --ms <n> — and fall back to plain team send <seat> <message> only on a definite failure, the route refused, the seat not Claude's, or your SendMessage call itself failed or reported no such session; a call that returned delivered the message, so record it native and never send it again however long an answer takes, and a delivery is recorded exactly once, by the path that delivered it.";
