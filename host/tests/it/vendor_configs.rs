//! `team mcp install | status | remove` and `team hooks install | status | remove` over a
//! checkout whose seats run all seven CLIs with a profile naming a place (Claude Code, Codex,
//! Gemini CLI, Qwen Code, Copilot CLI, opencode, grok-cli), in real files the person laid out
//! their own way: each CLI's file gets the entry its profile says, in the shape its CLI reads;
//! the status says each; remove gives every file back byte for byte.

use crate::common::World;
use serde_json::Value;

const TEAM: &str = "format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: rev
    cli: codex
  - name: gem
    cli: gemini-cli
  - name: qwen
    cli: qwen-code
  - name: pilot
    cli: copilot
  - name: open
    cli: opencode
  - name: grok
    cli: grok-cli
  - name: cur
    cli: cursor
";

/// The person's own files, each in a layout of its own.
const MINE: [(&str, &str); 6] = [
    (".mcp.json", "{\r\n    \"mcpServers\": {\r\n        \"docs\": {\"command\": \"docs-mcp\"}\r\n    }\r\n}\r\n"),
    (".gemini/settings.json", "{\n\t\"tools\": {\"allowed\": [\"run_shell_command(ls)\"]},\n\t\"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}]}\n}"),
    (".qwen/settings.json", "{\"permissions\":{\"allow\":[\"Bash(ls)\"]}}"),
    // (an `mcp` the person left empty would go with team's entry: docs/mcp.md)
    ("opencode.json", "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\"docs\": {\"type\": \"local\", \"command\": [\"docs-mcp\"]}}\n}\n"),
    (".grok/settings.json", "{\n  \"model\": \"grok-code-fast-1\"\n}"),
    (".github/copilot/settings.local.json", "{\n    \"hooks\": {\"agentStop\": [{\"type\": \"command\", \"bash\": \"notify-send done\"}]}\n}\n"),
];

fn json(w: &World, rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(w.repo.join(rel)).unwrap()).unwrap()
}

#[test]
fn every_cli_s_place_takes_the_entry_its_profile_names_and_gives_the_person_s_bytes_back() {
    let w = World::empty();
    w.team_file(TEAM);
    for (rel, text) in MINE {
        w.write(&w.repo.join(rel), text);
    }
    let team = crate::common::team_bin().display().to_string();

    let r = w.team(&["mcp", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    for seat in ["keeper", "rev", "gem", "qwen", "pilot", "open", "grok"] {
        assert!(r.stdout.lines().any(|l| l.starts_with(&format!("{seat}: missing → written"))), "{seat}: {}", r.stdout);
    }
    assert!(r.stdout.contains("cur: unsupported → left alone"), "{}", r.stdout);
    assert!(
        r.stdout.contains("qwen-code: Qwen Code asks once, on its `Untrusted MCP server` screen, to approve the server; a person answers it in each qwen-code seat's pane (team never does)."),
        "{}",
        r.stdout
    );
    assert_eq!(json(&w, ".mcp.json")["mcpServers"]["team"]["command"], team.as_str());
    assert_eq!(json(&w, ".mcp.json")["mcpServers"]["docs"]["command"], "docs-mcp");
    assert_eq!(json(&w, ".gemini/settings.json")["mcpServers"]["team"]["trust"], true);
    assert_eq!(json(&w, ".qwen/settings.json")["mcpServers"]["team"]["args"][0], "mcp");
    assert_eq!(json(&w, "opencode.json")["mcp"]["team"]["command"][0], team.as_str());
    assert_eq!(json(&w, ".grok/settings.json")["mcpServers"]["team"]["transport"]["command"], team.as_str());
    assert!(std::fs::read_to_string(w.repo.join(".codex/config.toml")).unwrap().contains("[mcp_servers.team]"));

    let r = w.team(&["hooks", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    for seat in ["keeper", "rev", "gem", "qwen", "pilot"] {
        assert!(r.stdout.lines().any(|l| l.starts_with(&format!("{seat}: missing → written"))), "{seat}: {}", r.stdout);
    }
    for seat in ["open", "grok", "cur"] {
        assert!(r.stdout.contains(&format!("{seat}: unsupported → left alone")), "{seat}: {}", r.stdout);
    }
    let g = json(&w, ".gemini/settings.json");
    assert_eq!(g["hooks"]["AfterAgent"][0]["hooks"][0]["command"], format!("{team} hook stop"));
    assert_eq!(g["mcpServers"]["team"]["command"], team.as_str());
    let c = json(&w, ".github/copilot/settings.local.json");
    assert_eq!(c["hooks"]["agentStop"][0]["bash"], "notify-send done");
    assert_eq!(c["hooks"]["agentStop"][1]["command"], format!("{team} hook stop"));
    assert_eq!(c["hooks"]["postToolUse"][0]["command"], format!("{team} hook post-tool-use"));

    let st = w.team(&["mcp", "status", "--json"]);
    let doc: Value = serde_json::from_str(&st.stdout).unwrap();
    let files: Vec<(String, String)> = doc["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["seat"].as_str().unwrap().to_string(), s["state"].as_str().unwrap().to_string()))
        .collect();
    assert!(files.iter().all(|(s, st)| st == if s == "cur" { "unsupported" } else { "installed" }), "{files:?}");
    let hs = w.team(&["hooks", "status"]);
    assert!(
        hs.stdout
            .contains("gem: installed (.gemini/settings.json runs this team at AfterTool, AfterAgent, BeforeAgent"),
        "{}",
        hs.stdout
    );
    assert!(
        hs.stdout
            .contains("qwen: installed (.qwen/settings.json runs this team at PostToolUse, Stop, UserPromptSubmit"),
        "{}",
        hs.stdout
    );
    assert!(
        hs.stdout.contains(
            "pilot: installed (.github/copilot/settings.local.json runs this team at postToolUse, agentStop, userPromptSubmitted"
        ),
        "{}",
        hs.stdout
    );

    assert_eq!(w.team(&["hooks", "remove"]).code, 0);
    assert_eq!(w.team(&["mcp", "remove"]).code, 0);
    for (rel, text) in MINE {
        assert_eq!(std::fs::read_to_string(w.repo.join(rel)).unwrap(), text, "{rel}");
    }
}
