//! What the Codex profile knows about its CLI.

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about Codex.
pub fn describe() -> Description {
    Description {
        id: "codex".into(),
        version: "0.1.0".into(),
        clis: strings(&["Codex"]),
        // `bin/codex.js` (node) execs the vendored musl binary `codex`.
        process_names: strings(&["codex"]),
        native_channel: false,
        // Codex turns a large paste into `[Pasted Content n chars]`; a trigger stays far below.
        max_trigger: 500,
        working_hints: strings(&["esc to interrupt", "title spinner"]),
        // Measured: an Enter in the same burst as the text becomes a newline; ≥ 50 ms submits.
        enter_pause_ms: 50,
        // Enter while working steers the running turn (it is taken, not lost); Tab queues.
        queues_while_working: true,
        // `/` slash commands, `!` runs a local shell command, `@` opens the file search popup.
        forbidden_starts: strings(&["/", "!", "@"]),
        has_compose: false,
        transcript_patterns: strings(&["{home}/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl"]),
        // The default `codex app-server` daemon (started by a CODEX_HOME's first window) runs
        // every Codex session's commands with that window's environment and ancestry, so its
        // pane cannot vouch for a caller under it; `--no-daemon` runs each window's own.
        features: strings(&[
            "faint-placeholder",
            "title-spinner",
            "transcript-read-proof",
            "unverifiable-ancestor=codex app-server|start Codex with `codex --no-daemon`, so each window runs its own commands",
            "hooks=codex-hooks-json",
            // MCP servers: `[mcp_servers.<name>]` in the checkout's `.codex/config.toml`.
            "mcp=codex-config-toml",
            // How `team up` starts it (each window its own commands, as above) and how `team
            // down` asks it to leave (measured on 0.171.0: one Ctrl-C at an empty composer quits
            // with status 0; with a draft it clears the draft instead; docs/launch.md).
            "launch=codex --no-daemon",
            "exit=ctrl-c",
            // The rollout's conversation items are what the model is sent: a hook's context is a
            // `developer` message, a Stop hook's reason a `user` one (measured on 0.171.0,
            // tests/data/transcripts/codex-0.171.0/hook-context.jsonl).
            "hook-context=payload.type=message",
            // It takes a hook's answer only from a hook that exits: the answer of one killed
            // after writing it whole is dropped (measured on 0.171.0, real_cli::handover;
            // docs/inbox.md). A hand-over is recorded once its transcript shows it.
            "hook-answer=on-exit",
            // It writes OSC 7501 status reports (`state=idle|working|blocked:app=codex`)
            // whenever its stdout is a terminal, with no probe (measured on 0.171.0,
            // docs/status-reports.md): a pipe on its pane reads them.
            "status-reports=osc7501",
        ]),
    }
}
