//! `team up` and `team down` with the real Claude Code 2.1.332 and Codex 0.171.0, offline: the
//! team file names no `launch:` line, so each seat starts as its profile declares (`claude`,
//! `codex --no-daemon`), typed into a pane `team up` opened in the world's tmux server (started
//! in the mock's network namespace with the environment the CLIs take: one HOME signed in to
//! both, the folder trusted; the login shell's `~/.profile` puts them on PATH).
//!
//! Proved, with each seat's hooks and MCP entry installed (plain `team up`): Claude Code starts
//! with no question (the owner's approval of the team's own server, written by `team up`),
//! Codex's review of the new hooks waits for the person, never pressed; once answered, both seats
//! up, at their prompts, and recorded; the owner's send reaches each seat through the record;
//! keeper asks rev through `team_send` and rev's answer, through its `team_send`, reaches
//! keeper's model; `team up` again starts nothing; a draft in keeper's composer makes `team down`
//! leave keeper running and say so, the draft intact; once cleared, `team down` leaves no claude
//! or codex process and no session. A checkout new to the CLIs stops each at its trust dialog,
//! reported and never pressed.

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
pub(super) fn wait_idle(rw: &RealWorld, seat: &str) {
    wait_reads(rw, seat, "idle")
}

/// Waits until `team status` reads the seat `word` (`idle`, `working`).
pub(super) fn wait_reads(rw: &RealWorld, seat: &str, word: &str) {
    let t = Instant::now();
    loop {
        let r = rw.w.team(&["status", "--json"]);
        let d: Value = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
        let reads =
            d["seats"].as_array().into_iter().flatten().find(|s| s["name"] == seat).map(|s| s["reads"].to_string());
        if reads.as_deref().is_some_and(|r| r.contains(word)) {
            return;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "{seat} never read {word}: {reads:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn cli_processes(rw: &RealWorld) -> Vec<String> {
    rw.processes().into_iter().filter(|c| c.contains("claude") || c.contains("codex")).collect()
}

/// A checkout new to the CLIs, with plain `team up` (hooks and MCP installed), as a newcomer
/// meets it: each CLI stops at its trust dialog, reported and never pressed (a second `team up`
/// presses nothing either). The person answers Claude Code's (`Yes, I trust this folder`): it
/// comes to its prompt with no question about the team's MCP server (the owner's approval `team
/// up` wrote); Codex's (`1. Trust and continue`), after which Codex asks about the new hooks —
/// answered too, the next `team up` records both.
#[test]
fn a_checkout_new_to_the_clis_stops_each_at_its_trust_dialog_never_pressed() {
    let rw = world(false);
    let r = rw.w.team(&["up", "--timeout", "90"]);
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
    let r = rw.w.team(&["up"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(screen(&rw, &kp).contains("Yes, I trust this folder"), "a second up pressed keeper's dialog");
    assert!(screen(&rw, &rp).contains("Trust this folder"), "a second up pressed rev's dialog");
    // the person answers keeper's: 2.1.332 offers `No, exit` first, so Down, then Enter on
    // `Yes, I trust this folder`; no MCP question follows; the next up records it
    for key in ["Down", "Enter"] {
        let out = rw.tmux(&["send-keys", "-t", &kp, key]);
        assert!(out.status.success());
        std::thread::sleep(Duration::from_millis(300));
    }
    wait_screen(&rw, &kp, "its prompt", |s| !s.contains("Yes, I trust this folder") && s.contains("auto mode on"));
    let r = rw.w.team(&["up", "--timeout", "60"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&format!("claude-keeper: up (claude-code 2.1.332 in {kp}, idle)")), "{}", r.stdout);
    assert!(!screen(&rw, &kp).contains("New MCP server found"), "{}", screen(&rw, &kp));
    assert!(r.stdout.contains("gpt-reviewer: waiting for you (a trust dialog"), "{}", r.stdout);
    assert_eq!(record(&rw, "claude-keeper")["stage"], "ready");
    // rev's: `1. Trust and continue` is selected; Enter. Then Codex asks about the hooks.
    assert!(rw.tmux(&["send-keys", "-t", &rp, "Enter"]).status.success());
    wait_screen(&rw, &rp, "Codex's hooks question", |s| s.contains("Hooks need review"));
    let r = rw.w.team(&["up", "--timeout", "30"]);
    assert!(r.stdout.contains(&format!("gpt-reviewer: waiting for you (a trust dialog in pane {rp};")), "{}", r.stdout);
    answer_codex_hooks(&rw, &rp);
    let r = rw.w.team(&["up", "--timeout", "30"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("gpt-reviewer: up (codex 0.171.0 in {rp}, idle)")), "{}", r.stdout);
    assert_eq!(record(&rw, "gpt-reviewer")["stage"], "ready");
}

/// The whole path with each seat's hooks and MCP entry installed (plain `team up`): Claude Code
/// starts with no question (the approval `team up` wrote in `.claude/settings.local.json`);
/// Codex asks its person once to review the new hooks — reported, never pressed; answered, the
/// next `team up` records it. Then the owner reaches each seat, keeper asks rev through
/// `team_send` and rev's answer, sent through its own `team_send`, reaches keeper's model; `team
/// up` again starts nothing; a draft keeps keeper running; `team down` leaves nothing.
#[test]
fn up_with_hooks_and_mcp_then_the_seats_talk_through_team_send_and_down_leaves_nothing() {
    let rw = world(true);
    let t = Instant::now();
    let r = rw.w.team(&["up", "--timeout", "90"]);
    let first_up = t.elapsed();
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    for f in [".mcp.json", ".claude/settings.local.json", ".codex/hooks.json", ".codex/config.toml"] {
        assert!(rw.w.repo.join(f).exists(), "team up did not write {f}");
    }
    let (kp, rp) = (
        record(&rw, "claude-keeper")["pane"].as_str().unwrap().to_string(),
        record(&rw, "gpt-reviewer")["pane"].as_str().unwrap().to_string(),
    );
    assert!(r.stdout.contains(&format!("claude-keeper: up (claude-code 2.1.332 in {kp}, idle)")), "{}", r.stdout);
    assert!(!screen(&rw, &kp).contains("New MCP server found"), "{}", screen(&rw, &kp));
    let waits =
        format!("gpt-reviewer: waiting for you (a trust dialog in pane {rp}; answer it there, then team up again)");
    assert!(r.stdout.contains(&waits), "{}", r.stdout);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(screen(&rw, &rp).contains("Hooks need review"), "{}", screen(&rw, &rp));
    assert_eq!(record(&rw, "gpt-reviewer")["stage"], "launching");

    // the person trusts Codex's hooks (`2. Trust all and continue`: the digit selects it, Enter
    // confirms it once the screen shows it selected); the next up records rev, starting nothing
    answer_codex_hooks(&rw, &rp);
    let t = Instant::now();
    let r = rw.w.team(&["up", "--timeout", "30"]);
    let second_up = t.elapsed();
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("claude-keeper: already running (pane {kp})")), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("gpt-reviewer: up (codex 0.171.0 in {rp}, idle)")), "{}", r.stdout);
    for (seat, line) in [("claude-keeper", "claude"), ("gpt-reviewer", "codex --no-daemon")] {
        let rec = record(&rw, seat);
        assert_eq!((rec["stage"].as_str(), rec["launch_line"].as_str()), (Some("ready"), Some(line)), "{rec}");
    }
    // the version the launch read from each CLI's package: in the record, `team seats` and up's JSON
    let seats = rw.w.team(&["seats"]).stdout;
    assert!(seats.contains("claude-code 2.1.332") && seats.contains("codex 0.171.0"), "{seats}");
    let d: Value = serde_json::from_str(&rw.w.team(&["seats", "--json"]).stdout).unwrap();
    let v: Vec<_> = d["seats"].as_array().unwrap().iter().map(|s| s["cli_version"].as_str()).collect();
    assert_eq!(v, [Some("2.1.332"), Some("0.171.0")], "{d}");

    // the owner's send reaches each seat through the record up wrote (the model reads the drop)
    for (seat, api) in [("gpt-reviewer", "openai"), ("claude-keeper", "anthropic")] {
        if seat == "claude-keeper" {
            rw.mock.script(talk(&rw, "send-drops/beacon/claude-keeper/"));
        }
        let body = format!("{seat}, the gate is green");
        let t = Instant::now();
        let r = rw.w.team(&["send", seat, &body]);
        eprintln!("OWNER-SEND {seat}: {} ms", t.elapsed().as_millis());
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.contains(&format!("{seat}: delivered")), "{r:?}");
        // (keeper's read waits for the test: its question goes once the script knows the id)
        if seat == "gpt-reviewer" {
            let drop = rw.drops(seat)[0].clone();
            let read = rw.mock.wait_result(api, &super::checks::trigger(&rw, &drop), 1);
            assert!(read.contains(&body), "{seat}'s model was not given the owner's message: {read}");
            wait_idle(&rw, seat);
        }
    }

    // keeper asks rev through team_send; rev answers through its own team_send
    let first = rw.drops("claude-keeper")[0].clone();
    rw.mock.script(talk(&rw, &super::checks::id_of(&first)));
    let t = Instant::now();
    rw.mock.open("keeper-reads");
    let read = rw.mock.wait_result("anthropic", &super::checks::trigger(&rw, &first), 1);
    assert!(
        read.contains("claude-keeper, the gate is green"),
        "keeper's model was not given the owner's message: {read}"
    );
    let sent = rw.mock.wait_result("anthropic", &super::checks::trigger(&rw, &first), 3);
    let doc: Value = serde_json::from_str(&sent).unwrap_or_else(|e| panic!("{e}: {sent}"));
    let row = &doc["recipients"][0];
    assert_eq!((row["seat"].as_str(), row["outcome"].as_str()), (Some("gpt-reviewer"), Some("delivered")), "{doc}");
    let asked = rw.drops("gpt-reviewer").into_iter().find(|d| super::checks::id_of(d) == row["id"].as_str().unwrap());
    let asked = asked.unwrap_or_else(|| panic!("no drop for {row}"));
    let read = rw.mock.wait_result("openai", &super::checks::trigger(&rw, &asked), 1);
    assert!(read.contains(QUESTION), "rev's model was not given keeper's question: {read}");
    wait_idle(&rw, "claude-keeper");
    rw.mock.open("rev-answers");
    let out = rw.mock.wait_result("openai", &super::checks::trigger(&rw, &asked), 2);
    assert!(out.contains("\"delivered\"") && out.contains("claude-keeper"), "what rev's team_send gave it: {out}");
    let t_wait = Instant::now();
    let answer = loop {
        if let Some(d) = rw.drops("claude-keeper").into_iter().find(|d| *d != first) {
            break d;
        }
        assert!(t_wait.elapsed() < Duration::from_secs(30), "rev's answer never reached keeper");
        std::thread::sleep(Duration::from_millis(50));
    };
    let read = rw.mock.wait_result("anthropic", &super::checks::trigger(&rw, &answer), 1);
    assert!(read.contains(ANSWER), "keeper's model was not given rev's answer: {read}");
    eprintln!("MCP-EXCHANGE keeper asks → keeper's model reads rev's answer: {} ms", t.elapsed().as_millis());
    let h = rw.history();
    let pairs: Vec<(&str, &str, &str)> = h
        .iter()
        .map(|l| {
            (l["from"].as_str().unwrap_or(""), l["to"].as_str().unwrap_or(""), l["outcome"].as_str().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("owner", "gpt-reviewer", "delivered"),
            ("owner", "claude-keeper", "delivered"),
            ("claude-keeper", "gpt-reviewer", "delivered"),
            ("gpt-reviewer", "claude-keeper", "delivered"),
        ],
        "{h:#?}"
    );

    // up again starts nothing
    let t = Instant::now();
    let r = rw.w.team(&["up"]);
    let third_up = t.elapsed();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("claude-keeper: already running (pane {kp})")), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("gpt-reviewer: already running (pane {rp})")), "{}", r.stdout);
    draft_then_down(&rw, &kp, &rp);
    eprintln!(
        "UP-TIMES first up (rev waits) {} ms; second up (rev recorded) {} ms; up with both running {} ms",
        first_up.as_millis(),
        second_up.as_millis(),
        third_up.as_millis()
    );
}

