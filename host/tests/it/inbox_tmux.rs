//! The inbox leg end to end: `team hooks install`, then the real `team send` against fake
//! seats that run the installed hooks as their CLI would (`fake-seat --hooks`: PostToolUse at
//! each simulated tool call, Stop at a turn's end, UserPromptSubmit when a line is taken), in
//! a private tmux server. Each test asserts the outcome, the keys the seat received (none,
//! where the inbox took the message), what the hooks handed the model, and the history and
//! receipts.

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use serde_json::Value;
use std::path::PathBuf;

/// The common scene, and the seats' hook logs.
struct Scene {
    base: common::scene::Scene,
    /// The seats' hook logs.
    logs: tempfile::TempDir,
}

impl std::ops::Deref for Scene {
    type Target = common::scene::Scene;
    fn deref(&self) -> &common::scene::Scene {
        &self.base
    }
}

/// A scene of `seats` (name, cli, mode) whose hooks file is the checkout's (installed by
/// `team hooks install`), each seat making a tool call every 150 ms while it works.
fn scene(seats: &[(&str, &str, &str)], scale: Option<&str>) -> Scene {
    let w = World::empty();
    let mut file = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for (name, cli, _) in seats {
        file.push_str(&format!("  - name: {name}\n    role: worker\n    cli: {cli}\n"));
    }
    w.team_file(&file);
    common::scene::install_hooks(&w);
    let base = tempfile::Builder::new().prefix("team-tmux-").tempdir().unwrap();
    let specs: Vec<SeatSpec> =
        seats.iter().map(|(name, cli, mode)| common::scene::hooked_seat(&w, base.path(), name, cli, mode)).collect();
    let tw = TmuxWorld::start("beacon", &specs);
    Scene { base: common::scene::Scene::of(w, tw, scale), logs: base }
}

impl Scene {
    /// Ends the open-ended turn of a seat started `,ends-when-told`.
    fn end_turn(&self, seat: &str) {
        std::fs::write(self.logs.path().join(format!("{seat}.end")), "").unwrap();
    }
    fn send(&self, seat: &str, msg: &str, seed: u32) -> common::Run {
        self.w.sh(&format!("TEAM_ID_SEED={seed} team send {seat} {}", common::shell_quote(msg)))
    }
    fn keys(&self, seat: &str) -> String {
        String::from_utf8_lossy(&self.tw.log(seat)).into_owned()
    }
    /// What the seat's hooks handed its model, in order.
    fn handed(&self, seat: &str) -> Vec<(String, String)> {
        let spec = &self.tw.seat(seat).spec;
        let i = spec.args.iter().position(|a| a == "--hook-log").unwrap();
        let text = std::fs::read_to_string(&spec.args[i + 1]).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| Some((v["event"].as_str()?.to_string(), v["text"].as_str()?.to_string())))
            .collect()
    }
    fn waiting(&self, seat: &str) -> Vec<PathBuf> {
        let mut v = vec![];
        for e in std::fs::read_dir(&self.w.config).into_iter().flatten().flatten() {
            let dir = e.path().join("inbox/beacon").join(seat);
            for f in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if f.file_type().unwrap().is_file() {
                    v.push(f.path());
                }
            }
        }
        v
    }
}

