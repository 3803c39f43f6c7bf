//! `team rename` against herdr's recorded outputs (`tests/data/herdr-0.8.2/`, the fake set:
//! session `teamfx`, the detected Codex pane `w1:p2` named `reviewer`), through the Runner
//! seam the adapter's own tests use: the adapter and the use-case are the production ones;
//! only herdr's answers are replayed, and an argv no recording answers fails the test — so a
//! refusal that must ask herdr nothing is proven to ask nothing.
//!
//! Four calls are answered with recordings of the same command spelled otherwise, and say so
//! here: `agent rename w1:p2 rev2` with `agent-rename.json` (recorded as `agent rename
//! reviewer rev2`: the same agent, from the same state, to the same name, its target spelled
//! by name rather than pane id); `agent get rev2` and `agent get rev.odd` with
//! `error-agent-get-unknown.stderr.json` (recorded for `agent get nosuch`); `agent rename w1:p2
//! rev.odd` with `error-agent-rename-invalid-name.stderr.json` (recorded for `agent rename rev2
//! Reviewer`), as the register tests do; and the sidebar's `workspace rename w1 beacon` and
//! `pane report-metadata … --display-agent <line>` as the register tests answer them.

use super::*;
use crate::mux::herdr::replay::{herdr, FixtureRunner, V071, V082};
use crate::registry::{AgentRecord, RosterLine, TeamPointers};
use crate::state::NewSeat;

const FX: &str = "\
# the fake set's team
format: 1
project: beacon
session: teamfx
seats:
  - name: reviewer   # the reviewer seat
    nickname: rex
    cli: codex
  - name: other
    nickname: bob
    cli: codex
";

const ID: &str = "agt_00000000000000a1";

struct World {
    _tmp: tempfile::TempDir,
    file: Loaded,
    ctx: Ctx,
}

fn world_with(text: &str) -> World {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("beacon");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(root.join(".agents")).unwrap();
    std::fs::write(root.join(".agents/team.yaml"), text).unwrap();
    let file = crate::team_file::find(&root).unwrap().unwrap();
    let now = chrono::DateTime::parse_from_rfc3339("2026-10-01T09:00:00Z").unwrap().with_timezone(&chrono::Utc);
    let ctx = Ctx {
        cwd: Ok(std::path::PathBuf::from("/")),
        home: None,
        paths: crate::paths::Paths {
            config: tmp.path().join("config"),
            state: tmp.path().join("state"),
            cache: tmp.path().join("cache"),
        },
        clock: crate::clock::Clock::fixed(now),
        ids: crate::clock::Ids::random(),
        mux: crate::mux::Hints::default(),
    };
    World { _tmp: tmp, file, ctx }
}

/// `seat`'s records as `team register` writes them: its state on pane `w1:p2`, the launched
/// pointer, the registry's agent record and roster line.
fn registered(w: &World, seat: &str) {
    let mut st = State::load(&w.file.root).unwrap();
    let new = NewSeat {
        id: ID.into(),
        cli: "codex".into(),
        pane: "w1:p2".into(),
        workspace: Some("w1".into()),
        process: None,
        agent_session: None,
        registered: "2026-10-01T08:00:00Z".into(),
    };
    st.insert("teamfx", seat, &w.file.path, &new);
    st.save(&w.file.root).unwrap();
    state::write_launched(&w.ctx.paths.state, "teamfx", &w.file.path, seat, "w1:p2").unwrap();
    let rec = AgentRecord {
        id: ID.into(),
        seat: seat.into(),
        team: "beacon".into(),
        session: Some("teamfx".into()),
        pane: Some("w1:p2".into()),
        ..Default::default()
    };
    let line =
        RosterLine { seat: seat.into(), agent: Some(ID.into()), nickname: Some("rex".into()), ..Default::default() };
    let p =
        TeamPointers { entity: None, project: "beacon".into(), session: "teamfx".into(), root: w.file.root.clone() };
    registry::write_seat(&w.ctx.paths.config, "beacon", &p, &line, &rec).unwrap();
}

fn run_as(
    w: &World,
    mux: &dyn Mux,
    caller: &Caller,
    seat: &str,
    new: &str,
    dry_run: bool,
) -> Result<Report, TeamError> {
    let reg = Registry::load(&w.ctx.paths.config).unwrap();
    let req = Request { seat: seat.into(), new: new.into(), dry_run };
    super::run(&Means { mux, ctx: &w.ctx }, &w.file, &reg, caller, &req)
}

