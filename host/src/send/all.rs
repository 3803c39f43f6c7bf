//! `team send all <message>`: the broadcast. Every seat of the roster (`list::roster`) that
//! the caller may reach, each sent to on its own — resolved, admitted, walked and written down
//! exactly as `team send <seat>` would (`super::send`), one id each — and one row per seat.
//!
//! Invariants: the single send's path is not changed, only run once per seat; a seat the
//! caller may not reach is left out (it is not "every seat the caller may reach"), and the
//! caller's own seat is never sent to; a seat refused once its send ran is a row of its own,
//! never the end of the broadcast; the broadcast is done only when every row is delivered or
//! queued (an agent's send left in a working seat's inbox), and only delivered rows are counted
//! delivered.

use crate::address::World;
use crate::caller::Caller;
use crate::error::{self, TeamError};

use super::{list, Ask, FactsBook, Loadout, Means, SendReport};

/// One seat's row.
#[derive(Debug, Clone)]
pub enum Row {
    /// The send ran: its report (a dry run's too).
    Sent(Box<SendReport>),
    /// The send to this seat was refused before anything was written.
    Refused { seat: String, error: TeamError },
}

impl Row {
    pub fn seat(&self) -> &str {
        match self {
            Row::Sent(r) => &r.seat,
            Row::Refused { seat, .. } => seat,
        }
    }
    /// Whether this seat's send was delivered or queued (or its dry run found a way).
    pub fn done(&self) -> bool {
        matches!(self, Row::Sent(r) if r.outcome.failure().is_none())
    }

    /// Whether this seat's send was delivered (a record is a delivery written down).
    pub fn delivered(&self) -> bool {
        matches!(self, Row::Sent(r) if r.outcome.delivered().is_some() || matches!(r.outcome, super::Outcome::Recorded { .. }))
    }
    /// The outcome word.
    pub fn word(&self) -> &'static str {
        self.said().word()
    }

    /// The outcome as its word (a seat refused before its send is `refused`).
    pub fn said(&self) -> super::OutcomeWord {
        match self {
            Row::Sent(r) => r.outcome.said(),
            Row::Refused { .. } => super::OutcomeWord::Ended(crate::vocab::outcome::Outcome::Refused),
        }
    }
}

/// The broadcast's report.
#[derive(Debug, Clone)]
pub struct Fanout {
    pub project: String,
    pub session: String,
    pub rows: Vec<Row>,
}

impl Fanout {
    /// Exit 0 only when every seat took it or has it queued.
    pub fn done(&self) -> bool {
        self.rows.iter().all(Row::done)
    }

    /// Whether every seat took it.
    pub fn all_delivered(&self) -> bool {
        self.rows.iter().all(Row::delivered)
    }

    /// `3 of 4 delivered; 1 held` (`2 of 4 delivered; 2 queued`: a queued row is no delivery).
    pub fn summary(&self, dry_run: bool) -> String {
        let n = self.rows.len();
        let counted = |r: &Row| if dry_run { r.done() } else { r.delivered() };
        let ok = self.rows.iter().filter(|r| counted(r)).count();
        let done_word = if dry_run { "would be sent" } else { "delivered" };
        let mut s = format!("{ok} of {n} {done_word}");
        let mut others: Vec<(&str, usize)> = Vec::new();
        for r in self.rows.iter().filter(|r| !counted(r)) {
            match others.iter_mut().find(|(w, _)| *w == r.word()) {
                Some((_, c)) => *c += 1,
                None => others.push((r.word(), 1)),
            }
        }
        for (w, c) in others {
            s.push_str(&format!("; {c} {w}"));
        }
        s
    }
}

/// The seats `caller` may reach, in roster order, as a send addresses them (bare in the
/// caller's own team, `<seat>@<team>` elsewhere); the caller's own seat left out.
pub fn reachable(load: &Loadout, caller: &Caller, now: chrono::DateTime<chrono::Utc>) -> Vec<String> {
    let world = World::new(&load.reg, load.file.as_ref());
    let me = match caller {
        Caller::Seat { team, seat, .. } => Some((team.clone(), seat.clone())),
        _ => None,
    };
    list::roster(&world)
        .iter()
        .filter(|r| me.as_ref() != Some(&(r.team.name.clone(), r.seat().name.clone())))
        .filter(|r| list::admitted_by(&world, caller, r, now).is_some())
        .map(|r| if r.own { r.seat().name.clone() } else { format!("{}@{}", r.seat().name, r.team.name) })
        .collect()
}

/// Sends `body` to every seat `caller` may reach.
pub fn all(m: &Means, load: Loadout, caller: Caller, body: &str, dry_run: bool) -> error::Result<Fanout> {
    let (project, session) = super::context_of(load.file.as_ref(), None);
    let seats = reachable(&load, &caller, m.ctx.clock.now());
    if seats.is_empty() {
        return Err(TeamError::refused(format!(
            "{} may reach no seat, so there is no one to send to; nothing was sent",
            caller.describe()
        ))
        .with_repair("team send --list shows whom you may reach, and the rule that admits you (docs/admission.md)"));
    }
    let book = FactsBook::new(m.profiles);
    let mut rows = Vec::new();
    for seat in seats {
        let ask = Ask::Send { target: seat.clone(), body: body.to_string(), wait: false };
        let one = super::send(m, &book, load.clone(), caller.clone(), &seat, body, false, dry_run);
        match one {
            Ok(r) => rows.push(Row::Sent(Box::new(r))),
            Err(error) => {
                if !dry_run {
                    super::log_refusal(m, &load, &caller, &ask, &error);
                }
                rows.push(Row::Refused { seat, error });
            }
        }
    }
    Ok(Fanout { project, session, rows })
}
