//! The caller rules over recorded process trees. The trees are the ones measured on the real
//! CLIs (docs/agents-sending.md, docs/offline-vendor-clis.md): Claude Code's Bash tool runs
//! `team → bash → claude → the pane's shell` with no terminal; Codex runs commands under its
//! `codex app-server` daemon, or in bubblewrap's pid namespace (pid 2 under a pid 1 `codex`).
//! The vendor facts are the bundled profiles' own descriptions, read through the real host.

use super::*;
use crate::profiles::ProfileHost;
use crate::team_file;

fn proc(pid: u32, comm: &str, argv: &[&str]) -> Ancestor {
    Ancestor { pid, ppid: 0, comm: comm.into(), argv: argv.iter().map(|s| s.to_string()).collect() }
}

/// Each ancestor's parent is the next one up; the last hangs off init.
fn chained(mut v: Vec<Ancestor>) -> Vec<Ancestor> {
    let n = v.len();
    for i in 0..n {
        v[i].ppid = if i + 1 < n { v[i + 1].pid } else { 1 };
    }
    v
}

/// The installed profiles' descriptions, from the bundled components themselves (read once:
/// the first read compiles each component).
fn vendors() -> Vendors {
    static V: std::sync::OnceLock<Vendors> = std::sync::OnceLock::new();
    V.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let host = ProfileHost::with_dirs(d.path().join("config"), d.path().join("cache"));
        let ds = host.descriptions(&Default::default());
        assert_eq!(ds.len(), profile_artifacts::BUNDLED.len(), "{ds:?}");
        Vendors::from_descriptions(&ds)
    })
    .clone()
}

fn beacon() -> (tempfile::TempDir, Loaded) {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    std::fs::write(d.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(d.path().join(".agents")).unwrap();
    std::fs::write(
        d.path().join(".agents/team.yaml"),
        "format: 1\nproject: beacon\ncoordinator: claude-keeper\nseats:\n  - name: claude-keeper\n    cli: claude-code\n  - name: gpt-reviewer\n    cli: codex\n",
    )
    .unwrap();
    let l = team_file::find(d.path()).unwrap().unwrap();
    (d, l)
}

fn pane(id: &str, seat: &str, shell: u32) -> PaneRef {
    PaneRef { id: id.into(), session: "beacon".into(), seat: seat.into(), shell_pid: Some(shell) }
}

/// The facts of a tree; with `terminal`, one pseudo-terminal its second-highest ancestor (a
/// terminal program under the top one) provides.
fn facts(terminal: bool, ancestry: Vec<Ancestor>, pane: Result<Option<PaneRef>, MuxError>) -> Facts {
    let ancestry = chained(ancestry);
    let holder = ancestry.iter().rev().nth(1).or(ancestry.last()).cloned();
    let terminals = if terminal { vec![Terminal { tty: Tty::Pts(5), holder }] } else { Vec::new() };
    Facts { terminals, ancestry, pane, server: None, mux: "tmux", marks: Vec::new() }
}

/// `team → bash → claude → the pane's shell`, as Claude Code's Bash tool runs a command.
fn claude_bash_tree() -> Vec<Ancestor> {
    vec![
        proc(4321, "team", &["team", "send", "gpt-reviewer", "review the gate"]),
        proc(4320, "bash", &["/bin/bash", "-c", "-l", "team send gpt-reviewer \"review the gate\""]),
        proc(4100, "claude", &["claude", "--permission-mode", "default"]),
        proc(4000, "bash", &["-bash"]),
        proc(900, "tmux: server", &["tmux", "-S", "/tmp/t.sock", "new-session"]),
        proc(1, "systemd", &["/sbin/init"]),
    ]
}

#[test]
fn a_seat_s_own_shell_tool_is_its_seat_without_a_terminal() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%1", "claude-keeper", 4000))));
    assert_eq!(
        judge(&f, &vendors(), &reg, Some(&file)),
        Caller::Seat { team: "beacon".into(), seat: "claude-keeper".into(), agent: None, pane: "%1".into() }
    );
}

