//! The registry's writers for one seat, as a launch (or `team register`) writes them: the agent
//! record, the team record's project pointers and the seat's roster line; and the process
//! identity an agent record carries.
//!
//! Invariant: `teams.yaml` is read and rewritten under `<config>/teams.lock`, so two runs
//! writing seats at once never lose each other's lines.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{write_agent, write_teams, AgentRecord, Registry, RosterLine};
use crate::error::{self, TeamError};
use crate::fsx;

/// One process for good: its pid and its start time in clock ticks since boot (field 22 of
/// `/proc/<pid>/stat`). A pid the kernel hands to another process starts at another time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessIdentity {
    pub pid: u32,
    pub start: u64,
}

impl ProcessIdentity {
    /// The identity of the running process `pid`, when `/proc` shows it.
    pub fn read(pid: u32) -> Option<ProcessIdentity> {
        crate::mux::procfs::start_time(pid).map(|start| ProcessIdentity { pid, start })
    }
    /// Whether this very process still runs (its pid shows the same start time).
    pub fn alive(&self) -> bool {
        crate::mux::procfs::start_time(self.pid) == Some(self.start)
    }
    /// Whether this very process still runs in the pane whose shell is `shell`: alive, and the
    /// shell itself or one of its descendants (any pane, when the shell is not known).
    pub fn runs_in(&self, shell: Option<u32>) -> bool {
        if !self.alive() {
            return false;
        }
        let Some(shell) = shell else { return true };
        let mut cur = self.pid;
        for _ in 0..4096 {
            if cur == shell {
                return true;
            }
            match crate::mux::procfs::parent_of(cur) {
                Some(p) if p != 0 && p != cur => cur = p,
                _ => return false,
            }
        }
        false
    }
}

/// A team's project pointers, as the team file gives them: what a launch writes into the
/// team's record (and a repair writes again).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TeamPointers {
    pub entity: Option<String>,
    pub project: String,
    pub session: String,
    pub root: PathBuf,
}

/// What writing one seat's registry records found and did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatWrite {
    /// The registry held no record of the team: the team record was written.
    pub team_was_missing: bool,
    /// The team's roster did not list the seat: its line was written.
    pub roster_was_missing: bool,
}

/// What [`write_seat`] would find, without writing: whether the team record and the seat's
/// roster line are missing.
pub fn seat_gaps(reg: &Registry, team: &str, seat: &str) -> SeatWrite {
    let t = reg.team(team);
    SeatWrite { team_was_missing: t.is_none(), roster_was_missing: reg.roster_line(team, seat).is_none() }
}

/// Writes the registry's records of one seat exactly as a launch writes them: the agent record
/// whole; the team record (created when missing, its project pointers set from the file — an
/// entity the registry already names for the team is kept when the file names none); the
/// seat's roster line (replacing the seat's old line, others untouched). `teams.yaml` is read
/// and rewritten under `<config>/teams.lock`, so two runs never lose each other's lines.
pub fn write_seat(
    dir: &Path,
    team: &str,
    pointers: &TeamPointers,
    line: &RosterLine,
    rec: &AgentRecord,
) -> error::Result<SeatWrite> {
    let fail = |e: std::io::Error| TeamError::failed(e.to_string());
    fsx::ensure_dirs(dir, Path::new(""), 0o700).map_err(fail)?;
    let lock = fsx::open_append(&dir.join("teams.lock"), 0o600).map_err(fail)?;
    let _held = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| TeamError::failed(format!("{}: {e}", dir.join("teams.lock").display())))?;
    let fresh = Registry::load(dir)?;
    let mut teams = fresh.teams.clone();
    teams.format = teams.format.max(1);
    let gaps = seat_gaps(&fresh, team, &line.seat);
    let t = teams.teams.entry(team.to_string()).or_default();
    if pointers.entity.is_some() {
        t.entity = pointers.entity.clone();
    }
    t.project = Some(pointers.project.clone());
    t.session = Some(pointers.session.clone());
    t.root = Some(pointers.root.clone());
    match t.roster.iter_mut().find(|l| l.seat == line.seat) {
        Some(l) => *l = line.clone(),
        None => t.roster.push(line.clone()),
    }
    write_agent(dir, rec)?;
    write_teams(dir, &teams)?;
    Ok(gaps)
}

/// What [`rename_seat`] moved: the agent records (by id, each keeping it) and whether the
/// team's roster listed the seat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatRename {
    pub agents: Vec<String>,
    pub roster: bool,
}

impl SeatRename {
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty() && !self.roster
    }
}

/// What the registry holds for `seat` of `team`: its agent records' ids and whether the roster
/// lists it (`team rename` asks for the old name and the new one before it writes).
pub fn seat_records(reg: &Registry, team: &str, seat: &str) -> SeatRename {
    SeatRename {
        agents: reg.agents_for(team, seat).into_iter().map(|a| a.id.clone()).collect(),
        roster: reg.roster_line(team, seat).is_some(),
    }
}

