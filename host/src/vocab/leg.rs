//! The legs a send can go by (`native`, `mcp-inbox`, `typed`, `compose`) and the hook
//! configuration formats a CLI may have, as words.
//!
//! Invariant: a leg's word is written once ([`Leg::word`]); the history's `via`, a team file's
//! `delivery_order`, `--channel` and every document read and write it through this table.

use std::fmt;

use serde::{Deserialize, Serialize, Serializer};

/// One way a send can reach a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leg {
    /// The receiving CLI's own cross-session channel (a socket frame).
    Native,
    /// An MCP inbox the receiving CLI reads.
    McpInbox,
    /// The drop file and one trigger line typed into the pane.
    Typed,
    /// The body typed through a compose module's screens (the drop file is still written).
    Compose,
}

impl Leg {
    /// The legs an order may name, in the default order.
    pub const ORDER: [Leg; 3] = [Leg::Native, Leg::McpInbox, Leg::Typed];

    /// The leg's word: `native`, `mcp-inbox`, `typed`, `compose`.
    pub fn word(self) -> &'static str {
        match self {
            Leg::Native => "native",
            Leg::McpInbox => "mcp-inbox",
            Leg::Typed => "typed",
            Leg::Compose => "compose",
        }
    }

    /// Every leg, the order's first.
    pub const ALL: [Leg; 4] = [Leg::Native, Leg::McpInbox, Leg::Typed, Leg::Compose];

    /// The leg a word names (`compose` too: the history's `via` may say it).
    pub fn from_word(word: &str) -> Option<Leg> {
        Leg::ALL.into_iter().find(|l| l.word() == word)
    }

    /// The leg a `delivery_order` word names (`compose` is no order word).
    pub fn from_order_word(word: &str) -> Option<Leg> {
        Leg::ORDER.into_iter().find(|l| l.word() == word)
    }

    /// The words an order may use, as the team file's refusal lists them.
    pub fn order_words() -> String {
        Leg::ORDER.map(Leg::word).join(", ")
    }
}

impl fmt::Display for Leg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl Serialize for Leg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl schemars::JsonSchema for Leg {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Leg".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let words = [Leg::Native, Leg::McpInbox, Leg::Typed, Leg::Compose].map(Leg::word);
        schemars::json_schema!({ "type": "string", "enum": words })
    }
}

/// How a CLI is told to run `team hook` at its hook events: the closed set of configuration
/// formats the host knows how to write (`crate::hooks`). Which one a CLI has is a vendor fact:
/// its profile's description says `hooks=<format word>` among its `features`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HookFormat {
    /// Claude Code: `hooks` in the checkout's `.claude/settings.local.json`.
    ClaudeSettings,
    /// Codex: `<checkout>/.codex/hooks.json`, and `[features] codex_hooks = true` in the
    /// `.codex/config.toml` beside it.
    CodexHooksJson,
    /// Gemini CLI: `hooks` in the checkout's `.gemini/settings.json`, Claude's group shape under
    /// Gemini's event names (`AfterTool`, `AfterAgent`, `BeforeAgent`).
    GeminiSettings,
    /// Qwen Code: `hooks` in the checkout's `.qwen/settings.json`, Claude's shape and names.
    QwenSettings,
    /// GitHub Copilot CLI: `hooks` in the checkout's `.github/copilot/settings.local.json`,
    /// under Copilot's own names (`postToolUse`, `agentStop`, `userPromptSubmitted`), each
    /// event a list of commands (`{"type": "command", "command": …}`, no groups); its hooks get
    /// Copilot's camelCase input and answer with a bare `additionalContext` (measured on
    /// 1.0.102, docs/inbox.md).
    CopilotSettings,
}

impl HookFormat {
    /// The feature word a profile declares its CLI's format with.
    pub const FEATURE: &'static str = "hooks=";

