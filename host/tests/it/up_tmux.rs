//! `team up`, `team add`, `team down` and `team seats` end to end under tmux: the real binary
//! starts its own private tmux server (`TEAM_TMUX_SOCKET` under the world) and fake seats
//! (real vendor screens; Claude Code leaving on `/exit`, Codex on Ctrl-C over an empty
//! composer, as measured) through each seat's approved `launch:` line, typed into the pane's
//! shell. Each test asserts the lines and exit codes, what was recorded, and what was typed
//! into the seats (the fakes' byte logs).

use crate::common::World;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A checkout whose team file launches fake seats (`(name, cli, mode)`), each line approved
/// by the owner unless `approve` is false; the team's tmux server is `<base>/seats.sock`. The
/// fake is named by its path: the pane's shell may be a login shell that sets its own PATH.
struct Up {
    w: World,
    sock: PathBuf,
}

impl Up {
    fn new(seats: &[(&str, &str, &str)], approve: bool) -> Up {
        let mut w = World::empty();
        let sock = w.base().join("seats.sock");
        w.extra_env.push(("TEAM_TMUX_SOCKET".into(), sock.display().to_string()));
        let mut file = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
        for (name, cli, mode) in seats {
            let log = w.base().join(format!("{name}.log"));
            file.push_str(&format!(
                "  - name: {name}\n    cli: {cli}\n    model: M\n    launch: {} --cli {cli} --mode {mode} --native none --delay-ms 200 --log {}\n",
                crate::common::fake_seat_bin().display(),
                log.display()
            ));
        }
        w.team_file(&file);
        if approve {
            for (name, ..) in seats {
                let r = w.team(&["trust", "launch", name]);
                assert_eq!(r.code, 0, "team trust launch {name}: {r:?}");
            }
        }
        Up { w, sock }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").arg("-S").arg(&self.sock).args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn panes(&self) -> Vec<String> {
        self.tmux(&["list-panes", "-s", "-t", "=beacon:", "-F", "#{pane_id}"]).lines().map(str::to_string).collect()
    }

