//! `team send` as a first user meets it (issue 8 §4, §1.5; issue 7's history line): `--` ends
//! the options, `--file -` reads standard input, a `cli:` that names no installed profile is
//! refused before anything is written, a dropped-in profile that declares the native channel
//! lists as `socket`, `profile check` on a non-component says so in one line, and a history
//! line that cannot be written is said in the outcome line, the document and team.log.

use serde_json::Value;

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;

/// A team world whose seats are the fake seats of a private tmux session `beacon`.
fn scene(seats: &[SeatSpec]) -> (World, TmuxWorld) {
    let tw = TmuxWorld::start("beacon", seats);
    let mut w = World::empty();
    let mut file = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for s in seats {
        file.push_str(&format!("  - name: {}\n    role: worker\n    cli: {}\n", s.name, s.cli));
    }
    w.team_file(&file);
    w.extra_env.extend(tw.env());
    w.extra_env.push(("TEAM_TIME_SCALE".into(), "0.05".into()));
    (w, tw)
}

fn drops(w: &World, seat: &str) -> Vec<std::path::PathBuf> {
    let dir = w.repo.join(".agents/send-drops/beacon").join(seat);
    let mut v: Vec<_> = std::fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    v.sort();
    v
}

#[test]
fn a_double_dash_ends_the_options_and_the_words_after_it_are_sent() {
    let (w, _tw) = scene(&[SeatSpec::new("rev", "codex", "takes-line")]);
    let r = w.team(&["send", "rev", "--", "fix", "the", "--json", "output"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "team beacon, session \"beacon\"\nrev: delivered\n"), "{r:?}");
    let d = drops(&w, "rev");
    assert_eq!(d.len(), 1);
    assert!(std::fs::read_to_string(&d[0]).unwrap().ends_with("\n\nfix the --json output"));
    let r = w.team(&["send", "--help"]);
    assert!(r.stdout.contains("Quote a message that holds words starting with `-`"), "{}", r.stdout);
}

#[test]
fn file_dash_reads_the_body_from_standard_input() {
    let w = World::beacon();
    // (stdin is the pipe; the terminal the owner needs is kept on stderr)
    let r = w.sh("exec 4<&0; printf 'line one\\nline two\\n' | team send --record claude-keeper --channel native --ms 5 --file - 2>&4");
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "team beacon, session \"beacon\"\nclaude-keeper: recorded (native, 5 ms)\n"),
        "{r:?}"
    );
    let h = w.history();
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["body"], "from the owner — admitted by: the owner\n\nline one\nline two\n");
    // a message and --file - together is still one body too many
    let r = w.sh("echo x | team send gpt-reviewer hi --file - 2>&1");
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn a_cli_that_names_no_installed_profile_is_refused_once_before_anything_is_written() {
    let w = World::empty();
    w.team_file(
        "format: 1\nproject: beacon\nseats:\n  - name: rev\n    cli: codx\n  - name: keeper\n    cli: claude-code\n",
    );
    let refusal = "team send: refused: rev runs \"codx\", which names no installed profile (did you mean codex?); the installed profiles are agy, claude-code, codex, codex-cloud, copilot, cursor, gemini-cli, grok, grok-cli, opencode, qwen-code; nothing was sent\n";
    for args in [vec!["send", "rev", "hello"], vec!["send", "rev", "hello", "--dry-run"]] {
        let r = w.team(&args);
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{args:?}: {r:?}");
        let (first, repair) = r.stderr.split_at(refusal.len());
        assert_eq!(first, refusal, "{args:?}");
        assert!(repair.starts_with("write an installed profile's id as the seat's cli: in its team file"), "{repair}");
        assert_eq!(r.stderr.matches("refused").count(), 1, "refused once: {}", r.stderr);
    }
    assert!(!w.repo.join(".agents/send-drops").exists(), "no drop file");
    assert!(w.history().is_empty(), "no history line");
    let r = w.team(&["send", "rev", "hello", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["id"], "send.refused");
    // --list says the same
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("  rev     -         -     beacon   -\n"), "{}", r.stdout);
    assert_eq!(
        r.stderr,
        "team send: rev runs \"codx\", which names no installed profile (did you mean codex?); the installed profiles are agy, claude-code, codex, codex-cloud, copilot, cursor, gemini-cli, grok, grok-cli, opencode, qwen-code\n"
    );
    let r = w.team(&["send", "--list", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["seats"][0]["reach"], Value::Null);
    assert!(doc["seats"][0]["problem"].as_str().unwrap().contains("did you mean codex?"));
    assert_eq!(doc["seats"][1]["reach"], "socket");
    assert!(doc["seats"][1].get("problem").is_none());
}

#[test]
fn a_dropped_in_profile_that_declares_the_native_channel_lists_as_socket() {
    let w = World::empty();
    w.team_file("format: 1\nproject: beacon\nseats:\n  - name: n\n    cli: native-test\n  - name: t\n    cli: native-test\n    delivery_order: [typed]\n");
    let dir = w.config.join("profiles/native-test");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("0.1.0.wasm"), profile_artifacts::hostile::NATIVE_CHANNEL).unwrap();
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "team beacon, session \"beacon\"\n  SEAT  NICKNAME  ROLE  PROJECT  REACH\n  n     -         -     beacon   socket\n  t     -         -     beacon   typed\n2 seats\n"
    );
    // the walk reads the same fact: its native leg is the one this build does not carry
    let r = w.team(&["send", "n", "hi", "--dry-run", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["plan"]["failed"][0], "native: unavailable in this build");
    let r = w.team(&["send", "n", "hi", "--wait"]);
    assert!(r.stderr.contains("n: --wait needs the native leg (team route + your own SendMessage)"), "{r:?}");
}

