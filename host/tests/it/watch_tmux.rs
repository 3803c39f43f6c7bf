//! `team watch` end to end: the real binary against fake seats in a private tmux server, every
//! wait of the typed leg and of the watch shortened twenty-fold (`TEAM_TIME_SCALE=0.05`: the
//! 20 s window is 1 s, a minute 3 s, thirty minutes 90 s). Each test asserts what the watch
//! printed, the history lines and receipts it wrote, and the exact bytes every fake seat
//! received — above all that nothing is ever typed into a seat that took the line.

use crate::common;
use crate::common::scene::{trigger_for, workers_file, Scene};
use crate::common::tmux as tmux_world;
use crate::common::World;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tmux_world::{SeatSpec, TmuxWorld};

pub fn scene(seats: &[SeatSpec]) -> Scene {
    Scene::start(seats, &workers_file(seats), Some("0.05"))
}

/// A watch running in the background, stopped (by its own pid) when dropped.
pub struct Running {
    pub pid: i32,
    pub out: PathBuf,
    pub err: PathBuf,
    _started: common::Started,
}

impl Running {
    pub fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.pid), nix::sys::signal::Signal::SIGTERM);
    }
}

impl Scene {
    /// Starts `team watch <args>` in the background and waits until it holds the project's lock.
    pub fn start_watch(&self, args: &[&str]) -> Running {
        start_watch(&self.w, &self.tw, args)
    }
}

/// Starts `team watch <args>` in `w` in the background and waits until it holds the project's
/// lock (its output in files beside the world; SIGTERM when the handle drops).
pub fn start_watch(w: &World, tw: &TmuxWorld, args: &[&str]) -> Running {
    let out = w.base().join(format!("watch-{}.out", args.join("")));
    let err = w.base().join(format!("watch-{}.err", args.join("")));
    let started = w.start(
        &format!("team watch {}", args.join(" ")),
        Stdio::from(std::fs::File::create(&out).unwrap()),
        Stdio::from(std::fs::File::create(&err).unwrap()),
    );
    let mut pid = None;
    let held = tw.wait_until(crate::common::BOUND, || {
        pid = crate::common::scene::watch_holder(&w.state);
        pid.is_some()
    });
    assert!(held, "the watch never took its lock: {}", std::fs::read_to_string(&err).unwrap_or_default());
    Running { pid: pid.unwrap(), out, err, _started: started }
}

const CONTEXT: &str = "team beacon, session \"beacon\"\n";

fn once(s: &Scene) -> common::Run {
    s.w.team(&["watch", "--once"])
}

#[test]
fn a_held_send_is_retried_once_the_draft_is_cleared_and_the_send_said_so() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "draft").delay(300)]);
    let watch = s.start_watch(&[]);
    let r = s.w.team(&["send", "gpt-reviewer", "the gate is green"]);
    let drop = s.drop_of("gpt-reviewer");
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "{CONTEXT}gpt-reviewer: held (the composer already holds unsent text; nothing was typed; the message is at {}); the watch (pid {}) will retry it once the seat is idle with an empty box, up to 3 tries in thirty minutes\n",
            drop.display(),
            watch.pid
        )
    );
    let text = std::fs::read_to_string(&drop).unwrap();
    assert_eq!(s.bytes("gpt-reviewer"), "", "nothing over the draft");
    // The person clears the draft; the watch retries the same drop file.
    s.keys("gpt-reviewer", &["C-u"]);
    s.wait("the retry's history line", || s.history().len() == 2);
    let h = s.history();
    assert_eq!(h[0]["outcome"], "held");
    assert_eq!(h[0]["cli"], "codex");
    let retry = &h[1];
    assert_eq!(retry["outcome"], "delivered", "{retry}");
    assert_eq!(
        (retry["id"].clone(), retry["body"].clone(), retry["from"].clone()),
        (h[0]["id"].clone(), h[0]["body"].clone(), h[0]["from"].clone())
    );
    assert_eq!(retry["retry"], 1);
    assert_eq!(retry["via"], "typed");
    assert_eq!(retry["profile"], h[0]["profile"]);
    assert_eq!(std::fs::read_to_string(&drop).unwrap(), text, "the drop file is never rewritten");
    assert_eq!(s.bytes("gpt-reviewer"), format!("\x15{}\r", trigger_for(&drop)));
    s.wait("the watch's line", || watch.stdout().contains("gpt-reviewer: retried"));
    assert_eq!(
        watch.stdout(),
        format!(
            "{CONTEXT}watching beacon (pid {}): held, not-submitted and dialog-stopped sends are retried, delivered ones confirmed\ngpt-reviewer: retried a send from owner (try 1 of 3): delivered\n",
            watch.pid
        )
    );
    assert!(s.log().contains("\"command\":\"watch\"") && s.log().contains("retry 1 of 3"), "{}", s.log());
}

