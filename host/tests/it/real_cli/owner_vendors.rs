//! The owner's sends to the real Gemini CLI 0.61.0, Qwen Code 0.24.4, GitHub Copilot CLI 1.0.102
//! and opencode 1.18.33, each as the owner's sends to Claude Code and Codex are tested
//! (`owner.rs`): delivered to an idle seat, with the CLI's own transcript read by the host's
//! reader and its profile as the proof of the drop read (opencode keeps its sessions in SQLite:
//! its proof is the screen); held over a person's draft, which stays as it was; unreachable
//! behind the CLI's permission dialog (Copilot's and opencode's first ask for the path), with no
//! key pressed; unreachable once the CLI has exited. And the facts the typed leg relies on:
//! Gemini CLI keeps text and Enter typed in one burst as a draft (so Enter goes after its
//! profile's pause), and Qwen Code's next-prompt suggestion, drawn in the empty composer after a
//! turn, is no draft.

use super::checks::{one_drop, one_history, trigger, CONTEXT};
use super::harness::{RealWorld, Seat};
use super::mock::{Request, BOUND};
use super::vendors::{Leave, Vendor};
use serde_json::json;
use std::time::{Duration, Instant};
use team::legs::typed::transcript::TranscriptWatch;
use team::profiles::ProfileHost;

/// What a pane prints once its CLI has exited (`harness::RealWorld::window`).
const EXITED: &str = "[the CLI exited with";