#[test]
fn without_a_verified_pane_no_terminal_is_refused_and_a_terminal_under_an_agent_is_unplaced() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let v = vendors();
    // The same tree, but no pane of the team's session holds it (another server or session).
    assert_eq!(judge(&facts(false, claude_bash_tree(), Ok(None)), &v, &reg, Some(&file)), Caller::NoTerminal);
    assert_eq!(
        judge(&facts(true, claude_bash_tree(), Ok(None)), &v, &reg, Some(&file)),
        Caller::Unplaced { why: "it is run by an agent (claude) outside tmux".into() }
    );
    // A person's own shell at a terminal: the owner.
    let person = vec![
        proc(77, "team", &["team", "send"]),
        proc(70, "bash", &["-bash"]),
        proc(60, "gnome-terminal-", &["/usr/libexec/gnome-terminal-server"]),
        proc(2, "systemd", &["/lib/systemd/systemd", "--user"]),
    ];
    assert_eq!(judge(&facts(true, person.clone(), Ok(None)), &v, &reg, Some(&file)), Caller::Owner);
    assert_eq!(judge(&facts(false, person, Ok(None)), &v, &reg, Some(&file)), Caller::NoTerminal);
}

#[test]
fn a_pane_of_the_team_s_session_no_seat_holds_is_unplaced_on_tmux_as_on_herdr() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let person = vec![proc(77, "team", &["team"]), proc(70, "bash", &["-bash"]), proc(60, "tmux: server", &["tmux"])];
    let f = facts(true, person.clone(), Ok(Some(pane("%4", "", 70))));
    assert_eq!(
        judge(&f, &vendors(), &reg, Some(&file)),
        Caller::Unplaced { why: "its tmux pane %4 holds no seat".into() }
    );
    let f = Facts { mux: "herdr", ..facts(true, person, Ok(Some(pane("w1:p4", "", 70)))) };
    assert_eq!(
        judge(&f, &vendors(), &reg, Some(&file)),
        Caller::Unplaced { why: "its herdr pane w1:p4 holds no seat".into() }
    );
}

/// The owner is placed positively (DESIGN §4): its terminal's program is an ancestor that does
/// not hang directly off init, and it runs outside the team's multiplexer server.
#[test]
fn the_owner_is_placed_positively_never_by_the_absence_of_an_agent() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let v = vendors();
    let person = || vec![proc(77, "team", &["team"]), proc(70, "bash", &["-bash"]), proc(60, "sshd", &["sshd"])];
    assert_eq!(judge(&facts(true, person(), Ok(None)), &v, &reg, Some(&file)), Caller::Owner);

    // `setsid -f script -qec "team send …"` from an agent's pane: the terminal's program hangs
    // off init, and nothing above it is the agent any more.
    let detached = vec![
        proc(7790, "team", &["team", "send", "third", "hi"]),
        proc(7789, "bash", &["bash", "-c", "team send third hi"]),
        proc(7787, "script", &["script", "-qec", "team send third hi", "/dev/null"]),
    ];
    let f = facts(true, detached.clone(), Ok(None));
    let f = Facts { terminals: vec![Terminal { tty: Tty::Pts(9), holder: chained(detached).get(2).cloned() }], ..f };
    assert_eq!(
        judge(&f, &v, &reg, Some(&file)),
        Caller::Unplaced {
            why: "its terminal /dev/pts/9 is provided by script (pid 7787), which hangs directly off init: a process started detached (setsid -f, a double fork) is not the owner, whatever started it".into()
        }
    );

    // A terminal opened by name (`team send x < /dev/pts/3`): no ancestor provides it.
    let f = Facts { terminals: vec![Terminal { tty: Tty::Pts(3), holder: None }], ..facts(true, person(), Ok(None)) };
    assert_eq!(
        judge(&f, &v, &reg, Some(&file)),
        Caller::Unplaced {
            why: "its terminal /dev/pts/3 is provided by no process it descends from: a terminal opened by name, or one whose provider is hidden from it, places no one".into()
        }
    );

    // `tmux run-shell 'script -qec "team send …"'`: a child of the team's server, in no pane.
    let under_server = vec![
        proc(8002, "team", &["team"]),
        proc(8001, "sh", &["sh", "-c", "team send third hi"]),
        proc(8000, "script", &["script"]),
        proc(900, "tmux: server", &["tmux"]),
    ];
    let f = Facts { server: Some(900), ..facts(true, under_server, Ok(None)) };
    assert_eq!(
        judge(&f, &v, &reg, Some(&file)),
        Caller::Unplaced {
            why: "it runs inside the team's tmux server (pid 900) but in no seat's pane: a command tmux started (run-shell, a hook) or a pane of another session is not the owner, who runs team from a terminal outside that server".into()
        }
    );

    // A console is a person at the machine.
    let f = Facts {
        terminals: vec![Terminal { tty: Tty::Other { major: 4, minor: 1 }, holder: None }],
        ..facts(true, person(), Ok(None))
    };
    assert_eq!(judge(&f, &v, &reg, Some(&file)), Caller::Owner);

    // A server that does not answer places no one and reaches no seat.
    let f = facts(true, person(), Err(MuxError::NoAnswer("tmux did not answer within 5 s".into())));
    assert_eq!(judge(&f, &v, &reg, Some(&file)), Caller::Unreachable { why: "tmux did not answer within 5 s".into() });
}

