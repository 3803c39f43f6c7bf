//! The agent's own status reports (OSC 7501) as the typed leg's second witness, end to end
//! under tmux: `team up` starts a Codex seat (the fake seat drawing Codex 0.171.0's real
//! screens and, with `--status-reports`, writing its reports byte for byte as measured:
//! `ESC ] 7501 ; state=<s>:app=codex ESC \`) with a pipe on its pane, and a send reads the
//! reports: `blocked` → nothing pressed whatever the screen; `working` right after Enter → the
//! line was submitted, said as decided by the status report in the history and `team feed`; a
//! seat that writes no reports is judged as before, by its screen (docs/status-reports.md).

use crate::common::World;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A checkout with one Codex seat `rev` that `team up` starts: the fake seat in `mode`, its
/// turn `delay_ms` long, with `reports` (`follow`, `blocked`) or none.
struct Seat {
    w: World,
    log: PathBuf,
}

impl Seat {
    fn up(mode: &str, delay_ms: u64, reports: Option<&str>) -> Seat {
        let mut w = World::empty();
        let sock = w.base().join("seats.sock");
        w.extra_env.push(("TEAM_TMUX_SOCKET".into(), sock.display().to_string()));
        let log = w.base().join("rev.log");
        let reports = reports.map(|r| format!(" --status-reports {r}")).unwrap_or_default();
        w.team_file(&format!(
            "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: rev\n    cli: codex\n    model: M\n    launch: {} --cli codex --mode {mode} --native none --delay-ms {delay_ms} --log {}{reports}\n",
            crate::common::fake_seat_bin().display(),
            log.display()
        ));
        assert_eq!(w.team(&["trust", "launch", "rev"]).code, 0);
        let r = w.team(&["up", "--no-hooks", "--no-mcp"]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.contains("rev: up (codex in "), "{}", r.stdout);
        Seat { w, log }
    }

    /// The reports file the pipe keeps for the seat's pane (the one file of the folder).
    fn reports(&self) -> String {
        let dir = self.w.state.join("status-reports");
        let files: Vec<_> =
            std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        files.first().map(|f| std::fs::read_to_string(f).unwrap_or_default()).unwrap_or_default()
    }

    fn wait(&self, what: &str, mut cond: impl FnMut() -> bool) {
        let t = Instant::now();
        while !cond() {
            assert!(t.elapsed() < Duration::from_secs(30), "never: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&self, body: &str) -> (crate::common::Run, Value) {
        let r = self.w.sh(&format!("TEAM_TIME_SCALE=0.05 team send rev '{body}'"));
        let line = self.w.history().last().cloned().expect("a history line");
        (r, line)
    }

    fn feed(&self) -> String {
        let r = self.w.team(&["feed"]);
        assert_eq!(r.code, 0, "{r:?}");
        r.stdout
    }
}

#[test]
fn a_blocked_report_stops_the_send_with_nothing_pressed_though_the_screen_reads_idle() {
    let s = Seat::up("takes-line", 200, Some("blocked"));
    // the pipe team up attached carries the report the seat wrote (so the look below is reached
    // with the report on disk)
    s.wait("the blocked report kept", || s.reports().lines().any(|l| l.ends_with(" blocked codex")));
    let (r, line) = s.send("review the branch");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(
            "rev: unreachable (codex reports itself blocked (its own status report) on a dialog; nothing was pressed;"
        ),
        "{}",
        r.stdout
    );
    assert_eq!((line["outcome"].as_str(), line["by"].as_str()), (Some("unreachable"), Some("status-report")), "{line}");
    assert_eq!(line["dialog"], "blocked");
    // nothing reached the seat: its screen read idle, and still no key was typed
    assert_eq!(std::fs::read_to_string(&s.log).unwrap_or_default(), "");
    assert!(s.feed().contains("by status report"), "{}", s.feed());
}

#[test]
fn working_reported_right_after_enter_proves_the_line_submitted() {
    // reads-late: after Enter its screen shows nothing for 5 s, longer than the (scaled) window
    let s = Seat::up("reads-late", 5_000, Some("follow"));
    s.wait("the idle report kept", || s.reports().lines().any(|l| l.ends_with(" idle codex")));
    let (r, line) = s.send("review the branch");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("rev: delivered"), "{}", r.stdout);
    assert_eq!((line["outcome"].as_str(), line["by"].as_str()), (Some("delivered"), Some("status-report")), "{line}");
    assert!(line.get("note").is_none(), "proven, not `taken, not yet confirmed`: {line}");
    assert!(s.reports().lines().any(|l| l.ends_with(" working codex")), "{}", s.reports());
    // the trigger was typed once, and Enter once
    let typed = std::fs::read_to_string(&s.log).unwrap();
    assert_eq!(typed.matches("Please read the team message at ").count(), 1, "{typed:?}");
    assert_eq!(typed.matches('\r').count(), 1, "{typed:?}");
    assert!(s.feed().contains("delivered (via typed in "), "{}", s.feed());
    assert!(s.feed().contains("by status report"), "{}", s.feed());
}

#[test]
fn a_seat_that_writes_no_reports_is_judged_by_its_screen_as_before() {
    // the same seat without reports: the pipe is there, empty; its box cleared and nothing
    // showed within the window, so the line is taken, not yet confirmed — by the screen
    let s = Seat::up("reads-late", 5_000, None);
    s.wait("the pipe's file", || s.reports().starts_with("team-status-reports 1 pid="));
    let (r, line) = s.send("review the branch");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        (line["outcome"].as_str(), line["note"].as_str(), line["by"].as_str()),
        (Some("delivered"), Some("taken, not yet confirmed"), Some("screen")),
        "{line}"
    );
    assert_eq!(s.reports().lines().count(), 1, "no report: {}", s.reports());
    // the screen, the witness the typed leg always reads, is left unsaid in the table (the
    // spec's lines stay as they were); the JSON line carries it
    let feed = s.feed();
    assert!(feed.contains("delivered (via typed in ") && !feed.contains(" by "), "{feed}");
    let r = s.w.team(&["feed", "--json"]);
    let d: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(d["events"][0]["by"], "screen", "{d}");
}
