//! `team status` against fake seats in every state in a private tmux server: idle, working,
//! each dialog kind of both CLIs, a draft, an exited CLI, an unmarked seat. Each row must read
//! what the seat shows — the dialogs as their captures' `.meta.json` say — and nothing may be
//! typed: every fake seat logs the bytes it receives, and every log stays empty.

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// A dialog mode of the fake seat and the capture it draws (`host/fake-seat/src/screens.rs`), whose
/// `.meta.json` says what the screen must read as.
const DIALOGS: &[(&str, &str, &str)] = &[
    ("claude-code", "permission", "claude-code-2.1.197/permission-bash"),
    ("claude-code", "question", "claude-code-2.1.197/question"),
    ("claude-code", "trust", "claude-code-2.1.197/trust-dialog"),
    ("claude-code", "vendor-notice", "claude-code-2.1.197/api-key-confirm"),
    ("claude-code", "provider-error", "claude-code-2.1.197/provider-error"),
    ("claude-code", "rate-limit", "claude-code-2.1.197/rate-limit-dialog"),
    ("claude-code", "rate-limit-idle", "claude-code-2.1.197/rate-limit-idle"),
    ("claude-code", "held-message", "claude-code-2.1.295/held-message-dialog-idle"),
    ("codex", "permission", "codex-0.171.0/permission-shell"),
    ("codex", "question", "codex-0.171.0/question"),
    ("codex", "trust", "codex-0.171.0/trust-dialog"),
    ("codex", "vendor-notice", "codex-0.171.0/onboarding-signin"),
    ("codex", "provider-error", "codex-0.171.0/provider-error"),
    ("codex", "rate-limit", "codex-0.171.0/rate-limit-usage-dialog"),
    ("codex", "rate-limit-idle", "codex-0.171.0/rate-limit-usage-idle"),
];

fn meta(capture: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/screens").join(format!("{capture}.meta.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn short(cli: &str) -> &'static str {
    if cli == "codex" {
        "cx"
    } else {
        "cc"
    }
}

/// The seats, each with the reading it must get: (spec, state, dialog kind, last error).
fn seats() -> Vec<(SeatSpec, &'static str, Option<String>, Option<String>)> {
    let mut v = Vec::new();
    for cli in ["claude-code", "codex"] {
        let s = short(cli);
        v.push((SeatSpec::new(&format!("idle-{s}"), cli, "takes-line"), "idle", None, None));
        v.push((SeatSpec::new(&format!("working-{s}"), cli, "already-working"), "working", None, None));
        v.push((SeatSpec::new(&format!("draft-{s}"), cli, "draft"), "draft", None, None));
        v.push((SeatSpec::new(&format!("exited-{s}"), cli, "exited"), "exited", None, None));
    }
    for (cli, kind, capture) in DIALOGS {
        let e = &meta(capture)["expect"];
        let state: &'static str = match e["state"].as_str().unwrap() {
            "dialog" => "dialog",
            "idle" => "idle",
            other => panic!("{capture}: {other}"),
        };
        v.push((
            SeatSpec::new(&format!("{kind}-{}", short(cli)), cli, &format!("dialog:{kind}")),
            state,
            e["dialog"].as_str().map(str::to_string),
            e["last_turn_error"].as_str().map(str::to_string),
        ));
    }
    v
}

fn world(specs: &[SeatSpec], extra: &[(&str, &str)]) -> (World, TmuxWorld) {
    let tw = TmuxWorld::start("beacon", specs);
    let mut w = World::empty();
    let mut file = String::from("format: 1\nproject: beacon\nmultiplexer: tmux\nseats:\n");
    for s in specs {
        file.push_str(&format!("  - name: {}\n    cli: {}\n", s.name, s.cli));
    }
    for (name, cli) in extra {
        file.push_str(&format!("  - name: {name}\n    cli: {cli}\n"));
    }
    w.team_file(&file);
    w.extra_env.extend(tw.env());
    (w, tw)
}

