//! `team up` and `team down` with the real Claude Code 2.1.332 and Codex 0.171.0, offline: the
//! team file names no `launch:` line, so each seat starts as its profile declares (`claude`,
//! `codex --no-daemon`), typed into a pane `team up` opened in the world's tmux server (started
//! in the mock's network namespace with the environment the CLIs take: one HOME signed in to
//! both, the folder trusted; the login shell's `~/.profile` puts them on PATH).
//!
//! Proved: both seats up, at their prompts, and recorded; the owner's send reaches keeper
//! through the record; `team up` again starts nothing; a draft in keeper's composer makes
//! `team down` leave keeper running and say so, the draft intact; once cleared, `team down`
//! leaves no claude or codex process and no session.

use super::harness::{claude_env, signed_in_claude, signed_in_codex, RealWorld};
use crate::common;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A world whose tmux server runs (a session `keep` of its own, not the team's) with the
/// environment every pane `team up` opens inherits; `trusted`: the CLIs were signed in with the
/// checkout trusted (else another folder was: the checkout is new to them).
pub(super) fn world(trusted: bool) -> RealWorld {
    let mut rw = RealWorld::bare(Path::new("beacon"), "beacon");
    let repo = rw.w.repo.clone();
    std::fs::create_dir_all(&repo).unwrap();
    let ok = Command::new("git").args(["init", "-q"]).current_dir(&repo).env("HOME", &rw.w.home).status().unwrap();
    assert!(ok.success());
    rw.w.team_file(super::harness::TEAM_FILE);
    let home = rw.top().join("seats/both");
    let trust = if trusted { repo.clone() } else { rw.top().join("elsewhere") };
    signed_in_claude(&home, &trust);
    signed_in_codex(&home.join(".codex"), &trust);
    let team_dir = common::team_bin().parent().unwrap().display().to_string();
    let path = format!("{team_dir}:{}:/usr/local/bin:/usr/bin:/bin", rw.cli_dir().display());
    std::fs::write(home.join(".profile"), format!("export PATH=\"{path}\"\n")).unwrap();
    rw.sock = rw.top().join("tmux.sock");
    rw.w.extra_env.push(("TEAM_TMUX_SOCKET".into(), rw.sock.display().to_string()));
    let conf = rw.top().join("tmux.conf");
    std::fs::write(&conf, "set -g default-terminal tmux-256color\nset -g status off\n").unwrap();
    let mut c = Command::new("nsenter");
    c.arg(rw.netns_arg()).arg("--").arg("tmux").arg("-S").arg(&rw.sock).arg("-f").arg(&conf);
    c.args(["new-session", "-d", "-s", "keep", "-x", "120", "-y", "40", "sh"]).env_clear();
    c.env("PATH", &path).env("HOME", &home).env("LANG", "C.UTF-8").env("COLORTERM", "truecolor");
    c.env("CODEX_HOME", home.join(".codex")).env("MOCK_API_KEY", "mock-key");
    for (k, v) in [("TEAM_CONFIG_DIR", &rw.w.config), ("TEAM_STATE_DIR", &rw.w.state), ("TEAM_CACHE_DIR", &rw.w.cache)]
    {
        c.env(k, v);
    }
    c.envs(claude_env());
    let out = c.output().unwrap();
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
    rw
}

pub(super) fn record(rw: &RealWorld, seat: &str) -> Value {
    let t = std::fs::read_to_string(rw.w.repo.join(".agents/team.state.json")).unwrap();
    serde_json::from_str::<Value>(&t).unwrap()["sessions"]["beacon"]["seats"][seat].clone()
}

fn screen(rw: &RealWorld, pane: &str) -> String {
    String::from_utf8_lossy(&rw.tmux(&["capture-pane", "-p", "-t", pane]).stdout).into_owned()
}

fn wait_screen(rw: &RealWorld, pane: &str, what: &str, pred: impl Fn(&str) -> bool) {
    let t = Instant::now();
    while !pred(&screen(rw, pane)) {
        assert!(t.elapsed() < Duration::from_secs(30), "pane {pane} never showed {what}:\n{}", screen(rw, pane));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until `team status` reads the seat idle (its turn, if any, ended).
fn wait_idle(rw: &RealWorld, seat: &str) {
    let t = Instant::now();
    loop {
        let r = rw.w.team(&["status", "--json"]);
        let d: Value = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
        let reads =
            d["seats"].as_array().into_iter().flatten().find(|s| s["name"] == seat).map(|s| s["reads"].to_string());
        if reads.as_deref().is_some_and(|r| r.contains("idle")) {
            return;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "{seat} never read idle: {reads:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn cli_processes(rw: &RealWorld) -> Vec<String> {
    rw.processes().into_iter().filter(|c| c.contains("claude") || c.contains("codex")).collect()
}

#[test]
fn up_starts_both_real_clis_and_down_stops_them_never_over_a_draft() {
    let rw = world(true);
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp", "--timeout", "90"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    let (kp, rp) = (
        record(&rw, "claude-keeper")["pane"].as_str().unwrap().to_string(),
        record(&rw, "gpt-reviewer")["pane"].as_str().unwrap().to_string(),
    );
    assert!(r.stdout.contains(&format!("claude-keeper: up (claude-code in {kp}, idle)")), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("gpt-reviewer: up (codex in {rp}, idle)")), "{}", r.stdout);
    for (seat, line) in [("claude-keeper", "claude"), ("gpt-reviewer", "codex --no-daemon")] {
        let rec = record(&rw, seat);
        assert_eq!((rec["stage"].as_str(), rec["launch_line"].as_str()), (Some("ready"), Some(line)), "{rec}");
    }

    // the owner's send reaches keeper through the record up wrote
    let r = rw.w.team(&["send", "claude-keeper", "the gate is green"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("claude-keeper: delivered"), "{r:?}");

    // up again starts nothing
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("claude-keeper: already running (pane {kp})")), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("gpt-reviewer: already running (pane {rp})")), "{}", r.stdout);

    // a draft keeps keeper running, intact (once the turn the message started has ended)
    wait_idle(&rw, "claude-keeper");
    let out = rw.tmux(&["send-keys", "-t", &kp, "-l", "half a thought"]);
    assert!(out.status.success());
    wait_screen(&rw, &kp, "the draft", |s| s.contains("half a thought"));
    let r = rw.w.team(&["down"]);
    eprintln!("team down:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(&format!("claude-keeper: left running in pane {kp} — its composer holds a draft")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(&format!("gpt-reviewer: down (asked with Ctrl-C; pane {rp} closed)")), "{}", r.stdout);
    assert!(screen(&rw, &kp).contains("half a thought"), "the draft was touched");

    // cleared, keeper leaves on /exit: no CLI process, no session
    let out = rw.tmux(&["send-keys", "-t", &kp, "C-u"]);
    assert!(out.status.success());
    wait_screen(&rw, &kp, "an empty composer", |s| !s.contains("half a thought"));
    wait_idle(&rw, "claude-keeper");
    let r = rw.w.team(&["down"]);
    eprintln!("team down:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!("claude-keeper: down (asked with /exit, then Enter; pane {kp} closed)")),
        "{}",
        r.stdout
    );
    assert_eq!(cli_processes(&rw), Vec::<String>::new(), "a CLI outlived team down");
    let has = rw.tmux(&["has-session", "-t", "=beacon"]);
    assert!(!has.status.success(), "the session outlived its last seat");
}

#[test]
fn a_checkout_new_to_the_clis_stops_each_at_its_trust_dialog_never_pressed() {
    let rw = world(false);
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp", "--timeout", "90"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 1, "{r:?}");
    let (kp, rp) = (
        record(&rw, "claude-keeper")["pane"].as_str().unwrap().to_string(),
        record(&rw, "gpt-reviewer")["pane"].as_str().unwrap().to_string(),
    );
    for (seat, pane) in [("claude-keeper", &kp), ("gpt-reviewer", &rp)] {
        assert!(
            r.stdout.contains(&format!(
                "{seat}: waiting for you (a trust dialog in pane {pane}; answer it there, then team up again)"
            )),
            "{}",
            r.stdout
        );
        assert_eq!(record(&rw, seat)["stage"], "launching");
    }
    // the dialogs are still there, unanswered, and the CLIs still run
    assert!(screen(&rw, &kp).contains("Yes, I trust this folder"), "{}", screen(&rw, &kp));
    assert!(screen(&rw, &rp).contains("Trust this folder"), "{}", screen(&rw, &rp));
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(screen(&rw, &kp).contains("Yes, I trust this folder"), "a second up pressed keeper's dialog");
    // the person answers keeper's: 2.1.332 offers `No, exit` first, so Down, then Enter on
    // `Yes, I trust this folder`; the next up records it
    for key in ["Down", "Enter"] {
        let out = rw.tmux(&["send-keys", "-t", &kp, key]);
        assert!(out.status.success());
        std::thread::sleep(Duration::from_millis(300));
    }
    wait_screen(&rw, &kp, "its prompt", |s| !s.contains("Yes, I trust this folder") && s.contains("auto mode on"));
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp", "--timeout", "60"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&format!("claude-keeper: up (claude-code in {kp}, idle)")), "{}", r.stdout);
    assert!(r.stdout.contains("gpt-reviewer: waiting for you (a trust dialog"), "{}", r.stdout);
    assert_eq!(record(&rw, "claude-keeper")["stage"], "ready");
}

#[test]
fn up_installs_hooks_and_mcp_first_and_each_cli_s_review_waits_for_the_person() {
    let rw = world(true);
    let r = rw.w.team(&["up", "--timeout", "60"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 1, "{r:?}");
    // each CLI read what up wrote before it started: Claude asks about the new MCP server,
    // Codex about the new hooks — the person's to answer, never pressed
    for f in [".mcp.json", ".codex/hooks.json", ".codex/config.toml"] {
        assert!(rw.w.repo.join(f).exists(), "team up did not write {f}");
    }
    let (kp, rp) = (
        record(&rw, "claude-keeper")["pane"].as_str().unwrap().to_string(),
        record(&rw, "gpt-reviewer")["pane"].as_str().unwrap().to_string(),
    );
    assert!(
        r.stdout.contains(&format!("claude-keeper: waiting for you (a question dialog in pane {kp};")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(&format!("gpt-reviewer: waiting for you (a trust dialog in pane {rp};")), "{}", r.stdout);
    assert!(screen(&rw, &kp).contains("New MCP server found in this project: team"), "{}", screen(&rw, &kp));
    assert!(screen(&rw, &rp).contains("Hooks need review"), "{}", screen(&rw, &rp));
    // the person trusts Codex's hooks (`2. Trust all and continue`); the next up records rev,
    // and keeper still waits, its dialog untouched
    // (the digit selects option 2; Enter confirms it once the screen shows it selected)
    let t = Instant::now();
    while screen(&rw, &rp).contains("Hooks need review") {
        assert!(t.elapsed() < Duration::from_secs(30), "Codex never took the person's answer");
        let key = if screen(&rw, &rp).contains("› 2. Trust all and continue") { "Enter" } else { "2" };
        assert!(rw.tmux(&["send-keys", "-t", &rp, key]).status.success());
        std::thread::sleep(Duration::from_millis(300));
    }
    wait_screen(&rw, &rp, "Codex's status line", |s| {
        !s.contains("Hooks need review") && s.contains("gpt-5.1-codex default ·")
    });
    let r = rw.w.team(&["up", "--timeout", "30"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&format!("gpt-reviewer: up (codex in {rp}, idle)")), "{}", r.stdout);
    assert!(r.stdout.contains("claude-keeper: waiting for you (a question dialog"), "{}", r.stdout);
    assert!(screen(&rw, &kp).contains("New MCP server found in this project: team"));
    assert_eq!(record(&rw, "gpt-reviewer")["stage"], "ready");
}