/// Renames `seat` of `team` to `new` in the registry: every agent record holding it is written
/// again with the new seat (its id, and so its file, kept), and its roster line names the new
/// seat (its agent, nickname, role and marks kept). Under `<config>/teams.lock`, read fresh:
/// a record or roster line the new name already holds refuses the whole rename, nothing
/// written — it belongs to another seat.
pub fn rename_seat(dir: &Path, team: &str, seat: &str, new: &str) -> error::Result<SeatRename> {
    let fail = |e: std::io::Error| TeamError::failed(e.to_string());
    if !fsx::check_entry(dir).map_err(fail)? {
        return Ok(SeatRename::default());
    }
    let lock = fsx::open_append(&dir.join("teams.lock"), 0o600).map_err(fail)?;
    let _held = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| TeamError::failed(format!("{}: {e}", dir.join("teams.lock").display())))?;
    let fresh = Registry::load(dir)?;
    let taken = seat_records(&fresh, team, new);
    if !taken.is_empty() {
        return Err(TeamError::failed(format!(
            "the registry already holds {new}@{team} ({}); nothing was renamed there",
            taken.agents.first().map(String::as_str).unwrap_or("a roster line")
        )));
    }
    let moved = seat_records(&fresh, team, seat);
    for a in fresh.agents_for(team, seat) {
        write_agent(dir, &AgentRecord { seat: new.to_string(), ..a.clone() })?;
    }
    if moved.roster {
        let mut teams = fresh.teams.clone();
        if let Some(l) = teams.teams.get_mut(team).and_then(|t| t.roster.iter_mut().find(|l| l.seat == seat)) {
            l.seat = new.to_string();
        }
        write_teams(dir, &teams)?;
    }
    Ok(moved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, team: &str, seat: &str) -> AgentRecord {
        AgentRecord { id: id.into(), seat: seat.into(), team: team.into(), ..Default::default() }
    }

    #[test]
    fn a_seat_write_adds_the_team_and_the_roster_line_once() {
        let d = tempfile::tempdir().unwrap();
        let p = TeamPointers { entity: None, project: "beacon".into(), session: "beacon".into(), root: "/r".into() };
        let line = RosterLine { seat: "a".into(), agent: Some("agt_00000000000000a1".into()), ..Default::default() };
        let rec = rec("agt_00000000000000a1", "beacon", "a");
        let w = write_seat(d.path(), "beacon", &p, &line, &rec).unwrap();
        assert!(w.team_was_missing && w.roster_was_missing);
        let b = RosterLine { seat: "b".into(), ..Default::default() };
        let w = write_seat(d.path(), "beacon", &p, &b, &rec).unwrap();
        assert!(!w.team_was_missing && w.roster_was_missing);
        let w = write_seat(d.path(), "beacon", &p, &line, &rec).unwrap();
        assert_eq!(w, SeatWrite::default());
        let r = Registry::load(d.path()).unwrap();
        assert_eq!(r.team("beacon").unwrap().roster.len(), 2);
        assert_eq!(r.team("beacon").unwrap().root.as_deref(), Some(Path::new("/r")));
        assert_eq!(r.agent_for("beacon", "a").unwrap().id, "agt_00000000000000a1");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(d.path().join("teams.yaml")).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_renamed_seat_keeps_its_id_and_its_roster_line() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(rename_seat(&d.path().join("none"), "beacon", "lead", "k").unwrap(), SeatRename::default());
        assert!(!d.path().join("none").exists(), "no registry, nothing made");
        let p = TeamPointers { entity: None, project: "beacon".into(), session: "beacon".into(), root: "/r".into() };
        let id = "agt_00000000000000a1";
        let line = RosterLine {
            seat: "lead".into(),
            agent: Some(id.into()),
            nickname: Some("ag".into()),
            leads: true,
            ..Default::default()
        };
        let lead = AgentRecord { pane: Some("%3".into()), ..rec(id, "beacon", "lead") };
        write_seat(d.path(), "beacon", &p, &line, &lead).unwrap();
        // the same seat name in another team is another seat
        let other =
            RosterLine { seat: "lead".into(), agent: Some("agt_00000000000000b2".into()), ..Default::default() };
        write_seat(d.path(), "api", &p, &other, &rec("agt_00000000000000b2", "api", "lead")).unwrap();
        let moved = rename_seat(d.path(), "beacon", "lead", "keeper2").unwrap();
        assert_eq!(moved, SeatRename { agents: vec![id.into()], roster: true });
        let r = Registry::load(d.path()).unwrap();
        let a = r.agent_for("beacon", "keeper2").unwrap();
        assert_eq!((a.id.as_str(), a.pane.as_deref()), (id, Some("%3")));
        let l = r.roster_line("beacon", "keeper2").unwrap();
        assert!(l.leads && l.nickname.as_deref() == Some("ag") && l.agent.as_deref() == Some(id));
        assert!(r.agent_for("beacon", "lead").is_none() && r.roster_line("beacon", "lead").is_none());
        assert_eq!(r.agent_for("api", "lead").unwrap().id, "agt_00000000000000b2");
        // a name the registry already holds for the team refuses, writing nothing
        write_seat(
            d.path(),
            "beacon",
            &p,
            &RosterLine { seat: "b".into(), ..Default::default() },
            &rec("agt_00000000000000c3", "beacon", "b"),
        )
        .unwrap();
        let e = rename_seat(d.path(), "beacon", "keeper2", "b").unwrap_err();
        assert_eq!(
            e.message(),
            "the registry already holds b@beacon (agt_00000000000000c3); nothing was renamed there"
        );
        assert!(Registry::load(d.path()).unwrap().agent_for("beacon", "keeper2").is_some());
    }
}
