//! The words `team down` says: one line per seat (`keeper: down (asked with /exit, then Enter;
//! pane %0 closed)`, `keeper: left running in pane %0 — its composer holds a draft (…)`), and
//! the messages its inbox still holds. The command line and the MCP tools print these.
//!
//! Invariant: a draft, a screen's words and an id are shown escaped, on one line.

use crate::vocab::text::one_line;

use super::{Outcome, Report, SeatLine, Why};

fn why(seat: &str, w: &Why) -> String {
    let force = format!("team down {seat} --force ends it");
    match w {
        Why::Draft(t) => format!("its composer holds a draft (\"{}\"); send or clear it, or {force}", one_line(t)),
        Why::Working => format!("it is working; wait for its turn to end, or {force}"),
        Why::Dialog(kind) => format!("it shows a {kind} dialog; answer it there, or {force}"),
        Why::Shows(s) => format!("its screen is not an idle prompt ({}); {force}", one_line(s)),
        Why::NoExit(cli) => format!("the {} profile declares no way out; {force}", one_line(cli)),
        Why::Stayed(exit) => format!("asked with {} and still running after the bound; {force}", one_line(exit)),
    }
}

/// One seat's line.
pub fn line(s: &SeatLine) -> String {
    let seat = one_line(&s.seat);
    let rest = match &s.outcome {
        Outcome::Down { pane, exit } => format!("down (asked with {}; pane {pane} closed)", one_line(exit)),
        Outcome::Gone { pane } => format!("down (its CLI had left; pane {pane} closed)"),
        Outcome::Forced { pane, killed } => {
            format!("down (forced: TERM{}; pane {pane} closed)", if *killed { ", then KILL" } else { "" })
        }
        Outcome::NotRunning => "not running".into(),
        Outcome::LeftRunning { pane, why: w } => format!("left running in pane {pane} — {}", why(&seat, w)),
        Outcome::Failed { why } => format!("not stopped — {}", one_line(why)),
        Outcome::Would { pane, what } => format!("would {what} (pane {pane})"),
    };
    let mut text = format!("{seat}: {rest}");
    if !s.unclaimed.is_empty() {
        let n = s.unclaimed.len();
        text.push_str(&format!(
            "\n{seat}: {n} message{} still wait{} unclaimed in its inbox ({}); {} kept there",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            s.unclaimed.iter().map(|i| one_line(i).into_owned()).collect::<Vec<_>>().join(", "),
            if n == 1 { "it is" } else { "they are" }
        ));
    }
    text
}

/// The run's lines.
pub fn lines(r: &Report) -> String {
    let mut text = String::new();
    for s in &r.seats {
        text.push_str(&line(s));
        text.push('\n');
    }
    if r.dry_run {
        text.push_str("dry run: nothing was stopped\n");
    }
    text
}
