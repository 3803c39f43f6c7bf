//! What the `codex cloud` profile knows about its CLI.

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about `codex cloud`.
pub fn describe() -> Description {
    Description {
        id: "codex-cloud".into(),
        version: "0.1.0".into(),
        clis: strings(&["Codex Cloud Tasks (codex cloud)"]),
        // `codex cloud` is the Codex binary with a subcommand.
        process_names: strings(&["codex"]),
        native_channel: false,
        // No trigger line is ever typed: the brief goes through the compose module.
        max_trigger: 0,
        working_hints: strings(&["submitting"]),
        // The New Task composer is Codex's widget: an Enter in the same burst as typed text
        // is part of the paste (measured on the chat composer, assumed here; the real submit
        // was sent 0.6 s after the text).
        enter_pause_ms: 50,
        queues_while_working: false,
        forbidden_starts: Vec::new(),
        has_compose: true,
        transcript_patterns: Vec::new(),
        // Esc closes the environment chooser: the host's way back after a refusal
        // (docs/grok-and-compose.md part C; never pressed on a page, where Esc cancels New
        // Task without a redraw and quits from the task list).
        features: strings(&["compose", "faint-placeholder", "compose-back=esc"]),
    }
}
