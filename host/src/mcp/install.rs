//! `team mcp install | status | remove`: the server's entry (`team`, running `<this team> mcp`)
//! where each seat's CLI reads its MCP servers, project-level in the team's checkout. Where is
//! a vendor fact, the format the CLI's profile names ([`Place`], `mcp=<word>`): `.mcp.json`
//! (`mcpServers.team`: Claude Code, Copilot CLI), Codex's `.codex/config.toml`
//! (`[mcp_servers.team]`, read for a trusted project), `mcpServers.team` in
//! `.gemini/settings.json`, `.qwen/settings.json` and `.grok/settings.json`, and `mcp.team` in
//! opencode's `opencode.json`. A CLI whose profile names none is `unsupported`. docs/mcp.md
//! shows the entries.
//!
//! Invariants: a file is merged, never clobbered — every other key and server stays as it was,
//! and so does every byte of its layout (Claude's JSON through `json_edit`: remove after
//! install gives the file back byte for byte; Codex's TOML keeps its comments and layout,
//! `toml_edit`); an entry named `team` that is not
//! this server's (its args are not `["mcp"]`) is `foreign` and never replaced or removed; a file
//! that cannot be read as its format is refused, not rewritten; every write goes through `fsx`
//! (no link or FIFO on the ladder from the checkout down, whole-file rename).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::tools::Tool;
use crate::error::TeamError;
use crate::project_files::config::{self, ConfigError};
use crate::project_files::json_edit::{self, Edit};
pub use crate::project_files::{Action, Done};
use crate::team_file::Loaded;

/// The server's name in every CLI's configuration.
pub const NAME: &str = "team";

/// Where and how one CLI reads project-level MCP servers: the format its profile names
/// (`mcp=<word>` among its description's `features`).
pub use crate::vocab::leg::McpFormat as Place;

/// The owner's approval install writes beside a CLI's entry (`mcp-owner-approval=<word>`).
pub use crate::vocab::leg::McpOwnerApproval as OwnerApproval;

/// Where one CLI reads its MCP servers, and the owner's approval it wants beside the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    pub place: Place,
    pub approval: Option<OwnerApproval>,
}

/// What a CLI's profile names (`None`: no usable profile, or no project-level MCP
/// configuration).
pub fn place_of(
    profiles: &crate::profiles::ProfileHost,
    cli: &str,
    pins: &std::collections::BTreeMap<String, String>,
) -> Option<Reads> {
    let (d, _) = profiles.description(cli, pins).ok()?;
    Some(Reads { place: Place::from_features(&d.features)?, approval: OwnerApproval::from_features(&d.features) })
}

/// What a seat's place holds for the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// This server's entry, running this `team`.
    Installed,
    /// No entry named `team`.
    Missing,
    /// This server's entry, running another `team` (the path it names).
    Stale { command: String },
    /// This server's entry, running this `team`, written before these tools were served: the
    /// CLI asks before each call of them (Codex's per-tool approval).
    Incomplete { tools: Vec<String> },
    /// An entry named `team` that is not this server's.
    Foreign,
    /// The seat's CLI reads no project-level MCP configuration.
    Unsupported,
    /// The file cannot be read as its format (why).
    Unreadable { why: String },
}

crate::vocab::doc::words!(
    State = ["installed", "missing", "stale", "incomplete", "foreign", "unsupported", "unreadable"]
);

impl State {
    pub fn word(&self) -> &'static str {
        match self {
            State::Installed => "installed",
            State::Missing => "missing",
            State::Stale { .. } => "stale",
            State::Incomplete { .. } => "incomplete",
            State::Foreign => "foreign",
            State::Unsupported => "unsupported",
            State::Unreadable { .. } => "unreadable",
        }
    }

    /// The sentence after `<seat>: <word>`.
    pub fn detail(&self, place: Option<Place>) -> String {
        let file = place.map(Place::rel).unwrap_or("-");
        match self {
            State::Installed => format!("{file} runs this team's MCP server"),
            State::Missing => format!("{file} has no `{NAME}` server (team mcp install adds it)"),
            State::Stale { command } => {
                format!("{file} runs `{command} mcp`, not this team (team mcp install points it here)")
            }
            State::Incomplete { tools } if place == Some(Place::McpJson) => format!(
                "{file} runs this team's MCP server but {} does not approve {} (team mcp install approves it and every tool)",
                super::approve::FILE,
                tools.join(", ")
            ),
            State::Incomplete { tools } => format!(
                "{file} runs this team's MCP server but does not approve {} (team mcp install approves every tool)",
                tools.join(", ")
            ),
            State::Foreign => format!("{file} has a `{NAME}` server that is not team's MCP server; it is left alone"),
            State::Unsupported => "its CLI reads no project-level MCP configuration team knows".into(),
            State::Unreadable { why } => why.clone(),
        }
    }
}

