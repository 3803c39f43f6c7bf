//! The herdr adapter against herdr 0.7.1's recorded outputs (`tests/data/herdr-0.7.1/`),
//! answered by [`FixtureRunner`] (see `replay.rs`).

use super::replay::{argv, data, herdr, FixtureRunner, V071};
use super::*;

/// A runner over the 0.7.1 set whose sessions `teamfx` (the fake agents) and `teamrh` (the
/// real CLIs) run.
fn recorded() -> FixtureRunner {
    FixtureRunner::running(V071, &["teamfx", "teamrh"])
}

fn lead() -> PaneRef {
    PaneRef { id: "w1:p2".into(), session: "teamrh".into(), seat: "lead".into(), shell_pid: Some(21263) }
}

fn rev() -> PaneRef {
    PaneRef { id: "w1:p3".into(), session: "teamrh".into(), seat: "rev".into(), shell_pid: Some(29530) }
}

#[test]
fn locates_reads_and_asks_the_status_of_a_working_claude() {
    let (h, r) = herdr(recorded().real_state("claude-code-2.1.197", "working", "lead", "w1:p2", None));
    assert_eq!(h.name(), "herdr");
    let p = h.locate("teamrh", "lead").unwrap();
    assert_eq!(p, lead());
    let c = h.read(&p).unwrap();
    let visible = std::fs::read_to_string(data(V071).join("real/claude-code-2.1.197/working.visible.ansi")).unwrap();
    // (this recording has `\n` line ends and no final one; the fake-agent ones have `\r\n`)
    assert_eq!(c.styled, visible.split('\n').map(str::to_string).collect::<Vec<_>>());
    assert!(c.plain.iter().any(|r| r.starts_with("  esc to interrupt · ← for agents")), "{:#?}", c.plain);
    assert!(c.plain.iter().any(|r| r == "❯\u{a0}"), "the live composer row keeps its NBSP: {:#?}", c.plain);
    assert_eq!(c.title, "⠂ Claude Code");
    let recent = std::fs::read_to_string(data(V071).join("real/claude-code-2.1.197/working.recent.txt")).unwrap();
    assert_eq!(c.recent, split_rows(&recent));
    // no tty to ask: the size is the content's extent
    assert_eq!(c.cols, 120);
    assert_eq!(h.status(&p).unwrap(), Some(StatusRead { status: AgentStatus::Working, change: None }));
    // the version once, the session's pairing once, then every call names the session
    let calls = r.calls();
    assert_eq!(calls[..2], [argv(&["--version"]), argv(&["--session", "teamrh", "status"])]);
    assert!(calls[2..].iter().all(|a| a[1] == "--session" && a[2] == "teamrh" && a[3] != "status"), "{calls:?}");
}

