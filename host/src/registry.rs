//! The owner's registry under `<config>`: one file per agent (`agents/<agt_id>.yaml`), the
//! teams file (`teams.yaml`: teams with their rosters, projects, entities, the default
//! entity) and the owner-signed grants (`grants/*.yaml`). The formats are written down in
//! `docs/registry.md`.
//!
//! Invariant: every file is read through `fsx` (a symbolic link or FIFO on the ladder from
//! `<config>` down is refused, never followed). An agent id is assigned once and never
//! reused: `new_agent_id` checks both the records and the ledger of ids ever issued.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{self, At, IoAt, TeamError};
use crate::fsx;

mod approvals;
mod check;
mod grants;
mod seats;
pub use approvals::{grants_naming, verify_up, UpApproval};
pub(crate) use grants::grant_files;
pub use grants::{read_send_grants, send_grants, Grant};
pub use seats::{
    rename_seat, seat_gaps, seat_records, write_seat, ProcessIdentity, SeatRename, SeatWrite, TeamPointers,
};

/// One agent record: `<config>/agents/<id>.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentRecord {
    /// `agt_` + 16 lower-case hex digits; the file's own name.
    pub id: String,
    /// Display only: never an address, never judged.
    #[serde(default)]
    pub name: Option<String>,
    /// The seat this agent holds, as its team file names it.
    pub seat: String,
    /// The team (its registry name) the seat belongs to.
    pub team: String,
    /// The multiplexer session the seat runs in.
    #[serde(default)]
    pub session: Option<String>,
    /// The profile id of the seat's CLI (`claude-code`, `codex`, …).
    #[serde(default)]
    pub cli: Option<String>,
    /// The project the team sits in.
    #[serde(default)]
    pub project: Option<String>,
    /// The checkout root holding the team's `.agents/`.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// The pane the seat was last launched or registered on (`w1:p1`, `%3`); absent until then.
    #[serde(default)]
    pub pane: Option<String>,
    /// The recorded native-channel address (a socket path), when one was read.
    #[serde(default)]
    pub socket: Option<String>,
    /// The name the seat's native session answers to (Claude Code: the `name` of its
    /// sessions-registry entry, what SendMessage addresses), read with the socket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_session: Option<String>,
    /// The seat's CLI process as registered: pid and start time, so a reused pid is never
    /// taken for the seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<ProcessIdentity>,
    /// When the record was first written (RFC 3339).
    #[serde(default)]
    pub created: Option<String>,
}

impl AgentRecord {
    /// The display name, falling back to the seat.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.seat)
    }
}

/// One roster line of a team in `teams.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RosterLine {
    pub seat: String,
    /// The agent id holding the seat.
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default)]
    pub nickname: Option<String>,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub cli: Option<String>,
    /// The lead mark, carried from the file's `leads: true` or legacy `coordinator:` key.
    #[serde(default)]
    pub leads: bool,
    #[serde(default)]
    pub assistant: bool,
    #[serde(default)]
    pub stopped: bool,
}

/// One team in `teams.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TeamRecord {
    /// The entity the team belongs to; absent: the default entity.
    #[serde(default)]
    pub entity: Option<String>,
    /// The registry project the team is grouped under.
    #[serde(default)]
    pub project: Option<String>,
    #[serde(default)]
    pub session: Option<String>,
    /// The checkout root holding the team's `.agents/team.yaml`.
    #[serde(default)]
    pub root: Option<PathBuf>,
    #[serde(default)]
    pub roster: Vec<RosterLine>,
}

/// One project in `teams.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProjectRecord {
    #[serde(default)]
    pub delivery_order: Option<Vec<String>>,
}

/// One entity in `teams.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityRecord {
    /// The entity's own team: first in its chain order.
    #[serde(default)]
    pub team: Option<String>,
    #[serde(default)]
    pub delivery_order: Option<Vec<String>>,
}

/// `<config>/teams.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TeamsFile {
    #[serde(default = "one")]
    pub format: u32,
    #[serde(default)]
    pub default_entity: Option<String>,
    #[serde(default)]
    pub entities: BTreeMap<String, EntityRecord>,
    #[serde(default)]
    pub projects: BTreeMap<String, ProjectRecord>,
    #[serde(default)]
    pub teams: BTreeMap<String, TeamRecord>,
}

