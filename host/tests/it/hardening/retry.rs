//! The attacks of issue 17 items 3 and 7 on `team watch`: a retry typed twice (the watch
//! killed right after its retry pressed Enter; the watch's records failing to be written), and
//! a history or receipt id that is a path. Each runs the built binary against fake seats in a
//! private tmux server and asserts the exact bytes every seat received.

use super::{scene, Scene};
use crate::common::scene::trigger_for;
use crate::common::tmux::SeatSpec;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const CONTEXT: &str = "team beacon, session \"beacon\"\n";

/// Every receipt line against `schema/receipts.schema.json`.
fn valid_receipts(s: &Scene) {
    let p = crate::common::schema_dir().join("receipts.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    for r in s.receipts() {
        let errs: Vec<String> = v.iter_errors(&r).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errs.is_empty(), "{r}: {errs:?}");
    }
}

/// A watch started in the background by `line` (a bash line running `team watch`).
struct Running {
    pid: i32,
    out: PathBuf,
    err: PathBuf,
    _started: crate::common::Started,
}

impl Running {
    fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }
    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }
    fn kill(&self) {
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.pid), nix::sys::signal::Signal::SIGKILL);
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.kill();
    }
}

fn start_watch(s: &Scene, name: &str, line: &str) -> Running {
    let out = s.w.base().join(format!("watch-{name}.out"));
    let err = s.w.base().join(format!("watch-{name}.err"));
    let started = s.w.start(
        line,
        Stdio::from(std::fs::File::create(&out).unwrap()),
        Stdio::from(std::fs::File::create(&err).unwrap()),
    );
    let mut pid = None;
    let held = s.tw.wait_until(crate::common::BOUND, || {
        pid = crate::common::scene::watch_holder(&s.w.state);
        pid.is_some()
    });
    assert!(held, "the watch never took its lock: {}", std::fs::read_to_string(&err).unwrap_or_default());
    Running { pid: pid.unwrap(), out, err, _started: started }
}