#[test]
fn a_working_seat_takes_the_message_at_its_next_tool_call_with_no_key_typed() {
    let s = scene(&[("rev", "claude-code", "already-working")], None);
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.ends_with("rev: delivered (handed by its PostToolUse hook)\n"), "{}", r.stdout);
    assert_eq!(s.keys("rev"), "", "nothing typed into a working seat");
    // the send ends on the hook's receipt, written before the hook answers: the seat logs
    // what it was handed only after the answer
    s.tw.wait_until(common::BOUND, || !s.handed("rev").is_empty());
    let handed = s.handed("rev");
    assert_eq!(handed.len(), 1, "{handed:?}");
    assert_eq!(handed[0].0, "PostToolUse");
    assert!(handed[0].1.starts_with("A message for you from owner (admitted by the owner; id "), "{}", handed[0].1);
    assert!(handed[0].1.ends_with(":\n\nreview the branch"), "{}", handed[0].1);
    let h = s.jsonl("messages.jsonl");
    assert_eq!(h.len(), 1, "one line, the send's: {h:?}");
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("delivered"), Some("mcp-inbox")));
    assert_eq!(h[0]["note"], "handed by its PostToolUse hook");
    assert_eq!(h[0]["failed"], serde_json::json!(["native: unavailable in this build"]));
    let receipts = s.jsonl("receipts.jsonl");
    assert_eq!(receipts.len(), 1);
    assert_eq!(
        (receipts[0]["receipt"].as_str(), receipts[0]["event"].as_str()),
        (Some("handed"), Some("post-tool-use"))
    );
    assert!(receipts[0]["session"].as_str().unwrap().starts_with("fake-"));
    // the hook found its seat by the pane the send found (its shell among its ancestors)
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    let hook = log.lines().find(|l| l.contains(r#""command":"hook""#)).expect("the hook's line");
    assert!(hook.contains("its pane's shell among its ancestors, the pane the send found"), "{hook}");
}

#[test]
fn two_sends_to_one_working_seat_are_handed_in_order_once_each() {
    let s = scene(&[("rev", "codex", "already-working")], None);
    let one = s.send("rev", "first", 7);
    let two = s.send("rev", "second", 8);
    assert_eq!((one.code, two.code), (0, 0), "{}{}{}{}", one.stdout, one.stderr, two.stdout, two.stderr);
    // (the seat logs a hand-over after the hook's receipt, which ended the send)
    let both =
        |t: &[(String, String)]| t.iter().map(|(_, t)| t.matches("A message for you").count()).sum::<usize>() >= 2;
    s.tw.wait_until(common::BOUND, || both(&s.handed("rev")));
    let texts: Vec<String> = s.handed("rev").into_iter().map(|(_, t)| t).collect();
    let bodies: Vec<&str> =
        texts.iter().flat_map(|t| t.split("\n\n---\n\n")).map(|t| t.rsplit("\n\n").next().unwrap()).collect();
    assert_eq!(bodies, ["first", "second"], "{texts:?}");
    assert_eq!(s.keys("rev"), "");
    let receipts = s.jsonl("receipts.jsonl");
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    assert!(s.waiting("rev").is_empty());
}

#[test]
fn a_dialog_seat_is_held_in_its_inbox_with_zero_keys() {
    let s = scene(&[("rev", "codex", "dialog:permission")], Some("0.05"));
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("rev: held (in rev's inbox: its CLI takes it at its next tool call or turn end; nothing was typed (it shows a permission dialog"),
        "{}",
        r.stdout
    );
    // the send looked at the seat (it names the dialog) and waited its window: nothing reached it
    assert_eq!(s.keys("rev"), "");
    assert_eq!(s.waiting("rev").len(), 1, "the message waits in the inbox");
    let h = s.jsonl("messages.jsonl");
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("held"), Some("mcp-inbox")));
    assert!(h[0].get("dialog").is_none(), "a held inbox message is no dialog-stopped typed send");

    // a hook run by anything but the seat's own CLI (here: the test, naming the seat's pane
    // and its server in its environment) hands nothing and prints nothing: identity is the
    // process tree's
    let pane = &s.tw.seat("rev").pane;
    let r = s.w.sh(&format!("TMUX=\"$TEAM_TMUX_SOCKET,0,0\" TMUX_PANE='{pane}' team hook post-tool-use </dev/null"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert_eq!(s.waiting("rev").len(), 1, "still waiting");
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    assert!(log.lines().last().unwrap().contains(r#""command":"hook""#), "{log}");
    assert!(log.contains("not a seat: nothing was handed"), "{log}");
    // and a hook with no pane in its environment, or an empty inbox, prints nothing either
    let r = s.w.sh("team hook stop </dev/null");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    let r = s.w.sh("TMUX_PANE=%999 team hook user-prompt-submit </dev/null");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
}

#[test]
fn a_draft_is_left_untouched_and_the_person_s_prompt_carries_the_message() {
    let s = scene(&[("rev", "claude-code", "draft")], Some("0.05"));
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("held (in rev's inbox"), "{}", r.stdout);
    assert!(r.stdout.contains("a draft is in its box, untouched"), "{}", r.stdout);
    assert_eq!(s.keys("rev"), "", "not a key over the draft");
    // as an older build queued it (no pin: the send's pane unrecorded), so the hook finds its
    // seat through tmux, as every caller is found
    let waiting = s.waiting("rev");
    assert_eq!(waiting.len(), 1);
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&waiting[0]).unwrap()).unwrap();
    assert!(m.as_object_mut().unwrap().remove("pin").is_some(), "the send pinned its pane: {m}");
    std::fs::write(&waiting[0], m.to_string()).unwrap();
    // the person submits their draft: the prompt's hook hands the message with it
    s.tw.tmux(&["send-keys", "-t", &s.tw.seat("rev").pane, "Enter"]);
    // the hook writes the history line before it answers; the seat logs the answer after
    let seen = s.tw.wait_until(common::BOUND, || s.jsonl("messages.jsonl").len() == 2 && !s.handed("rev").is_empty());
    assert!(seen, "the hook's delivered line: {:?}", s.jsonl("messages.jsonl"));
    let handed = s.handed("rev");
    assert_eq!(handed[0].0, "UserPromptSubmit", "{handed:?}");
    assert!(handed[0].1.ends_with("review the branch"));
    let h = s.jsonl("messages.jsonl");
    assert_eq!((h[1]["outcome"].as_str(), h[1]["via"].as_str()), (Some("delivered"), Some("mcp-inbox")));
    assert_eq!(h[1]["note"], "handed by its UserPromptSubmit hook");
    assert_eq!(h[1]["id"], h[0]["id"]);
    assert!(s.waiting("rev").is_empty());
    // the watch reports the hook's delivery, once, and types nothing
    let w = s.w.team(&["watch", "--once"]);
    assert!(
        w.stdout
            .contains("rev: a send from owner held in its inbox was delivered (handed by its UserPromptSubmit hook"),
        "{}",
        w.stdout
    );
    assert!(w.stdout.ends_with("one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"), "{}", w.stdout);
    assert_eq!(s.keys("rev"), "\r", "only the person's Enter");
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    let hook = log.lines().find(|l| l.contains(r#""command":"hook""#)).expect("the hook's line");
    assert!(hook.contains("its pane found through the multiplexer"), "{hook}");
}

#[test]
fn an_idle_seat_is_typed_as_today_and_its_prompt_hook_hands_the_body_once() {
    let s = scene(&[("rev", "claude-code", "takes-line")], None);
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("rev: delivered"), "{}", r.stdout);
    assert!(s.keys("rev").contains("Please read the team message at "), "the trigger was typed: {}", s.keys("rev"));
    let seen = s.tw.wait_until(common::BOUND, || !s.handed("rev").is_empty());
    assert!(seen);
    let handed = s.handed("rev");
    assert_eq!(handed.len(), 1, "handed once: {handed:?}");
    assert_eq!(handed[0].0, "UserPromptSubmit");
    assert!(handed[0].1.ends_with("review the branch"));
    let h = s.jsonl("messages.jsonl");
    assert_eq!(h.len(), 1, "one delivery in the history: {h:?}");
    assert_eq!(h[0]["via"], "typed");
    let receipts: Vec<Value> = s.jsonl("receipts.jsonl").into_iter().filter(|r| r["receipt"] == "handed").collect();
    assert_eq!(receipts.len(), 1);
}

#[test]
fn a_message_held_in_the_inbox_of_a_seat_gone_idle_is_withdrawn_and_typed_once_by_the_watch() {
    let s = scene(&[("rev", "claude-code", "dialog:permission")], Some("0.05"));
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(s.waiting("rev").len(), 1);
    // the person answers the dialog; the seat sits idle and runs no hook
    s.tw.tmux(&["send-keys", "-t", &s.tw.seat("rev").pane, "Escape"]);
    let screen = s.tw.acted_on("rev", b"\x1b");
    assert!(!screen.contains("Do you want"), "the dialog is gone: {screen}");
    let w = s.w.team(&["watch", "--once"]);
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert!(w.stdout.contains("rev"), "{}", w.stdout);
    let keys = s.keys("rev");
    assert_eq!(keys.matches("Please read the team message at ").count(), 1, "typed once: {keys:?}");
    assert!(s.waiting("rev").is_empty(), "withdrawn from the inbox");
    // the trigger's prompt hook ran, and handed nothing: the withdrawn message is the typed leg's
    assert!(s.handed("rev").is_empty(), "{:?}", s.handed("rev"));
    let again = s.w.team(&["watch", "--once"]);
    assert_eq!(again.code, 0);
    assert_eq!(s.keys("rev").matches("Please read the team message at ").count(), 1, "never typed twice");
    let h = s.jsonl("messages.jsonl");
    assert_eq!(h.last().unwrap()["via"], "typed", "{h:?}");
    assert_eq!(h.last().unwrap()["retry"], 1);
}

#[test]
fn a_companion_no_hook_took_is_withdrawn_by_the_watch_after_the_trigger_s_delivery() {
    let s = scene(&[("rev", "claude-code", "takes-line,no-hooks")], None);
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(s.keys("rev").contains("Please read the team message at "));
    assert_eq!(s.waiting("rev").len(), 1, "the companion waits: no hook ran");
    // a watch a minute later than the send (the world's clock is pinned: move it)
    let w = s.w.sh("TEAM_NOW=2026-10-01T09:05:00Z team watch --once");
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert!(s.waiting("rev").is_empty(), "withdrawn");
    assert_eq!(s.jsonl("messages.jsonl").len(), 1, "the typed leg's line stands alone");
}

#[test]
fn a_seat_that_finishes_its_turn_without_running_a_hook_is_said_once_and_the_message_typed() {
    // hooks installed, but the CLI runs none (Codex before the person trusts them): the seat
    // works, the send waits in its inbox, the turn ends and nothing took it
    let s = scene(&[("rev", "claude-code", "already-working,no-hooks,ends-when-told")], Some("0.05"));
    let log = s.w.base().join("notify.log");
    let file = std::fs::read_to_string(s.w.repo.join(".agents/team.yaml")).unwrap();
    s.w.team_file(&format!(
        "{file}notify:\n  command: [sh, -c, 'printf \"%s\\n\" \"$1\" >> \"{}\"', notify]\n",
        log.display()
    ));
    s.w.trust_notify();
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("rev: held (in rev's inbox"), "{}", r.stdout);
    assert_eq!(s.waiting("rev").len(), 1);
    let id = s.jsonl("messages.jsonl")[0]["id"].as_str().unwrap().to_string();

    let watch = crate::watch_tmux::start_watch(&s.w, &s.tw, &[]);
    // the watch saw the seat working while the message waited (its mark on disk)
    let mark = || {
        std::fs::read_dir(&s.w.config)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().join("watch-seen-working").join(&id).exists())
    };
    assert!(s.tw.wait_until(common::BOUND, mark), "the watch never marked the seat seen working");
    assert!(std::fs::read_to_string(&log).unwrap_or_default().is_empty(), "nothing said while it works");
    assert_eq!(s.keys("rev"), "", "nothing typed into a working seat");

    s.end_turn("rev");
    // the retry's history line is written during the pass, the pass's lines printed at its end
    let said = "rev: a send from owner waited in its inbox while the seat worked and finished its turn, and its CLI ran none of team's hooks (team hooks status rev); it is typed instead";
    let typed_and_said = || s.jsonl("messages.jsonl").len() == 2 && watch.stdout().contains(said);
    assert!(
        s.tw.wait_until(common::BOUND, typed_and_said),
        "the watch's retry and its line: {}{}",
        watch.stdout(),
        watch.stderr()
    );
    assert_eq!(watch.stdout().matches(said).count(), 1, "said once: {}", watch.stdout());
    assert_eq!(s.keys("rev").matches("Please read the team message at ").count(), 1, "typed once");
    let h = s.jsonl("messages.jsonl");
    assert_eq!((h[1]["outcome"].as_str(), h[1]["via"].as_str()), (Some("delivered"), Some("typed")), "{h:?}");
    let said: Vec<Value> = s.jsonl("receipts.jsonl").into_iter().filter(|r| r["receipt"] == "hook-stopped").collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0]["id"], id.as_str());
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().count(), 1, "the owner told once: {told}");
    assert!(
        told.starts_with(
            "owner -> rev: hook-stopped (its CLI ran no team hook; team hooks status rev): review the branch"
        ),
        "{told}"
    );

    // a watch started again says nothing more: the receipt keeps it
    let pid = nix::unistd::Pid::from_raw(watch.pid);
    drop(watch);
    let gone = || nix::sys::signal::kill(pid, None).is_err();
    assert!(s.tw.wait_until(common::BOUND, gone), "the watch ended");
    let again = s.w.team(&["watch", "--once"]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(!again.stdout.contains("hooks"), "{}", again.stdout);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1);
}

