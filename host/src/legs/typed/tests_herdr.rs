//! The typed leg's decision (`typed::deliver`) over the real herdr adapter and the real
//! profiles, replaying recorded sequences of states around a send on both herdr versions
//! (`tests/data/herdr-0.7.1/real/`, `tests/data/herdr-0.8.2/real/`): before typing, after
//! `pane send-text` (the recorded draft "please summarize the README in two lines", which the
//! recordings typed with `pane send-text` exactly so), after `pane send-keys … enter`.
//!
//! What is proved: a status — or a title, or a screen — that was read before Enter never counts
//! as the seat taking the line, whatever herdr status was recorded; a new one does.

use crate::legs::typed::{deliver, SeatPane, Timings, Traits};
use crate::mux::herdr::replay::{herdr, starts_alt_screen_collection, FixtureRunner, V071, V082};
use crate::mux::Mux;
use crate::profiles::ProfileHost;
use crate::vocab::outcome::{Decider, Ended, Outcome};
use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::Duration;

/// The line the recordings typed (the real sets' `composer-typed` state).
const TRIGGER: &str = "please summarize the README in two lines";
/// A drop id no recorded screen shows.
const ID: &str = "5e1d0c3a-77aa-4b7e-9d65-0c1f2a3b4c5d";
const FAST: Timings = Timings {
    readback: Duration::from_millis(300),
    readback_unechoed: Duration::from_millis(300),
    readback_poll: Duration::from_millis(1),
    poll: Duration::from_millis(1),
    enter_waits: [Duration::from_millis(20), Duration::from_millis(30), Duration::from_millis(40)],
    window: Duration::from_millis(150),
    settle: Duration::from_millis(40),
};

/// One seat of a real set: (set, cli dir, profile id, seat name, pane, states recorded).
pub struct Real {
    pub set: &'static str,
    pub dir: &'static str,
    pub cli: &'static str,
    pub name: &'static str,
    pub pane: &'static str,
}

const SEATS: [Real; 4] = [
    Real { set: V071, dir: "claude-code-2.1.197", cli: "claude-code", name: "lead", pane: "w1:p2" },
    Real { set: V071, dir: "codex-0.171.0", cli: "codex", name: "rev", pane: "w1:p3" },
    Real { set: V082, dir: "claude-code-2.1.332", cli: "claude-code", name: "lead", pane: "w1:p2" },
    Real { set: V082, dir: "codex-0.171.0", cli: "codex", name: "rev", pane: "w1:p3" },
];

/// Every recorded state of a seat's set.
fn states(r: &Real) -> Vec<String> {
    let index: serde_json::Value = serde_json::from_slice(
        &std::fs::read(crate::mux::herdr::replay::data(r.set).join("real").join(r.dir).join("index.json")).unwrap(),
    )
    .unwrap();
    index["states"].as_array().unwrap().iter().map(|s| s["state"].as_str().unwrap().to_string()).collect()
}

/// What herdr says about the agent (`agent get`, `agent explain`, `pane process-info`) versus
/// what the pane shows (`pane read`).
fn is_status(kind: &str) -> bool {
    kind.starts_with("agent-") || kind == "process-info"
}

/// A phase's answers: the pane as `screen` shows it, herdr's view of the agent as in `status`.
fn phase(r: FixtureRunner, seat: &Real, p: usize, screen: &str, status: &str) -> FixtureRunner {
    r.real_state_only(seat.dir, screen, seat.name, seat.pane, Some(p), |k| !is_status(k)).real_state_only(
        seat.dir,
        status,
        seat.name,
        seat.pane,
        Some(p),
        is_status,
    )
}

/// Runs one send: phases 0 (before typing), 1 (typed), 2 (after Enter) as `(screen, status)`.
fn send(seat: &Real, phases: [(&str, &str); 3]) -> (Ended, Vec<Vec<String>>) {
    run_send(seat, phases, &FAST, None)
}