    fn state(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.w.repo.join(".agents/team.state.json")).unwrap()).unwrap()
    }

    fn record(&self, seat: &str) -> Value {
        self.state()["sessions"]["beacon"]["seats"][seat].clone()
    }

    fn log(&self, seat: &str) -> String {
        std::fs::read_to_string(self.w.base().join(format!("{seat}.log"))).unwrap_or_default()
    }

    fn screen(&self, pane: &str) -> String {
        self.tmux(&["capture-pane", "-p", "-t", pane])
    }

    fn wait(&self, what: &str, mut cond: impl FnMut() -> bool) {
        let t = Instant::now();
        while !cond() {
            assert!(t.elapsed() < Duration::from_secs(30), "never: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn pid_alive(pid: u64) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn up_starts_records_and_down_stops_each_seat_its_own_way() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line"), ("rev", "codex", "takes-line")], true);
    // a dry run starts nothing
    let r = u.w.team(&["up", "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("keeper: would start — ") && r.stdout.contains("fake-seat --cli claude-code"),
        "{}",
        r.stdout
    );
    assert!(u.panes().is_empty(), "a dry run opened panes");

    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    let (kp, rp) = (
        u.record("keeper")["pane"].as_str().unwrap().to_string(),
        u.record("rev")["pane"].as_str().unwrap().to_string(),
    );
    assert!(r.stdout.contains(&format!("keeper: up (claude-code in {kp}, idle; version unknown)\n")), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("rev: up (codex in {rp}, idle; version unknown)\n")), "{}", r.stdout);
    assert!(r.stdout.contains("SEAT"), "the status table follows: {}", r.stdout);
    let k = u.record("keeper");
    assert_eq!(k["stage"], "ready");
    assert_eq!(k["model"], "M");
    assert!(k["launch_line"].as_str().unwrap().contains("fake-seat --cli claude-code"));
    assert!(k["process"]["pid"].as_u64().is_some(), "{k}");
    assert_eq!(u.tmux(&["show-options", "-p", "-v", "-t", &kp, "@team-seat"]).trim(), "keeper");
    // nothing but the launch reached the seats themselves
    assert_eq!((u.log("keeper"), u.log("rev")), (String::new(), String::new()));

    // idempotent: a second up starts nothing
    let before = u.panes();
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("keeper: already running (pane {kp})")), "{}", r.stdout);
    assert_eq!(u.panes(), before);
    let r = u.w.team(&["add", "rev", "--no-hooks", "--no-mcp"]);
    assert!(r.stdout.contains(&format!("rev: already running (pane {rp})")), "{r:?}");

    // team seats lists the records
    let r = u.w.team(&["seats"]);
    assert!(r.stdout.contains("keeper") && r.stdout.contains("ready") && r.stdout.contains(&kp), "{}", r.stdout);
    let r = u.w.team(&["seats", "--json"]);
    let d: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&d).unwrap();
    assert_eq!(d["seats"][0]["seat"], "keeper");

    // a draft in keeper's composer: down leaves keeper running, draft intact; rev goes
    let kpid = k["process"]["pid"].as_u64().unwrap();
    u.tmux(&["send-keys", "-t", &kp, "-l", "half a thought"]);
    u.wait("the draft shows", || u.screen(&kp).contains("half a thought"));
    let r = u.w.team(&["down"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains(&format!("keeper: left running in pane {kp} — its composer holds a draft (\"half a thought\")")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(&format!("rev: down (asked with Ctrl-C; pane {rp} closed)")), "{}", r.stdout);
    assert!(pid_alive(kpid), "keeper was stopped over its draft");
    assert_eq!(u.log("keeper"), "half a thought", "down typed into keeper's draft");
    assert_eq!(u.record("rev")["stage"], "stopped");
    assert_eq!(u.panes(), vec![kp.clone()]);

    // cleared, keeper leaves on /exit and the session ends with it
    u.tmux(&["send-keys", "-t", &kp, "C-u"]);
    u.wait("the draft cleared", || !u.screen(&kp).contains("half a thought"));
    let r = u.w.team(&["down", "keeper", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let d: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&d).unwrap();
    assert_eq!(d["seats"][0]["status"], "down");
    assert!(!pid_alive(kpid), "keeper's CLI still runs");
    assert!(u.panes().is_empty(), "the session outlived its last seat");
    assert_eq!(u.record("keeper")["stage"], "stopped");

    // up again starts both anew
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(u.panes().len(), 2);
    let r = u.w.team(&["down", "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("keeper: down (forced: TERM"), "{}", r.stdout);
}

#[test]
fn a_trust_dialog_is_never_pressed_and_a_later_up_records_the_seat() {
    let u = Up::new(&[("rev", "codex", "dialog:trust")], true);
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    let pane = u.record("rev")["pane"].as_str().unwrap().to_string();
    assert_eq!(u.record("rev")["stage"], "launching");
    assert!(
        r.stdout.contains(&format!(
            "rev: waiting for you (a trust dialog in pane {pane}; answer it there, then team up again)"
        )),
        "{}",
        r.stdout
    );
    // the run read the dialog (it said so): nothing was typed into it
    assert_eq!(u.log("rev"), "", "a key reached the dialog");
    assert!(u.screen(&pane).contains("Trust this folder"));
    // a second up, the dialog still there: still waiting, still nothing typed
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("rev: waiting for you"), "{}", r.stdout);
    assert_eq!(u.log("rev"), "");
    // the person answers it (Esc, in the fake); the next up records it, launching nothing
    u.tmux(&["send-keys", "-t", &pane, "Escape"]);
    u.wait("the dialog closed", || !u.screen(&pane).contains("Trust this folder"));
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("rev: up (codex in {pane}, idle; version unknown)")), "{}", r.stdout);
    assert_eq!(u.record("rev")["stage"], "ready");
    assert_eq!(u.panes(), vec![pane]);
}

#[test]
fn an_unapproved_or_changed_launch_line_is_never_run() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line")], false);
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("keeper: not started — its launch: line is not approved: /"), "{}", r.stdout);
    assert!(r.stdout.contains("team trust launch keeper"), "{}", r.stdout);
    assert!(u.panes().is_empty(), "an unapproved line opened a pane");
    // approved, then changed by one word: asks again
    assert_eq!(u.w.team(&["trust", "launch", "keeper"]).code, 0);
    let text = std::fs::read_to_string(u.w.repo.join(".agents/team.yaml")).unwrap();
    u.w.team_file(&text.replace("--delay-ms 200", "--delay-ms 201"));
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("its launch: line changed since the owner approved it"), "{}", r.stdout);
    assert!(u.panes().is_empty());
    let r = u.w.team(&["trust"]);
    assert!(r.stdout.contains("launch keeper"), "{}", r.stdout);
}

#[test]
fn a_session_with_a_pane_no_record_names_is_refused_whole() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line"), ("rev", "codex", "takes-line")], true);
    let ok = Command::new("tmux")
        .arg("-S")
        .arg(&u.sock)
        .args(["-f", "/dev/null", "new-session", "-d", "-s", "beacon", "sh"])
        .env("HOME", &u.w.home)
        .status()
        .unwrap();
    assert!(ok.success());
    let before = u.panes();
    u.tmux(&["set-option", "-p", "-t", &before[0], "@team-seat", "keeper"]);
    let r = u.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "session \"beacon\" has a pane this file's state does not record: {} (marked keeper); nothing was started",
            before[0]
        )),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(&format!("team register keeper --pane {}", before[0])), "{}", r.stderr);
    assert_eq!(u.panes(), before, "a pane was opened");
    assert!(!u.w.repo.join(".agents/team.state.json").exists(), "a record was written");
}