/// One seat's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub seat: String,
    pub cli: String,
    pub place: Option<Place>,
    /// The file (absolute), when the CLI has a place.
    pub path: Option<PathBuf>,
    /// Before install/remove acted (status: now).
    pub state: State,
    /// What install/remove did (`None` for status).
    pub done: Option<Done>,
}

/// What `command mcp` looks like at one place (`Ok(None)`: no file, or no entry).
fn entry_state(place: Place, text: Option<&str>, command: &str) -> State {
    let Some(text) = text else { return State::Missing };
    let found = match place {
        Place::CodexConfigToml => toml_entry(text),
        json => json_entry(json, text),
    };
    match found {
        Err(why) => State::Unreadable { why: why.to_string() },
        Ok(None) => State::Missing,
        Ok(Some((cmd, args, unapproved))) if args == ["mcp"] => {
            if cmd != command {
                State::Stale { command: cmd }
            } else if !unapproved.is_empty() {
                State::Incomplete { tools: unapproved }
            } else {
                State::Installed
            }
        }
        Ok(Some(_)) => State::Foreign,
    }
}

/// An entry's command, its args, and the served tools it does not approve (Codex only).
type Entry = Option<(String, Vec<String>, Vec<String>)>;

fn json_entry(place: Place, text: &str) -> Result<Entry, ConfigError> {
    let file = place.rel();
    let root = config::json_root(Some(text), file)?;
    let Some(servers) = config::json_object(&root, servers_key(place), file)? else { return Ok(None) };
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect()).unwrap_or_default()
    };
    Ok(servers.get(NAME).map(|e| {
        let (cmd, args) = match place {
            // one list, the program first
            Place::OpencodeJson => {
                let mut all = strings(&e["command"]);
                let cmd = if all.is_empty() { String::new() } else { all.remove(0) };
                (cmd, all)
            }
            // `grok mcp add`'s shape: the command under `transport` (or, older, beside it)
            Place::GrokSettings if e.get("transport").is_some() => {
                (e["transport"]["command"].as_str().unwrap_or("").to_string(), strings(&e["transport"]["args"]))
            }
            _ => (e["command"].as_str().unwrap_or("").to_string(), strings(&e["args"])),
        };
        (cmd, args, Vec::new())
    }))
}

/// The key of the servers' object in a JSON place: opencode's `mcp`, every other's `mcpServers`.
fn servers_key(place: Place) -> &'static str {
    match place {
        Place::OpencodeJson => "mcp",
        _ => "mcpServers",
    }
}

