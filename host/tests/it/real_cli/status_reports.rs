//! The real Codex 0.171.0's own status reports (OSC 7501), read through the pipe `team up`
//! attaches to its pane: started by `team up` (its profile declares `status-reports=osc7501`),
//! it reports `idle` at its prompt, and a send's Enter turns it `working` — the report the typed
//! leg reads as the line submitted, said in the history as `by: status-report`
//! (docs/status-reports.md). Claude Code, whose probe a tmux pane never answers, gets no pipe.

use super::up::{record, world};
use std::time::{Duration, Instant};

/// The reports file of `pane`'s seat: the one file of the folder whose reports name codex.
fn reports(rw: &super::harness::RealWorld) -> Vec<String> {
    let dir = rw.w.state.join("status-reports");
    let files: Vec<_> = std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.iter().map(|f| std::fs::read_to_string(f).unwrap_or_default()).collect()
}

fn wait(what: &str, mut cond: impl FnMut() -> bool) {
    let t = Instant::now();
    while !cond() {
        assert!(t.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_codex_seat_team_up_started_reports_idle_then_working_after_the_send_s_enter() {
    let rw = world(true);
    let r = rw.w.team(&["up", "--no-hooks", "--no-mcp", "--timeout", "90"]);
    eprintln!("team up:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    let rp = record(&rw, "gpt-reviewer")["pane"].as_str().unwrap().to_string();
    assert!(r.stdout.contains(&format!("gpt-reviewer: up (codex 0.171.0 in {rp}, idle)")), "{}", r.stdout);
    // one pipe: Codex's (Claude Code declares no reports)
    assert_eq!(reports(&rw).len(), 1, "{:?}", reports(&rw));
    wait("codex's idle report", || reports(&rw)[0].lines().any(|l| l.ends_with(" idle codex")));

    let r = rw.w.team(&["send", "gpt-reviewer", "the gate is green"]);
    eprintln!("team send:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("gpt-reviewer: delivered"), "{r:?}");
    let file = reports(&rw).remove(0);
    eprintln!("reports:\n{file}");
    assert!(file.lines().any(|l| l.ends_with(" working codex")), "{file}");
    let line = rw.history().into_iter().rev().find(|l| l["to"] == "gpt-reviewer").expect("the send's line");
    assert_eq!((line["outcome"].as_str(), line["by"].as_str()), (Some("delivered"), Some("status-report")), "{line}");
    let feed = rw.w.team(&["feed"]).stdout;
    assert!(feed.contains("by status report"), "{feed}");
}
