//! The sessions' seat records: `<root>/.agents/team.state.json` (what a launch or `team
//! register` recorded for each seat of a session), and the launched pointer under the state
//! dir (`<state>/launched/<session>.json`: which team file a session belongs to and each
//! seat's pane), which the herdr adapter reads to tell an exited CLI from a seat never there.
//!
//! Invariants:
//! - a seat's record is kept as the JSON object it was read as: keys this version does not
//!   know (a launch's `model`, `version`, `effort`, `launch_line`) are written back untouched,
//!   and [`State::complete`] only ever adds a key a record lacks;
//! - both files are written whole (temp + fsync + rename), created 0600 in folders 0700, never
//!   through a symbolic link (`fsx`).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::{self, At, IoAt, TeamError};
use crate::fsx;
use crate::registry::ProcessIdentity;

/// The file's name under `<root>/.agents/`.
pub const FILE: &str = "team.state.json";

/// Where a seat stands in its launch: `ready` once its CLI runs at its prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Ready,
    /// `team down` stopped it: the record stays, naming no running CLI.
    Stopped,
    /// A stage a launch writes on the way (`launching`, …), kept as written.
    Other,
}

impl Stage {
    /// The word the file holds.
    pub fn word(self) -> &'static str {
        match self {
            Stage::Ready => "ready",
            Stage::Stopped => "stopped",
            Stage::Other => "other",
        }
    }
}

/// What only a launch knows, written into the seat's record by `team up` (the file's `model`,
/// `version`, `effort` and the line the seat's shell ran).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Launch {
    pub model: Option<String>,
    /// The file's `version:` (the model's, as the spec's example writes it).
    pub version: Option<String>,
    pub effort: Option<String>,
    /// The CLI's own version, as the package its running program was installed from names it
    /// (`up::version`); none where no package does.
    pub cli_version: Option<String>,
    pub launch_line: String,
}

/// One seat's record, as read (the typed fields) with the object it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatState {
    pub id: Option<String>,
    pub stage: Stage,
    pub cli: Option<String>,
    pub pane: Option<String>,
    pub workspace: Option<String>,
    pub process: Option<ProcessIdentity>,
    pub agent_session: Option<String>,
    /// The whole record, every key kept.
    pub raw: Map<String, Value>,
}

impl SeatState {
    fn of(raw: &Map<String, Value>) -> SeatState {
        let text = |k: &str| raw.get(k).and_then(Value::as_str).map(str::to_string);
        SeatState {
            id: text("id"),
            stage: match text("stage").as_deref() {
                Some("ready") => Stage::Ready,
                Some("stopped") => Stage::Stopped,
                _ => Stage::Other,
            },
            cli: text("cli"),
            pane: text("pane"),
            workspace: text("workspace"),
            process: raw.get("process").and_then(|p| serde_json::from_value(p.clone()).ok()),
            agent_session: text("agent_session"),
            raw: raw.clone(),
        }
    }
}

/// What `team register` writes for a seat it verified.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSeat {
    pub id: String,
    pub cli: String,
    pub pane: String,
    pub workspace: Option<String>,
    pub process: Option<ProcessIdentity>,
    pub agent_session: Option<String>,
    pub registered: String,
}

/// `<root>/.agents/team.state.json`, read whole.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub path: PathBuf,
    doc: Map<String, Value>,
}

fn bad(path: &Path, why: impl std::fmt::Display) -> TeamError {
    TeamError::bad_file(format!("{}: {why}", path.display()))
}

impl State {
    /// Reads the checkout's state file; a missing one is an empty state. A file that is not a
    /// JSON object, or a link or FIFO at `.agents` or the file, cannot be read (exit 2).
    pub fn load(root: &Path) -> error::Result<State> {
        let path = root.join(".agents").join(FILE);
        fsx::check_ladder(root, &path).at(&path).map_err(IoAt::bad_file)?;
        let text = fsx::read_to_string(&path).at(&path).map_err(IoAt::bad_file)?;
        let doc = match text.as_deref().map(str::trim) {
            None | Some("") => Map::new(),
            Some(t) => match serde_json::from_str::<Value>(t) {
                Ok(Value::Object(m)) => m,
                Ok(_) => return Err(bad(&path, "is not a JSON object")),
                Err(e) => return Err(bad(&path, format!("line {}: {e}", e.line()))),
            },
        };
        Ok(State { path, doc })
    }

    fn session_obj(&self, session: &str) -> Option<&Map<String, Value>> {
        self.doc.get("sessions")?.get(session)?.as_object()
    }