/// Waits until the seat's plain screen satisfies `pred`, even after its CLI exited (the
/// harness's wait stops there); panics with the screen after the bound.
fn wait_any(rw: &RealWorld, seat: &Seat, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let t = Instant::now();
    loop {
        let s = rw.screen(seat);
        if pred(&s) {
            return s;
        }
        assert!(t.elapsed() < BOUND, "{}'s pane never showed {what}; it shows:\n{s}", seat.name);
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The composer and what is under it, each row without its trailing blanks (and Qwen's drawn
/// cursor, a cell and U+200B): from the last prompt row (Gemini ` > `, Qwen `> `, Copilot `❯`)
/// to the last row drawn; opencode's whole home screen.
fn composer(v: Vendor, screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.trim_end().lines().map(|r| r.trim_end_matches([' ', '\u{200b}'])).collect();
    let prompt_row = |r: &&str| match v {
        Vendor::Gemini => r.starts_with(" > ") || *r == " >",
        Vendor::Qwen => r.starts_with("> ") || *r == ">",
        Vendor::Copilot => r.starts_with('❯'),
        Vendor::Opencode => true,
    };
    let at = match v {
        Vendor::Opencode => 0,
        _ => rows.iter().rposition(prompt_row).unwrap_or(rows.len()),
    };
    rows[at..].iter().map(|r| r.to_string()).collect()
}

/// The requests of the turn whose prompt's last line is `prompt` (the CLIs put their own
/// context before a session's first prompt), in order.
fn turn(rw: &RealWorld, v: Vendor, prompt: &str) -> Vec<Request> {
    let mine = |r: &Request| r.api == v.api() && r.kind == "main" && r.prompt.lines().last() == Some(prompt);
    rw.mock.requests().into_iter().filter(|r| mine(r)).collect()
}

/// The owner's send to an idle seat: `delivered`; the model's turn is the trigger line and one
/// of its reads returned the body; the CLI's transcript, found where the profile's patterns say
/// for the seat's home and folder, holds rows the profile reads as the drop read (opencode's
/// profile names no transcript: its proof is what the screen shows). Returns the send's own
/// time.
fn delivered_with_proof(rw: &RealWorld, v: Vendor, seat: &Seat) -> Duration {
    let host = ProfileHost::with_dirs(rw.w.base().join("pconfig"), rw.w.base().join("pcache"));
    let (desc, _) = host.description(v.profile(), &Default::default()).unwrap();
    let mut watch = TranscriptWatch::begin(&desc.transcript_patterns, Some(seat.home.clone()), Some(rw.w.repo.clone()));

    let body = "the gate is green";
    let started = Instant::now();
    let run = rw.w.team(&["send", v.seat(), body]);
    let took = started.elapsed();
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\n{}: delivered\n", v.seat()).as_str(), "", 0)
    );
    let drop = one_drop(rw, v.seat(), "owner", "the owner", body);
    let line = one_history(rw, "owner", v.seat(), "delivered", "the owner", body, &drop);
    assert!(line.get("note").is_none(), "{line}");

    // The model: a turn whose prompt is the trigger line, one of whose reads returned the body.
    let trig = trigger(rw, &drop);
    let t = Instant::now();
    while !turn(rw, v, &trig).iter().any(|r| r.results.iter().any(|o| o.contains(body))) {
        assert!(t.elapsed() < BOUND, "the {} model never read the body: {:#?}", v.api(), turn(rw, v, &trig));
        std::thread::sleep(Duration::from_millis(50));
    }

    // What decided `delivered` (the history's `by`: the screen, or the transcript it read).
    let by = line["by"].as_str().unwrap_or("none").to_string();
    assert!(["screen", "transcript"].contains(&by.as_str()), "{line}");
    eprintln!("{}: send → delivered in {} ms, by {by} (typed in {} ms)", v.profile(), took.as_millis(), line["ms"]);
    if v == Vendor::Opencode {
        assert!(desc.transcript_patterns.is_empty(), "{:?}", desc.transcript_patterns);
        return took;
    }
    // The CLI wrote the read where the profile's patterns say, and the profile reads it as proof.
    let id = super::checks::id_of(&drop);
    let mut profile = host.load(v.profile(), &Default::default()).unwrap();
    let (t, mut seen) = (Instant::now(), Vec::<String>::new());
    while !profile.transcript_shows_drop_read(&seen, &id).unwrap() {
        assert!(t.elapsed() < BOUND, "no proof of the read in {:?}: {seen:#?}", watch.files());
        seen.extend(watch.new_rows().unwrap_or_default());
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(seen.iter().any(|r| r.contains(&trig)), "the rows hold the trigger line as the prompt: {seen:#?}");
    took
}

#[test]
fn owner_to_an_idle_gemini_is_delivered_and_its_transcript_proves_the_read() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Gemini);
    delivered_with_proof(&rw, Vendor::Gemini, &seat);
    // The checkout keeps send-drops/ out of git as `team init` does: Gemini CLI's read_file
    // refused the drop, and the model read it with the shell (`cat`, which it runs unasked).
    let trig = trigger(&rw, &rw.drops(Vendor::Gemini.seat())[0]);
    let reads = turn(&rw, Vendor::Gemini, &trig).into_iter().map(|r| r.results).max_by_key(Vec::len).unwrap();
    assert!(reads[0].contains("is ignored by configured ignore patterns"), "{reads:#?}");
    // Gemini CLI's router call of each prompt is a side request, never taken for the turn.
    let router = rw.mock.requests().into_iter().find(|r| r.api == "gemini" && r.prompt.contains(&trig));
    let router = router.expect("a request of the trigger's turn");
    assert!(router.kind == "side" && router.body["tools"].is_null(), "the first request is the router's: {router:?}");
}

#[test]
fn owner_to_an_idle_qwen_showing_its_next_prompt_suggestion_is_delivered_and_its_transcript_proves_the_read() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Qwen);
    // A turn first: after one with two model steps or more (here a read, then the answer) Qwen
    // asks the model for a next-prompt suggestion (a side request that carries tools) and draws
    // the answer in the empty composer. That is no draft.
    rw.w.write(&rw.w.repo.join("notes.txt"), "the plan\n");
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "look at the notes", "steps": [{ "read": "notes.txt" }, { "text": "Noted." }] }],
    }));
    rw.prompt(&seat, "chat", "look at the notes");
    let asked = rw.mock.wait_for("Qwen's suggestion request", |r| r.prompt.contains("[SUGGESTION MODE:"));
    assert_eq!(asked.kind, "side", "a request with tools told apart by its text");
    assert!(asked.body["tools"].as_array().is_some_and(|t| !t.is_empty()), "it carries tools");
    rw.wait_screen(&seat, "the suggestion in the composer", |s| s.lines().any(|l| l.trim_end() == "> Team test"));
    delivered_with_proof(&rw, Vendor::Qwen, &seat);
}

#[test]
fn owner_to_an_idle_copilot_is_delivered_and_its_transcript_proves_the_read() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Copilot);
    delivered_with_proof(&rw, Vendor::Copilot, &seat);
}

