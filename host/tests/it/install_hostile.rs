//! Issue 29's class "everything a repository's file can make `team` execute", the installers'
//! part: `team hooks install` and `team mcp install` over a cloned checkout whose team file is
//! hostile in every string it gives (seat names, cli words, profile pins, `launch:`, `notify:`,
//! hosts, labels, models, delegates) and which ships stale `team` entries of its own. After
//! both installs, every command a CLI's configuration names for team is exactly the running
//! `team` and its fixed arguments (`hook <event>`, `mcp`), in every format the installers
//! write; nothing the team file says appears in any file they wrote (docs/security.md).

use crate::common::World;
use serde_json::Value;

/// Every string the file may carry holds `hostile`; the names (which must be names) too.
const TEAM: &str = r#"format: 1
project: hostile-proj
team: hostile-team
session: hostile-session
multiplexer: tmux
profiles: { claude-code: "*", codex: "*", gemini-cli: "*", qwen-code: "*", copilot: "*", opencode: "*", grok-cli: "*" }
hosts:
  hostile-lab: "hostile@$(touch /tmp/hostile).example"
notify:
  command: [sh, -c, "touch hostile-notify", "hostile-arg"]
delegates:
  send: [hostile-claude]
seats:
  - name: hostile-claude
    nickname: hostile-nick
    role: "hostile-role $(id)"
    label: "hostile-label `id`"
    vendor: "hostile-vendor"
    model: "hostile-model\"; rm -rf ~"
    version: "hostile-1"
    cli: claude-code
    leads: true
    launch: "claude --mcp-config hostile.json; sh -c 'touch hostile-launch'"
  - name: hostile-codex
    cli: codex
    launch: "codex -c 'mcp_servers.team.command=\"hostile\"'"
  - name: hostile-gemini
    cli: gemini-cli
    launch: "gemini --hostile"
  - name: hostile-qwen
    cli: qwen-code
    launch: "qwen; hostile"
  - name: hostile-pilot
    cli: copilot
    launch: "copilot --additional-mcp-config hostile"
  - name: hostile-open
    cli: opencode
    launch: "opencode hostile"
  - name: hostile-grok
    cli: grok-cli
    launch: "grok hostile"
  - name: hostile-other
    cli: "hostile-cli; touch /tmp/hostile"
"#;

/// What the repository ships of its own: `team` entries pointing at its own programs (stale
/// in the installers' eyes), which install must point at this team, not keep.
const SHIPPED: [(&str, &str); 3] = [
    (".mcp.json", r#"{"mcpServers": {"team": {"command": "./hostile/team", "args": ["mcp"]}}}"#),
    (
        ".claude/settings.local.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./hostile/team hook stop"}]}]}}"#,
    ),
    (".codex/config.toml", "[mcp_servers.team]\ncommand = \"./hostile/team\"\nargs = [\"mcp\"]\n"),
];

/// Every file the two installers write for these seven CLIs.
const WRITTEN: [&str; 9] = [
    ".mcp.json",
    ".claude/settings.local.json",
    ".codex/config.toml",
    ".codex/hooks.json",
    ".gemini/settings.json",
    ".qwen/settings.json",
    ".grok/settings.json",
    "opencode.json",
    ".github/copilot/settings.local.json",
];

/// Every `command` (with its `args`) a JSON configuration names: `(command words, args)`.
fn commands(v: &Value, out: &mut Vec<(Vec<String>, Vec<String>)>) {
    let words = |v: &Value| -> Vec<String> {
        match v {
            Value::String(s) => vec![s.clone()],
            Value::Array(a) => a.iter().map(|x| x.as_str().expect("a command word is a string").to_string()).collect(),
            _ => Vec::new(),
        }
    };
    match v {
        Value::Object(m) => {
            if let Some(c) = m.get("command") {
                out.push((words(c), m.get("args").map(words).unwrap_or_default()));
            }
            m.values().for_each(|x| commands(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| commands(x, out)),
        _ => {}
    }
}

/// The same over Codex's TOML: every table with a `command`.
fn toml_commands(t: &toml_edit::Table, out: &mut Vec<(Vec<String>, Vec<String>)>) {
    let strs = |i: &toml_edit::Item| -> Vec<String> {
        match i.as_value() {
            Some(toml_edit::Value::String(s)) => vec![s.value().clone()],
            Some(toml_edit::Value::Array(a)) => a.iter().map(|x| x.as_str().unwrap().to_string()).collect(),
            _ => Vec::new(),
        }
    };
    if let Some(c) = t.get("command") {
        out.push((strs(c), t.get("args").map(strs).unwrap_or_default()));
    }
    for (_, i) in t.iter() {
        if let Some(sub) = i.as_table() {
            toml_commands(sub, out);
        }
    }
}

#[test]
fn a_hostile_team_file_puts_nothing_of_its_own_in_any_command_the_installers_write() {
    let w = World::empty();
    w.team_file(TEAM);
    for (rel, text) in SHIPPED {
        w.write(&w.repo.join(rel), text);
    }
    let team = crate::common::team_bin().display().to_string();

    for what in ["mcp", "hooks"] {
        let r = w.team(&[what, "install"]);
        assert_eq!(r.code, 0, "{what} install: {r:?}");
        assert!(r.stdout.contains("hostile-other: unsupported → left alone"), "{}", r.stdout);
    }
    // each of the seven CLIs got its entries (the hostile strings did not turn a seat off)
    let st: Value = serde_json::from_str(&w.team(&["mcp", "status", "--json"]).stdout).unwrap();
    let installed = st["seats"].as_array().unwrap().iter().filter(|s| s["state"] == "installed").count();
    assert_eq!(installed, 7, "{st}");
    let hs = w.team(&["hooks", "status"]);
    for seat in ["hostile-claude", "hostile-codex", "hostile-gemini", "hostile-qwen", "hostile-pilot"] {
        assert!(hs.stdout.contains(&format!("{seat}: installed")), "{seat}: {}", hs.stdout);
    }

    let hook_events = ["post-tool-use", "stop", "user-prompt-submit"];
    let mut seen = 0;
    for rel in WRITTEN {
        let text = std::fs::read_to_string(w.repo.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(!text.to_lowercase().contains("hostile"), "{rel} carries the file's words:\n{text}");
        let mut found = Vec::new();
        if rel.ends_with(".toml") {
            toml_commands(text.parse::<toml_edit::DocumentMut>().unwrap().as_table(), &mut found);
        } else {
            commands(&serde_json::from_str(&text).unwrap(), &mut found);
        }
        assert!(!found.is_empty(), "{rel} names no command:\n{text}");
        for (cmd, args) in found {
            let ok = match (cmd.as_slice(), args.as_slice()) {
                // an MCP entry: `<team>` `mcp` (opencode: one array)
                ([c], [a]) => *c == team && a == "mcp",
                ([c, a], []) => *c == team && a == "mcp",
                // a hook: one shell line, `<team> hook <event>`
                ([line], []) => hook_events.iter().any(|e| *line == format!("{team} hook {e}")),
                _ => false,
            };
            assert!(ok, "{rel}: a command that is not this team's own: {cmd:?} {args:?}\n{text}");
            seen += 1;
        }
    }
    // 7 MCP entries in 7 files (Copilot shares .mcp.json with Claude) and 3 hooks × 5 CLIs
    assert_eq!(seen, 6 + 15, "commands seen");
    // a file no installer writes stays unwritten
    assert!(!w.repo.join(".claude/settings.json").exists());
}
