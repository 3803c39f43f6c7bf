//! What the GitHub Copilot CLI (`@github/copilot`) profile knows about its CLI: the vendor
//! facts measured on 1.0.102 (docs/more-vendors.md § GitHub Copilot CLI).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about GitHub Copilot CLI.
pub fn describe() -> Description {
    Description {
        id: "copilot".into(),
        version: "0.1.0".into(),
        clis: strings(&["GitHub Copilot CLI (@github/copilot)"]),
        // A node loader (`npm-loader.js`, started as `copilot`) that runs the single-executable
        // binary it extracted under `$COPILOT_CACHE_HOME/pkg/linux-x64/<version>/`.
        process_names: strings(&["copilot"]),
        native_channel: false,
        max_trigger: 500,
        // The footer while a turn runs: ` ◎ Working esc esc edit prompt`, then `· 23 B esc esc
        // interrupt` once bytes stream.
        working_hints: strings(&["esc esc edit prompt", "esc esc interrupt"]),
        // Measured: text and Enter in one burst submitted; Enter 0.3 s after the text did too.
        enter_pause_ms: 50,
        // Not measured: never type into a busy Copilot CLI.
        queues_while_working: false,
        // `/` slash commands (`/exit`); while text is typed the footer offers `@ files` and
        // `# issues` pickers.
        forbidden_starts: strings(&["/", "@", "#"]),
        has_compose: false,
        transcript_patterns: strings(&["{home}/.copilot/session-state/*/events.jsonl"]),
        // Hooks (measured on 1.0.102, docs/inbox.md): `hooks` in the checkout's
        // `.github/copilot/settings.local.json` (repository settings kept out of git; loaded in
        // a trusted folder, offline too), keyed by Copilot's camelCase events, each a list of
        // `{"type": "command", "command": …}`; the command gets camelCase JSON on stdin and a
        // bare `additionalContext` it answers reaches the model (after a tool: appended to the
        // tool's result; at a prompt: in a `<system_reminder>`), `agentStop`'s `decision: block`
        // reason becomes the next prompt. MCP servers: `mcpServers` in the checkout's
        // `.mcp.json` (or `.github/mcp.json`), as Claude Code's. The window title is the
        // session's, not its state.
        features: strings(&[
            "hooks=copilot-settings",
            "mcp=mcp-json",
            // How `team up` starts it and `team down` asks it to leave (measured on 1.0.102,
            // real_cli::up_vendors: `/exit` then Enter at an empty composer leaves the alternate
            // screen with its `Resume copilot --resume=…` hint; docs/launch.md).
            "launch=copilot",
            "exit=type:/exit enter",
            // Its session transcript's rows of what the model is sent: a prompt hook's context
            // and an `agentStop` block's reason in `user.message` rows, a tool hook's in the
            // tool's `tool.execution_complete` row (measured on 1.0.102, real_cli::
            // handover_vendors, tests/data/transcripts/copilot-1.0.102/hook-context.jsonl).
            "hook-context=type=user.message",
            "hook-context=type=tool.execution_complete",
            // Only `agentStop`'s input names the transcript; every input names the session,
            // whose transcript is this file of the CLI's HOME.
            "hook-transcript={home}/.copilot/session-state/{session}/events.jsonl",
            // It takes a hook's answer only from a hook that exits: the answer of one killed
            // after writing it whole is dropped, at every event (measured on 1.0.102, 3 of 3
            // killed answers dropped in each of 4 runs, real_cli::handover_vendors; docs/inbox.md).
            "hook-answer=on-exit",
        ]),
    }
}
