//! What the Gemini CLI (`@google/gemini-cli`) profile knows about its CLI: the vendor facts
//! measured on 0.61.0 (docs/more-vendors.md § Gemini CLI).

use profile_kit::{strings, Description};

/// Says who this profile is and what it knows about Gemini CLI.
pub fn describe() -> Description {
    Description {
        id: "gemini-cli".into(),
        version: "0.1.0".into(),
        clis: strings(&["Gemini CLI (@google/gemini-cli)"]),
        // A node bundle started as `gemini` (`node <prefix>/node_modules/.bin/gemini`): `comm`
        // is `node`, argv[1] ends in `/gemini`.
        process_names: strings(&["gemini"]),
        native_channel: false,
        max_trigger: 500,
        working_hints: strings(&["esc to cancel", "title working"]),
        // Measured: text and Enter in one burst stay a draft (a paste guard: the Enter is
        // swallowed, nothing reaches the model); a lone Enter 0.3 s after the text submits.
        enter_pause_ms: 300,
        // Not measured on 0.61.0: never type into a busy Gemini CLI.
        queues_while_working: false,
        // `/` slash commands (`/quit`), `!` shell mode, `@` the file picker, `?` the shortcuts
        // help an empty composer toggles.
        forbidden_starts: strings(&["/", "!", "@", "?"]),
        has_compose: false,
        // `<project>` is the short name `~/.gemini/projects.json` gives the cwd (its basename
        // here): not derivable from the cwd alone, so every project's chats are named.
        transcript_patterns: strings(&["{home}/.gemini/tmp/*/chats/session-*.jsonl"]),
        // Hooks and MCP servers live in the checkout's `.gemini/settings.json` (`hooks` under
        // the events AfterTool, AfterAgent, BeforeAgent, …; `mcpServers`; both read in a
        // trusted folder). The title tracks the state (OSC 0: `◇  Ready`, `✦  Working…`,
        // `✋  Action Required`).
        features: strings(&[
            "hooks=gemini-settings",
            "mcp=gemini-settings",
            // `read_file` refuses what the checkout's git rules ignore (the message drops
            // `.agents/.gitignore` names) unless the root `.geminiignore` lifts it with
            // `!.agents/send-drops/` (measured on 0.61.0, real_cli::inbox_vendors):
            // `team hooks install` writes that line there.
            "ignore-file=.geminiignore",
            "title-state",
            // How `team up` starts it and `team down` asks it to leave (measured on 0.61.0,
            // real_cli::up_vendors: `/quit`, then Enter after the pause, at an empty composer
            // prints its `Agent powering down. Goodbye!` box and returns to the shell;
            // docs/launch.md).
            "launch=gemini",
            "exit=type:/quit enter",
            // Its session transcript's rows of what the model is sent: a hook's context and an
            // AfterAgent block's reason are `user` rows (measured on 0.61.0, real_cli::
            // handover_vendors, tests/data/transcripts/gemini-cli-0.61.0/hook-context.jsonl).
            // It takes the answer of a hook killed after writing it (12 of 12 in 4 runs), as
            // Claude Code does: its hook records the hand-over before it exits.
            "hook-context=type=user",
        ]),
    }
}