fn run(w: &World, mux: &dyn Mux, seat: &str, new: &str, dry_run: bool) -> Result<Report, TeamError> {
    run_as(w, mux, &Caller::Owner, seat, new, dry_run)
}

fn err(r: Result<Report, TeamError>) -> String {
    let e = r.unwrap_err();
    format!("{}: {}", e.id, e.message())
}

fn text(w: &World) -> String {
    std::fs::read_to_string(&w.file.path).unwrap()
}

fn s(rest: &[&'static str]) -> Vec<&'static str> {
    [&["--session", "teamfx"][..], rest].concat()
}

/// herdr's session `teamfx` running, its agent `reviewer` on `w1:p2`, no agent named `new`.
fn reviewer_running(new: &'static str) -> FixtureRunner {
    FixtureRunner::running(V082, &["teamfx"])
        .on(&s(&["agent", "get", "reviewer"]), 0, "agent-get-by-name.json")
        .on(&s(&["pane", "process-info", "--pane", "w1:p2"]), 0, "pane-process-info-agent.json")
        .on(&s(&["agent", "get", new]), 1, "error-agent-get-unknown.stderr.json")
}

/// herdr's session `teamfx` stopped (`status`, then `session list --json` after its stop).
fn stopped() -> FixtureRunner {
    FixtureRunner::of(V082).on(&s(&["status"]), 0, "status-not-running.txt").on(
        &["session", "list", "--json"],
        0,
        "session-list-after-stop.json",
    )
}

fn typed(calls: &[Vec<String>]) -> bool {
    let verbs = ["send-text", "send-keys", "prompt", "run"];
    calls.iter().any(|a| a.iter().any(|w| verbs.contains(&w.as_str())))
}

#[test]
fn a_herdr_seat_is_renamed_through_herdr_and_its_records_follow() {
    let w = world_with(FX);
    registered(&w, "reviewer");
    let rec = reviewer_running("rev2")
        .on(&s(&["agent", "rename", "w1:p2", "rev2"]), 0, "agent-rename.json")
        .on(&s(&["workspace", "rename", "w1", "beacon"]), 0, "workspace-rename.json")
        .on_from(
            V071,
            &s(&["pane", "report-metadata", "w1:p2", "--source", "team", "--display-agent", "rev2"]),
            0,
            "pane-report-metadata.txt",
        );
    let (h, calls) = herdr(rec);
    let state_before = std::fs::read_to_string(w.file.root.join(".agents/team.state.json")).unwrap();
    let dry = run(&w, &h, "reviewer", "rev2", true).unwrap();
    assert_eq!(
        dry.line,
        "reviewer: would be renamed to rev2 — the file, pane w1:p2, its state record and its registry record (agt_00000000000000a1); nothing was written"
    );
    let plan: Vec<String> = dry.steps.iter().map(|s| s.plan_line("reviewer", dry.mux, &dry.session)).collect();
    assert_eq!(
        plan,
        vec![
            "reviewer: would rename .agents/team.yaml line 6 (name:)",
            "reviewer: would rename pane w1:p2's agent name in herdr session \"teamfx\" (to rev2), and its sidebar line",
            "reviewer: would rename its record of session \"teamfx\" in .agents/team.state.json",
            "reviewer: would rename its pane in session \"teamfx\"'s launched record (the state dir)",
            "reviewer: would rename its registry record agt_00000000000000a1 (the id kept) and its line in the team's roster (teams.yaml)",
        ]
    );
    assert_eq!(text(&w), FX, "a dry run writes nothing");
    assert_eq!(std::fs::read_to_string(w.file.root.join(".agents/team.state.json")).unwrap(), state_before);
    assert!(!calls.calls().iter().any(|a| a.contains(&"rename".to_string())), "nothing named on a dry run");
    assert!(!w.ctx.paths.state.join("seat-locks").exists(), "a dry run takes no lock");
    assert!(!w.file.root.join(".agents/team.log").exists(), "nor writes the log");

    let r = run(&w, &h, "reviewer", "rev2", false).unwrap();
    assert_eq!(
        (r.status, r.line.as_str()),
        (
            Status::Renamed,
            "reviewer: renamed to rev2 — the file, pane w1:p2, its state record and its registry record (agt_00000000000000a1)"
        )
    );
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let renames: Vec<_> = calls.calls().into_iter().filter(|a| a.contains(&"rename".to_string())).collect();
    assert_eq!(renames.len(), 2, "one agent rename and the sidebar's workspace label: {renames:?}");
    assert!(renames.iter().any(|a| a.ends_with(&["agent".into(), "rename".into(), "w1:p2".into(), "rev2".into()])));
    assert!(calls.calls().iter().any(|a| a.last().map(String::as_str) == Some("rev2")), "the display line");
    assert!(!typed(&calls.calls()), "nothing typed: {:?}", calls.calls());
    // the file: the one value, its comment kept
    assert_eq!(text(&w), FX.replace("  - name: reviewer   #", "  - name: rev2   #"));
    // the state, the launched pointer, the registry: the new name, the id kept
    let st = State::load(&w.file.root).unwrap();
    assert!(st.seat("teamfx", "reviewer").is_none());
    let rec = st.seat("teamfx", "rev2").unwrap();
    assert_eq!((rec.id.as_deref(), rec.pane.as_deref()), (Some(ID), Some("w1:p2")));
    assert_eq!(state::last_seen_pane(&w.ctx.paths.state, "teamfx", "rev2").as_deref(), Some("w1:p2"));
    assert_eq!(state::last_seen_pane(&w.ctx.paths.state, "teamfx", "reviewer"), None);
    let reg = Registry::load(&w.ctx.paths.config).unwrap();
    assert_eq!(reg.agent_for("beacon", "rev2").map(|a| a.id.as_str()), Some(ID));
    assert_eq!(reg.roster_line("beacon", "rev2").unwrap().nickname.as_deref(), Some("rex"));
    assert!(reg.agent_for("beacon", "reviewer").is_none() && reg.roster_line("beacon", "reviewer").is_none());
    let log = std::fs::read_to_string(w.file.root.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().count(), 1, "{log}");
    let line: serde_json::Value = serde_json::from_str(log.trim()).unwrap();
    assert_eq!((line["command"].as_str(), line["outcome"].as_str()), (Some("rename"), Some("renamed")));
    assert_eq!((line["seat"].as_str(), line["caller"].as_str()), (Some("reviewer"), Some("the owner")));
    assert!(line["detail"].as_str().unwrap().starts_with("to rev2: .agents/team.yaml line 6 (name:); "), "{line}");
}

#[test]
fn a_name_herdr_does_not_take_changes_nothing() {
    let w = world_with(FX);
    registered(&w, "reviewer");
    let rec = reviewer_running("rev.odd").on(
        &s(&["agent", "rename", "w1:p2", "rev.odd"]),
        1,
        "error-agent-rename-invalid-name.stderr.json",
    );
    let (h, _) = herdr(rec);
    let state_before = std::fs::read_to_string(w.file.root.join(".agents/team.state.json")).unwrap();
    let e = run(&w, &h, "reviewer", "rev.odd", false).unwrap_err();
    assert_eq!(
        format!("{}: {}", e.id, e.message()),
        "rename.pane-name: herdr did not take the name rev.odd for pane w1:p2; nothing was renamed"
    );
    assert_eq!(e.repair().as_deref(), Some("choose a name herdr takes (docs/multiplexers.md)"));
    assert_eq!(text(&w), FX);
    assert_eq!(std::fs::read_to_string(w.file.root.join(".agents/team.state.json")).unwrap(), state_before);
    assert!(Registry::load(&w.ctx.paths.config).unwrap().agent_for("beacon", "reviewer").is_some());
    let log = std::fs::read_to_string(w.file.root.join(".agents/team.log")).unwrap();
    assert!(log.contains("\"outcome\":\"pane-name\""), "a refusal writes its own line: {log}");
}

#[test]
fn a_seat_with_no_pane_is_renamed_in_the_file_and_its_records() {
    let w = world_with(FX);
    registered(&w, "reviewer");
    // an owner's send grant naming the seat: said, never rewritten
    let grants = w.ctx.paths.config.join("grants");
    std::fs::create_dir_all(&grants).unwrap();
    let grant = "send:\n  from: reviewer@beacon\n  to: b@labs\nexpires: \"2027-01-01T00:00:00Z\"\n";
    std::fs::write(grants.join("rev-to-b.yaml"), grant).unwrap();
    let (h, calls) = herdr(stopped());
    let r = run(&w, &h, "reviewer", "rev2", false).unwrap();
    assert_eq!(
        r.notes,
        vec![format!(
            "reviewer: the owner's grant {} names reviewer; it is not rewritten here: write rev2 in it",
            grants.join("rev-to-b.yaml").display()
        )]
    );
    assert_eq!(std::fs::read_to_string(grants.join("rev-to-b.yaml")).unwrap(), grant);
    assert_eq!(
        r.line,
        "reviewer: renamed to rev2 — the file, its state record and its registry record (agt_00000000000000a1); no pane was renamed (the herdr server of session \"teamfx\" is not running)"
    );
    assert!(!calls.calls().iter().any(|a| a.contains(&"rename".to_string())));
    assert!(text(&w).contains("  - name: rev2   # the reviewer seat\n"));
    assert!(State::load(&w.file.root).unwrap().seat("teamfx", "rev2").is_some());
}

#[test]
fn a_rename_left_part_way_is_completed_by_running_it_again() {
    // the file renamed by hand (the old repair): the records still name the old seat
    let w = world_with(&FX.replace("name: reviewer", "name: rev2"));
    registered(&w, "reviewer");
    let (h, _) = herdr(stopped());
    let before = text(&w);
    let r = run(&w, &h, "reviewer", "rev2", false).unwrap();
    assert_eq!(
        r.line,
        "reviewer: renamed to rev2 — its state record and its registry record (agt_00000000000000a1); the file already named it rev2; no pane was renamed (the herdr server of session \"teamfx\" is not running)"
    );
    assert_eq!(text(&w), before, "the file is not written");
    assert_eq!(Registry::load(&w.ctx.paths.config).unwrap().agent_for("beacon", "rev2").unwrap().id, ID);
    // once nothing names the old seat, the same rename names nothing
    assert_eq!(
        err(run(&w, &h, "reviewer", "rev2", false)),
        "rename.no-seat: the file has no seat \"reviewer\" (it declares rev2), and nothing else names reviewer; nothing was renamed"
    );
}

#[test]
fn the_refusals_ask_herdr_nothing_and_change_nothing() {
    let w = world_with(FX);
    // any herdr call fails the test: these are refused before the multiplexer is asked
    let (h, calls) = herdr(FixtureRunner::of(V082));
    let un = Caller::Unplaced { why: "it is run by an agent (claude) outside herdr".into() };
    let seat = Caller::Seat { team: "beacon".into(), seat: "other".into(), agent: None, pane: "w1:p3".into() };
    assert_eq!(
        err(run_as(&w, &h, &un, "reviewer", "rev2", false)),
        "rename.caller: only the owner renames a seat, from a terminal outside the team's panes; this call is unplaced (it is run by an agent (claude) outside herdr)"
    );
    assert_eq!(
        err(run_as(&w, &h, &seat, "reviewer", "rev2", true)),
        "rename.caller: only the owner renames a seat, from a terminal outside the team's panes; this call is seat other of beacon"
    );
    assert_eq!(
        err(run_as(&w, &h, &Caller::NoTerminal, "reviewer", "rev2", false)),
        "rename.caller: only the owner renames a seat, from a terminal outside the team's panes; this call is a run with no terminal"
    );
    let cases = [
        ("reviewr", "rev2", "rename.no-seat: the file has no seat \"reviewr\" (did you mean reviewer?); its seats are reviewer, other; nothing was renamed"),
        ("reviewer", "Rev", "rename.name: seat \"Rev\" is not a seat name (lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63); nothing was renamed"),
        ("reviewer", "a/b", "rename.name: seat \"a/b\" is not a seat name (lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63); nothing was renamed"),
        ("reviewer", "lead", "rename.reserved: \"lead\" is reserved for the lead@<team> address, and no seat takes it; nothing was renamed"),
        ("reviewer", "reviewer", "rename.same: the seat is already named reviewer; nothing was renamed"),
        ("reviewer", "other", "rename.taken: \"other\" is already a seat of the file (line 9); nothing was renamed"),
        ("reviewer", "bob", "rename.taken: \"bob\" is already seat \"other\"'s nickname (@bob); nothing was renamed"),
        ("reviewer", "rex", "rename.taken: \"rex\" is already seat \"reviewer\"'s nickname (@rex); nothing was renamed"),
    ];
    for (old, new, want) in cases {
        assert_eq!(err(run(&w, &h, old, new, false)), want);
    }
    assert!(calls.calls().iter().all(|a| a.len() == 2 && a[1] == "--version"), "{:?}", calls.calls());
    assert_eq!(text(&w), FX);
    assert!(!w.ctx.paths.config.exists() && !w.file.root.join(".agents/team.state.json").exists());
    // each refusal (not the dry run's) wrote its own line, naming its row
    let log = std::fs::read_to_string(w.file.root.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().count(), cases.len() + 2, "{log}");
    assert!(log.lines().next().unwrap().contains("\"outcome\":\"caller\""), "{log}");
}

#[test]
fn a_name_written_in_a_form_it_does_not_rewrite_is_refused() {
    let w = world_with(
        "project: beacon\nsession: teamfx\ncoordinator: &k reviewer\nseats:\n  - name: *k\n    cli: codex\n",
    );
    let (h, _) = herdr(FixtureRunner::of(V082));
    let e = run(&w, &h, "reviewer", "rev2", false).unwrap_err();
    assert_eq!(
        (e.id.as_str(), e.message().as_str()),
        ("rename.form", "line 5: name: names the seat as `*k`, a form this run does not rewrite; nothing was renamed")
    );
    assert_eq!(e.repair().as_deref(), Some("write the seat's name there plainly (reviewer), then run this again"));
}

#[test]
fn a_new_name_the_state_or_the_registry_already_holds_is_refused() {
    let w = world_with(FX);
    registered(&w, "rev2");
    let (h, _) = herdr(FixtureRunner::of(V082));
    let e = run(&w, &h, "reviewer", "rev2", false).unwrap_err();
    assert_eq!(
        format!("{}: {}", e.id, e.message()),
        "rename.recorded: .agents/team.state.json already holds a record of rev2 in session \"teamfx\"; nothing was renamed"
    );
    std::fs::remove_file(w.file.root.join(".agents/team.state.json")).unwrap();
    let e = run(&w, &h, "reviewer", "rev2", false).unwrap_err();
    assert_eq!(
        format!("{}: {}", e.id, e.message()),
        "rename.recorded: the registry already holds rev2@beacon (agt_00000000000000a1); nothing was renamed"
    );
    assert!(e.repair().unwrap().starts_with("it is a seat the file no longer declares: remove its record from "));
    assert_eq!(text(&w), FX);
}

#[test]
fn a_write_that_fails_part_way_says_what_was_renamed_and_the_same_run_finishes_it() {
    let w = world_with(FX);
    registered(&w, "reviewer");
    // the registry's lock cannot be opened: its write fails after the file's and the state's
    let lock = w.ctx.paths.config.join("teams.lock");
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let (h, _) = herdr(stopped());
    let e = run(&w, &h, "reviewer", "rev2", false).unwrap_err();
    assert_eq!(e.id, "rename.part-way");
    assert!(
        e.message().ends_with("; the file and its state record were renamed, the rest still names reviewer"),
        "{}",
        e.message()
    );
    assert_eq!(
        e.repair().as_deref(),
        Some("run team rename reviewer rev2 again: it renames what still names reviewer")
    );
    assert!(text(&w).contains("name: rev2"));
    assert!(Registry::load(&w.ctx.paths.config).unwrap().agent_for("beacon", "reviewer").is_some());
    std::fs::remove_dir(&lock).unwrap();
    let r = run(&w, &h, "reviewer", "rev2", false).unwrap();
    assert_eq!(
        r.line,
        "reviewer: renamed to rev2 — its registry record (agt_00000000000000a1); the file already named it rev2; no pane was renamed (the herdr server of session \"teamfx\" is not running)"
    );
    let reg = Registry::load(&w.ctx.paths.config).unwrap();
    assert_eq!(reg.agent_for("beacon", "rev2").map(|a| a.id.as_str()), Some(ID));
    assert!(State::load(&w.file.root).unwrap().seat("teamfx", "rev2").is_some());
}
