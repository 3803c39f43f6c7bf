//! Input past its bounds: `--file` that is no regular file, bodies over 1 MiB, files too large
//! to read — each refused at once, before anything is written — and refusals in the project's
//! own words, never a library's.

use super::{files, within};
use crate::common::World;

#[test]
fn file_takes_a_regular_file_or_standard_input_only() {
    let w = World::beacon();
    let fifo = w.base().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let cases = [
        (fifo.display().to_string(), "a FIFO"),
        ("/dev/zero".to_string(), "a device"),
        (w.base().display().to_string(), "a folder"),
    ];
    for (path, what) in cases {
        // `timeout`: a FIFO once blocked forever, /dev/zero read until memory ran out (a hang
        // guard: the bound is generous, a run that ends at all ends in a second)
        let (r, _) =
            within(crate::common::BOUND, || w.sh(&format!("timeout 100 team send gpt-reviewer --file '{path}'")));
        assert_eq!(r.code, 2, "{path}: {r:?}");
        assert_eq!(
            r.stderr,
            format!(
                "team send: --file {path}: it is {what}, not a regular file; name a file, or - for standard input\n"
            )
        );
    }
    assert!(!w.repo.join(".agents/send-drops").exists());
    // standard input is bounded too: an endless stream ends the read at the bound
    let (r, _) = within(crate::common::BOUND, || w.sh("timeout 100 team send gpt-reviewer --file - < /dev/zero"));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("the message is 1048577 bytes, larger than a message may be (1 MiB"), "{}", r.stderr);
}

#[test]
fn a_body_over_one_mib_is_refused_before_any_drop_is_written() {
    let w = World::beacon();
    let big = w.base().join("big.txt");
    std::fs::write(&big, "x".repeat((1 << 20) + 1)).unwrap();
    let r = w.team(&["send", "gpt-reviewer", "--file", big.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stderr,
        format!("team send: refused: --file {}: the message is 1048577 bytes, larger than a message may be (1 MiB, the largest frame a seat's socket takes); nothing was sent\n", big.display())
    );
    let r = w.sh(&format!("team send gpt-reviewer --file - < '{}'", big.display()));
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("team send: refused: --file -: the message is 1048577 bytes"), "{}", r.stderr);
    assert!(!w.repo.join(".agents/send-drops").exists(), "no drop written");
    assert!(files(&w.state).is_empty());
    // exactly 1 MiB is a message
    std::fs::write(&big, "x".repeat(1 << 20)).unwrap();
    let r = w.team(&["send", "gpt-reviewer", "--file", big.to_str().unwrap(), "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn files_larger_than_their_kind_are_refused_when_read() {
    let w = World::empty();
    let mut text = String::from("project: beacon\nseats:\n  - name: a\n    cli: codex\n");
    while text.len() <= 1 << 20 {
        text.push_str("# padding padding padding padding padding padding padding padding padding\n");
    }
    w.team_file(&text);
    let r = w.team(&["send", "a", "hi", "--dry-run"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("more than team reads from a file of its kind (1 MiB); refusing to read it"),
        "{}",
        r.stderr
    );
    // an agent record past 64 KiB is passed over, never read whole
    let w = World::beacon();
    w.config_file(
        "agents/agt_00000000000000d1.yaml",
        &format!("id: agt_00000000000000d1\nseat: s\nteam: t\nname: \"{}\"\n", "x".repeat(70_000)),
    );
    let r = w.team(&["send", "agt_00000000000000d1", "hi", "--dry-run"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stderr, "team send: refused: agt_00000000000000d1: no agent record holds this id\n");
}

#[test]
fn refusals_say_what_is_wrong_in_the_project_s_words() {
    let w = World::empty();
    let leaks = ["DuplicateKeyPolicy", "from_str_multiple", "budget breached", "Options", "Nodes {"];
    let cases = [
        ("project: beacon\nproject: other\nseats: []\n", "team send: line 2: the key `project` is written twice in one mapping; keep one\n".to_string()),
        ("project: beacon\nseats: []\n---\nproject: x\n", "team send: line 4: the file holds more than one YAML document (a second `---`); it must be one\n".to_string()),
        (
            &*format!("project: beacon\nseats: []\nx: [{}]\n", "0,".repeat(260_000)),
            "team send: line 3: the file is larger, deeper or expands its aliases further than team reads; write it plainly and shorter\n".to_string(),
        ),
    ];
    for (text, want) in cases {
        w.team_file(text);
        let r = w.team(&["send", "a", "hi"]);
        assert_eq!(r.code, 2, "{r:?}");
        for l in leaks {
            assert!(!r.stderr.contains(l), "{}", r.stderr);
        }
        // (the file's line under it, with a caret, follows the sentence)
        let said = want.trim_end().strip_prefix("team send: ").unwrap();
        assert!(r.stderr.starts_with("team send: ") && r.stderr.contains(said), "{}", r.stderr);
    }
    let w = World::beacon();
    let r = w.team(&["send", "@", "hi"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "team send: refused: @: names no nickname; address @<nickname> (team send --list shows each seat's)\n"
    );
}
