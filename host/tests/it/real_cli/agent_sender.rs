//! An agent sending to a seat whose delivery goes through its inbox (issue 29 item 6): the
//! sender's own tool call — Claude Code's Bash tool running `team send`, and its MCP
//! `team_send` call — to Codex working mid-turn with team's hooks installed. The receiver's
//! turn is held at the mock (a model step that waits for a gate), so no hook of it can run
//! while the sender's call is open: the send must answer `queued` without waiting for one —
//! never `delivered` before the hook's receipt — and the hook hands the message once the
//! receiver's turn goes on, writing the `delivered` line itself.
//!
//! The span of the sender's tool call (from the model request that issued it to the one that
//! carried its output) is printed (`AGENT-SEND-MS`, run with `--nocapture`), never asserted:
//! the note quotes it, before and after.

use super::checks::codex_output;
use super::checks::{id_of, CONTEXT};
use super::harness::{Cli, CodexOpts, RealWorld, Seat};
use super::inbox::{drop_for, install, last_n, lines_of, start, trust_hooks, wait_carried, wait_delivered_by_inbox};
use super::mock::Request;
use serde_json::{json, Value};

/// The receiver's prompt: one short tool call, then a model step held at the gate `receiver`
/// (Codex shows it working; no tool call ends, so no hook runs), then one more call.
const WORK: &str = "keep working on the build";

/// The sender's prompt.
const TELL: &str = "tell the reviewer";

/// Scripts both turns (`send` is the sender's first step), starts the two CLIs — the
/// receiver with team's hooks running (Codex's trusted by the person), the sender allowed to
/// run `team send` — and puts the receiver mid-turn, held at the gate; returns the sender.
fn scene(rw: &RealWorld, sender: Cli, send: Value) -> Seat {
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [
            { "when": WORK, "steps": [
                { "bash": "sleep 1", "description": "Wait for the build" },
                { "bash": "true", "description": "Check the build", "hold": "receiver" },
                { "bash": "sleep 1", "description": "Wait for the build" },
                { "text": "Built." },
            ]},
            { "when": TELL, "steps": [send, { "text": "Sent." }] },
        ],
    }));
    let (from, to) = match sender {
        Cli::Claude => (rw.claude("claude-keeper", "claude-keeper"), start(rw, Cli::Codex, true)),
        Cli::Codex => {
            let to = rw.claude("claude-keeper", "claude-keeper");
            // the exec-policy rule runs `team send` outside Codex's sandbox (docs/agents.md)
            let opts = CodexOpts { daemon: false, rule: true };
            let from = rw.codex_started("gpt-reviewer", "gpt-reviewer", None, opts);
            rw.wait_screen(&from, "Codex's `Hooks need review`", |s| s.contains("Hooks need review"));
            trust_hooks(rw, &from);
            (from, to)
        }
    };
    let receiver = other(sender);
    rw.prompt(&to, receiver.api(), WORK);
    // its first call ended (its hooks ran once, with nothing waiting) and the next step is held
    rw.mock.wait_result(receiver.api(), WORK, 1);
    rw.wait_screen(&to, "the receiver working", |s| s.contains("esc to interrupt"));
    from
}

/// The other CLI of the two.
fn other(cli: Cli) -> Cli {
    match cli {
        Cli::Claude => Cli::Codex,
        Cli::Codex => Cli::Claude,
    }
}

/// The sender's tool call: the request that issued it and the one that carried its output.
fn sender_call(rw: &RealWorld, sender: Cli) -> (Request, Request) {
    let api = sender.api();
    let out = rw.mock.wait_for("the sender's tool output", |r| {
        r.api == api && r.kind == "main" && r.prompt.contains(TELL) && !r.results.is_empty()
    });
    let asked = rw.mock.wait_for("the sender's first step", |r| {
        r.api == api && r.kind == "main" && r.prompt.contains(TELL) && r.results.is_empty()
    });
    (asked, out)
}

/// While the receiver is still held: the message is queued, its one line says so, nothing
/// handed it and the receiving model was sent nothing holding it. Then the gate opens: the
/// receiver's next PostToolUse hook hands it and writes the `delivered` line, `from` the sender.
fn queued_then_handed(rw: &RealWorld, (sender, receiver): (Cli, Cli), body: &str, before: u64) -> String {
    let drop = drop_for(rw, receiver.seat(), body);
    let id = id_of(&drop);
    let lines = lines_of(rw, &id);
    assert_eq!(lines.len(), 1, "one line, the send's: {lines:#?}");
    assert_eq!((lines[0]["outcome"].as_str(), lines[0]["via"].as_str()), (Some("queued"), Some("mcp-inbox")));
    assert_eq!(lines[0]["from"], sender.seat(), "{}", lines[0]);
    let api = receiver.api();
    let carried =
        rw.mock.requests().into_iter().any(|r| r.n > before && r.api == api && r.body.to_string().contains(body));
    assert!(!carried, "the receiving model was sent nothing holding the body while it was held");
    eprintln!("AGENT-SEND-MS {sender:?} -> {receiver:?}: the send itself {} ms (its line's ms)", lines[0]["ms"]);

    rw.mock.open("receiver");
    wait_carried(rw, receiver, before, body);
    let line = wait_delivered_by_inbox(rw, &id);
    assert_eq!(line["from"], sender.seat(), "{line}");
    assert_eq!(line["note"], "handed by its PostToolUse hook", "{line}");
    id
}

