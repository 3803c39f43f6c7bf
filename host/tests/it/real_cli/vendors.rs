//! The seats of the CLIs added after Claude Code and Codex — the real Gemini CLI 0.61.0 and
//! Qwen Code 0.24.4 — each in a marked pane with its own HOME written the way
//! `docs/more-vendors.md` says the CLI starts straight at its prompt, offline, against the mock
//! (Gemini: its own API; Qwen: Chat Completions); and the team file their scenarios use.

use super::harness::{RealWorld, Seat};
use super::mock::PORT;
use serde_json::json;
use std::path::Path;

/// The team file of these scenarios: claude-keeper leads; gem-scout runs Gemini CLI,
/// qwen-coder Qwen Code.
pub const TEAM_FILE: &str = "format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: claude-keeper
    role: coordinator
    cli: claude-code
    leads: true
  - name: gem-scout
    role: scout
    cli: gemini-cli
  - name: qwen-coder
    role: coder
    cli: qwen-code
";

/// What `team init` keeps out of git in `.agents/.gitignore` (docs/first-team.md): the drops
/// among them, which Gemini CLI's `read_file` then refuses to read.
const GITIGNORE: &str = "send-drops/\nteam.log\nteam.state.json\n";

/// The two CLIs as the scenarios name them: the seat, the mock's api word, what starts it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Vendor {
    Gemini,
    Qwen,
}

impl Vendor {
    pub fn seat(self) -> &'static str {
        match self {
            Vendor::Gemini => "gem-scout",
            Vendor::Qwen => "qwen-coder",
        }
    }

    /// The mock's word for the wire this CLI speaks.
    pub fn api(self) -> &'static str {
        match self {
            Vendor::Gemini => "gemini",
            Vendor::Qwen => "chat",
        }
    }

    /// Its profile's id (`cli:` in the team file).
    pub fn profile(self) -> &'static str {
        match self {
            Vendor::Gemini => "gemini-cli",
            Vendor::Qwen => "qwen-code",
        }
    }

    /// Its empty composer at the prompt, with the footer that says the prompt is live.
    pub fn at_prompt(self, screen: &str) -> bool {
        screen.contains("Type your message or @path/to/file")
            && match self {
                Vendor::Gemini => screen.contains("workspace (/directory)"),
                Vendor::Qwen => screen.contains("Ask permissions"),
            }
    }

    /// Its leave command.
    pub fn quit(self) -> &'static str {
        "/quit"
    }
}

impl RealWorld {
    /// A world whose team file is [`TEAM_FILE`] and whose checkout keeps out of git what
    /// `team init` keeps out.
    pub fn start_vendors() -> RealWorld {
        let rw = RealWorld::start_with(TEAM_FILE);
        rw.w.write(&rw.w.repo.join(".agents/.gitignore"), GITIGNORE);
        rw
    }

    /// Starts the real CLI of `v` in a pane marked with its seat's name, with its own HOME;
    /// waits for its prompt.
    pub fn vendor(&self, v: Vendor) -> Seat {
        let seat = self.vendor_started(v);
        self.wait_screen(&seat, &format!("{}'s prompt", v.profile()), |s| v.at_prompt(s));
        seat
    }

    /// Starts the CLI as [`RealWorld::vendor`] does, without waiting for its prompt (a screen
    /// it shows before the prompt is the caller's to wait for).
    pub fn vendor_started(&self, v: Vendor) -> Seat {
        let name = v.seat();
        let home = self.top().join("seats").join(name);
        let mut env = self.seat_env(&home);
        let command = match v {
            Vendor::Gemini => {
                signed_in_gemini(&home, &self.w.repo);
                env.push(("GOOGLE_GEMINI_BASE_URL".into(), format!("http://127.0.0.1:{PORT}")));
                env.push(("GEMINI_API_KEY".into(), "mock-key".into()));
                "gemini"
            }
            Vendor::Qwen => {
                signed_in_qwen(&home, &self.w.repo);
                env.push(("OPENAI_BASE_URL".into(), format!("http://127.0.0.1:{PORT}/v1")));
                env.push(("OPENAI_API_KEY".into(), "mock-key".into()));
                env.push(("OPENAI_MODEL".into(), "mock-model".into()));
                // Without the flag Qwen starts in Auto mode and asks about nothing.
                "qwen --approval-mode default"
            }
        };
        let pane = self.window(name, name, &env, command);
        Seat { name: name.into(), pane, home }
    }
}

/// What a Gemini CLI user signed in with an API key has in `home` (docs/more-vendors.md): no
/// update checks, no usage statistics, the key's auth chosen, and `repo` trusted.
fn signed_in_gemini(home: &Path, repo: &Path) {
    let dir = home.join(".gemini");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = json!({
        "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "security": { "auth": { "selectedType": "gemini-api-key" } },
    });
    std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
    let trusted = json!({ repo.display().to_string(): "TRUST_FOLDER" });
    std::fs::write(dir.join("trustedFolders.json"), trusted.to_string()).unwrap();
}

/// What a Qwen Code user of an OpenAI-compatible provider has in `home` (docs/more-vendors.md):
/// the provider's auth and model chosen, no update checks or statistics, and `repo` trusted.
fn signed_in_qwen(home: &Path, repo: &Path) {
    let dir = home.join(".qwen");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = json!({
        "security": { "auth": { "selectedType": "openai" } },
        "model": { "name": "mock-model" },
        "general": { "enableAutoUpdate": false },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
    });
    std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
    let trusted = json!({ repo.display().to_string(): "TRUST_FOLDER" });
    std::fs::write(dir.join("trustedFolders.json"), trusted.to_string()).unwrap();
}