/// opencode, fresh from its start: it draws the typed trigger all at once, late (on this loaded
/// machine up to 7 s after the keys), and the read-back waits for a box that shows none of them
/// yet (`Timings::readback_unechoed`; with the 2 s bound alone this failed 2 runs of 3). Its
/// sessions are rows of a SQLite database: the profile names no transcript, and the proof is
/// the screen.
#[test]
fn owner_to_an_idle_opencode_is_delivered() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Opencode);
    delivered_with_proof(&rw, Vendor::Opencode, &seat);
    // The first prompt of a session first asks for its title: a side request with no tools.
    let trig = trigger(&rw, &rw.drops(Vendor::Opencode.seat())[0]);
    let first = rw.mock.requests().into_iter().find(|r| r.prompt.contains(&trig)).expect("the trigger's requests");
    assert!(first.kind == "side" && first.body["tools"].is_null(), "the title request: {first:?}");
}

/// A person's unsent text: `held`, nothing typed, the composer and what is under it as they
/// were, the model sent nothing.
fn a_draft_is_held_and_left_untouched(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(v);
    let draft = "half a thought about the gate";
    rw.type_draft(&seat, draft);
    let screen = rw.wait_screen(&seat, "the draft in the composer", |s| v.shows_draft(s, draft));
    let asked = rw.mock.requests().len();

    let body = "the gate is green";
    let run = rw.w.team(&["send", v.seat(), body]);
    let drop = one_drop(&rw, v.seat(), "owner", "the owner", body);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (
            format!(
                "{CONTEXT}\n{}: held (the composer already holds unsent text; nothing was typed; the message is at {})\n",
                v.seat(),
                drop.display()
            )
            .as_str(),
            "",
            1
        )
    );
    one_history(&rw, "owner", v.seat(), "held", "the owner", body, &drop);
    let after = rw.screen(&seat);
    assert_eq!(composer(v, &after), composer(v, &screen), "the composer and its footer are as they were");
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
    assert!(!after.contains(&trigger(&rw, &drop)), "the trigger was never typed:\n{after}");
}

#[test]
fn a_draft_in_gemini_is_held_and_left_untouched() {
    a_draft_is_held_and_left_untouched(Vendor::Gemini);
}

#[test]
fn a_draft_in_qwen_is_held_and_left_untouched() {
    a_draft_is_held_and_left_untouched(Vendor::Qwen);
}

#[test]
fn a_draft_in_copilot_is_held_and_left_untouched() {
    a_draft_is_held_and_left_untouched(Vendor::Copilot);
}

#[test]
fn a_draft_in_opencode_is_held_and_left_untouched() {
    a_draft_is_held_and_left_untouched(Vendor::Opencode);
}

/// The CLI's permission dialog, its own rows from its first phrase down (Qwen's spinner row
/// under it and opencode's progress bar animate by themselves).
fn dialog(v: Vendor, screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows.iter().position(|r| r.contains(v.dialog_phrase())).unwrap_or(rows.len());
    let moving = |r: &&&str| r.contains("Waiting for user confirmation") || r.contains('⬝') || r.contains('■');
    rows[at..].iter().filter(|r| !moving(r)).map(|r| r.to_string()).collect()
}

/// The CLI asks whether to run a command: the send reads the dialog, presses nothing and says
/// so; the dialog is as it was, its command never ran, the model was sent nothing.
fn a_permission_dialog_is_unreachable_and_gets_no_key(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(v);
    let outside = rw.top().join("outside.txt");
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "check the box", "steps": [{ "bash": format!("touch {}", outside.display()) }] }],
    }));
    rw.prompt(&seat, v.api(), "check the box");
    let screen = rw.wait_screen(&seat, "the permission dialog", |s| v.at_dialog(s));
    let asked = rw.mock.requests().len();

    let body = "the gate is green";
    let run = rw.w.team(&["send", v.seat(), body]);
    let drop = one_drop(&rw, v.seat(), "owner", "the owner", body);
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{}", run.stdout);
    let head = format!("{CONTEXT}\n{}: unreachable (the pane shows a permission dialog", v.seat());
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    let tail = format!("; nothing was pressed; the message is at {})\n", drop.display());
    assert!(run.stdout.ends_with(&tail), "{}", run.stdout);
    one_history(&rw, "owner", v.seat(), "unreachable", "the owner", body, &drop);
    assert!(!dialog(v, &screen).is_empty(), "{screen}");
    assert_eq!(dialog(v, &rw.screen(&seat)), dialog(v, &screen), "the dialog is as it was: no key reached it");
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
    assert!(!outside.exists(), "the dialog's command never ran: nothing accepted it");
}

#[test]
fn a_permission_dialog_in_gemini_is_unreachable_and_gets_no_key() {
    a_permission_dialog_is_unreachable_and_gets_no_key(Vendor::Gemini);
}

