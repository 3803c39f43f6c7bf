//! The race of issue 31, end to end and deterministic: a seat with hooks reads idle at the inbox
//! leg's look (so the typed leg takes the send, the message queued beside its trigger as a
//! companion) and working at the typed leg's own look a moment later. The send goes back to the
//! inbox: nothing typed, the companion withdrawn, the message queued once and handed by the
//! seat's next hook — never typed and queued both, never lost.
//!
//! How the moment between the two looks is reached without a sleep: the seat's turn started
//! before the send (its prompt hook ran on an empty inbox) and its screen shows it only when a
//! file appears (`fake-seat --turn-shows-when`, a CLI whose screen lags its turn); a tmux
//! `after-display-message` hook — every screen read of `team` starts with a display-message,
//! and tmux runs the hook before the read's captures — shows the turn at the first read that
//! finds the companion waiting in the seat's inbox (queued between the two looks), and waits
//! until the pane shows it working before the read goes on.

use crate::common;
use crate::common::tmux::TmuxWorld;
use crate::common::World;
use serde_json::Value;
use std::path::Path;

const PROMPT: &str = "warm up";

/// How the seat reads at the inbox leg's look, and what the tmux hook waits for.
#[derive(Clone, Copy, PartialEq)]
enum Between {
    /// Idle at its look (the companion queued); working at the typed look.
    Idle,
    /// As `Idle`, and the seat's tool-call hook handed the companion before the typed look.
    IdleHanded,
    /// An empty screen at its look (not readable for the inbox: no companion); working at the
    /// typed look, which the drop the typed leg wrote before it announces.
    Blank,
}

/// The script the tmux hook runs: inert until the send reached the typed leg (the companion
/// waiting in the seat's inbox; for `Blank`, the typed leg's drop written); then, once, shows
/// the seat's turn and waits (bounded) until its pane shows it working — for `IdleHanded`, and
/// the companion handed. `done` says what it did (`shown`, or why not).
fn hook_script(dir: &Path, s: &common::scene::Scene, pane: &str, between: Between) -> std::path::PathBuf {
    let (done, shows) = (dir.join("hook.done"), dir.join("rev.shows"));
    let inbox = format!("{}/*/inbox/beacon/rev", s.w.config.display());
    let reached = match between {
        Between::Blank => format!("{}/.agents/send-drops/beacon/rev/*", s.w.repo.display()),
        _ => format!("{inbox}/*.json"),
    };
    let also = if between == Between::IdleHanded {
        format!("ls {inbox}/handed/*.json >/dev/null 2>&1 && ")
    } else {
        String::new()
    };
    let script = format!(
        r#"#!/bin/bash
[ -e '{done}' ] && exit 0
ls {reached} >/dev/null 2>&1 || exit 0
echo started > '{done}'
touch '{shows}'
for _ in $(seq 1 1000); do
  if {also}tmux -S '{socket}' capture-pane -p -t '{pane}' | grep -q 'esc to interrupt'; then
    echo shown > '{done}'
    exit 0
  fi
  sleep 0.02
done
echo 'never shown' > '{done}'
"#,
        done = done.display(),
        shows = shows.display(),
        socket = s.tw.socket_str(),
    );
    let path = dir.join("between-the-looks.sh");
    std::fs::write(&path, script).unwrap();
    path
}

/// What the seat's hooks handed its model: (event, text), in order.
fn handed(log: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Some((v["event"].as_str()?.to_string(), v["text"].as_str()?.to_string())))
        .collect()
}

/// A scene of one Claude Code seat with hooks whose person's prompt was taken (its prompt hook
/// ran on an empty inbox) and whose turn does not show yet; the tmux hook set (`handed`: see
/// [`hook_script`]). Returns the scene, its folder and the seat's hook log.
fn turning_seat(between: Between) -> (common::scene::Scene, tempfile::TempDir, std::path::PathBuf) {
    let w = World::empty();
    w.team_file("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: rev\n    role: worker\n    cli: claude-code\n");
    common::scene::install_hooks(&w);
    let base = tempfile::Builder::new().prefix("team-race-").tempdir().unwrap();
    let mut spec = common::scene::hooked_seat(&w, base.path(), "rev", "claude-code", "takes-line,ends-when-told")
        .arg("--turn-shows-when", &base.path().join("rev.shows").display().to_string());
    if between == Between::Blank {
        spec.args.push("--blank-while-unshown".into());
    }
    let tw = TmuxWorld::start("beacon", &[spec]);
    let s = common::scene::Scene::of(w, tw, None);

    s.keys("rev", &[PROMPT, "Enter"]);
    let screen = s.tw.acted_on("rev", format!("{PROMPT}\r").as_bytes());
    assert!(!screen.contains("esc to interrupt"), "the turn shows already:\n{screen}");
    if between == Between::Blank {
        assert_eq!(screen.trim(), "", "an empty screen");
    }
    let hook_log = base.path().join("rev.hooks");
    let events = std::fs::read_to_string(&hook_log).unwrap_or_default();
    assert!(events.contains("UserPromptSubmit"), "the prompt hook ran: {events}");

    let pane = s.tw.seat("rev").pane.clone();
    let script = hook_script(base.path(), &s, &pane, between);
    let hook = format!("run-shell 'bash {}'", script.display());
    assert!(s.tw.tmux(&["set-hook", "-g", "after-display-message", &hook]).status.success());
    (s, base, hook_log)
}

