//! The typed leg's benchmark against a recorded herdr 0.8.2 sequence (`bench/herdr-typed.sh`
//! runs it with `--release`): `typed::deliver` with the production timings, over the real
//! adapter and the real profiles, for the real Codex 0.171.0 and Claude Code 2.1.332 of
//! `tests/data/herdr-0.8.2/real/` going idle → draft typed → working. Each herdr call takes the
//! median that kind of call took against a 0.8.2 server (`latency.json`, 20 calls each).
//!
//! Beside it, the same send as the previous adapter's reads would have cost: the recent rows
//! read as text, which on these idle CLIs made herdr scroll them (the recorded 270–480 ms of that
//! state's read). The 5 s stall of a read right after Enter cannot be replayed (it needs the CLI
//! to start working during the collection); this adapter never asks for the read that starts
//! one, which the tests check on every argv. A figure, not an assertion of time.

use super::tests_herdr::{run_send, Real};
use crate::legs::typed::TIMINGS;
use crate::mux::herdr::replay::{data, V082};
use crate::vocab::outcome::Ended;
use std::sync::OnceLock;
use std::time::Instant;

/// Median ms per kind of call (0.8.2's `latency.json`, and `index.json` for the rest).
fn median_ms(argv: &[String]) -> f64 {
    static M: OnceLock<serde_json::Value> = OnceLock::new();
    let m = M.get_or_init(|| serde_json::from_slice(&std::fs::read(data(V082).join("latency.json")).unwrap()).unwrap());
    let a: Vec<&str> = argv.iter().map(String::as_str).collect();
    let key = match a.get(3..5) {
        _ if a.get(1) == Some(&"--version") => return 2.9,
        _ if a.last() == Some(&"status") => return 2.0,
        Some(["agent", "get"]) => "agent get",
        Some(["agent", "explain"]) => "agent explain --json",
        Some(["pane", "process-info"]) => "pane process-info",
        Some(["pane", "send-keys"]) => "pane send-keys (shell)",
        // `pane-send-text` in index.json
        Some(["pane", "send-text"]) => return 2.1,
        Some(["pane", "read"]) if a.contains(&"visible") => "pane read visible ansi",
        Some(["pane", "read"]) => "pane read recent 200",
        _ => panic!("no recorded cost for {argv:?}"),
    };
    m[key]["median_ms"].as_f64().unwrap()
}

fn now_cost(argv: &[String], _recorded: f64) -> f64 {
    median_ms(argv)
}

/// The recent read at the recorded cost of the *text* read (the previous adapter's argv).
fn text_recent_cost(argv: &[String], recorded: f64) -> f64 {
    if argv.iter().any(|a| a == "recent") {
        recorded
    } else {
        median_ms(argv)
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

#[test]
#[ignore = "a benchmark: bench/herdr-typed.sh"]
fn typed_leg_against_a_recorded_0_8_2_sequence() {
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(15);
    let seats = [
        Real { set: V082, dir: "codex-0.171.0", cli: "codex", name: "rev", pane: "w1:p3" },
        Real { set: V082, dir: "claude-code-2.1.332", cli: "claude-code", name: "lead", pane: "w1:p2" },
    ];
    let phases = [("idle-empty", "idle-empty"), ("composer-typed", "composer-typed"), ("working", "working")];
    println!("typed leg, start to delivered, herdr 0.8.2 replayed (median of {runs}, ms):");
    for seat in &seats {
        // the profile compiled once, outside the figure
        let _ = run_send(seat, phases, &TIMINGS, Some(now_cost));
        for (what, cost) in
            [("this adapter", now_cost as fn(&[String], f64) -> f64), ("recent read as text", text_recent_cost)]
        {
            let ms: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let (v, _) = run_send(seat, phases, &TIMINGS, Some(cost));
                    assert_eq!(v, Ended::delivered(None));
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            println!("  {:<11} {what:<20} {:>7.1}", seat.cli, median(ms));
        }
    }
}