fn toml_entry(text: &str) -> Result<Entry, ConfigError> {
    let file = Place::CodexConfigToml.rel();
    let doc = config::toml_doc(Some(text), file)?;
    let Some(servers) = config::toml_table(&doc, "mcp_servers", file)? else { return Ok(None) };
    Ok(servers.get(NAME).map(|e| {
        let cmd = e.get("command").and_then(|c| c.as_str()).unwrap_or("").to_string();
        let args = e
            .get("args")
            .and_then(|a| a.as_array())
            .map(|a| a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default();
        let approved = |tool: &str| {
            e.get("tools").and_then(|t| t.get(tool)).and_then(|t| t.get("approval_mode")).and_then(|m| m.as_str())
                == Some("approve")
        };
        let unapproved =
            Tool::MESSAGING.iter().map(|t| t.name()).filter(|t| !approved(t)).map(str::to_string).collect();
        (cmd, args, unapproved)
    }))
}

/// The file's text with the entry set to `command mcp` (`Some`) or taken out (`None`).
fn edited(place: Place, text: Option<&str>, command: Option<&str>) -> Result<String, ConfigError> {
    match place {
        Place::CodexConfigToml => edited_toml(text, command),
        json => edited_json(json, text, command),
    }
}

/// A JSON place's text with the entry set or taken out, every other byte as it was
/// (`json_edit`); taking it out takes out the servers' object too when it held nothing else.
fn edited_json(place: Place, text: Option<&str>, command: Option<&str>) -> Result<String, ConfigError> {
    let (file, key) = (place.rel(), servers_key(place));
    let entry = |c: &str| entry(place, c);
    let mut done = false;
    let edited = json_edit::edit(text, file, |root| {
        if std::mem::replace(&mut done, true) {
            return Ok(None);
        }
        let servers = match root.get(key) {
            None => None,
            Some(Value::Object(s)) => Some(s),
            Some(_) => return Err(ConfigError::shape_on_edit(file, key, "an object")),
        };
        Ok(match (command, servers) {
            (Some(c), None) => {
                Some(Edit::Append { to: Vec::new(), key: Some(key.into()), value: json!({ NAME: entry(c) }) })
            }
            (Some(c), Some(s)) if s.contains_key(NAME) => {
                Some(Edit::Replace { at: json_edit::keys(&[key, NAME]), value: entry(c) })
            }
            (Some(c), Some(_)) => {
                Some(Edit::Append { to: json_edit::keys(&[key]), key: Some(NAME.into()), value: entry(c) })
            }
            (None, Some(s)) if s.contains_key(NAME) && s.len() == 1 => Some(Edit::Remove(json_edit::keys(&[key]))),
            (None, Some(s)) if s.contains_key(NAME) => Some(Edit::Remove(json_edit::keys(&[key, NAME]))),
            (None, _) => None,
        })
    })?;
    Ok(edited.unwrap_or_else(|| text.unwrap_or_default().to_string()))
}

/// This server's entry at a JSON place, running `command`, in the shape the CLI's own
/// `mcp add` writes. Gemini CLI's and Qwen Code's `trust` is the owner's approval of every tool
/// served (no confirmation before each call), as Codex's per-tool approval below; Qwen still
/// asks a person to approve the server itself once (`~/.qwen/mcpApprovals.json`: measured on
/// 0.24.4, `trust` does not skip it) and team never answers that for them.
fn entry(place: Place, command: &str) -> Value {
    match place {
        Place::GeminiSettings | Place::QwenSettings => json!({"command": command, "args": ["mcp"], "trust": true}),
        Place::GrokSettings => json!({
            "name": NAME,
            "transport": {"type": "stdio", "command": command, "args": ["mcp"], "env": {}},
        }),
        Place::OpencodeJson => json!({"type": "local", "command": [command, "mcp"], "enabled": true}),
        _ => json!({"type": "stdio", "command": command, "args": ["mcp"], "env": {}}),
    }
}

fn edited_toml(text: Option<&str>, command: Option<&str>) -> Result<String, ConfigError> {
    let file = Place::CodexConfigToml.rel();
    let mut doc = config::toml_doc(text, file)?;
    let Some(c) = command else {
        if let Some(s) = doc.get_mut("mcp_servers").and_then(|s| s.as_table_like_mut()) {
            s.remove(NAME);
        }
        return Ok(doc.to_string());
    };
    let servers = doc.entry("mcp_servers").or_insert(toml_edit::table());
    // `[mcp_servers.team]` alone, with no empty `[mcp_servers]` above it
    if let Some(t) = servers.as_table_mut() {
        t.set_implicit(true);
    }
    let Some(servers) = servers.as_table_like_mut() else {
        return Err(ConfigError::shape_on_edit(file, "mcp_servers", "a table"));
    };
    let mut t = toml_edit::Table::new();
    t["command"] = toml_edit::value(c);
    let mut args = toml_edit::Array::new();
    args.push("mcp");
    t["args"] = toml_edit::value(args);
    // Codex asks before each MCP tool call; installing is the owner's approval of every
    // messaging tool, written as Codex writes its own "Always allow" (measured); the two that
    // start and stop seats stay the person's to allow at Codex's question.
    let mut tools = toml_edit::Table::new();
    tools.set_implicit(true);
    for tool in Tool::MESSAGING.map(Tool::name) {
        let mut a = toml_edit::Table::new();
        a["approval_mode"] = toml_edit::value("approve");
        tools.insert(tool, toml_edit::Item::Table(a));
    }
    t.insert("tools", toml_edit::Item::Table(tools));
    servers.insert(NAME, toml_edit::Item::Table(t));
    Ok(doc.to_string())
}

/// Runs `action` for the seats `named` (all when empty) of the cwd's team file, for the `team`
/// this program is.
pub fn run_here<'w>(
    ws: &'w crate::workspace::Workspace,
    named: &[String],
    action: Action,
) -> Result<(&'w Loaded, Vec<Row>), TeamError> {
    let l = ws.team()?;
    let exe = ws.own_exe()?;
    Ok((l, run(l, named, &exe, action, |cli| place_of(ws.profiles(), cli, &l.file.profiles))?))
}