#[test]
fn every_recorded_real_state_reads_with_herdr_s_status_and_the_osc_title() {
    let claude = [
        ("trust-dialog", AgentStatus::Idle, ""),
        ("idle-empty", AgentStatus::Idle, "✳ Claude Code"),
        ("composer-typed", AgentStatus::Idle, "✳ Claude Code"),
        ("working", AgentStatus::Working, "⠂ Claude Code"),
        ("idle-after-reply", AgentStatus::Idle, "✳ Claude Code"),
        ("permission", AgentStatus::Blocked, "✳ Claude Code"),
        ("question", AgentStatus::Blocked, "✳ Claude Code"),
        ("permission-read", AgentStatus::Blocked, "✳ Claude Code"),
        ("after-file-read", AgentStatus::Idle, "✳ Claude Code"),
        ("provider-error", AgentStatus::Idle, "✳ Claude Code"),
        ("rate-limit", AgentStatus::Idle, "✳ Claude Code"),
        ("after-exit", AgentStatus::Unknown, ""),
    ];
    let thread = "please summarize the README in two lines | proj-codex";
    let codex: Vec<(&str, AgentStatus, String)> = vec![
        ("trust-dialog", AgentStatus::Idle, String::new()),
        ("idle-empty", AgentStatus::Idle, "proj-codex".into()),
        ("composer-typed", AgentStatus::Idle, "proj-codex".into()),
        ("working", AgentStatus::Working, format!("⠏ {thread}")),
        ("idle-after-reply", AgentStatus::Idle, thread.into()),
        ("permission", AgentStatus::Blocked, format!("[ ! ] Action Required | {thread}")),
        ("question", AgentStatus::Blocked, format!("[ . ] Action Required | {thread}")),
        ("after-file-read", AgentStatus::Idle, thread.into()),
        ("provider-error", AgentStatus::Idle, thread.into()),
        ("rate-limit", AgentStatus::Idle, thread.into()),
        ("rate-limit-dismissed", AgentStatus::Idle, thread.into()),
        ("after-exit", AgentStatus::Unknown, String::new()),
    ];
    for (state, status, title) in claude {
        let (h, _) = herdr(recorded().real_state("claude-code-2.1.197", state, "lead", "w1:p2", None));
        let p = h.locate("teamrh", "lead").unwrap_or_else(|e| panic!("{state}: {e}"));
        assert_eq!(p, lead(), "{state}");
        let c = h.read(&p).unwrap_or_else(|e| panic!("{state}: {e}"));
        assert_eq!(c.title, title, "claude {state}");
        assert!(!c.styled.is_empty(), "{state}");
        assert_eq!(h.status(&p).unwrap().map(|s| s.status), Some(status), "claude {state}");
    }
    for (state, status, title) in codex {
        let (h, _) = herdr(recorded().real_state("codex-0.171.0", state, "rev", "w1:p3", None));
        let p = h.locate("teamrh", "rev").unwrap_or_else(|e| panic!("{state}: {e}"));
        assert_eq!(p, rev(), "{state}");
        let c = h.read(&p).unwrap_or_else(|e| panic!("{state}: {e}"));
        assert_eq!(c.title, title, "codex {state}");
        assert_eq!(h.status(&p).unwrap().map(|s| s.status), Some(status), "codex {state}");
    }
}

#[test]
fn the_exited_cli_reads_as_a_shell_with_no_title() {
    let (h, _) = herdr(recorded().real_state("codex-0.171.0", "after-exit", "rev", "w1:p3", None));
    let c = h.read(&rev()).unwrap();
    assert_eq!(c.title, "");
    assert!(c.plain.iter().any(|r| r.contains("# ")), "a shell prompt: {:#?}", c.plain);
}

#[test]
fn a_target_herdr_resolves_by_label_is_not_a_seat() {
    // `agent get codex` answers the agent labelled codex, which has no name: no seat "codex".
    let (h, _) = herdr(recorded().on(&["--session", "teamfx", "agent", "get", "codex"], 0, "agent-get-by-label.json"));
    let e = h.locate("teamfx", "codex").unwrap_err();
    assert_eq!(e, MuxError::NoSeat("herdr session \"teamfx\" has no agent named \"codex\"".into()));
}

#[test]
fn a_seat_name_that_is_also_a_label_is_looked_up_by_name() {
    // `agent get codex` matches two agents labelled codex; `agent list` (recorded at the same
    // moment) has none named codex: no such seat.
    let (h, r) = herdr(
        recorded()
            .on(&["--session", "teamfx", "agent", "get", "codex"], 1, "error-agent-get-ambiguous-label.stderr.json")
            .on(&["--session", "teamfx", "agent", "list"], 0, "agent-list-after-start.json"),
    );
    let e = h.locate("teamfx", "codex").unwrap_err();
    assert_eq!(e, MuxError::NoSeat("herdr session \"teamfx\" has no agent named \"codex\"".into()));
    assert_eq!(r.calls().last().unwrap(), &argv(&["--session", "teamfx", "agent", "list"]));
}

