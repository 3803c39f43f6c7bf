//! The owner's sends (a terminal outside every pane) to the real CLIs: delivered to Claude Code
//! on its transcript alone, delivered to Codex, held over a draft, unreachable behind a
//! permission dialog with nothing pressed.

use super::checks::{model_read_the_drop, one_drop, one_history, trigger, CONTEXT};
use super::harness::{claude_folder, CodexOpts, RealWorld};
use super::mock::BOUND;
use serde_json::json;
use std::time::{Duration, Instant};

/// The dialog Claude Code draws instead of its composer: from its top rule to the screen's
/// end (above it, the banner's mascot and a running tool's bullet animate by themselves).
fn dialog(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows.iter().rposition(|r| r.starts_with("────")).unwrap_or(0);
    rows[at..].join("\n")
}

/// Claude is busy with a held turn when the owner sends: the line is queued behind it, so
/// neither the screen (it was already working) nor a status can prove the seat took this line
/// — only the transcript's read of the drop, once the held turn ends and Claude takes the
/// queued line. The checkout's path holds `_` and a space.
#[test]
fn owner_to_a_busy_claude_is_delivered_queued_and_its_transcript_is_found_in_a_checkout_with_underscore_and_space() {
    let rw = RealWorld::start();
    assert!(rw.w.repo.display().to_string().contains("my_team dir"));
    let claude = rw.claude("claude-keeper", "claude-keeper");
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "think about the plan", "steps": [{ "text": "Planned.", "hold": "plan" }] }],
    }));
    rw.prompt(&claude, "anthropic", "think about the plan");
    rw.wait_screen(&claude, "Claude working", |s| s.contains("esc to interrupt"));

    // The host's own reader of Claude's transcript, as the typed leg makes it: the claude-code
    // profile's patterns, expanded for the seat's home and the checkout.
    let host = team::profiles::ProfileHost::with_dirs(rw.w.base().join("pconfig"), rw.w.base().join("pcache"));
    let (desc, _) = host.description("claude-code", &Default::default()).unwrap();
    let mut watch = team::legs::typed::transcript::TranscriptWatch::begin(
        &desc.transcript_patterns,
        Some(claude.home.clone()),
        Some(rw.w.repo.clone()),
    );

    let body = "the gate is green";
    let run = rw.w.team(&["send", "claude-keeper", body]);
    // Claude 2.1.332 shows the trigger `Queued · ctrl+x ctrl+s to send now` behind its turn: the
    // seat took the line, and the send says so at once rather than waiting out its window.
    assert!(rw.screen(&claude).contains("Queued · ctrl+x ctrl+s to send now"), "{}", rw.screen(&claude));
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\nclaude-keeper: delivered (queued, not yet confirmed)\n").as_str(), "", 0),
    );
    let drop = one_drop(&rw, "claude-keeper", "owner", "the owner", body);
    let line = one_history(&rw, "owner", "claude-keeper", "delivered", "the owner", body, &drop);
    assert_eq!(line["note"], "queued, not yet confirmed", "{line}");

    // The turn ends, Claude takes the queued line and reads the drop.
    rw.mock.open("plan");
    model_read_the_drop(&rw, "anthropic", &drop, body);
    // Claude wrote its read of the drop where its own naming puts the transcript…
    let folder = claude.home.join(".claude/projects").join(claude_folder(&rw.w.repo));
    let id = super::checks::id_of(&drop);
    let rows_there = || -> String {
        std::fs::read_dir(&folder)
            .map(|rd| rd.flatten().map(|e| std::fs::read_to_string(e.path()).unwrap_or_default()).collect())
            .unwrap_or_default()
    };
    let t = Instant::now();
    while !(rows_there().contains("\"toolUseResult\"") && rows_there().contains(&id)) {
        assert!(t.elapsed() < BOUND, "Claude wrote no read of the drop under {}", folder.display());
        std::thread::sleep(Duration::from_millis(100));
    }
    // …and the host's reader finds those rows there, and the profile reads them as the drop read.
    let t = Instant::now();
    let mut seen = Vec::new();
    while !seen.iter().any(|r: &String| r.contains(&id) && r.contains("toolUseResult")) {
        assert!(t.elapsed() < BOUND, "the host's transcript reader never saw the read in {:?}", watch.files());
        seen.extend(watch.new_rows().unwrap_or_default());
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut profile = host.load("claude-code", &Default::default()).unwrap();
    assert!(profile.transcript_shows_drop_read(&seen, &id).unwrap(), "{seen:?}");
}

/// An idle Claude takes the trigger and reads the drop: `delivered`, with no note, in a checkout
/// whose path holds `_` and a space; the model's turn is the trigger line, and its Read of the
/// drop returned the body.
#[test]
fn owner_to_an_idle_claude_is_delivered_and_claude_reads_the_drop() {
    let rw = RealWorld::start();
    assert!(rw.w.repo.display().to_string().contains("my_team dir"));
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let body = "the gate is green";
    let run = rw.w.team(&["send", "claude-keeper", body]);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\nclaude-keeper: delivered\n").as_str(), "", 0)
    );
    let drop = one_drop(&rw, "claude-keeper", "owner", "the owner", body);
    let line = one_history(&rw, "owner", "claude-keeper", "delivered", "the owner", body, &drop);
    assert!(line.get("note").is_none(), "{line}");
    model_read_the_drop(&rw, "anthropic", &drop, body);
}

