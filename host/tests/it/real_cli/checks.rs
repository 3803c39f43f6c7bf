//! What every real-CLI scenario checks after a send: the one drop file (its header, body and
//! mode), the one history line (`from`, `to`, outcome, the admitting rule in its body), and
//! what the receiving model was sent (the trigger naming the drop, then the drop's text).

use super::harness::RealWorld;
use super::mock::Request;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The context line every run that reads the team file opens with.
pub const CONTEXT: &str = "team beacon, session \"beacon\"";

/// The sender header of a drop written by `from` (`owner` or a seat with no registry record)
/// and admitted by `rule`.
pub fn header(from: &str, rule: &str) -> String {
    let who = if from == "owner" {
        "from the owner".to_string()
    } else {
        format!("from the file's seat {from} (no registry record yet)")
    };
    format!("{who} — admitted by: {rule}")
}

/// The drop's id: its file name.
pub fn id_of(drop: &Path) -> String {
    drop.file_name().unwrap().to_string_lossy().into_owned()
}

/// Checks that `seat` got exactly one drop file, 0600, holding the header and the body whole.
pub fn one_drop(rw: &RealWorld, seat: &str, from: &str, rule: &str, body: &str) -> PathBuf {
    let drops = rw.drops(seat);
    assert_eq!(drops.len(), 1, "one drop file for {seat}: {drops:?}");
    let drop = drops[0].clone();
    assert_eq!(std::fs::read_to_string(&drop).unwrap(), format!("{}\n\n{body}", header(from, rule)));
    assert_eq!(std::fs::metadata(&drop).unwrap().permissions().mode() & 0o777, 0o600, "{}", drop.display());
    drop
}

/// Checks the one history line: who sent to whom, how it ended, the admitting rule (in the
/// body's header), the drop's id, and the channel that took it (`typed` once the trigger was
/// typed; none when nothing was); returns it.
pub fn one_history(rw: &RealWorld, from: &str, to: &str, outcome: &str, rule: &str, body: &str, drop: &Path) -> Value {
    let h = rw.history();
    assert_eq!(h.len(), 1, "one history line: {h:#?}");
    let line = h[0].clone();
    assert_eq!(line["from"], from, "{line}");
    assert_eq!(line["to"], to, "{line}");
    assert_eq!(line["outcome"], outcome, "{line}");
    assert_eq!(line["id"].as_str(), Some(id_of(drop).as_str()), "{line}");
    assert_eq!(line["body"].as_str(), Some(format!("{}\n\n{body}", header(from, rule)).as_str()), "{line}");
    let via = if outcome == "delivered" { Some("typed") } else { None };
    assert_eq!(line.get("via").and_then(Value::as_str), via, "{line}");
    line
}

/// The trigger line a seat working in the checkout is typed for `drop`.
pub fn trigger(rw: &RealWorld, drop: &Path) -> String {
    let rel = drop.strip_prefix(&rw.w.repo).unwrap();
    format!("Please read the team message at {}", rel.display())
}

/// Checks what the receiving model (`api`) was sent: a turn whose prompt is the trigger naming
/// the drop (its last line: Claude opens a session's first prompt with its own reminders), and
/// in that turn the drop's text as the output of the read. Returns that turn's requests.
pub fn model_read_the_drop(rw: &RealWorld, api: &str, drop: &Path, body: &str) -> Vec<Request> {
    let trig = trigger(rw, drop);
    let read = rw.mock.wait_result(api, &trig, 1);
    assert!(read.contains(body), "the {api} model's read of the drop did not hold the body {body:?}: {read:?}");
    let turn: Vec<Request> = rw.mock.main_requests(api).into_iter().filter(|r| r.prompt.contains(&trig)).collect();
    for r in &turn {
        assert_eq!(r.prompt.lines().last(), Some(trig.as_str()), "the prompt is the trigger line: {:?}", r.prompt);
    }
    turn
}

/// The text a Codex `exec_command` output carries after its `Output:` line, and its exit code.
pub fn codex_output(result: &str) -> (Option<i32>, String) {
    let code =
        result.lines().find_map(|l| l.strip_prefix("Process exited with code ")).and_then(|c| c.trim().parse().ok());
    let text = result.split_once("\nOutput:\n").map(|(_, t)| t.to_string()).unwrap_or_default();
    (code, text)
}
