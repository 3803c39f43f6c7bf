//! The watch's part in sends to seats on another machine (`legs::remote`): a hop left in doubt
//! (the connection cut and the far side not asked, or answering in doubt) is asked about again
//! by its id (`legs::remote::ask_again`, `team hop status` there) before anything else, and the
//! far side's answer is written down here under the same id (via ssh).
//!
//! Invariants:
//! - nothing is carried again for a hop line the far side may have taken: the drop and the leg
//!   are the far side's, and so are its retries (its own watch's); this side asks first, and
//!   only an id the far side answers it never took (nothing was sent under it) is carried again,
//!   under the same id (the far side's once-only key), as a try of the watch's (at most three);
//! - a far side still in doubt, or not answering, leaves the line in doubt: said once per id
//!   by this process, nothing written; asked again on a later pass, within the window and its
//!   grace;
//! - what the far side answers is kept on disk (one history line), so it is asked and said once.

use super::decide::TRIES;
use super::{copy_of, not_written, Event, Pass, Watch};
use crate::history::{Ledger, MessageLine};
use crate::legs::remote::{self, doc};
use crate::team_file::host::{Here, SeatHost};
use crate::vocab::outcome::{Note, Outcome, Via};

impl Watch<'_> {
    /// Asks the far side of every hop left in doubt what became of it, and writes its answer.
    pub(super) fn ask_hops(&mut self, ledger: &Ledger, pass: &mut Pass) {
        let here = Here::of_config(&self.ctx.paths.config);
        let now = self.ctx.clock.now();
        for e in &ledger.entries {
            let (first, last) = (ledger.line(e.first), ledger.line(e.last_try));
            let in_doubt = last.outcome == Outcome::NotSubmitted
                && last.note.as_ref().is_some_and(|n| remote::left_in_doubt(&n.to_string()));
            if !in_doubt || e.delivered.is_some() || e.stopped.is_some() || self.memory.gave_up(&first.id) {
                continue;
            }
            let host = self.team.file.seat(&first.to).and_then(|s| s.host.clone());
            let Some(host) = host.filter(|h| !here.holds(Some(h))) else { continue };
            if first.ts.at().is_none_or(|sent| now - sent > self.limits.window + self.limits.grace) {
                continue;
            }
            self.ask_hop(first, last, &host, pass);
        }
    }

    fn ask_hop(&mut self, first: &MessageLine, last: &MessageLine, host: &SeatHost, pass: &mut Pass) {
        let (id, seat) = (first.id.as_str(), first.to.as_str());
        let asked = remote::ask_again(&self.ctx.paths.state, host, id);
        // never taken there: nothing was sent under the id, so it is carried again under it
        // (the far side's once-only key), as a retry of the watch's, within its tries
        let n = last.retry.unwrap_or(0) + 1;
        let again = (asked.never_taken && n <= TRIES).then(|| self.send_again(first, host));
        let far_via = again.as_ref().unwrap_or(&asked).far_leg.clone();
        let ended = again.as_ref().map(|h| h.ended.clone()).unwrap_or(asked.ended);
        if again.is_none() && ended.outcome == Outcome::NotSubmitted && remote::left_in_doubt(ended.reason()) {
            if self.said.insert(format!("hop in doubt {id}")) {
                let why = ended.reason().to_string();
                self.problem(pass, format!("{seat}: a send from {} to {} is still {why}", first.from, host.word));
            }
            return;
        }
        let delivered = ended.outcome == Outcome::Delivered;
        let note = if delivered { ended.note.clone() } else { Some(Note::from(ended.reason())) };
        let line = MessageLine {
            ts: self.ctx.clock.now_ts(),
            outcome: ended.outcome.clone(),
            via: Some(Via::Ssh),
            to_host: Some(host.word.clone()),
            far_via,
            note,
            retry: again.is_some().then_some(n),
            reply_to: first.reply_to.clone(),
            ..copy_of(first)
        };
        let written = self.history(&line);
        let detail =
            if delivered { ended.note.as_ref().map(Note::to_string) } else { Some(ended.reason().to_string()) };
        let how = match again {
            Some(_) => format!("never taken there, sent again under its id (try {n} of {TRIES})"),
            None => "its outcome read back by id".to_string(),
        };
        let said = format!("id {id}, via ssh to {}, {how}{}", host.word, not_written(&written));
        self.log(seat, ended.outcome.word(), said);
        if let Err(e) = written {
            // Not kept on disk: only this process's memory keeps it from being asked and said again.
            self.memory.give_up(id);
            self.problem(pass, format!("{seat}: the far side's answer could not be written: {e}"));
        }
        let (seat, from, id, host, outcome) =
            (seat.into(), first.from.clone(), id.into(), host.word.clone(), ended.outcome);
        pass.events.push(match again {
            Some(_) => Event::SentAgain { seat, from, id, host, n, tries: TRIES, outcome, detail },
            None => Event::ReadBack { seat, from, id, host, outcome, detail },
        });
    }

    /// Carries the hop of `first` again under its id: the sender, the seat, the message and
    /// the question it answers as its line keeps them (admitted when it was sent; the far side
    /// judges it again).
    fn send_again(&self, first: &MessageLine, host: &SeatHost) -> remote::Hopped {
        let file = &self.team.file;
        let from = match first.from.as_str() {
            crate::history::ledger::OWNER => doc::From::Owner,
            f => match f.split_once('@') {
                Some((seat, team)) => doc::From::Seat { team: team.into(), seat: seat.into() },
                None => doc::From::Seat { team: file.team.clone(), seat: f.into() },
            },
        };
        let own =
            file.seats.iter().find(|s| s.name == first.from).and_then(|s| s.host.as_ref()).map(|h| h.word.clone());
        let from_host = own.or_else(|| Here::of_config(&self.ctx.paths.config).first().map(str::to_string));
        let req = remote::Request {
            host,
            id: &first.id,
            from: &from,
            from_host: from_host.as_deref(),
            team: &file.team,
            seat: &first.to,
            body: crate::history::message_of(&first.body),
            reply_to: first.reply_to.as_deref(),
        };
        remote::deliver(&self.ctx.paths.state, &req)
    }
}