/// An agent CLI no profile names (issue 29): the owner types `team` at a shell in its terminal,
/// so a program between `team` and its terminal's program that is no shell (nor a command that
/// only runs the one it is given) places no owner; the unprofiled agents `caller/agents.txt`
/// names are agents by name, as a profile's CLIs are — even as the program of the terminal.
#[test]
fn a_program_no_profile_names_between_team_and_its_terminal_is_not_the_owner() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let v = vendors();
    let terminal = proc(60, "gnome-terminal-", &["/usr/libexec/gnome-terminal-server"]);
    let top = proc(2, "systemd", &["/lib/systemd/systemd", "--user"]);
    let tree = |between: Vec<Ancestor>| {
        let mut tree = vec![proc(77, "team", &["team", "send", "third", "hi"])];
        tree.extend(between);
        tree.extend([terminal.clone(), top.clone()]);
        tree
    };
    let judged = |between: Vec<Ancestor>| judge(&facts(true, tree(between), Ok(None)), &v, &reg, Some(&file));
    // a vendor's new CLI on node, running its tool's command through bash
    let new_cli = judged(vec![
        proc(76, "bash", &["/bin/bash", "-c", "team send third hi"]),
        proc(75, "node", &["node", "/usr/lib/node_modules/vendorcli/dist/index.js"]),
        proc(70, "bash", &["-bash"]),
    ]);
    assert_eq!(
        new_cli,
        Caller::Unplaced {
            why: "it is run by vendorcli (pid 75), which is no shell a person types team at and no command that only runs the one it is given: an agent CLI no profile names is not the owner (the owner runs team from a shell in a terminal; an agent sends as a seat, from its own pane of the team's session: team mark, team register)".into()
        }
    );
    // aider and pi, which the data names: agents, as a profile's CLI is
    for (argv, name) in [(["python3", "/home/u/.local/bin/aider"], "aider"), (["node", "/usr/local/bin/pi"], "pi")] {
        let c =
            judged(vec![proc(76, "bash", &["bash", "-c", "x"]), proc(75, "x", &argv), proc(70, "bash", &["-bash"])]);
        assert_eq!(c, Caller::Unplaced { why: format!("it is run by an agent ({name}) outside tmux") });
    }
    // …even as the program of the terminal, a pseudo-terminal of its own for its command
    let own_pty =
        tree(vec![proc(76, "bash", &["bash", "-c", "x"]), proc(75, "python3", &["python3", "/usr/bin/aider"])]);
    let holder = chained(own_pty.clone()).get(2).cloned();
    let f = Facts { terminals: vec![Terminal { tty: Tty::Pts(8), holder }], ..facts(true, own_pty, Ok(None)) };
    assert_eq!(
        judge(&f, &v, &reg, Some(&file)),
        Caller::Unplaced { why: "it is run by an agent (aider) outside tmux".into() }
    );
    // what a person types team at or through: a login shell, sudo, a command wrapper, make, and
    // team itself (team demo's own sends)
    for between in [
        vec![proc(70, "zsh", &["-zsh"])],
        vec![proc(71, "make", &["make", "notify"]), proc(70, "bash", &["-bash"])],
        vec![
            proc(72, "timeout", &["timeout", "10", "team"]),
            proc(71, "sudo", &["sudo", "-i"]),
            proc(70, "bash", &["-bash"]),
        ],
        vec![proc(71, "team", &["/usr/local/bin/team", "demo"]), proc(70, "fish", &["fish"])],
    ] {
        assert_eq!(judged(between.clone()), Caller::Owner, "{between:?}");
    }
}