#[test]
fn a_message_still_unclaimed_when_the_retries_stop_is_said_once_to_wait_in_the_inbox() {
    let s = scene(&[("rev", "claude-code", "dialog:permission")], Some("0.05"));
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let drop =
        s.w.repo.join(".agents/send-drops/beacon/rev").join(s.jsonl("messages.jsonl")[0]["id"].as_str().unwrap());
    // nobody answers the dialog; a watch past the window (thirty minutes, scaled by 0.05 here:
    // 90 s, and as much grace) stops, and says where it waits
    let late = "TEAM_NOW=2026-10-01T09:02:00Z team watch --once";
    let w = s.w.sh(late);
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert!(
        w.stdout.contains(&format!(
            "rev: stopped retrying a send from owner after thirty minutes without the seat idle with an empty box — it is still waiting, unclaimed, in rev's inbox: its CLI takes it at its next tool call or turn end; the message is at {}",
            drop.display()
        )),
        "{}",
        w.stdout
    );
    assert_eq!(s.waiting("rev").len(), 1, "left in the inbox: a later hook may still hand it");
    assert_eq!(s.keys("rev"), "", "nothing typed into the dialog");
    let again = s.w.sh(late);
    assert!(!again.stdout.contains("rev: stopped"), "said once: {}", again.stdout);
    assert!(again.stdout.contains("one pass: 0 retried, 0 stopped"), "{}", again.stdout);
    let stops: Vec<Value> =
        s.jsonl("receipts.jsonl").into_iter().filter(|r| r["receipt"] == "retries-stopped").collect();
    assert_eq!(stops.len(), 1, "{stops:?}");
    assert!(stops[0]["why"]
        .as_str()
        .unwrap()
        .ends_with("in rev's inbox: its CLI takes it at its next tool call or turn end"));
}

#[test]
fn an_idle_seat_whose_screen_shows_no_sign_is_proven_by_its_prompt_hook_s_hand_over() {
    // the CLI takes the line and shows no turn at all (no working, no read row): its
    // UserPromptSubmit hook handing the companion whole is the proof the line was taken
    let s = scene(&[("rev", "claude-code", "clears-without-working")], None);
    let r = s.send("rev", "review the branch", 7);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.lines().last(), Some("rev: delivered (handed whole by its hook)"), "{}", r.stdout);
    let handed = s.handed("rev");
    assert_eq!(handed.len(), 1, "handed once: {handed:?}");
    assert_eq!(handed[0].0, "UserPromptSubmit");
    assert_eq!(s.keys("rev").matches("Please read the team message at ").count(), 1, "typed once");
    let h = s.jsonl("messages.jsonl");
    assert_eq!(
        (h.len(), h[0]["via"].as_str(), h[0]["note"].as_str()),
        (1, Some("typed"), Some("handed whole by its hook")),
        "{h:?}"
    );
}
