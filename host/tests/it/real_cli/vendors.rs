//! The seats of the CLIs added after Claude Code and Codex — the real Gemini CLI 0.61.0, Qwen
//! Code 0.24.4, GitHub Copilot CLI 1.0.102 and opencode 1.18.33 — each in a marked pane with its
//! own HOME written the way `docs/more-vendors.md` says the CLI starts straight at its prompt,
//! offline, against the mock (Gemini: its own API; the others: Chat Completions); what each
//! draws where the scenarios look; and the team file their scenarios use.

use super::harness::{repo_dir, RealWorld, Seat};
use super::mock::PORT;
use serde_json::json;
use std::path::{Path, PathBuf};

/// The team file of these scenarios: claude-keeper leads; one seat per CLI.
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
  - name: pilot
    role: reviewer
    cli: copilot
  - name: open-coder
    role: coder
    cli: opencode
";

/// What `team init` keeps out of git in `.agents/.gitignore` (docs/first-team.md): the drops
/// among them, which Gemini CLI's `read_file` then refuses to read.
const GITIGNORE: &str = "send-drops/\nteam.log\nteam.state.json\n";

/// The CLIs as the scenarios name them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Vendor {
    Gemini,
    Qwen,
    Copilot,
    Opencode,
}

/// How a CLI is left: a command typed at its prompt, or a key.
pub enum Leave {
    Typed(&'static str),
    Key(&'static str),
}

impl Vendor {
    pub fn seat(self) -> &'static str {
        match self {
            Vendor::Gemini => "gem-scout",
            Vendor::Qwen => "qwen-coder",
            Vendor::Copilot => "pilot",
            Vendor::Opencode => "open-coder",
        }
    }

    /// The mock's word for the wire this CLI speaks.
    pub fn api(self) -> &'static str {
        match self {
            Vendor::Gemini => "gemini",
            _ => "chat",
        }
    }

    /// Its profile's id (`cli:` in the team file).
    pub fn profile(self) -> &'static str {
        match self {
            Vendor::Gemini => "gemini-cli",
            Vendor::Qwen => "qwen-code",
            Vendor::Copilot => "copilot",
            Vendor::Opencode => "opencode",
        }
    }

    /// Its empty composer at the prompt, with what says the prompt is live.
    pub fn at_prompt(self, screen: &str) -> bool {
        match self {
            Vendor::Gemini => {
                screen.contains("Type your message or @path/to/file") && screen.contains("workspace (/directory)")
            }
            Vendor::Qwen => screen.contains("Type your message or @path/to/file") && screen.contains("Ask permissions"),
            Vendor::Copilot => {
                screen.lines().any(|l| l.trim_end() == "❯") && screen.contains("Interactive · Manual Approval")
            }
            Vendor::Opencode => screen.contains("┃  Ask anything…") && screen.contains("Build · Mock Model"),
        }
    }

    /// The composer's row holding `text` (a person's draft): its prompt mark, then the text.
    pub fn shows_draft(self, screen: &str, text: &str) -> bool {
        let mark = match self {
            Vendor::Gemini | Vendor::Qwen => '>',
            Vendor::Copilot => '❯',
            Vendor::Opencode => '┃',
        };
        screen.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with(mark) && l[mark.len_utf8()..].trim().trim_end_matches('\u{200b}').trim() == text
        })
    }

    /// What its permission dialog for a command writing outside the folder shows first (Copilot
    /// and opencode ask for the path before the command), and where that dialog's rows start.
    pub fn dialog_phrase(self) -> &'static str {
        match self {
            Vendor::Gemini | Vendor::Qwen => "Allow execution of",
            Vendor::Copilot => "Allow path access",
            Vendor::Opencode => "Permission required",
        }
    }

    /// Whether `screen` shows the dialog with its choices.
    pub fn at_dialog(self, screen: &str) -> bool {
        screen.contains(self.dialog_phrase())
            && match self {
                Vendor::Gemini => screen.contains("1. Allow once"),
                Vendor::Qwen => screen.contains("1. Yes, allow once"),
                // its focus starts on option 2
                Vendor::Copilot => screen.contains("❯ 2. Yes, and remember this path for this session"),
                Vendor::Opencode => screen.contains("Allow once") && screen.contains("Reject"),
            }
    }

    /// The question of its folder-trust dialog, where that dialog's rows start.
    pub fn trust_phrase(self) -> &'static str {
        match self {
            Vendor::Gemini => "Do you trust the files in this folder?",
            Vendor::Qwen => "Do you trust this folder?",
            Vendor::Copilot => "Confirm folder trust",
            Vendor::Opencode => unreachable!("opencode has no folder trust"),
        }
    }

    /// Whether `screen` shows its folder-trust dialog with its choices, down to the last.
    pub fn at_trust(self, screen: &str) -> bool {
        screen.contains(self.trust_phrase())
            && match self {
                Vendor::Gemini => screen.contains("● 1. Trust folder") && screen.contains("3. Don't trust"),
                Vendor::Qwen => screen.contains("› 1. Trust folder") && screen.contains("3. Don't trust (esc)"),
                Vendor::Copilot => screen.contains("❯ 1. Yes") && screen.contains("3. No (Esc)"),
                Vendor::Opencode => unreachable!("opencode has no folder trust"),
            }
    }

    /// How it is left.
    pub fn leave(self) -> Leave {
        match self {
            Vendor::Gemini | Vendor::Qwen => Leave::Typed("/quit"),
            Vendor::Copilot => Leave::Typed("/exit"),
            // Ctrl-C at an empty composer
            Vendor::Opencode => Leave::Key("C-c"),
        }
    }
}

