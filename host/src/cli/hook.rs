//! `team hook <event>`: run by a seat's CLI at its hook events (`team hooks install` writes
//! the command), never by hand. It answers the CLI in the CLI's hook protocol with the seat's
//! waiting messages, or prints nothing.
//!
//! Invariants:
//! - the empty inbox costs one small file read and one directory read, before any team file,
//!   registry, profile or caller is looked at, and before stdin is read;
//! - stdout carries the CLI's answer and nothing else; any failure prints nothing there (a CLI
//!   would show it as garbage or as the hook's own words) and says why in the checkout's
//!   team.log (or on stderr when no checkout is known); the exit is always 0, so the CLI's turn
//!   goes on whatever happened;
//! - `Stop` blocks only while something is handed (a Stop hook that always blocks keeps the
//!   turn going forever).

use std::io::Read;

use crate::legs::inbox;
use crate::output::Output;
use crate::vocab::hook_event::Event;

/// Arguments of `team hook`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Run by a seat's CLI at its hook events (team hooks install writes the command); \
not by hand. With nothing in the seat's inbox it prints nothing. docs/inbox.md says more.")]
pub struct Args {
    /// The hook event: post-tool-use, stop, user-prompt-submit or session-start.
    #[arg(value_parser = parse_event)]
    pub event: Event,
}

fn parse_event(s: &str) -> Result<Event, String> {
    Event::from_word(s)
        .ok_or_else(|| format!("{s} is no hook event team answers ({})", Event::ALL.map(Event::word).join(", ")))
}

/// The largest stdin read: a PostToolUse input carries the tool's whole output, and only its
/// first fields are wanted; past this the session id is simply not recorded.
const INPUT_MAX: u64 = 4 << 20;

/// Runs the hook. Always 0.
pub fn run(a: Args, out: &mut Output) -> i32 {
    let read_input = || {
        let mut raw = Vec::new();
        let _ = std::io::stdin().lock().take(INPUT_MAX).read_to_end(&mut raw);
        raw
    };
    let hooked = inbox::hook::respond(a.event, read_input);
    // a problem no checkout's team.log took is said where a maintainer finds it
    for why in &hooked.unlogged {
        out.err(&format!("team hook: {}\n", crate::vocab::text::one_line(why)));
    }
    if let Some(answer) = &hooked.answer {
        out.json_line(answer);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_events_parse() {
        assert!(parse_event("post-tool-use").is_ok());
        assert!(parse_event("PostToolUse").unwrap_err().contains("post-tool-use, stop"));
    }
}
