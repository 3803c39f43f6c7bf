//! An agent sending to a seat whose delivery goes through its inbox (issue 29 item 6): the
//! sender's own tool call — Claude Code's Bash tool running `team send`, and its MCP
//! `team_send` call — to Codex working mid-turn with team's hooks installed. The receiver's
//! turn is held at the mock (a model step that waits for a gate), so no hook of it can run
//! while the sender's call is open: the send must answer `queued` without waiting for one —
//! never `delivered` before the hook's receipt — and the hook hands the message once the
//! receiver's turn goes on, writing the `delivered` line itself. A reply (`team reply` from
//! Codex's `exec_command` to a working Claude) is answered the same way.
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

/// A reply is an agent's too (issue 29 item 6's class): Claude asks Codex with its Bash tool and
/// goes on working, held at the gate; Codex answers with `team reply <id>` through its
/// `exec_command`. The reply travels by Claude's inbox (its checkout runs team's hooks) and
/// Codex's command is answered `queued` at once, exit 0 — it waited the 20 s window and said
/// `held` before, and before that was typed into the working Claude. Claude's next hook hands it.
#[test]
fn codex_s_team_reply_gets_queued_at_once_from_a_working_claude() {
    let rw = RealWorld::start();
    install(&rw);
    let (question, answer) = ("is the parser branch ready?", "yes: the parser branch passes its tests");
    let ask = "ask the reviewer and keep working";
    let claude_rule = json!({ "when": ask, "steps": [
        { "bash": format!("team send gpt-reviewer \"{question}\""), "description": "Ask the reviewer" },
        { "bash": "true", "description": "Check the build", "hold": "receiver" },
        { "bash": "sleep 1", "description": "Wait for the build" },
        { "text": "Built." },
    ]});
    let codex_rule = |id: &str| {
        json!({ "when": "send-drops/beacon/gpt-reviewer/", "steps": [
            { "read": "@trigger", "hold": "reviewer-reads" },
            { "bash": format!("team reply {id} \"{answer}\""), "yield_ms": 30000 },
            { "text": "Answered the lead." },
        ]})
    };
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [claude_rule.clone(), codex_rule("<unknown yet>")] }));
    let claude = rw.claude("claude-keeper", "claude-keeper");
    let opts = CodexOpts { daemon: false, rule: true };
    let codex = rw.codex_started("gpt-reviewer", "gpt-reviewer", None, opts);
    rw.wait_screen(&codex, "Codex's `Hooks need review`", |s| s.contains("Hooks need review"));
    trust_hooks(&rw, &codex);
    rw.prompt(&claude, Cli::Claude.api(), ask);
    let out = rw.mock.wait_result(Cli::Claude.api(), ask, 1);
    assert!(out.trim_end().ends_with("gpt-reviewer: delivered"), "what Claude's Bash tool printed: {out}");
    rw.wait_screen(&claude, "Claude working, held at the gate", |s| s.contains("esc to interrupt"));

    let asked = rw.drops("gpt-reviewer");
    assert_eq!(asked.len(), 1, "{asked:?}");
    let id = id_of(&asked[0]);
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [claude_rule, codex_rule(&id)] }));
    let before = last_n(&rw);
    rw.mock.open("reviewer-reads");
    let trigger = super::checks::trigger(&rw, &asked[0]);
    let out = rw.mock.wait_for("Codex's reply output", |r| {
        r.api == Cli::Codex.api() && r.kind == "main" && r.prompt.contains(&trigger) && r.results.len() >= 2
    });
    let issued = rw.mock.wait_for("Codex's reply step", |r| {
        r.api == Cli::Codex.api() && r.kind == "main" && r.prompt.contains(&trigger) && r.results.len() == 1
    });
    let (code, said) = codex_output(&out.results[1]);
    eprintln!("AGENT-SEND-MS Codex team reply: the replier's call {} ms: {said:?}", out.at_ms - issued.at_ms);
    let reply = id_of(&drop_for(&rw, Cli::Claude.seat(), answer));
    let head = format!("{CONTEXT}\nclaude-keeper: queued in claude-keeper's inbox (id {reply}): ");
    assert!(said.starts_with(&head), "what Codex's command printed: {said:?}");
    assert!(said.contains(&format!("(reply to {id}: {question})")), "{said:?}");
    assert_eq!(code, Some(0), "{said:?}");
    let lines = lines_of(&rw, &reply);
    assert_eq!((lines[0]["outcome"].as_str(), lines[0]["reply_to"].as_str()), (Some("queued"), Some(id.as_str())));

    rw.mock.open("receiver");
    wait_carried(&rw, Cli::Claude, before, answer);
    let line = wait_delivered_by_inbox(&rw, &reply);
    assert_eq!((line["from"].as_str(), line["reply_to"].as_str()), (Some("gpt-reviewer"), Some(id.as_str())), "{line}");
}