/// Claude's Bash tool runs `team send gpt-reviewer …` while Codex is held mid-turn: the tool's
/// output is the `queued` line, exit 0, at once.
#[test]
fn claude_s_bash_tool_gets_queued_at_once_from_a_working_codex() {
    let rw = RealWorld::start();
    install(&rw);
    let body = "review the gate, queued for a working seat";
    let send = json!({ "bash": format!("team send gpt-reviewer \"{body}\""), "description": "Message the reviewer" });
    let claude = scene(&rw, Cli::Claude, send);
    let before = last_n(&rw);
    rw.prompt(&claude, Cli::Claude.api(), TELL);
    let (asked, out) = sender_call(&rw, Cli::Claude);
    let said = &out.results[0];
    eprintln!("AGENT-SEND-MS Bash tool: the sender's call {} ms: {said:?}", out.at_ms - asked.at_ms);
    let id = id_of(&drop_for(&rw, Cli::Codex.seat(), body));
    let head = format!("{CONTEXT}\ngpt-reviewer: queued in gpt-reviewer's inbox (id {id}): ");
    assert!(said.starts_with(&head), "what Claude's Bash tool printed: {said:?}");
    assert!(said.contains("its CLI takes it at its next tool call or turn end; nothing was typed"), "{said:?}");
    queued_then_handed(&rw, (Cli::Claude, Cli::Codex), body, before);
}

/// Claude calls the MCP tool `team_send` while Codex is held mid-turn: the tool's result says
/// `queued` for the recipient, with the message's id, at once.
#[test]
fn claude_s_mcp_team_send_gets_queued_at_once_from_a_working_codex() {
    let rw = RealWorld::start();
    install(&rw);
    super::mcp::install(&rw);
    let body = "review the gate, queued through the tool";
    let send = json!({ "tool": "mcp__team__team_send", "input": { "to": ["gpt-reviewer"], "message": body } });
    let claude = scene(&rw, Cli::Claude, send);
    let before = last_n(&rw);
    rw.prompt(&claude, Cli::Claude.api(), TELL);
    let (asked, out) = sender_call(&rw, Cli::Claude);
    let said = &out.results[0];
    eprintln!("AGENT-SEND-MS MCP team_send: the sender's call {} ms: {said}", out.at_ms - asked.at_ms);
    let got: Value = serde_json::from_str(said).unwrap_or_else(|e| panic!("{e}: {said}"));
    let id = id_of(&drop_for(&rw, Cli::Codex.seat(), body));
    let row = &got["recipients"][0];
    assert_eq!((row["outcome"].as_str(), row["id"].as_str()), (Some("queued"), Some(id.as_str())), "{got}");
    let head = format!("gpt-reviewer: queued in gpt-reviewer's inbox (id {id}): ");
    assert!(row["sentence"].as_str().is_some_and(|s| s.starts_with(&head)), "{got}");
    queued_then_handed(&rw, (Cli::Claude, Cli::Codex), body, before);
}

/// Codex's `exec_command` runs `team send claude-keeper …` (its own lead) while Claude is held
/// mid-turn: the command's output is the `queued` line, exit 0, at once.
#[test]
fn codex_s_shell_tool_gets_queued_at_once_from_a_working_claude() {
    let rw = RealWorld::start();
    install(&rw);
    let body = "the review is done, queued for a working lead";
    let send = json!({ "bash": format!("team send claude-keeper \"{body}\""), "yield_ms": 30000 });
    let codex = scene(&rw, Cli::Codex, send);
    let before = last_n(&rw);
    rw.prompt(&codex, Cli::Codex.api(), TELL);
    let (asked, out) = sender_call(&rw, Cli::Codex);
    let (code, said) = codex_output(&out.results[0]);
    eprintln!("AGENT-SEND-MS Codex exec_command: the sender's call {} ms: {said:?}", out.at_ms - asked.at_ms);
    let id = id_of(&drop_for(&rw, Cli::Claude.seat(), body));
    let head = format!("{CONTEXT}\nclaude-keeper: queued in claude-keeper's inbox (id {id}): ");
    assert!(said.starts_with(&head), "what Codex's command printed: {said:?}");
    assert_eq!(code, Some(0), "{said:?}");
    queued_then_handed(&rw, (Cli::Codex, Cli::Claude), body, before);
}