/// Codex 0.171's default: commands are the `codex app-server` daemon's children, and the daemon
/// carries the first window's ancestry — a second window's command would pass as that seat.
#[test]
fn a_call_under_the_codex_daemon_is_refused_with_the_repair() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let daemon = "/root/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex";
    let tree = vec![
        proc(5210, "team", &["team", "send", "claude-keeper", "done"]),
        proc(5209, "bash", &["/bin/bash", "-c", "team send claude-keeper done"]),
        proc(
            5100,
            "codex",
            &[daemon, "app-server", "--listen", "unix://", "--analytics-default-enabled", "--managed-daemon"],
        ),
        proc(5000, "codex", &["/usr/lib/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex"]),
        proc(4990, "node", &["node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"]),
        proc(4900, "bash", &["-bash"]),
    ];
    let f = facts(false, tree.clone(), Ok(Some(pane("%2", "gpt-reviewer", 4900))));
    match judge(&f, &vendors(), &reg, Some(&file)) {
        Caller::Blocked { why, repair } => {
            assert!(
                why.starts_with("this call runs under `codex app-server` (pid 5100), which the codex profile says"),
                "{why}"
            );
            assert_eq!(
                repair.as_deref(),
                Some("start Codex with `codex --no-daemon`, so each window runs its own commands")
            );
        }
        other => panic!("{other:?}"),
    }
    // Reparented to pid 1 once the first window quit: still refused, whatever the pane says.
    let orphan = vec![tree[0].clone(), tree[1].clone(), tree[2].clone(), proc(1, "systemd", &["/sbin/init"])];
    assert!(matches!(judge(&facts(true, orphan, Ok(None)), &vendors(), &reg, Some(&file)), Caller::Blocked { .. }));
    // `codex --no-daemon`: the command descends from the window itself, and the pane vouches.
    let own = vec![tree[0].clone(), tree[1].clone(), tree[3].clone(), tree[4].clone(), tree[5].clone()];
    assert!(matches!(
        judge(&facts(false, own, Ok(Some(pane("%2", "gpt-reviewer", 4900)))), &vendors(), &reg, Some(&file)),
        Caller::Seat { .. }
    ));
}

/// Codex's workspace-write sandbox: bubblewrap's pid namespace (`$$` is 2, `/proc/1` is codex)
/// hides the pane's shell; the multiplexer adapter says so, and the caller is told a sandbox is
/// in the way — never "a claimed identity".
#[test]
fn a_hidden_pid_namespace_is_a_sandbox_in_the_way() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let tree = vec![proc(2, "team", &["team", "send", "claude-keeper", "x"]), proc(1, "codex", &["codex"])];
    let hidden = MuxError::Sandboxed(
        "TMUX_PANE names pane %2 of session \"beacon\", but its shell (pid 4900) is hidden from this process".into(),
    );
    match judge(&facts(false, tree.clone(), Err(hidden)), &vendors(), &reg, Some(&file)) {
        Caller::Blocked { why, repair } => {
            assert!(
                why.starts_with("a sandbox is in the way: ") && why.contains("is hidden from this process"),
                "{why}"
            );
            assert!(repair.unwrap().contains("docs/agents.md"));
        }
        other => panic!("{other:?}"),
    }
    let refused = MuxError::Sandboxed("the tmux server at /tmp/t.sock refused this process's connection".into());
    assert!(matches!(judge(&facts(false, tree, Err(refused)), &vendors(), &reg, Some(&file)), Caller::Blocked { .. }));
}

