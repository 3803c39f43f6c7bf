//! The words `team status` says: the seats' table (SEAT, PANE, CLI, READS, the multiplexer's
//! STATUS, LAST, and SEND from a seat's pane) under the context line, the count, a line for
//! each reason a screen is not read, the panes no seat holds, and the MCP and hooks lines.
//!
//! Invariant: words only — every cell is text from outside, escaped (`one_line`); nothing
//! here reads or decides.

use super::extras::{self, HooksRow};
use super::{age_words, Reads, Row, StatusReport};
use crate::error::context_line;
use crate::vocab::table::{short, table};
use crate::vocab::text::one_line;

/// The lines under the table: `MCP …` and `Hooks …`, each only once it has something to say.
pub fn extras_said(mcp: &[crate::mcp::install::Row], hooks: &[HooksRow]) -> String {
    format!("{}{}", mcp_line(mcp), hooks_line(hooks))
}

/// `MCP: claude-keeper installed, gpt-reviewer missing` — only once some seat's CLI names the
/// server (a team that never installed it reads as before).
fn mcp_line(rows: &[crate::mcp::install::Row]) -> String {
    if !extras::mcp_shown(rows) {
        return String::new();
    }
    let cells: Vec<String> = rows.iter().map(|r| format!("{} {}", one_line(&r.seat), r.state.word())).collect();
    format!("MCP (team mcp status): {}\n", cells.join(", "))
}

/// `Hooks (team hooks status): rev runs them (last handed a message 2026-…), keeper missing` —
/// only once some seat's checkout runs team's hooks or an inbox holds a message (a team that
/// never installed them reads as before).
fn hooks_line(rows: &[HooksRow]) -> String {
    use crate::hooks::State;
    if !extras::hooks_shown(rows) {
        return String::new();
    }
    let cells: Vec<String> = rows
        .iter()
        .filter(|r| r.state != State::Unsupported || r.waiting > 0)
        .map(|r| {
            let seen = match (&r.last_handed, r.state.runs()) {
                (Some(t), _) => format!(" (last handed a message {t})"),
                (None, true) => " (never seen running)".into(),
                _ => String::new(),
            };
            let waiting = match r.waiting {
                0 => String::new(),
                1 => "; 1 message waits in its inbox".into(),
                n => format!("; {n} messages wait in its inbox"),
            };
            format!("{} {}{seen}{waiting}", one_line(&r.seat), r.state.word())
        })
        .collect();
    format!("Hooks (team hooks status): {}\n", cells.join(", "))
}

/// What the READS cell says.
fn reads_cell(r: &Reads) -> String {
    match r {
        Reads::Idle { last_error: None } => "idle".into(),
        Reads::Idle { last_error: Some(e) } => {
            format!("idle (the last turn ended in a {})", e.word().replace('_', " "))
        }
        Reads::Working { hint } if hint.is_empty() => "working".into(),
        Reads::Working { hint } => format!("working: {}", short(hint, 40)),
        Reads::Dialog { kind, .. } => format!("dialog: {}", kind.label()),
        Reads::Draft { text } => format!("draft: {:?}", short(text, 32)),
        Reads::Starting => "starting".into(),
        Reads::Exited => "exited".into(),
        Reads::Unknown { .. } => "unknown".into(),
        Reads::NotFound { .. } => "not found".into(),
        Reads::Unreadable { .. } => "unreadable".into(),
    }
}

fn last_cell(row: &Row) -> String {
    match &row.last {
        None => "-".into(),
        Some(l) => match l.age_s {
            Some(s) => format!("{} {} ago", l.outcome, age_words(s)),
            None => l.outcome.to_string(),
        },
    }
}

/// The table, the count, and a line for each seat whose row needs its reason.
pub fn plain(r: &StatusReport) -> String {
    let mut text = String::new();
    if let Some((p, s)) = &r.context {
        text.push_str(&context_line(p, s));
    }
    if !r.rows.is_empty() {
        text.push_str(&seat_table(r));
    }
    text.push_str(&r.summary());
    text.push('\n');
    text.push_str(&why_lines(r));
    if r.caller_seat.is_some() {
        text.push_str(&format!(
            "SEND: the rule that admits {} sending to the seat, or no (docs/admission.md)\n",
            one_line(&r.caller)
        ));
    }
    if !r.unplaced.is_empty() {
        text.push_str(&unplaced_table(r));
    }
    text
}

