//! The words `team feed` says: the context line, the table of the project's messages, briefs
//! and Desk audit lines, the event count, the line that says what was skipped, and
//! `--stats`'s figures.
//!
//! The table: TIME (local, dated when not today), KIND (a message's outcome with its leg, its
//! span, what decided it, and where it stands past its send: `delivered (via typed in 20031 ms,
//! by transcript, read 09:00:41)`;
//! a line the watch wrote says so: `held (retry 1, …)`, `delivered (taken but never acted
//! on)`), SEAT, DETAIL (a brief's file name and first non-empty line; a message's body, its
//! sender header drawn faint on a terminal), and PROJECT after TIME when the run names no
//! single team. Replies follow their questions ([`threaded`]).
//!
//! Invariant: words only; every cell is text from outside, escaped, and the only escape codes
//! are ours (the faint sender header on a terminal, which the caller prints styled).

use super::stats::Stats;
use super::{threaded, Event, Scope, Skipped};
use crate::error;
use crate::history::stats::{Row, Spread};
use crate::vocab::text::one_line;
use cells::Cells;

mod cells;

/// The plain output: the context line (when the run names one team), the table or nothing,
/// then `<n> event(s)`; and the line for stderr that says how many lines were skipped.
pub fn plain<Tz: chrono::TimeZone>(
    scope: &Scope,
    events: &[Event],
    skipped: Skipped,
    now: chrono::DateTime<Tz>,
    styled: bool,
) -> (String, Option<String>)
where
    Tz::Offset: std::fmt::Display,
{
    let mut out = String::new();
    if let Some((project, session)) = &scope.team {
        out.push_str(&error::context_line(project, session));
    }
    if !events.is_empty() {
        out.push_str(&table(events, &now, scope.team.is_none(), styled));
    }
    let n = events.len();
    out.push_str(&format!("{n} event{}\n", if n == 1 { "" } else { "s" }));
    (out, skipped_note(skipped))
}

/// The table (`vocab::table`'s layout): TIME, KIND, SEAT, DETAIL, and PROJECT after TIME when
/// the run names no single team (`--all`).
fn table<Tz: chrono::TimeZone>(events: &[Event], now: &chrono::DateTime<Tz>, with_project: bool, styled: bool) -> String
where
    Tz::Offset: std::fmt::Display,
{
    let head = if with_project {
        &["TIME", "PROJECT", "KIND", "SEAT", "DETAIL"][..]
    } else {
        &["TIME", "KIND", "SEAT", "DETAIL"][..]
    };
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|h| h.to_string()).collect()];
    // Every cell is text from outside (history lines, brief names, audit records): escaped.
    let cell = |s: String| one_line(&s).into_owned();
    // a reply follows its question, its DETAIL marked `↳` (once per depth)
    let keys: Vec<(Option<&str>, Option<&str>)> = events.iter().map(Event::thread_key).collect();
    rows.extend(threaded(&keys).into_iter().map(|(i, depth)| {
        let e = &events[i];
        let mark = "↳ ".repeat(depth);
        let mut r = vec![cell(e.time_cell(now))];
        if with_project {
            r.push(cell(e.project_cell()));
        }
        let detail = match (styled, e.detail_parts()) {
            // SGR 2 (faint) around the escaped header: the escape codes are ours, never the text's
            (true, (lead, Some(header), body)) => {
                format!("{mark}{}\x1b[2m{}\x1b[22m {}", cell(lead), cell(header), cell(body))
            }
            _ => format!("{mark}{}", cell(e.detail_cell())),
        };
        r.extend([cell(e.kind_cell(now)), cell(e.seat_cell()), detail]);
        r
    }));
    crate::vocab::table::table(&rows)
}

/// The line for stderr that says what was skipped, when anything was.
pub fn skipped_note(s: Skipped) -> Option<String> {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match s {
        Skipped { lines: 0, .. } => None,
        Skipped { lines, bad_ids: 0 } => Some(format!("team feed: skipped {lines} unreadable line{}\n", plural(lines))),
        Skipped { lines, bad_ids } => Some(format!(
            "team feed: skipped {lines} unreadable line{} ({bad_ids} whose id is no message id)\n",
            plural(lines)
        )),
    }
}

impl Stats {
    /// The figures' table under the context line, and the count of sends.
    pub fn said(&self) -> String {
        let mut text = String::new();
        if let Some((p, s)) = &self.team {
            text.push_str(&error::context_line(p, s));
        }
        if !self.rows.is_empty() {
            text.push_str(&stats_table(&self.rows, (self.rows.len() > 1).then_some(&self.total)));
        }
        let n = self.total.sends;
        text.push_str(&format!("{n} send{}\n", if n == 1 { "" } else { "s" }));
        text
    }
}

fn spread(s: &Spread) -> String {
    match (s.median, s.p90) {
        (Some(m), Some(p)) => format!("{m} / {p} ms"),
        _ => "-".to_string(),
    }
}

/// `--stats`'s table: two-space indent, columns padded to their widest cell, no trailing
/// spaces.
fn stats_table(rows: &[Row], total: Option<&Row>) -> String {
    const HEAD: [&str; 12] = [
        "CLI",
        "PROFILE",
        "SENDS",
        "DELIVERED",
        "READ",
        "TAKEN",
        "ACKED",
        "HELD",
        "NOT-SUBMITTED",
        "UNREACHABLE",
        "TO DELIVERED (MEDIAN / P90)",
        "TO READ (MEDIAN / P90)",
    ];
    let cells = |r: &Row| -> Vec<String> {
        vec![
            one_line(&r.cli).into_owned(),
            one_line(&r.profile).into_owned(),
            r.sends.to_string(),
            r.delivered.to_string(),
            r.read.to_string(),
            r.taken_not_confirmed.to_string(),
            r.acked.to_string(),
            r.held.to_string(),
            r.not_submitted.to_string(),
            r.unreachable.to_string(),
            spread(&r.ms_to_delivered),
            spread(&r.ms_to_read),
        ]
    };
    // the inbox leg's column only once some send went by it (a history without reads as before)
    let inbox = rows.iter().any(|r| r.inbox > 0);
    let with_inbox = |mut cells: Vec<String>, n: String| {
        if inbox {
            // right after UNREACHABLE, wherever the columns before it move
            let at = HEAD.iter().position(|h| *h == "UNREACHABLE").map_or(cells.len(), |i| i + 1);
            cells.insert(at, n);
        }
        cells
    };
    let mut all: Vec<Vec<String>> = vec![with_inbox(HEAD.iter().map(|h| h.to_string()).collect(), "MCP-INBOX".into())];
    all.extend(rows.iter().map(|r| with_inbox(cells(r), r.inbox.to_string())));
    all.extend(total.map(|r| with_inbox(cells(r), r.inbox.to_string())));
    crate::vocab::table::table(&all)
}

#[cfg(test)]
mod tests;