/// `send` with the timings and call costs given (the benchmark).
pub fn run_send(
    seat: &Real,
    phases: [(&str, &str); 3],
    timings: &Timings,
    cost: Option<fn(&[String], f64) -> f64>,
) -> (Ended, Vec<Vec<String>>) {
    let mut r = FixtureRunner::running(seat.set, &["teamrh"])
        .on(&["--session", "teamrh", "pane", "send-text", seat.pane, TRIGGER], 0, "pane-send-text.txt")
        .on(&["--session", "teamrh", "pane", "send-keys", seat.pane, "enter"], 0, "pane-send-keys-enter.txt");
    for (p, (screen, status)) in phases.iter().enumerate() {
        r = phase(r, seat, p, screen, status);
    }
    r.cost = cost;
    let (mut h, runner) = herdr(r);
    h.last_seen = Box::new(|_, seat| Some(if seat == "lead" { "w1:p2" } else { "w1:p3" }.into()));
    let pane = h.locate("teamrh", seat.name).unwrap_or_else(|e| panic!("{} {}: {e}", seat.set, seat.dir));
    let mut profile = profiles().load(seat.cli, &BTreeMap::new()).unwrap_or_else(|e| panic!("{}", e.message()));
    let d = profile.describe().clone();
    let traits = Traits {
        cli: seat.cli.into(),
        max_trigger: d.max_trigger as usize,
        enter_pause_ms: d.enter_pause_ms as u64,
        queues_while_working: d.queues_while_working,
        forbidden_starts: d.forbidden_starts.clone(),
    };
    let mut s =
        SeatPane { mux: &h as &dyn Mux, pane, profile: &mut profile, transcript: None, typed: false, reports: None };
    let run = deliver(&mut s, &traits, TRIGGER, ID, "<drop>", timings, &crate::clock::RealTimer);
    let calls = runner.calls();
    // whatever happened: never `agent prompt`, and on 0.8 never a read that makes herdr scroll
    // the CLI (0.7.1 has no such collection)
    assert_eq!(calls.iter().find(|a| a.iter().any(|w| w == "prompt")), None);
    if seat.set == V082 {
        assert_eq!(calls.iter().find(|a| starts_alt_screen_collection(a)), None);
    }
    (run.verdict, calls)
}

fn profiles() -> &'static ProfileHost {
    static HOST: OnceLock<(tempfile::TempDir, ProfileHost)> = OnceLock::new();
    &HOST
        .get_or_init(|| {
            let d = tempfile::tempdir().unwrap();
            let host = ProfileHost::with_dirs(d.path().join("config"), d.path().join("cache"));
            (d, host)
        })
        .1
}

fn taken_not_confirmed() -> Ended {
    Ended::delivered(Some("taken, not yet confirmed".into())).by(Decider::Screen)
}

#[test]
fn a_seat_that_turns_working_after_enter_is_delivered_on_both_versions() {
    for seat in &SEATS {
        let (v, calls) =
            send(seat, [("idle-empty", "idle-empty"), ("composer-typed", "composer-typed"), ("working", "working")]);
        assert_eq!(v, Ended::delivered(None).by(Decider::MuxStatus), "{} {}", seat.set, seat.dir);
        let enters = calls.iter().filter(|a| a.iter().any(|w| w == "send-keys")).count();
        assert_eq!(enters, 1, "{} {}", seat.set, seat.dir);
    }
}

#[test]
fn a_status_read_before_enter_never_counts_as_the_seat_taking_the_line() {
    // Whatever herdr answered before Enter — every recorded status of both versions — the same
    // answer read again after Enter, with the line gone from the box (a later idle screen),
    // proves nothing: the send is at most "taken, not yet confirmed".
    for seat in &SEATS {
        for status in states(seat) {
            let (v, _) =
                send(seat, [("idle-empty", "idle-empty"), ("composer-typed", &status), ("idle-after-reply", &status)]);
            let what = format!("{} {} status {status} before and after Enter", seat.set, seat.dir);
            match v.outcome {
                // a status herdr calls blocked before Enter: nothing is pressed into it
                Outcome::Held => assert!(v.reason().contains("no Enter was pressed"), "{what}: {v:?}"),
                _ => assert_eq!(v, taken_not_confirmed(), "{what}"),
            }
        }
    }
}