/// Copilot's extracted binary, shared by every test: `copilot-cache/` beside the install
/// `tests/real/install.sh` made (its first run extracts 235 MB there).
pub(super) fn copilot_cache() -> PathBuf {
    let nm = repo_dir().join("tests/real/node_modules").canonicalize().expect("tests/real/node_modules");
    let cache = nm.parent().unwrap().join("copilot-cache");
    assert!(
        cache.join("pkg").is_dir(),
        "no extracted Copilot in {}: run `bash tests/real/install.sh`",
        cache.display()
    );
    cache
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
        self.vendor_with(v, "")
    }

    /// [`RealWorld::vendor`] with the person's own options after the CLI's command.
    pub fn vendor_with(&self, v: Vendor, args: &str) -> Seat {
        let seat = self.vendor_started_with(v, args);
        self.wait_screen(&seat, &format!("{}'s prompt", v.profile()), |s| v.at_prompt(s));
        seat
    }

    /// Starts the CLI as [`RealWorld::vendor`] does, without waiting for its prompt (a screen
    /// it shows before the prompt is the caller's to wait for).
    pub fn vendor_started(&self, v: Vendor) -> Seat {
        self.vendor_started_with(v, "")
    }

    /// [`RealWorld::vendor_started`] with `args` after the CLI's command (the person's own
    /// options, e.g. the tools Copilot may run without asking).
    pub fn vendor_started_with(&self, v: Vendor, args: &str) -> Seat {
        self.vendor_in(v, args, true)
    }

    /// Starts the CLI of `v` as [`RealWorld::vendor_started`] does, but with a HOME that has
    /// never trusted the checkout (its sign-in written, no trust recorded): what a person's
    /// first start in a new folder meets. Waits for nothing.
    pub fn vendor_untrusted(&self, v: Vendor) -> Seat {
        self.vendor_in(v, "", false)
    }

    fn vendor_in(&self, v: Vendor, args: &str, trusted: bool) -> Seat {
        let name = v.seat();
        let home = self.top().join("seats").join(name);
        let mut env = self.seat_env(&home);
        let mut set = |k: &str, v: String| env.push((k.to_string(), v));
        let base = format!("http://127.0.0.1:{PORT}");
        let command = match v {
            Vendor::Gemini => {
                signed_in_gemini(&home, &self.w.repo, trusted);
                set("GOOGLE_GEMINI_BASE_URL", base);
                set("GEMINI_API_KEY", "mock-key".into());
                "gemini"
            }
            Vendor::Qwen => {
                signed_in_qwen(&home, &self.w.repo, trusted);
                set("OPENAI_BASE_URL", format!("{base}/v1"));
                set("OPENAI_API_KEY", "mock-key".into());
                set("OPENAI_MODEL", "mock-model".into());
                // Without the flag Qwen starts in Auto mode and asks about nothing.
                "qwen --approval-mode default"
            }
            Vendor::Copilot => {
                if trusted {
                    trusting_copilot(&home, &self.w.repo);
                }
                // Bring your own key, offline: no GitHub sign-in.
                set("COPILOT_OFFLINE", "true".into());
                set("COPILOT_PROVIDER_BASE_URL", format!("{base}/v1"));
                set("COPILOT_PROVIDER_API_KEY", "mock-key".into());
                set("COPILOT_MODEL", "mock-model".into());
                set("COPILOT_AUTO_UPDATE", "false".into());
                set("COPILOT_CACHE_HOME", copilot_cache().display().to_string());
                "copilot"
            }
            Vendor::Opencode => {
                opencode_with_the_mock(&home);
                for k in ["AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "SHARE"] {
                    set(&format!("OPENCODE_DISABLE_{k}"), "1".into());
                }
                "opencode"
            }
        };
        let command = if args.is_empty() { command.to_string() } else { format!("{command} {args}") };
        let pane = self.window(name, name, &env, &command);
        Seat { name: name.into(), pane, home }
    }
}

