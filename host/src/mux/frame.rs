//! A pane's frame read whole. A terminal program paints a frame in several writes, and a
//! multiplexer serves a capture whenever its event loop gets to it — also between two reads of
//! one frame (a frame larger than the pseudo-terminal's 4 KiB line buffer always arrives in
//! pieces): such a capture shows the top of the new frame over a cleared or an old rest. A
//! decision taken on it misreads the seat (a `worker` read as `starting`, an environment
//! chooser read without the row it holds).
//!
//! Invariant: a capture is handed on as what the pane shows only once a second capture, taken
//! at least [`QUIET`] after the first ended, is the same byte for byte; a screen still changing
//! after [`MOST`] captures (a spinner) is handed on as its last one. The last capture of each
//! pane is kept, so a look that polls a pane pays one capture when nothing changed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::MuxError;

/// How long a frame must stay the same to count as whole: longer than a painter's pause
/// between two writes of one frame while the multiplexer drains the terminal.
pub const QUIET: Duration = Duration::from_millis(10);

/// The most captures one read takes before it hands on a screen that keeps changing.
pub const MOST: usize = 4;

/// The last capture of each pane (by key) and when it was taken.
#[derive(Default)]
pub struct Frames {
    last: Mutex<HashMap<String, (Instant, Vec<u8>)>>,
}

impl Frames {
    /// The capture of `key` two captures at least [`QUIET`] apart agree on (the kept one
    /// counts as the first), taken with `capture`; `pause` waits (a seam for tests).
    pub fn settled(
        &self,
        key: &str,
        mut capture: impl FnMut() -> Result<Vec<u8>, MuxError>,
        mut pause: impl FnMut(Duration),
    ) -> Result<Vec<u8>, MuxError> {
        let mut prev = self.last.lock().map(|m| m.get(key).cloned()).unwrap_or(None);
        let mut taken = 0;
        let whole = loop {
            if let Some((at, _)) = &prev {
                let since = at.elapsed();
                if since < QUIET {
                    pause(QUIET - since);
                }
            }
            let bytes = capture()?;
            taken += 1;
            let same = prev.as_ref().is_some_and(|(_, p)| *p == bytes);
            prev = Some((Instant::now(), bytes));
            if same || taken >= MOST {
                break prev.take().expect("just kept");
            }
        };
        if let Ok(mut m) = self.last.lock() {
            m.insert(key.to_string(), whole.clone());
        }
        Ok(whole.1)
    }
}

impl Frames {
    /// Keeps `bytes` as the last capture of `key`, taken now (a first look, `Mux::prime`).
    pub fn keep(&self, key: &str, bytes: Vec<u8>) {
        if let Ok(mut m) = self.last.lock() {
            m.insert(key.to_string(), (Instant::now(), bytes));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Captures answered from a script, each pause summed.
    fn run(frames: &Frames, script: &[&str]) -> (Result<String, MuxError>, usize, Duration) {
        let at = RefCell::new(0usize);
        let paused = RefCell::new(Duration::ZERO);
        let got = frames.settled(
            "%1",
            || {
                let mut i = at.borrow_mut();
                let s = script.get(*i).copied().unwrap_or("<none>");
                *i += 1;
                if s == "<gone>" {
                    return Err(MuxError::NoSeat("the pane is gone".into()));
                }
                Ok(s.as_bytes().to_vec())
            },
            |d| *paused.borrow_mut() += d,
        );
        (got.map(|b| String::from_utf8(b).unwrap()), at.into_inner(), paused.into_inner())
    }

    #[test]
    fn a_torn_capture_is_passed_over_for_the_whole_frame_after_it() {
        let f = Frames::default();
        let (got, taken, paused) = run(&f, &["top half", "whole frame", "whole frame"]);
        assert_eq!(got.unwrap(), "whole frame");
        assert_eq!(taken, 3);
        assert!(paused >= QUIET, "every second capture waits the quiet time: {paused:?}");
    }

    #[test]
    fn a_pane_looked_at_again_costs_one_capture_when_nothing_changed() {
        let f = Frames::default();
        assert_eq!(run(&f, &["idle", "idle"]).1, 2, "the first look has nothing to agree with");
        let (got, taken, _) = run(&f, &["idle"]);
        assert_eq!((got.unwrap().as_str(), taken), ("idle", 1));
        let (got, taken, _) = run(&f, &["working", "working"]);
        assert_eq!((got.unwrap().as_str(), taken), ("working", 2), "a change is confirmed before it counts");
    }

    #[test]
    fn a_screen_that_keeps_changing_is_read_as_its_last_capture() {
        let f = Frames::default();
        let (got, taken, _) = run(&f, &["⠋ working", "⠙ working", "⠹ working", "⠸ working", "never taken"]);
        assert_eq!((got.unwrap().as_str(), taken), ("⠸ working", MOST));
    }

    #[test]
    fn a_primed_pane_is_read_in_one_capture_when_it_did_not_change() {
        let f = Frames::default();
        f.keep("%1", b"idle".to_vec());
        let (got, taken, _) = run(&f, &["idle"]);
        assert_eq!((got.unwrap().as_str(), taken), ("idle", 1));
        f.keep("%1", b"top half".to_vec());
        let (got, taken, _) = run(&f, &["whole", "whole"]);
        assert_eq!((got.unwrap().as_str(), taken), ("whole", 2), "a primed torn frame is passed over");
    }

    #[test]
    fn a_capture_that_fails_fails_the_read() {
        let f = Frames::default();
        let (got, taken, _) = run(&f, &["idle", "<gone>"]);
        assert_eq!(got.unwrap_err(), MuxError::NoSeat("the pane is gone".into()));
        assert_eq!(taken, 2);
    }
}
