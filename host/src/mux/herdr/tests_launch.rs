//! `team up`'s and `team down`'s herdr calls (`launch.rs`) against the recorded answers of
//! herdr 0.8.2 and 0.7.1 (`tests/data/`). Where a call's argv is not the very argv recorded,
//! the answer is the recording of the same command on another pane or text, and the test says so.

use super::launch::startable;
use super::replay::{argv, herdr, FixtureRunner, V071, V082};
use super::*;
use crate::vocab::key::Key;
use std::path::Path;

const CWD: &str = "<home>/fakeproj";

fn pane(id: &str, seat: &str) -> PaneRef {
    PaneRef { id: id.into(), session: "teamfx".into(), seat: seat.into(), shell_pid: None }
}

fn calls(r: &FixtureRunner) -> Vec<Vec<String>> {
    // the version and session checks aside
    r.calls()
        .into_iter()
        .filter(|a| !a.contains(&"--version".to_string()) && a.last().map(String::as_str) != Some("status"))
        .collect()
}

#[test]
fn on_0_8_2_the_first_seat_creates_the_team_s_workspace_and_agent_start_names_it_as_it_launches() {
    let r = FixtureRunner::running(V082, &["teamfx"])
        .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list-empty.json")
        .on(
            &["--session", "teamfx", "workspace", "create", "--cwd", CWD, "--label", "fixture-ws", "--no-focus"],
            0,
            "workspace-create.json",
        )
        // the recorded process-info of a plain shell pane (w1:p5's): w1:p1 is one here too
        .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p1"], 0, "pane-process-info-shell.json")
        .on(
            &["--session", "teamfx", "agent", "start", "lead", "--kind", "claude", "--pane", "w1:p1"],
            0,
            "agent-start.json",
        );
    let (h, r) = herdr(r);
    let p = h.open_team_seat("teamfx", Path::new(CWD), "lead", "fixture-ws").unwrap();
    assert_eq!((p.id.as_str(), p.workspace.as_deref(), p.shell_pid), ("w1:p1", Some("w1"), Some(21461)));
    h.launch(&pane("w1:p1", "lead"), "claude").unwrap();
    assert_eq!(
        calls(&r),
        vec![
            argv(&["--session", "teamfx", "workspace", "list"]),
            argv(&["--session", "teamfx", "workspace", "create", "--cwd", CWD, "--label", "fixture-ws", "--no-focus"]),
            argv(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p1"]),
            // no rename of the plain shell (0.8 refuses it), nothing typed by team
            argv(&["--session", "teamfx", "agent", "start", "lead", "--kind", "claude", "--pane", "w1:p1"]),
        ]
    );
}

#[test]
fn on_0_8_2_a_further_seat_is_a_tab_of_the_team_s_workspace_and_its_launch_args_follow_a_double_dash() {
    let r = FixtureRunner::running(V082, &["teamfx"])
        .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list.json")
        .on(
            &[
                "--session",
                "teamfx",
                "tab",
                "create",
                "--workspace",
                "w1",
                "--label",
                "codex",
                "--cwd",
                CWD,
                "--no-focus",
            ],
            0,
            "tab-create.json",
        )
        .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p2"], 0, "pane-process-info-agent.json")
        .on(
            &[
                "--session",
                "teamfx",
                "agent",
                "start",
                "helper2",
                "--kind",
                "codex",
                "--pane",
                "w1:p6",
                "--",
                "--fake-arg",
            ],
            0,
            "agent-start-split.json",
        );
    let (h, r) = herdr(r);
    let p = h.open_team_seat("teamfx", Path::new(CWD), "codex", "team-fixtures").unwrap();
    assert_eq!((p.id.as_str(), p.workspace.as_deref()), ("w1:p2", Some("w1")));
    // a workspace of another label is not the team's: a second team gets its own
    assert!(calls(&r).contains(&argv(&[
        "--session",
        "teamfx",
        "tab",
        "create",
        "--workspace",
        "w1",
        "--label",
        "codex",
        "--cwd",
        CWD,
        "--no-focus"
    ])));
    let recorded = std::fs::read_to_string(super::replay::data(V082).join("agent-start-split.json")).unwrap();
    assert!(recorded.contains("\"name\":\"helper2\""), "{recorded}");
    h.launch(&pane("w1:p6", "helper2"), "codex --fake-arg").unwrap();
}

#[test]
fn on_0_8_2_a_seat_stopped_at_a_startup_dialog_is_launched_and_left_for_the_wait_to_report() {
    let r = FixtureRunner::running(V082, &["teamfx"]).on(
        &["--session", "teamfx", "agent", "start", "asker", "--kind", "claude", "--pane", "w1:p7"],
        1,
        "error-agent-start-blocked-at-startup.stderr.json",
    );
    let (h, _) = herdr(r);
    assert_eq!(h.launch(&pane("w1:p7", "asker"), "claude"), Ok(()));
}

#[test]
fn on_0_8_2_a_name_herdr_refuses_fails_the_launch_with_herdr_s_words() {
    let r = FixtureRunner::running(V082, &["teamfx"]).on(
        &["--session", "teamfx", "agent", "start", "lead", "--kind", "codex", "--pane", "w1:p6"],
        1,
        "error-agent-start-duplicate-name.stderr.json",
    );
    let (h, _) = herdr(r);
    let e = h.launch(&pane("w1:p6", "lead"), "codex").unwrap_err().to_string();
    assert!(e.starts_with("herdr agent start failed: ") && e.contains("agent_name_taken"), "{e}");
}

#[test]
fn on_0_7_1_the_pane_s_shell_is_named_as_the_seat_before_the_launch_is_typed_into_it() {
    let r = FixtureRunner::running(V071, &["teamfx"])
        .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list.json")
        // 0.7.1's recorded tab create had no --cwd (which 0.7.1 takes): its answer
        .on(
            &[
                "--session",
                "teamfx",
                "tab",
                "create",
                "--workspace",
                "w1",
                "--label",
                "reviewer",
                "--cwd",
                CWD,
                "--no-focus",
            ],
            0,
            "tab-create.json",
        )
        .on(&["--session", "teamfx", "agent", "rename", "w1:p2", "reviewer"], 0, "agent-rename.json")
        .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p2"], 0, "pane-process-info-agent.json")
        // the recorded send-text answer (of other text): it prints nothing
        .on(&["--session", "teamfx", "pane", "send-text", "w1:p2", "codex --no-daemon"], 0, "pane-send-text.txt")
        .on(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "enter"], 0, "pane-send-keys-enter.txt");
    let (h, r) = herdr(r);
    let p = h.open_team_seat("teamfx", Path::new(CWD), "reviewer", "team-fixtures").unwrap();
    assert_eq!((p.id.as_str(), p.name.as_str()), ("w1:p2", "reviewer"));
    h.launch(&pane("w1:p2", "reviewer"), "codex --no-daemon").unwrap();
    let c = calls(&r);
    let at = |a: &[&str]| c.iter().position(|x| *x == argv(a)).unwrap_or_else(|| panic!("{a:?} not in {c:#?}"));
    let named = at(&["--session", "teamfx", "agent", "rename", "w1:p2", "reviewer"]);
    let typed = at(&["--session", "teamfx", "pane", "send-text", "w1:p2", "codex --no-daemon"]);
    assert!(named < typed, "{c:#?}");
    assert!(!c.iter().any(|a| a.contains(&"start".to_string())), "{c:#?}");
}

