//! Two screens of the real CLIs that were misread (issue 18, "Seen on the real programs"), made
//! live and read by the bundled profiles as `team` reads a pane (the ANSI capture and the
//! title): Claude Code started with a fresh HOME exits on `Unable to connect to Anthropic
//! services` and leaves it over the shell (an exit, not a provider-error dialog); Codex with no
//! config shows its sign-in screen under its braille logo in a tall pane (a vendor notice whose
//! title is the sentence under the logo, never the logo). `tests/real/capture-screens.sh` makes
//! the same two screens for `tests/data/screens/`.

use super::harness::{cli_bin, RealWorld};
use super::mock::{BOUND, PORT};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use team::profiles::{DialogKind, ProfileHost, Reading, Screen, State};

/// The pane's screen as `team` reads it: the ANSI capture and the title.
fn capture(rw: &RealWorld, pane: &str) -> Screen {
    let ansi = rw.tmux(&["capture-pane", "-p", "-e", "-t", pane]);
    let title = rw.tmux(&["display-message", "-p", "-t", pane, "#{pane_title}"]);
    Screen::from_ansi(&String::from_utf8_lossy(&ansi.stdout), String::from_utf8_lossy(&title.stdout).trim_end())
}

/// Waits until the pane's plain screen satisfies `pred`; panics with the screen after the bound.
fn wait(rw: &RealWorld, pane: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let t = Instant::now();
    loop {
        let s = String::from_utf8_lossy(&rw.tmux(&["capture-pane", "-p", "-t", pane]).stdout).into_owned();
        if pred(&s) {
            return s;
        }
        assert!(t.elapsed() < BOUND, "the pane never showed {what}; it shows:\n{s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn read(rw: &RealWorld, cli: &str, pane: &str) -> Reading {
    let host = ProfileHost::with_dirs(rw.top().join("profiles-config"), rw.top().join("profiles-cache"));
    let mut profile = host.load(cli, &BTreeMap::new()).unwrap();
    profile.classify(&capture(rw, pane)).unwrap()
}

/// A fresh HOME under the world, and the environment a CLI there gets.
fn fresh(rw: &RealWorld, name: &str, more: &[(&str, String)]) -> Vec<(String, String)> {
    let home = rw.top().join("fresh").join(name);
    std::fs::create_dir_all(&home).unwrap();
    let mut env = vec![
        ("HOME".to_string(), home.display().to_string()),
        ("PATH".to_string(), format!("{}:/usr/local/bin:/usr/bin:/bin", cli_bin().display())),
        ("LANG".to_string(), "C.UTF-8".to_string()),
        ("COLORTERM".to_string(), "truecolor".to_string()),
    ];
    env.extend(more.iter().map(|(k, v)| (k.to_string(), v.replace("{home}", &home.display().to_string()))));
    env
}

#[test]
fn claude_exiting_on_unable_to_connect_reads_exited_not_a_dialog() {
    let rw = RealWorld::start();
    let env = fresh(
        &rw,
        "claude",
        &[
            ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{PORT}")),
            ("ANTHROPIC_API_KEY", "sk-ant-test-0000000000000000000000000000000000000000".into()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
            ("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1".into()),
            ("DISABLE_AUTOUPDATER", "1".into()),
            ("DISABLE_TELEMETRY", "1".into()),
            ("DISABLE_ERROR_REPORTING", "1".into()),
        ],
    );
    // no ~/.claude.json: the first-run check, offline, fails and Claude exits
    let pane = rw.window("fresh-claude", "", &env, "claude");
    wait(&rw, &pane, "Claude's exit under `Unable to connect`", |s| {
        let last = s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        s.contains("Unable to connect to Anthropic services") && s.contains("[the CLI exited with") && last == "#"
    });
    let r = read(&rw, "claude-code", &pane);
    assert_eq!(r.state, State::Exited, "{}", r.why);
    assert!(r.why.contains("Unable to connect to Anthropic services") && r.why.contains("shell prompt"), "{}", r.why);
}

#[test]
fn codex_sign_in_under_its_logo_reads_the_sentence_not_the_art() {
    let rw = RealWorld::start();
    let env = fresh(&rw, "codex", &[("CODEX_HOME", "{home}/.codex".into())]);
    std::fs::create_dir_all(rw.top().join("fresh/codex/.codex")).unwrap();
    let pane = rw.window("fresh-codex", "", &env, "codex --no-daemon");
    // the logo stays over the sign-in screen only in a pane 45 rows or taller
    let out = rw.tmux(&["resize-window", "-t", &pane, "-x", "120", "-y", "50"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    wait(&rw, &pane, "the sign-in screen under the logo", |s| {
        s.contains("Sign in with ChatGPT") && s.contains("Press enter to continue") && s.contains("⣿⣿⣿")
    });
    let r = read(&rw, "codex", &pane);
    let State::Dialog(d) = &r.state else { panic!("{:?} ({})", r.state, r.why) };
    assert_eq!(d.kind, DialogKind::VendorNotice);
    assert_eq!(d.title, "Welcome to Codex, OpenAI's command-line coding agent");
    assert!(profile_reading::quote::is_sentence(&d.title));
}
