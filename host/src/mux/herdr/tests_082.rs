//! The herdr adapter against herdr 0.8.2's recorded outputs (`tests/data/herdr-0.8.2/`, with
//! the real Claude Code 2.1.332 and Codex 0.171.0 in `real/`), and across versions.

use super::replay::{argv, herdr, printed_by_main, starts_alt_screen_collection, FixtureRunner, V071, V082};
use super::*;

const CLAUDE: &str = "claude-code-2.1.332";
const CODEX: &str = "codex-0.171.0";

fn recorded() -> FixtureRunner {
    FixtureRunner::running(V082, &["teamfx", "teamrh"])
}

fn lead() -> PaneRef {
    PaneRef { id: "w1:p2".into(), session: "teamrh".into(), seat: "lead".into(), shell_pid: Some(27311) }
}

fn rev() -> PaneRef {
    PaneRef { id: "w1:p3".into(), session: "teamrh".into(), seat: "rev".into(), shell_pid: Some(29272) }
}

#[test]
fn a_working_claude_is_located_read_and_asked_with_the_title_from_agent_get() {
    let (h, r) = herdr(recorded().real_state(CLAUDE, "working", "lead", "w1:p2", None));
    assert_eq!(h.surface().unwrap().version, surface::Version(0, 8, 2));
    let p = h.locate("teamrh", "lead").unwrap();
    assert_eq!(p, lead());
    let c = h.read(&p).unwrap();
    let visible =
        std::fs::read_to_string(super::replay::data(V082).join("real").join(CLAUDE).join("working.visible.ansi"))
            .unwrap();
    assert_eq!(c.styled, split_rows(&visible));
    // 0.8 matches Claude's half-circle spinner; the title is `agent get`'s terminal_title
    assert_eq!(c.title, "◐ Claude Code");
    assert!(c.plain.iter().any(|r| r.contains("esc to interrupt")), "{:#?}", c.plain);
    assert_eq!(c.recent, plain_rows(&split_rows(&visible)));
    assert_eq!(h.status(&p).unwrap(), Some(StatusRead { status: AgentStatus::Working, change: Some(3) }));
    let calls = r.calls();
    // no `agent explain` on 0.8, and no read that makes the server scroll the CLI
    assert!(!calls.iter().any(|a| a.contains(&"explain".to_string())), "{calls:?}");
    assert!(!calls.iter().any(|a| starts_alt_screen_collection(a)), "{calls:?}");
    assert_eq!(calls.iter().filter(|a| a[..2] == ["herdr", "--version"]).count(), 1);
    assert_eq!(calls.iter().filter(|a| a.last().map(String::as_str) == Some("status")).count(), 1);
}

#[test]
fn every_recorded_real_state_reads_with_herdr_s_status_its_change_number_and_the_title() {
    type Case = (&'static str, AgentStatus, u64, &'static str);
    let claude: [Case; 7] = [
        // 0.8 reads Claude's trust dialog as blocked (0.7.1: idle)
        ("trust-dialog", AgentStatus::Blocked, 1, ""),
        ("idle-empty", AgentStatus::Idle, 2, "✳ Claude Code"),
        ("composer-typed", AgentStatus::Idle, 2, "✳ Claude Code"),
        ("working", AgentStatus::Working, 3, "◐ Claude Code"),
        ("idle-after-reply", AgentStatus::Idle, 4, "✳ Claude Code"),
        ("permission", AgentStatus::Blocked, 5, "✳ Claude Code"),
        ("after-permission", AgentStatus::Idle, 7, "✳ Claude Code"),
    ];
    let codex: [Case; 7] = [
        ("trust-dialog", AgentStatus::Idle, 9, ""),
        ("idle-empty", AgentStatus::Idle, 9, "proj-codex"),
        ("composer-typed", AgentStatus::Idle, 9, "proj-codex"),
        ("working", AgentStatus::Working, 10, "⠏ say hello in one line | proj-codex"),
        ("idle-after-reply", AgentStatus::Idle, 11, "say hello in one line | proj-codex"),
        ("permission", AgentStatus::Blocked, 13, "[ ! ] Action Required | say hello in one line | proj-codex"),
        ("after-permission", AgentStatus::Idle, 14, "say hello in one line | proj-codex"),
    ];
    for (cli, name, pane, cases) in [(CLAUDE, "lead", lead(), claude), (CODEX, "rev", rev(), codex)] {
        for (state, status, change, title) in cases {
            let (h, r) = herdr(recorded().real_state(cli, state, name, &pane.id, None));
            let p = h.locate("teamrh", name).unwrap_or_else(|e| panic!("{cli} {state}: {e}"));
            assert_eq!(p, pane, "{cli} {state}");
            let c = h.read(&p).unwrap_or_else(|e| panic!("{cli} {state}: {e}"));
            assert_eq!(c.title, title, "{cli} {state}");
            assert!(!c.styled.is_empty(), "{cli} {state}");
            assert_eq!(h.status(&p).unwrap(), Some(StatusRead { status, change: Some(change) }), "{cli} {state}");
            assert!(!r.calls().iter().any(|a| starts_alt_screen_collection(a)), "{cli} {state}");
        }
    }
}