fn one() -> u32 {
    1
}

/// The name used for the entity when neither a team file nor the registry names one.
pub const IMPLICIT_ENTITY: &str = "default";

/// The registry as read from `<config>`.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    pub dir: PathBuf,
    pub agents: Vec<AgentRecord>,
    pub teams: TeamsFile,
    /// Files that were passed over (a symlink, a malformed record): said, never followed.
    pub notes: Vec<String>,
}

fn bad(path: &Path, msg: impl std::fmt::Display) -> TeamError {
    TeamError::bad_file(format!("{}: {msg}", path.display()))
}

/// Checks a registry-level delivery order (same words as the team file's).
fn check_order(path: &Path, where_: &str, order: &Option<Vec<String>>) -> error::Result<()> {
    let Some(o) = order else { return Ok(()) };
    if o.is_empty() {
        return Err(bad(path, format!("{where_}: delivery_order: names no leg")));
    }
    for (i, w) in o.iter().enumerate() {
        if crate::vocab::leg::Leg::from_order_word(w).is_none() {
            return Err(bad(path, format!("{where_}: delivery_order: unknown leg \"{w}\"")));
        }
        if o[..i].contains(w) {
            return Err(bad(path, format!("{where_}: delivery_order: leg \"{w}\" is named twice")));
        }
    }
    Ok(())
}

