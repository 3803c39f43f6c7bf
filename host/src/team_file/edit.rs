//! Renaming a seat in a team file's own text (`team rename`): every value the file spells the
//! seat with — its `name:`, the legacy `coordinator:` and `operator:` keys, each `delegates`
//! list entry and the `grant`'s `seat:` (bare, or `<seat>@<team>` of this team) — is replaced
//! where the YAML parser says that value stands, byte for byte; every other byte (comments,
//! spacing, order, the other seats, a `launch:` line or a comment that happens to hold the
//! word) is kept.
//!
//! Invariants: a value is replaced only when the text at its place is the value itself, plain
//! or in one pair of quotes; any other spelling there (an alias, a block scalar, an escape) is
//! refused naming its line, and nothing is edited. The edited text is read back by the
//! loader and must be the same team with that one seat renamed ([`verify`]), or the edit is
//! refused.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::{parse, TeamFile};

/// One place the file spells the seat, and how: its line and the key that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub line: usize,
    /// `name`, `coordinator`, `operator`, `delegates.up`, `grant.seat`, …
    pub key: String,
    /// The byte range of the value's spelling (quotes included) in the text.
    range: std::ops::Range<usize>,
    /// The value as it is written there, without quotes (`lead`, `lead@beacon`).
    value: String,
}

impl Site {
    /// `line 14 (name:)`
    pub fn words(&self) -> String {
        format!("line {} ({}:)", self.line, self.key)
    }
}

/// Why the text cannot be edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The file declares no seat of that name (the loader would say so too).
    NoSeat,
    /// A place the seat is named is written in a form this edit does not rewrite.
    Form { line: usize, key: String, written: String },
    /// The text is not one the loader reads (it was changed since it was loaded).
    Unreadable(String),
}

/// A YAML node with the place its value stands.
struct Node {
    at: Location,
    kind: Kind,
}

enum Kind {
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
    Text(String),
    Other,
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Spanned::<Kind>::deserialize(d)?;
        Ok(Node { at: s.referenced, kind: s.value })
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Kind;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any YAML node")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Kind, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    v.push((k, m.next_value::<Node>()?));
                }
                Ok(Kind::Map(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Kind, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = s.next_element::<Node>()? {
                    v.push(x);
                }
                Ok(Kind::Seq(v))
            }
            fn visit_str<E>(self, s: &str) -> Result<Kind, E> {
                Ok(Kind::Text(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Kind, E> {
                Ok(Kind::Text(s))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_unit<E>(self) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_none<E>(self) -> Result<Kind, E> {
                Ok(Kind::Other)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Kind, D::Error> {
                Kind::deserialize(d)
            }
        }
        d.deserialize_any(V)
    }
}

fn get<'a>(fields: &'a [(String, Node)], key: &str) -> Option<&'a Node> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Does a `delegates`/`grant` spelling name `seat` of `team`: bare, or `<seat>@<team>`?
fn spells(value: &str, seat: &str, team: &str) -> bool {
    let v = value.trim();
    v == seat || v.split_once('@').is_some_and(|(s, t)| s == seat && t == team)
}

/// Every place `text` names seat `seat` of team `team`, in file order. `Err(NoSeat)` when no
/// seat entry is named so.
pub fn sites(text: &str, seat: &str, team: &str) -> Result<Vec<Site>, EditError> {
    let top: Node = serde_saphyr::from_str(text).map_err(|e| EditError::Unreadable(crate::yaml::words(&e)))?;
    let Kind::Map(top) = top.kind else { return Err(EditError::Unreadable("it is not a mapping".into())) };
    let mut found: Vec<(String, &Node)> = Vec::new();
    let mut declared = false;
    if let Some(Node { kind: Kind::Seq(items), .. }) = get(&top, "seats") {
        for item in items {
            let Kind::Map(fields) = &item.kind else { continue };
            if let Some(n @ Node { kind: Kind::Text(v), .. }) = get(fields, "name") {
                if v.trim() == seat {
                    declared = true;
                    found.push(("name".into(), n));
                }
            }
        }
    }
    if !declared {
        return Err(EditError::NoSeat);
    }
    for key in ["coordinator", "operator"] {
        if let Some(n @ Node { kind: Kind::Text(v), .. }) = get(&top, key) {
            if v.trim() == seat {
                found.push((key.into(), n));
            }
        }
    }
    if let Some(Node { kind: Kind::Map(cmds), .. }) = get(&top, "delegates") {
        for (cmd, list) in cmds {
            let Kind::Seq(entries) = &list.kind else { continue };
            for n in entries {
                if matches!(&n.kind, Kind::Text(v) if spells(v, seat, team)) {
                    found.push((format!("delegates.{cmd}"), n));
                }
            }
        }
    }
    if let Some(Node { kind: Kind::Map(fields), .. }) = get(&top, "grant") {
        if let Some(n @ Node { kind: Kind::Text(v), .. }) = get(fields, "seat") {
            if spells(v, seat, team) {
                found.push(("grant.seat".into(), n));
            }
        }
    }
    let mut out = Vec::new();
    for (key, n) in found {
        let Kind::Text(value) = &n.kind else { continue };
        let line = n.at.line().max(1) as usize;
        let span = n.at.span();
        let written = |range: Option<std::ops::Range<usize>>| {
            let r = range.unwrap_or(0..0);
            text.get(r).unwrap_or("").lines().next().unwrap_or("").to_string()
        };
        let range = match (span.byte_offset(), span.byte_len()) {
            (Some(o), Some(l)) => Some(o as usize..(o + l) as usize),
            _ => None,
        };
        match range.clone().filter(|r| text.get(r.clone()).is_some_and(|s| plain_or_quoted(s, value))) {
            Some(range) => out.push(Site { line, key, range, value: value.clone() }),
            None => return Err(EditError::Form { line, key, written: written(range) }),
        }
    }
    out.sort_by_key(|s| s.range.start);
    Ok(out)
}

/// Is `written` the value itself, plain or in one pair of quotes (with nothing to escape)?
fn plain_or_quoted(written: &str, value: &str) -> bool {
    if written == value {
        return true;
    }
    ['"', '\''].iter().any(|q| written.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)) == Some(value))
}