#[test]
fn an_idle_after_enter_is_no_sign_even_when_0_8_counted_a_change() {
    // idle-after-reply carries a greater state_change_seq (9 → 11 for Codex: working came and
    // went unseen) — what happened between is not known, so the box decides.
    for seat in &SEATS {
        let (v, _) = send(
            seat,
            [
                ("idle-empty", "idle-empty"),
                ("composer-typed", "composer-typed"),
                ("idle-after-reply", "idle-after-reply"),
            ],
        );
        assert_eq!(v, taken_not_confirmed(), "{} {}", seat.set, seat.dir);
    }
}

#[test]
fn a_dialog_after_enter_counts_only_for_a_seat_that_was_not_working() {
    for seat in &SEATS {
        let (v, _) = send(
            seat,
            [("idle-empty", "idle-empty"), ("composer-typed", "composer-typed"), ("permission", "permission")],
        );
        assert_eq!(
            v,
            Ended::delivered(Some("the seat opened a permission dialog after taking the line".into()))
                .by(Decider::Screen),
            "{} {}",
            seat.set,
            seat.dir
        );
        // working before Enter: the dialog is its running turn's, and the line may wait behind it
        let (v, _) = send(seat, [("working", "working"), ("composer-typed", "working"), ("permission", "permission")]);
        assert_eq!(v, taken_not_confirmed(), "{} {}", seat.set, seat.dir);
    }
}

#[test]
fn an_exited_cli_and_a_trust_dialog_get_nothing_typed_on_both_versions() {
    nothing_typed(|seat, state| !(seat.dir == "claude-code-2.1.197" && state == "after-exit"));
}

/// Claude Code 2.1.197 draws inline: when it exits its last frame (a composer between rules)
/// stays above `Resume this session with:` and the shell prompt. The claude-code profile reads
/// that as exited (it once read the frame as an idle, empty composer, and the trigger went to
/// the shell); herdr only confirms it (`pane process-info`: the shell alone in the foreground).
#[test]
fn an_exited_inline_claude_gets_nothing_typed() {
    nothing_typed(|seat, state| seat.dir == "claude-code-2.1.197" && state == "after-exit");
}

fn nothing_typed(which: fn(&Real, &str) -> bool) {
    let mut wrong = Vec::new();
    for seat in &SEATS {
        for state in ["after-exit", "trust-dialog"].into_iter().filter(|s| which(seat, s)) {
            let (v, calls) = send(seat, [(state, state), (state, state), (state, state)]);
            let typed = calls.iter().any(|a| a.iter().any(|w| w.starts_with("send-")));
            let m = v.reason();
            let ok = match (&v.outcome, state) {
                (Outcome::Unreachable, "after-exit") => {
                    *m == format!("{0} has exited in that pane; nothing was typed; start {0} again in that pane, then send the message again (team watch does not retry a send to an exited CLI); the message is at <drop>", seat.cli)
                }
                // herdr reads Codex's trust dialog as idle (both versions) and Claude's as idle on
                // 0.7.1, blocked on 0.8: the profile reads the dialog on every one of them
                (Outcome::Unreachable, _) => m.contains("dialog") && m.contains("nothing was"),
                _ => false,
            };
            if !ok || typed {
                wrong.push(format!("{} {} {state}: {v:?} (typed: {typed})", seat.set, seat.dir));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Recent rows (a herdr call of their own) are asked for only once a trigger was typed: the
/// looks before typing judge the screen alone, and only a drop-read after Enter can have
/// scrolled off.
#[test]
fn no_recent_rows_are_read_before_the_trigger_is_typed() {
    for seat in &SEATS {
        let (_, calls) =
            send(seat, [("idle-empty", "idle-empty"), ("composer-typed", "composer-typed"), ("working", "working")]);
        let typed = calls.iter().position(|a| a.iter().any(|w| w == "send-text")).expect("the trigger was typed");
        let recent = |a: &Vec<String>| a.iter().any(|w| w == "recent");
        assert_eq!(calls[..typed].iter().find(|a| recent(a)), None, "{} {}", seat.set, seat.dir);
        assert!(
            calls[typed..].iter().any(recent),
            "{} {}: after typing, a look reads the recent rows",
            seat.set,
            seat.dir
        );
    }
}
