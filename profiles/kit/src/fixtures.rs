//! Screen fixtures of this repository (`tests/data/screens`): the loader and the one check are
//! `profile_reading::fixtures` (which `team profile test` uses too); this adds where the
//! repository keeps them.

use std::path::{Path, PathBuf};

pub use profile_reading::fixtures::{check, conformance, load_tree, Expect, Fixture};

/// The repository's `tests/data/screens` directory.
pub fn screens_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/screens")
}

/// The repository's `tests/data/transcripts` directory.
pub fn transcripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/transcripts")
}

/// Loads one fixture from `dir/<name>.*` (a folder of `tests/data/screens`).
pub fn load(dir: &Path, name: &str) -> Result<Fixture, String> {
    profile_reading::fixtures::load(&screens_dir(), dir, name)
}

/// Every fixture in one `<cli>-<version>` directory, sorted by name.
pub fn load_dir(dir: &Path) -> Result<Vec<Fixture>, String> {
    profile_reading::fixtures::load_dir(&screens_dir(), dir)
}

/// Every fixture under `tests/data/screens`, sorted by directory and name.
pub fn all() -> Result<Vec<Fixture>, String> {
    load_tree(&screens_dir())
}

/// Every fixture whose meta names `cli` (`claude-code`, `codex`, `codex-cloud`, `grok-cli`, `cursor`, `agy`, `grok`).
pub fn for_cli(cli: &str) -> Result<Vec<Fixture>, String> {
    Ok(all()?.into_iter().filter(|f| f.cli == cli).collect())
}

/// One line per fixture whose `.ansi` capture, read alone (the plain rows derived from the
/// styled ones, as `team profile explain` and herdr's reads see it), gives `classify` another
/// state or composer than the fixture's own screen (empty: all agree). A fixture with no
/// `.ansi` file is one line too.
pub fn ansi_disagreements(
    fixtures: &[Fixture],
    classify: impl Fn(&profile_reading::Screen) -> profile_reading::Reading,
) -> Vec<String> {
    let mut failures = Vec::new();
    for f in fixtures {
        let path = screens_dir().join(&f.dir).join(format!("{}.ansi", f.name));
        let Ok(ansi) = std::fs::read_to_string(&path) else {
            failures.push(format!("{}: no {}", f.label(), path.display()));
            continue;
        };
        let (a, b) = (classify(&profile_reading::Screen::from_ansi(&ansi, "")), classify(&f.screen));
        if (&a.state, &a.composer) != (&b.state, &b.composer) {
            failures.push(format!(
                "{}: from its .ansi alone {:?} {:?}, from its screen {:?} {:?} ({})",
                f.label(),
                a.state,
                a.composer,
                b.state,
                b.composer,
                a.why
            ));
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Composer, Reading, Screen, State, TurnError};
    use serde_json::Value;

    #[test]
    fn loads_every_fixture_with_an_expectation() {
        let all = all().unwrap();
        assert!(all.len() >= 100, "only {} fixtures", all.len());
        for f in &all {
            assert!(!f.expect.state.is_empty(), "{} has no expect.state", f.label());
            assert!(!f.screen.plain.is_empty(), "{} has no rows", f.label());
        }
    }

    #[test]
    fn backward_start_states_match_the_forward_scan_on_every_real_screen() {
        for f in all().unwrap() {
            let rows = &f.screen.styled;
            let mut st = crate::ansi::Style::default();
            for k in 0..rows.len() {
                assert_eq!(crate::ansi::state_before(rows, k), st, "{} row {k}", f.label());
                crate::ansi::advance_state(&rows[k], &mut st);
            }
        }
    }

    #[test]
    fn conformance_is_not_vacuous() {
        let all = all().unwrap();
        let unknown = |_: &Screen| Reading::new(State::Unknown("x".into()), Composer::Unreadable, None, "");
        assert_eq!(conformance(&all, unknown).len(), all.len());
    }

    #[test]
    fn every_correction_names_a_fixture_and_a_field() {
        let text = std::fs::read_to_string(screens_dir().join("corrections.json")).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        for c in doc["corrections"].as_array().unwrap() {
            let label = c["fixture"].as_str().unwrap();
            let (dir, name) = label.split_once('/').unwrap();
            let f = load(&screens_dir().join(dir), name).unwrap();
            let field = c["field"].as_str().unwrap();
            assert!(
                ["state", "dialog", "composer", "working_hint", "last_turn_error"].contains(&field),
                "{label}: {field}"
            );
            assert_eq!(f.corrections.len(), 1, "{label}");
            assert!(!c["reason"].as_str().unwrap().is_empty());
        }
    }

    #[test]
    fn check_reports_each_mismatch() {
        let e = Expect {
            state: "idle".into(),
            dialog: None,
            composer: Some(Some(String::new())),
            working_hint: None,
            last_turn_error: None,
            queued: Vec::new(),
            title: None,
        };
        let ok = Reading::new(State::Idle, Composer::Empty, None, "");
        assert!(check(&e, &ok).is_ok());
        let bad = Reading::new(State::Working("x".into()), Composer::Holds("a".into()), Some(TurnError::RateLimit), "");
        let m = check(&e, &bad).unwrap_err();
        assert!(m.contains("state") && m.contains("composer") && m.contains("last turn error"), "{m}");
    }
}
