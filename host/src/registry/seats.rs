//! The registry's writers for one seat, as a launch (or `team register`) writes them: the agent
//! record, the team record's project pointers and the seat's roster line; and the process
//! identity an agent record carries.
//!
//! Invariant: `teams.yaml` is read and rewritten under `<config>/teams.lock`, so two runs
//! writing seats at once never lose each other's lines.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{write_agent, write_teams, AgentRecord, Registry, RosterLine};
use crate::fsx;
use crate::outcome::{self, TeamError};

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
) -> outcome::Result<SeatWrite> {
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
}