#[test]
fn profile_check_on_something_that_is_not_a_component_says_so_in_one_line() {
    let w = World::beacon();
    let text = w.base().join("notes.txt");
    std::fs::write(&text, "hello\n").unwrap();
    let module = w.base().join("core.wasm");
    std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
    for (file, what) in
        [(&text, "not a WebAssembly component"), (&module, "a WebAssembly core module, not a component")]
    {
        let r = w.team(&["profile", "check", &file.display().to_string()]);
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{r:?}");
        assert_eq!(
            r.stderr,
            format!(
                "team profile: refused: {} is {what}: a profile is a component built for wasm32-wasip2 (see docs/writing-a-profile.md)\n",
                file.display()
            )
        );
        let r = w.team(&["profile", "check", &file.display().to_string(), "--json"]);
        let doc: Value = serde_json::from_str(&r.stdout).unwrap();
        common::validate(&doc).unwrap();
        assert_eq!((r.code, doc["error"]["id"].as_str()), (1, Some("profile.refused")));
    }
}

/// Runs `team <args>` with `<config>` read-only, as an agent's sandbox mounts it: a private
/// mount namespace (`unshare`) bind-mounts it over itself read-only. Inside, `script` provides
/// the run's terminal (the test's own pty master is not readable from a user namespace, and
/// the owner's terminal must be provided by a process it descends from); the run's output goes
/// to files, untouched by the terminal.
fn read_only_config(w: &World, args: &str) -> common::Run {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let d = w.base().join(format!("ro-{}", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::create_dir_all(&d).unwrap();
    let (o, e, c) = (d.join("out"), d.join("err"), d.join("code"));
    let inner = d.join("inner.sh");
    std::fs::write(
        &inner,
        format!("team {args} > '{}' 2> '{}'\necho $? > '{}'\n", o.display(), e.display(), c.display()),
    )
    .unwrap();
    let r = w.sh(&format!(
        "unshare -rm sh -c 'mount --bind \"$TEAM_CONFIG_DIR\" \"$TEAM_CONFIG_DIR\" && mount -o remount,bind,ro \"$TEAM_CONFIG_DIR\" && exec script -qec \"bash {}\" /dev/null'",
        inner.display()
    ));
    assert_eq!(r.code, 0, "{r:?}");
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    common::Run { stdout: read(&o), stderr: read(&e), code: read(&c).trim().parse().unwrap_or(-1) }
}

#[test]
fn a_history_line_that_cannot_be_written_is_said_in_the_outcome_the_document_and_the_log() {
    let (mut w, _tw) = scene(&[SeatSpec::new("rev", "codex", "takes-line")]);
    // two sends: two ids
    w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    std::fs::create_dir_all(&w.config).unwrap();
    let r = read_only_config(&w, "send rev hello");
    assert_eq!(r.code, 0, "{r:?}");
    let folder = w.config.join(format!("beacon-{}", team::history::root_hash(&w.repo)));
    let why = format!(
        "{} is read-only here: a sandbox is in the way (run `team send` outside the agent's sandbox; see docs/agents.md)",
        folder.display()
    );
    assert_eq!(
        r.stdout,
        format!("team beacon, session \"beacon\"\nrev: delivered; its history line was not written: {why}\n")
    );
    assert!(w.history().is_empty());
    let r = read_only_config(&w, "send rev again --json");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["status"], "delivered");
    assert_eq!(doc["history_error"], why.as_str());
    let log = std::fs::read_to_string(w.repo.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().filter(|l| l.contains(&format!("history line not written: {why}"))).count(), 2, "{log}");
    assert_eq!(drops(&w, "rev").len(), 2, "the messages themselves are on disk");
}
