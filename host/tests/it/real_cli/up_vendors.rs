//! `team init` and `team up` with the real Gemini CLI 0.61.0, Qwen Code 0.24.4, GitHub Copilot
//! CLI 1.0.102, opencode 1.18.33 and grok-cli 0.0.34, offline, all five seats in one session
//! (one world: the CLIs start once, which keeps the tier's time down): `team init --seat …` names the
//! seats, the file gets no `launch:` line, so each seat starts as its profile declares
//! (`gemini`, `qwen`, `copilot`, `opencode`, `grok`), typed into a pane `team up` opened in the world's
//! tmux server (started in the mock's network namespace with what the CLIs take: one HOME where
//! each is signed in to the mock and trusts the checkout — `docs/more-vendors.md` — the vendor
//! variables in the server's environment, the CLIs on the login shell's PATH).
//!
//! Proved, with plain `team up` (each seat's hooks and MCP entry installed, each in its CLI's
//! own file, as `team hooks status` and `team mcp status` say): Qwen Code asks its person about
//! the workspace's MCP server — reported as waiting, never pressed; answered, the next `team up`
//! records it; each seat up, read idle by its profile and recorded with its profile's launch
//! line; the owner's send delivered to each through the record; once each is idle again, `team
//! down` asks each to leave the way its profile declares (`/quit` then Enter, `/exit` then
//! Enter, Ctrl-C, `exit` then Enter) and leaves no process of the five CLIs and no session.

use super::harness::RealWorld;
use super::mock::PORT;
use super::vendors::{copilot_cache, opencode_with_the_mock, signed_in_gemini, signed_in_qwen, trusting_copilot};
use crate::common;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// (seat, profile, the profile's launch, how `team down` says it asked it to leave).
const SEATS: [(&str, &str, &str, &str); 5] = [
    ("gem-scout", "gemini-cli", "gemini", "/quit, then Enter"),
    ("qwen-coder", "qwen-code", "qwen", "/quit, then Enter"),
    ("pilot", "copilot", "copilot", "/exit, then Enter"),
    ("open-coder", "opencode", "opencode", "Ctrl-C"),
    ("grok-coder", "grok-cli", "grok", "exit, then Enter"),
];

/// The version each CLI's npm package says (tests/real/package-lock.json), which the up line
/// names.
fn version(profile: &str) -> &'static str {
    match profile {
        "gemini-cli" => "0.61.0",
        "qwen-code" => "0.24.4",
        "copilot" => "1.0.102",
        "opencode" => "1.18.33",
        "grok-cli" => "0.0.34",
        other => panic!("no pinned version for {other}"),
    }
}