#[test]
fn on_0_7_1_a_new_pane_that_does_not_take_the_name_is_closed_again() {
    let r = FixtureRunner::running(V071, &["teamfx"])
        .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list.json")
        .on(
            &[
                "--session",
                "teamfx",
                "tab",
                "create",
                "--workspace",
                "w1",
                "--label",
                "reviewer",
                "--cwd",
                CWD,
                "--no-focus",
            ],
            0,
            "tab-create.json",
        )
        // the name taken by another pane (recorded for w1:p1; the same refusal)
        .on(
            &["--session", "teamfx", "agent", "rename", "w1:p2", "reviewer"],
            1,
            "error-agent-rename-duplicate.stderr.json",
        )
        .on(&["--session", "teamfx", "pane", "close", "w1:p2"], 0, "pane-close.json");
    let (h, r) = herdr(r);
    let e = h.open_team_seat("teamfx", Path::new(CWD), "reviewer", "team-fixtures").unwrap_err();
    assert_eq!(e.to_string(), "herdr did not take the name \"reviewer\" for the new pane w1:p2; it was closed");
    let calls = calls(&r);
    assert!(calls.contains(&argv(&["--session", "teamfx", "pane", "close", "w1:p2"])), "{calls:?}");
    // the workspace holds another pane: the server runs on
    assert_eq!(calls.last().unwrap(), &argv(&["--session", "teamfx", "workspace", "list"]));
}

#[test]
fn down_closes_a_pane_and_presses_keys_by_herdr_s_names_on_both_versions() {
    for set in [V071, V082] {
        let r = FixtureRunner::running(set, &["teamfx"])
            .on(&["--session", "teamfx", "pane", "close", "w1:p5"], 0, "pane-close.json")
            // another workspace is left: the server runs on
            .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list.json")
            .on(&["--session", "teamfx", "pane", "close", "w1:p99"], 1, "error-pane-send-keys-unknown.stderr.json")
            .on(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "enter"], 0, "pane-send-keys-enter.txt")
            // the recorded answer of a key the pane took: send-keys prints nothing
            .on(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "ctrl+c"], 0, "pane-send-keys-enter.txt");
        let (h, r) = herdr(r);
        h.close_pane("teamfx", "w1:p5").unwrap();
        // a pane already gone counts as closed (herdr's recorded pane_not_found, from send-keys)
        h.close_pane("teamfx", "w1:p99").unwrap();
        h.press_key(&pane("w1:p2", "rev"), Key::Enter).unwrap();
        h.press_key(&pane("w1:p2", "rev"), Key::CtrlC).unwrap();
        // the two closes, the look at what the server still holds after the one that closed, the keys
        assert_eq!(calls(&r).len(), 5, "{set}");
    }
}

