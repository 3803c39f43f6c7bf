//! Addressing: every form of a spec resolved against team files and registries built in the test.

use super::*;
use crate::registry::{RosterLine, TeamRecord, TeamsFile};

pub(crate) fn loaded(text: &str, root: &str) -> Loaded {
    Loaded {
        file: team_file::parse(text).unwrap(),
        path: PathBuf::from(root).join(".agents/team.yaml"),
        root: PathBuf::from(root),
    }
}

pub(crate) const BEACON: &str = "project: beacon\ncoordinator: claude-keeper\nentity: labs\nseats:\n  - name: claude-keeper\n    nickname: agamemnon\n    role: coordinator\n    cli: claude-code\n  - name: gpt-reviewer\n    role: reviewer\n    cli: codex\n  - name: hermes\n    nickname: herald\n    cli: agy\n    assistant: true\n";

pub(crate) fn line(seat: &str, agent: Option<&str>, nick: Option<&str>, leads: bool) -> RosterLine {
    RosterLine {
        seat: seat.into(),
        agent: agent.map(Into::into),
        nickname: nick.map(Into::into),
        leads,
        ..Default::default()
    }
}

pub(crate) fn agent(id: &str, team: &str, seat: &str, cli: &str) -> AgentRecord {
    AgentRecord { id: id.into(), seat: seat.into(), team: team.into(), cli: Some(cli.into()), ..Default::default() }
}

/// beacon (own, file) + api (roster: ada leads, bob nickname herald, role reviewer) +
/// web (roster: two leads) + ops (roster marks no lead) + far (another entity).
pub(crate) fn registry() -> Registry {
    let mut t = TeamsFile { default_entity: Some("labs".into()), ..Default::default() };
    t.teams.insert(
        "beacon".into(),
        TeamRecord {
            entity: Some("labs".into()),
            project: Some("beacon".into()),
            roster: vec![line("claude-keeper", Some("agt_00000000000000b1"), Some("agamemnon"), true)],
            ..Default::default()
        },
    );
    t.teams.insert(
        "api".into(),
        TeamRecord {
            entity: Some("labs".into()),
            roster: vec![
                line("ada", Some("agt_00000000000000a1"), None, true),
                RosterLine {
                    role: Some("reviewer".into()),
                    ..line("bob", Some("agt_00000000000000a2"), Some("herald"), false)
                },
                line("eve", None, Some("ada"), false),
            ],
            ..Default::default()
        },
    );
    t.teams.insert(
        "web".into(),
        TeamRecord {
            entity: Some("labs".into()),
            roster: vec![line("w1", None, Some("herald"), true), line("w2", None, None, true)],
            ..Default::default()
        },
    );
    t.teams.insert(
        "ops".into(),
        TeamRecord { entity: Some("labs".into()), roster: vec![line("o1", None, None, false)], ..Default::default() },
    );
    t.teams.insert(
        "far".into(),
        TeamRecord {
            entity: Some("other".into()),
            roster: vec![line("f1", None, Some("solo"), true)],
            ..Default::default()
        },
    );
    Registry {
        teams: t,
        agents: vec![
            agent("agt_00000000000000a1", "api", "ada", "codex"),
            agent("agt_00000000000000a2", "api", "bob", "claude-code"),
            agent("agt_00000000000000a3", "api", "carl", "cursor"),
            agent("agt_00000000000000b1", "beacon", "claude-keeper", "claude-code"),
        ],
        ..Default::default()
    }
}

fn msg(w: &World, spec: &str) -> String {
    resolve(w, spec).unwrap_err().message()
}

#[test]
fn bare_names_and_nicknames_of_the_own_team() {
    let reg = registry();
    let l = loaded(BEACON, "/b");
    let w = World::new(&reg, Some(&l));
    let t = resolve(&w, "gpt-reviewer").unwrap();
    assert_eq!((t.team.name.as_str(), t.name(), t.spec.as_deref()), ("beacon", "gpt-reviewer", None));
    assert_eq!(t.agent_id(), None);
    let t = resolve(&w, "agamemnon").unwrap();
    assert_eq!((t.name(), t.spec.as_deref()), ("claude-keeper", Some("agamemnon")));
    assert_eq!(t.spec_and_resolved(), (Some("agamemnon".into()), Some("agt_00000000000000b1".into())));
    assert_eq!(
        msg(&w, "nobody"),
        "refused: nobody: it is not a declared seat; the file's seats are claude-keeper, gpt-reviewer, hermes"
    );
    // a role is never an address
    assert!(msg(&w, "coordinator").starts_with("refused: coordinator: it is not a declared seat"));
    assert_eq!(
        msg(&w, "gpt-reviwer"),
        "refused: gpt-reviwer: it is not a declared seat (did you mean gpt-reviewer?); the file's seats are claude-keeper, gpt-reviewer, hermes"
    );
}

