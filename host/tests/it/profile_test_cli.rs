//! `team profile test <component.wasm> <screens-dir>`: the vendor's conformance run, as a
//! process. Every bundled profile passes on `tests/data/screens`; the component built from the
//! frozen 0.1 WIT passes on the codex screens; a screen whose meta disagrees fails it with exit 1
//! and says why; every `--json` document is validated against `schema/profile-test.schema.json`.

use crate::common;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn screens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/screens")
}

fn team(dir: &Path, args: &[&str]) -> Output {
    for d in ["home", "config", "state", "cache"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    Command::new(env!("CARGO_BIN_EXE_team"))
        .args(args)
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env("TEAM_CONFIG_DIR", dir.join("config"))
        .env("TEAM_STATE_DIR", dir.join("state"))
        .env("TEAM_CACHE_DIR", dir.join("cache"))
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap()
}

fn doc(o: &Output) -> Value {
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let d: Value = serde_json::from_slice(&o.stdout).unwrap();
    common::validate(&d).unwrap();
    d
}

#[test]
fn every_bundled_profile_passes_on_the_repository_screens() {
    let dir = tempfile::tempdir().unwrap();
    let mut total = 0;
    for b in profile_artifacts::BUNDLED {
        let wasm = dir.path().join(format!("{}.wasm", b.id));
        std::fs::write(&wasm, b.bytes).unwrap();
        let o = team(dir.path(), &["profile", "test", wasm.to_str().unwrap(), screens().to_str().unwrap(), "--json"]);
        let d = doc(&o);
        assert_eq!(o.status.code(), Some(0), "{}: {d:#}", b.id);
        assert_eq!(d["ok"], true);
        assert_eq!(d["failed"], 0);
        assert_eq!(d["profile"]["interface"], "team:profile/classifier@0.2.0", "{}", b.id);
        assert_eq!(d["profile"]["has_compose"], b.id == "codex-cloud");
        let passed = d["passed"].as_u64().unwrap();
        assert!(passed >= 5, "{}: {passed}", b.id);
        total += passed;
    }
    // Every screen of the folder was tested by exactly one profile.
    let all = profile_reading::fixtures::load_tree(&screens()).unwrap();
    assert_eq!(total as usize, all.len());
}

#[test]
fn the_template_crate_s_build_passes_on_its_own_screens() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("template.wasm");
    std::fs::write(&wasm, profile_artifacts::TEMPLATE).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../profiles/template/screens");
    let o = team(dir.path(), &["profile", "test", wasm.to_str().unwrap(), shots.to_str().unwrap(), "--json"]);
    let d = doc(&o);
    assert_eq!(o.status.code(), Some(0), "{d:#}");
    assert_eq!((d["profile"]["id"].as_str(), d["passed"].as_u64()), (Some("template"), Some(3)));
    // `check` takes it as the host will.
    let o = team(dir.path(), &["profile", "check", wasm.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn a_0_1_component_passes_too_and_the_text_report_names_each_screen() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("codex-v0.1.wasm");
    std::fs::write(&wasm, profile_artifacts::legacy::CODEX_V0_1).unwrap();
    let o = team(
        dir.path(),
        &["profile", "test", wasm.to_str().unwrap(), screens().join("codex-0.171.0").to_str().unwrap()],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("codex 0.1.0 (team:profile/classifier@0.1.0) on "), "{out}");
    assert!(out.contains("\nok        codex-0.171.0/permission-shell-narrow30\n"), "{out}");
    assert!(out.contains("verdict   ok: codex 0.1.0 reads all "), "{out}");
}

#[test]
fn a_screen_read_wrong_fails_the_run_with_exit_1_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir_all(&shots).unwrap();
    let src = screens().join("codex-0.171.0");
    for name in ["idle-typed", "permission-shell-narrow30"] {
        for ext in ["ansi", "title", "meta.json"] {
            std::fs::copy(src.join(format!("{name}.{ext}")), shots.join(format!("{name}.{ext}"))).unwrap();
        }
    }
    // A vendor's capture whose meta expects the wrong thing (and no `.txt`: plain rows come
    // from the `.ansi`).
    let meta = shots.join("idle-typed.meta.json");
    let text = std::fs::read_to_string(&meta).unwrap().replace("\"state\": \"idle\"", "\"state\": \"working\"");
    std::fs::write(&meta, text).unwrap();
    let wasm = dir.path().join("codex.wasm");
    std::fs::write(&wasm, profile_artifacts::bundled("codex").unwrap().bytes).unwrap();
    let o = team(dir.path(), &["profile", "test", wasm.to_str().unwrap(), shots.to_str().unwrap(), "--json"]);
    let d = doc(&o);
    assert_eq!(o.status.code(), Some(1), "{d:#}");
    assert_eq!((d["passed"].as_u64(), d["failed"].as_u64()), (Some(1), Some(1)));
    let bad = d["screens"].as_array().unwrap().iter().find(|s| s["ok"] == false).unwrap();
    assert_eq!(bad["screen"], "shots/idle-typed");
    assert!(bad["why"].as_str().unwrap().contains("state: expected working"), "{bad:#}");
    assert_eq!(bad["reading"]["state"], "idle");
    // No screen for the component's id: nothing tested is not a pass.
    let o = team(
        dir.path(),
        &["profile", "test", wasm.to_str().unwrap(), screens().join("grok-cli-0.0.34").to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("nothing was tested"));
}
