//! One read of everything in a feed's scope: each history folder's lines joined with the
//! receipts beside them, the briefs and the audit lines, in time order.
//!
//! Invariant: lines a reader could not parse are counted, never shown and never fatal; a
//! file the ladder check refuses (a link, a FIFO) refuses the whole run, as every history
//! read does.

use super::{refusal, AckMark, Event, ReadMark, Scope};
use crate::error;
use crate::history::{self, Ledger};

/// The lines a run did not show: every one skipped, and how many of them for an id that is no
/// message id (the history's and the receipts' readers pass those over: `vocab::id`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    pub lines: usize,
    pub bad_ids: usize,
}

/// The events in view, oldest first, and the lines passed over.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub events: Vec<Event>,
    pub skipped: Skipped,
}

/// Reads the scope once.
pub fn read(scope: &Scope) -> error::Result<Read> {
    let mut events = Vec::new();
    let mut skipped = Skipped::default();
    for (project, dir) in &scope.dirs {
        let h = history::read_history(&scope.config, dir).map_err(refusal)?;
        let r = history::read_receipts_checked(&scope.config, dir).map_err(refusal)?;
        skipped.lines += h.skipped + r.skipped;
        skipped.bad_ids += h.bad_ids() + r.bad_ids();
        let receipts = r.lines;
        // Each delivered line a send could not confirm shows where its message stands.
        let mut marks: Vec<Option<ReadMark>> = vec![None; h.lines.len()];
        let mut acks: Vec<Option<AckMark>> = vec![None; h.lines.len()];
        let ledger = Ledger::build(&h.lines, &receipts);
        for e in &ledger.entries {
            if let (Some(d), Some(state)) = (e.delivered, ledger.read_state(e)) {
                marks[d] = ReadMark::of(&ledger, state);
            }
            if let Some(r) = e.acked {
                acks[e.delivered.unwrap_or(e.first)] = Some(AckMark::of(&ledger, r));
            }
        }
        drop(ledger);
        events.extend(h.lines.into_iter().zip(marks).zip(acks).map(|((line, read), acked)| Event::Message {
            line,
            project: project.clone(),
            read,
            acked,
        }));
    }
    if let Some(dir) = &scope.briefs {
        events.extend(history::read_briefs(dir).map_err(refusal)?.into_iter().map(Event::from));
    }
    for path in &scope.audits {
        let project = scope.team.as_ref().map(|t| t.0.as_str());
        let (lines, n) = history::read_audit(path, project).map_err(refusal)?;
        skipped.lines += n;
        events.extend(lines.into_iter().map(Event::from));
    }
    // Stable: equal times keep the order read.
    events.sort_by_key(|e| sort_key(e.ts()));
    Ok(Read { events, skipped })
}

fn sort_key(ts: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(ts).ok().map(|t| t.with_timezone(&chrono::Utc))
}
