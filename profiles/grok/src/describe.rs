//! What the Grok Build (`grok`) profile knows (from herdr 0.7.1's documented phrases only).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about xAI's Grok Build CLI.
pub fn describe() -> Description {
    Description {
        id: "grok".into(),
        version: "0.1.0".into(),
        clis: strings(&["Grok Build (xAI)"]),
        process_names: strings(&["grok", "grok-build"]),
        native_channel: false,
        max_trigger: 200,
        working_hints: strings(&["ctrl+c:cancel", "spinner row"]),
        enter_pause_ms: 50,
        // `ctrl+enter:interject` while working suggests plain Enter is not a queue: wait or hold.
        queues_while_working: false,
        forbidden_starts: strings(&["/", "!", "@"]),
        has_compose: false,
        transcript_patterns: Vec::new(),
        features: strings(&[
            "synthetic-fixtures",
            // How `team up` starts it: `grok`, the name herdr's manifest detects Grok Build by
            // (documented, not run here: Grok Build is not on npm). Its way out is not declared:
            // none was measured, so `team down` leaves a grok seat running unless `--force`
            // (docs/launch.md).
            "launch=grok",
        ]),
    }
}
