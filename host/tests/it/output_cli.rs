//! Output that never breaks (issue 8 §2): a closed pipe ends a run quietly, `--follow` stops
//! when its reader goes away, every `--json` invocation error is the `team.error` document, a
//! non-UTF-8 word is a usage error, and text from outside reaches a terminal escaped.

use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

use crate::common;
use crate::common::World;

/// A generous bound for a run that must end by itself.
const BOUND: Duration = Duration::from_secs(30);

/// Runs `line` with stdout on a pipe whose reader is already gone; `(exit code, stderr)`.
fn with_stdout_closed(w: &World, line: &str) -> (Option<i32>, String) {
    let (r, wr) = common::os_pipe();
    drop(r);
    let (mut er, ew) = common::os_pipe();
    let run = w.start(line, Stdio::from(wr), Stdio::from(ew));
    let code = run.code(BOUND);
    let mut err = String::new();
    er.read_to_string(&mut err).unwrap();
    (code, err)
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_with_exit_0() {
    let w = World::beacon();
    // a history to print
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "the gate is green"]);
    assert_eq!(r.code, 0, "{r:?}");
    for line in [
        "team feed",
        "team feed --json",
        "team send --list",
        "team send --list --json",
        "team profile list",
        "team profile list --json",
        "team send gpt-reviewer hi --dry-run",
    ] {
        let (code, err) = with_stdout_closed(&w, line);
        assert_eq!(code, Some(0), "{line}: {err}");
        assert_eq!(err, "", "{line}: a closed pipe is no error to report");
    }
}

#[test]
fn follow_stops_when_its_reader_goes_away() {
    let w = World::beacon();
    let (mut r, wr) = common::os_pipe();
    let run = w.start("team feed --follow", Stdio::from(wr), Stdio::null());
    // the first pass: the context line and `0 events`
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("0 events\n") {
        let n = r.read(&mut buf).unwrap();
        assert!(n > 0, "the follow ended before its first pass: {:?}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    assert_eq!(String::from_utf8_lossy(&seen), "team beacon, session \"beacon\"\n0 events\n");
    assert_eq!(run.code(Duration::from_millis(300)), None, "a follow runs until it is stopped");
    drop(r);
    assert_eq!(run.code(BOUND), Some(0), "the follow did not stop when its reader went away");
}

#[test]
fn every_json_invocation_error_is_the_error_document() {
    let w = World::beacon();
    let screen = w.base().join("screen.txt");
    std::fs::write(&screen, "hello\n").unwrap();
    let screen = screen.display().to_string();
    let cases: &[(&[&str], &str)] = &[
        (&["feed", "--limit", "abc", "--json"], "feed.usage"),
        (&["feed", "--json", "--no-such-flag"], "feed.usage"),
        (&["send", "--json", "--timeout"], "send.usage"),
        (&["profile", "list", "--json", "--bogus"], "profile.usage"),
        (&["profile", "check", "--json"], "profile.usage"),
        (&["profile", "explain", "codex", &screen, "--size", "wide", "--json"], "profile.usage"),
        (&["profile", "nonesuch", "--json"], "profile.usage"),
    ];
    for (args, id) in cases {
        let r = w.team(args);
        assert_eq!((r.code, r.stderr.as_str()), (2, ""), "{args:?}: {r:?}");
        let doc: serde_json::Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.stdout));
        common::validate(&doc).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(doc["error"]["id"], *id, "{args:?}");
    }
    // The spec's one exception: --follow --json is the usage on stderr, with no document.
    let r = w.team(&["feed", "--follow", "--json"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(r.stderr.contains("--follow") && r.stderr.contains("Usage"), "{}", r.stderr);
    // Without --json a usage error stays clap's usage on stderr.
    let r = w.team(&["feed", "--limit", "abc"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(r.stderr.starts_with("error: invalid value 'abc' for '--limit <n>'"), "{}", r.stderr);
}

#[test]
fn a_word_that_is_not_utf8_is_a_usage_error() {
    let w = World::beacon();
    let r = w.sh("team send gpt-reviewer $'fix \\xff it'");
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert_eq!(r.stderr, "team send: an argument is not UTF-8 text (\"fix \\xff it\"); write every word as UTF-8\n");
    let r = w.sh("team feed --seat $'\\xfe' --json");
    assert_eq!((r.code, r.stderr.as_str()), (2, ""), "{r:?}");
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["id"], "feed.usage");
    assert!(!w.repo.join(".agents/send-drops").exists());
}

#[test]
fn an_escape_sequence_in_a_body_is_shown_escaped_by_feed() {
    let w = World::beacon();
    let r =
        w.sh("team send --record claude-keeper --channel native --ms 5 $'clear \\e[2J\\e]0;owned\\a the \\u202egate'");
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.team(&["feed"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.chars().any(|c| c.is_control() && c != '\n' || c == '\u{202e}'), "{:?}", r.stdout);
    assert!(r.stdout.contains("clear \\x1b[2J\\x1b]0;owned\\x07 the \\u{202e}gate"), "{}", r.stdout);
    // The document carries the body as it was written (JSON escapes it).
    let r = w.team(&["feed", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert!(r.stdout.contains("\\u001b[2J"), "{}", r.stdout);
    assert!(doc["events"][0]["body"]
        .as_str()
        .unwrap()
        .ends_with("clear \u{1b}[2J\u{1b}]0;owned\u{7} the \u{202e}gate"));
}

#[test]
fn a_profiles_words_are_shown_escaped_and_bounded_by_explain() {
    let w = World::beacon();
    let dir = w.config.join("profiles/native-test");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("0.1.0.wasm"), profile_artifacts::hostile::NATIVE_CHANNEL).unwrap();
    let screen = w.base().join("screen.txt");
    std::fs::write(&screen, "a prompt\n").unwrap();
    let r = w.team(&["profile", "explain", "native-test", &screen.display().to_string(), "--title", "t"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.chars().any(|c| c.is_control() && c != '\n'), "{:?}", r.stdout);
    let state = r.stdout.lines().find(|l| l.starts_with("state ")).unwrap();
    assert!(state.starts_with("state     dialog (question): \\x1b]0;owned\\x07\\x1b[2Jt"), "{state}");
    // 10 + 4 + 1 + 5000 characters, cut at the host's bound
    assert!(state.ends_with("x… (3991 more characters)"), "the title is bounded: {state}");
    assert!(r.stdout.contains("composer  holds \"\\x1b[31mred\\x1b[0m\""), "{}", r.stdout);
    assert!(r.stdout.contains("why       a question\\u{9b}2J y"), "{}", r.stdout);
}
