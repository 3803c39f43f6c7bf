//! What the Claude Code profile knows about its CLI.

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about Claude Code.
pub fn describe() -> Description {
    Description {
        id: "claude-code".into(),
        version: "0.1.0".into(),
        clis: strings(&["Claude Code"]),
        // The npm package hard-links its native ELF over `bin/claude.exe`; it runs as `claude`.
        process_names: strings(&["claude", "claude.exe"]),
        native_channel: true,
        // Claude collapses a long paste into `[Pasted text #n]`; a trigger stays far below that.
        max_trigger: 500,
        working_hints: strings(&["esc to interrupt", "spinner row", "title spinner"]),
        // Measured: Claude Code submitted text + Enter sent with no pause; 30 ms is a margin.
        enter_pause_ms: 30,
        // Enter while working queues the line (`Press up to edit queued messages`).
        queues_while_working: true,
        // `!` runs a shell command, `/` a slash command, `#` (older builds) writes memory,
        // `@` opens the file picker (Enter would pick a file), `&` hands the task to the background.
        forbidden_starts: strings(&["!", "/", "#", "@", "&"]),
        has_compose: false,
        transcript_patterns: strings(&["{home}/.claude/projects/{cwd-dashed}/*.jsonl"]),
        // The sessions registry every interactive session writes from startup
        // (docs/claude-native-channel.md): its socket and the name SendMessage addresses.
        features: strings(&[
            "faint-placeholder",
            "held-message",
            "transcript-read-proof",
            "native-sessions={home}/.claude/sessions/{pid}.json",
            "hooks=claude-settings",
            // MCP servers: `mcpServers` in the checkout's `.mcp.json`.
            "mcp=mcp-json",
            "mcp-owner-approval=claude-settings-local",
            // How `team up` starts it and `team down` asks it to leave (measured on 2.1.332:
            // `/exit` then Enter at an empty composer quits with status 0; docs/launch.md).
            "launch=claude",
            "exit=type:/exit enter",
            // The transcript rows that hold what the model was sent from a hook (measured on
            // 2.1.332, tests/data/transcripts/claude-code-2.1.332/hook-context.jsonl): a
            // PostToolUse or UserPromptSubmit hook's context, a Stop hook's reason, and the
            // request blobs themselves. (A `hook_success` row echoes a hook's stdout whatever
            // became of it: not one of these.)
            "hook-context=attachment.type=hook_additional_context",
            "hook-context=attachment.type=hook_blocking_error",
            "hook-context=type=api-request-blob",
        ]),
    }
}
