//! Issue 29 item 2: a hook hands a message only once its answer has left. The real `team hook`,
//! run by a fake seat as its CLI runs it (a child in the seat's pane, the CLI's JSON on stdin),
//! with its stdout where the test puts it: closed, `/dev/full`, a pipe whose reader has gone,
//! or a pipe the CLI reads while the hook is killed between writing its answer and recording
//! it. Each asserts what the send said, where the message is afterwards, what the seat's model
//! was handed (the fake's hook log), and the history and receipts.

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A scene of one seat `rev` whose CLI runs the hooks file `hooks` (the test rewrites it
/// between runs: the CLIs read theirs again at every event), and the installed command.
struct Scene {
    base: common::scene::Scene,
    dir: tempfile::TempDir,
    /// `<team> hook` as `team hooks install` wrote it (the event word follows).
    team_hook: String,
}

impl std::ops::Deref for Scene {
    type Target = common::scene::Scene;
    fn deref(&self) -> &common::scene::Scene {
        &self.base
    }
}

/// `rev`, a `cli` seat in `mode`, making a tool call every 150 ms while it works; its hooks
/// file starts with `post_tool_use` as its PostToolUse command (`{hook}` stands for the
/// installed `<team> hook post-tool-use`).
fn scene(cli: &str, mode: &str, post_tool_use: &str, scale: Option<&str>) -> Scene {
    let w = World::empty();
    w.team_file(&format!(
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: rev\n    role: worker\n    cli: {cli}\n"
    ));
    let installed = w.team(&["hooks", "install"]);
    assert_eq!(installed.code, 0, "{}{}", installed.stdout, installed.stderr);
    let file = match cli {
        "codex" => ".codex/hooks.json",
        _ => ".claude/settings.local.json",
    };
    let text = std::fs::read_to_string(w.repo.join(file)).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let cmd = v["hooks"]["PostToolUse"][0]["hooks"][0]["command"].as_str().unwrap();
    let team_hook = cmd.strip_suffix(" post-tool-use").expect("the installed command").to_string();
    let dir = tempfile::Builder::new().prefix("team-handover-").tempdir().unwrap();
    set_hooks(dir.path(), &team_hook, post_tool_use);
    let mut spec = SeatSpec::new("rev", cli, mode).cwd(&w.repo).delay(400);
    for (k, v) in w.env() {
        if k.starts_with("TEAM_") && k != "TEAM_NOW" {
            spec = spec.env(&k, &v);
        }
    }
    let spec = spec
        .arg("--hooks", &dir.path().join("hooks.json").display().to_string())
        .arg("--tool-ms", "150")
        .arg("--hook-log", &dir.path().join("rev.hooks").display().to_string());
    let tw = TmuxWorld::start("beacon", &[spec]);
    Scene { base: common::scene::Scene::of(w, tw, scale), dir, team_hook }
}

/// Writes the hooks file in `dir` whose PostToolUse runs `post_tool_use` (`{hook}`: the
/// installed `<team> hook post-tool-use`, `{dir}`: the test's folder); written whole, then
/// renamed in (the seat reads it at every tool call).
fn set_hooks(dir: &Path, team_hook: &str, post_tool_use: &str) {
    let cmd = post_tool_use
        .replace("{hook}", &format!("{team_hook} post-tool-use"))
        .replace("{dir}", &dir.display().to_string());
    let hooks = serde_json::json!({"hooks": {
        "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": cmd}]}],
    }});
    let tmp = dir.join("hooks.json.tmp");
    std::fs::write(&tmp, hooks.to_string()).unwrap();
    std::fs::rename(&tmp, dir.join("hooks.json")).unwrap();
}

impl Scene {
    fn hook_log(&self) -> PathBuf {
        self.dir.path().join("rev.hooks")
    }
    /// The seat's CLI runs `post_tool_use` after each tool call from now on.
    fn set_hooks(&self, post_tool_use: &str) {
        set_hooks(self.dir.path(), &self.team_hook, post_tool_use);
    }
    fn send(&self, msg: &str) -> common::Run {
        self.w.sh(&format!("TEAM_ID_SEED=7 team send rev {}", common::shell_quote(msg)))
    }
    /// Every hook run the seat made: (exit code, what its model was handed).
    fn runs(&self) -> Vec<(Option<i64>, Option<String>)> {
        let text = std::fs::read_to_string(self.hook_log()).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| (v["exit"].as_i64(), v["text"].as_str().map(str::to_string)))
            .collect()
    }
    /// The texts the seat's model was handed that hold `body`.
    fn handed(&self, body: &str) -> Vec<String> {
        self.runs().into_iter().filter_map(|(_, t)| t).filter(|t| t.contains(body)).collect()
    }
    /// The seat's inbox folder's own entries (waiting and claimed messages).
    fn inbox(&self) -> Vec<String> {
        let Some(dir) = self.project_dir() else { return vec![] };
        let seat = dir.join("inbox/beacon/rev");
        let mut v: Vec<String> = std::fs::read_dir(seat)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
    fn team_log(&self) -> String {
        std::fs::read_to_string(self.w.repo.join(".agents/team.log")).unwrap_or_default()
    }
}