#[test]
fn every_state_reads_right_and_nothing_is_typed() {
    let all = seats();
    let specs: Vec<SeatSpec> = all.iter().map(|s| s.0.clone()).collect();
    let (w, tw) = world(&specs, &[("unmarked", "codex")]);
    let r = w.team(&["status", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    let rows = doc["seats"].as_array().unwrap();
    assert_eq!(rows.len(), all.len() + 1);
    let mut wrong = Vec::new();
    for (spec, state, kind, last_error) in &all {
        let row = rows.iter().find(|r| r["name"] == spec.name.as_str()).unwrap();
        let reads = &row["reads"];
        assert_eq!(row["pane"], tw.seat(&spec.name).pane.as_str(), "{}", spec.name);
        assert_eq!(row["cli"], spec.cli.as_str());
        assert!(row["multiplexer_status"].is_null(), "tmux has no status of its own");
        let got = (reads["state"].as_str().unwrap_or(""), reads["kind"].as_str().map(str::to_string));
        if got != (*state, kind.clone()) {
            wrong.push(format!("{} ({} {}): {reads}", spec.name, spec.cli, spec.mode));
        }
        if *state == "idle" && reads["last_error"].as_str().map(str::to_string) != *last_error {
            wrong.push(format!("{}: last error {reads}, expected {last_error:?}", spec.name));
        }
        if *state == "draft" {
            assert_eq!(reads["text"], "please summarize the README in two lines", "{}", spec.name);
        }
        if *state == "working" {
            assert!(!reads["hint"].as_str().unwrap().is_empty(), "{}: a working seat shows its hint", spec.name);
        }
    }
    assert!(wrong.is_empty(), "rows read wrong:\n{}", wrong.join("\n"));
    let unmarked = rows.iter().find(|r| r["name"] == "unmarked").unwrap();
    assert_eq!(unmarked["reads"]["state"], "not-found");
    assert!(unmarked["pane"].is_null());

    // the table says the same, one row per seat
    let r = w.team(&["status"]);
    assert_eq!(r.code, 0, "{r:?}");
    let row = |name: &str| r.stdout.lines().find(|l| l.starts_with(&format!("  {name} "))).unwrap().to_string();
    assert!(row("permission-cc").contains(" dialog: permission "), "{}", r.stdout);
    assert!(row("vendor-notice-cx").contains(" dialog: vendor notice "), "{}", r.stdout);
    assert!(row("held-message-cc").contains(" dialog: held-message "), "{}", r.stdout);
    assert!(row("draft-cx").contains(" draft: \"please summarize the README in …\" "), "{}", r.stdout);
    assert!(row("exited-cc").contains(" exited "), "{}", r.stdout);
    assert!(row("working-cx").contains(" working: "), "{}", r.stdout);
    assert!(row("rate-limit-idle-cx").contains(" idle (the last turn ended in a rate limit) "), "{}", r.stdout);
    assert!(row("unmarked").contains(" not found "), "{}", r.stdout);
    assert!(r.stdout.contains("\nunmarked: no pane of tmux session \"beacon\" is marked as seat \"unmarked\" (from inside its pane: team mark unmarked)\n"), "{}", r.stdout);

    // read-only: not one byte reached any seat, nothing was written in the checkout or the config
    for (spec, ..) in &all {
        assert!(
            tw.log(&spec.name).is_empty(),
            "{} received {:?}",
            spec.name,
            String::from_utf8_lossy(&tw.log(&spec.name))
        );
    }
    assert!(!w.repo.join(".agents/team.log").exists());
    assert!(!w.repo.join(".agents/send-drops").exists());
    assert_eq!(std::fs::read_dir(&w.config).map(|d| d.count()).unwrap_or(0), 0);
}

/// `--watch` off a terminal prints the table again when it changes, and nothing in between;
/// it ends, exit 0, when its reader goes away.
#[test]
fn watch_prints_a_new_table_when_a_seat_changes_and_ends_with_its_reader() {
    use std::io::Read;
    let specs = [SeatSpec::new("keeper", "claude-code", "takes-line"), SeatSpec::new("rev", "codex", "takes-line")];
    let (w, tw) = world(&specs, &[]);
    let (mut r, wr) = common::os_pipe();
    let flags = nix::fcntl::fcntl(&r, nix::fcntl::FcntlArg::F_GETFL).unwrap();
    let flags = nix::fcntl::OFlag::from_bits_truncate(flags) | nix::fcntl::OFlag::O_NONBLOCK;
    nix::fcntl::fcntl(&r, nix::fcntl::FcntlArg::F_SETFL(flags)).unwrap();
    let started = w.start("team status --watch", std::process::Stdio::from(wr), std::process::Stdio::null());
    let mut text = String::new();
    let mut drain = |text: &mut String| {
        let mut buf = [0u8; 4096];
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    };
    assert!(
        tw.wait_until(crate::common::BOUND, || {
            drain(&mut text);
            text.contains("2 seats: 2 idle")
        }),
        "{text}"
    );
    // rev's pane goes away
    assert!(tw.tmux(&["kill-pane", "-t", &tw.seat("rev").pane]).status.success());
    assert!(
        tw.wait_until(crate::common::BOUND, || {
            drain(&mut text);
            text.contains("2 seats: 1 idle, 1 not found")
        }),
        "no second table: {text}"
    );
    let tables: Vec<&str> = text.split("team beacon, session").filter(|s| !s.is_empty()).collect();
    assert_eq!(tables.len(), 2, "one table per change, none repeated: {text}");
    drop(r);
    assert_eq!(started.code(crate::common::BOUND), Some(0), "the watch ends when its reader is gone");
    assert!(tw.log("keeper").is_empty());
}

/// On a terminal, `--watch` clears and redraws the table every second, and ends when the
/// terminal goes away.
#[test]
fn watch_on_a_terminal_redraws_every_second() {
    use std::io::Read;
    let specs = [SeatSpec::new("keeper", "claude-code", "takes-line")];
    let (w, tw) = world(&specs, &[]);
    let pty = common::pty();
    let flags = nix::fcntl::fcntl(&pty.master, nix::fcntl::FcntlArg::F_GETFL).unwrap();
    let flags = nix::fcntl::OFlag::from_bits_truncate(flags) | nix::fcntl::OFlag::O_NONBLOCK;
    nix::fcntl::fcntl(&pty.master, nix::fcntl::FcntlArg::F_SETFL(flags)).unwrap();
    let mut master = std::fs::File::from(pty.master);
    let started = w.start("team status --watch", std::process::Stdio::from(pty.slave), std::process::Stdio::null());
    let mut text = String::new();
    let t0 = std::time::Instant::now();
    let redraws = |t: &str| t.matches("\u{1b}[H\u{1b}[2J").count();
    assert!(
        tw.wait_until(crate::common::BOUND, || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = master.read(&mut buf) {
                if n == 0 {
                    break;
                }
                text.push_str(&String::from_utf8_lossy(&buf[..n]));
            }
            redraws(&text) >= 4
        }),
        "{text:?}"
    );
    // four frames take three pauses of a second
    assert!(t0.elapsed() >= Duration::from_millis(2900), "{:?}", t0.elapsed());
    // The third frame is whole (the fourth's clear came after it); the last may still be arriving.
    let third = text.split("\u{1b}[H\u{1b}[2J").nth(3).unwrap();
    assert!(third.contains("  keeper ") && third.contains("1 seat: 1 idle"), "{third:?}");
    drop(master);
    assert_eq!(started.code(crate::common::BOUND), Some(0), "the watch ends with its terminal");
    assert!(tw.log("keeper").is_empty());
}