/// Why one agent record is passed over (it then addresses nobody); its words follow the
/// record's path in the registry's note.
#[derive(Debug, thiserror::Error)]
enum PassedOver {
    #[error("vanished")]
    Vanished,
    #[error(transparent)]
    Unreadable(#[from] std::io::Error),
    #[error("line {line}: {words}")]
    Malformed { line: String, words: String },
    #[error("id \"{0}\" is not the file's own name")]
    NotItsName(String),
}

impl Registry {
    /// Reads the registry under `dir`. A missing registry is an empty one. A malformed
    /// `teams.yaml`, or a symlink/FIFO at `dir`, `teams.yaml` or `agents/`, is a `BadFile`
    /// error; a single agent record that is a symlink or malformed is passed over (noted),
    /// so it addresses nobody.
    pub fn load(dir: &Path) -> error::Result<Registry> {
        let mut reg = Registry { dir: dir.to_path_buf(), ..Default::default() };
        if !fsx::check_entry(dir).at(dir).map_err(IoAt::bad_file)? {
            return Ok(reg);
        }
        // Another user who could write here could plant records and grants.
        for d in [dir.to_path_buf(), dir.join("agents"), dir.join("grants")] {
            fsx::check_private(&d).at(&d).map_err(IoAt::bad_file)?;
        }
        let teams_path = dir.join("teams.yaml");
        if let Some(text) = fsx::read_capped(&teams_path, fsx::TEXT_MAX).at(&teams_path).map_err(IoAt::bad_file)? {
            if !text.trim().is_empty() {
                let t: TeamsFile = serde_saphyr::from_str(&text).map_err(|e| {
                    bad(&teams_path, format!("line {}: {}", crate::yaml::line(&e), crate::yaml::words(&e)))
                })?;
                check::teams(&text).map_err(|m| bad(&teams_path, m))?;
                for (n, e) in &t.entities {
                    check_order(&teams_path, &format!("entity {n}"), &e.delivery_order)?;
                }
                for (n, p) in &t.projects {
                    check_order(&teams_path, &format!("project {n}"), &p.delivery_order)?;
                }
                reg.teams = t;
            }
        }
        let agents_dir = dir.join("agents");
        if fsx::check_entry(&agents_dir).at(&agents_dir).map_err(IoAt::bad_file)? {
            let mut names: Vec<_> = std::fs::read_dir(&agents_dir)
                .map_err(|e| bad(&agents_dir, e))?
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".yaml") && !n.starts_with('.'))
                .collect();
            names.sort();
            for n in names {
                let p = agents_dir.join(&n);
                match read_agent(&p)? {
                    Ok(r) => reg.agents.push(r),
                    Err(why) => reg.notes.push(format!("{}: {why}; passed over", p.display())),
                }
            }
        }
        Ok(reg)
    }

    /// The agent record with this id.
    pub fn agent(&self, id: &str) -> Option<&AgentRecord> {
        self.agents.iter().find(|a| a.id == id)
    }

    /// The agent records holding `seat` of `team`.
    pub fn agents_for(&self, team: &str, seat: &str) -> Vec<&AgentRecord> {
        self.agents.iter().filter(|a| a.team == team && a.seat == seat).collect()
    }

    /// The one agent record for `seat` of `team`: through the roster's `agent` first, then
    /// the records by seat name (exactly one).
    pub fn agent_for(&self, team: &str, seat: &str) -> Option<&AgentRecord> {
        if let Some(id) = self.roster_line(team, seat).and_then(|l| l.agent.as_deref()) {
            if let Some(a) = self.agent(id).filter(|a| a.team == team && a.seat == seat) {
                return Some(a);
            }
        }
        let all = self.agents_for(team, seat);
        if all.len() == 1 {
            Some(all[0])
        } else {
            None
        }
    }

    pub fn team(&self, name: &str) -> Option<&TeamRecord> {
        self.teams.teams.get(name)
    }

    pub fn roster_line(&self, team: &str, seat: &str) -> Option<&RosterLine> {
        self.team(team).and_then(|t| t.roster.iter().find(|l| l.seat == seat))
    }

    /// The entity a team belongs to: the team file's word (when given), else the team
    /// record's, else the registry's default entity, else `default`.
    pub fn entity_of(&self, team: &str, file_entity: Option<&str>) -> String {
        file_entity
            .map(str::to_string)
            .or_else(|| self.team(team).and_then(|t| t.entity.clone()))
            .unwrap_or_else(|| self.default_entity())
    }

    pub fn default_entity(&self) -> String {
        self.teams.default_entity.clone().unwrap_or_else(|| IMPLICIT_ENTITY.to_string())
    }

    /// The entity's teams in chain order: its own team first, then the others by team id.
    /// `own` adds the calling file's team when the registry does not list it yet.
    pub fn entity_teams(&self, entity: &str, own: Option<&str>) -> Vec<String> {
        let mut v: Vec<String> =
            self.teams.teams.keys().filter(|t| self.entity_of(t, None) == entity).cloned().collect();
        if let Some(o) = own {
            if !v.iter().any(|t| t == o) {
                v.push(o.to_string());
            }
        }
        v.sort();
        if let Some(first) = self.teams.entities.get(entity).and_then(|e| e.team.clone()) {
            if let Some(i) = v.iter().position(|t| *t == first) {
                let t = v.remove(i);
                v.insert(0, t);
            }
        }
        v
    }

    /// The registry project a team is grouped under, if the machine has one.
    pub fn project_of(&self, team: &str) -> Option<&str> {
        self.team(team).and_then(|t| t.project.as_deref())
    }

    pub fn project_order(&self, project: &str) -> Option<&Vec<String>> {
        self.teams.projects.get(project).and_then(|p| p.delivery_order.as_ref())
    }

    pub fn entity_order(&self, entity: &str) -> Option<&Vec<String>> {
        self.teams.entities.get(entity).and_then(|e| e.delivery_order.as_ref())
    }
}

/// Reads one agent record; a symlink, FIFO, malformed file or a record whose id is not its
/// file name is `Ok(Err(why))` (the caller passes it over). A record that parses but names a
/// seat, team, session, project, root or pane outside its grammar refuses the registry: its
/// words become paths.
fn read_agent(path: &Path) -> error::Result<Result<AgentRecord, PassedOver>> {
    let text = match fsx::read_capped(path, fsx::RECORD_MAX) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(Err(PassedOver::Vanished)),
        Err(e) => return Ok(Err(e.into())),
    };
    let r: AgentRecord = match serde_saphyr::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            let (line, words) = (crate::yaml::line(&e).to_string(), crate::yaml::words(&e).to_string());
            return Ok(Err(PassedOver::Malformed { line, words }));
        }
    };
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if !crate::vocab::names::is_agent_id(&r.id) || r.id != stem {
        return Ok(Err(PassedOver::NotItsName(r.id)));
    }
    check::agent(&text).map_err(|m| bad(path, m))?;
    Ok(Ok(r))
}

