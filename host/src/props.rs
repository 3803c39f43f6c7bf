//! Property tests over the readers of outside input: the team-file reader, `teams.yaml` and
//! agent records, the address grammar, and the history reader. Whatever the input, they never
//! panic, and every word a loaded file hands on joins into a path that stays inside its folder.
//!
//! The case counts are the ones CI runs (`cargo test --workspace`); `PROPTEST_CASES` raises
//! them for a longer run. Inputs are drawn from a YAML-ish vocabulary (the keys the readers
//! know, hostile values: `..`, `/`, control characters, long runs, odd YAML) as well as from
//! arbitrary text.

use std::path::{Component, Path};

use proptest::prelude::*;

use crate::address::{self, World};
use crate::registry::Registry;
use crate::team_file::{self, Loaded};

/// The number of cases each property runs, unless `PROPTEST_CASES` says more.
fn cases(n: u32) -> ProptestConfig {
    let env = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    ProptestConfig { cases: n.max(env), failure_persistence: None, ..ProptestConfig::default() }
}

/// A value a hostile file might write.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9._-]{0,12}",
        "[A-Za-z0-9./ _~-]{0,24}",
        Just("..".to_string()),
        Just("../../home/u/.ssh".to_string()),
        Just("/home/u/.ssh".to_string()),
        Just("\"a\\rb\"".to_string()),
        Just("\"\\e]0;x\\a\"".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("~".to_string()),
        Just("*a".to_string()),
        Just("&a x".to_string()),
        Just("!!binary aGk=".to_string()),
        Just("lead".to_string()),
        "\\PC{0,16}",
    ]
}

/// A word that follows the grammars three times in four, and a hostile value otherwise.
fn mostly_good() -> impl Strategy<Value = String> {
    prop_oneof![6 => "[a-z0-9][a-z0-9._-]{0,10}", 1 => value()]
}

/// A line of a team file: a known key (at some depth) with a value, or noise.
fn team_line() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("project"),
        Just("team"),
        Just("session"),
        Just("entity"),
        Just("multiplexer"),
        Just("coordinator"),
        Just("delivery_order"),
        Just("profiles"),
        Just("seats"),
        Just("  - name"),
        Just("    nickname"),
        Just("    cli"),
        Just("    leads"),
        Just("    role"),
        Just("    delivery_order"),
        Just("format"),
    ];
    prop_oneof![
        4 => (key, value()).prop_map(|(k, v)| format!("{k}: {v}")),
        1 => Just("---".to_string()),
        1 => Just("seats:".to_string()),
        1 => "\\PC{0,40}",
    ]
}

fn team_text() -> impl Strategy<Value = String> {
    prop_oneof![
        // a file that would load but for the words an attacker chose
        3 => (mostly_good(), mostly_good(), mostly_good(), mostly_good()).prop_map(|(p, s, n, k)| format!(
            "project: {p}\nsession: {s}\nseats:\n  - name: {n}\n    nickname: {k}\n    cli: codex\n"
        )),
        2 => prop::collection::vec(team_line(), 0..14).prop_map(|v| v.join("\n")),
        1 => "\\PC{0,200}",
        1 => any::<Vec<u8>>().prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

/// A `teams.yaml` that would load but for the words an attacker chose, or noise.
fn registry_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (mostly_good(), mostly_good(), mostly_good(), mostly_good(), mostly_good(), mostly_good()).prop_map(
            |(t, s, r, seat, nick, e)| format!(
                "default_entity: {e}\nteams:\n  {t}:\n    session: {s}\n    root: /{r}\n    roster:\n      - seat: {seat}\n        nickname: {nick}\n"
            )
        ),
        1 => "\\PC{0,120}",
    ]
}