/// `text` with every site's value spelling `seat` re-spelled with `new` (the `@<team>` of a
/// full spelling and the quotes kept).
pub fn apply(text: &str, sites: &[Site], seat: &str, new: &str) -> String {
    let mut out = String::with_capacity(text.len() + sites.len() * new.len());
    let mut at = 0;
    for s in sites {
        let written = &text[s.range.clone()];
        out.push_str(&text[at..s.range.start]);
        // the value spells the seat (bare or `<seat>@<team>`): its seat part changes
        let core = s.value.trim();
        let respelled = match core.strip_prefix(seat) {
            Some(rest) => format!("{new}{rest}"),
            None => core.to_string(),
        };
        out.push_str(&written.replacen(core, &respelled, 1));
        at = s.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// `file` as it reads with seat `seat` named `new`: the model the edited text must load as.
pub fn renamed(file: &TeamFile, seat: &str, new: &str) -> TeamFile {
    let mut f = file.clone();
    let spelled = |v: &mut String| {
        if v == seat {
            *v = new.to_string();
        } else if let Some((s, t)) = v.split_once('@') {
            if s == seat && t == file.team {
                *v = format!("{new}@{t}");
            }
        }
    };
    for s in f.seats.iter_mut().filter(|s| s.name == seat) {
        s.name = new.to_string();
    }
    for l in f.delegates.up.iter_mut() {
        l.iter_mut().for_each(spelled);
    }
    if let Some(g) = f.grant.as_mut() {
        spelled(&mut g.seat);
    }
    for u in f.unknown.iter_mut() {
        if u.seat.as_deref() == Some(seat) {
            u.seat = Some(new.to_string());
        }
    }
    f
}

/// Why an edited text does not read back as the file with the seat renamed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The loader refuses it (its message).
    #[error("it would not load ({0})")]
    WouldNotLoad(String),
    #[error("it would not declare seat \"{0}\"")]
    LacksNew(String),
    #[error("it would still declare seat \"{0}\"")]
    KeepsOld(String),
    #[error("it would read as another team than this file with the seat renamed")]
    Other,
}

/// Reads `text` back and checks it is `before` with seat `seat` named `new` and nothing else
/// changed (the loader's notes aside: the legacy `lead` note goes with the name).
pub fn verify(text: &str, before: &TeamFile, seat: &str, new: &str) -> Result<TeamFile, VerifyError> {
    let after = parse(text).map_err(|e| VerifyError::WouldNotLoad(e.message()))?;
    if after.seat(new).is_none() {
        return Err(VerifyError::LacksNew(new.to_string()));
    }
    if after.seat(seat).is_some() {
        return Err(VerifyError::KeepsOld(seat.to_string()));
    }
    let mut want = renamed(before, seat, new);
    want.notes.clone_from(&after.notes);
    if want != after {
        return Err(VerifyError::Other);
    }
    Ok(after)
}

#[cfg(test)]
mod tests;
