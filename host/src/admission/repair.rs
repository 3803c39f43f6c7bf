//! What a refusal between two seats says would admit the pair (the refusal's repair line): a
//! lead (`leads: true`), an owner-signed grant, and `team register` where the rule or the grant
//! needs a registry record — and every grant that was found for the pair and passed over, with
//! why (expired, a seat without its record, a file this build does not read as a grant).
//!
//! Invariant: it only words; it never admits. Every way it names is one the rules of
//! `admission` would then take (a lead mark, a grant naming both records), so following the
//! repair admits the pair.

use chrono::{DateTime, Utc};

use crate::address::{Target, TeamView, World};
use crate::registry::{self, AgentRecord};

/// The caller's side of a refused pair.
pub(super) struct From<'a> {
    pub team: &'a str,
    pub seat: &'a str,
    pub record: Option<&'a AgentRecord>,
    pub view: &'a TeamView,
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

fn lead_names(v: &TeamView) -> Vec<String> {
    v.leads().iter().map(|s| s.name.clone()).collect()
}

/// What the team rules would need for the pair.
fn by_the_rules(from: &From, to: &Target) -> String {
    let (cseat, cteam) = (from.seat, from.team);
    let tname = to.name();
    if to.team.name == cteam {
        let leads = lead_names(from.view);
        return if leads.is_empty() {
            format!(
                "{cteam} has no lead: `leads: true` on {cseat} in its team file (.agents/team.yaml) lets it brief every seat of {cteam}, and on {tname} lets every seat of {cteam} reach it"
            )
        } else {
            let verb = if leads.len() == 1 { "leads" } else { "lead" };
            format!(
                "{} {verb} {cteam}: {cseat} reaches {}, who briefs {tname}; `leads: true` on {cseat} in its team file (.agents/team.yaml) lets it brief {tname} itself",
                and_list(&leads),
                and_list(&leads)
            )
        };
    }
    let mut need = Vec::new();
    if from.record.is_none() {
        need.push(format!(
            "team register {cseat} (run from its pane, or by the owner in its checkout) writes {cseat}'s record"
        ));
    }
    if to.seat.agent.is_none() {
        need.push(format!("team register {tname} in {}'s checkout writes {tname}'s record", to.team.name));
    }
    if to.team.entity != from.view.entity {
        need.push(format!(
            "{} is a team of entity {}, and {cteam} of {}: only a grant joins them",
            to.team.name, to.team.entity, from.view.entity
        ));
    } else {
        let theirs = lead_names(&to.team);
        let ours = lead_names(from.view);
        let spelled = |v: &[String], team: &str| {
            if v.is_empty() {
                format!("{team} marks none")
            } else {
                and_list(&v.iter().map(|s| format!("{s}@{team}")).collect::<Vec<_>>())
            }
        };
        need.push(format!(
            "across teams a lead reaches another team's lead ({}'s: {}; {}'s: {})",
            cteam,
            spelled(&ours, cteam),
            to.team.name,
            spelled(&theirs, &to.team.name)
        ));
    }
    need.join("; ")
}

/// The grant that would admit the pair, and what it waits for.
fn by_a_grant(from: &From, to: &Target) -> String {
    let mut s = format!(
        "an owner-signed grant in ~/.config/team/grants/ (send: from: {}@{}, to: {}@{}, and expires:) admits the pair",
        from.seat,
        from.team,
        to.name(),
        to.team.name
    );
    let mut missing = Vec::new();
    if from.record.is_none() {
        missing.push(format!("team register {}", from.seat));
    }
    if to.seat.agent.is_none() {
        missing.push(format!("team register {}", to.name()));
    }
    if !missing.is_empty() {
        s.push_str(&format!(" once both seats have a registry record ({})", missing.join(", ")));
    }
    s
}

/// The grants that name the pair (or are no grant this build reads) and were passed over.
fn passed_over(world: &World, from: &From, to: &Target, now: DateTime<Utc>) -> Vec<String> {
    let (grants, unread) = registry::read_send_grants(&world.reg.dir);
    let mut out = Vec::new();
    let id = from.record.map(|r| r.id.as_str());
    for g in grants {
        let names_from = super::names(world, &g.from, from.team, from.team, from.seat, id);
        let names_to = super::names(world, &g.to, from.team, &to.team.name, to.name(), to.agent_id());
        if !(names_from && names_to) {
            continue;
        }
        let why = if g.expires <= now {
            format!("it expired {}", g.expires.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        } else if from.record.is_none() {
            format!("{} has no registry record, and a grant admits recorded seats only", from.seat)
        } else if to.seat.agent.is_none() {
            format!("{} has no registry record, and a grant admits recorded seats only", to.name())
        } else {
            continue;
        };
        out.push(format!("grant {} names the pair, but {why}", g.file));
    }
    for (file, why) in unread {
        out.push(format!("{file} in the grants folder is no grant: {why}"));
    }
    out
}

/// The repair line of a refusal between `from` and `to`.
pub(super) fn ways(world: &World, from: &From, to: &Target, now: DateTime<Utc>) -> String {
    let mut s = format!("{}; or {} (docs/admission.md)", by_the_rules(from, to), by_a_grant(from, to));
    let passed = passed_over(world, from, to, now);
    if !passed.is_empty() {
        s.push_str(&format!("; found and passed over: {}", passed.join("; ")));
    }
    s
}