/// The seats' table: SEAT, PANE, CLI, READS, the multiplexer's STATUS when it gives one,
/// LAST, and SEND when run from a seat's pane (which seats it may send to, by which rule).
fn seat_table(r: &StatusReport) -> String {
    let with_status = r.rows.iter().any(|row| row.mux_status.is_some());
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head: Vec<String> = ["SEAT", "PANE", "CLI", "READS"].map(String::from).to_vec();
    if with_status {
        head.push("STATUS".into());
    }
    head.push("LAST".into());
    let from_seat = r.caller_seat.is_some();
    if from_seat {
        head.push("SEND".into());
    }
    rows.push(head);
    for row in &r.rows {
        let name = if row.stopped { format!("{} (stopped)", row.name) } else { row.name.clone() };
        let mut cells = vec![
            one_line(&name).into_owned(),
            pane_cell(row),
            one_line(&row.cli).into_owned(),
            one_line(&reads_cell(&row.reads)).into_owned(),
        ];
        if with_status {
            cells.push(row.mux_status.map(|s| s.word()).unwrap_or("-").into());
        }
        cells.push(last_cell(row));
        if from_seat {
            cells.push(send_cell(r, row));
        }
        rows.push(cells);
    }
    table(&rows)
}

/// What the PANE cell says: the pane, and the machine it is on when not this one
/// (`%3 on lab`, `- on lab` when that machine gave no pane).
fn pane_cell(row: &Row) -> String {
    let pane = row.pane.as_deref().map(|p| one_line(p).into_owned()).unwrap_or_else(|| "-".into());
    match &row.host {
        Some(h) => format!("{pane} on {}", one_line(&h.name)),
        None => pane,
    }
}

/// One line per reason a screen is not read, naming every seat it holds for; then one line per
/// other machine whose `team` is another version than this one.
fn why_lines(r: &StatusReport) -> String {
    let mut text: String = r
        .whys()
        .into_iter()
        .map(|(why, names)| format!("{}: {}\n", one_line(&names.join(", ")), one_line(why)))
        .collect();
    let mut said: Vec<&str> = Vec::new();
    for h in r.rows.iter().filter_map(|row| row.host.as_ref()) {
        if let Some(v) = h.other_version().filter(|_| !said.contains(&h.name.as_str())) {
            said.push(&h.name);
            text.push_str(&format!(
                "{}: its team is {}, this one {} (its seats read by its own)\n",
                one_line(&h.name),
                one_line(v),
                crate::legs::remote::doc::version()
            ));
        }
    }
    text
}

/// The panes of the session no seat holds, after their heading line.
fn unplaced_table(r: &StatusReport) -> String {
    let session = r.context.as_ref().map(|c| c.1.as_str()).unwrap_or("");
    let mut text = format!("panes of session \"{}\" that no seat holds:\n", one_line(session));
    let cells: Vec<Vec<String>> = r
        .unplaced
        .iter()
        .map(|u| {
            let mut cells = vec![
                one_line(&u.pane).into_owned(),
                format!("{} ({})", one_line(&u.process), one_line(&u.cli)),
                one_line(&u.mark_line()).into_owned(),
            ];
            // a pane two seats of its CLI may be: name them
            if u.seats.len() > 1 {
                cells.push(format!("(<seat>: {})", one_line(&u.seats.join(" or "))));
            }
            cells
        })
        .collect();
    text.push_str(&table(&cells));
    text
}

/// What the SEND cell says: the rule that admits the caller, `no`, or `(you)` on its own row.
fn send_cell(r: &StatusReport, row: &Row) -> String {
    let own_team = r.context.is_some() && !row.name.contains('@');
    if own_team && r.caller_seat.as_deref() == Some(row.name.as_str()) {
        return "(you)".into();
    }
    row.admitted_by.as_deref().map(|w| one_line(w).into_owned()).unwrap_or_else(|| "no".into())
}