    pub fn word(self) -> &'static str {
        match self {
            HookFormat::ClaudeSettings => "claude-settings",
            HookFormat::CodexHooksJson => "codex-hooks-json",
            HookFormat::GeminiSettings => "gemini-settings",
            HookFormat::QwenSettings => "qwen-settings",
            HookFormat::CopilotSettings => "copilot-settings",
        }
    }

    /// Whether each event's list holds the commands themselves (Copilot's), not Claude's
    /// groups of them (`{"matcher": …, "hooks": [commands]}`).
    pub fn flat(self) -> bool {
        self == HookFormat::CopilotSettings
    }

    /// The format a description's `features` name (the first `hooks=` word this host knows).
    pub fn from_features(features: &[String]) -> Option<HookFormat> {
        features
            .iter()
            .filter_map(|f| f.strip_prefix(Self::FEATURE))
            .find_map(|w| HookFormat::ALL.iter().copied().find(|h| h.word() == w))
    }
}

crate::vocab::doc::words!(HookFormat: ClaudeSettings, CodexHooksJson, GeminiSettings, QwenSettings, CopilotSettings);

/// Where and how a CLI reads project-level MCP servers: the closed set of configuration formats
/// the host knows how to write (`crate::mcp::install`). Which one a CLI has is a vendor fact:
/// its profile's description says `mcp=<format word>` among its `features`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum McpFormat {
    /// `mcpServers` in the checkout's `.mcp.json` (Claude Code; GitHub Copilot CLI reads it too).
    McpJson,
    /// `[mcp_servers.<name>]` in the checkout's `.codex/config.toml` (Codex).
    CodexConfigToml,
    /// `mcpServers` in the checkout's `.gemini/settings.json` (Gemini CLI).
    GeminiSettings,
    /// `mcpServers` in the checkout's `.qwen/settings.json` (Qwen Code).
    QwenSettings,
    /// `mcpServers` in the checkout's `.grok/settings.json` (grok-cli).
    GrokSettings,
    /// `mcp` in the checkout's `opencode.json` (opencode: the command one list).
    OpencodeJson,
}

impl McpFormat {
    /// The feature word a profile declares its CLI's format with.
    pub const FEATURE: &'static str = "mcp=";

    pub fn word(self) -> &'static str {
        match self {
            McpFormat::McpJson => "mcp-json",
            McpFormat::CodexConfigToml => "codex-config-toml",
            McpFormat::GeminiSettings => "gemini-settings",
            McpFormat::QwenSettings => "qwen-settings",
            McpFormat::GrokSettings => "grok-settings",
            McpFormat::OpencodeJson => "opencode-json",
        }
    }

    /// The file, relative to the checkout.
    pub fn rel(self) -> &'static str {
        match self {
            McpFormat::McpJson => ".mcp.json",
            McpFormat::CodexConfigToml => ".codex/config.toml",
            McpFormat::GeminiSettings => ".gemini/settings.json",
            McpFormat::QwenSettings => ".qwen/settings.json",
            McpFormat::GrokSettings => ".grok/settings.json",
            McpFormat::OpencodeJson => "opencode.json",
        }
    }

    /// The format a description's `features` name (the first `mcp=` word this host knows).
    pub fn from_features(features: &[String]) -> Option<McpFormat> {
        features
            .iter()
            .filter_map(|f| f.strip_prefix(Self::FEATURE))
            .find_map(|w| McpFormat::ALL.iter().copied().find(|m| m.word() == w))
    }
}

crate::vocab::doc::words!(McpFormat: McpJson, CodexConfigToml, GeminiSettings, QwenSettings, GrokSettings, OpencodeJson);

/// The owner's approval of the team's MCP server that `team mcp install` writes for a CLI that
/// asks a person before it starts a server its checkout names: written where the CLI keeps one
/// person's choices for one checkout (never a file a repository ships). Which one a CLI has is
/// a vendor fact: its profile's description says `mcp-owner-approval=<word>` among its
/// `features`, beside the `mcp=` format whose entry it approves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum McpOwnerApproval {
    /// Claude Code's `.claude/settings.local.json` (`enabledMcpjsonServers`, the tool rules):
    /// what answering its `New MCP server found` question writes (`crate::mcp::approve`).
    ClaudeSettingsLocal,
}

impl McpOwnerApproval {
    /// The feature word a profile names its CLI's approval with.
    pub const FEATURE: &'static str = "mcp-owner-approval=";

