//! The words of a feed entry's cells: its TIME, PROJECT, KIND, SEAT and DETAIL, and what a
//! read or an ack mark adds to the KIND cell.
//!
//! Invariant: a cell is the entry's own text with whitespace runs made one space; escaping is
//! the table's (`table`), and times are shown in the zone of the run's now.

use crate::feed::{AckMark, Event, ReadMark};
use crate::history::Sign;
use crate::vocab::outcome::{Decider, Note, Outcome};

/// A history time as the table shows it: in `now`'s time zone (the local one, `TZ` honoured),
/// with its date when it is not `now`'s day.
pub(super) fn local_time<Tz: chrono::TimeZone>(ts: &str, now: &chrono::DateTime<Tz>) -> String
where
    Tz::Offset: std::fmt::Display,
{
    match chrono::DateTime::parse_from_rfc3339(ts) {
        Ok(t) => {
            let local = t.with_timezone(&now.timezone());
            let form = if local.date_naive() == now.date_naive() { "%H:%M:%S" } else { "%Y-%m-%d %H:%M:%S" };
            local.format(form).to_string()
        }
        Err(_) => ts.to_string(),
    }
}

/// The words a read mark adds to the KIND cell, its time as `time` spells the table's times.
pub(super) fn read_words(m: &ReadMark, time: impl Fn(&str) -> String) -> String {
    match m {
        ReadMark::At { ts, sign: Sign::Status, .. } => format!("acted on {}", time(ts)),
        ReadMark::At { ts, .. } => format!("read {}", time(ts)),
        ReadMark::NotYet => "not yet read".to_string(),
        ReadMark::NeverActed { .. } => "never acted on".to_string(),
    }
}

/// The words an ack mark adds to the KIND cell.
pub(super) fn ack_words(a: &AckMark, time: impl Fn(&str) -> String) -> String {
    format!("acked {}", time(&a.ts))
}

/// Whitespace runs (newlines included) become one space; the ends are trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An entry's cells.
pub(super) trait Cells {
    /// The time in `now`'s time zone (the local one, `TZ` honoured), with its date when it is
    /// not `now`'s day.
    fn time_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display;
    /// The project a message belongs to (`--all`); `-` for a brief or an audit line.
    fn project_cell(&self) -> String;
    fn kind_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display;
    fn seat_cell(&self) -> String;
    /// A message's DETAIL in its parts: what leads it (an unreachable send's note, with its
    /// space), the sender header its body opens with (`from … — admitted by: …`), the body.
    fn detail_parts(&self) -> (String, Option<String>, String);
    fn detail_cell(&self) -> String;
}