/// An agent record's lines after its id.
fn agent_text() -> impl Strategy<Value = String> {
    (mostly_good(), mostly_good(), mostly_good(), mostly_good(), prop_oneof![3 => Just("%3".to_string()), 1 => value()])
        .prop_map(|(seat, team, session, root, pane)| {
            format!("seat: {seat}\nteam: {team}\nsession: {session}\nroot: /{root}\npane: \"{pane}\"\n")
        })
}

/// `base/<parts…>` stays inside `base`, one component per part, none of them `.` or `..`.
fn stays_inside(parts: &[&str]) -> bool {
    let base = Path::new("/base");
    let mut p = base.to_path_buf();
    for part in parts {
        p.push(part);
    }
    p.starts_with(base)
        && p.components().count() == 2 + parts.len()
        && p.components().skip(2).all(|c| matches!(c, Component::Normal(_)))
}

proptest! {
    #![proptest_config(cases(4000))]

    /// The team-file reader never panics, and a file that loads hands on only words the lock,
    /// drop and history paths can hold.
    #[test]
    fn the_team_file_reader_never_panics_and_keeps_its_words_inside(text in team_text()) {
        if let Ok(f) = team_file::parse(&text) {
            for s in &f.seats {
                prop_assert!(stays_inside(&["seat-locks", &f.session, &s.name]), "{f:?}");
                prop_assert!(stays_inside(&[".agents", "send-drops", &f.session, &s.name]), "{f:?}");
                if let Some(n) = &s.nickname {
                    prop_assert!(stays_inside(&[n]));
                }
            }
            prop_assert!(stays_inside(&[&f.team]) && stays_inside(&[&f.project]));
            let dir = crate::history::project_dir_name(&f.project, Path::new("/r"));
            prop_assert!(stays_inside(&[&dir]));
        }
    }
}