#[test]
fn an_exited_cli_is_told_from_a_seat_never_there_by_the_pane_it_was_last_seen_on() {
    for (cli, name, pane) in [(CLAUDE, "lead", lead()), (CODEX, "rev", rev())] {
        // 0.8 cleared the name: with no record of the seat's pane it is "no agent named"
        let (h, _) = herdr(recorded().real_state(cli, "after-exit", name, &pane.id, None));
        assert_eq!(
            h.locate("teamrh", name).unwrap_err(),
            MuxError::NoSeat(format!("herdr session \"teamrh\" has no agent named \"{name}\""))
        );
        // the pane it was last seen on is back at its shell: that pane, which the profile reads
        // as exited, and herdr's status reads `unknown` as 0.7.1's did
        let (mut h, _) = herdr(recorded().real_state(cli, "after-exit", name, &pane.id, None));
        h.last_seen = Box::new(|session, seat| match (session, seat) {
            ("teamrh", "lead") => Some("w1:p2".into()),
            ("teamrh", "rev") => Some("w1:p3".into()),
            _ => None,
        });
        let p = h.locate("teamrh", name).unwrap();
        assert_eq!(p, pane, "{cli}");
        let c = h.read(&p).unwrap();
        assert_eq!(c.title, "", "{cli}");
        assert!(c.plain.last().is_some_and(|r| r.ends_with('#')), "{cli}: a shell prompt: {:#?}", c.plain);
        assert_eq!(h.status(&p).unwrap(), Some(StatusRead { status: AgentStatus::Unknown, change: None }), "{cli}");
    }
    // the pane it was last seen on runs something else now: never there
    let (mut h, _) = herdr(
        recorded()
            .on(&["--session", "teamfx", "agent", "get", "gravity"], 1, "error-agent-get-exited-name.stderr.json")
            .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p2"], 0, "pane-process-info-agent.json")
            .on(
                &["--session", "teamfx", "pane", "process-info", "--pane", "w1:p99"],
                1,
                "error-pane-process-info-unknown.stderr.json",
            ),
    );
    h.last_seen = Box::new(|_, _| Some("w1:p2".into()));
    let never = MuxError::NoSeat("herdr session \"teamfx\" has no agent named \"gravity\"".into());
    assert_eq!(h.locate("teamfx", "gravity").unwrap_err(), never);
    // …or is gone
    h.last_seen = Box::new(|_, _| Some("w1:p99".into()));
    assert_eq!(h.locate("teamfx", "gravity").unwrap_err(), never);
}

#[test]
fn names_labels_and_plain_shells_are_told_as_on_0_7_1() {
    let (h, _) = herdr(
        recorded()
            .on(&["--session", "teamfx", "agent", "get", "nosuch"], 1, "error-agent-get-unknown.stderr.json")
            // a detected label is no target on 0.8 (0.7.1 answered the labelled agent)
            .on(&["--session", "teamfx", "agent", "get", "codex"], 1, "error-agent-get-by-label.stderr.json")
            .on(&["--session", "teamfx", "agent", "get", "reviewer"], 0, "agent-get-by-name.json")
            .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p2"], 0, "pane-process-info-agent.json"),
    );
    for seat in ["nosuch", "codex"] {
        assert_eq!(
            h.locate("teamfx", seat).unwrap_err(),
            MuxError::NoSeat(format!("herdr session \"teamfx\" has no agent named \"{seat}\""))
        );
    }
    let p = h.locate("teamfx", "reviewer").unwrap();
    assert_eq!(
        p,
        PaneRef { id: "w1:p2".into(), session: "teamfx".into(), seat: "reviewer".into(), shell_pid: Some(21440) }
    );
}