    /// The record of `seat` in `session`.
    pub fn seat(&self, session: &str, seat: &str) -> Option<SeatState> {
        self.session_obj(session)?.get("seats")?.get(seat)?.as_object().map(SeatState::of)
    }

    /// Every seat record of `session`, by seat name.
    pub fn seats(&self, session: &str) -> Vec<(String, SeatState)> {
        let Some(seats) = self.session_obj(session).and_then(|s| s.get("seats")).and_then(Value::as_object) else {
            return Vec::new();
        };
        seats.iter().filter_map(|(k, v)| v.as_object().map(|o| (k.clone(), SeatState::of(o)))).collect()
    }

    /// The team file the session was launched from (its launched-file pointer), as recorded.
    pub fn launched_from(&self, session: &str) -> Option<String> {
        self.session_obj(session)?.get("launched")?.as_str().map(str::to_string)
    }

    fn seats_mut(&mut self, session: &str, launched: &Path) -> &mut Map<String, Value> {
        if !self.doc.contains_key("format") {
            self.doc.insert("format".into(), json!(1));
        }
        let sessions = self.doc.entry("sessions").or_insert_with(|| json!({}));
        if !sessions.is_object() {
            *sessions = json!({});
        }
        let s = sessions.as_object_mut().expect("an object").entry(session).or_insert_with(|| json!({}));
        if !s.is_object() {
            *s = json!({});
        }
        let s = s.as_object_mut().expect("an object");
        s.entry("launched").or_insert_with(|| json!(launched.display().to_string()));
        let seats = s.entry("seats").or_insert_with(|| json!({}));
        if !seats.is_object() {
            *seats = json!({});
        }
        seats.as_object_mut().expect("an object")
    }

    /// Records a seat `team register` verified: `stage: ready`, the CLI, the pane, the
    /// workspace, the process identity, the agent session, the id. Refuses to replace a record
    /// that exists (that is the repair's, [`State::complete`]).
    pub fn insert(&mut self, session: &str, seat: &str, launched: &Path, new: &NewSeat) {
        let rec = json!({
            "id": new.id,
            "stage": "ready",
            "cli": new.cli,
            "pane": new.pane,
            "workspace": new.workspace,
            "process": new.process,
            "agent_session": new.agent_session,
            "registered": new.registered,
        });
        let seats = self.seats_mut(session, launched);
        seats.entry(seat).or_insert(rec);
    }

