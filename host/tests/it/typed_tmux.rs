//! The typed leg end to end: the real `team send` against fake seats in a private tmux server.
//! One test per outcome and per refusal of the typed leg. Each asserts the outcome line and
//! exit code, the history line, the drop file (content and modes), and the exact bytes the
//! fake seat received — the trigger once, Enters only as the spec allows, nothing at all into
//! a dialog, a draft or an exited pane.

use crate::common;
use crate::common::scene::{trigger_for, workers_file, Scene};
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A scene where the typed leg waits as the spec says (1, 3, 9 s after the Enters; 20 s in
/// all). Its waits end on the seat's evidence, so a seat that acts costs no more than its
/// answer; and how many Enters a seat gets never depends on a loaded machine answering
/// within a shortened wait (50 ms, twenty-fold shorter, was a guess a busy seat missed: a
/// second Enter).
fn scene(seats: &[SeatSpec]) -> Scene {
    scene_at(seats, None)
}

/// A scene with every wait of the typed leg shortened twenty-fold: only for a seat that never
/// takes a line (a dialog, a draft, an exited CLI, a refusal before typing, Enters always
/// ignored), whose outcome and bytes are the same however long each wait is.
fn scene_fast(seats: &[SeatSpec]) -> Scene {
    scene_at(seats, Some("0.05"))
}

fn scene_at(seats: &[SeatSpec], scale: Option<&str>) -> Scene {
    Scene::start(seats, &workers_file(seats), scale)
}

impl Scene {
    fn send(&self, seat: &str, msg: &str) -> common::Run {
        self.w.team(&["send", seat, msg])
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

const CONTEXT: &str = "team beacon, session \"beacon\"\n";

/// Checks the drop file, its folders' modes and the history line of a completed send.
fn check_written(s: &Scene, seat: &str, body: &str, outcome: &str, via: Option<&str>) -> PathBuf {
    let drops = s.drops(seat);
    assert_eq!(drops.len(), 1, "one drop file for {seat}");
    let drop = drops[0].clone();
    assert_eq!(std::fs::read_to_string(&drop).unwrap(), format!("from the owner — admitted by: the owner\n\n{body}"));
    assert_eq!(mode(&drop), 0o600);
    for d in [drop.parent().unwrap(), drop.parent().unwrap().parent().unwrap(), &s.w.repo.join(".agents/send-drops")] {
        assert_eq!(mode(d), 0o700, "{}", d.display());
    }
    let h = s.history();
    assert_eq!(h.len(), 1, "one history line: {h:?}");
    let line = &h[0];
    assert_eq!(line["to"], seat);
    assert_eq!(line["from"], "owner");
    assert_eq!(line["outcome"], outcome);
    assert_eq!(line["id"].as_str().unwrap(), drop.file_name().unwrap().to_str().unwrap());
    assert_eq!(line["body"], format!("from the owner — admitted by: the owner\n\n{body}"));
    assert_eq!(line.get("via").and_then(Value::as_str), via);
    let cli = s.tw.seats.iter().find(|x| x.spec.name == seat).map_or("codex".to_string(), |x| x.spec.cli.clone());
    let native = if cli == "claude-code" {
        "native: unavailable in this build"
    } else {
        "native: the CLI carries no native channel"
    };
    let inbox = if matches!(cli.as_str(), "claude-code" | "codex") {
        "mcp-inbox: its CLI has no team hooks installed"
    } else {
        "mcp-inbox: its CLI has no hooks team can install"
    };
    assert_eq!(line["failed"], serde_json::json!([native, inbox]));
    drop
}

#[test]
fn codex_seat_that_takes_the_line_is_delivered_with_one_trigger_and_one_enter() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "takes-line").delay(300)]);
    let r = s.send("gpt-reviewer", "the gate is green");
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        ("team beacon, session \"beacon\"\ngpt-reviewer: delivered\n", "", 0)
    );
    let drop = check_written(&s, "gpt-reviewer", "the gate is green", "delivered", Some("typed"));
    assert_eq!(s.bytes("gpt-reviewer"), format!("{}\r", trigger_for(&drop)));
    let h = s.history();
    assert!(h[0].get("note").is_none(), "a confirmed delivery carries no note");
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().count(), 1);
    assert!(
        log.contains("\"outcome\":\"delivered\"") && !log.contains("the gate is green"),
        "the log keeps sizes, never a body: {log}"
    );
    assert_eq!(mode(&s.w.repo.join(".agents/team.log")), 0o600);
}