#[test]
fn owner_to_codex_is_delivered_and_codex_reads_the_drop() {
    let rw = RealWorld::start();
    let _codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts::default());
    let body = "review the gate";
    let run = rw.w.team(&["send", "gpt-reviewer", body]);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\ngpt-reviewer: delivered\n").as_str(), "", 0)
    );
    let drop = one_drop(&rw, "gpt-reviewer", "owner", "the owner", body);
    let line = one_history(&rw, "owner", "gpt-reviewer", "delivered", "the owner", body, &drop);
    assert!(line.get("note").is_none(), "{line}");
    model_read_the_drop(&rw, "openai", &drop, body);
}

/// Codex's composer: its last `› ` row and the rows down to the status line under it (the logo
/// above may still animate, the footer's warning count may change by itself).
fn composer(screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.lines().collect();
    let Some(at) = rows.iter().rposition(|r| r.starts_with("› ")) else { return vec![] };
    let end = rows[at..].iter().position(|r| r.contains("gpt-5.1-codex")).map_or(rows.len(), |i| at + i + 1);
    rows[at..end].iter().map(|r| r.to_string()).collect()
}

/// A person's unsent text in Codex's composer: nothing is typed, the text stays, the model is
/// sent nothing.
#[test]
fn a_draft_in_codex_is_held_and_left_untouched() {
    let rw = RealWorld::start();
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts::default());
    let draft = "half a thought about the gate";
    rw.type_draft(&codex, draft);
    let screen = rw.screen(&codex);
    let asked = rw.mock.requests().len();

    let body = "review the gate";
    let run = rw.w.team(&["send", "gpt-reviewer", body]);
    let drop = one_drop(&rw, "gpt-reviewer", "owner", "the owner", body);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (
            format!(
                "{CONTEXT}\ngpt-reviewer: held (the composer already holds unsent text; nothing was typed; the message is at {})\n",
                drop.display()
            )
            .as_str(),
            "",
            1
        )
    );
    one_history(&rw, "owner", "gpt-reviewer", "held", "the owner", body, &drop);
    let after = rw.screen(&codex);
    assert_eq!(composer(&after), composer(&screen), "the composer and its status line are as they were");
    assert_eq!(composer(&screen).first().map(|r| r.trim_end()), Some(format!("› {draft}").as_str()));
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
    assert!(!after.contains(&trigger(&rw, &drop)), "the trigger was never typed:\n{after}");
}

/// Claude asks whether to run a command: the send reads the dialog, presses nothing, and says
/// so; the dialog is still there as it was, its command never ran, the model was sent nothing.
#[test]
fn a_permission_dialog_in_claude_is_unreachable_and_gets_no_key() {
    let rw = RealWorld::start();
    let claude = rw.claude("claude-keeper", "claude-keeper");
    let outside = rw.top().join("outside.txt");
    // Writing outside the working folder needs approval in manual mode.
    let command = format!("touch {}; tty", outside.display());
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "check the box", "steps": [{ "bash": command, "description": "Check the box" }] }],
    }));
    rw.prompt(&claude, "anthropic", "check the box");
    let screen = rw.wait_screen(&claude, "the permission dialog", |s| {
        s.contains("Do you want to proceed?") && s.contains("❯ 1. Yes") && s.contains("Esc to cancel")
    });
    let asked = rw.mock.requests().len();

    let body = "the gate is green";
    let run = rw.w.team(&["send", "claude-keeper", body]);
    let drop = one_drop(&rw, "claude-keeper", "owner", "the owner", body);
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{}", run.stdout);
    let head = format!("{CONTEXT}\nclaude-keeper: unreachable (the pane shows a permission dialog");
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    assert!(
        run.stdout.ends_with(&format!("; nothing was pressed; the message is at {})\n", drop.display())),
        "{}",
        run.stdout
    );
    one_history(&rw, "owner", "claude-keeper", "unreachable", "the owner", body, &drop);
    assert_eq!(dialog(&rw.screen(&claude)), dialog(&screen), "the dialog is as it was: no key reached it");
    assert!(dialog(&screen).contains("Do you want to proceed?"));
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
    assert!(!outside.exists(), "the dialog's command never ran: nothing accepted it");
}

/// Codex asks to run an escalated command: the same — nothing pressed, the dialog as it was,
/// the command never run, the model sent nothing.
#[test]
fn a_permission_dialog_in_codex_is_unreachable_and_gets_no_key() {
    let rw = RealWorld::start();
    let codex = rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts::default());
    let outside = rw.top().join("outside.txt");
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "check the box", "steps": [
            { "bash": format!("touch {}", outside.display()), "escalated": "Check the box outside the workspace" },
        ]}],
    }));
    rw.prompt(&codex, "openai", "check the box");
    let screen = rw.wait_screen(&codex, "the approval dialog", |s| {
        s.contains("Would you like to run the following command?") && s.contains("Press enter to confirm")
    });
    let asked = rw.mock.requests().len();

    let body = "review the gate";
    let run = rw.w.team(&["send", "gpt-reviewer", body]);
    let drop = one_drop(&rw, "gpt-reviewer", "owner", "the owner", body);
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{}", run.stdout);
    let head = format!("{CONTEXT}\ngpt-reviewer: unreachable (the pane shows a permission dialog");
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    assert!(
        run.stdout.ends_with(&format!("; nothing was pressed; the message is at {})\n", drop.display())),
        "{}",
        run.stdout
    );
    one_history(&rw, "owner", "gpt-reviewer", "unreachable", "the owner", body, &drop);
    let approval = |s: &str| {
        let rows: Vec<&str> = s.lines().collect();
        let at = rows.iter().position(|r| r.contains("Would you like to run")).unwrap_or(0);
        rows[at..].join("\n")
    };
    assert_eq!(approval(&rw.screen(&codex)), approval(&screen), "the dialog is as it was: no key reached it");
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
    assert!(!outside.exists(), "the dialog's command never ran: nothing accepted it");
}
