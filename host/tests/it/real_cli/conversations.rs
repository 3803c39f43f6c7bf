//! A question and its answer through `team` alone, on the real CLIs (docs/conversations.md):
//! Claude Code asks Codex with its Bash tool (`team send`), Codex answers that message with
//! `team reply <id>` through its `exec_command`, and Claude's model is given the answer — the
//! mock's request log shows it. Each hop admitted (the lead's rule, then `reply to <id>`),
//! proven (`delivered`, as each sending model got it) and written down (two history lines, the
//! second with `reply_to`).

use super::checks::{codex_output, header, trigger, CONTEXT};
use super::harness::{CodexOpts, RealWorld};
use serde_json::json;

#[test]
fn claude_asks_codex_and_codex_answers_with_team_reply() {
    let rw = RealWorld::start();
    let claude = rw.claude("claude-keeper", "claude-keeper");
    let _codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: false, rule: true });
    let (question, answer) = ("is the parser branch ready?", "yes: the parser branch passes its tests");
    // Codex's read of the question waits at a gate until the test knows the question's id and
    // has put it in Codex's reply command.
    let codex_rule = |id: &str| {
        json!({ "when": "send-drops/beacon/gpt-reviewer/", "steps": [
            { "read": "@trigger", "hold": "reviewer-reads" },
            { "bash": format!("team reply {id} \"{answer}\""), "yield_ms": 30000 },
            { "text": "Answered the lead." },
        ]})
    };
    let claude_rule = json!({ "when": "ask the reviewer", "steps": [
        { "bash": format!("team send gpt-reviewer \"{question}\""), "description": "Ask the reviewer" },
        { "text": "Asked." },
    ]});
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [claude_rule.clone(), codex_rule("<unknown yet>")] }));
    rw.prompt(&claude, "anthropic", "ask the reviewer");
    let out = rw.mock.wait_result("anthropic", "ask the reviewer", 1);
    assert_eq!(out.trim_end(), format!("{CONTEXT}\ngpt-reviewer: delivered"), "what Claude's Bash tool printed");

    let asked = rw.drops("gpt-reviewer");
    assert_eq!(asked.len(), 1, "{asked:?}");
    let id = super::checks::id_of(&asked[0]);
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [claude_rule, codex_rule(&id)] }));
    rw.mock.open("reviewer-reads");

    // Codex: the question read, then its reply and the outcome its exec_command printed
    let read = rw.mock.wait_result("openai", &trigger(&rw, &asked[0]), 1);
    assert!(read.contains(question), "Codex's model was not given the question: {read}");
    let out = rw.mock.wait_result("openai", &trigger(&rw, &asked[0]), 2);
    let (code, text) = codex_output(&out);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(text, format!("{CONTEXT}\nclaude-keeper: delivered (reply to {id}: {question})\n"), "{out}");

    // Claude's model is given the answer: the trigger naming the reply's drop, then its text
    let replies = rw.drops("claude-keeper");
    assert_eq!(replies.len(), 1, "{replies:?}");
    let got = rw.mock.wait_result("anthropic", &trigger(&rw, &replies[0]), 1);
    // (Claude's Read tool numbers the lines it returns)
    for line in [header("gpt-reviewer", &format!("reply to {id}")), format!("in-reply-to: {id} ({question})")] {
        assert!(got.contains(&line), "Claude's model was not given the reply's header line {line:?}: {got}");
    }
    assert!(got.contains(answer), "Claude's model was not given the answer: {got}");

    // written down: the question, then the reply tied to it; the question acked by the reply
    let h = rw.history();
    assert_eq!(h.len(), 2, "{h:#?}");
    assert_eq!(
        (h[0]["from"].as_str(), h[0]["to"].as_str(), h[0]["id"].as_str()),
        (Some("claude-keeper"), Some("gpt-reviewer"), Some(id.as_str()))
    );
    assert_eq!((h[1]["from"].as_str(), h[1]["to"].as_str()), (Some("gpt-reviewer"), Some("claude-keeper")));
    assert_eq!(
        (h[1]["outcome"].as_str(), h[1]["reply_to"].as_str()),
        (Some("delivered"), Some(id.as_str())),
        "{}",
        h[1]
    );
    let feed = rw.w.team(&["feed"]);
    assert!(feed.stdout.contains("acked"), "the question shows acked by its reply: {}", feed.stdout);
}
