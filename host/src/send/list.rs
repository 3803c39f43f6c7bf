//! `--list`: the file's own roster, then the seats of the other teams of the caller's entity
//! as `<seat>@<team>`, each with the channel it is reachable by once every leg ships.
//!
//! Invariants: it sends nothing and loads no profile code for a bundled profile; a seat whose
//! CLI has no usable profile is listed with the refusal a send to it would get; a roster of n
//! seats is time and memory linear in n — each team is built once and shared by its seats'
//! rows (never a copy of the whole team per seat).

use std::rc::Rc;

use chrono::{DateTime, Utc};

use crate::address::{SeatView, Target, TeamView, World};
use crate::caller::Caller;
use crate::plan;
use crate::registry::Registry;
use crate::team_file::Loaded;

use super::report::{ListReport, ListRow};
use super::{order_for, pins_of, FactsBook};

fn row(book: &FactsBook, reg: &Registry, team: &TeamView, s: &SeatView, own: bool) -> ListRow {
    let cli = s.cli().to_string();
    let (reach, problem) = match book.of(&cli, pins_of(team)) {
        Ok(facts) => {
            let facts = super::with_hooks(facts, team.root.as_deref());
            (Some(plan::reach(facts, &order_for(reg, team, s))), None)
        }
        Err(n) => (None, Some(n.why)),
    };
    ListRow {
        name: if own { s.name.clone() } else { format!("{}@{}", s.name, team.name) },
        nickname: s.nickname.as_ref().map(|n| if own { format!("@{n}") } else { format!("{n}@{}", team.name) }),
        cli,
        role: s.role.clone(),
        project: team.project.clone(),
        reach,
        stopped: s.stopped,
        problem,
        admitted_by: None,
    }
}

/// The rule that admits `caller` sending to the roster seat `r` (`None`: refused), judged as a
/// send to it would be.
pub fn admitted_by(world: &World, caller: &Caller, r: &RosterSeat, now: DateTime<Utc>) -> Option<String> {
    let target = Target { team: r.team.clone(), seat: r.seat().clone(), spec: None };
    crate::admission::admit(world, caller, &target, now).ok().map(|rule| rule.words())
}

/// One seat of the roster `--list` prints and `team status` reads.
pub struct RosterSeat {
    /// The seat's team, shared by every seat of it (a roster of n seats holds each team once).
    pub team: Rc<TeamView>,
    /// The seat's place in `team.seats`.
    at: usize,
    /// A seat of the file's own team (named bare; others as `<seat>@<team>`).
    pub own: bool,
}

impl RosterSeat {
    pub fn seat(&self) -> &SeatView {
        &self.team.seats[self.at]
    }
}

/// The addressable seats, in order: the file's own roster, then the seats of the other teams
/// of its entity that the roster lists or a record holds. Each team is built once.
pub fn roster(world: &World) -> Vec<RosterSeat> {
    let mut out = Vec::new();
    if let Some(own) = &world.own {
        out.extend((0..own.seats.len()).map(|at| RosterSeat { team: own.clone(), at, own: true }));
    }
    let entity = world.own_entity();
    let own_name = world.own.as_ref().map(|o| o.name.clone());
    for t in world.entity_teams(&entity) {
        if Some(&t) == own_name.as_ref() {
            continue;
        }
        if let Some(v) = world.team(&t) {
            let team = Rc::new(v);
            for (at, _) in team.seats.iter().enumerate().filter(|(_, s)| s.in_roster || s.agent.is_some()) {
                out.push(RosterSeat { team: team.clone(), at, own: false });
            }
        }
    }
    out
}

/// The addressable seats for a run standing in `file` (if any), each with the rule that admits
/// `caller` sending to it.
pub fn list(
    book: &FactsBook,
    file: Option<&Loaded>,
    reg: &Registry,
    caller: &Caller,
    now: DateTime<Utc>,
) -> ListReport {
    let world = World::new(reg, file);
    let seats = roster(&world)
        .iter()
        .map(|r| ListRow {
            admitted_by: admitted_by(&world, caller, r, now),
            ..row(book, reg, &r.team, r.seat(), r.own)
        })
        .collect();
    ListReport { context: file.map(|l| (l.file.project.clone(), l.file.session.clone())), seats }
}