/// The message sent while the seat's hook cannot write its answer: the send does not say
/// `delivered` (it ends `held`: nothing reached the model within its window), the message is
/// waiting again after every such hook, and once the hook can answer, the next one hands it —
/// once — and writes the `delivered` line.
fn given_back_then_handed(post_tool_use: &str, what: &str) {
    let s = scene("claude-code", "already-working", post_tool_use, Some("0.05"));
    // the seat runs its failing hook at every tool call already (nothing waits yet)
    assert!(s.tw.wait_until(common::BOUND, || s.runs().len() >= 2), "the seat runs its hooks");
    let r = s.send("review the branch");
    assert!(
        r.stdout.contains("rev: held (in rev's inbox"),
        "{what}: the answer never left, so nothing was delivered: {}{}",
        r.stdout,
        r.stderr
    );
    assert_eq!(r.code, 1, "{what}: {r:?}");
    // a later failing hook ran after the send (so the message was offered to it) and gave it
    // back: waiting again, never handed
    let runs = s.runs().len();
    assert!(s.tw.wait_until(common::BOUND, || s.runs().len() >= runs + 2), "more hooks ran");
    assert!(
        s.tw.wait_until(common::BOUND, || s.team_log().contains("given back")),
        "{what}: the hook says it gave the message back: {}",
        s.team_log()
    );
    let inbox = s.inbox();
    assert!(
        inbox.len() == 1 && inbox[0].ends_with(".json") || inbox.iter().any(|n| n.contains(".claimed-")),
        "{what}: the message is in the inbox still: {inbox:?}"
    );
    assert!(s.handed("review the branch").is_empty(), "{what}: the model got nothing");
    assert!(s.jsonl("receipts.jsonl").is_empty(), "{what}: no handed receipt: {:?}", s.jsonl("receipts.jsonl"));
    // the hook can answer again: the next one hands it, once
    s.set_hooks("{hook}");
    assert!(
        s.tw.wait_until(common::BOUND, || !s.handed("review the branch").is_empty()),
        "{what}: a later hook hands it"
    );
    let runs = s.runs().len();
    assert!(s.tw.wait_until(common::BOUND, || s.runs().len() >= runs + 2), "more hooks ran");
    assert_eq!(s.handed("review the branch").len(), 1, "{what}: handed once");
    assert!(s.tw.wait_until(common::BOUND, || s.jsonl("messages.jsonl").len() == 2), "the hook's delivered line");
    let h = s.jsonl("messages.jsonl");
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("held"), Some("mcp-inbox")), "{h:?}");
    assert_eq!((h[1]["outcome"].as_str(), h[1]["via"].as_str()), (Some("delivered"), Some("mcp-inbox")), "{h:?}");
    assert_eq!(h[1]["note"], "handed by its PostToolUse hook");
    let receipts = s.jsonl("receipts.jsonl");
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert_eq!(receipts[0]["receipt"], "handed");
    assert!(s.inbox().is_empty(), "{what}: nothing waits: {:?}", s.inbox());
}

#[test]
fn a_hook_whose_stdout_is_closed_gives_the_message_back() {
    given_back_then_handed("{hook} >&-", "stdout closed");
}

#[test]
fn a_hook_whose_stdout_is_dev_full_gives_the_message_back() {
    given_back_then_handed("{hook} >/dev/full", "stdout /dev/full");
}

/// The pipe's reader closes its end before the hook writes (the hook waits for the file the
/// reader makes once it has closed: a condition, per run).
#[test]
fn a_hook_whose_reader_has_gone_gives_the_message_back() {
    given_back_then_handed(
        "f={dir}/closed-$$; (until [ -e \"$f\" ]; do sleep 0.01; done; exec {hook}) | (exec <&-; : > \"$f\")",
        "broken pipe",
    );
}