#[test]
fn a_stopped_server_and_a_missing_session_read_as_on_0_7_1() {
    // `status` first: "not running", then `session list --json` tells the two apart
    let stopped = |session: &str, list: &str| {
        FixtureRunner::of(V082).on(&["--session", session, "status"], 0, "status-not-running.txt").on(
            &["session", "list", "--json"],
            0,
            list,
        )
    };
    let (h, _) = herdr(stopped("teamfx", "session-list-after-stop.json"));
    assert_eq!(
        h.locate("teamfx", "lead").unwrap_err(),
        MuxError::ServerStopped("the herdr server of session \"teamfx\" is not running".into())
    );
    let (h, _) = herdr(stopped("nosuch", "session-list-running.json"));
    assert_eq!(
        h.locate("nosuch", "lead").unwrap_err(),
        // (the running sessions are named: of the recorded two, teamfx runs)
        MuxError::NoSession("there is no herdr session \"nosuch\"; the herdr sessions running are teamfx".into())
    );
    // a server that stopped after `status` answered: 0.8's JSON `server_not_running` (the text
    // today's 0.7.1-only reading surfaced as "herdr agent get failed: no herdr server …")
    let (h, r) = herdr(
        recorded()
            .on(&["--session", "teamfx", "agent", "get", "lead"], 1, "error-server-not-running-agent-get.stderr.json")
            .on(&["session", "list", "--json"], 0, "session-list-after-stop.json"),
    );
    assert_eq!(
        h.locate("teamfx", "lead").unwrap_err(),
        MuxError::ServerStopped("the herdr server of session \"teamfx\" is not running".into())
    );
    assert_eq!(r.calls().last().unwrap(), &argv(&["session", "list", "--json"]));
    let p = PaneRef { id: "w1:p1".into(), session: "teamfx".into(), seat: "lead".into(), shell_pid: None };
    let (h, _) = herdr(
        recorded()
            .on(
                &["--session", "teamfx", "pane", "send-keys", "w1:p1", "enter"],
                1,
                "error-server-stopped-pane-list.stderr.json",
            )
            .on(&["session", "list", "--json"], 0, "session-list-stopped.json"),
    );
    assert_eq!(
        h.press_enter(&p).unwrap_err(),
        MuxError::NoSession("there is no herdr session \"teamfx\"; no herdr session is running".into())
    );
}

#[test]
fn a_client_and_server_of_different_protocols_are_their_own_unreachable_naming_both() {
    // the 0.8.2 client and a 0.7.1 server: every socket command would say protocol_mismatch
    let (h, r) =
        herdr(FixtureRunner::of(V082).on(&["--session", "teamfx71", "status"], 0, "cross-server071-status.txt"));
    let e = h.locate("teamfx71", "lead").unwrap_err();
    assert_eq!(
        e,
        MuxError::Mismatch(
            "herdr here is 0.8.2 (protocol 20) but the server of session \"teamfx71\" runs herdr 0.7.1 (protocol 14), which it cannot talk to; restart that server with this herdr: herdr session stop teamfx71, then herdr session attach teamfx71 (its panes' programs exit)".into()
        )
    );
    assert_eq!(r.calls().len(), 2, "nothing is asked of a server the client cannot talk to");
    // the 0.7.1 client and a 0.8.2 server: the old client does not check, its calls half work
    let (h, r) = herdr(FixtureRunner::of(V071).on_from(
        V082,
        &["--session", "teamfx", "status"],
        0,
        "cross-client071-status.txt",
    ));
    let e = h.locate("teamfx", "lead").unwrap_err();
    assert_eq!(
        e,
        MuxError::Mismatch(
            "herdr here is 0.7.1 (protocol 14) but the server of session \"teamfx\" runs herdr 0.8.2 (protocol 20), which it cannot talk to; run the herdr that started it (installed where team looks for it: docs/multiplexers.md), or restart that server with this herdr: herdr session stop teamfx, then herdr session attach teamfx (its panes' programs exit)".into()
        )
    );
    assert_eq!(r.calls().len(), 2);
    // a mismatch a call reports itself (the server was replaced after `status` answered)
    let (h, _) = herdr(recorded().on(
        &["--session", "teamfx", "agent", "get", "lead"],
        1,
        "cross-server071-agent-get.stderr.json",
    ));
    match h.locate("teamfx", "lead").unwrap_err() {
        MuxError::Mismatch(m) => assert!(
            m.contains("client protocol 20 is newer than server protocol 14")
                && m.contains("herdr session stop teamfx"),
            "{m}"
        ),
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_pane_that_went_away_is_no_seat_in_0_8_s_shapes() {
    let p = PaneRef { id: "w1:p99".into(), session: "teamfx".into(), seat: "rev".into(), shell_pid: None };
    let (h, _) = herdr(
        recorded()
            .on(
                &["--session", "teamfx", "pane", "send-text", "w1:p99", "x"],
                1,
                "error-pane-send-text-unknown.stderr.json",
            )
            .on(
                &["--session", "teamfx", "pane", "send-keys", "w1:p99", "enter"],
                1,
                "error-pane-send-keys-unknown.stderr.json",
            )
            .on(
                &["--session", "teamfx", "pane", "process-info", "--pane", "w1:p99"],
                1,
                "error-pane-process-info-unknown.stderr.json",
            ),
    );
    let gone = MuxError::NoSeat("the pane w1:p99 of seat \"rev\" in herdr session \"teamfx\" is gone".into());
    assert_eq!(h.type_text(&p, "x").unwrap_err(), gone);
    assert_eq!(h.press_enter(&p).unwrap_err(), gone);
    assert_eq!(h.foreground_processes(&p).unwrap_err(), gone);
}

#[test]
fn typing_and_enter_are_two_calls_and_never_agent_prompt() {
    let p = PaneRef { id: "w1:p2".into(), session: "teamfx".into(), seat: "reviewer".into(), shell_pid: None };
    let (h, r) = herdr(
        recorded()
            .on(&["--session", "teamfx", "pane", "send-text", "w1:p2", "hello from team"], 0, "pane-send-text.txt")
            .on(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "enter"], 0, "pane-send-keys-enter.txt")
            .on(
                &["--session", "teamfx", "pane", "send-keys", "w1:p5", "enter"],
                1,
                "error-pane-send-keys-invalid-key.stderr.json",
            ),
    );
    h.type_text(&p, "hello from team").unwrap();
    h.press_enter(&p).unwrap();
    assert_eq!(
        r.calls()[2..],
        [
            argv(&["--session", "teamfx", "pane", "send-text", "w1:p2", "hello from team"]),
            argv(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "enter"]),
        ]
    );
    let q = PaneRef { id: "w1:p5".into(), ..p };
    assert_eq!(
        h.press_enter(&q).unwrap_err(),
        MuxError::Failed("herdr pane send-keys failed: unsupported key notakey (invalid_key)".into())
    );
}