    /// Completes a record a launch that predates them left short: the id and the process
    /// identity are added where missing; nothing else changes. Returns what was added.
    pub fn complete(
        &mut self,
        session: &str,
        seat: &str,
        launched: &Path,
        id: &str,
        process: Option<ProcessIdentity>,
    ) -> Vec<&'static str> {
        let seats = self.seats_mut(session, launched);
        let Some(rec) = seats.get_mut(seat).and_then(Value::as_object_mut) else { return Vec::new() };
        let mut added = Vec::new();
        if rec.get("id").and_then(Value::as_str).is_none() {
            rec.insert("id".into(), json!(id));
            added.push("id");
        }
        if let Some(p) = process {
            if rec.get("process").is_none_or(Value::is_null) {
                rec.insert("process".into(), json!(p));
                added.push("process");
            }
        }
        added
    }

    /// Records a seat `team up` has just launched and not yet found at its prompt: `stage:
    /// launching`, its CLI, pane and launch line — so its pane is this state's while the person
    /// answers a first-run dialog, and a later `team up` records it ready. Replaces nothing.
    pub fn launching(&mut self, session: &str, seat: &str, launched: &Path, cli: &str, pane: &str, line: &str) {
        let rec = json!({ "stage": "launching", "cli": cli, "pane": pane, "launch_line": line });
        self.seats_mut(session, launched).entry(seat).or_insert(rec);
    }

    /// Writes what only a launch knows into the record of `seat` (`team up`, after `team
    /// register`'s record is written): `launch_line`, and `model`, `version`, `effort` where
    /// known. `false`: there is no record.
    pub fn set_launch(&mut self, session: &str, seat: &str, l: &Launch) -> bool {
        let Some(rec) = self.record_mut(session, seat) else { return false };
        for (k, v) in
            [("model", &l.model), ("version", &l.version), ("effort", &l.effort), ("cli_version", &l.cli_version)]
        {
            if let Some(v) = v {
                rec.insert(k.into(), json!(v));
            }
        }
        rec.insert("launch_line".into(), json!(l.launch_line));
        true
    }

    /// Sets the stage of `seat`'s record (`team down`: `stopped`, with when). `false`: no record.
    pub fn set_stopped(&mut self, session: &str, seat: &str, at: &str) -> bool {
        let Some(rec) = self.record_mut(session, seat) else { return false };
        rec.insert("stage".into(), json!(Stage::Stopped.word()));
        rec.insert("stopped".into(), json!(at));
        true
    }

    /// Drops the record of `seat` (`team up` relaunching a seat whose record names a pane that
    /// no longer runs it). `false`: there was none.
    pub fn forget(&mut self, session: &str, seat: &str) -> bool {
        let seats = self
            .doc
            .get_mut("sessions")
            .and_then(|s| s.get_mut(session))
            .and_then(|s| s.get_mut("seats"))
            .and_then(Value::as_object_mut);
        seats.is_some_and(|s| s.remove(seat).is_some())
    }

    fn record_mut(&mut self, session: &str, seat: &str) -> Option<&mut Map<String, Value>> {
        self.doc.get_mut("sessions")?.get_mut(session)?.get_mut("seats")?.get_mut(seat)?.as_object_mut()
    }

    /// Moves the record of `seat` in `session` to the name `new`, every key kept and in its
    /// place among the session's seats (`team rename`). `false`: there is no record to move.
    /// A record `new` already holds is never replaced (the caller refuses that case first).
    pub fn rename_seat(&mut self, session: &str, seat: &str, new: &str) -> bool {
        let Some(seats) = self
            .doc
            .get_mut("sessions")
            .and_then(|s| s.get_mut(session))
            .and_then(|s| s.get_mut("seats"))
            .and_then(Value::as_object_mut)
        else {
            return false;
        };
        if !seats.contains_key(seat) || seats.contains_key(new) {
            return false;
        }
        let moved: Map<String, Value> = std::mem::take(seats)
            .into_iter()
            .map(|(k, v)| if k == seat { (new.to_string(), v) } else { (k, v) })
            .collect();
        *seats = moved;
        true
    }

    /// Writes the file whole, 0600, `.agents` made 0700 when missing.
    pub fn save(&self, root: &Path) -> error::Result<()> {
        let fail = |e: std::io::Error| TeamError::failed(e.to_string());
        let dir = fsx::ensure_dirs(root, Path::new(".agents"), 0o700).map_err(fail)?;
        let mut text = serde_json::to_string_pretty(&Value::Object(self.doc.clone()))
            .map_err(|e| TeamError::failed(format!("{}: {e}", self.path.display())))?;
        text.push('\n');
        fsx::write_atomic(&dir.join(FILE), text.as_bytes(), 0o600).map_err(fail)
    }
}

// ------------------------------------------------------------- the launched pointer

/// A session's launched pointer under the state dir: the team file it belongs to, and the pane
/// each of its seats was launched or registered on.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Launched {
    #[serde(default = "one")]
    pub format: u32,
    /// The team file (`<root>/.agents/team.yaml`) the session belongs to.
    pub file: String,
    #[serde(default)]
    pub panes: std::collections::BTreeMap<String, String>,
}

fn one() -> u32 {
    1
}

/// `<state>/launched/<session>.json`; the session's name is made one safe path component.
pub fn launched_path(state_dir: &Path, session: &str) -> PathBuf {
    let mut name: String = session
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    state_dir.join("launched").join(format!("{name}.json"))
}

/// Reads a session's launched pointer; `None` when there is none or it cannot be read.
pub fn read_launched(state_dir: &Path, session: &str) -> Option<Launched> {
    let text = fsx::read_to_string(&launched_path(state_dir, session)).ok()??;
    serde_json::from_str(&text).ok()
}

/// Records `seat`'s pane in the session's launched pointer (the file named once, kept after).
pub fn write_launched(state_dir: &Path, session: &str, file: &Path, seat: &str, pane: &str) -> error::Result<()> {
    let fail = |e: std::io::Error| TeamError::failed(e.to_string());
    let dir = fsx::ensure_dirs(state_dir, Path::new("launched"), 0o700).map_err(fail)?;
    let mut l = read_launched(state_dir, session).unwrap_or_else(|| Launched {
        format: 1,
        file: file.display().to_string(),
        ..Default::default()
    });
    l.panes.insert(seat.to_string(), pane.to_string());
    let mut text = serde_json::to_string_pretty(&l).map_err(|e| TeamError::failed(e.to_string()))?;
    text.push('\n');
    let path = launched_path(state_dir, session);
    debug_assert!(path.starts_with(&dir));
    fsx::write_atomic(&path, text.as_bytes(), 0o600).map_err(fail)
}