/// The ledger of every agent id ever issued (`<config>/agents/.issued`), so an id whose
/// record was removed is still never issued again.
fn ledger(dir: &Path) -> PathBuf {
    dir.join("agents").join(".issued")
}

/// Assigns a fresh agent id under `dir` (`<config>`): `agt_` + 16 hex digits that no record
/// and no ledger line has ever held, appended to the ledger before it is returned.
/// A seeded `ids` (`TEAM_ID_SEED`) makes the sequence deterministic for tests; the checks
/// still apply.
pub fn new_agent_id(dir: &Path, ids: &crate::clock::Ids) -> error::Result<String> {
    let agents = fsx::ensure_dirs(dir, Path::new("agents"), 0o700).at(dir.join("agents"))?;
    let path = ledger(dir);
    let issued = fsx::read_to_string(&path).at(&path)?.unwrap_or_default();
    for _ in 0..64 {
        let raw = ids.new_id().replace('-', "");
        let id = format!("agt_{}", &raw[raw.len() - 16..]);
        let record = agents.join(format!("{id}.yaml"));
        let taken = issued.lines().any(|l| l.trim() == id) || fsx::check_entry(&record).at(&record)?;
        if taken {
            continue;
        }
        let mut f = fsx::open_append(&path, 0o600).at(&path)?;
        f.write_all(format!("{id}\n").as_bytes()).at(&path)?;
        return Ok(id);
    }
    Err(TeamError::failed("could not find an agent id never issued before"))
}

/// Writes an agent record whole (temp + rename, mode 0600) — for tests and the register work.
pub fn write_agent(dir: &Path, rec: &AgentRecord) -> error::Result<PathBuf> {
    if !crate::vocab::names::is_agent_id(&rec.id) {
        return Err(TeamError::failed(format!("\"{}\" is not an agent id", rec.id)));
    }
    let agents = fsx::ensure_dirs(dir, Path::new("agents"), 0o700).at(dir.join("agents"))?;
    let path = agents.join(format!("{}.yaml", rec.id));
    let text = serde_saphyr::to_string(rec).map_err(|e| TeamError::failed(e.to_string()))?;
    fsx::write_atomic(&path, text.as_bytes(), 0o600).at(&path)?;
    Ok(path)
}