#[test]
fn without_a_running_watch_a_held_send_promises_nothing() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "draft")]);
    let r = s.w.team(&["send", "gpt-reviewer", "hello"]);
    assert_eq!(r.code, 1);
    assert!(!r.stdout.contains("watch"), "{}", r.stdout);
    let r = s.w.team(&["send", "gpt-reviewer", "hello", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(!doc["error"]["message"].as_str().unwrap().contains("watch"), "{doc}");
}

#[test]
fn a_not_submitted_send_is_retried_by_one_pass_once_its_box_is_empty() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "ignores-enters:3").delay(300)]);
    let r = s.w.team(&["send", "gpt-reviewer", "hello"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("not-submitted (3 Enters pressed"), "{}", r.stdout);
    let drop = s.drop_of("gpt-reviewer");
    let trig = trigger_for(&drop);
    // The box still holds the trigger: nothing is typed over it.
    let r = once(&s);
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n").as_str(), 0),
        "{r:?}"
    );
    assert_eq!(s.bytes("gpt-reviewer"), format!("{trig}\r\r\r"));
    s.keys("gpt-reviewer", &["C-u"]);
    s.wait("the box to empty", || !s.tw.screen("gpt-reviewer").contains("Please read"));
    let r = once(&s);
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (
            format!("{CONTEXT}gpt-reviewer: retried a send from owner (try 1 of 3): delivered\none pass: 1 retried, 0 stopped, 0 taken but never acted on\n").as_str(),
            "",
            0
        )
    );
    assert_eq!(s.bytes("gpt-reviewer"), format!("{trig}\r\r\r\x15{trig}\r"));
    let h = s.history();
    assert_eq!((h.len(), h[1]["outcome"].as_str(), h[1]["retry"].as_u64()), (2, Some("delivered"), Some(1)));
}

