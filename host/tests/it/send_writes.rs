//! What `team send` writes, and what it never writes: a dry run, `--list` and every
//! refusal leave no drop, no history and (dry runs) no log line; every exit-1/2 run under
//! `--json` is one `team.error` document on stdout with stderr empty; links in the registry
//! or the history ladder are refused, never followed.

use std::path::{Path, PathBuf};

use crate::common;
use crate::common::World;

/// Every file under `dir`, relative, sorted (links listed, not followed), leaving out the
/// profile cache (`cache/`): a compiled component and its description are a cache of the
/// binary's own bundled bytes, filled by whichever run first reads a profile, never a record.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut all = every_file(dir);
    all.retain(|p| !p.starts_with("cache"));
    all
}

fn every_file(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(p.clone());
            }
            out.push(p.strip_prefix(dir).unwrap().to_path_buf());
        }
    }
    out.sort();
    out
}

fn registry(w: &World) {
    w.config_file(
        "teams.yaml",
        &format!("teams:\n  beacon:\n    root: {}\n    roster:\n      - {{seat: claude-keeper, agent: agt_00000000000000b1, leads: true}}\n", w.repo.display()),
    );
    w.agent("agt_00000000000000b1", "beacon", "claude-keeper", "claude-code", Some(&w.repo));
}

#[test]
fn dry_runs_lists_and_refusals_write_no_drop_and_no_history() {
    let w = World::beacon();
    registry(&w);
    let before = tree(&w.base());
    for args in [
        vec!["send", "--list"],
        vec!["send", "--list", "--json"],
        vec!["send", "gpt-reviewer", "hi", "--dry-run"],
        vec!["send", "gpt-reviewer", "hi", "--dry-run", "--json"],
        vec!["send", "claude-keeper", "hi", "--wait", "--dry-run"],
        vec!["send", "gpt-reviewer", "hi", "--wait", "--dry-run"],
        vec!["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "--dry-run"],
    ] {
        let r = w.team(&args);
        assert!(r.code == 0 || args.contains(&"--wait"), "{args:?}: {r:?}");
    }
    assert_eq!(tree(&w.base()), before, "a dry run or a list wrote something");
    // refusals write their own team.log line and nothing else
    for args in [
        vec!["send", "claude-keeper", "hi", "--wait"],
        vec!["send", "nobody", "hi"],
        vec!["send", "lead@nowhere", "hi"],
    ] {
        let r = w.team(&args);
        assert_eq!(r.code, 1, "{args:?}: {r:?}");
    }
    let mut after = tree(&w.base());
    after.retain(|p| !before.contains(p));
    assert_eq!(after, vec![PathBuf::from("beacon/.agents/team.log")]);
    let log = std::fs::read_to_string(w.repo.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    assert!(!log.contains("\"hi\""), "a body reached team.log: {log}");
}

#[test]
fn every_failing_json_run_is_one_error_document_and_stderr_stays_empty() {
    let w = World::beacon();
    let cases: &[(&[&str], i32, &str)] = &[
        (&["send", "claude-keeper", "hi", "--wait", "--json"], 1, "send.refused"),
        (&["send", "nobody", "hi", "--json"], 1, "send.refused"),
        (&["send", "gpt-reviewer", "hi", "--wait", "--dry-run", "--json"], 1, "send.refused"),
        (&["send", "gpt-reviewer", "hi", "--json", "--timeout", "0"], 2, "send.usage"),
        (&["send", "gpt-reviewer", "hi", "--json", "--file", "/dev/null"], 2, "send.usage"),
        (&["send", "--record", "claude-keeper", "--channel", "socket", "--ms", "1", "--json"], 2, "send.usage"),
        (
            &["send", "--record", "claude-keeper", "--channel", "native", "--ms", "1", "--wait", "--json"],
            2,
            "send.usage",
        ),
        (&["send", "gpt-reviewer", "hi", "--json", "--no-such-flag"], 2, "send.usage"),
    ];
    for (args, code, id) in cases {
        let r = w.team(args);
        assert_eq!(r.code, *code, "{args:?}: {r:?}");
        assert_eq!(r.stderr, "", "{args:?}");
        let doc: serde_json::Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.stdout));
        common::validate(&doc).unwrap();
        assert_eq!(doc["error"]["id"], *id, "{args:?}");
    }
    // a team file that cannot be read
    w.team_file("project: beacon\nseats:\n  - name: a\n    cli: codex\n    delivery_order: [typed, x]\n");
    let r = w.team(&["send", "a", "hi", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (2, ""));
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["message"], "line 5: delivery_order: unknown leg \"x\"");
}

#[test]
fn links_in_the_registry_are_refused_never_followed() {
    let w = World::beacon();
    registry(&w);
    let elsewhere = w.base().join("elsewhere.yaml");
    std::fs::rename(w.config.join("teams.yaml"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, w.config.join("teams.yaml")).unwrap();
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.starts_with("team send: ") && r.stderr.contains("symbolic link"), "{}", r.stderr);
    std::fs::remove_file(w.config.join("teams.yaml")).unwrap();
    std::fs::rename(&elsewhere, w.config.join("teams.yaml")).unwrap();
    // a linked agent record addresses nobody: the spec form it would answer is refused
    let rec = w.config.join("agents/agt_00000000000000b1.yaml");
    let moved = w.base().join("rec.yaml");
    std::fs::rename(&rec, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &rec).unwrap();
    let r = w.team(&["send", "agt_00000000000000b1", "hi", "--dry-run"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stderr, "team send: refused: agt_00000000000000b1: no agent record holds this id\n");
}

#[test]
fn a_record_whose_history_folder_is_a_link_is_refused_and_writes_nothing() {
    let w = World::beacon();
    // make the project folder a link to somewhere else, as an attacker might
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "first"]);
    assert_eq!(r.code, 0, "{r:?}");
    let dir = std::fs::read_dir(&w.config)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("beacon-"))
        .unwrap()
        .path();
    let real = w.base().join("stolen");
    std::fs::rename(&dir, &real).unwrap();
    std::os::unix::fs::symlink(&real, &dir).unwrap();
    let before = std::fs::read_to_string(real.join("messages.jsonl")).unwrap();
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "second"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.starts_with("team send: refused: claude-keeper: the delivery could not be written down"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.ends_with("nothing was recorded\n"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(real.join("messages.jsonl")).unwrap(), before);
}