#[test]
fn two_ups_at_once_start_each_seat_once() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line"), ("rev", "codex", "takes-line")], true);
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| u.w.team(&["up", "--no-hooks", "--no-mcp", "--json"]));
        let b = s.spawn(|| u.w.team(&["up", "--no-hooks", "--no-mcp", "--json"]));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!((a.code, b.code), (0, 0), "{a:?}\n{b:?}");
    assert_eq!(u.panes().len(), 2, "a seat was started twice: {a:?}\n{b:?}");
    let docs: Vec<Value> = [&a, &b].iter().map(|r| serde_json::from_str(&r.stdout).unwrap()).collect();
    for d in &docs {
        crate::common::validate(d).unwrap();
    }
    // one run started both, the other found both running
    let statuses: Vec<String> =
        docs.iter().flat_map(|d| d["seats"].as_array().unwrap().iter().map(|s| s["status"].to_string())).collect();
    assert_eq!(statuses.iter().filter(|s| s.contains("\"up\"")).count(), 2, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| s.contains("already")).count(), 2, "{statuses:?}");
}

#[test]
fn add_starts_a_seat_just_added_to_the_file_into_the_running_session() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line")], true);
    assert_eq!(u.w.team(&["up", "--no-hooks", "--no-mcp"]).code, 0);
    let r = u.w.team(&["add", "rev", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("the file has no seat \"rev\""), "{r:?}");
    let text = std::fs::read_to_string(u.w.repo.join(".agents/team.yaml")).unwrap();
    let log = u.w.base().join("rev.log");
    u.w.team_file(&format!(
        "{text}  - name: rev\n    cli: codex\n    launch: {} --cli codex --native none --delay-ms 200 --log {}\n",
        crate::common::fake_seat_bin().display(),
        log.display()
    ));
    assert_eq!(u.w.team(&["trust", "launch", "rev"]).code, 0);
    let r = u.w.team(&["add", "rev", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    let rp = u.record("rev")["pane"].as_str().unwrap().to_string();
    assert!(r.stdout.contains(&format!("rev: up (codex in {rp}, idle; version unknown)")), "{}", r.stdout);
    assert!(!r.stdout.contains("keeper: "), "add said something of another seat: {}", r.stdout);
    assert_eq!(u.panes().len(), 2);
    let r = u.w.team(&["add", "rev", "--no-hooks", "--no-mcp"]);
    assert!(r.stdout.contains(&format!("rev: already running (pane {rp})")), "{r:?}");
    assert_eq!(u.w.team(&["down"]).code, 0);
}

#[test]
fn a_run_with_no_terminal_starts_and_stops_nothing() {
    let u = Up::new(&[("keeper", "claude-code", "takes-line")], true);
    for args in [&["up", "--no-hooks", "--no-mcp"][..], &["down"][..], &["add", "keeper"][..]] {
        let r = u.w.team_no_tty(args);
        assert_eq!(r.code, 1, "{args:?}: {r:?}");
        assert!(r.stderr.contains("only the owner or a seat of this team runs this"), "{args:?}: {r:?}");
    }
    assert!(u.panes().is_empty());
    let r = u.w.team_no_tty(&["up", "--json"]);
    let d: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(d["error"]["id"], "up.no-terminal", "{d}");
}

#[test]
fn down_names_the_messages_still_unclaimed_in_a_seat_s_inbox_and_keeps_them() {
    // hooks installed by up (no --no-hooks): a send to the seat stopped at a dialog is held
    // in its inbox
    let u = Up::new(&[("rev", "codex", "dialog:permission")], true);
    let r = u.w.team(&["up", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("rev: waiting for you (a permission dialog"), "{}", r.stdout);
    assert!(u.w.repo.join(".codex/hooks.json").exists(), "up installed no hooks");
    let r = u.w.sh("TEAM_TIME_SCALE=0.05 team send rev 'review the branch'");
    assert!(r.stdout.contains("rev: held (in rev's inbox"), "{r:?}");
    let id = u.w.history()[0]["id"].as_str().unwrap().to_string();
    // left running at its dialog, and the message named
    let r = u.w.team(&["down"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("rev: left running in pane") && r.stdout.contains("it shows a permission dialog"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!("rev: 1 message still waits unclaimed in its inbox ({id}); it is kept there")),
        "{}",
        r.stdout
    );
    // forced: down, the message still named and still there
    let r = u.w.team(&["down", "rev", "--force", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let d: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&d).unwrap();
    assert_eq!(
        (d["seats"][0]["status"].as_str(), d["seats"][0]["unclaimed"][0].as_str()),
        (Some("forced"), Some(id.as_str()))
    );
    assert!(u.panes().is_empty());
    let r = u.w.team(&["down"]);
    assert!(r.stdout.contains("rev: not running") && r.stdout.contains(&id), "{}", r.stdout);
}
