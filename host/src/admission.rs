//! Who may send to whom (DESIGN §4): default deny; the first rule that admits a pair names
//! itself, and that name travels in the sender header and the history.
//!
//! | caller → target | admitted by |
//! | --- | --- |
//! | owner → any seat | `the owner` |
//! | a lead of team T → any seat of T | `lead of <T>` |
//! | a seat of T → the lead of T | `own lead` |
//! | a lead of T → the lead of another team of the same entity | `orchestrator of <U>` |
//! | the entity's assistant ↔ any lead of the entity's teams | `the entity's assistant` |
//! | a pair an unexpired owner-signed grant names | `grant <file name>` |
//! | the seat a message was delivered to → its sender, about that message (`team reply`) | `reply to <id>` |
//!
//! A refusal between two seats carries a repair line naming what would admit the pair (a lead,
//! a grant, `team register` where a record is needed) and the grants found for the pair and
//! passed over (`repair`).
//!
//! Invariant: a role word never admits; a seat with no registry record reaches only its own
//! team (rows 2–3) and is reached only from its own team; grants are read only after every
//! rule refused, and admit only when `from` names the caller's own record, `to` the
//! receiver, and `expires` is still ahead.

use chrono::{DateTime, Utc};

mod repair;

use crate::address::{Target, TeamView, World};
use crate::caller::Caller;
use crate::error::{self, TeamError};
use crate::registry::{self, Grant};

/// The rule that admitted a pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    Owner,
    LeadOf(String),
    OwnLead,
    OrchestratorOf(String),
    Assistant,
    Grant(String),
    /// `team reply <id>`: the seat a message was delivered to answers its sender, about that
    /// message only, whatever the rules above say (docs/conversations.md).
    ReplyTo(String),
}

impl Rule {
    /// The rule's words, as the sender header and the history name it.
    pub fn words(&self) -> String {
        match self {
            Rule::Owner => "the owner".into(),
            Rule::LeadOf(t) => format!("lead of {t}"),
            Rule::OwnLead => "own lead".into(),
            Rule::OrchestratorOf(u) => format!("orchestrator of {u}"),
            Rule::Assistant => "the entity's assistant".into(),
            Rule::Grant(f) => format!("grant {f}"),
            Rule::ReplyTo(id) => format!("reply to {id}"),
        }
    }
}

/// The sender header every drop file, frame and history body opens with.
pub fn sender_header(world: &World, caller: &Caller, rule: &Rule) -> String {
    let from = match caller {
        Caller::Owner => "from the owner".to_string(),
        Caller::Seat { team, seat, agent: Some(a), .. } => {
            format!("from {} ({}, seat {seat}@{team})", a.id, a.display_name())
        }
        Caller::Seat { seat, .. } => format!("from the file's seat {seat} (no registry record yet)"),
        other => format!("from {}", other.describe()),
    };
    let _ = world;
    format!("{from} — admitted by: {}", rule.words())
}

/// The body the history keeps: the header, a blank line, the message.
pub fn with_header(header: &str, body: &str) -> String {
    format!("{header}\n\n{body}")
}

/// How refusals spell a target: its name in the caller's own team, `<seat>@<team>` elsewhere.
fn spelled(t: &Target) -> String {
    if t.team.own {
        t.name().to_string()
    } else {
        format!("{}@{}", t.name(), t.team.name)
    }
}

