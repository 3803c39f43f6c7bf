//! `team send all`'s rendering: one line per seat (each as `team send <seat>` would say it,
//! without the context line), the summary, and the `team.send.all` document; exit 0 only when
//! every seat took the message (`send::all`).

use crate::error::context_line;
use crate::output::Output;
use crate::send::{self, DryRun, Outcome, SendReport};
use crate::vocab::text::one_line;

use super::send::{history_words, via_words, watch_words};

/// A notify command that failed, said on stderr (plain runs; the team.log line keeps it too).
pub(super) fn notify_words(r: &SendReport, json: bool, out: &mut Output) {
    if let (false, Some(p)) = (json, &r.notify) {
        out.err(&format!("team send: {}\n", one_line(p)));
    }
}

/// One seat's row of a broadcast: its outcome line as a single send would print it (without
/// the context line).
fn row_line(row: &send::all::Row) -> String {
    use send::all::Row;
    match row {
        Row::Refused { seat, error } => {
            let m = error.sentence.as_str();
            format!("{seat}: refused: {}", m.strip_prefix(&format!("{seat}: ")).unwrap_or(m))
        }
        Row::Sent(r) => {
            let seat = &r.seat;
            match &r.outcome {
                Outcome::DryRun(DryRun::Send { channel: Some(leg), .. }) => {
                    format!("{seat}: dry-run: {} via {}", r.cli, via_words(*leg))
                }
                Outcome::DryRun(_) => {
                    format!("{seat}: dry-run: unreachable: no leg of its delivery order would take the send")
                }
                o if o.delivered().is_some() => match o.delivered().flatten() {
                    Some(n) => format!("{seat}: delivered ({n}){}", history_words(&r.history)),
                    None => format!("{seat}: delivered{}", history_words(&r.history)),
                },
                Outcome::Recorded { .. } => format!("{seat}: delivered{}", history_words(&r.history)),
                Outcome::Ended(e) if e.is_refused() => format!("{seat}: refused: {}", e.reason()),
                other => {
                    let (_, reason) = other.failure().expect("a failure");
                    format!("{seat}: {} ({reason}){}{}", other.word(), history_words(&r.history), watch_words(r))
                }
            }
        }
    }
}

/// `team send all`: one line per seat and the summary; exit 0 only when every seat took it.
pub(super) fn render(f: &send::all::Fanout, dry_run: bool, json: bool, out: &mut Output) -> i32 {
    use send::all::Row;
    let summary = f.summary(dry_run);
    let code = if f.done() { 0 } else { 1 };
    if json {
        out.doc(&f.document(dry_run, row_line));
        return code;
    }
    for r in &f.rows {
        if let Row::Sent(s) = r {
            notify_words(s, json, out);
        }
    }
    let mut text = context_line(&f.project, &f.session);
    for r in &f.rows {
        text.push_str(&one_line(&row_line(r)));
        text.push('\n');
    }
    text.push_str(&summary);
    text.push('\n');
    out.out(&text);
    code
}
