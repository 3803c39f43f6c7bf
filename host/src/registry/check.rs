//! The registry's words checked when its files are read: every team, seat, nickname, session,
//! project and entity in `teams.yaml` or an agent record follows its grammar (`names`), every
//! recorded checkout root is an absolute path that climbs nowhere, and a pane id is a pane id.
//!
//! Invariant: the text is read a second time into shapes that keep the line of every word
//! they check (`Spanned`), and read nothing else, so keys added by newer writers (register's
//! fields) pass through untouched; the first word outside its grammar refuses the file with
//! `line <n>: …`.

use std::path::{Component, Path};

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::vocab::names;
use crate::vocab::names::Kind;

type Sp<T> = Spanned<T>;

/// A mapping read with the line of each key, in file order.
struct Keyed<V>(Vec<(Sp<String>, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Keyed<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct M<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for M<V> {
            type Value = Keyed<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Keyed<V>, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key::<Sp<String>>()? {
                    v.push((k, m.next_value::<V>()?));
                }
                Ok(Keyed(v))
            }
            fn visit_unit<E>(self) -> Result<Keyed<V>, E> {
                Ok(Keyed(Vec::new()))
            }
        }
        d.deserialize_any(M(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
struct Teams {
    default_entity: Option<Sp<String>>,
    entities: Option<Keyed<Entity>>,
    projects: Option<Keyed<IgnoredAny>>,
    teams: Option<Keyed<Team>>,
}

#[derive(Deserialize)]
struct Entity {
    team: Option<Sp<String>>,
}

#[derive(Deserialize)]
struct Team {
    entity: Option<Sp<String>>,
    project: Option<Sp<String>>,
    session: Option<Sp<String>>,
    root: Option<Sp<String>>,
    roster: Option<Vec<Line>>,
}

#[derive(Deserialize)]
struct Line {
    seat: Option<Sp<String>>,
    agent: Option<Sp<String>>,
    nickname: Option<Sp<String>>,
}

#[derive(Deserialize)]
struct Agent {
    seat: Option<Sp<String>>,
    team: Option<Sp<String>>,
    session: Option<Sp<String>>,
    project: Option<Sp<String>>,
    root: Option<Sp<String>>,
    pane: Option<Sp<String>>,
}

/// A word outside its grammar, and the line it is on: refuses the file it is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct BadWord {
    pub line: u64,
    pub why: String,
}

fn at(s: &Sp<String>, why: String) -> BadWord {
    BadWord { line: s.referenced.line().max(1), why }
}

fn word(kind: Kind, s: &Option<Sp<String>>) -> Result<(), BadWord> {
    match s {
        Some(v) => names::check(kind, v.value.trim()).map_err(|why| at(v, why)),
        None => Ok(()),
    }
}

/// A recorded checkout root: absolute, no `.`/`..` part, no control character.
fn root(s: &Option<Sp<String>>) -> Result<(), BadWord> {
    let Some(v) = s else { return Ok(()) };
    let p = Path::new(v.value.as_str());
    let climbs = p.components().any(|c| matches!(c, Component::ParentDir | Component::CurDir));
    if !p.is_absolute() || climbs || v.value.chars().any(|c| c.is_control()) {
        return Err(at(
            v,
            format!(
                "root \"{}\" is not an absolute folder path without '.' or '..' parts",
                crate::vocab::text::one_line(&v.value)
            ),
        ));
    }
    Ok(())
}

fn pane(s: &Option<Sp<String>>) -> Result<(), BadWord> {
    match s {
        Some(v) if !names::valid_pane(v.value.trim()) => Err(at(
            v,
            format!("pane \"{}\" is not a pane id (such as %3 or w1:p2)", crate::vocab::text::one_line(&v.value)),
        )),
        _ => Ok(()),
    }
}

/// Checks the words of `teams.yaml`'s text (which already parsed as a `TeamsFile`).
pub fn teams(text: &str) -> Result<(), BadWord> {
    let Ok(t) = serde_saphyr::from_str::<Teams>(text) else { return Ok(()) };
    word(Kind::Entity, &t.default_entity)?;
    for (name, e) in t.entities.map(|k| k.0).unwrap_or_default() {
        word(Kind::Entity, &Some(name))?;
        word(Kind::Team, &e.team)?;
    }
    for (name, _) in t.projects.map(|k| k.0).unwrap_or_default() {
        word(Kind::Project, &Some(name))?;
    }
    for (name, team) in t.teams.map(|k| k.0).unwrap_or_default() {
        word(Kind::Team, &Some(name))?;
        word(Kind::Entity, &team.entity)?;
        word(Kind::Project, &team.project)?;
        word(Kind::Session, &team.session)?;
        root(&team.root)?;
        for l in team.roster.unwrap_or_default() {
            word(Kind::Seat, &l.seat)?;
            word(Kind::Nickname, &l.nickname)?;
            if let Some(a) = &l.agent {
                if !crate::vocab::names::is_agent_id(a.value.trim()) {
                    return Err(at(
                        a,
                        format!("agent \"{}\" is not an agent id (agt_…)", crate::vocab::text::one_line(&a.value)),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Checks the words of one agent record's text (which already parsed as an `AgentRecord`).
pub fn agent(text: &str) -> Result<(), BadWord> {
    let Ok(a) = serde_saphyr::from_str::<Agent>(text) else { return Ok(()) };
    word(Kind::Seat, &a.seat)?;
    word(Kind::Team, &a.team)?;
    word(Kind::Session, &a.session)?;
    word(Kind::Project, &a.project)?;
    root(&a.root)?;
    pane(&a.pane)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_of_teams_yaml_is_checked_with_its_line() {
        assert!(teams("teams:\n  api:\n    session: api\n    roster:\n      - seat: ada\n").is_ok());
        let e = teams("teams:\n  api:\n    session: ../../home/u/.ssh\n").unwrap_err();
        assert!(e.to_string().starts_with("line 3: session \"../../home/u/.ssh\" is not a session name"), "{e}");
        let e = teams("teams:\n  ../x:\n    session: a\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2: team \"../x\" is not a team name"), "{e}");
        let e = teams("teams:\n  api:\n    roster:\n      - seat: ada\n      - seat: a/b\n").unwrap_err();
        assert!(e.to_string().starts_with("line 5: seat \"a/b\""), "{e}");
        let e = teams("teams:\n  api:\n    root: rel/path\n").unwrap_err();
        assert!(e.to_string().starts_with("line 3: root \"rel/path\" is not an absolute"), "{e}");
        let e = teams("teams:\n  api:\n    root: /a/../b\n").unwrap_err();
        assert!(e.to_string().contains("root \"/a/../b\""), "{e}");
        let e = teams("entities:\n  labs:\n    team: \"x y\"\n").unwrap_err();
        assert!(e.to_string().starts_with("line 3: team \"x y\""), "{e}");
    }

    #[test]
    fn an_agent_record_s_words_are_checked() {
        assert!(agent("id: agt_1\nseat: a\nteam: b\nsession: S\npane: \"%3\"\nroot: /r\n").is_ok());
        let e = agent("id: agt_1\nseat: authorized_keys\nteam: b\nsession: /home/u/.ssh\n").unwrap_err();
        assert!(e.to_string().starts_with("line 4: session \"/home/u/.ssh\""), "{e}");
        let e = agent("id: agt_1\nseat: a\nteam: b\npane: \"$(x)\"\n").unwrap_err();
        assert!(e.to_string().starts_with("line 4: pane"), "{e}");
    }
}