#[test]
fn an_unknown_agent_is_no_seat() {
    let (h, _) = herdr(recorded().on(
        &["--session", "teamfx", "agent", "get", "nosuch"],
        1,
        "error-agent-get-unknown.stderr.json",
    ));
    let e = h.locate("teamfx", "nosuch").unwrap_err();
    assert_eq!(e, MuxError::NoSeat("herdr session \"teamfx\" has no agent named \"nosuch\"".into()));
    assert_eq!(e.to_string(), "herdr session \"teamfx\" has no agent named \"nosuch\"");
}

#[test]
fn an_exited_unnamed_agent_is_no_seat() {
    let (h, _) =
        herdr(recorded().on(&["--session", "teamfx", "agent", "get", "agy"], 1, "error-agent-get-exited.stderr.json"));
    assert!(matches!(h.locate("teamfx", "agy").unwrap_err(), MuxError::NoSeat(_)));
}

#[test]
fn a_server_that_is_not_running_is_told_from_a_session_that_does_not_exist() {
    // `status` says "not running" (recorded for teamfx; herdr prints the same for any session
    // with no server at its socket), then `session list --json` tells the two apart
    let stopped = |session: &str, list: &str| {
        FixtureRunner::of(V071).on(&["--session", session, "status"], 0, "status-not-running.txt").on(
            &["session", "list", "--json"],
            0,
            list,
        )
    };
    let (h, r) = herdr(stopped("teamfx", "session-list-after-stop.json"));
    let e = h.locate("teamfx", "lead").unwrap_err();
    assert_eq!(e, MuxError::ServerStopped("the herdr server of session \"teamfx\" is not running".into()));
    assert_eq!(
        r.calls(),
        vec![argv(&["--version"]), argv(&["--session", "teamfx", "status"]), argv(&["session", "list", "--json"])]
    );
    let (h, _) = herdr(stopped("nosuch", "session-list-running.json"));
    assert_eq!(
        h.locate("nosuch", "lead").unwrap_err(),
        // (the running sessions are named: of the recorded two, teamfx runs)
        MuxError::NoSession("there is no herdr session \"nosuch\"; the herdr sessions running are teamfx".into())
    );
    // a never-started session on a machine where no server runs: a read asks three things at
    // once, each told the same
    let (h, _) = herdr(stopped("teamfx", "session-list-stopped.json"));
    let p = PaneRef { id: "w1:p1".into(), session: "teamfx".into(), seat: "lead".into(), shell_pid: None };
    assert_eq!(
        h.read(&p).unwrap_err(),
        MuxError::NoSession("there is no herdr session \"teamfx\"; no herdr session is running".into())
    );
    // a server that stopped after `status` answered: 0.7.1's connection error, a Debug string
    let (h, r) = herdr(
        recorded()
            .on(&["--session", "teamfx", "agent", "get", "lead"], 1, "error-server-stopped-pane-list.stderr.txt")
            .on(&["session", "list", "--json"], 0, "session-list-after-stop.json"),
    );
    let e = h.locate("teamfx", "lead").unwrap_err();
    assert_eq!(e, MuxError::ServerStopped("the herdr server of session \"teamfx\" is not running".into()));
    assert_eq!(r.calls().last().unwrap(), &argv(&["session", "list", "--json"]));
}

#[test]
fn a_missing_program_is_named() {
    let h = Herdr::with_runner("/nonexistent/herdr", Box::new(SystemRunner));
    let e = h.locate("s", "lead").unwrap_err();
    assert_eq!(e, MuxError::ProgramMissing("herdr is not installed: no `/nonexistent/herdr`".into()));
}

