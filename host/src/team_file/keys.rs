//! Every key a team file writes, with the line it is on: the keys this build knows (for
//! `team check`'s line numbers: a pin, a seat's `cli:`) and the ones it does not (kept and
//! ignored when the file loads, noted by `team check` with the nearest known key).
//!
//! Invariant: this reads the same text the loader reads, and a text it cannot walk (a key that
//! is no scalar) answers no keys at all rather than an error: the loader's own error decides.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

/// The top-level keys this build knows. `operator`, `trust` and `workspace` are written by
/// 0.3.5/0.4 files (the spec's own example carries them): known, kept, not read.
pub const TOP: &[&str] = &[
    "format",
    "project",
    "team",
    "entity",
    "session",
    "multiplexer",
    "coordinator",
    "delivery_order",
    "profiles",
    "seats",
    "delegates",
    "grant",
    "notify",
    "hosts",
    "operator",
    "trust",
    "workspace",
];

/// The keys of one seat.
pub const SEAT: &[&str] = &[
    "name",
    "nickname",
    "role",
    "cli",
    "leads",
    "assistant",
    "stopped",
    "delivery_order",
    "label",
    "vendor",
    "model",
    "version",
    "launch",
    "effort",
    "host",
];

/// The keys of the `grant:` section.
pub const GRANT: &[&str] = &["seat", "pane", "scope"];

/// A key this build does not know, where the file writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    pub line: usize,
    pub key: String,
    /// The seat whose entry holds it (`None`: a top-level key, or `grant:`'s).
    pub seat: Option<String>,
    /// `grant` when the key sits in the `grant:` section.
    pub section: Option<&'static str>,
    /// The known key it is closest to.
    pub nearest: Option<&'static str>,
}

impl UnknownKey {
    /// `line 4: unknown key `multiplexor` — did you mean `multiplexer`?`
    pub fn sentence(&self) -> String {
        let place = match (&self.seat, self.section) {
            (Some(s), _) => format!(" in seat {s:?}"),
            (None, Some(sec)) => format!(" in {sec}:"),
            (None, None) => String::new(),
        };
        let hint = match self.nearest {
            Some(n) => format!(" — did you mean `{n}`?"),
            None => " (kept and ignored)".to_string(),
        };
        format!("line {}: unknown key `{}`{place}{hint}", self.line, self.key)
    }
}

/// The lines of the keys a file writes, by dotted path (`profiles.codex`, `seats.1.cli`): a
/// map, so asking for every seat's key is linear in the seats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyLines {
    entries: std::collections::HashMap<String, usize>,
}

impl KeyLines {
    /// The line of the key at `path`, when the file writes it (its first, if written twice).
    pub fn line(&self, path: &str) -> Option<usize> {
        self.entries.get(path).copied()
    }

    fn add(&mut self, path: String, line: usize) {
        self.entries.entry(path).or_insert(line);
    }
}

/// A YAML node reduced to its shape: the keys of maps with their locations, the items of
/// sequences, and scalars as text.
enum Tree {
    Map(Vec<(Spanned<String>, Tree)>),
    Seq(Vec<Tree>),
    Leaf(Option<String>),
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tree;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any YAML node")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Tree, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key::<Spanned<String>>()? {
                    v.push((k, m.next_value::<Tree>()?));
                }
                Ok(Tree::Map(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Tree, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = s.next_element::<Tree>()? {
                    v.push(x);
                }
                Ok(Tree::Seq(v))
            }
            fn visit_str<E>(self, s: &str) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(s)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(n.to_string())))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(n.to_string())))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(n.to_string())))
            }
            fn visit_bool<E>(self, b: bool) -> Result<Tree, E> {
                Ok(Tree::Leaf(Some(b.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Leaf(None))
            }
            fn visit_none<E>(self) -> Result<Tree, E> {
                Ok(Tree::Leaf(None))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
                Tree::deserialize(d)
            }
        }
        d.deserialize_any(V)
    }
}

/// What [`read`] finds in a file's text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keys {
    pub lines: KeyLines,
    pub unknown: Vec<UnknownKey>,
}

