//! What the grok-cli (`@vibe-kit/grok-cli`) profile knows about its CLI.

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about grok-cli.
pub fn describe() -> Description {
    Description {
        id: "grok-cli".into(),
        version: "0.1.0".into(),
        clis: strings(&["grok-cli (@vibe-kit/grok-cli)"]),
        // It runs as `node <prefix>/node_modules/.bin/grok`: `comm` is `node`; argv[1] ends in
        // `/grok` (or `grok-cli/dist/index.js`), which is what a detector must look at.
        process_names: strings(&["grok", "grok-cli"]),
        native_channel: false,
        max_trigger: 500,
        working_hints: strings(&["esc to interrupt"]),
        // Measured: text then Enter 0.3 s later submitted every time; shorter was not measured.
        enter_pause_ms: 300,
        // Enter while working starts a second concurrent turn: never type into a busy grok-cli.
        queues_while_working: false,
        // A line whose first word is one of these is run as a shell command by the CLI itself
        // (`directBashCommands`); `exit`/`quit` quit; `/` opens the command list.
        forbidden_starts: strings(&[
            "/", "ls", "pwd", "cd", "cat", "mkdir", "touch", "echo", "grep", "find", "cp", "mv", "rm", "exit", "quit",
        ]),
        has_compose: false,
        // No session history is written: the screen is the only record.
        transcript_patterns: Vec::new(),
        // MCP servers: `mcpServers` in the checkout's `.grok/settings.json` (its `grok mcp add`).
        features: strings(&[
            "faint-placeholder",
            "mcp=grok-settings",
            // How `team up` starts it and `team down` asks it to leave (measured on 0.0.34,
            // real_cli::up_vendors): its screen says "'exit' to quit", and the typed `exit`
            // ends it. One Ctrl-C (Ink's default `exitOnCtrlC`) ended it too while it ran no
            // MCP server (tests/data/screens/grok-cli-0.0.34/live-exited-after-ctrl-c), but with
            // the team's server connected the process outlived it: the UI unmounted, the server's
            // pipes kept it alive (docs/launch.md).
            "launch=grok",
            "exit=type:exit enter",
        ]),
    }
}