/// Runs `action` for the seats `named` (all when empty) of the team file `l`; `command` is the
/// `team` the entries run; `reads_of(cli)` is what the CLI's profile says. One read and at
/// most one write a file, however many seats read it (`project_files::run`); the owner's
/// approval goes with a place only where a seat acted on has a CLI that wants it (a Copilot
/// seat's `.mcp.json` writes none of Claude's). A seat whose file could not be written is
/// refused (the rows before it stand: each file is written whole or not at all).
pub fn run(
    l: &Loaded,
    named: &[String],
    command: &str,
    action: Action,
    reads_of: impl Fn(&str) -> Option<Reads>,
) -> Result<Vec<Row>, TeamError> {
    let approving: Vec<Place> = crate::project_files::seats(l, named)?
        .into_iter()
        .filter_map(|(_, cli)| reads_of(cli))
        .filter(|r| r.approval.is_some())
        .map(|r| r.place)
        .collect();
    let act = |p| act(&l.root, p, command, action, approving.contains(&p));
    let place_of = |cli: &str| reads_of(cli).map(|r| r.place);
    let rows = crate::project_files::run(l, named, action, place_of, State::Unsupported, act)?;
    Ok(rows
        .into_iter()
        .map(|r| Row {
            path: r.place.map(|p| l.root.join(p.rel())),
            seat: r.seat,
            cli: r.cli,
            place: r.place,
            state: r.state,
            done: r.done,
        })
        .collect())
}

/// Acts on place `p`; `approving`: a CLI reading it wants the owner's approval beside it.
fn act(
    root: &Path,
    p: Place,
    command: &str,
    action: Action,
    approving: bool,
) -> Result<(State, Option<Done>), TeamError> {
    let refused = |why: ConfigError| TeamError::refused(format!("{}: {why}; nothing was written", p.rel()));
    let text = match read(root, p) {
        Ok(t) => t,
        Err(why) if action == Action::Status => return Ok((State::Unreadable { why: why.to_string() }, None)),
        Err(why) => return Err(refused(why)),
    };
    let entry = entry_state(p, text.as_deref(), command);
    let state = match &entry {
        State::Installed if approving => claude_approval(root, action)?,
        _ => entry.clone(),
    };
    let done = match (action, &state) {
        (Action::Status, _) => return Ok((state, None)),
        (_, State::Foreign | State::Unreadable { .. } | State::Unsupported) => Done::LeftAlone,
        (Action::Install, State::Installed) | (Action::Remove, State::Missing) => Done::Unchanged,
        (Action::Install, _) => {
            if entry != State::Installed {
                write(root, p, &edited(p, text.as_deref(), Some(command)).map_err(refused)?).map_err(refused)?;
            }
            if approving {
                approve(root, true)?;
            }
            Done::Written
        }
        (Action::Remove, _) => {
            if approving && matches!(entry, State::Installed | State::Stale { .. }) {
                approve(root, false)?;
            }
            write(root, p, &edited(p, text.as_deref(), None).map_err(refused)?).map_err(refused)?;
            Done::Removed
        }
    };
    Ok((state, Some(done)))
}