/// The send, and proof that the tmux hook turned the seat between the two looks.
fn send(s: &common::scene::Scene, base: &Path) -> common::Run {
    let r = s.w.sh("TEAM_ID_SEED=7 team send rev 'review the branch'");
    let done = std::fs::read_to_string(base.join("hook.done")).unwrap_or_default();
    assert_eq!(done.trim(), "shown", "the seat turned working between the two looks");
    r
}

/// The inbox's folders of seat rev: how many entries `sub` holds.
fn count(s: &common::scene::Scene, sub: &str) -> usize {
    let inbox = s.project_dir().unwrap().join("inbox/beacon/rev");
    std::fs::read_dir(inbox.join(sub)).map(|d| d.count()).unwrap_or(0)
}

/// What every race ends in: the send said `line`, nothing was typed (the seat received the
/// person's prompt and nothing else), a hook handed the message once, and history holds one
/// line, delivered through the inbox; answers the hand-over and the history line.
fn handed_once_untyped(
    s: &common::scene::Scene,
    r: &common::Run,
    line: &str,
    hook_log: &Path,
) -> ((String, String), Value) {
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.ends_with(&format!("rev: {line}\n")), "{}", r.stdout);
    assert_eq!(s.bytes("rev"), format!("{PROMPT}\r"), "no trigger was typed");
    s.tw.wait_until(common::BOUND, || !handed(hook_log).is_empty());
    let mut handed = handed(hook_log);
    assert_eq!(handed.len(), 1, "{handed:?}");
    let h = s.history();
    assert_eq!(h.len(), 1, "one line: {h:?}");
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("delivered"), Some("mcp-inbox")));
    (handed.remove(0), h[0].clone())
}

#[test]
fn a_seat_turning_busy_between_the_inbox_look_and_the_typed_look_gets_the_message_in_its_inbox_untyped() {
    let (s, base, hook_log) = turning_seat(Between::Idle);
    let r = send(&s, base.path());
    // handed once, by the next tool call's hook; the companion was never handed
    let (handed, line) = handed_once_untyped(&s, &r, "delivered (handed by its PostToolUse hook)", &hook_log);
    assert_eq!(handed.0, "PostToolUse");
    assert!(handed.1.ends_with(":\n\nreview the branch"), "{}", handed.1);
    assert_eq!(line["note"], "handed by its PostToolUse hook");
    let receipts: Vec<Value> = s.receipts().into_iter().filter(|r| r["receipt"] == "handed").collect();
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    // the one drop the send wrote, and the companion withdrawn beside the message handed
    assert_eq!(s.drops("rev").len(), 1);
    assert_eq!((count(&s, "withdrawn"), count(&s, "handed")), (1, 1));
    std::fs::write(base.path().join("rev.end"), "").unwrap();
}

/// The seat's tool-call hook handed the trigger's companion whole before the typed leg's look:
/// that hand-over is the delivery — nothing typed, nothing queued again.
#[test]
fn a_companion_a_hook_handed_before_the_typed_look_is_the_delivery_and_nothing_is_queued_again() {
    let (s, base, hook_log) = turning_seat(Between::IdleHanded);
    let r = send(&s, base.path());
    let (handed, _) = handed_once_untyped(&s, &r, "delivered (handed whole by its hook)", &hook_log);
    assert_eq!(handed.0, "PostToolUse");
    assert!(handed.1.ends_with("review the branch"), "{}", handed.1);
    assert_eq!((count(&s, "withdrawn"), count(&s, "handed")), (0, 1));
    // nothing waits: the message was not queued a second time
    let inbox = s.project_dir().unwrap().join("inbox/beacon/rev");
    let waiting = std::fs::read_dir(&inbox).unwrap().flatten().filter(|e| e.path().is_file()).count();
    assert_eq!(waiting, 0);
    std::fs::write(base.path().join("rev.end"), "").unwrap();
}

/// The inbox leg's look found an empty screen (not readable for the inbox, so the typed leg's,
/// with no companion); the typed leg's look, working: given back all the same, queued once, the
/// drop the typed leg wrote the only one.
#[test]
fn a_seat_unreadable_at_the_inbox_look_and_busy_at_the_typed_look_gets_the_message_in_its_inbox_untyped() {
    let (s, base, hook_log) = turning_seat(Between::Blank);
    let r = send(&s, base.path());
    let (handed, _) = handed_once_untyped(&s, &r, "delivered (handed by its PostToolUse hook)", &hook_log);
    assert!(handed.1.ends_with(":\n\nreview the branch"), "{}", handed.1);
    assert_eq!(s.drops("rev").len(), 1);
    assert_eq!((count(&s, "withdrawn"), count(&s, "handed")), (0, 1));
    std::fs::write(base.path().join("rev.end"), "").unwrap();
}
