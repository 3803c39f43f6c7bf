//! Agents sending through their own shell tools (DESIGN §4, docs/agents.md): Claude Code's
//! Bash tool and Codex's `exec_command` run `team send`, scripted by the mock model; the
//! outcome line is what the sending model gets back as the tool's output. Also the two
//! Codex set-ups that must not send: under the shared app-server daemon, and in the default
//! sandbox.

use super::checks::{codex_output, model_read_the_drop, one_drop, one_history, CONTEXT};
use super::harness::{CodexOpts, RealWorld};
use serde_json::json;

/// Claude's Bash tool has no terminal; its process descends from the marked pane's shell, so
/// the caller is claude-keeper, the lead, and the send to its reviewer is admitted.
#[test]
fn claude_bash_tool_sends_to_codex_as_claude_keeper() {
    let rw = RealWorld::start();
    let claude = rw.claude("claude-keeper", "claude-keeper");
    let _codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts::default());
    let body = "review the gate";
    // Codex's read of the drop waits until Claude has the outcome: the send's evidence is then
    // Codex working on the line, never a race with how fast the mock answers.
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "reviewer-reads",
        "rules": [{ "when": "tell the reviewer", "steps": [
            { "bash": format!("team send gpt-reviewer \"{body}\""), "description": "Message the reviewer" },
            { "text": "Sent." },
        ]}],
    }));
    rw.prompt(&claude, "anthropic", "tell the reviewer");
    let out = rw.mock.wait_result("anthropic", "tell the reviewer", 1);
    rw.mock.open("reviewer-reads");

    assert_eq!(out.trim_end(), format!("{CONTEXT}\ngpt-reviewer: delivered"), "what Claude's Bash tool printed");
    let drop = one_drop(&rw, "gpt-reviewer", "claude-keeper", "lead of beacon", body);
    one_history(&rw, "claude-keeper", "gpt-reviewer", "delivered", "lead of beacon", body, &drop);
    model_read_the_drop(&rw, "openai", &drop, body);
}

/// Codex's `exec_command` gives pipes, no terminal; with the exec-policy rule the command runs
/// outside the sandbox, and with `--no-daemon` it descends from the pane's shell: the caller is
/// gpt-reviewer, and the send to its own lead is admitted.
#[test]
fn codex_shell_tool_sends_to_its_lead_as_gpt_reviewer() {
    let rw = RealWorld::start();
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: false, rule: true });
    let body = "the review is done";
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "lead-reads",
        "rules": [{ "when": "tell the lead", "steps": [
            { "bash": format!("team send claude-keeper \"{body}\""), "yield_ms": 30000 },
            { "text": "Sent." },
        ]}],
    }));
    rw.prompt(&codex, "openai", "tell the lead");
    let out = rw.mock.wait_result("openai", "tell the lead", 1);
    rw.mock.open("lead-reads");

    assert_eq!(codex_output(&out), (Some(0), format!("{CONTEXT}\nclaude-keeper: delivered\n")), "{out}");
    let drop = one_drop(&rw, "claude-keeper", "gpt-reviewer", "own lead", body);
    one_history(&rw, "gpt-reviewer", "claude-keeper", "delivered", "own lead", body, &drop);
    model_read_the_drop(&rw, "anthropic", &drop, body);
}

/// Two Codex windows of one CODEX_HOME without `--no-daemon`: the first (the marked
/// gpt-reviewer) starts the shared `codex app-server` daemon, which runs the second window's
/// commands too. The second window sits in an unmarked pane: its send must not pass as
/// gpt-reviewer. It is refused, naming the repair.
#[test]
fn codex_under_the_shared_daemon_is_refused_with_the_repair() {
    let rw = RealWorld::start();
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let opts = CodexOpts { daemon: true, rule: true };
    let first = rw.codex("gpt-reviewer", "gpt-reviewer", None, opts);
    let second = rw.codex("codex-2", "", Some(&first.home), opts);
    assert!(rw.processes().iter().any(|c| c.contains("app-server")), "the shared daemon runs: {:#?}", rw.processes());
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "report to the lead", "steps": [
            { "bash": "team send claude-keeper \"from the second window\"", "yield_ms": 30000 },
            { "text": "Done." },
        ]}],
    }));
    rw.prompt(&second, "openai", "report to the lead");
    let out = rw.mock.wait_result("openai", "report to the lead", 1);

    let (code, text) = codex_output(&out);
    assert_eq!(code, Some(1), "{out}");
    assert!(text.contains("refused"), "{text}");
    assert!(text.contains("codex --no-daemon"), "the refusal names the repair: {text}");
    assert!(rw.drops("claude-keeper").is_empty(), "nothing was written");
    assert!(rw.history().is_empty(), "no history line: {:?}", rw.history());
    assert!(rw.mock.main_requests("anthropic").is_empty(), "Claude's model was sent nothing");
}

/// Codex's default sandbox (workspace-write, bubblewrap): a pid namespace hides the pane's
/// shell, the tmux socket's connect is blocked, the config and `.agents` are read-only. The
/// send says a sandbox is in the way — never "not running" or "a claimed identity".
#[test]
fn codex_in_its_default_sandbox_gets_the_sandbox_sentence() {
    let rw = RealWorld::start();
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: false, rule: false });
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "tell the lead", "steps": [
            { "bash": "team send claude-keeper \"the review is done\"", "yield_ms": 30000 },
            { "text": "Done." },
        ]}],
    }));
    rw.prompt(&codex, "openai", "tell the lead");
    let out = rw.mock.wait_result("openai", "tell the lead", 1);
    let asked = rw.mock.wait_for("the step that ran the command", |r| r.prompt.contains("tell the lead"));
    let meta = asked.turn_metadata();
    assert!(meta.contains("workspace-write"), "the command ran in the default sandbox: {meta}");

    let (code, text) = codex_output(&out);
    assert_eq!(code, Some(1), "{out}");
    assert!(text.contains("sandbox"), "the sandbox sentence: {text}");
    assert!(text.contains("docs/agents.md"), "it points at docs/agents.md: {text}");
    assert!(!text.contains("not running"), "never 'not running': {text}");
    assert!(!text.contains("a claimed identity"), "never 'a claimed identity': {text}");
    assert!(rw.drops("claude-keeper").is_empty(), "nothing was written");
    assert!(rw.history().is_empty(), "no history line: {:?}", rw.history());
    assert!(rw.mock.main_requests("anthropic").is_empty(), "Claude's model was sent nothing");
}