/// What a Gemini CLI user signed in with an API key has in `home` (docs/more-vendors.md): no
/// update checks, no usage statistics, the key's auth chosen, and `repo` trusted if `trusted`.
pub(super) fn signed_in_gemini(home: &Path, repo: &Path, trusted: bool) {
    let settings = json!({
        "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "security": { "auth": { "selectedType": "gemini-api-key" } },
    });
    write(&home.join(".gemini/settings.json"), &settings);
    if trusted {
        write(&home.join(".gemini/trustedFolders.json"), &json!({ repo.display().to_string(): "TRUST_FOLDER" }));
    }
}

/// What a Qwen Code user of an OpenAI-compatible provider has in `home` (docs/more-vendors.md):
/// the provider's auth and model chosen, no update checks or statistics, and `repo` trusted if
/// `trusted`.
pub(super) fn signed_in_qwen(home: &Path, repo: &Path, trusted: bool) {
    let settings = json!({
        "security": { "auth": { "selectedType": "openai" } },
        "model": { "name": "mock-model" },
        "general": { "enableAutoUpdate": false },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
    });
    let mut settings = settings;
    if !trusted {
        // Qwen asks about a folder only with its folder trust on (off by default in 0.24.4).
        settings["security"]["folderTrust"] = json!({ "enabled": true });
    }
    write(&home.join(".qwen/settings.json"), &settings);
    if trusted {
        write(&home.join(".qwen/trustedFolders.json"), &json!({ repo.display().to_string(): "TRUST_FOLDER" }));
    }
}

/// What a Copilot CLI user who trusted `repo` once has in `home` (docs/more-vendors.md).
pub(super) fn trusting_copilot(home: &Path, repo: &Path) {
    write(&home.join(".copilot/config.json"), &json!({ "trustedFolders": [repo.display().to_string()] }));
}

/// opencode's user config naming the mock as its provider and model, its updates and sharing
/// off, and commands and edits asking first (docs/more-vendors.md).
pub(super) fn opencode_with_the_mock(home: &Path) {
    let config = json!({
        "autoupdate": false, "share": "disabled",
        "model": "mock/mock-model", "small_model": "mock/mock-model",
        "provider": { "mock": {
            "npm": "@ai-sdk/openai-compatible", "name": "Mock",
            "options": { "baseURL": format!("http://127.0.0.1:{PORT}/v1"), "apiKey": "mock-key" },
            "models": { "mock-model": { "name": "Mock Model", "tool_call": true } },
        } },
        "permission": { "bash": "ask", "edit": "ask" },
    });
    write(&home.join(".config/opencode/opencode.json"), &config);
}

fn write(path: &Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, value.to_string()).unwrap();
}