/// Claude Code's entry is installed; the state counts the owner's approval of it too
/// (`approve`): `incomplete` while `.claude/settings.local.json` lacks a part of it. A settings
/// file of another shape is `unreadable` for status, refused for install and remove.
fn claude_approval(root: &Path, action: Action) -> Result<State, TeamError> {
    let refused =
        |why: ConfigError| TeamError::refused(format!("{}: {why}; nothing was written", super::approve::FILE));
    let missing =
        crate::project_files::read(root, super::approve::FILE).and_then(|t| super::approve::missing(t.as_deref()));
    match missing {
        Ok(m) if m.is_empty() => Ok(State::Installed),
        Ok(tools) => Ok(State::Incomplete { tools }),
        Err(why) if action == Action::Status => Ok(State::Unreadable { why: why.to_string() }),
        Err(why) => Err(refused(why)),
    }
}

/// Writes the owner's approval of the server in Claude Code's local settings (`on`), or takes it
/// out.
fn approve(root: &Path, on: bool) -> Result<(), TeamError> {
    let file = super::approve::FILE;
    let refused = |why: ConfigError| TeamError::refused(format!("{file}: {why}; nothing was written"));
    let text = crate::project_files::read(root, file).map_err(refused)?;
    if let Some(t) = super::approve::edited(text.as_deref(), on).map_err(refused)? {
        crate::project_files::write(root, file, &t, 0o600).map_err(refused)?;
    }
    Ok(())
}

fn read(root: &Path, place: Place) -> Result<Option<String>, ConfigError> {
    crate::project_files::read(root, place.rel())
}