#[test]
fn claude_seat_is_delivered_and_the_json_document_is_the_action_surface() {
    let s = scene(&[SeatSpec::new("claude-keeper", "claude-code", "takes-line").delay(300).transcript()]);
    let r = s.w.team(&["send", "claude-keeper", "hello", "--json"]);
    assert_eq!((r.stderr.as_str(), r.code), ("", 0), "{}", r.stdout);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["status"], "delivered");
    assert_eq!(doc["channel"], "typed");
    assert_eq!(doc["dry_run"], false);
    let drop = check_written(&s, "claude-keeper", "hello", "delivered", Some("typed"));
    assert_eq!(doc["ids"]["sent"].as_str().unwrap(), drop.file_name().unwrap().to_str().unwrap());
    assert_eq!(s.bytes("claude-keeper"), format!("{}\r", trigger_for(&drop)));
}

#[test]
fn an_ignored_first_enter_gets_exactly_one_more() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "ignores-first-enter").delay(300)]);
    let r = s.send("gpt-reviewer", "hello");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        ("team beacon, session \"beacon\"\ngpt-reviewer: delivered\n", 0),
        "{}",
        r.stderr
    );
    let drop = check_written(&s, "gpt-reviewer", "hello", "delivered", Some("typed"));
    assert_eq!(s.bytes("gpt-reviewer"), format!("{}\r\r", trigger_for(&drop)));
}

#[test]
fn a_box_that_clears_without_the_seat_working_is_taken_not_yet_confirmed() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "clears-without-working")]);
    let r = s.send("gpt-reviewer", "hello");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        ("team beacon, session \"beacon\"\ngpt-reviewer: delivered (taken, not yet confirmed)\n", 0),
        "{}",
        r.stderr
    );
    let drop = check_written(&s, "gpt-reviewer", "hello", "delivered", Some("typed"));
    assert_eq!(s.history()[0]["note"], "taken, not yet confirmed");
    assert_eq!(s.bytes("gpt-reviewer"), format!("{}\r", trigger_for(&drop)), "a cleared box never gets another Enter");
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    assert!(
        log.contains("unverified: taken, not yet confirmed"),
        "an unverified send is logged for the orchestrator: {log}"
    );
}

#[test]
fn a_trigger_never_taken_is_not_submitted_after_three_enters() {
    let s = scene_fast(&[SeatSpec::new("gpt-reviewer", "codex", "ignores-enter")]);
    let r = s.send("gpt-reviewer", "hello");
    let drop = check_written(&s, "gpt-reviewer", "hello", "not-submitted", Some("typed"));
    let trig = trigger_for(&drop);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        format!(
            "{CONTEXT}gpt-reviewer: not-submitted (3 Enters pressed; the box holds {trig:?}; the message is at {})\n",
            drop.display()
        )
    );
    assert_eq!(s.bytes("gpt-reviewer"), format!("{trig}\r\r\r"));
}

#[test]
fn every_dialog_is_unreachable_and_nothing_is_pressed() {
    let kinds = [
        ("permission", "claude-code", "permission"),
        ("question", "claude-code", "question"),
        ("trust", "codex", "trust"),
        ("vendor-notice", "claude-code", "vendor notice"),
        ("rate-limit", "codex", "rate limit"),
        ("rate-limit", "claude-code", "rate limit"),
    ];
    for (kind, cli, word) in kinds {
        let s = scene_fast(&[SeatSpec::new("seat", cli, &format!("dialog:{kind}"))]);
        let r = s.send("seat", "hello");
        assert_eq!(r.code, 1, "{kind}: {r:?}");
        assert!(r.stdout.contains("unreachable"), "{kind}: {r:?}\n{}", s.tw.screen("seat"));
        let drop = check_written(&s, "seat", "hello", "unreachable", None);
        assert!(
            r.stdout.starts_with(&format!("{CONTEXT}seat: unreachable (the pane shows a {word} dialog")),
            "{kind}: {}",
            r.stdout
        );
        assert!(
            r.stdout.ends_with(&format!("nothing was pressed; the message is at {})\n", drop.display())),
            "{kind}: {}",
            r.stdout
        );
        assert_eq!(s.bytes("seat"), "", "{kind}: nothing may reach a dialog");
    }
}

