//! The feed's plain output: the context line, the table (TIME, KIND, SEAT, DETAIL; PROJECT
//! under `--all`) with replies threaded under their questions, and the event count.
//!
//! Invariant: every cell is text from outside, escaped; the only escape codes are ours (the
//! faint sender header on a terminal).

use super::cells::Cells;
use super::skipped_note;
use crate::error;
use crate::feed::{threaded, Event, Scope, Skipped};
use crate::vocab::text::one_line;

/// The plain output: the context line (when the run names one team), the table or nothing,
/// then `<n> event(s)`; and the line for stderr that says how many lines were skipped.
pub(super) fn plain<Tz: chrono::TimeZone>(
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

/// The table (`super::table`'s layout): TIME, KIND, SEAT, DETAIL, and PROJECT after TIME when
/// the run names no single team (`--all`).
pub(super) fn table<Tz: chrono::TimeZone>(
    events: &[Event],
    now: &chrono::DateTime<Tz>,
    with_project: bool,
    styled: bool,
) -> String
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
