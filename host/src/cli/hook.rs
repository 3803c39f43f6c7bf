//! `team hook <event>`: run by a seat's CLI at its hook events (`team hooks install` writes
//! the command), never by hand. It answers the CLI in the CLI's hook protocol with the seat's
//! waiting messages, or prints nothing.
//!
//! Invariants:
//! - the empty inbox costs one small file read and one directory read, before any team file,
//!   registry, profile or caller is looked at, and before stdin is read;
//! - stdout carries the CLI's answer and nothing else, written whole and unbuffered
//!   ([`Output::answer`]) before anything is recorded as handed; a stdout no CLI reads from
//!   (a terminal, `/dev/null` or a closed one, `/dev/full`) gets nothing, and every claim goes
//!   back; any failure prints nothing there (a CLI would show it as garbage or as the hook's
//!   own words) and says why in the checkout's team.log (or on stderr when no checkout is
//!   known); the exit is always 0, so the CLI's turn goes on whatever happened;
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

/// How long the hook waits for its input: a CLI writes one JSON object and closes stdin at
/// once; one that keeps it open (or writes nothing) must not hold the hook, and its turn.
const INPUT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The CLI's input: what `input` gives until it ends, holds one whole JSON value, reaches
/// `max` bytes, or `wait` passes — whichever comes first (the read goes on in a thread that
/// ends with the process).
fn read_input(mut input: impl Read + Send + 'static, max: u64, wait: std::time::Duration) -> Vec<u8> {
    use std::sync::{Arc, Mutex};
    let got = Arc::new(Mutex::new((Vec::new(), false)));
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let shared = Arc::clone(&got);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            let n = input.read(&mut chunk).unwrap_or(0);
            let mut g = shared.lock().unwrap_or_else(|e| e.into_inner());
            let room = (max as usize).saturating_sub(g.0.len());
            g.0.extend_from_slice(&chunk[..n.min(room)]);
            g.1 = n == 0 || g.0.len() as u64 >= max || serde_json::from_slice::<serde::de::IgnoredAny>(&g.0).is_ok();
            if g.1 {
                let _ = tx.send(());
                return;
            }
        }
    });
    let _ = rx.recv_timeout(wait);
    let g = got.lock().unwrap_or_else(|e| e.into_inner());
    g.0.clone()
}

/// The hook's stdout, as the use-case writes its answer through it.
struct Stdout<'a>(&'a mut Output);

impl inbox::hook::AnswerOut for Stdout<'_> {
    fn unreachable(&mut self) -> Option<String> {
        self.0.answer_place()
    }
    fn write_whole(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.answer(bytes)
    }
}

/// Runs the hook. Always 0.
pub fn run(a: Args, out: &mut Output) -> i32 {
    let input = || read_input(std::io::stdin(), INPUT_MAX, INPUT_WAIT);
    let hooked = inbox::hook::respond(a.event, input, &mut Stdout(out));
    // a problem no checkout's team.log took is said where a maintainer finds it
    for why in &hooked.unlogged {
        out.err(&format!("team hook: {}\n", crate::vocab::text::one_line(why)));
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn hook_events_parse() {
        assert!(parse_event("post-tool-use").is_ok());
        assert!(parse_event("PostToolUse").unwrap_err().contains("post-tool-use, stop"));
    }

    /// issue 29: `team hook` read stdin to its end before anything, so a CLI that kept it open
    /// held the hook (and its own turn) for ever. The object it wrote is taken as soon as it is
    /// whole; a stream that never ends is cut at the wait; a long one at the size.
    #[test]
    fn the_input_is_taken_when_whole_and_bounded_in_time_and_size() {
        let (r, mut w) = std::io::pipe().unwrap();
        w.write_all(br#"{"session_id":"abc","tool_response":"#).unwrap();
        w.write_all(br#"{"x":1}}"#).unwrap();
        // the writer stays open: the whole object ends the read, not the wait
        let got = read_input(r, INPUT_MAX, std::time::Duration::from_secs(600));
        assert_eq!(crate::legs::inbox::HookInput::parse(&got).session_id.as_deref(), Some("abc"));
        drop(w);
        // nothing whole and never closed: the wait ends it with what came
        let (r, mut w) = std::io::pipe().unwrap();
        w.write_all(b"{\"session_id\":").unwrap();
        let got = read_input(r, INPUT_MAX, std::time::Duration::from_millis(50));
        assert_eq!(got, b"{\"session_id\":");
        drop(w);
        // at most `max` bytes
        let got = read_input(std::io::repeat(b' '), 1000, std::time::Duration::from_secs(600));
        assert_eq!(got.len(), 1000);
    }
}