#[test]
fn a_dialog_stopped_send_is_retried_once_the_dialog_is_gone() {
    let s = scene(&[SeatSpec::new("claude-keeper", "claude-code", "dialog:permission").delay(300)]);
    let r = s.w.team(&["send", "claude-keeper", "hello"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("unreachable (the pane shows a permission dialog"), "{}", r.stdout);
    assert_eq!(s.history()[0]["dialog"], "permission");
    let r = once(&s);
    assert!(r.stdout.ends_with("one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"), "{r:?}");
    assert_eq!(s.bytes("claude-keeper"), "", "nothing reaches a dialog");
    // The person answers it (Esc cancels); the watch retries into the idle prompt.
    s.keys("claude-keeper", &["Escape"]);
    s.wait("the dialog to go", || !s.tw.screen("claude-keeper").contains("Do you want to proceed"));
    let r = once(&s);
    assert!(r.stdout.contains("claude-keeper: retried a send from owner (try 1 of 3): delivered"), "{r:?}");
    let drop = s.drop_of("claude-keeper");
    assert_eq!(s.bytes("claude-keeper"), format!("\x1b{}\r", trigger_for(&drop)));
    let h = s.history();
    assert_eq!(h[1]["retry"], 1);
    assert!(h[1].get("dialog").is_none());
}

#[test]
fn three_failed_retries_then_a_stop_that_names_the_drop_said_once() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "ignores-enter").delay(300)]);
    let r = s.w.team(&["send", "gpt-reviewer", "hello"]);
    assert_eq!(r.code, 1);
    let drop = s.drop_of("gpt-reviewer");
    let trig = trigger_for(&drop);
    let mut want_bytes = format!("{trig}\r\r\r");
    for n in 1..=3 {
        s.keys("gpt-reviewer", &["C-u"]);
        s.wait("the box to empty", || !s.tw.screen("gpt-reviewer").contains("Please read"));
        want_bytes.push_str(&format!("\x15{trig}\r\r\r"));
        let r = once(&s);
        let tried = format!(
            "gpt-reviewer: retried a send from owner (try {n} of 3): not-submitted (3 Enters pressed; the box holds {trig:?}; the message is at {})\n",
            drop.display()
        );
        let stop = if n == 3 {
            format!(
                "gpt-reviewer: stopped retrying a send from owner after 3 tries; the message is at {}\n",
                drop.display()
            )
        } else {
            String::new()
        };
        let stopped = usize::from(n == 3);
        assert_eq!(
            r.stdout,
            format!("{CONTEXT}{tried}{stop}one pass: 1 retried, {stopped} stopped, 0 taken but never acted on\n"),
            "try {n}"
        );
        assert_eq!(s.bytes("gpt-reviewer"), want_bytes, "try {n}");
    }
    // A fourth chance changes nothing: the stop was said, and nothing more is typed.
    s.keys("gpt-reviewer", &["C-u"]);
    s.wait("the box to empty", || !s.tw.screen("gpt-reviewer").contains("Please read"));
    let r = once(&s);
    assert_eq!(r.stdout, format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"));
    assert_eq!(s.bytes("gpt-reviewer"), format!("{want_bytes}\x15"));
    let h = s.history();
    assert_eq!(h.iter().map(|l| l["retry"].as_u64().unwrap_or(0)).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    // Each try's intent, recorded before it typed, then the stop.
    let receipts = s.receipts();
    assert_eq!(
        receipts.iter().map(|r| (r["receipt"].as_str().unwrap(), r["try"].as_u64())).collect::<Vec<_>>(),
        vec![
            ("retry-started", Some(1)),
            ("retry-started", Some(2)),
            ("retry-started", Some(3)),
            ("retries-stopped", None)
        ]
    );
    assert_eq!(receipts[3]["why"], "after 3 tries");
}

#[test]
fn taken_but_never_acted_on_is_said_exactly_once_and_nothing_is_typed_again() {
    let mut s = scene(&[
        SeatSpec::new("gpt-reviewer", "codex", "clears-without-working"),
        SeatSpec::new("claude-keeper", "claude-code", "clears-without-working"),
    ]);
    // The real clock: a minute of a free seat is 3 s here.
    s.w.extra_env.push(("TEAM_NOW".into(), String::new()));
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let watch = s.start_watch(&["--json"]);
    let r = s.w.team(&["send", "gpt-reviewer", "hello"]);
    assert_eq!(r.stdout, format!("{CONTEXT}gpt-reviewer: delivered (taken, not yet confirmed)\n"), "{r:?}");
    let drop = s.drop_of("gpt-reviewer");
    let out = watch.out.clone();
    let events = || -> Vec<Value> {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
    };
    let said = |seat: &str| events().iter().filter(|e| e["event"] == "never-acted-on" && e["seat"] == seat).count();
    s.wait("the watch to say it", || said("gpt-reviewer") == 1);
    // Another seat's send, said later: the watch has made many passes since the first.
    let r = s.w.team(&["send", "claude-keeper", "hello"]);
    assert_eq!(r.code, 0, "{r:?}");
    s.wait("the second seat's", || said("claude-keeper") == 1);
    std::mem::drop(watch);
    // A new watch says nothing twice either.
    let r = once(&s);
    assert_eq!(r.stdout, format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"), "{r:?}");
    let evs = events();
    for e in &evs {
        common::validate(e).unwrap();
    }
    assert_eq!(evs[0]["event"], "started");
    let first = evs.iter().find(|e| e["event"] == "never-acted-on").unwrap();
    assert_eq!(first["drop"], drop.display().to_string());
    assert_eq!(first["from"], "owner");
    assert_eq!(said("gpt-reviewer"), 1);
    assert_eq!(s.bytes("gpt-reviewer"), format!("{}\r", trigger_for(&drop)), "never typed again");
    let lines: Vec<Value> = s.history().into_iter().filter(|l| l["to"] == "gpt-reviewer").collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[1]["outcome"].as_str(), lines[1]["note"].as_str()),
        (Some("delivered"), Some("taken but never acted on"))
    );
    assert_eq!(s.log().matches("\"outcome\":\"never-acted-on\"").count(), 2, "one team.log line per id: {}", s.log());
    // The feed keeps it.
    let f = s.w.team(&["feed", "--seat", "gpt-reviewer"]);
    assert!(f.stdout.contains(", never acted on)"), "{}", f.stdout);
    assert!(f.stdout.contains("delivered (taken but never acted on)"), "{}", f.stdout);
}

