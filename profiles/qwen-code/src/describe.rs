//! What the Qwen Code (`@qwen-code/qwen-code`) profile knows about its CLI: the vendor facts
//! measured on 0.24.4 (docs/more-vendors.md § Qwen Code).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about Qwen Code.
pub fn describe() -> Description {
    Description {
        id: "qwen-code".into(),
        version: "0.1.0".into(),
        clis: strings(&["Qwen Code (@qwen-code/qwen-code)"]),
        // A node bundle started as `qwen`: `comm` is `node`, argv[1] ends in `/qwen`.
        process_names: strings(&["qwen"]),
        native_channel: false,
        max_trigger: 500,
        working_hints: strings(&["esc to cancel", "title responding"]),
        // Measured: text and Enter in one burst submitted; Enter 0.3 s after the text did too.
        // 50 ms keeps the Enter a separate key for the TUI.
        enter_pause_ms: 50,
        // Enter while working steers the running turn, Ctrl+Q queues (the footer says so);
        // neither was measured: never type into a busy Qwen Code.
        queues_while_working: false,
        // `/` slash commands (`/quit`), `!` shell commands, `@` the file picker.
        forbidden_starts: strings(&["/", "!", "@"]),
        has_compose: false,
        // `~/.qwen/projects/<cwd>/chats/<session uuid>.jsonl`, the cwd with every character that
        // is not an ASCII letter or digit as `-` (its `sanitizeCwd`): `{cwd-dashed}`, proven on
        // a checkout whose path holds `_` and a space (the real-CLI tier).
        transcript_patterns: strings(&["{home}/.qwen/projects/{cwd-dashed}/chats/*.jsonl"]),
        // Claude-compatible hooks under `hooks`, and MCP servers under `mcpServers`, in the
        // checkout's `.qwen/settings.json` (a workspace MCP server starts only once a person
        // approved it). The title tracks the state (`Qwen - <dir>`, `◐︎` responding, `✳︎`
        // confirming).
        features: strings(&[
            "hooks=qwen-settings",
            "mcp=qwen-settings",
            "mcp-approval=Qwen Code asks once, on its `Untrusted MCP server` screen, to approve the server",
            "title-state",
            // How `team up` starts it and `team down` asks it to leave (measured on 0.24.4,
            // real_cli::up_vendors: `/quit` then Enter at an empty composer leaves the alternate
            // screen with its `qwen --resume <uuid>` hint; docs/launch.md). Plain `qwen` starts
            // in its Auto approval mode: a `launch:` line can add `--approval-mode default`.
            "launch=qwen",
            "exit=type:/quit enter",
        ]),
    }
}