/// Every key of `text` with its line, and the unknown ones. A text that cannot be walked
/// answers none.
pub fn read(text: &str) -> Keys {
    let Ok(Tree::Map(top)) = serde_saphyr::from_str::<Tree>(text) else { return Keys::default() };
    let mut out = Keys::default();
    let near = |k: &str, known: &[&'static str]| crate::nearest::nearest(k, known.iter().copied());
    for (k, v) in &top {
        let key = k.value.as_str();
        out.lines.add(key.to_string(), line(k));
        if !TOP.contains(&key) {
            out.unknown.push(UnknownKey {
                line: line(k),
                key: key.into(),
                seat: None,
                section: None,
                nearest: near(key, TOP),
            });
            continue;
        }
        match (key, v) {
            ("seats", Tree::Seq(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let Tree::Map(fields) = item else { continue };
                    let name = fields.iter().find(|(k, _)| k.value == "name").and_then(|(_, v)| match v {
                        Tree::Leaf(Some(s)) => Some(s.trim().to_string()),
                        _ => None,
                    });
                    for (fk, _) in fields {
                        let f = fk.value.as_str();
                        out.lines.add(format!("seats.{i}.{f}"), line(fk));
                        if !SEAT.contains(&f) {
                            out.unknown.push(UnknownKey {
                                line: line(fk),
                                key: f.into(),
                                seat: Some(name.clone().unwrap_or_else(|| format!("#{}", i + 1))),
                                section: None,
                                nearest: near(f, SEAT),
                            });
                        }
                    }
                }
            }
            ("grant", Tree::Map(fields)) => {
                for (fk, _) in fields {
                    let f = fk.value.as_str();
                    out.lines.add(format!("grant.{f}"), line(fk));
                    if !GRANT.contains(&f) {
                        out.unknown.push(UnknownKey {
                            line: line(fk),
                            key: f.into(),
                            seat: None,
                            section: Some("grant"),
                            nearest: near(f, GRANT),
                        });
                    }
                }
            }
            ("profiles" | "delegates", Tree::Map(fields)) => {
                for (fk, _) in fields {
                    out.lines.add(format!("{key}.{}", fk.value), line(fk));
                }
            }
            _ => {}
        }
    }
    out
}

fn line<T>(s: &Spanned<T>) -> usize {
    s.referenced.line().max(1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_found_with_their_lines_and_nearest_known_keys() {
        let text = "format: 1\nproject: beacon\nmultiplexor: tmux\nfuture: {a: 1}\nprofiles: {codex: \"1.4\"}\nseats:\n  - name: a\n    clii: codex\n  - {name: b, cli: codex, colour: red}\ngrant:\n  seet: a@x\n";
        let k = read(text);
        let got: Vec<String> = k.unknown.iter().map(UnknownKey::sentence).collect();
        assert_eq!(
            got,
            vec![
                "line 3: unknown key `multiplexor` — did you mean `multiplexer`?",
                "line 4: unknown key `future` (kept and ignored)",
                "line 8: unknown key `clii` in seat \"a\" — did you mean `cli`?",
                "line 9: unknown key `colour` in seat \"b\" (kept and ignored)",
                "line 11: unknown key `seet` in grant: — did you mean `seat`?",
            ]
        );
        assert_eq!(k.lines.line("profiles.codex"), Some(5));
        assert_eq!(k.lines.line("seats.0.clii"), Some(8));
        assert_eq!(k.lines.line("seats.1.cli"), Some(9));
        assert_eq!(k.lines.line("seats"), Some(6));
        assert_eq!(k.lines.line("nothing"), None);
    }

    #[test]
    fn the_spec_example_has_no_unknown_key() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/team_files/valid-beacon.yaml"),
        )
        .unwrap();
        assert_eq!(read(&text).unknown, vec![]);
    }

    #[test]
    fn a_text_that_cannot_be_walked_answers_no_keys() {
        assert_eq!(read("a: [1,\n"), Keys::default());
        assert_eq!(read("- a\n- b\n"), Keys::default());
        assert_eq!(read(""), Keys::default());
    }
}