#[test]
fn a_pane_that_went_away_is_no_seat() {
    let p = PaneRef { id: "w1:p99".into(), session: "teamfx".into(), seat: "rev".into(), shell_pid: None };
    let (h, _) = herdr(
        recorded()
            .on(
                &["--session", "teamfx", "pane", "read", "w1:p99", "--source", "visible", "--format", "ansi"],
                1,
                "error-pane-read-unknown.stderr.json",
            )
            .on(
                &["--session", "teamfx", "pane", "read", "w1:p99", "--source", "recent", "--lines", "200"],
                1,
                "error-pane-read-unknown.stderr.json",
            )
            // (answered with herdr's agent_not_found line, recorded for `agent get`; the read
            // reports the visible read's error first)
            .on(&["--session", "teamfx", "agent", "explain", "rev", "--json"], 1, "error-agent-get-unknown.stderr.json")
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
    // `pane read` prints the bare {code,message} object
    assert_eq!(h.read(&p).unwrap_err(), gone);
    assert_eq!(h.type_text(&p, "x").unwrap_err(), gone);
    assert_eq!(h.press_enter(&p).unwrap_err(), gone);
    assert_eq!(h.foreground_processes(&p).unwrap_err(), gone);
}

#[test]
fn typing_is_literal_text_in_one_argument_and_enter_is_its_own_call() {
    let p = PaneRef { id: "w1:p2".into(), session: "teamfx".into(), seat: "reviewer".into(), shell_pid: None };
    let (h, r) = herdr(
        recorded()
            .on(&["--session", "teamfx", "pane", "send-text", "w1:p2", "hello from team"], 0, "pane-send-text.txt")
            .on(&["--session", "teamfx", "pane", "send-keys", "w1:p2", "enter"], 0, "pane-send-keys-enter.txt"),
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
    // a text herdr would take for its own option is refused, nothing run
    for t in ["--", "--session", "--session=x"] {
        assert!(matches!(h.type_text(&p, t), Err(MuxError::Failed(_))), "{t}");
    }
    assert_eq!(r.calls().len(), 4);
}

#[test]
fn a_refused_key_is_a_failure_naming_herdr_s_reason() {
    let p = PaneRef { id: "w1:p5".into(), session: "teamfx".into(), seat: "x".into(), shell_pid: None };
    let (h, _) = herdr(recorded().on(
        &["--session", "teamfx", "pane", "send-keys", "w1:p5", "enter"],
        1,
        "error-pane-send-keys-invalid-key.stderr.json",
    ));
    assert_eq!(
        h.press_enter(&p).unwrap_err(),
        MuxError::Failed("herdr pane send-keys failed: unsupported key notakey (invalid_key)".into())
    );
}

#[test]
fn foreground_processes_fall_back_to_herdr_s_view() {
    let (h, _) = herdr(recorded().real_state("codex-0.171.0", "working", "rev", "w1:p3", None));
    let procs = h.foreground_processes(&rev()).unwrap();
    let names: Vec<(u32, &str)> = procs.iter().map(|p| (p.pid, p.name.as_str())).collect();
    assert_eq!(names, vec![(29535, "node"), (29554, "codex")]);
    assert_eq!(procs[0].cwd.as_deref(), Some(std::path::Path::new("<fx>/proj-codex")));
}

#[test]
fn the_caller_s_pane_is_the_session_s_pane_whose_shell_is_an_ancestor() {
    // `agent get w1:p2` is answered with the recording of that same agent asked by its name
    // (herdr prints one agent_info whichever target names the agent); the other panes of the
    // session answer `pane process-info` with the recording of a plain shell pane.
    let runner = || {
        let mut r = recorded()
            .on(&["--session", "teamfx", "pane", "process-info", "--pane", "w1:p2"], 0, "pane-process-info-agent.json")
            .on(&["--session", "teamfx", "agent", "get", "w1:p2"], 0, "agent-get-by-name.json")
            .on(&["--session", "teamfx", "pane", "list"], 0, "pane-list-agents.json")
            .on(
                &["--session", "teamfx", "pane", "process-info", "--pane", "w1:p99"],
                1,
                "error-pane-process-info-unknown.stderr.json",
            );
        for other in ["w1:p1", "w1:p3", "w1:p4", "w1:p5"] {
            r = r.on(
                &["--session", "teamfx", "pane", "process-info", "--pane", other],
                0,
                "pane-process-info-shell.json",
            );
        }
        r
    };
    let shell_of_others: u64 = {
        let v: Value =
            serde_json::from_slice(&std::fs::read(data(V071).join("pane-process-info-shell.json")).unwrap()).unwrap();
        v.pointer("/result/process_info/shell_pid").and_then(Value::as_u64).unwrap()
    };
    let reviewer =
        PaneRef { id: "w1:p2".into(), session: "teamfx".into(), seat: "reviewer".into(), shell_pid: Some(8247) };
    /// The recorded pids as the kernel would answer for them: every one a pane's shell, seen
    /// (or hidden) from here, under herdr's server (pid 8000).
    struct Recorded(bool);
    impl crate::mux::procfs::Kernel for Recorded {
        fn visible(&self, _: u32) -> bool {
            self.0
        }
        fn shell_like(&self, _: u32) -> bool {
            true
        }
        fn parent(&self, _: u32) -> Option<u32> {
            Some(8000)
        }
    }
    let seen = Recorded(true);
    let hidden = Recorded(false);
    let found = |p: PaneRef| crate::mux::Located { pane: Some(p), server: Some(8000) };
    // The pane the environment names, tried first: its shell is an ancestor.
    let (h, _) = herdr(runner());
    assert_eq!(h.find_caller("teamfx", Some("w1:p2"), &[9000, 8300, 8247, 1], &seen).unwrap(), found(reviewer.clone()));
    // No pane named: the session's panes are searched, and the one found is the same.
    let (h, _) = herdr(runner());
    assert_eq!(h.find_caller("teamfx", None, &[9000, 8247, 1], &seen).unwrap(), found(reviewer.clone()));
    // Named, but this process descends from none of the session's panes: a claim...
    let (h, _) = herdr(runner());
    let e = h.find_caller("teamfx", Some("w1:p2"), &[9000, 1], &seen).unwrap_err();
    assert_eq!(
        e,
        MuxError::Unverified(
            "HERDR_PANE_ID names pane w1:p2, but this process does not run inside it (it does not descend from that pane's shell, pid 8247)".into()
        )
    );
    // ...or, when that shell is hidden from this process, a sandbox in the way.
    let (h, _) = herdr(runner());
    let e = h.find_caller("teamfx", Some("w1:p2"), &[2, 1], &hidden).unwrap_err();
    assert!(
        matches!(&e, MuxError::Sandboxed(m) if m.contains("is hidden from this process: it runs in another pid namespace")),
        "{e:?}"
    );
    // A pane of another session (the environment names one this session lacks): not the team's.
    let (h, _) = herdr(runner());
    assert_eq!(h.find_caller("teamfx", Some("w1:p99"), &[9000, 1], &seen).unwrap().pane, None);
    // A plain shell pane of the session holds the caller: found, with no agent name.
    let (h, _) = herdr(runner().on(
        &["--session", "teamfx", "agent", "get", "w1:p1"],
        1,
        "error-agent-get-plain-shell.stderr.json",
    ));
    let got = h.find_caller("teamfx", None, &[9000, shell_of_others as u32, 1], &seen).unwrap().pane.unwrap();
    assert_eq!((got.id.as_str(), got.seat.as_str()), ("w1:p1", ""));
}

#[test]
fn osc_title_is_the_preview_of_the_osc_title_rule() {
    let v: Value =
        serde_json::from_slice(&std::fs::read(data(V071).join("agent-explain-working.json")).unwrap()).unwrap();
    let t = osc_title_of(&v).unwrap();
    assert!(t.starts_with(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c)), "{t:?}");
}