proptest! {
    #![proptest_config(cases(2000))]

    /// `teams.yaml` and an agent record: never a panic, and a registry that loads holds only
    /// words its paths can hold.
    #[test]
    fn the_registry_readers_never_panic_and_keep_their_words_inside(
        teams in registry_text(),
        agent in agent_text(),
    ) {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("teams.yaml"), teams).unwrap();
        std::fs::create_dir_all(d.path().join("agents")).unwrap();
        let id = "agt_00000000000000a1";
        std::fs::write(d.path().join(format!("agents/{id}.yaml")), format!("id: {id}\n{agent}")).unwrap();
        if let Ok(reg) = Registry::load(d.path()) {
            for (name, t) in &reg.teams.teams {
                prop_assert!(stays_inside(&[name]));
                if let Some(s) = &t.session {
                    prop_assert!(stays_inside(&["seat-locks", s]), "{s:?}");
                }
                for l in &t.roster {
                    prop_assert!(stays_inside(&[&l.seat]));
                }
            }
            for a in &reg.agents {
                prop_assert!(stays_inside(&[&a.team, &a.seat]));
                if let Some(s) = &a.session {
                    prop_assert!(stays_inside(&["seat-locks", s, &a.seat]), "{s:?}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(8000))]

    /// The address grammar: any spec resolves to one seat the world holds, or is refused —
    /// never a panic, never a seat outside the world.
    #[test]
    fn the_address_grammar_never_panics_and_names_only_known_seats(
        spec in prop_oneof![
            "[@a-z0-9._-]{0,20}",
            "(lead|agt_[0-9a-z]{0,20}|claude-keeper|gpt-reviewer|hermes|agamemnon|herald|ada|bob|w1)?(@(beacon|api|web|ops|far|nowhere|)?)*",
            "\\PC{0,24}",
        ]
    ) {
        let reg = address::tests::registry();
        let l: Loaded = address::tests::loaded(address::tests::BEACON, "/b");
        let w = World::new(&reg, Some(&l));
        if let Ok(t) = address::resolve(&w, &spec) {
            let known = w.team(&t.team.name).map(|v| v.seat(t.name()).is_some()).unwrap_or(false);
            prop_assert!(known, "{spec:?} resolved to {}@{}", t.name(), t.team.name);
            prop_assert!(stays_inside(&[&t.team.session, t.name()]));
        }
    }
}

proptest! {
    #![proptest_config(cases(1500))]

    /// The history reader: whatever bytes stand in `messages.jsonl`, `.1` and `.2`, reading
    /// never panics, and every line it hands on is one it parsed whole, whose id is a message id.
    #[test]
    fn the_history_reader_never_panics(
        files in prop::collection::vec(prop_oneof![
            any::<Vec<u8>>(),
            prop::collection::vec(prop_oneof![
                Just(r#"{"ts":"t","from":"a","to":"b","body":"x","id":"00000000-0000-4000-8000-000000000001","outcome":"held"}"#.to_string()),
                Just(r#"{"ts":"t","from":"a","to":"b","body":"\u001b]52;c;x\u0007","id":"00000000-0000-4000-8000-000000000002","outcome":"delivered","ms":1}"#.to_string()),
                Just(r#"{"ts":"t","from":"a","to":"b","body":"x","id":"/etc/hostname","outcome":"held"}"#.to_string()),
                "[a-z0-9./-]{0,40}".prop_map(|id| format!(r#"{{"ts":"t","from":"a","to":"b","body":"x","id":{},"outcome":"held"}}"#, serde_json::json!(id))),
                Just(r#"{"ts":1}"#.to_string()),
                "\\PC{0,60}",
            ], 0..8).prop_map(|v| v.join("\n").into_bytes()),
        ], 3),
        project in "\\PC{0,20}",
    ) {
        let d = tempfile::tempdir().unwrap();
        let config = d.path().join("config");
        let name = crate::history::project_dir_name(&project, Path::new("/r"));
        prop_assert!(stays_inside(&[&name]), "{name:?}");
        let dir = config.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        for (p, bytes) in crate::history::history_files(&dir).iter().zip(&files) {
            std::fs::write(p, bytes).unwrap();
        }
        // A file that is not UTF-8 is refused (an error, never a panic); one that is gives
        // each of its non-blank lines back parsed or counted as skipped, none lost.
        let texts: Option<Vec<String>> = files.iter().map(|b| String::from_utf8(b.clone()).ok()).collect();
        match (crate::history::read_history(&config, &dir), texts) {
            (Ok(h), Some(t)) => {
                let lines: usize = t.iter().map(|x| x.split('\n').filter(|l| !l.trim().is_empty()).count()).sum();
                prop_assert_eq!(h.lines.len() + h.skipped, lines);
                // every line handed on names a message id: none can become a path
                prop_assert!(h.lines.iter().all(|l| crate::vocab::id::valid_id(&l.id)));
                prop_assert!(h.bad_ids() <= h.skipped);
            }
            (Ok(_), None) => prop_assert!(false, "bytes that are not UTF-8 were read as text"),
            (Err(_), _) => {}
        }
    }
}

/// The generator is not vacuous: a good share of its files load (and so are checked).
#[test]
fn the_team_file_generator_reaches_files_that_load() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = team_text();
    let loaded =
        (0..2000).filter(|_| team_file::parse(&strat.new_tree(&mut runner).unwrap().current()).is_ok()).count();
    assert!(loaded > 100, "only {loaded} of 2000 generated files load");
    let (teams, agents) = (registry_text(), agent_text());
    let mut loaded = 0;
    for _ in 0..300 {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("teams.yaml"), teams.new_tree(&mut runner).unwrap().current()).unwrap();
        std::fs::create_dir_all(d.path().join("agents")).unwrap();
        let rec = format!("id: agt_00000000000000a1\n{}", agents.new_tree(&mut runner).unwrap().current());
        std::fs::write(d.path().join("agents/agt_00000000000000a1.yaml"), rec).unwrap();
        loaded += Registry::load(d.path()).is_ok_and(|r| !r.agents.is_empty() && !r.teams.teams.is_empty()) as usize;
    }
    assert!(loaded > 20, "only {loaded} of 300 generated registries load");
}
