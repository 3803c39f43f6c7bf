//! What the Cursor Agent CLI profile knows (from documentation and herdr 0.7.1's phrases only).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about Cursor's agent CLI.
pub fn describe() -> Description {
    Description {
        id: "cursor".into(),
        version: "0.1.0".into(),
        clis: strings(&["Cursor Agent (cursor-agent)"]),
        process_names: strings(&["cursor-agent", "cursor"]),
        native_channel: false,
        // Not measured here; a conservative length for a TUI composer.
        max_trigger: 200,
        working_hints: strings(&["ctrl+c to stop"]),
        // Not measured; 50 ms guards against paste-burst handling as Codex needs it.
        enter_pause_ms: 50,
        // Not documented as queuing: the host waits or holds rather than typing into a busy seat.
        queues_while_working: false,
        // `/` commands, `!` shell mode, `@` context mentions.
        forbidden_starts: strings(&["/", "!", "@"]),
        has_compose: false,
        // Chats are kept in a database, not a documented JSON-lines transcript.
        transcript_patterns: Vec::new(),
        features: strings(&[
            "synthetic-fixtures",
            // How `team up` starts it: `cursor-agent`, the command Cursor's CLI docs name
            // (documented, not run here). Its way out is not declared: no exit key was measured,
            // so `team down` leaves a cursor seat running unless `--force` (docs/launch.md).
            "launch=cursor-agent",
        ]),
    }
}