    pub fn word(self) -> &'static str {
        match self {
            McpOwnerApproval::ClaudeSettingsLocal => "claude-settings-local",
        }
    }

    /// The format whose entry it approves.
    pub fn approves(self) -> McpFormat {
        match self {
            McpOwnerApproval::ClaudeSettingsLocal => McpFormat::McpJson,
        }
    }

    /// The approval a description's `features` name, when it approves the entry of the format
    /// they name (`mcp=`): one naming another format's entry is never used.
    pub fn from_features(features: &[String]) -> Option<McpOwnerApproval> {
        let format = McpFormat::from_features(features)?;
        features
            .iter()
            .filter_map(|f| f.strip_prefix(Self::FEATURE))
            .find_map(|w| McpOwnerApproval::ALL.iter().copied().find(|a| a.word() == w))
            .filter(|a| a.approves() == format)
    }
}

crate::vocab::doc::words!(McpOwnerApproval: ClaudeSettingsLocal);

/// An ignore file of a CLI's own, at the checkout's root, that its file tools obey after git's
/// rules: the closed set of names the host writes (`crate::project_files::ignore`), so that a
/// profile can never make team write `!.agents/send-drops/` into `.gitignore` or any other
/// file. Which one a CLI has is a vendor fact: its profile's description says
/// `ignore-file=<name>` among its `features`; a name outside the set is not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IgnoreFile {
    /// Gemini CLI's `.geminiignore`: its `read_file` refuses what git ignores unless this
    /// file lifts it (measured on 0.61.0, docs/more-vendors.md).
    Geminiignore,
}

impl IgnoreFile {
    /// The feature word a profile names its CLI's ignore file with.
    pub const FEATURE: &'static str = "ignore-file=";

    /// The file's name, at the checkout's root.
    pub fn word(self) -> &'static str {
        match self {
            IgnoreFile::Geminiignore => ".geminiignore",
        }
    }

    /// The ignore file a description's `features` name (the first `ignore-file=` word that is
    /// one of the set: a path, `..`, or any other name is never one).
    pub fn from_features(features: &[String]) -> Option<IgnoreFile> {
        features
            .iter()
            .filter_map(|f| f.strip_prefix(Self::FEATURE))
            .find_map(|w| IgnoreFile::ALL.iter().copied().find(|i| i.word() == w))
    }
}

crate::vocab::doc::words!(IgnoreFile: Geminiignore);

#[cfg(test)]
mod ignore_tests {
    use super::IgnoreFile;

    #[test]
    fn a_profile_names_only_an_ignore_file_of_the_set() {
        let of = |w: &str| IgnoreFile::from_features(&[w.to_string()]);
        assert_eq!(of("ignore-file=.geminiignore"), Some(IgnoreFile::Geminiignore));
        for bad in [
            "ignore-file=.gitignore",
            "ignore-file=../.geminiignore",
            "ignore-file=sub/.geminiignore",
            "ignore-file=/etc/.geminiignore",
            "ignore-file=.geminiignore/",
            "ignore-file=",
            "ignore-file=.bashrc",
            ".geminiignore",
        ] {
            assert_eq!(of(bad), None, "{bad}");
        }
        let two = [String::from("ignore-file=.gitignore"), String::from("ignore-file=.geminiignore")];
        assert_eq!(IgnoreFile::from_features(&two), Some(IgnoreFile::Geminiignore));
    }
}

#[cfg(test)]
mod approval_tests {
    use super::McpOwnerApproval;

    #[test]
    fn an_approval_counts_only_beside_the_format_whose_entry_it_approves() {
        let of = |f: &[&str]| McpOwnerApproval::from_features(&f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let claude = "mcp-owner-approval=claude-settings-local";
        assert_eq!(of(&["mcp=mcp-json", claude]), Some(McpOwnerApproval::ClaudeSettingsLocal));
        assert_eq!(of(&[claude]), None, "no entry to approve");
        assert_eq!(of(&["mcp=gemini-settings", claude]), None, "another format's entry");
        assert_eq!(of(&["mcp=mcp-json", "mcp-owner-approval=../../.bashrc"]), None);
        assert_eq!(of(&["mcp=mcp-json"]), None);
    }
}