#[test]
fn a_claimed_pane_is_unplaced() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let claim = MuxError::Unverified("TMUX_PANE names pane %0, but this process does not run inside it".into());
    let f = facts(true, vec![proc(9, "team", &["team"])], Err(claim));
    assert_eq!(
        judge(&f, &vendors(), &reg, Some(&file)),
        Caller::Unplaced {
            why: "a claimed identity: TMUX_PANE names pane %0, but this process does not run inside it".into()
        }
    );
}

#[test]
fn a_mark_names_its_team_or_the_session_does() {
    let (_d, file) = beacon();
    let mut reg = Registry::default();
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%1", "ada@api", 4000))));
    assert!(
        matches!(judge(&f, &vendors(), &reg, Some(&file)), Caller::Seat { team, seat, .. } if team == "api" && seat == "ada")
    );
    // No file here: the registry team whose session this is.
    reg.teams
        .teams
        .insert("beacon".into(), crate::registry::TeamRecord { session: Some("beacon".into()), ..Default::default() });
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%1", "claude-keeper", 4000))));
    assert!(matches!(judge(&f, &vendors(), &reg, None), Caller::Seat { team, .. } if team == "beacon"));
}

/// Once a seat is registered, its record's pane and process decide (DESIGN §4): a pane marked
/// as that seat but not its pane is not that seat, and a record whose process no longer runs
/// in the pane vouches for nobody.
#[test]
fn the_registrys_pane_and_process_come_before_a_mark() {
    let (_d, file) = beacon();
    let me = std::process::id();
    let alive = crate::registry::ProcessIdentity::read(me).unwrap();
    let mut reg = Registry::default();
    reg.agents.push(AgentRecord {
        id: "agt_00000000000000a1".into(),
        seat: "claude-keeper".into(),
        team: "beacon".into(),
        session: Some("beacon".into()),
        pane: Some("%1".into()),
        process: Some(alive),
        ..Default::default()
    });
    // the recorded pane, its process running there: the seat, whatever the mark says
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%1", "gpt-reviewer", me))));
    assert!(
        matches!(judge(&f, &vendors(), &reg, Some(&file)), Caller::Seat { seat, agent: Some(_), .. } if seat == "claude-keeper")
    );
    // another pane marked as the registered seat is not that seat
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%7", "claude-keeper", me))));
    assert_eq!(
        judge(&f, &vendors(), &reg, Some(&file)),
        Caller::Unplaced {
            why: "its tmux pane %7 is marked claude-keeper, but claude-keeper is registered on pane %1".into()
        }
    );
    // the recorded process gone (the pane reused): the record vouches for nobody, the mark does
    reg.agents[0].process = Some(crate::registry::ProcessIdentity { pid: alive.pid, start: alive.start + 1 });
    let f = facts(false, claude_bash_tree(), Ok(Some(pane("%1", "gpt-reviewer", me))));
    assert!(
        matches!(judge(&f, &vendors(), &reg, Some(&file)), Caller::Seat { seat, agent: None, .. } if seat == "gpt-reviewer")
    );
}