/// The person answers Codex's `Hooks need review` in pane `pane`: `2` selects `2. Trust all
/// and continue`, Enter confirms it once the screen shows it selected.
pub(super) fn answer_codex_hooks(rw: &RealWorld, pane: &str) {
    let t = Instant::now();
    while screen(rw, pane).contains("Hooks need review") {
        assert!(t.elapsed() < Duration::from_secs(30), "Codex never took the person's answer");
        let key = if screen(rw, pane).contains("› 2. Trust all and continue") { "Enter" } else { "2" };
        assert!(rw.tmux(&["send-keys", "-t", pane, key]).status.success());
        std::thread::sleep(Duration::from_millis(300));
    }
}

const QUESTION: &str = "rev, is the parser branch ready? (asked through team_send)";
const ANSWER: &str = "keeper: yes, the parser branch passes its tests (answered through team_send)";

/// The mock's script: keeper, woken by the trigger naming `keeper_when` (held until the test
/// opens `keeper-reads`), reads it, loads the server's tools (Claude Code 2.1.332 defers them:
/// `ToolSearch`) and asks rev through `team_send`; rev, woken by keeper's question, reads it
/// and answers through its `team_send` (held until `rev-answers`). Any other trigger is read.
fn talk(rw: &RealWorld, keeper_when: &str) -> Value {
    let tools = ["team_send", "team_list", "team_inbox", "team_reply", "team_ack"].map(|t| format!("mcp__team__{t}"));
    serde_json::json!({ "root": rw.w.repo, "rules": [
        { "when": keeper_when, "steps": [
            { "read": "@trigger", "hold": "keeper-reads" },
            { "tool": "ToolSearch", "input": { "query": format!("select:{}", tools.join(",")) } },
            { "tool": "mcp__team__team_send", "input": { "to": ["gpt-reviewer"], "message": QUESTION } },
            { "text": "Asked rev." },
        ]},
        { "when": "send-drops/beacon/gpt-reviewer/", "steps": [
            { "read": "@trigger" },
            { "tool": "team_send", "namespace": "mcp__team", "hold": "rev-answers",
              "input": { "to": ["claude-keeper"], "message": ANSWER } },
            { "text": "Answered keeper." },
        ]},
    ]})
}

