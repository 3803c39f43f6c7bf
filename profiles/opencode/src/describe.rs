//! What the opencode (`opencode-ai`) profile knows about its CLI: the vendor facts measured on
//! 1.18.33 (docs/more-vendors.md § opencode).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about opencode.
pub fn describe() -> Description {
    Description {
        id: "opencode".into(),
        version: "0.1.0".into(),
        clis: strings(&["opencode (opencode-ai)"]),
        // A Bun-compiled binary (`opencode-linux-x64`) the npm wrapper links and starts as
        // `opencode`.
        process_names: strings(&["opencode"]),
        native_channel: false,
        max_trigger: 500,
        // The status row under the composer while a turn runs: `■■■■⬝⬝⬝⬝  esc interrupt`.
        working_hints: strings(&["esc interrupt"]),
        // Measured: text and Enter in one burst submitted; Enter 0.3 s after the text did too.
        enter_pause_ms: 50,
        // Not measured: never type into a busy opencode.
        queues_while_working: false,
        // `/` slash commands, `@` the file and agent picker.
        forbidden_starts: strings(&["/", "@"]),
        has_compose: false,
        // Sessions live in SQLite (`~/.local/share/opencode/opencode.db`): no transcript rows.
        transcript_patterns: Vec::new(),
        // No shell-command hooks (JS/TS plugins only); MCP servers under `mcp` in the
        // checkout's `opencode.json`; the window title is the session's.
        features: strings(&[
            "mcp=opencode-json",
            // How `team up` starts it and `team down` asks it to leave (measured on 1.18.33,
            // real_cli::up_vendors: one Ctrl-C at an empty composer closes the alternate screen
            // and prints `Continue  opencode -s ses_…`; docs/launch.md).
            "launch=opencode",
            "exit=ctrl-c",
        ]),
    }
}
