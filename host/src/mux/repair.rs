//! The repairs a refusal gives when the team's session or a seat's pane is not found, in the
//! words of the multiplexer that was asked (tmux's commands, herdr's).
//!
//! Invariant: a sentence names only commands of the multiplexer in use; nothing here runs one.

use super::Mux;

/// How to start the team's session, in the words of the multiplexer.
pub fn start_repair(mux: &dyn Mux, session: &str) -> String {
    if mux.name() == "tmux" {
        format!(
            "start it with {}, run each agent in a pane of it, and mark each pane: team mark <seat>",
            mux.start_command(session).unwrap_or_else(|| format!("tmux new -s {session}"))
        )
    } else {
        format!("start it with herdr --session {session} (docs/multiplexers.md), and name each seat's pane there")
    }
}

/// How to make a pane a seat's, in the words of the multiplexer.
pub fn find_repair(mux: &str, session: &str) -> String {
    if mux == "tmux" {
        format!(
            "mark each seat's pane from inside it: team mark <seat> (or from anywhere: team mark <seat> --pane <id>; tmux list-panes -s -t {session} lists them)"
        )
    } else {
        format!("name each seat's pane in herdr: herdr --session {session} agent rename <pane> <seat> (docs/multiplexers.md)")
    }
}