/// A draft in keeper's composer makes `team down` leave keeper running and say so, the draft
/// intact (rev goes down); once it is cleared, `team down` leaves no CLI process and no session.
fn draft_then_down(rw: &RealWorld, kp: &str, rp: &str) {
    wait_idle(rw, "claude-keeper");
    let out = rw.tmux(&["send-keys", "-t", kp, "-l", "half a thought"]);
    assert!(out.status.success());
    wait_screen(rw, kp, "the draft", |s| s.contains("half a thought"));
    let t = Instant::now();
    let r = rw.w.team(&["down"]);
    let first_down = t.elapsed();
    eprintln!("team down:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(&format!("claude-keeper: left running in pane {kp} — its composer holds a draft")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(&format!("gpt-reviewer: down (asked with Ctrl-C; pane {rp} closed)")), "{}", r.stdout);
    assert!(screen(rw, kp).contains("half a thought"), "the draft was touched");

    let out = rw.tmux(&["send-keys", "-t", kp, "C-u"]);
    assert!(out.status.success());
    wait_screen(rw, kp, "an empty composer", |s| !s.contains("half a thought"));
    wait_idle(rw, "claude-keeper");
    let t = Instant::now();
    let r = rw.w.team(&["down"]);
    let second_down = t.elapsed();
    eprintln!("team down:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!("claude-keeper: down (asked with /exit, then Enter; pane {kp} closed)")),
        "{}",
        r.stdout
    );
    assert_eq!(cli_processes(rw), Vec::<String>::new(), "a CLI outlived team down");
    let has = rw.tmux(&["has-session", "-t", "=beacon"]);
    assert!(!has.status.success(), "the session outlived its last seat");
    eprintln!(
        "DOWN-TIMES down (keeper's draft kept, rev down) {} ms; down (keeper) {} ms",
        first_down.as_millis(),
        second_down.as_millis()
    );
}
