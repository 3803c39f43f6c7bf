//! The test hooks and the test double belong to test builds, never to what `cargo install`
//! builds.
//!
//! - The hooks (`TEAM_NOW`, `TEAM_ID_SEED`, `TEAM_TIME_SCALE`, `HERDR_BIN`) are honoured only by
//!   a process that opened them (`team::test_env::open_test_hooks`), which only the test binary
//!   `team-hooked` does; the product binary `team` (`src/main.rs`) never does. This test build
//!   has the hooks' code compiled in (`test-fakes` is on), so running its `team` with the hooks
//!   set and seeing them ignored proves the product's entry ignores them — without a second
//!   build; a build without `test-fakes` (what `cargo install` makes) does not even carry the
//!   code that reads `TEAM_NOW`, `TEAM_ID_SEED` or `TEAM_TIME_SCALE`.
//! - The fake seat and `team-hooked` are binaries that need `test-fakes`, a feature no default
//!   turns on, and the double's crate is an optional dependency: read from cargo's own view of
//!   the manifest (`cargo metadata`), so a change that would ship them fails here.

use crate::common::{product_bin, shell_quote, World, NOW};

#[test]
fn the_product_binary_ignores_the_test_hooks() {
    let product = shell_quote(&product_bin().display().to_string());
    let mut w = World::beacon();
    // a herdr the environment names, which answers as the lead's pane and leaves a mark
    let fake = w.base().join("fake-herdr");
    let ran = w.base().join("fake-herdr-ran");
    std::fs::write(&fake, format!("#!/bin/sh\ntouch '{}'\necho 'herdr 0.8.2'\n", ran.display())).unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    w.extra_env.push(("HERDR_BIN".into(), fake.display().to_string()));
    w.extra_env.push(("HERDR_PANE_ID".into(), "w1:p1".into()));
    let send = "send --record claude-keeper --channel native --ms 5";
    // the hooked test binary runs the herdr the environment names: the check is reached
    let r = w.sh(&format!("team {send} hello"));
    assert!(ran.exists(), "team-hooked did not run HERDR_BIN: {r:?}");
    std::fs::remove_file(&ran).unwrap();
    // the product asks no program the environment names
    let r = w.sh(&format!("{product} {send} hello"));
    assert!(!ran.exists(), "HERDR_BIN was run: {r:?}");
    assert!(r.stderr.contains("herdr is not installed: no `herdr` in "), "{r:?}");
    w.extra_env.retain(|(k, _)| k != "HERDR_PANE_ID");
    let r = w.sh(&format!("{product} {send} hello"));
    assert_eq!(r.code, 0, "{r:?}");
    let dir = std::fs::read_dir(&w.config)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("beacon-"))
        .unwrap()
        .path();
    let last = || -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join("messages.jsonl")).unwrap();
        serde_json::from_str(text.lines().last().unwrap()).unwrap()
    };
    // TEAM_NOW (2026-10-01T09:00:00Z) did not forge the line's time, TEAM_ID_SEED=7 not its id
    let line = last();
    assert_ne!(line["ts"], NOW, "{line}");
    assert_ne!(line["id"], "00000000-0000-4007-8000-000000000000", "{line}");
    // and the hooked test binary, run the same way, does honour them (with no herdr named: the
    // caller check always asks the multiplexer, and the fake one answers nothing it can read)
    w.extra_env.retain(|(k, _)| k != "HERDR_BIN");
    let r = w.sh(&format!("team {send} again"));
    assert_eq!(r.code, 0, "{r:?}");
    let line = last();
    assert_eq!(line["ts"], NOW, "{line}");
}

#[test]
fn the_product_has_no_fake_seat() {
    // the product's command line has no double in it (the demo's own seat is `demo-seat`)
    let out = std::process::Command::new(product_bin()).args(["fake-seat", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand 'fake-seat'"), "{out:?}");
    // cargo's view of the manifest: only `team` builds without `test-fakes`, which no default
    // feature turns on, and the double's crate comes only with it
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1", "--manifest-path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let team = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == "team").expect("the team package");
    let bins: Vec<(&str, &serde_json::Value)> = team["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
        .map(|t| (t["name"].as_str().unwrap(), &t["required-features"]))
        .collect();
    assert!(bins.contains(&("team", &serde_json::Value::Null)), "{bins:?}");
    for (name, req) in &bins {
        if *name != "team" {
            assert_eq!(**req, serde_json::json!(["test-fakes"]), "the binary {name} must need test-fakes");
        }
    }
    assert!(bins.iter().any(|(n, _)| *n == "fake-seat") && bins.iter().any(|(n, _)| *n == "team-hooked"), "{bins:?}");
    let default = &team["features"]["default"];
    assert!(default.is_null() || !default.as_array().unwrap().iter().any(|f| f == "test-fakes"), "{default}");
    let dep = team["dependencies"].as_array().unwrap().iter().find(|d| d["name"] == "fake-seat").expect("fake-seat");
    assert_eq!((dep["optional"].as_bool(), dep["kind"].as_str()), (Some(true), None), "{dep}");
}
