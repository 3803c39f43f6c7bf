//! The watch's part in sends to seats on another machine (`legs::remote`): a hop left in doubt
//! (the connection cut and the far side not asked, or answering in doubt) is asked about again
//! by its id (`legs::remote::ask_again`, `team hop status` there) before anything else, and the
//! far side's answer is written down here under the same id (via ssh).
//!
//! Invariants:
//! - nothing is ever carried or typed for a hop line: the drop and the leg are the far side's,
//!   and so are its retries (its own watch's); this side only asks;
//! - a far side still in doubt, or not answering, leaves the line in doubt: said once per id
//!   by this process, nothing written; asked again on a later pass, within the window and its
//!   grace;
//! - what the far side answers is kept on disk (one history line), so it is asked and said once.

use super::{copy_of, not_written, Event, Pass, Watch};
use crate::history::{Ledger, MessageLine};
use crate::legs::remote;
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
            self.ask_hop(first, &host, pass);
        }
    }

    fn ask_hop(&mut self, first: &MessageLine, host: &SeatHost, pass: &mut Pass) {
        let (id, seat) = (first.id.as_str(), first.to.as_str());
        let ended = remote::ask_again(&self.ctx.paths.state, host, id).ended;
        if ended.outcome == Outcome::NotSubmitted && remote::left_in_doubt(ended.reason()) {
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
            note,
            ..copy_of(first)
        };
        let written = self.history(&line);
        let detail =
            if delivered { ended.note.as_ref().map(Note::to_string) } else { Some(ended.reason().to_string()) };
        let said = format!("id {id}, via ssh to {}, its outcome read back by id{}", host.word, not_written(&written));
        self.log(seat, ended.outcome.word(), said);
        if let Err(e) = written {
            // Not kept on disk: only this process's memory keeps it from being asked and said again.
            self.memory.give_up(id);
            self.problem(pass, format!("{seat}: the far side's answer could not be written: {e}"));
        }
        pass.events.push(Event::ReadBack {
            seat: seat.into(),
            from: first.from.clone(),
            id: id.into(),
            host: host.word.clone(),
            outcome: ended.outcome,
            detail,
        });
    }
}