/// Moves `seat`'s pane in the session's launched pointer to the name `new` (`team rename`).
/// `Ok(false)`: the pointer records no pane for `seat` (or none at all), and nothing is written.
pub fn rename_launched(state_dir: &Path, session: &str, seat: &str, new: &str) -> error::Result<bool> {
    let Some(mut l) = read_launched(state_dir, session) else { return Ok(false) };
    let Some(pane) = l.panes.remove(seat) else { return Ok(false) };
    l.panes.insert(new.to_string(), pane);
    let mut text = serde_json::to_string_pretty(&l).map_err(|e| TeamError::failed(e.to_string()))?;
    text.push('\n');
    let path = launched_path(state_dir, session);
    fsx::write_atomic(&path, text.as_bytes(), 0o600).at(&path)?;
    Ok(true)
}

/// The pane `seat` of `session` was last launched or registered on, from the launched pointer
/// under `state_dir` — the herdr adapter's `last_seen` seam.
pub fn last_seen_pane(state_dir: &Path, session: &str, seat: &str) -> Option<String> {
    read_launched(state_dir, session)?.panes.get(seat).cloned()
}

/// The pane of `seat` in `session`, the registry first (DESIGN §4): the pane its record names
/// while the recorded CLI process still runs there; else the pane the multiplexer names the
/// seat on — unless the record names another pane: a pane marked as a registered seat but not
/// its pane is not that seat.
pub fn locate_with(
    mux: &dyn crate::mux::Mux,
    session: &str,
    seat: &str,
    team: &str,
    rec: Option<&crate::registry::AgentRecord>,
) -> Result<crate::mux::PaneRef, crate::mux::MuxError> {
    let live = crate::mux::Live { mux, session: session.to_string() };
    locate_among(&live, mux.name(), session, seat, team, rec)
}

