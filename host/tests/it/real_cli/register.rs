//! `team register` and `team route` against the real Claude Code 2.1.332: a CLI the owner
//! started by hand in a marked pane is registered with its own process identity and the live
//! socket its sessions registry names (`<HOME>/.claude/sessions/<pid>.json`, written by the
//! CLI itself), then routed live — and sent to, through the record.

use super::checks::CONTEXT;
use super::harness::RealWorld;
use serde_json::Value;

#[test]
fn a_claude_started_by_hand_is_registered_with_its_own_socket_and_routed_live() {
    let rw = RealWorld::start();
    let claude = rw.claude("claude-keeper", "claude-keeper");
    // the CLI's own entry: its pid, its start time, its socket, the name SendMessage addresses
    let sessions = claude.home.join(".claude/sessions");
    let entry: Value = std::fs::read_dir(&sessions)
        .unwrap_or_else(|e| panic!("{}: {e}", sessions.display()))
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
        .next()
        .expect("the real Claude wrote its sessions-registry entry");
    let (pid, sock, name) = (
        entry["pid"].as_u64().unwrap(),
        entry["messagingSocketPath"].as_str().unwrap().to_string(),
        entry["name"].as_str().unwrap().to_string(),
    );

    let r = rw.w.team(&["register", "claude-keeper"]);
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (format!("claude-keeper: registered — pane {}; nothing was launched\n", claude.pane).as_str(), "", 0)
    );
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(rw.w.repo.join(".agents/team.state.json")).unwrap()).unwrap();
    let rec = &state["sessions"]["beacon"]["seats"]["claude-keeper"];
    assert_eq!(rec["process"]["pid"].as_u64(), Some(pid), "{rec}");
    assert_eq!(rec["process"]["start"].to_string(), entry["procStart"].as_str().unwrap(), "{rec}");
    let agents = rw.w.config.join("agents");
    let record: String =
        std::fs::read_dir(&agents).unwrap().flatten().map(|e| std::fs::read_to_string(e.path()).unwrap()).collect();
    assert!(record.contains(&format!("socket: {sock}\n")), "{record}");
    assert!(record.contains(&format!("native_session: {name}\n")), "{record}");

    let r = rw.w.team(&["route", "claude-keeper", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    assert_eq!(doc["socket_state"], "live", "{doc}");
    assert_eq!(doc["address"], sock.as_str());
    assert_eq!(doc["recipient_session"], name.as_str());
    assert_eq!(doc["native"], true);

    // the registered seat is reached through its record: a plain send to it is delivered
    let r = rw.w.team(&["send", "claude-keeper", "the gate is green"]);
    assert_eq!((r.stdout.as_str(), r.code), (format!("{CONTEXT}\nclaude-keeper: delivered\n").as_str(), 0), "{r:?}");
}