/// A world whose tmux server runs (a session `keep` of its own, not the team's) with the
/// environment every pane `team up` opens inherits, and a checkout with no team file yet.
fn world() -> RealWorld {
    let mut rw = RealWorld::bare(Path::new("beacon"), "beacon");
    let repo = rw.w.repo.clone();
    std::fs::create_dir_all(&repo).unwrap();
    let ok = Command::new("git").args(["init", "-q"]).current_dir(&repo).env("HOME", &rw.w.home).status().unwrap();
    assert!(ok.success());
    let home = rw.top().join("seats/all");
    signed_in_gemini(&home, &repo);
    signed_in_qwen(&home, &repo);
    trusting_copilot(&home, &repo);
    opencode_with_the_mock(&home);
    let team_dir = common::team_bin().parent().unwrap().display().to_string();
    let path = format!("{team_dir}:{}:/usr/local/bin:/usr/bin:/bin", rw.cli_dir().display());
    std::fs::write(home.join(".profile"), format!("export PATH=\"{path}\"\n")).unwrap();
    rw.sock = rw.top().join("tmux.sock");
    rw.w.extra_env.push(("TEAM_TMUX_SOCKET".into(), rw.sock.display().to_string()));
    let conf = rw.top().join("tmux.conf");
    std::fs::write(&conf, "set -g default-terminal tmux-256color\nset -g status off\n").unwrap();
    let base = format!("http://127.0.0.1:{PORT}");
    let mut vendor_env: Vec<(String, String)> = [
        // Gemini CLI: its own API at the mock
        ("GOOGLE_GEMINI_BASE_URL", base.clone()),
        ("GEMINI_API_KEY", "mock-key".into()),
        // Qwen Code: an OpenAI-compatible provider
        ("OPENAI_BASE_URL", format!("{base}/v1")),
        ("OPENAI_API_KEY", "mock-key".into()),
        ("OPENAI_MODEL", "mock-model".into()),
        // Copilot: bring your own key, offline, its extracted binary shared
        ("COPILOT_OFFLINE", "true".into()),
        ("COPILOT_PROVIDER_BASE_URL", format!("{base}/v1")),
        ("COPILOT_PROVIDER_API_KEY", "mock-key".into()),
        ("COPILOT_MODEL", "mock-model".into()),
        ("COPILOT_AUTO_UPDATE", "false".into()),
        ("COPILOT_CACHE_HOME", copilot_cache().display().to_string()),
        // grok-cli: Chat Completions at the mock (docs/vendor-screens.md)
        ("GROK_API_KEY", "mock-key".into()),
        ("GROK_BASE_URL", format!("{base}/v1")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    for k in ["AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "SHARE"] {
        vendor_env.push((format!("OPENCODE_DISABLE_{k}"), "1".into()));
    }
    let mut c = Command::new("nsenter");
    c.arg(rw.netns_arg()).arg("--").arg("tmux").arg("-S").arg(&rw.sock).arg("-f").arg(&conf);
    c.args(["new-session", "-d", "-s", "keep", "-x", "150", "-y", "45", "sh"]).env_clear();
    c.env("PATH", &path).env("HOME", &home).env("LANG", "C.UTF-8").env("COLORTERM", "truecolor");
    for (k, v) in [("TEAM_CONFIG_DIR", &rw.w.config), ("TEAM_STATE_DIR", &rw.w.state), ("TEAM_CACHE_DIR", &rw.w.cache)]
    {
        c.env(k, v);
    }
    c.envs(vendor_env);
    let out = c.output().unwrap();
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
    rw
}

fn record(rw: &RealWorld, seat: &str) -> Value {
    let t = std::fs::read_to_string(rw.w.repo.join(".agents/team.state.json")).unwrap();
    serde_json::from_str::<Value>(&t).unwrap()["sessions"]["beacon"]["seats"][seat].clone()
}

fn screen(rw: &RealWorld, pane: &str) -> String {
    String::from_utf8_lossy(&rw.tmux(&["capture-pane", "-p", "-t", pane]).stdout).into_owned()
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
        assert!(t.elapsed() < Duration::from_secs(90), "{seat} never read idle: {reads:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The command lines of the five CLIs' processes still alive in the world.
fn cli_processes(rw: &RealWorld) -> Vec<String> {
    // (a word's file name: a folder on the way, `wt-copilothooks/` say, names no CLI)
    let named = |c: &String, n: &str| c.split(' ').any(|w| w.rsplit('/').next().is_some_and(|f| f.contains(n)));
    let theirs = |c: &String| ["gemini", "qwen", "copilot", "opencode", "grok"].iter().any(|n| named(c, n));
    rw.processes().into_iter().filter(theirs).collect()
}

#[test]
fn init_and_up_start_gemini_qwen_copilot_opencode_and_grok_and_down_stops_them() {
    let started = Instant::now();
    let rw = world();
    let mut init = vec!["init"];
    let asks: Vec<String> = SEATS.iter().map(|(s, p, _, _)| format!("{s}:{p}")).collect();
    for a in &asks {
        init.extend(["--seat", a.as_str()]);
    }
    let r = rw.w.team(&init);
    assert_eq!(r.code, 0, "{r:?}");
    let file = std::fs::read_to_string(rw.w.repo.join(".agents/team.yaml")).unwrap();
    for (_, _, launch, _) in SEATS {
        // init writes each profile's own launch, commented out: up types exactly that
        assert!(file.contains(&format!("# launch: {launch} ")), "{file}");
    }

    let r = rw.w.team(&["up", "--timeout", "150"]);
    eprintln!("team up ({} s in):\n{}{}", started.elapsed().as_secs(), r.stdout, r.stderr);
    // Qwen Code asks its person about a workspace's MCP server (`Untrusted MCP server in
    // .qwen/settings.json`): read as its trust dialog, reported, never pressed
    assert_eq!(r.code, 1, "{r:?}");
    let qp = record(&rw, "qwen-coder")["pane"].as_str().unwrap().to_string();
    let waits =
        format!("qwen-coder: waiting for you (a trust dialog in pane {qp}; answer it there, then team up again)");
    assert!(r.stdout.contains(&waits), "{}", r.stdout);
    assert!(screen(&rw, &qp).contains("Untrusted MCP server in .qwen/settings.json"), "{}", screen(&rw, &qp));
    // every seat's hooks (where its CLI has them) and MCP entry, each in its CLI's own file
    let hooks = rw.w.team(&["hooks", "status"]).stdout;
    let mcp = rw.w.team(&["mcp", "status"]).stdout;
    for (seat, file) in [
        ("gem-scout", ".gemini/settings.json"),
        ("qwen-coder", ".qwen/settings.json"),
        ("pilot", ".github/copilot/settings.local.json"),
    ] {
        assert!(hooks.contains(&format!("{seat}: installed ({file} runs this team at ")), "{hooks}");
    }
    for seat in ["open-coder", "grok-coder"] {
        assert!(hooks.contains(&format!("{seat}: unsupported (its CLI has no hooks team can install)")), "{hooks}");
    }
    for (seat, file) in [
        ("gem-scout", ".gemini/settings.json"),
        ("qwen-coder", ".qwen/settings.json"),
        ("pilot", ".mcp.json"),
        ("open-coder", "opencode.json"),
        ("grok-coder", ".grok/settings.json"),
    ] {
        assert!(mcp.contains(&format!("{seat}: installed ({file} runs this team's MCP server)")), "{mcp}");
    }
    // the person approves the server (`› 1. Approve this server`); the next up records qwen
    assert!(screen(&rw, &qp).contains("› 1. Approve this server"), "{}", screen(&rw, &qp));
    assert!(rw.tmux(&["send-keys", "-t", &qp, "Enter"]).status.success());
    let t = Instant::now();
    while screen(&rw, &qp).contains("Untrusted MCP server") {
        assert!(t.elapsed() < Duration::from_secs(30), "Qwen never took the approval:\n{}", screen(&rw, &qp));
        std::thread::sleep(Duration::from_millis(100));
    }
    let r = rw.w.team(&["up", "--timeout", "60"]);
    eprintln!("team up again:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    let mut panes = vec![];
    for (seat, profile, launch, _) in SEATS {
        let rec = record(&rw, seat);
        let pane = rec["pane"].as_str().unwrap().to_string();
        let line = match seat {
            "qwen-coder" => format!("{seat}: up ({profile} {} in {pane}, idle)", version(profile)),
            _ => format!("{seat}: already running (pane {pane})"),
        };
        assert!(r.stdout.contains(&line), "{}", r.stdout);
        assert_eq!((rec["stage"].as_str(), rec["launch_line"].as_str()), (Some("ready"), Some(launch)), "{rec}");
        panes.push(pane);
    }

    // the owner's send reaches each seat through the record up wrote
    for (seat, _, _, _) in SEATS {
        let t = Instant::now();
        let r = rw.w.team(&["send", seat, "the gate is green"]);
        eprintln!("send {seat}: {} ms: {}", t.elapsed().as_millis(), r.stdout.trim());
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.contains(&format!("{seat}: delivered")), "{r:?}");
    }

    // once each turn has ended, down asks each to leave its own way
    for (seat, _, _, _) in SEATS {
        wait_idle(&rw, seat);
    }
    let r = rw.w.team(&["down"]);
    eprintln!("team down:\n{}{}", r.stdout, r.stderr);
    for ((seat, _, _, asked), pane) in SEATS.iter().zip(&panes) {
        assert!(
            r.stdout.contains(&format!("{seat}: down (asked with {asked}; pane {pane} closed)")),
            "{}\n{pane}:\n{}",
            r.stdout,
            screen(&rw, pane)
        );
    }
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(cli_processes(&rw), Vec::<String>::new(), "a CLI outlived team down");
    let has = rw.tmux(&["has-session", "-t", "=beacon"]);
    assert!(!has.status.success(), "the session outlived its last seat");
    eprintln!("up_vendors: {} s", started.elapsed().as_secs());
}
