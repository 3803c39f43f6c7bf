//! The test hooks in a build without them: `TEAM_NOW`, `TEAM_ID_SEED` and `HERDR_BIN` in a
//! caller's environment steer nothing. The suite's own binary is a test build (it honours
//! them by design), so this runs against a binary built without debug assertions, named by
//! `TEAM_NOHOOKS_BIN` (`.ci/run` does this after the suite):
//!
//! ```sh
//! cargo test -p team --test it --no-run --config 'profile.dev.package.team.debug-assertions=false'
//! cp target/debug/team /tmp/team-nohooks
//! TEAM_NOHOOKS_BIN=/tmp/team-nohooks cargo test -p team --test it hooks -- --ignored
//! ```

use crate::common::{shell_quote, World, NOW};

#[test]
#[ignore = "needs TEAM_NOHOOKS_BIN, a team built without debug assertions (see the module docs)"]
fn a_build_without_the_hooks_ignores_them() {
    let bin = std::env::var("TEAM_NOHOOKS_BIN").expect("TEAM_NOHOOKS_BIN names a team built without debug assertions");
    let bin = shell_quote(&bin);
    let mut w = World::beacon();
    // a herdr the environment names, which answers as the lead's pane and leaves a mark
    let fake = w.base().join("fake-herdr");
    let ran = w.base().join("fake-herdr-ran");
    std::fs::write(&fake, format!("#!/bin/sh\ntouch '{}'\necho 'herdr 0.8.2'\n", ran.display())).unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    w.extra_env.push(("HERDR_BIN".into(), fake.display().to_string()));
    w.extra_env.push(("HERDR_PANE_ID".into(), "w1:p1".into()));
    let r = w.sh(&format!("{bin} send --record claude-keeper --channel native --ms 5 hello"));
    // the caller check asked no program the environment named
    assert!(!ran.exists(), "HERDR_BIN was run: {r:?}");
    assert!(r.stderr.contains("herdr is not installed: no `herdr` in "), "{r:?}");
    w.extra_env.retain(|(k, _)| k != "HERDR_PANE_ID");
    let r = w.sh(&format!("{bin} send --record claude-keeper --channel native --ms 5 hello"));
    assert_eq!(r.code, 0, "{r:?}");
    let dir = std::fs::read_dir(&w.config)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("beacon-"))
        .unwrap()
        .path();
    let line: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(dir.join("messages.jsonl")).unwrap().lines().last().unwrap())
            .unwrap();
    // TEAM_NOW (2026-10-01T09:00:00Z) did not forge the line's time, TEAM_ID_SEED=7 not its id
    assert_ne!(line["ts"], NOW, "{line}");
    assert_ne!(line["id"], "00000000-0000-4007-8000-000000000000", "{line}");
    // and the test build this suite runs does honour them (the hooks are a build's, not a run's)
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "again"]);
    assert_eq!(r.code, 0);
    let text = std::fs::read_to_string(dir.join("messages.jsonl")).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(line["ts"], NOW);
}