#[test]
fn foreground_processes_fall_back_to_herdr_s_view() {
    let (h, _) = herdr(recorded().real_state(CODEX, "working", "rev", "w1:p3", None));
    let procs = h.foreground_processes(&rev()).unwrap();
    let names: Vec<(u32, &str)> = procs.iter().map(|p| (p.pid, p.name.as_str())).collect();
    assert_eq!(names, vec![(29283, "node"), (29296, "codex")]);
}

#[test]
fn the_collection_rule_matches_what_herdr_recorded() {
    // The recorded durations the rule stands for: a text read of 200 recent rows of an idle
    // real CLI took hundreds of ms; ANSI, or 40 rows, took a few.
    let index: Value = serde_json::from_slice(
        &std::fs::read(super::replay::data(V082).join("real").join(CODEX).join("index.json")).unwrap(),
    )
    .unwrap();
    let idle = index["states"].as_array().unwrap().iter().find(|s| s["state"] == "idle-empty").unwrap();
    let recent = &idle["files"]["recent"];
    let a: Vec<String> = recent["argv"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert!(starts_alt_screen_collection(&a) && recent["duration_ms"].as_f64().unwrap() > 200.0);
    for case in index["cases"].as_array().unwrap() {
        let a: Vec<String> = case["argv"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
        if ["idle.read-recent-ansi", "idle.read-recent-40"].contains(&case["case"].as_str().unwrap()) {
            assert!(!starts_alt_screen_collection(&a), "{a:?}");
        }
        if case["case"] == "idle.agent-read-lines" {
            assert!(starts_alt_screen_collection(&a) && case["duration_ms"].as_f64().unwrap() > 200.0);
        }
    }
}

/// A sandbox that keeps this process from the server's socket (Codex's bubblewrap, seccomp,
/// Landlock: EPERM or EACCES on connect) is said as a sandbox on both versions — herdr reports
/// only NotFound and ConnectionRefused as `server_not_running`, and prints any other error in
/// Rust's Debug form — never as a stopped server or a session that does not exist.
#[test]
fn a_connection_a_sandbox_refused_is_a_sandbox_in_the_way_not_a_stopped_server() {
    for set in [V071, V082] {
        // refused at the first call of a run (the session check)
        let r = FixtureRunner::of(set).on_stderr(&["--session", "teamrh", "status"], 1, &printed_by_main(1));
        let (h, _) = herdr(r);
        assert_eq!(
            h.locate("teamrh", "lead").unwrap_err(),
            MuxError::Sandboxed(
                "the herdr server of session \"teamrh\" refused this process's connection (operation not permitted)"
                    .into()
            ),
            "{set}"
        );
        // refused later, on a call of its own
        let r = FixtureRunner::running(set, &["teamrh"]).on_stderr(
            &["--session", "teamrh", "agent", "get", "lead"],
            1,
            &printed_by_main(13),
        );
        let (h, _) = herdr(r);
        assert!(
            matches!(h.locate("teamrh", "lead").unwrap_err(), MuxError::Sandboxed(m) if m.ends_with("(permission denied)")),
            "{set}"
        );
    }
}
