//! The MCP face with the real CLIs (issue 22): `team mcp install` writes the server's entry in
//! the checkout (`.mcp.json` for Claude Code, `.codex/config.toml` for Codex), each CLI starts
//! `team mcp` itself, and its model — scripted by the mock — calls `team_send`. The sender is
//! found from the server's process tree (a child of the CLI in the seat's pane), admitted and
//! written down as a shell `team send`'s; the tool's result is what the sending model gets back.
//! Codex calls it in its default sandbox (workspace-write, no exec-policy rule): its MCP servers
//! run outside that sandbox (docs/mcp.md).

use super::checks::{model_read_the_drop, one_drop, one_history};
use super::harness::{CodexOpts, RealWorld};
use serde_json::json;

/// Installs the entries as the owner, and approves the project's server for Claude Code (the
/// choice a person makes once at Claude's prompt: `enabledMcpjsonServers`), with its tools
/// allowed as `Bash(team send:*)` is for the shell path.
pub(super) fn install(rw: &RealWorld) {
    let r = rw.w.team(&["mcp", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("claude-keeper: missing → written"), "{}", r.stdout);
    assert!(r.stdout.contains("gpt-reviewer: missing → written"), "{}", r.stdout);
    let settings = json!({
        "enabledMcpjsonServers": ["team"],
        "permissions": { "allow": [
            "mcp__team__team_send", "mcp__team__team_list", "mcp__team__team_inbox",
            "mcp__team__team_reply", "mcp__team__team_ack",
        ] },
    });
    rw.w.write(&rw.w.repo.join(".claude/settings.local.json"), &settings.to_string());
}

/// The tool names a Codex request offered (a namespace's tools as `<namespace>.<tool>`).
pub(super) fn codex_tools(rw: &RealWorld) -> Vec<String> {
    let text = std::fs::read_to_string(rw.mock.dir.join("requests.jsonl")).unwrap_or_default();
    let mut out = vec![];
    for l in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else { continue };
        if v["api"] != "openai" {
            continue;
        }
        for t in v["body"]["tools"].as_array().into_iter().flatten() {
            let name = t["name"].as_str().unwrap_or("").to_string();
            match t["tools"].as_array() {
                Some(inner) => out.extend(inner.iter().map(|i| format!("{name}.{}", i["name"].as_str().unwrap_or("")))),
                None => out.push(name),
            }
        }
        break;
    }
    out
}

#[test]
fn claude_calls_team_send_and_codex_receives_it() {
    let rw = RealWorld::start();
    install(&rw);
    let claude = rw.claude("claude-keeper", "claude-keeper");
    let _codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts::default());
    let body = "review the gate, through the tool";
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "reviewer-reads",
        "rules": [{ "when": "tell the reviewer", "steps": [
            { "tool": "mcp__team__team_send", "input": { "to": ["gpt-reviewer"], "message": body } },
            { "text": "Sent." },
        ]}],
    }));
    rw.prompt(&claude, "anthropic", "tell the reviewer");
    let out = rw.mock.wait_result("anthropic", "tell the reviewer", 1);
    rw.mock.open("reviewer-reads");

    // Claude Code hands its model the structured result (the text beside it says the same)
    let got: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    delivered_through_the_tool(&rw, &got, ("claude-keeper", "gpt-reviewer"), "lead of beacon", body, "openai");
}

/// The tool's answer `got` says `to` was delivered the message `from` sent, with the id of the
/// one drop file; the history holds that one line admitted by `rule`; and the receiving
/// model (`reader_api`'s) read the drop.
fn delivered_through_the_tool(
    rw: &RealWorld,
    got: &serde_json::Value,
    (from, to): (&str, &str),
    rule: &str,
    body: &str,
    reader_api: &str,
) {
    assert_eq!(got["from"], from, "{got}");
    let drop = one_drop(rw, to, from, rule, body);
    let id = super::checks::id_of(&drop);
    let row = &got["recipients"][0];
    let sentence = format!("{to}: delivered");
    assert_eq!((row["outcome"].as_str(), row["sentence"].as_str()), (Some("delivered"), Some(sentence.as_str())));
    assert_eq!(row["id"].as_str(), Some(id.as_str()), "{got}");
    one_history(rw, from, to, "delivered", rule, body, &drop);
    model_read_the_drop(rw, reader_api, &drop, body);
}

#[test]
fn codex_calls_team_send_in_its_default_sandbox_and_claude_receives_it() {
    let rw = RealWorld::start();
    install(&rw);
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    // the default sandbox, and no exec-policy rule: nothing lets a shell `team send` out
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: false, rule: false });
    let body = "the review is done, through the tool";
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "lead-reads",
        "rules": [{ "when": "tell the lead", "steps": [
            // (Codex 0.171 offers an MCP server's tools as the namespace mcp__<server>)
            { "tool": "team_send", "namespace": "mcp__team", "input": { "to": ["claude-keeper"], "message": body } },
            { "text": "Sent." },
        ]}],
    }));
    rw.prompt(&codex, "openai", "tell the lead");
    let asked = rw.mock.wait_for("the step that called the tool", |r| r.prompt.contains("tell the lead"));
    assert!(asked.turn_metadata().contains("workspace-write"), "the default sandbox: {}", asked.turn_metadata());
    let tools = codex_tools(&rw);
    assert!(tools.iter().any(|t| t.contains("team_send")), "Codex offers the tool: {tools:?}");
    let out = rw.mock.wait_result("openai", "tell the lead", 1);
    rw.mock.open("lead-reads");
    // Codex hands its model the structured result after its call's wall time
    let got: serde_json::Value = out
        .split_once("Output:\n")
        .and_then(|(_, j)| serde_json::from_str(j.trim()).ok())
        .unwrap_or_else(|| panic!("what Codex's model got back: {out}; tools offered: {tools:?}"));
    delivered_through_the_tool(&rw, &got, ("gpt-reviewer", "claude-keeper"), "own lead", body, "anthropic");
}

/// Codex started plainly (`codex`, its shared `codex app-server` daemon running) starts its MCP
/// servers under that daemon (measured: `team mcp`'s parent chain runs through `codex
/// app-server --listen unix://`), which runs every window's of one CODEX_HOME: the tool refuses
/// as a shell command under it is refused, naming `codex --no-daemon`. Nothing is written.
#[test]
fn codex_with_its_daemon_is_refused_with_the_repair() {
    let rw = RealWorld::start();
    install(&rw);
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: true, rule: false });
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "tell the lead", "steps": [
            { "tool": "team_send", "namespace": "mcp__team", "input": { "to": ["claude-keeper"], "message": "via the daemon" } },
            { "text": "Sent." },
        ]}],
    }));
    rw.prompt(&codex, "openai", "tell the lead");
    let out = rw.mock.wait_result("openai", "tell the lead", 1);
    let got: serde_json::Value = out
        .split_once("Output:\n")
        .and_then(|(_, j)| serde_json::from_str(j.trim()).ok())
        .unwrap_or_else(|| panic!("what Codex's model got back: {out}"));
    let message = got["error"]["message"].as_str().unwrap_or("");
    assert!(message.starts_with("refused: this call runs under `codex app-server`"), "{out}");
    assert_eq!(got["error"]["repair"], "start Codex with `codex --no-daemon`, so each window runs its own commands");
    assert!(rw.drops("claude-keeper").is_empty(), "nothing was written");
    assert!(rw.history().is_empty(), "no history line: {:?}", rw.history());
    assert!(rw.mock.main_requests("anthropic").is_empty(), "Claude's model was sent nothing");
}