#[test]
fn a_last_turn_that_hit_the_rate_limit_is_unreachable() {
    // An idle prompt whose last turn ended in the rate limit: a line would be taken and could
    // not be acted on.
    for cli in ["claude-code", "codex"] {
        let s = scene_fast(&[SeatSpec::new("seat", cli, "dialog:rate-limit-idle")]);
        let r = s.send("seat", "hello");
        assert_eq!(r.code, 1, "{r:?}");
        let drop = check_written(&s, "seat", "hello", "unreachable", None);
        assert_eq!(
            r.stdout,
            format!("{CONTEXT}seat: unreachable (its last turn hit a rate limit (rate limit), so a line would be taken and not acted on; nothing was typed; the message is at {})\n", drop.display()),
            "{cli}"
        );
        assert_eq!(s.bytes("seat"), "", "{cli}");
    }
}

#[test]
fn the_held_message_dialog_is_unreachable() {
    let s = scene_fast(&[SeatSpec::new("claude-keeper", "claude-code", "dialog:held-message")]);
    let r = s.send("claude-keeper", "hello");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("claude-keeper: unreachable (the pane shows the held-message dialog"), "{}", r.stdout);
    assert_eq!(s.bytes("claude-keeper"), "");
}

#[test]
fn unsent_text_in_the_composer_is_held_and_left_alone() {
    for cli in ["claude-code", "codex"] {
        let s = scene_fast(&[SeatSpec::new("seat", cli, "draft")]);
        let before = s.tw.screen("seat");
        let r = s.send("seat", "hello");
        let drop = check_written(&s, "seat", "hello", "held", None);
        assert_eq!(
            (r.stdout.clone(), r.code),
            (format!("{CONTEXT}seat: held (the composer already holds unsent text; nothing was typed; the message is at {})\n", drop.display()), 1),
            "{cli}"
        );
        assert_eq!(s.bytes("seat"), "", "{cli}: nothing typed over a draft");
        assert_eq!(s.tw.screen("seat"), before, "{cli}: the draft is untouched");
    }
}

#[test]
fn a_faint_placeholder_is_an_empty_box() {
    let s = scene(&[SeatSpec::new("claude-keeper", "claude-code", "placeholder").delay(300)]);
    let r = s.send("claude-keeper", "hello");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        ("team beacon, session \"beacon\"\nclaude-keeper: delivered\n", 0),
        "{}",
        r.stderr
    );
    let drop = check_written(&s, "claude-keeper", "hello", "delivered", Some("typed"));
    assert_eq!(s.bytes("claude-keeper"), format!("{}\r", trigger_for(&drop)));
}

#[test]
fn an_exited_cli_is_unreachable_and_nothing_is_typed() {
    let s = scene_fast(&[SeatSpec::new("gpt-reviewer", "codex", "exited")]);
    let r = s.send("gpt-reviewer", "hello");
    assert_eq!(r.code, 1);
    let drop = check_written(&s, "gpt-reviewer", "hello", "unreachable", None);
    assert_eq!(
        r.stdout,
        format!("{CONTEXT}gpt-reviewer: unreachable (codex has exited in that pane; nothing was typed; start codex again in that pane, then send the message again (team watch does not retry a send to an exited CLI); the message is at {})\n", drop.display())
    );
    assert_eq!(s.bytes("gpt-reviewer"), "");
}

#[test]
fn a_narrow_cursor_seat_whose_hint_wraps_is_delivered_as_taken() {
    let s = scene(&[SeatSpec::new("cursor-dev", "cursor", "narrow-cursor").size(30, 24).delay(300)]);
    // The trigger must fit Cursor's line: the seat works inside the checkout? It does not here,
    // so the drop is named absolutely; keep the world's path short enough.
    let r = s.send("cursor-dev", "hello");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with(&format!("{CONTEXT}cursor-dev: delivered")), "{}", r.stdout);
    let drop = check_written(&s, "cursor-dev", "hello", "delivered", Some("typed"));
    assert_eq!(s.bytes("cursor-dev"), format!("{}\r", trigger_for(&drop)));
}