/// A codex seat `rev` holding a person's draft, sent a message (held on the draft), the draft
/// then cleared: a send the watch will retry. Waits scaled by `scale`.
fn held_send(mode: &str, delay_ms: u64, scale: &str) -> (Scene, PathBuf) {
    let mut s = scene(&[SeatSpec::new("rev", "codex", mode).delay(delay_ms)], None);
    s.w.extra_env.push(("TEAM_TIME_SCALE".into(), scale.into()));
    let pane = s.tw.seat("rev").pane.clone();
    assert!(s.tw.tmux(&["send-keys", "-t", &pane, "-l", "a draft"]).status.success());
    assert!(s.tw.wait_for_text("rev", "a draft", crate::common::BOUND), "{}", s.tw.screen("rev"));
    let r = s.w.team(&["send", "rev", "the gate is green"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("rev: held (the composer already holds unsent text"), "{r:?}");
    let drop = s.drop_of("rev");
    (s, drop)
}

/// Clears the draft, waits for the watch's retry to press Enter, and kills the watch 0.1 s
/// later; proves the kill landed before the retry's history line.
fn kill_after_enter(s: &Scene, watch: &Running, trig: &str) {
    let pane = s.tw.seat("rev").pane.clone();
    assert!(s.tw.tmux(&["send-keys", "-t", &pane, "C-u"]).status.success());
    let entered = format!("\x15{trig}\r");
    let t = Instant::now();
    while !s.bytes("rev").contains(&entered) {
        assert!(t.elapsed() < crate::common::BOUND, "the retry never pressed Enter: {:?}", s.bytes("rev"));
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(100));
    watch.kill();
    assert!(s.tw.wait_until(crate::common::BOUND, || !Path::new(&format!("/proc/{}", watch.pid)).exists()));
    assert_eq!(s.history().len(), 1, "the kill landed after the retry's line: the case is not reached");
}

#[test]
fn a_watch_killed_after_its_retry_pressed_enter_never_types_it_again_and_reads_the_seat() {
    // The seat takes the line and shows its read 2 s later; the killed retry would have
    // waited 5 s (the window at scale 0.25) before writing its line.
    let (s, drop) = held_send("reads-late", 2_000, "0.25");
    let trig = trigger_for(&drop);
    let watch = start_watch(&s, "a1", "team watch");
    kill_after_enter(&s, &watch, &trig);
    assert!(s.tw.wait_for_text("rev", "Explored", crate::common::BOUND), "{}", s.tw.screen("rev"));
    let r = s.w.team(&["watch", "--once"]);
    assert_eq!(s.bytes("rev"), format!("a draft\x15{trig}\r"), "the trigger was typed twice: {r:?}");
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (
            format!(
                "{CONTEXT}rev: retry 1 of a send from owner was cut off before its end was written down; the seat's screen shows the message read: delivered; the message is at {}\none pass: 0 retried, 0 stopped, 0 taken but never acted on\n",
                drop.display()
            )
            .as_str(),
            "",
            0
        )
    );
    let h = s.history();
    assert_eq!(h.len(), 2, "{h:?}");
    assert_eq!(
        (h[1]["outcome"].as_str(), h[1]["retry"].as_u64(), h[1]["id"].clone(), h[1]["via"].as_str()),
        (Some("delivered"), Some(1), h[0]["id"].clone(), Some("typed"))
    );
    let rc = s.receipts();
    assert_eq!(
        rc.iter().map(|r| (r["receipt"].as_str().unwrap(), r["try"].as_u64(), r["sign"].as_str())).collect::<Vec<_>>(),
        vec![("retry-started", Some(1), None), ("read", None, Some("screen"))]
    );
    valid_receipts(&s);
    // Said once; the feed shows it delivered and read.
    let r = s.w.team(&["watch", "--once"]);
    assert_eq!(r.stdout, format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"));
    assert_eq!(s.bytes("rev"), format!("a draft\x15{trig}\r"));
    let r = s.w.team(&["feed", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    let ev = &doc["events"][1];
    assert_eq!((ev["outcome"].as_str(), ev["read"]["state"].as_str()), (Some("delivered"), Some("read")), "{doc}");
}

#[test]
fn a_retry_cut_off_with_no_sign_is_stopped_and_never_typed_again() {
    // The seat takes the line and never shows it read.
    let (s, drop) = held_send("reads-late", 600_000, "0.25");
    let trig = trigger_for(&drop);
    let watch = start_watch(&s, "a2", "team watch");
    kill_after_enter(&s, &watch, &trig);
    let r = s.w.team(&["watch", "--once"]);
    assert_eq!(s.bytes("rev"), format!("a draft\x15{trig}\r"), "the trigger was typed twice: {r:?}");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (
            format!(
                "{CONTEXT}rev: stopped retrying a send from owner (retry 1 was cut off before its end was written down, and nothing on the seat shows the message read; nothing is typed again on a guess); the message is at {}\none pass: 0 retried, 1 stopped, 0 taken but never acted on\n",
                drop.display()
            )
            .as_str(),
            0
        ),
        "{r:?}"
    );
    let r = s.w.team(&["watch", "--once"]);
    assert_eq!(r.stdout, format!("{CONTEXT}one pass: 0 retried, 0 stopped, 0 taken but never acted on\n"));
    assert_eq!(s.bytes("rev"), format!("a draft\x15{trig}\r"));
    let h = s.history();
    assert_eq!(h.len(), 1, "a cut-off retry is no delivery: {h:?}");
    let rc = s.receipts();
    assert_eq!(
        rc.iter().map(|r| r["receipt"].as_str().unwrap()).collect::<Vec<_>>(),
        vec!["retry-started", "retries-stopped"]
    );
    valid_receipts(&s);
    let r = s.w.team(&["feed", "--stats", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!((doc["total"]["delivered"].as_u64(), doc["total"]["held"].as_u64()), (Some(0), Some(1)), "{doc}");
}

#[test]
fn a_watch_whose_records_cannot_be_written_types_nothing_and_says_so_once() {
    let mut s = scene(
        &[
            SeatSpec::new("rev", "codex", "draft").delay(300),
            SeatSpec::new("keeper", "codex", "clears-without-working"),
        ],
        None,
    );
    // The real clock: "a minute free" (3 s here) is what shows the watch made many passes.
    s.w.extra_env.push(("TEAM_NOW".into(), String::new()));
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let r = s.w.team(&["send", "keeper", "hello"]);
    assert_eq!(r.code, 0, "{r:?}");
    // A body past the file-size limit below: no history line can be appended.
    let r = s.w.team(&["send", "rev", &"the gate is green. ".repeat(80)]);
    assert_eq!(r.code, 1, "{r:?}");
    let drop = s.drop_of("rev");
    let trig = trigger_for(&drop);
    // Receipts past it too (for ids of no message).
    let mut text = String::new();
    for n in 0..12 {
        let r = json!({"ts": "2026-10-01T09:00:00Z", "id": format!("00000000-0000-4000-8000-{n:012x}"), "to": "rev", "receipt": "read", "sign": "screen", "ms": 1});
        text.push_str(&format!("{r}\n"));
    }
    std::fs::write(s.project_dir().expect("the project\'s history folder").join("receipts.jsonl"), &text).unwrap();
    let pane = s.tw.seat("rev").pane.clone();
    assert!(s.tw.tmux(&["send-keys", "-t", &pane, "C-u"]).status.success());
    assert!(s.tw.wait_until(crate::common::BOUND, || !s.tw.screen("rev").contains("summarize")));
    // Files of at most 1 KiB, and the signal that limit sends ignored: every append fails
    // with EFBIG (as on a full disk).
    let watch = start_watch(&s, "b", "trap '' XFSZ; ulimit -f 1; team watch");
    let said = |seat: &str| watch.stdout().contains(&format!("{seat}: a send from owner was taken but never acted on"));
    assert!(
        s.tw.wait_until(crate::common::BOUND, || said("keeper")),
        "out: {}\nerr: {}",
        watch.stdout(),
        watch.stderr()
    );
    // Many passes later (a minute of the keeper free): nothing was ever typed for rev.
    assert_eq!(s.bytes("rev"), "\x15", "typed with no record: {}", watch.stdout());
    assert!(!s.bytes("rev").contains(&trig));
    let out = watch.stdout();
    let stop = "rev: stopped retrying a send from owner (its records cannot be written: ";
    assert_eq!(out.matches(stop).count(), 1, "{out}");
    assert!(out.contains(&format!("; nothing more is typed for it); the message is at {}\n", drop.display())), "{out}");
    assert!(out.contains("File too large"), "{out}");
    assert_eq!(out.matches("keeper: a send from owner was taken but never acted on").count(), 1, "{out}");
    let err = watch.stderr();
    assert_eq!(err.matches("team watch: rev: the stop could not be written down: ").count(), 1, "{err}");
    // Every line the watch printed, it printed once (each pass meets the same failures).
    for text in [&out, &err] {
        let lines: Vec<&str> = text.lines().collect();
        let once: std::collections::HashSet<&str> = lines.iter().copied().collect();
        assert_eq!(once.len(), lines.len(), "{text}");
    }
    assert_eq!(s.history().len(), 2, "nothing could be written");
}

/// A held line for `id` to `rev`, as the typed leg writes one.
fn held_line(id: &str) -> String {
    json!({"ts": "2026-10-01T09:00:00Z", "from": "owner", "to": "rev", "body": "from the owner\n\nx", "id": id,
           "outcome": "held", "ms": 10, "cli": "codex", "profile": "0.1.0"})
    .to_string()
}

const HOSTILE: [&str; 6] = [
    "/etc/hostname",
    "../../../../../../etc/hostname",
    "00000000-0000-4000-8000-00000000000/",
    "x\r\u{1b}[31mrm -rf ~\r",
    "00000000-0000-4000-8000-0000000000AA",
    "",
];

#[test]
fn a_history_or_receipt_id_that_is_no_message_id_is_passed_over_never_typed_nor_a_path() {
    let s = scene(&[SeatSpec::new("rev", "codex", "takes-line").delay(200)], None);
    let r = s.w.team(&["send", "rev", "first"]);
    assert_eq!(r.code, 0, "{r:?}");
    let first = s.bytes("rev");
    assert!(s.tw.wait_for_text("rev", "Explored", crate::common::BOUND));
    let dir = s.project_dir().expect("the project\'s history folder");
    // Hostile held lines first (a pass retries the oldest), then one real held send whose
    // retry proves the pass got as far as typing.
    let good = "00000000-0000-4000-8000-00000000abcd";
    let mut text = std::fs::read_to_string(dir.join("messages.jsonl")).unwrap();
    for id in HOSTILE {
        text.push_str(&held_line(id));
        text.push('\n');
    }
    text.push_str(&held_line(good));
    text.push('\n');
    std::fs::write(dir.join("messages.jsonl"), text).unwrap();
    let good_drop = s.w.repo.join(".agents/send-drops/beacon/rev").join(good);
    std::fs::write(&good_drop, "from the owner\n\nx").unwrap();
    // A receipt whose id is a path (a confirmation of nothing).
    let receipt = json!({"ts": "2026-10-01T09:00:00Z", "id": "/etc/hosts", "to": "rev", "receipt": "retries-stopped", "why": "x"});
    std::fs::write(dir.join("receipts.jsonl"), format!("{receipt}\n")).unwrap();

    let r = s.w.team(&["watch", "--once"]);
    let typed = s.bytes("rev")[first.len()..].to_string();
    assert!(!typed.contains("/etc/hostname") && !typed.contains("rm -rf"), "a hostile id was typed: {typed:?}");
    assert_eq!(typed, format!("{}\r", trigger_for(&good_drop)), "{r:?}");
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (format!("{CONTEXT}rev: retried a send from owner (try 1 of 3): delivered\none pass: 1 retried, 0 stopped, 0 taken but never acted on\n").as_str(), 0),
        "{r:?}"
    );
    // Said once, where the user looks: the watch's own output.
    assert_eq!(
        r.stderr,
        format!(
            "team watch: passed over 6 lines of {} whose id is no message id (\"/etc/hostname\", \"../../../../../../etc/hostname\", \"00000000-0000-4000-8000-00000000000/\", …)\nteam watch: passed over 1 line of {} whose id is no message id (\"/etc/hosts\")\n",
            dir.join("messages.jsonl").display(),
            dir.join("receipts.jsonl").display()
        )
    );
    // The feed shows none of them, and says it skipped them.
    let r = s.w.team(&["feed", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    let ids: Vec<&str> = doc["events"].as_array().unwrap().iter().filter_map(|e| e["id"].as_str()).collect();
    assert!(ids.iter().all(|id| !HOSTILE.contains(id)), "{ids:?}");
    assert_eq!(doc["skipped"], 7, "{doc}");
    let r = s.w.team(&["feed"]);
    assert!(r.stderr.contains("team feed: skipped 7 unreadable lines (7 whose id is no message id)"), "{r:?}");
    // Nor does the seat's last message in `team status`.
    let r = s.w.team(&["status", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["seats"][0]["last"]["id"], good, "{doc}");
}