#[test]
fn seat_name_and_another_seats_nickname_collide() {
    let reg = registry();
    let l = loaded(
        "project: p\nseats:\n  - name: ada\n    cli: codex\n  - name: bo\n    nickname: ada\n    cli: codex\n",
        "/p",
    );
    let w = World::new(&reg, Some(&l));
    assert_eq!(
        msg(&w, "ada"),
        "refused: ada: two seats of p answer it: ada (its seat name) and bo (its nickname); nothing was sent"
    );
    // in another team's roster too
    let l = loaded(BEACON, "/b");
    let w = World::new(&reg, Some(&l));
    assert_eq!(
        msg(&w, "ada@api"),
        "refused: ada@api: two seats of api answer it: ada (its seat name) and eve (its nickname); nothing was sent"
    );
}

#[test]
fn at_nickname_asks_the_own_team_first_then_the_entity() {
    let reg = registry();
    let l = loaded(BEACON, "/b");
    let w = World::new(&reg, Some(&l));
    assert_eq!(resolve(&w, "@agamemnon").unwrap().name(), "claude-keeper");
    // own team answers herald first even though api and web do too
    assert_eq!(resolve(&w, "@herald").unwrap().team.name, "beacon");
    // from a team without it: api and web both answer
    let l2 = loaded("project: zed\nentity: labs\nseats:\n  - name: z\n    cli: codex\n", "/z");
    let w2 = World::new(&reg, Some(&l2));
    assert_eq!(
        msg(&w2, "@herald"),
        "refused: @herald: more than one team answers it; address one: herald@api, herald@web"
    );
    assert_eq!(
        msg(&w2, "@nobody"),
        "refused: @nobody: no seat of zed or of the other teams of labs has the nickname nobody"
    );
    // a team of another entity is not asked
    assert!(resolve(&w2, "@solo").is_err());
    assert_eq!(
        msg(&w2, "@"),
        "refused: @: names no nickname; address @<nickname> (team send --list shows each seat's)"
    );
    assert_eq!(resolve(&w2, "solo@far").unwrap().name(), "f1");
}

#[test]
fn seat_at_team_goes_through_the_roster_then_the_records() {
    let reg = registry();
    let w = World::new(&reg, None);
    let t = resolve(&w, "bob@api").unwrap();
    assert_eq!((t.name(), t.cli(), t.agent_id()), ("bob", "claude-code", Some("agt_00000000000000a2")));
    assert_eq!(resolve(&w, "herald@api").unwrap().name(), "bob");
    // carl has a record but no roster line
    assert_eq!(resolve(&w, "carl@api").unwrap().cli(), "cursor");
    assert_eq!(
        msg(&w, "zoe@api"),
        "refused: zoe@api: team api has no seat or nickname zoe in its roster or agent records"
    );
    assert_eq!(
        msg(&w, "reviewer@api"),
        "refused: reviewer@api: team api has no seat or nickname reviewer in its roster or agent records (reviewer is a role there, and a role is never an address)"
    );
    assert_eq!(msg(&w, "x@nowhere"), "refused: x@nowhere: the registry holds no team nowhere");
    assert_eq!(
        msg(&w, "gpt-reviewer"),
        "refused: gpt-reviewer: a bare name needs a team folder (.agents/team.yaml above this one); from here, address <seat>@<team>"
    );
}

#[test]
fn lead_at_team() {
    let reg = registry();
    let l = loaded(BEACON, "/b");
    let w = World::new(&reg, Some(&l));
    assert_eq!(resolve(&w, "lead@api").unwrap().name(), "ada");
    assert_eq!(resolve(&w, "lead@beacon").unwrap().name(), "claude-keeper");
    assert_eq!(
        msg(&w, "lead@web"),
        "refused: lead@web: team web marks more than one lead: w1 and w2; nothing was sent"
    );
    let m = msg(&w, "lead@ops");
    assert!(m.contains("team ops names no lead") && m.contains("team send --list") && m.contains("leads: true"), "{m}");
}

#[test]
fn a_legacy_seat_named_lead_answers_its_bare_name_only() {
    let reg = Registry::default();
    let l = loaded(
        "project: p\nseats:\n  - name: lead\n    cli: codex\n  - name: boss\n    cli: codex\n    leads: true\n",
        "/p",
    );
    let w = World::new(&reg, Some(&l));
    assert_eq!(resolve(&w, "lead").unwrap().name(), "lead");
    assert_eq!(resolve(&w, "lead@p").unwrap().name(), "boss");
}

#[test]
fn agent_ids() {
    let reg = registry();
    let w = World::new(&reg, None);
    let t = resolve(&w, "agt_00000000000000a3").unwrap();
    assert_eq!((t.team.name.as_str(), t.name()), ("api", "carl"));
    assert_eq!(t.spec.as_deref(), Some("agt_00000000000000a3"));
    assert_eq!(msg(&w, "agt_0000000000000fff"), "refused: agt_0000000000000fff: no agent record holds this id");
}
