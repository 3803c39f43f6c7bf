//! `team feed --follow`'s passes: each pass reads the scope again and keeps the entries not
//! shown before.
//!
//! Invariant: an entry is shown once, however often it is read; two identical lines are two
//! entries (each is keyed by its document and its occurrence number), and an entry whose
//! document changed (a receipt joined it) is a new one. The first pass is always shown (its
//! last `limit` entries, possibly none), a later one only when it brings something; the
//! `--seat` check runs on the first pass only.

use std::collections::{HashMap, HashSet};

use super::{limited, read, Event, Query, Report, Scope};
use crate::error;

/// A follow under way: what it has shown.
#[derive(Debug)]
pub struct Follow<'a> {
    scope: &'a Scope,
    query: &'a Query,
    seen: HashSet<String>,
    first: bool,
}

impl<'a> Follow<'a> {
    pub fn new(scope: &'a Scope, query: &'a Query) -> Follow<'a> {
        Follow { scope, query, seen: HashSet::new(), first: true }
    }

    /// One pass: the entries not shown before (`None`: a later pass that brought nothing).
    pub fn pass(&mut self) -> error::Result<Option<Report>> {
        let read = read(self.scope)?;
        let events = self.scope.of_seat(read.events, self.query.seat.as_deref(), self.first)?;
        let keys = keys(&events);
        let fresh: Vec<Event> =
            events.into_iter().zip(keys).filter(|(_, k)| self.seen.insert(k.clone())).map(|(e, _)| e).collect();
        let first = std::mem::replace(&mut self.first, false);
        if !first && fresh.is_empty() {
            return Ok(None);
        }
        let events = if first { limited(fresh, self.query.limit) } else { fresh };
        Ok(Some(Report { events, skipped: read.skipped }))
    }
}

/// A stable key per event: its document and its occurrence number, so two identical lines
/// are two entries.
pub(super) fn keys(events: &[Event]) -> Vec<String> {
    let mut count: HashMap<String, usize> = HashMap::new();
    events
        .iter()
        .map(|e| {
            let k = serde_json::to_string(e).expect("an event always serialises");
            let n = count.entry(k.clone()).or_default();
            *n += 1;
            format!("{k}#{n}")
        })
        .collect()
}
