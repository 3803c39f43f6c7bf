//! Terminal injection: a body a seat sends its lead, and a team file's free words, reach the
//! owner's terminal escaped — no OSC 52 (clipboard), OSC 0 (title) or CSI 2J (clear) raw.

use crate::common::World;

const HOSTILE: &str = "\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{1b}]0;pwned\u{7}\u{1b}[2Jdone";

fn raw_controls(s: &str) -> Vec<char> {
    s.chars().filter(|c| c.is_control() && *c != '\n').collect()
}

#[test]
fn escapes_in_a_body_never_reach_the_terminal_through_feed() {
    let w = World::beacon();
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", HOSTILE]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.team(&["feed"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(raw_controls(&r.stdout).is_empty(), "{:?}", r.stdout);
    assert!(r.stdout.contains("\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b]0;pwned\\x07\\x1b[2Jdone"), "{}", r.stdout);
    let r = w.team(&["feed", "--json"]);
    assert!(raw_controls(&r.stdout).is_empty(), "the JSON document escapes them too");
}

#[test]
fn escapes_in_team_file_words_never_reach_the_terminal_through_list() {
    let w = World::empty();
    w.team_file(
        "project: beacon\nseats:\n  - name: rev\n    cli: codex\n    role: \"\\e]0;pwned\\a\\e[2Jreviewer\"\n    label: \"\\e]52;c;eA==\\a\"\n",
    );
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(raw_controls(&r.stdout).is_empty() && raw_controls(&r.stderr).is_empty(), "{r:?}");
    assert!(r.stdout.contains("\\x1b]0;pwned\\x07\\x1b[2Jreviewer"), "{}", r.stdout);
    // the words that become paths may hold none at all
    w.team_file("project: beacon\nsession: \"be\\e]0;x\\acon\"\nseats:\n  - name: rev\n    cli: codex\n");
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 2);
    assert!(
        raw_controls(&r.stderr).is_empty()
            && r.stderr.contains("session \"be\\x1b]0;x\\x07con\" is not a session name"),
        "{}",
        r.stderr
    );
}

#[test]
fn escapes_in_an_address_never_reach_the_terminal_through_an_outcome_line() {
    let w = World::beacon();
    for args in [
        vec!["send", HOSTILE, "hi"],
        vec!["send", "gpt-reviewer@\u{1b}[2J", "hi"],
        vec!["send", "--record", HOSTILE, "--channel", "native", "--ms", "1"],
    ] {
        let r = w.team(&args);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(raw_controls(&r.stdout).is_empty() && raw_controls(&r.stderr).is_empty(), "{r:?}");
        assert!(r.stderr.starts_with("team send: refused: ") && r.stderr.contains("\\x1b"), "{}", r.stderr);
        let r = w.team(&[&args[..], &["--json"]].concat());
        assert!(raw_controls(&r.stdout).is_empty(), "{}", r.stdout);
    }
}