#[test]
fn a_seat_already_working_is_delivered_only_on_its_own_evidence() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "already-working").delay(400)]);
    let r = s.send("gpt-reviewer", "hello");
    assert_eq!(r.code, 0, "{r:?}");
    let drop = check_written(&s, "gpt-reviewer", "hello", "delivered", Some("typed"));
    assert_eq!(s.bytes("gpt-reviewer"), format!("{}\r", trigger_for(&drop)));
}

/// Claude Code mid-turn queues a line and shows it (`❯ <line>`, `ctrl+x ctrl+s to send now`, as
/// 2.1.295 draws it): the seat took the line, and the send ends at once — not after its window.
#[test]
fn a_line_claude_shows_queued_ends_the_wait_at_once() {
    // A turn far longer than the window (20 s): the queued line is all there is to see.
    let s = scene(&[SeatSpec::new("claude-keeper", "claude-code", "already-working").delay(30_000)]);
    let r = s.send("claude-keeper", "hello");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (format!("{CONTEXT}claude-keeper: delivered (queued, not yet confirmed)\n").as_str(), 0),
        "{r:?}"
    );
    let drop = check_written(&s, "claude-keeper", "hello", "delivered", Some("typed"));
    assert_eq!(s.history()[0]["note"], "queued, not yet confirmed");
    // One trigger, one Enter: a queued line is never pressed for again.
    assert_eq!(s.bytes("claude-keeper"), format!("{}\r", trigger_for(&drop)));
}

#[test]
fn a_seat_with_no_pane_is_unreachable_naming_it() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "takes-line")]);
    let mut file = std::fs::read_to_string(s.w.repo.join(".agents/team.yaml")).unwrap();
    file.push_str("  - name: ghost\n    role: worker\n    cli: codex\n");
    s.w.team_file(&file);
    let r = s.send("ghost", "hello");
    assert_eq!(r.code, 1);
    let drop = check_written(&s, "ghost", "hello", "unreachable", None);
    assert!(r.stdout.starts_with(&format!("{CONTEXT}ghost: unreachable (")), "{}", r.stdout);
    assert!(
        r.stdout.contains("ghost") && r.stdout.ends_with(&format!("the message is at {})\n", drop.display())),
        "{}",
        r.stdout
    );
}

#[test]
fn a_lock_held_by_another_command_is_refused_at_once_and_nothing_is_written() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "takes-line")]);
    let dir = s.w.state.join("seat-locks/beacon");
    std::fs::create_dir_all(&dir).unwrap();
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(dir.join("gpt-reviewer"))
        .unwrap();
    let f = nix::fcntl::Flock::lock(f, nix::fcntl::FlockArg::LockExclusiveNonblock).unwrap();
    std::fs::write(dir.join("gpt-reviewer"), "launch 4242\n").unwrap();
    let r = s.send("gpt-reviewer", "hello");
    drop(f);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        format!(
            "team send: refused: gpt-reviewer: the seat lock {} is held by team launch (pid 4242); nothing was sent\n",
            dir.join("gpt-reviewer").display()
        )
    );
    assert!(s.drops("gpt-reviewer").is_empty());
    assert!(s.history().is_empty());
    assert_eq!(s.bytes("gpt-reviewer"), "");
}

#[test]
fn a_trigger_longer_than_the_profile_takes_is_refused_and_nothing_is_typed() {
    let s = scene(&[SeatSpec::new("cursor-dev", "cursor", "takes-line")]);
    // A checkout deep enough that the drop's absolute path passes Cursor's 200 characters.
    let deep = s.w.base().join("d".repeat(60)).join("e".repeat(60)).join("f".repeat(60));
    std::fs::create_dir_all(deep.join(".agents")).unwrap();
    assert!(std::process::Command::new("git").args(["init", "-q"]).current_dir(&deep).status().unwrap().success());
    std::fs::copy(s.w.repo.join(".agents/team.yaml"), deep.join(".agents/team.yaml")).unwrap();
    let r = s.w.run(&["send", "cursor-dev", "hello"], &deep);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.starts_with("team send: refused: cursor-dev: the trigger line is "), "{}", r.stderr);
    assert!(r.stderr.contains("cursor takes at most 200 whole; nothing was typed; the message is at "), "{}", r.stderr);
    assert_eq!(s.bytes("cursor-dev"), "");
}