/// Writes `teams.yaml` whole (temp + rename, mode 0600).
pub fn write_teams(dir: &Path, t: &TeamsFile) -> error::Result<PathBuf> {
    fsx::ensure_dirs(dir, Path::new(""), 0o700).at(dir)?;
    let path = dir.join("teams.yaml");
    let text = serde_saphyr::to_string(t).map_err(|e| TeamError::failed(e.to_string()))?;
    fsx::write_atomic(&path, text.as_bytes(), 0o600).at(&path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, team: &str, seat: &str) -> AgentRecord {
        AgentRecord { id: id.into(), seat: seat.into(), team: team.into(), ..Default::default() }
    }

    #[test]
    fn missing_registry_is_empty() {
        let d = tempfile::tempdir().unwrap();
        let r = Registry::load(&d.path().join("nope")).unwrap();
        assert!(r.agents.is_empty() && r.teams.teams.is_empty());
        assert_eq!(r.default_entity(), "default");
    }

    #[test]
    fn records_round_trip_and_bad_ones_are_passed_over() {
        let d = tempfile::tempdir().unwrap();
        let a = rec("agt_00000000000000a1", "beacon", "claude-keeper");
        write_agent(d.path(), &a).unwrap();
        // a record whose id is not its file name, a malformed one, and a symlink
        std::fs::write(
            d.path().join("agents/agt_00000000000000b2.yaml"),
            "id: agt_00000000000000ff\nseat: x\nteam: y\n",
        )
        .unwrap();
        std::fs::write(d.path().join("agents/agt_00000000000000c3.yaml"), "id: [\n").unwrap();
        std::os::unix::fs::symlink(
            d.path().join("agents/agt_00000000000000a1.yaml"),
            d.path().join("agents/agt_00000000000000d4.yaml"),
        )
        .unwrap();
        let r = Registry::load(d.path()).unwrap();
        assert_eq!(r.agents, vec![a]);
        assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
        assert!(r.notes.iter().any(|n| n.contains("symbolic link")));
    }

    #[test]
    fn teams_file_reads_rosters_entities_and_orders() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("teams.yaml"),
            "format: 1\ndefault_entity: labs\nentities:\n  labs:\n    team: web\n    delivery_order: [typed]\nprojects:\n  beacon:\n    delivery_order: [native, typed]\nteams:\n  api:\n    project: beacon\n    roster:\n      - seat: a\n        leads: true\n  web:\n    entity: labs\n  zed:\n    entity: other\n",
        )
        .unwrap();
        let r = Registry::load(d.path()).unwrap();
        assert_eq!(r.default_entity(), "labs");
        assert_eq!(r.entity_of("api", None), "labs");
        assert_eq!(r.entity_of("api", Some("x")), "x");
        assert_eq!(r.entity_teams("labs", Some("mine")), vec!["web", "api", "mine"]);
        assert_eq!(r.project_of("api"), Some("beacon"));
        assert_eq!(r.project_order("beacon").unwrap(), &vec!["native".to_string(), "typed".to_string()]);
        assert_eq!(r.entity_order("labs").unwrap(), &vec!["typed".to_string()]);
        assert!(r.roster_line("api", "a").unwrap().leads);
    }

    #[test]
    fn a_bad_registry_order_refuses_the_file() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("teams.yaml"), "projects:\n  beacon:\n    delivery_order: [fax]\n").unwrap();
        let e = Registry::load(d.path()).unwrap_err();
        assert_eq!(e.kind, error::Kind::BadFile);
        assert!(e.message().ends_with("project beacon: delivery_order: unknown leg \"fax\""), "{}", e.message());
    }

    #[test]
    fn agent_ids_are_never_reused() {
        let d = tempfile::tempdir().unwrap();
        let ids = crate::clock::Ids::random();
        let a = new_agent_id(d.path(), &ids).unwrap();
        assert!(crate::vocab::names::is_agent_id(&a) && a.len() == 20, "{a}");
        let b = new_agent_id(d.path(), &ids).unwrap();
        assert_ne!(a, b);
        let ledger = std::fs::read_to_string(ledger(d.path())).unwrap();
        assert_eq!(ledger, format!("{a}\n{b}\n"));
        // a record written under an id outside the ledger is still never reissued, and a
        // removed record's id stays issued
        for _ in 0..20 {
            let c = new_agent_id(d.path(), &ids).unwrap();
            assert!(c != a && c != b);
        }
    }

    #[test]
    fn grants_pass_over_anything_that_is_not_a_grant() {
        let d = tempfile::tempdir().unwrap();
        let g = d.path().join("grants");
        std::fs::create_dir_all(&g).unwrap();
        std::fs::write(g.join("a.yaml"), "send:\n  from: b@x\n  to: lead@y\nexpires: \"2026-10-17T00:00:00Z\"\n")
            .unwrap();
        std::fs::write(g.join("b.yaml"), "send:\n  from: b@x\nexpires: \"2026-10-17T00:00:00Z\"\n").unwrap();
        std::fs::write(g.join("c.yaml"), "create:\n  team: x\n").unwrap();
        std::fs::write(g.join("d.yaml"), "send: [\n").unwrap();
        std::fs::write(g.join("e.yaml"), "send:\n  from: b@x\n  to: c@y\nexpires: tomorrow\n").unwrap();
        std::os::unix::fs::symlink(g.join("a.yaml"), g.join("f.yaml")).unwrap();
        let all = send_grants(d.path());
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].file, "a.yaml");
        assert_eq!(all[0].to, "lead@y");
    }
}