#[test]
fn a_launch_line_goes_to_agent_start_only_when_herdr_can_carry_it_word_for_word() {
    assert_eq!(startable("codex --no-daemon"), Some(("codex", vec!["--no-daemon".to_string()])));
    assert_eq!(startable("claude"), Some(("claude", vec![])));
    assert_eq!(startable("cursor-agent --x=1"), Some(("cursor", vec!["--x=1".to_string()])));
    // a program that is no herdr kind, shell syntax, quoting: typed by team instead
    assert_eq!(startable("/opt/bin/fake-seat --cli codex"), None);
    assert_eq!(startable("FOO=1 claude"), None);
    assert_eq!(startable("claude 'a b'"), None);
    assert_eq!(startable("claude; rm -rf x"), None);
    assert_eq!(startable("codex $HOME"), None);
    assert_eq!(startable(""), None);
}

#[test]
fn the_team_s_panes_are_looked_for_only_in_the_workspace_its_name_labels() {
    for set in [V071, V082] {
        let r = FixtureRunner::running(set, &["teamfx"]).on(
            &["--session", "teamfx", "workspace", "list"],
            0,
            "workspace-list.json",
        );
        let (h, r) = herdr(r);
        // the recorded workspace is labelled team-fixtures: another team has no pane there
        assert_eq!(h.team_panes("teamfx", "beacon").unwrap(), Vec::new(), "{set}");
        assert_eq!(calls(&r), vec![argv(&["--session", "teamfx", "workspace", "list"])], "{set}");
    }
}

#[test]
fn a_session_whose_server_does_not_run_gets_one_started_and_answering_on_both_versions() {
    for set in [V082, V071] {
        let r = FixtureRunner::of(set)
            .on(&["--session", "teamfx", "status"], 0, "status-not-running.txt")
            .on_after_start(&["--session", "teamfx", "status"], 0, "status-running.txt");
        let (h, r) = herdr(r);
        assert_eq!(h.ensure_server("teamfx").unwrap(), super::server::Server::Started, "{set}");
        assert_eq!(r.started(), vec![argv(&["--session", "teamfx", "server"])], "{set}");
    }
}

#[test]
fn on_0_8_2_the_first_seat_of_a_stopped_session_opens_once_its_started_server_answers() {
    let r = FixtureRunner::of(V082)
        .on(&["--session", "teamfx", "status"], 0, "status-not-running.txt")
        .on_after_start(&["--session", "teamfx", "status"], 0, "status-running.txt")
        .on_after_start(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list-empty.json")
        .on_after_start(
            &["--session", "teamfx", "workspace", "create", "--cwd", CWD, "--label", "fixture-ws", "--no-focus"],
            0,
            "workspace-create.json",
        )
        .on_after_start(
            &["--session", "teamfx", "pane", "process-info", "--pane", "w1:p1"],
            0,
            "pane-process-info-shell.json",
        );
    let (h, r) = herdr(r);
    let p = h.open_team_seat("teamfx", Path::new(CWD), "lead", "fixture-ws").unwrap();
    assert_eq!(p.id, "w1:p1");
    assert_eq!(r.started(), vec![argv(&["--session", "teamfx", "server"])]);
}

#[test]
fn a_running_server_is_never_started_again() {
    let r = FixtureRunner::running(V082, &["teamfx"])
        .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list-empty.json")
        .on(
            &["--session", "teamfx", "workspace", "create", "--cwd", CWD, "--label", "fixture-ws", "--no-focus"],
            0,
            "workspace-create.json",
        )
        .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p1"], 0, "pane-process-info-shell.json");
    let (h, r) = herdr(r);
    h.open_team_seat("teamfx", Path::new(CWD), "lead", "fixture-ws").unwrap();
    assert!(r.started().is_empty(), "{:?}", r.started());
    assert!(r.calls().contains(&argv(&["--session", "teamfx", "status"])), "the server was asked about first");
}

#[test]
fn the_server_ends_once_the_last_pane_it_held_closed_on_both_versions() {
    for set in [V082, V071] {
        let r = FixtureRunner::running(set, &["teamfx"])
            .on(&["--session", "teamfx", "pane", "close", "w1:p5"], 0, "pane-close.json")
            .on(&["--session", "teamfx", "workspace", "list"], 0, "workspace-list-empty.json")
            .on(&["session", "stop", "teamfx", "--json"], 0, "session-stop.json");
        let (h, r) = herdr(r);
        h.close_pane("teamfx", "w1:p5").unwrap();
        assert_eq!(calls(&r).last().unwrap(), &argv(&["session", "stop", "teamfx", "--json"]), "{set}");
    }
}