#[test]
fn two_sends_to_one_seat_never_interleave_their_keystrokes() {
    let mut s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "takes-line").delay(100)]);
    // Two processes with one seed would compose one id: these runs take fresh ids.
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let w = &s.w;
    std::thread::scope(|sc| {
        let a = sc.spawn(|| w.team(&["send", "gpt-reviewer", "first"]));
        let b = sc.spawn(|| w.team(&["send", "gpt-reviewer", "second"]));
        for r in [a.join().unwrap(), b.join().unwrap()] {
            assert_eq!(r.code, 0, "{r:?}");
        }
    });
    let drops = s.drops("gpt-reviewer");
    assert_eq!(drops.len(), 2);
    let got = s.bytes("gpt-reviewer");
    let (t0, t1) = (trigger_for(&drops[0]), trigger_for(&drops[1]));
    assert!(got == format!("{t0}\r{t1}\r") || got == format!("{t1}\r{t0}\r"), "interleaved: {got:?}");
}

#[test]
fn eight_senders_times_twenty_five_sends_into_four_seats_each_write_one_whole_line() {
    let seats = [
        SeatSpec::new("s0", "codex", "takes-line").delay(40),
        SeatSpec::new("s1", "claude-code", "takes-line").delay(40),
        SeatSpec::new("s2", "codex", "takes-line").delay(40),
        SeatSpec::new("s3", "claude-code", "takes-line").delay(40),
    ];
    // Shortened waits: 200 sends queue on four seat locks, and a 40 ms turn can end between
    // two looks, leaving a send to wait out its window (20 s at the spec's pace, past the
    // lock's wait for the sends queued behind it). What this test holds to — one whole line
    // and one counted Enter per send — is the same at any pace.
    let mut s = scene_fast(&seats);
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let w = &s.w;
    let results: Vec<(String, common::Run)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..8)
            .map(|sender| {
                sc.spawn(move || {
                    (0..25)
                        .map(|n| {
                            let seat = format!("s{}", (sender + n) % 4);
                            let r = w.team(&["send", &seat, &format!("sender {sender} message {n}")]);
                            (seat, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.len(), 200);
    // Every send that did not end delivered, not just the first: one that failed can leave the
    // box holding its line, and the sends after it are then held for that.
    let bad: Vec<String> =
        results.iter().filter(|(_, r)| r.code != 0).map(|(seat, r)| format!("{seat}: {r:?}")).collect();
    assert!(bad.is_empty(), "{} of 200 sends did not end delivered:\n{}", bad.len(), bad.join("\n"));
    let h = s.history();
    assert_eq!(h.len(), 200, "every send has exactly one history line");
    let mut ids: Vec<&str> = h.iter().map(|l| l["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 200, "no line repeated or lost");
    // The Enters each send says it pressed (its team.log line: `id <id>, <n> Enter(s), …`).
    let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
    let enters_of = |seat: &str| -> usize {
        log.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|l| l["command"] == "send" && l["seat"] == seat)
            .map(|l| {
                let d = l["detail"].as_str().unwrap_or_default().to_string();
                let n = d.split(", ").find_map(|p| p.strip_suffix(" Enter(s)")).unwrap_or_else(|| panic!("{d}"));
                n.parse::<usize>().unwrap()
            })
            .sum()
    };
    for seat in ["s0", "s1", "s2", "s3"] {
        let drops = s.drops(seat);
        assert_eq!(drops.len(), 50, "{seat}");
        let triggers: std::collections::BTreeSet<String> = drops.iter().map(|d| trigger_for(d)).collect();
        let got = s.bytes(seat);
        // Every Enter the seat received is one a send counted. A second Enter goes only to a
        // box the run read back holding the trigger after the first Enter's wait (spec: 1 s;
        // 50 ms on this test's clock): a seat too starved to redraw by then receives it after
        // it took the line, on an empty box — an empty line here, never a trigger again.
        assert_eq!(got.matches('\r').count(), enters_of(seat), "{seat}: Enters received = Enters counted: {got:?}");
        let typed: Vec<&str> = got.split_terminator('\r').filter(|t| !t.is_empty()).collect();
        assert_eq!(typed.len(), 50, "{seat}: one trigger per send: {got:?}");
        for t in &typed {
            assert!(triggers.contains(*t), "{seat}: a line that is not one whole trigger: {t:?}");
        }
        let distinct: std::collections::BTreeSet<&str> = typed.iter().copied().collect();
        assert_eq!(distinct.len(), 50, "{seat}: no trigger typed twice");
    }
}

#[test]
fn an_outcome_that_exits_one_is_the_error_document_under_json() {
    let s = scene_fast(&[SeatSpec::new("gpt-reviewer", "codex", "draft")]);
    let r = s.w.team(&["send", "gpt-reviewer", "hello", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""), "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["id"], "send.held");
    let drop = check_written(&s, "gpt-reviewer", "hello", "held", None);
    assert_eq!(
        doc["error"]["message"],
        format!(
            "gpt-reviewer: held (the composer already holds unsent text; nothing was typed; the message is at {})",
            drop.display()
        )
    );
    assert_eq!(s.bytes("gpt-reviewer"), "");
}

/// A team checkout whose path holds `_`, a space and a `.`, with a Claude seat working in it.
/// Its turn is over before the screen is read again (no working row is ever drawn) and its
/// "Read 1 file" row names no id: only its transcript can show the drop read.
fn odd_checkout(transcript: bool) -> (Scene, PathBuf) {
    let mut w = World::empty();
    let checkout = w.base().join("my_work dir.x");
    std::fs::create_dir_all(checkout.join(".agents")).unwrap();
    assert!(std::process::Command::new("git").args(["init", "-q"]).current_dir(&checkout).status().unwrap().success());
    w.write(
        &checkout.join(".agents/team.yaml"),
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: claude-keeper\n    role: worker\n    cli: claude-code\n",
    );
    let mut seat = SeatSpec::new("claude-keeper", "claude-code", "takes-line").delay(0).cwd(&checkout);
    if transcript {
        seat = seat.transcript();
    }
    let tw = TmuxWorld::start("beacon", &[seat]);
    w.extra_env.extend(tw.env());
    // With no transcript the send waits out its window: shortened, as the outcome (taken, not
    // yet confirmed) is the same however long it is; with one, the spec's waits, which end on
    // the transcript's read.
    if !transcript {
        w.extra_env.push(("TEAM_TIME_SCALE".into(), "0.05".into()));
    }
    (Scene { w, tw }, checkout)
}

#[test]
fn a_claude_transcript_in_a_folder_with_an_underscore_and_a_space_confirms_the_send() {
    let (s, checkout) = odd_checkout(true);
    let r = s.w.run(&["send", "claude-keeper", "hello"], &checkout);
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (format!("{CONTEXT}claude-keeper: delivered\n").as_str(), "", 0)
    );
    let h = s.history();
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["outcome"], "delivered");
    assert!(h[0].get("note").is_none(), "confirmed, not taken-not-yet-confirmed: {:?}", h[0]);
    // Where the seat wrote it: Claude's spelling of the folder, every character that is not a
    // letter or a digit made `-` (docs/offline-vendor-clis.md §1.7).
    let projects = s.tw.seat("claude-keeper").home.join(".claude/projects");
    let folders: Vec<String> =
        std::fs::read_dir(&projects).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    let want: String =
        checkout.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    assert_eq!(folders[0], want);
    assert!(folders[0].ends_with("-my-work-dir-x"), "{}", folders[0]);
    let drop = std::fs::read_dir(checkout.join(".agents/send-drops/beacon/claude-keeper"))
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let rows = std::fs::read_to_string(
        std::fs::read_dir(projects.join(&folders[0])).unwrap().flatten().next().unwrap().path(),
    )
    .unwrap();
    assert!(
        rows.contains(&format!("\"filePath\":\"{}\"", drop.display())),
        "the transcript shows the drop read:\n{rows}"
    );
}

#[test]
fn the_same_seat_with_no_transcript_is_only_taken() {
    // The control: the screen of that turn alone proves nothing, so the transcript above was
    // the evidence.
    let (s, checkout) = odd_checkout(false);
    let r = s.w.run(&["send", "claude-keeper", "hello"], &checkout);
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (format!("{CONTEXT}claude-keeper: delivered (taken, not yet confirmed)\n").as_str(), 0),
        "{}",
        r.stderr
    );
}