#[test]
fn a_second_watch_is_refused_naming_the_first() {
    let s = scene(&[SeatSpec::new("gpt-reviewer", "codex", "takes-line")]);
    let first = s.start_watch(&[]);
    let r = once(&s);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        format!(
            "team watch: refused: another team watch (pid {}) is watching this project ({}); this one did not start\n",
            first.pid,
            s.w.repo.display()
        )
    );
    let r = s.w.team(&["watch", "--once", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
    assert_eq!(r.stdout.lines().count(), 1, "one JSON line: {}", r.stdout);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["id"], "watch.refused");
    assert!(first.stderr().is_empty(), "{}", first.stderr());
}

#[test]
fn outside_a_team_checkout_there_is_nothing_to_watch() {
    let w = World::empty();
    let r = w.team(&["watch", "--once"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("team watch: no team file: "), "{}", r.stderr);
}

/// Seats that take the line and act on it only after the send's window (a status that lags):
/// the send says taken, not yet confirmed; one pass of the watch then finds the sign — Claude
/// Code's in the transcript the fake writes as the real one does, Codex's and Cursor's on the
/// screen — records it silently, and the feed shows the message read.
#[test]
fn a_sign_that_comes_after_the_send_is_a_silent_confirmation_the_feed_shows() {
    for (cli, seat, sign) in [
        ("claude-code", "claude-keeper", "transcript"),
        ("codex", "gpt-reviewer", "screen"),
        ("cursor", "cursor-dev", "screen"),
    ] {
        let mut spec = SeatSpec::new(seat, cli, "reads-late").delay(3_000);
        if cli == "claude-code" {
            spec = spec.transcript();
        }
        let s = scene(&[spec]);
        let r = s.w.team(&["send", seat, "hello"]);
        assert_eq!(r.stdout, format!("{CONTEXT}{seat}: delivered (taken, not yet confirmed)\n"), "{cli}: {r:?}");
        let f = s.w.team(&["feed"]);
        assert!(f.stdout.contains(", not yet read)"), "{cli}: {}", f.stdout);
        let drop = s.drop_of(seat);
        // The seat's turn shows (Claude: its transcript row; the others: the read row).
        let home = s.tw.seat(seat).home.clone();
        let id = drop.file_name().unwrap().to_string_lossy().into_owned();
        s.wait("the seat to act", || match cli {
            "claude-code" => transcript_names(&home, &drop),
            _ => s.tw.screen(seat).contains(&format!("Read {id}")),
        });
        let r = once(&s);
        assert_eq!(
            r.stdout,
            format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"),
            "{cli}: {r:?}"
        );
        let rc = s.receipts();
        assert_eq!(rc.len(), 1, "{cli}");
        assert_eq!(
            (rc[0]["receipt"].as_str(), rc[0]["sign"].as_str(), rc[0]["id"].as_str()),
            (Some("read"), Some(sign), Some(id.as_str())),
            "{cli}"
        );
        assert_eq!(s.bytes(seat), format!("{}\r", trigger_for(&drop)), "{cli}: one trigger, one Enter");
        let f = s.w.team(&["feed"]);
        assert!(f.stdout.contains("delivered (via typed in 0 ms, read 09:00:00)"), "{cli}: {}", f.stdout);
        let doc: Value = serde_json::from_str(&s.w.team(&["feed", "--json"]).stdout).unwrap();
        common::validate(&doc).unwrap();
        assert_eq!(doc["events"][0]["read"]["sign"], sign, "{cli}");
        // Confirmed once.
        once(&s);
        assert_eq!(s.receipts().len(), 1, "{cli}");
    }
}

/// Whether a Claude transcript under `home` shows `drop` read.
fn transcript_names(home: &Path, drop: &Path) -> bool {
    let want = format!("\"filePath\":\"{}\"", drop.display());
    walk(&home.join(".claude/projects")).iter().any(|f| std::fs::read_to_string(f).unwrap_or_default().contains(&want))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
