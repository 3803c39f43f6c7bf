//! The words `team up` and `team add` say: one line per seat (`keeper: up (claude-code 2.1.332
//! in %0, idle)`; a CLI whose version is not known says so: `rev: up (codex in %1, idle;
//! version unknown)`), and a pane as a refusal names it. The command line and the MCP tools print these.
//!
//! Invariant: every value from outside (a launch line, a screen row, a mark) is shown escaped,
//! on one line.

use crate::mux::PaneInfo;
use crate::vocab::text::one_line;

use super::{Outcome, Report, SeatLine, Verb};

/// `%3 (marked keeper)` / `%4`.
pub fn pane_named(p: &PaneInfo) -> String {
    if p.name.is_empty() {
        p.id.clone()
    } else {
        format!("{} (marked {})", p.id, one_line(&p.name))
    }
}

/// The command that tries again.
fn again(verb: Verb, seat: &str) -> String {
    match verb {
        Verb::Up => "team up again".into(),
        Verb::Add => format!("team add {seat} again"),
    }
}

/// One seat's line.
pub fn line(verb: Verb, s: &SeatLine) -> String {
    let seat = one_line(&s.seat);
    let rest = match &s.outcome {
        Outcome::Up { cli, version: Some(v), pane } => format!("up ({cli} {} in {pane}, idle)", one_line(v)),
        Outcome::Up { cli, version: None, pane } => format!("up ({cli} in {pane}, idle; version unknown)"),
        Outcome::Already { pane } => format!("already running (pane {pane})"),
        Outcome::Unrecorded { pane } => format!(
            "already running in pane {pane}, which no record of this team names; team register {seat} records it"
        ),
        Outcome::Waiting { pane, dialog } => {
            format!("waiting for you ({dialog} in pane {pane}; answer it there, then {})", again(verb, &s.seat))
        }
        Outcome::NotApproved { line, other } => format!(
            "not started — its launch: line {}: {}; the owner approves it, once read, with: team trust launch {seat}",
            if *other { "changed since the owner approved it" } else { "is not approved" },
            one_line(line)
        ),
        Outcome::NoLaunch { cli } => format!(
            "not started — it has no launch: line, and the {} profile declares no launch; write one in the team file",
            one_line(cli)
        ),
        Outcome::StoppedInFile => "not started — it is stopped in the team file".into(),
        Outcome::Exited { pane, last } => {
            let rows: Vec<String> = last.iter().map(|r| one_line(r).into_owned()).collect();
            if rows.is_empty() {
                format!("exited (pane {pane} shows nothing)")
            } else {
                format!("exited (its last screen lines in pane {pane}: {})", rows.join(" / "))
            }
        }
        Outcome::NotReady { pane, shows, secs } => format!(
            "not ready after {secs} s (pane {pane}: {}); {} once it is at its prompt",
            one_line(shows),
            again(verb, &s.seat)
        ),
        Outcome::Failed { why } => format!("not started — {}", one_line(why)),
        Outcome::NotRecorded { pane, why } => {
            format!("started in pane {pane}, at its prompt, and not recorded: {}", one_line(why))
        }
        Outcome::WouldStart { line, own } => format!(
            "would start — {} ({})",
            one_line(line),
            if *own { "its profile's launch" } else { "its approved launch: line" }
        ),
    };
    format!("{seat}: {rest}")
}

/// The run's lines: the notes, then one line per seat.
pub fn lines(r: &Report) -> String {
    let mut text = String::new();
    for n in &r.notes {
        text.push_str(&one_line(n));
        text.push('\n');
    }
    for s in &r.seats {
        text.push_str(&line(r.verb, s));
        text.push('\n');
    }
    if r.dry_run {
        text.push_str("dry run: nothing was started\n");
    }
    text
}