/// Judges `caller → target` for a plain send (a reply is admitted by its own rule,
/// [`Rule::ReplyTo`], in `converse::reply`); `Ok(rule)` names the first rule that admits, else the refusal.
pub fn admit(world: &World, caller: &Caller, target: &Target, now: DateTime<Utc>) -> error::Result<Rule> {
    let who = caller.describe();
    let to = spelled(target);
    let (cteam, cseat, crecord) = match caller {
        Caller::Owner => return Ok(Rule::Owner),
        Caller::Seat { team, seat, agent, .. } => (team.clone(), seat.clone(), agent.clone()),
        Caller::Unplaced { .. } | Caller::Blocked { .. } | Caller::NoTerminal | Caller::Unreachable { .. } => {
            return Err(TeamError::refused(format!(
                "{who} may not send to {to}: only the owner or a seat the send admission admits sends, from a terminal outside herdr or its own pane"
            )));
        }
    };
    let Some(cview) = world.team(&cteam) else {
        return Err(TeamError::refused(format!(
            "{who} may not send to {to}: its team {cteam} is in neither the team file nor the registry"
        )));
    };
    let caller_leads = cview.is_lead(&cseat);
    let same_team = target.team.name == cteam;
    let target_leads = target.team.is_lead(target.name());
    if same_team {
        if caller_leads {
            return Ok(Rule::LeadOf(cteam));
        }
        if target_leads {
            return Ok(Rule::OwnLead);
        }
    }
    // cross-team rules need both records
    let both_recorded = crecord.is_some() && target.seat.agent.is_some();
    let entity = cview.entity.clone();
    let same_entity = target.team.entity == entity;
    if !same_team && caller_leads && target_leads && same_entity && both_recorded {
        return Ok(Rule::OrchestratorOf(target.team.name.clone()));
    }
    if same_entity && (same_team || both_recorded) {
        if let Some((ateam, aseat)) = world.entity_assistant(&entity) {
            let caller_is_assistant = ateam == cteam && aseat == cseat;
            let target_is_assistant = ateam == target.team.name && aseat == target.name();
            if (caller_is_assistant && target_leads) || (target_is_assistant && caller_leads) {
                return Ok(Rule::Assistant);
            }
        }
    }
    // the grants folder, read only now
    if let (Some(rec), Some(_)) = (&crecord, target.seat.agent.as_ref()) {
        for g in registry::send_grants(&world.reg.dir) {
            if grant_admits(world, &g, &rec.id, &cteam, target, now) {
                return Ok(Rule::Grant(g.file));
            }
        }
    }
    let why = if crecord.is_none() && !same_team {
        format!("{cseat} has no registry record yet, so it reaches only its own team; team register writes the record")
    } else if same_team {
        format!("a seat of {cteam} reaches its own lead, and its lead briefs the team's seats; an owner-signed grant naming the pair admits anything else")
    } else if target.seat.agent.is_none() {
        format!("{to} has no registry record yet, so only its own team reaches it")
    } else {
        "another team's seats are reached through that team's orchestrator, or by an owner-signed grant naming the pair"
            .to_string()
    };
    let from = repair::From { team: &cteam, seat: &cseat, record: crecord.as_ref(), view: &cview };
    Err(TeamError::refused(format!("{who} may not send to {to}: {why}"))
        .with_repair(repair::ways(world, &from, target, now)))
}

/// Does one side of a grant (`from` or `to`) name `(team, seat)` / the agent `id`?
/// Spellings: an agent id, `<seat>@<team>`, `lead@<team>`, `<session>/<seat>`, or a bare
/// seat of `default_team` (the sender's own team).
fn names(world: &World, spelling: &str, default_team: &str, team: &str, seat: &str, id: Option<&str>) -> bool {
    let s = spelling.trim();
    if crate::vocab::names::is_agent_id(s) {
        return id == Some(s);
    }
    if let Some((sess, st)) = s.split_once('/') {
        return st == seat && world.team(team).map(|v| v.session == sess).unwrap_or(false);
    }
    let (x, t) = s.split_once('@').unwrap_or((s, default_team));
    if t != team {
        return false;
    }
    if x == "lead" {
        return world.team(t).map(|v| only_lead(&v) == Some(seat.to_string())).unwrap_or(false);
    }
    x == seat || world.team(t).and_then(|v| v.by_nickname(x).map(|s| s.name.clone())).as_deref() == Some(seat)
}

fn only_lead(v: &TeamView) -> Option<String> {
    let l = v.leads();
    (l.len() == 1).then(|| l[0].name.clone())
}

