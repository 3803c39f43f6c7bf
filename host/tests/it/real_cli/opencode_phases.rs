//! The phases of a line put into the real opencode 1.18.33, timed from the outside with no
//! `team` in between: the line sent, drawn whole in the composer, one Enter, the box cleared,
//! the turn shown (`esc interrupt`) — sent as typed keys (`send-keys -l`, as the typed leg types)
//! and as one bracketed paste (`paste-buffer -p`), at the home screen of a fresh opencode and
//! in its session view. Measured here: keys are drawn 1.6–6 s late, a paste at once
//! (docs/vendor-screens.md, "Where a send to opencode spends its time").

use super::harness::{RealWorld, Seat};
use super::mock::BOUND;
use super::vendors::Vendor;
use std::time::{Duration, Instant};

/// The text of the live composer: the `┃` rows above its mode row, over the last `╹▀` row.
fn composer(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let Some(bottom) = rows.iter().rposition(|r| r.trim_start().starts_with("╹▀")) else { return String::new() };
    let mode = bottom.saturating_sub(1);
    let mut top = mode;
    while top > 0 && mode - top < 8 && rows[top - 1].trim_start().starts_with('┃') {
        top -= 1;
    }
    rows[top..mode]
        .iter()
        .map(|r| r.trim_start().trim_start_matches('┃').trim())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

/// Milliseconds since `t0` at which each phase was first seen.
#[derive(Debug, Default)]
struct Phases {
    echo: u128,
    enter: u128,
    cleared: Option<u128>,
    working: Option<u128>,
}

/// How a line goes in.
#[derive(Debug, Clone, Copy)]
enum Way {
    /// `send-keys -l`: one key each, as the typed leg types.
    Keys,
    /// `paste-buffer -p`: one bracketed paste (opencode asks for mode 2004).
    Paste,
}

/// Sends `line` the `way` given, presses one Enter once the composer shows it whole, and looks
/// every 10 ms until the turn shows or `BOUND`.
fn one_line(rw: &RealWorld, seat: &Seat, line: &str, way: Way) -> Phases {
    let tail: String = line.chars().rev().take(24).collect::<Vec<_>>().into_iter().rev().collect();
    let t0 = Instant::now();
    let sent = match way {
        Way::Keys => rw.tmux(&["send-keys", "-l", "-t", &seat.pane, "--", line]),
        Way::Paste => {
            assert!(rw.tmux(&["set-buffer", "-b", "probe", "--", line]).status.success());
            rw.tmux(&["paste-buffer", "-p", "-d", "-b", "probe", "-t", &seat.pane])
        }
    };
    assert!(sent.status.success(), "{}", String::from_utf8_lossy(&sent.stderr));
    let mut p = Phases::default();
    loop {
        let s = rw.screen(seat);
        let boxed = composer(&s);
        if p.echo == 0 {
            if boxed.replace(' ', "").contains(&tail.replace(' ', "")) {
                p.echo = t0.elapsed().as_millis();
                assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
                p.enter = t0.elapsed().as_millis();
            }
        } else {
            if p.cleared.is_none() && !boxed.replace(' ', "").contains(&tail.replace(' ', "")) {
                p.cleared = Some(t0.elapsed().as_millis());
            }
            if p.cleared.is_some() && s.contains("esc interrupt") {
                p.working = Some(t0.elapsed().as_millis());
                return p;
            }
        }
        assert!(t0.elapsed() < BOUND, "{p:?}; the pane shows:\n{s}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn opencode_s_phases_from_a_line_sent_to_its_turn_keys_and_paste() {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor(Vendor::Opencode);
    let line =
        "Please read the team message at .agents/send-drops/beacon/open-coder/ecfa863d-38fe-41a1-96c7-cd53af56962c";
    for (n, way) in [Way::Paste, Way::Keys, Way::Paste, Way::Keys].into_iter().enumerate() {
        let p = one_line(&rw, &seat, line, way);
        eprintln!("opencode phases, send {n} ({way:?}): {p:?}");
        // one Enter after the drawn line submitted it
        assert!(p.cleared.is_some(), "{p:?}");
        rw.wait_screen(&seat, "the turn's end", |s| !s.contains("esc interrupt") && composer(s).is_empty());
    }
}