/// [`locate_with`] over the panes of `session` as `panes` answers them (one look at a tmux
/// session for a whole roster, `mux::panes_of`); `mux` names the multiplexer in the sentence.
pub fn locate_among(
    panes: &dyn crate::mux::Panes,
    mux: &str,
    session: &str,
    seat: &str,
    team: &str,
    rec: Option<&crate::registry::AgentRecord>,
) -> Result<crate::mux::PaneRef, crate::mux::MuxError> {
    let recorded = rec.and_then(|r| r.pane.as_deref());
    if let (Some(p), Some(who)) = (recorded, rec.and_then(|r| r.process)) {
        if let Ok(info) = panes.pane(p) {
            if who.runs_in(info.shell_pid) {
                return Ok(info.pane_ref(seat));
            }
        }
    }
    let found = panes.locate_in(seat, team)?;
    match recorded {
        Some(p) if p != found.id => Err(crate::mux::MuxError::NoSeat(format!(
            "{mux} names {seat} on pane {} of session \"{session}\", but {seat} is registered on pane {p}; a lead stops the team and starts it again (`team down`, then `team up`)",
            found.id
        ))),
        _ => Ok(found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn new_seat(pane: &str) -> NewSeat {
        NewSeat {
            id: "agt_00000000000000a1".into(),
            cli: "claude-code".into(),
            pane: pane.into(),
            workspace: Some("w1".into()),
            process: Some(ProcessIdentity { pid: 10, start: 20 }),
            agent_session: None,
            registered: "2026-10-01T09:00:00Z".into(),
        }
    }

    #[test]
    fn a_record_round_trips_and_keeps_what_it_does_not_know() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join(".agents/team.yaml");
        let mut s = State::load(d.path()).unwrap();
        assert!(s.seat("beacon", "a").is_none());
        s.insert("beacon", "a", &file, &new_seat("w1:p1"));
        s.save(d.path()).unwrap();
        let mode = std::fs::metadata(d.path().join(".agents").join(FILE)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let back = State::load(d.path()).unwrap();
        let a = back.seat("beacon", "a").unwrap();
        assert_eq!(
            (a.stage, a.pane.as_deref(), a.process),
            (Stage::Ready, Some("w1:p1"), Some(ProcessIdentity { pid: 10, start: 20 }))
        );
        assert_eq!(back.launched_from("beacon"), Some(file.display().to_string()));
        // a launch's short record: its own keys stay, the id and identity are added once
        std::fs::write(
            d.path().join(".agents").join(FILE),
            r#"{"format":1,"sessions":{"beacon":{"launched":"/x","seats":{"b":{"stage":"ready","pane":"w1:p2","model":"Claude Opus"}}}}}"#,
        )
        .unwrap();
        let mut s = State::load(d.path()).unwrap();
        let added =
            s.complete("beacon", "b", &file, "agt_00000000000000b2", Some(ProcessIdentity { pid: 1, start: 2 }));
        assert_eq!(added, vec!["id", "process"]);
        assert!(s.complete("beacon", "b", &file, "agt_ffffffffffffffff", None).is_empty());
        let b = s.seat("beacon", "b").unwrap();
        assert_eq!(b.id.as_deref(), Some("agt_00000000000000b2"));
        assert_eq!(b.raw["model"], "Claude Opus");
        assert_eq!(s.launched_from("beacon").as_deref(), Some("/x"));
        // insert never replaces a record
        s.insert("beacon", "b", &file, &new_seat("w9:p9"));
        assert_eq!(s.seat("beacon", "b").unwrap().pane.as_deref(), Some("w1:p2"));
    }

    #[test]
    fn a_state_that_is_not_an_object_cannot_be_read() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".agents")).unwrap();
        std::fs::write(d.path().join(".agents").join(FILE), "[1]").unwrap();
        let e = State::load(d.path()).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::BadFile);
        std::fs::remove_file(d.path().join(".agents").join(FILE)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", d.path().join(".agents").join(FILE)).unwrap();
        assert!(State::load(d.path()).unwrap_err().message().contains("symbolic link"));
    }

    #[test]
    fn a_renamed_record_keeps_every_key_and_its_place() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".agents")).unwrap();
        std::fs::write(
            d.path().join(".agents").join(FILE),
            r#"{"format":1,"sessions":{"beacon":{"launched":"/x","seats":{"a":{"id":"agt_00000000000000a1","pane":"%1","model":"M"},"lead":{"id":"agt_00000000000000b2","pane":"%2","launch_line":"claude"},"z":{"pane":"%3"}}}}}"#,
        )
        .unwrap();
        let mut s = State::load(d.path()).unwrap();
        assert!(!s.rename_seat("beacon", "nobody", "x"), "no record, nothing moved");
        assert!(!s.rename_seat("other", "lead", "x"));
        assert!(!s.rename_seat("beacon", "lead", "a"), "a record the new name holds is never replaced");
        assert!(s.rename_seat("beacon", "lead", "keeper2"));
        s.save(d.path()).unwrap();
        let back = State::load(d.path()).unwrap();
        assert!(back.seat("beacon", "lead").is_none());
        let k = back.seat("beacon", "keeper2").unwrap();
        assert_eq!((k.id.as_deref(), k.pane.as_deref()), (Some("agt_00000000000000b2"), Some("%2")));
        assert_eq!(k.raw["launch_line"], "claude");
        let order: Vec<String> = back.seats("beacon").into_iter().map(|(n, _)| n).collect();
        assert_eq!(order, vec!["a", "keeper2", "z"]);
        // the launched pointer
        write_launched(d.path(), "beacon", Path::new("/r/.agents/team.yaml"), "lead", "%2").unwrap();
        assert!(!rename_launched(d.path(), "beacon", "nobody", "x").unwrap());
        assert!(!rename_launched(d.path(), "other", "lead", "x").unwrap());
        assert!(rename_launched(d.path(), "beacon", "lead", "keeper2").unwrap());
        assert_eq!(last_seen_pane(d.path(), "beacon", "keeper2").as_deref(), Some("%2"));
        assert_eq!(last_seen_pane(d.path(), "beacon", "lead"), None);
    }

    #[test]
    fn the_launched_pointer_names_the_file_once_and_each_seats_pane() {
        let d = tempfile::tempdir().unwrap();
        write_launched(d.path(), "beacon", Path::new("/r/.agents/team.yaml"), "a", "%1").unwrap();
        write_launched(d.path(), "beacon", Path::new("/other/.agents/team.yaml"), "b", "%2").unwrap();
        let l = read_launched(d.path(), "beacon").unwrap();
        assert_eq!(l.file, "/r/.agents/team.yaml");
        assert_eq!(l.panes.get("b").map(String::as_str), Some("%2"));
        assert!(launched_path(d.path(), "../x").starts_with(d.path().join("launched")));
        assert_eq!(launched_path(d.path(), "../x").file_name().unwrap(), "_.._x.json");
    }
}