fn grant_admits(world: &World, g: &Grant, caller_id: &str, cteam: &str, target: &Target, now: DateTime<Utc>) -> bool {
    if g.expires <= now {
        return false;
    }
    // `from` must name the caller's own record: resolve it to a record and compare ids
    let Some(rec) = world.reg.agent(caller_id) else { return false };
    if !names(world, &g.from, cteam, &rec.team, &rec.seat, Some(&rec.id)) {
        return false;
    }
    names(world, &g.to, cteam, &target.team.name, target.name(), target.agent_id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::resolve;
    use crate::address::tests::{loaded, registry, BEACON};
    use crate::registry::AgentRecord;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-10-01T00:00:00Z").unwrap().with_timezone(&Utc)
    }

    fn seat(team: &str, seat: &str, reg: &registry::Registry) -> Caller {
        Caller::Seat {
            team: team.into(),
            seat: seat.into(),
            agent: reg.agent_for(team, seat).cloned(),
            pane: "%1".into(),
        }
    }

    fn judge(reg: &registry::Registry, caller: &Caller, spec: &str) -> Result<String, String> {
        let l = loaded(BEACON, "/b");
        let w = World::new(reg, Some(&l));
        let t = resolve(&w, spec).unwrap();
        admit(&w, caller, &t, now()).map(|r| r.words()).map_err(|e| e.message())
    }

    #[test]
    fn the_table() {
        let reg = registry();
        let keeper = seat("beacon", "claude-keeper", &reg);
        let reviewer = seat("beacon", "gpt-reviewer", &reg);
        let ada = seat("api", "ada", &reg);
        let bob = seat("api", "bob", &reg);
        assert_eq!(judge(&reg, &Caller::Owner, "gpt-reviewer"), Ok("the owner".into()));
        assert_eq!(judge(&reg, &Caller::Owner, "bob@api"), Ok("the owner".into()));
        assert_eq!(judge(&reg, &keeper, "gpt-reviewer"), Ok("lead of beacon".into()));
        assert_eq!(judge(&reg, &reviewer, "claude-keeper"), Ok("own lead".into()));
        assert_eq!(judge(&reg, &keeper, "lead@api"), Ok("orchestrator of api".into()));
        assert_eq!(judge(&reg, &ada, "claude-keeper"), Ok("orchestrator of beacon".into()));
        // default deny
        let e = judge(&reg, &reviewer, "hermes").unwrap_err();
        assert!(
            e.starts_with(
                "refused: seat gpt-reviewer of beacon may not send to hermes: a seat of beacon reaches its own lead"
            ),
            "{e}"
        );
        let e = judge(&reg, &keeper, "bob@api").unwrap_err();
        assert!(e.contains("another team's seats are reached through that team's orchestrator"), "{e}");
        let e = judge(&reg, &bob, "claude-keeper").unwrap_err();
        assert!(e.starts_with("refused: seat bob of api may not send to claude-keeper"), "{e}");
        let un = Caller::Unplaced { why: "it is run by an agent (claude) outside herdr".into() };
        let e = judge(&reg, &un, "gpt-reviewer").unwrap_err();
        assert!(
            e.starts_with(
                "refused: unplaced (it is run by an agent (claude) outside herdr) may not send to gpt-reviewer"
            ),
            "{e}"
        );
    }

    #[test]
    fn the_entitys_assistant_and_the_leads() {
        let reg = registry();
        // hermes (beacon, no record) is the entity's assistant: beacon is first in chain order?
        // labs has no `team:`, so teams go by id: api, beacon, ops, web — api marks none, beacon's hermes.
        let hermes = seat("beacon", "hermes", &reg);
        // the first matching rule names itself: within its own team that is "own lead"
        assert_eq!(judge(&reg, &hermes, "claude-keeper"), Ok("own lead".into()));
        // cross-team needs hermes's record
        let e = judge(&reg, &hermes, "lead@api").unwrap_err();
        assert!(e.contains("hermes has no registry record yet"), "{e}");
        let mut reg2 = registry();
        reg2.agents.push(AgentRecord {
            id: "agt_00000000000000b3".into(),
            seat: "hermes".into(),
            team: "beacon".into(),
            ..Default::default()
        });
        let hermes = seat("beacon", "hermes", &reg2);
        assert_eq!(judge(&reg2, &hermes, "lead@api"), Ok("the entity's assistant".into()));
        let ada = seat("api", "ada", &reg2);
        assert_eq!(judge(&reg2, &ada, "@herald"), Ok("the entity's assistant".into()));
    }

    fn grant(dir: &std::path::Path, name: &str, from: &str, to: &str, expires: &str) {
        std::fs::create_dir_all(dir.join("grants")).unwrap();
        std::fs::write(
            dir.join("grants").join(name),
            format!("send:\n  from: {from}\n  to: {to}\nexpires: \"{expires}\"\n"),
        )
        .unwrap();
    }

    #[test]
    fn grants_after_the_rules() {
        let d = tempfile::tempdir().unwrap();
        let mut reg = registry();
        reg.dir = d.path().to_path_buf();
        let bob = seat("api", "bob", &reg);
        let e = judge(&reg, &bob, "claude-keeper").unwrap_err();
        assert!(e.contains("orchestrator"), "{e}");
        grant(d.path(), "a-expired.yaml", "bob@api", "lead@beacon", "2026-09-01T00:00:00Z");
        grant(d.path(), "b-wrong-from.yaml", "ada@api", "lead@beacon", "2027-01-01T00:00:00Z");
        assert!(judge(&reg, &bob, "claude-keeper").is_err());
        grant(d.path(), "c-good.yaml", "agt_00000000000000a2", "claude-keeper@beacon", "2027-01-01T00:00:00Z");
        assert_eq!(judge(&reg, &bob, "claude-keeper"), Ok("grant c-good.yaml".into()));
        // a symlink to a good grant is no grant
        std::fs::rename(d.path().join("grants/c-good.yaml"), d.path().join("good.yaml")).unwrap();
        std::os::unix::fs::symlink(d.path().join("good.yaml"), d.path().join("grants/c-good.yaml")).unwrap();
        assert!(judge(&reg, &bob, "claude-keeper").is_err());
        // session/seat and lead@ spellings
        grant(d.path(), "d.yaml", "api/bob", "lead@beacon", "2027-01-01T00:00:00Z");
        assert_eq!(judge(&reg, &bob, "claude-keeper"), Ok("grant d.yaml".into()));
        // a grant never admits a caller without a record, nor to a target without one
        assert!(judge(&reg, &bob, "gpt-reviewer").is_err());
    }

    fn repair(reg: &registry::Registry, caller: &Caller, spec: &str, file: &str) -> String {
        let l = loaded(file, "/b");
        let w = World::new(reg, Some(&l));
        let t = resolve(&w, spec).unwrap();
        admit(&w, caller, &t, now()).unwrap_err().repair().unwrap_or_default()
    }

    #[test]
    fn a_refusal_names_what_would_admit_the_pair() {
        let reg = registry::Registry::default();
        // a first team with no lead: either seat marked leads admits the pair
        let shop = "project: shop\nseats:\n  - name: keeper\n    cli: claude-code\n  - name: rev\n    cli: codex\n";
        let keeper = seat("shop", "keeper", &reg);
        let r = repair(&reg, &keeper, "rev", shop);
        assert!(
            r.starts_with("shop has no lead: `leads: true` on keeper in its team file (.agents/team.yaml) lets it brief every seat of shop, and on rev lets every seat of shop reach it; or an owner-signed grant in ~/.config/team/grants/ (send: from: keeper@shop, to: rev@shop, and expires:) admits the pair once both seats have a registry record (team register keeper, team register rev) (docs/admission.md)"),
            "{r}"
        );
        // with a lead: the way through it
        let led = "project: shop\nseats:\n  - name: keeper\n    cli: claude-code\n    leads: true\n  - name: rev\n    cli: codex\n  - name: tests\n    cli: codex\n";
        let rev = seat("shop", "rev", &reg);
        let r = repair(&reg, &rev, "tests", led);
        assert!(r.starts_with("keeper leads shop: rev reaches keeper, who briefs tests; `leads: true` on rev"), "{r}");
        // following the repair admits: rev marked leads reaches tests
        let rev_leads = led.replace("name: rev\n    cli: codex\n", "name: rev\n    cli: codex\n    leads: true\n");
        let l = loaded(&rev_leads, "/b");
        let w = World::new(&reg, Some(&l));
        assert_eq!(
            admit(&w, &rev, &resolve(&w, "tests").unwrap(), now()).map(|r| r.words()).map_err(|e| e.message()),
            Ok("lead of shop".into())
        );
        // across teams: the records it waits for, and the leads that reach each other
        let reg = registry();
        let reviewer = seat("beacon", "gpt-reviewer", &reg);
        let r = repair(&reg, &reviewer, "lead@api", BEACON);
        assert!(r.starts_with("team register gpt-reviewer (run from its pane, or by the owner in its checkout) writes gpt-reviewer's record; across teams a lead reaches another team's lead (beacon's: claude-keeper@beacon; api's: ada@api)"), "{r}");
    }

    #[test]
    fn a_refusal_names_the_grants_it_passed_over_and_why() {
        let d = tempfile::tempdir().unwrap();
        let mut reg = registry();
        reg.dir = d.path().to_path_buf();
        let bob = seat("api", "bob", &reg);
        grant(d.path(), "a-expired.yaml", "bob@api", "lead@beacon", "2026-09-01T00:00:00Z");
        grant(d.path(), "b-other.yaml", "ada@api", "lead@beacon", "2027-01-01T00:00:00Z");
        std::fs::write(
            d.path().join("grants/c-bad.yaml"),
            "send:\n  from: bob@api\n  to: claude-keeper@beacon\nexpires: soon\n",
        )
        .unwrap();
        std::fs::write(d.path().join("grants/d-create.yaml"), "create:\n  seat: x\n").unwrap();
        std::os::unix::fs::symlink(d.path().join("grants/b-other.yaml"), d.path().join("grants/e-link.yaml")).unwrap();
        let r = repair(&reg, &bob, "claude-keeper", BEACON);
        let passed = r.split_once("; found and passed over: ").map(|x| x.1).unwrap_or_else(|| panic!("{r}"));
        assert_eq!(
            passed,
            "grant a-expired.yaml names the pair, but it expired 2026-09-01T00:00:00Z; c-bad.yaml in the grants folder is no grant: its send: grant is not one this build reads (send: from:, to:, and expires: an RFC 3339 time); e-link.yaml in the grants folder is no grant: it is a symbolic link, and a grant is read only from a plain file"
        );
        // a grant naming the pair, for a seat with no record, is passed over for that
        grant(d.path(), "f-norecord.yaml", "gpt-reviewer@beacon", "hermes@beacon", "2027-01-01T00:00:00Z");
        let reviewer = seat("beacon", "gpt-reviewer", &reg);
        let r = repair(&reg, &reviewer, "hermes", BEACON);
        assert!(
            r.contains("; found and passed over: grant f-norecord.yaml names the pair, but gpt-reviewer has no registry record, and a grant admits recorded seats only;"),
            "{r}"
        );
    }

    #[test]
    fn sender_headers() {
        let reg = registry();
        let w = World::new(&reg, None);
        assert_eq!(sender_header(&w, &Caller::Owner, &Rule::Owner), "from the owner — admitted by: the owner");
        let r = seat("beacon", "gpt-reviewer", &reg);
        assert_eq!(
            sender_header(&w, &r, &Rule::OwnLead),
            "from the file's seat gpt-reviewer (no registry record yet) — admitted by: own lead"
        );
        let ada = seat("api", "ada", &reg);
        assert_eq!(
            sender_header(&w, &ada, &Rule::OrchestratorOf("beacon".into())),
            "from agt_00000000000000a1 (ada, seat ada@api) — admitted by: orchestrator of beacon"
        );
        assert_eq!(with_header("h", "b"), "h\n\nb");
    }
}
