//! What the agy (Antigravity CLI) profile knows (from documentation and herdr 0.7.1's phrases only).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about agy.
pub fn describe() -> Description {
    Description {
        id: "agy".into(),
        version: "0.1.0".into(),
        clis: strings(&["agy (Antigravity CLI)"]),
        process_names: strings(&["agy", "antigravity"]),
        native_channel: false,
        max_trigger: 200,
        working_hints: strings(&["spinner row", "esc to cancel"]),
        // Not measured; 50 ms guards against paste-burst handling.
        enter_pause_ms: 50,
        // Not documented as queuing: wait or hold.
        queues_while_working: false,
        forbidden_starts: strings(&["/", "!", "@"]),
        has_compose: false,
        transcript_patterns: Vec::new(),
        features: strings(&[
            "synthetic-fixtures",
            // How `team up` starts it: `agy`, its process name (documented, not run here). Its
            // way out is not declared: none was measured, so `team down` leaves an agy seat
            // running unless `--force` (docs/launch.md).
            "launch=agy",
        ]),
    }
}