#[test]
fn a_permission_dialog_in_qwen_is_unreachable_and_gets_no_key() {
    a_permission_dialog_is_unreachable_and_gets_no_key(Vendor::Qwen);
}

/// Copilot's path dialog, whose focus starts on `2. Yes, and remember this path for this
/// session`: a blind Enter would grant the path for the session.
#[test]
fn a_permission_dialog_in_copilot_is_unreachable_and_gets_no_key() {
    a_permission_dialog_is_unreachable_and_gets_no_key(Vendor::Copilot);
}

#[test]
fn a_permission_dialog_in_opencode_is_unreachable_and_gets_no_key() {
    a_permission_dialog_is_unreachable_and_gets_no_key(Vendor::Opencode);
}

/// The CLI left (its own leave command or key): the shell is back in the pane. `unreachable`,
/// and nothing is typed into that shell.
fn an_exited_cli_is_unreachable(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(v);
    match v.leave() {
        Leave::Typed(command) => {
            rw.type_draft(&seat, command);
            std::thread::sleep(Duration::from_millis(400)); // Gemini CLI: Enter apart from the text
            assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
        }
        Leave::Key(key) => assert!(rw.tmux(&["send-keys", "-t", &seat.pane, key]).status.success()),
    }
    let screen = wait_any(&rw, &seat, "the shell back after the CLI exited", |s| {
        s.contains(EXITED) && s.lines().rev().find(|l| !l.trim().is_empty()).map(str::trim) == Some("#")
    });

    let body = "the gate is green";
    let run = rw.w.team(&["send", v.seat(), body]);
    let drop = one_drop(&rw, v.seat(), "owner", "the owner", body);
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{}", run.stdout);
    let head = format!("{CONTEXT}\n{}: unreachable (", v.seat());
    assert!(
        run.stdout.starts_with(&head) && run.stdout.contains("has exited in that pane; nothing was typed"),
        "{}",
        run.stdout
    );
    one_history(&rw, "owner", v.seat(), "unreachable", "the owner", body, &drop);
    assert_eq!(rw.screen(&seat), screen, "nothing was typed into the shell");
}

#[test]
fn an_exited_gemini_is_unreachable() {
    an_exited_cli_is_unreachable(Vendor::Gemini);
}

#[test]
fn an_exited_qwen_is_unreachable() {
    an_exited_cli_is_unreachable(Vendor::Qwen);
}

#[test]
fn an_exited_copilot_is_unreachable() {
    an_exited_cli_is_unreachable(Vendor::Copilot);
}

#[test]
fn an_exited_opencode_is_unreachable() {
    an_exited_cli_is_unreachable(Vendor::Opencode);
}

/// Gemini CLI keeps text and Enter typed in one burst as a draft: the burst's Enter becomes a
/// new line of the draft, nothing is submitted; a lone Enter after a pause submits the draft.
/// So the Enter rule is the profile's: its description asks for the pause the typed leg waits
/// between the trigger and Enter.
#[test]
fn gemini_keeps_text_and_enter_typed_in_one_burst_as_a_draft() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Gemini);
    let host = ProfileHost::with_dirs(rw.w.base().join("pconfig"), rw.w.base().join("pcache"));
    let (desc, _) = host.description("gemini-cli", &Default::default()).unwrap();
    assert!(desc.enter_pause_ms >= 300, "the profile asks for the pause: {}", desc.enter_pause_ms);

    let text = "say hello burst";
    let out = rw.tmux(&["send-keys", "-t", &seat.pane, "-l", text, ";", "send-keys", "-t", &seat.pane, "Enter"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One more key after the burst: once the composer shows it, the CLI has taken every key
    // before it, the burst's Enter among them — as a new line of the draft.
    assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "-l", "X"]).status.success());
    rw.wait_screen(&seat, "the key typed after the burst, on the draft's second row", |s| {
        composer(Vendor::Gemini, s).starts_with(&[format!(" > {text}"), "   X".to_string()])
    });
    assert!(!rw.mock.requests().iter().any(|r| r.prompt.contains(text)), "the burst's Enter submitted nothing");

    std::thread::sleep(Duration::from_millis(desc.enter_pause_ms as u64));
    assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
    let r = rw.mock.wait_for("the draft, submitted by a lone Enter", |r| r.kind == "main" && r.prompt.contains(text));
    assert!(r.prompt.ends_with(&format!("{text}\nX")), "the draft's two rows: {:?}", r.prompt);
}