#[test]
fn agent_programs_are_read_from_argv_or_the_script_an_interpreter_runs() {
    let v = vendors();
    let named = |argv: &[&str]| v.agent_of(&proc(1, "x", argv));
    assert_eq!(named(&["node", "/usr/lib/node_modules/.bin/grok"]).as_deref(), Some("grok"));
    assert_eq!(named(&["node", "/x/@vibe-kit/grok-cli/dist/index.js"]).as_deref(), Some("grok-cli"));
    assert_eq!(named(&["node", "--no-warnings", "/x/@openai/codex/bin/codex.js"]).as_deref(), Some("codex"));
    assert_eq!(named(&["/x/node_modules/.bin/claude", "--resume"]).as_deref(), Some("claude"));
    assert_eq!(named(&["/x/@anthropic-ai/claude-code/bin/claude.exe"]).as_deref(), Some("claude"));
    assert_eq!(named(&["node", "/x/server.js"]), None);
    assert_eq!(named(&["node"]), None);
    assert_eq!(named(&["claudette"]), None);
    // comm alone (argv unreadable), cut at 15 bytes
    assert_eq!(v.agent_of(&proc(1, "codex-x86_64-un", &[])).as_deref(), Some("codex"));
    assert_eq!(v.agent_of(&proc(1, "bash", &[])), None);
}

#[test]
fn callers_are_described_for_refusals() {
    assert_eq!(Caller::Owner.describe(), "the owner");
    assert_eq!(
        Caller::Unplaced { why: "it is run by an agent (claude) outside herdr".into() }.describe(),
        "unplaced (it is run by an agent (claude) outside herdr)"
    );
}

#[test]
fn two_panes_claiming_one_seat_in_any_spelling_vouch_for_neither() {
    let (_d, file) = beacon();
    let reg = Registry::default();
    let v = vendors();
    let marks =
        vec![("%1".to_string(), "claude-keeper".to_string()), ("%7".to_string(), "claude-keeper@beacon".to_string())];
    let f = Facts {
        marks: marks.clone(),
        ..facts(false, claude_bash_tree(), Ok(Some(pane("%7", "claude-keeper@beacon", 4000))))
    };
    assert_eq!(
        judge(&f, &v, &reg, Some(&file)),
        Caller::Unplaced {
            why: "its tmux pane %7 is marked claude-keeper@beacon, and pane %1 is marked claude-keeper: two panes claim seat claude-keeper of beacon, so neither vouches for it (mark one pane only)".into()
        }
    );
    // the real lead's pane is refused the same way while the claim stands
    let f = Facts { marks, ..facts(false, claude_bash_tree(), Ok(Some(pane("%1", "claude-keeper", 4000)))) };
    assert!(
        matches!(judge(&f, &v, &reg, Some(&file)), Caller::Unplaced { why } if why.contains("pane %7 is marked claude-keeper@beacon"))
    );
    // another team's seat of the same name is no rival
    let marks =
        vec![("%1".to_string(), "claude-keeper".to_string()), ("%7".to_string(), "claude-keeper@other".to_string())];
    let f = Facts { marks, ..facts(false, claude_bash_tree(), Ok(Some(pane("%1", "claude-keeper", 4000)))) };
    assert!(matches!(judge(&f, &v, &reg, Some(&file)), Caller::Seat { .. }));
}

#[test]
fn the_refusal_each_caller_meets_before_anything_is_read() {
    let no_terminal = refusal(&Caller::NoTerminal).unwrap();
    assert_eq!(no_terminal.kind, Kind::Refused);
    assert!(no_terminal.message().ends_with(NO_TERMINAL), "{}", no_terminal.message());
    let down = refusal(&Caller::Unreachable { why: "the tmux server of beacon does not answer".into() }).unwrap();
    assert_eq!(down.kind, Kind::Unreachable);
    assert_eq!(down.message(), "unreachable: the tmux server of beacon does not answer; nothing was sent");
    let blocked =
        refusal(&Caller::Blocked { why: "a sandbox hides the pane".into(), repair: Some("run it outside".into()) })
            .unwrap();
    assert_eq!(blocked.kind, Kind::Refused);
    assert!(blocked.message().ends_with("a sandbox hides the pane; nothing was sent"), "{}", blocked.message());
    assert_eq!(blocked.repair().as_deref(), Some("run it outside"));
    for admitted in [Caller::Owner, Caller::Unplaced { why: "a pane no seat holds".into() }] {
        assert!(refusal(&admitted).is_none(), "{admitted:?}");
    }
}
