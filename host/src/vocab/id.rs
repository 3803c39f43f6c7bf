//! The message-id grammar, checked wherever an id is read back from disk (the history, the
//! receipts, the ledger's fold) and wherever one becomes a path or a typed line (the drop file,
//! the trigger, a retry).
//!
//! A message id is what `team send` writes: a UUID in its canonical form, 36 characters of
//! lower-case hex digits in groups of 8-4-4-4-12 joined by `-`
//! (`9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913`; docs/spec/team-feed.md `"id":"<uuid>"`).
//!
//! Invariant: an id that passes is one path component — no `/`, not `.` or `..`, no control
//! character, no space — so `<drops>/<id>` names a file inside `<drops>` and a trigger naming it
//! is one line of plain characters. Anything else read from a file (`/etc/hostname`,
//! `../../x`, an escape sequence) is passed over by the reader and never reaches a path.

/// A message id as a schema's `pattern` (the grammar [`valid_id`] checks).
pub const ID_PATTERN: &str = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

/// The id grammar's words for a refusal.
pub const ID_RULE: &str = "a UUID as team writes one: 8-4-4-4-12 lower-case hex digits joined by '-'";

/// Whether `s` is a message id: `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`.
pub fn valid_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

/// A value that is no message id, escaped and bounded for the sentence that names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{shown}\" is not a message id ({ID_RULE})")]
pub struct NotAnId {
    shown: String,
}

/// `Ok` when `id` is a message id; else why not, the value escaped.
pub fn check_id(id: &str) -> Result<(), NotAnId> {
    if valid_id(id) {
        return Ok(());
    }
    Err(NotAnId { shown: crate::vocab::text::one_line(&crate::vocab::text::bound(id, 80)).into_owned() })
}

/// A message id for tests, named by a short word: its bytes in the last group
/// (`uid("a")` = `00000000-0000-4000-8000-000000000061`), at most six of them.
#[cfg(test)]
pub fn uid(name: &str) -> String {
    assert!(name.len() <= 6, "{name}: at most 6 bytes");
    let hex: String = name.bytes().map(|b| format!("{b:02x}")).collect();
    format!("00000000-0000-4000-8000-{hex:0>12}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::{Component, Path};

    #[test]
    fn what_team_writes_passes_and_paths_do_not() {
        assert_eq!(uid("a"), "00000000-0000-4000-8000-000000000061");
        for ok in ["9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913", "00000000-0000-4007-8000-000000000000", &uid("zzz")] {
            assert!(valid_id(ok) && check_id(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "/etc/hostname",
            "../../../etc/hostname",
            "..",
            "id-1",
            "9D3A6C1E-52F7-4B08-8E41-C7A0B5D2F913",
            "9d3a6c1e52f74b088e41c7a0b5d2f913",
            "{9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913}",
            "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f91/",
            "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913\n",
            "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f9\u{e9}",
            "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913x",
            "9d3a6c1e-52f7-4b08-8e4-1c7a0b5d2f913",
        ] {
            assert!(!valid_id(bad), "{bad:?}");
        }
        assert_eq!(
            check_id("/etc/hostname\r").unwrap_err().to_string(),
            "\"/etc/hostname\\r\" is not a message id (a UUID as team writes one: 8-4-4-4-12 lower-case hex digits joined by '-')"
        );
    }

    fn cases() -> ProptestConfig {
        let env = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
        ProptestConfig { cases: 2000u32.max(env), failure_persistence: None, ..ProptestConfig::default() }
    }

    /// Strings near the grammar: UUID-shaped runs over a wider alphabet, and hostile words.
    fn near() -> impl Strategy<Value = String> {
        prop_oneof![
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "[0-9a-fA-F./\\-]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f./]{4}-[0-9a-f\\n\\r ]{12}",
            "[0-9a-f./-]{30,40}",
            "(\\.\\./){1,6}[a-z/]{0,20}",
            "/[a-z/]{0,30}",
            "\\PC{0,40}",
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(cases())]

        /// Whatever passes is one plain path component inside its folder, and one line.
        #[test]
        fn an_id_that_passes_stays_one_component_of_plain_characters(s in near()) {
            if valid_id(&s) {
                prop_assert_eq!(s.len(), 36);
                prop_assert!(s.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase() || c == b'-'));
                let base = Path::new("/r/.agents/send-drops/s/seat");
                let p = base.join(&s);
                prop_assert_eq!(p.parent(), Some(base));
                let comps: Vec<Component> = Path::new(&s).components().collect();
                prop_assert!(matches!(comps.as_slice(), [Component::Normal(_)]), "{:?}", comps);
                prop_assert!(!s.chars().any(|c| c.is_control() || c.is_whitespace()));
                prop_assert!(check_id(&s).is_ok());
            } else {
                prop_assert!(check_id(&s).is_err());
            }
        }

        /// Every id team makes passes: random and seeded, as `Ids` makes them.
        #[test]
        fn every_id_team_makes_passes(seed in any::<u64>(), n in 0usize..4, bits in any::<u128>()) {
            let ids = crate::clock::Ids::seeded(seed);
            for _ in 0..=n {
                let id = ids.new_id();
                prop_assert!(valid_id(&id), "{}", id);
            }
            let u = uuid::Uuid::from_u128(bits).to_string();
            prop_assert!(valid_id(&u), "{}", u);
            prop_assert!(!valid_id(&u.to_uppercase()) || !u.bytes().any(|c| c.is_ascii_alphabetic()));
        }

        /// One character changed to anything outside the grammar's alphabet refuses the id.
        #[test]
        fn a_character_outside_the_alphabet_refuses_it(bits in any::<u128>(), at in 0usize..36, c in any::<char>()) {
            let mut v: Vec<char> = uuid::Uuid::from_u128(bits).to_string().chars().collect();
            prop_assume!(!(c.is_ascii_digit() || ('a'..='f').contains(&c) || c == '-'));
            v[at] = c;
            let s: String = v.into_iter().collect();
            prop_assert!(!valid_id(&s), "{:?}", s);
        }
    }
}