impl Cells for Event {
    fn time_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        local_time(self.ts(), now)
    }

    fn project_cell(&self) -> String {
        match self {
            Event::Message { project: Some(p), .. } => p.clone(),
            _ => "-".to_string(),
        }
    }

    fn kind_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        match self {
            Event::Message { line, read, acked, .. } => {
                let mut parts: Vec<String> = Vec::new();
                if let Some(n) = line.retry {
                    parts.push(format!("retry {n}"));
                }
                if line.note == Some(Note::NeverActed) {
                    parts.push(Note::NeverActed.to_string());
                }
                match (via_words(line), line.ms) {
                    (Some(v), Some(ms)) => parts.push(format!("{v} in {ms} ms")),
                    (Some(v), None) => parts.push(v),
                    (None, Some(ms)) => parts.push(format!("in {ms} ms")),
                    (None, None) => {}
                }
                // the far side's line of a hop: where it came from
                if line.over_ssh {
                    parts.push(match &line.from_host {
                        Some(h) => format!("over ssh from {h}"),
                        None => "over ssh".to_string(),
                    });
                }
                // what decided the outcome, when it is a witness beside the screen — the one the
                // typed leg always reads, left unsaid so the spec's lines stay as they are; the
                // JSON line carries every `by` (docs/status-reports.md)
                let beside_screen = line.by.as_ref().filter(|d| **d != Decider::Screen);
                parts.extend(beside_screen.map(|d| format!("by {}", d.said())));
                parts.extend(read.as_ref().map(|r| read_words(r, |ts| local_time(ts, now))));
                parts.extend(acked.as_ref().map(|a| ack_words(a, |ts| local_time(ts, now))));
                if parts.is_empty() {
                    line.outcome.to_string()
                } else {
                    format!("{} ({})", line.outcome, parts.join(", "))
                }
            }
            Event::Brief { .. } => "brief".to_string(),
            Event::Audit { action, .. } => match action {
                Some(a) => format!("audit ({a})"),
                None => "audit".to_string(),
            },
        }
    }

    fn seat_cell(&self) -> String {
        let pair = |f: &str, t: &str| format!("{f} -> {t}");
        match self {
            Event::Message { line, .. } => pair(&line.from, &line.to),
            Event::Brief { from, to, .. } => pair(from, to),
            Event::Audit { from, to, .. } => match (from, to) {
                (Some(f), Some(t)) => pair(f, t),
                (Some(f), None) => f.clone(),
                (None, Some(t)) => pair("-", t),
                (None, None) => "-".to_string(),
            },
        }
    }

    fn detail_parts(&self) -> (String, Option<String>, String) {
        let Event::Message { line, .. } = self else { return (String::new(), None, self.detail_cell()) };
        let lead = match &line.note {
            Some(n) if line.outcome == Outcome::Unreachable => format!("({}) ", collapse(&n.to_string())),
            _ => String::new(),
        };
        match crate::history::header_split(&line.body) {
            Some((h, b)) => (lead, Some(collapse(h)), collapse(b)),
            None => (lead, None, collapse(&line.body)),
        }
    }

    fn detail_cell(&self) -> String {
        match self {
            // an unreachable send says why, from its history line's note
            Event::Message { line, .. } => match &line.note {
                Some(n) if line.outcome == Outcome::Unreachable => {
                    format!("({}) {}", collapse(&n.to_string()), collapse(&line.body))
                }
                _ => collapse(&line.body),
            },
            Event::Brief { body, path, .. } => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                match body.lines().map(str::trim).find(|l| !l.is_empty()) {
                    Some(first) => format!("{name}: {}", collapse(first)),
                    None => name,
                }
            }
            Event::Audit { detail, .. } => detail.as_deref().map(collapse).unwrap_or_default(),
        }
    }
}

/// `via typed`; a hop's near line names the machine and the far side's leg: `via ssh to lab,
/// typed there`.
fn via_words(line: &crate::history::MessageLine) -> Option<String> {
    let v = line.via.as_ref()?;
    Some(match (v, &line.to_host, &line.far_via) {
        (crate::vocab::outcome::Via::Ssh, Some(h), Some(far)) => format!("via ssh to {h}, {far} there"),
        (crate::vocab::outcome::Via::Ssh, Some(h), None) => format!("via ssh to {h}"),
        _ => format!("via {v}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_each_mark() {
        let at = |sign| ReadMark::At { ts: "2026-11-29T09:00:41Z".into(), sign, ms: Some(41_000) };
        let t = |ts: &str| ts[11..19].to_string();
        assert_eq!(read_words(&at(Sign::Transcript), t), "read 09:00:41");
        assert_eq!(read_words(&at(Sign::Screen), t), "read 09:00:41");
        assert_eq!(read_words(&at(Sign::Status), t), "acted on 09:00:41");
        assert_eq!(read_words(&ReadMark::NotYet, t), "not yet read");
        assert_eq!(read_words(&ReadMark::NeverActed { ts: "2026-11-29T09:01:00Z".into() }, t), "never acted on");
        assert_eq!(ack_words(&AckMark { ts: "2026-11-29T09:02:03Z".into(), note: None }, t), "acked 09:02:03");
    }
}