/// A new MCP configuration file is made 0644, as the CLIs make their own.
fn write(root: &Path, place: Place, text: &str) -> Result<(), ConfigError> {
    crate::project_files::write(root, place.rel(), text, 0o644)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project_files::json_edit::testing::{
        any_string, any_style, any_value, members, only_inserted, write, J,
    };
    use proptest::prelude::*;

    #[test]
    fn entries_merge_and_come_out_keeping_the_rest() {
        let claude = r#"{"mcpServers": {"other": {"command": "x"}}, "keep": 1}"#;
        let t = edited(Place::McpJson, Some(claude), Some("/bin/team")).unwrap();
        assert_eq!(entry_state(Place::McpJson, Some(&t), "/bin/team"), State::Installed);
        let v: Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["keep"], 1);
        assert_eq!(v["mcpServers"]["other"]["command"], "x");
        let back = edited(Place::McpJson, Some(&t), None).unwrap();
        assert_eq!(entry_state(Place::McpJson, Some(&back), "/bin/team"), State::Missing);
        assert_eq!(serde_json::from_str::<Value>(&back).unwrap()["mcpServers"]["other"]["command"], "x");

        let codex = "# mine\nmodel = \"m\"\n\n[mcp_servers.other]\ncommand = \"y\"\n";
        let t = edited(Place::CodexConfigToml, Some(codex), Some("/bin/team")).unwrap();
        assert!(t.starts_with("# mine\nmodel = \"m\"\n"), "{t}");
        assert!(t.contains("[mcp_servers.team]\ncommand = \"/bin/team\"\nargs = [\"mcp\"]\n"), "{t}");
        assert!(t.contains("[mcp_servers.team.tools.team_send]\napproval_mode = \"approve\"\n"), "{t}");
        assert_eq!(entry_state(Place::CodexConfigToml, Some(&t), "/bin/team"), State::Installed);
        assert_eq!(
            entry_state(Place::CodexConfigToml, Some(&t), "/usr/bin/team"),
            State::Stale { command: "/bin/team".into() }
        );
        let back = edited(Place::CodexConfigToml, Some(&t), None).unwrap();
        assert!(back.contains("[mcp_servers.other]") && !back.contains("mcp_servers.team"), "{back}");

        // an entry written when fewer tools were served: install approves the rest
        let older = "[mcp_servers.team]\ncommand = \"/bin/team\"\nargs = [\"mcp\"]\n\n[mcp_servers.team.tools.team_send]\napproval_mode = \"approve\"\n";
        assert_eq!(
            entry_state(Place::CodexConfigToml, Some(older), "/bin/team"),
            State::Incomplete {
                tools: vec!["team_list".into(), "team_inbox".into(), "team_reply".into(), "team_ack".into()]
            }
        );
        let t = edited(Place::CodexConfigToml, Some(older), Some("/bin/team")).unwrap();
        assert_eq!(entry_state(Place::CodexConfigToml, Some(&t), "/bin/team"), State::Installed, "{t}");
        let foreign = "[mcp_servers.team]\ncommand = \"npx\"\nargs = [\"some-team-server\"]\n";
        assert_eq!(entry_state(Place::CodexConfigToml, Some(foreign), "/bin/team"), State::Foreign);
        assert!(matches!(entry_state(Place::McpJson, Some("[1]"), "t"), State::Unreadable { .. }));
        assert!(matches!(entry_state(Place::CodexConfigToml, Some("= ="), "t"), State::Unreadable { .. }));
    }

    /// issue 29: `mcp remove` re-indented the user's JSON (content and order kept, every byte
    /// of layout rewritten two-space pretty). Install then remove gives the file back byte for
    /// byte, and install only adds.
    #[test]
    fn remove_after_install_gives_back_the_user_s_json_byte_for_byte() {
        for mine in [
            "{\n\t\"mcpServers\": {\"other\": {\"command\": \"x\"}},\n\t\"keep\": [1,2]\n}",
            "{\"keep\":1}\r\n",
            "{\r\n    \"keep\": 1\r\n}\r\n",
        ] {
            let t = edited(Place::McpJson, Some(mine), Some("/bin/team")).unwrap();
            assert!(only_inserted(mine, &t), "{t:?}");
            assert_eq!(edited(Place::McpJson, Some(&t), None).unwrap(), mine);
        }
    }

    /// Each JSON place's entry is the shape its CLI's own `mcp add` writes, and reads back as
    /// this server's; another program under the name is foreign.
    #[test]
    fn each_json_place_writes_its_cli_s_shape() {
        let shape = |place: Place| -> Value {
            let t = edited(place, None, Some("/bin/team")).unwrap();
            assert_eq!(entry_state(place, Some(&t), "/bin/team"), State::Installed, "{t}");
            serde_json::from_str::<Value>(&t).unwrap()
        };
        assert_eq!(
            shape(Place::McpJson)["mcpServers"]["team"],
            json!({"type": "stdio", "command": "/bin/team", "args": ["mcp"], "env": {}})
        );
        for p in [Place::GeminiSettings, Place::QwenSettings] {
            assert_eq!(shape(p)["mcpServers"]["team"], json!({"command": "/bin/team", "args": ["mcp"], "trust": true}));
        }
        assert_eq!(
            shape(Place::GrokSettings)["mcpServers"]["team"],
            json!({"name": "team", "transport": {"type": "stdio", "command": "/bin/team", "args": ["mcp"], "env": {}}})
        );
        assert_eq!(
            shape(Place::OpencodeJson)["mcp"]["team"],
            json!({"type": "local", "command": ["/bin/team", "mcp"], "enabled": true})
        );
        // grok's older shape (the command beside `name`) and a foreign opencode entry
        let older = r#"{"mcpServers": {"team": {"name": "team", "command": "/bin/team", "args": ["mcp"]}}}"#;
        assert_eq!(entry_state(Place::GrokSettings, Some(older), "/bin/team"), State::Installed);
        let foreign = r#"{"mcp": {"team": {"type": "local", "command": ["npx", "team-server"]}}}"#;
        assert_eq!(entry_state(Place::OpencodeJson, Some(foreign), "/bin/team"), State::Foreign);
        let stale = r#"{"mcp": {"team": {"type": "local", "command": ["/old/team", "mcp"]}}}"#;
        assert_eq!(
            entry_state(Place::OpencodeJson, Some(stale), "/bin/team"),
            State::Stale { command: "/old/team".into() }
        );
        // opencode's `mcp` is the servers' object: a settings file's `mcpServers` is not read there
        let elsewhere = r#"{"mcpServers": {"team": {"command": "/bin/team", "args": ["mcp"]}}}"#;
        assert_eq!(entry_state(Place::OpencodeJson, Some(elsewhere), "/bin/team"), State::Missing);
    }

    /// The bundled profiles name their CLI's place; a CLI whose profile names none is
    /// unsupported.
    #[test]
    fn the_bundled_profiles_name_their_mcp_places() {
        let d = tempfile::tempdir().unwrap();
        let host = crate::profiles::ProfileHost::new(&crate::paths::Paths::under(d.path()));
        let none = std::collections::BTreeMap::new();
        let of = |cli: &str| place_of(&host, cli, &none).map(|r| r.place);
        assert_eq!(of("claude-code"), Some(Place::McpJson));
        assert_eq!(of("copilot"), Some(Place::McpJson));
        assert_eq!(of("codex"), Some(Place::CodexConfigToml));
        assert_eq!(of("gemini-cli"), Some(Place::GeminiSettings));
        assert_eq!(of("qwen-code"), Some(Place::QwenSettings));
        assert_eq!(of("grok-cli"), Some(Place::GrokSettings));
        assert_eq!(of("opencode"), Some(Place::OpencodeJson));
        assert_eq!(of("cursor"), None);
        // the owner's approval is Claude Code's own: Copilot reads the same `.mcp.json` and wants none
        let approval = |cli: &str| place_of(&host, cli, &none).and_then(|r| r.approval);
        assert_eq!(approval("claude-code"), Some(OwnerApproval::ClaudeSettingsLocal));
        for cli in ["copilot", "codex", "gemini-cli", "qwen-code", "grok-cli", "opencode"] {
            assert_eq!(approval(cli), None, "{cli}");
        }
        assert_eq!(of("no-such-cli"), None);
    }

    fn servers() -> impl Strategy<Value = J> {
        let server = (any_string(), prop::collection::vec(any_string().prop_map(J::Str), 0..3))
            .prop_map(|(c, args)| J::Obj(vec![("command".into(), J::Str(c)), ("args".into(), J::Arr(args))]));
        let name = prop::sample::select(vec!["other", "github", "Team", "team2", "t\"e"]).prop_map(str::to_string);
        prop::collection::vec((name, server), 1..4).prop_map(|m| J::Obj(members(m)))
    }

    /// The JSON places.
    fn any_json_place() -> impl Strategy<Value = Place> {
        prop::sample::select(Place::ALL.iter().copied().filter(|p| *p != Place::CodexConfigToml).collect::<Vec<_>>())
    }

    /// A JSON place's file of the user's: maybe other servers under the place's key (never an
    /// empty one: it is taken out with team's entry), and keys of its own.
    fn any_mcp_json(key: &'static str) -> impl Strategy<Value = J> {
        let other = prop::collection::vec(
            (prop::sample::select(vec!["keep", "x"]).prop_map(str::to_string), any_value()),
            0..3,
        );
        (other, prop::option::of(servers()), any::<prop::sample::Index>()).prop_map(|(mut ms, s, at)| {
            if let Some(s) = s {
                ms.insert(at.index(ms.len() + 1), (key.into(), s));
            }
            J::Obj(members(ms))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Whatever the layout: install only inserts, pointing a stale entry here rewrites
        /// that entry's value only, and remove after install is the file byte for byte.
        #[test]
        fn the_entry_comes_and_goes_leaving_every_other_byte(
            (place, doc) in any_json_place().prop_flat_map(|p| (Just(p), any_mcp_json(servers_key(p)))),
            style in any_style(),
        ) {
            let mine = write(&doc, &style).text;
            let on = edited(place, Some(&mine), Some("/old/team")).unwrap();
            prop_assert!(only_inserted(&mine, &on), "{mine:?} -> {on:?}");
            prop_assert_eq!(entry_state(place, Some(&on), "/old/team"), State::Installed);
            let here = edited(place, Some(&on), Some("/bin/team")).unwrap();
            prop_assert_eq!(entry_state(place, Some(&here), "/bin/team"), State::Installed);
            let p = on.bytes().zip(here.bytes()).take_while(|(a, b)| a == b).count();
            let s = on.bytes().rev().zip(here.bytes().rev()).take_while(|(a, b)| a == b).count();
            prop_assert_eq!(&on[p..on.len() - s], "old", "only the path changed");
            prop_assert_eq!(edited(place, Some(&here), None).unwrap(), mine);
        }
    }
}
