//! herdr's reads of a pane: the visible rows, the title and, only when asked, the recent rows —
//! independent herdr calls, made side by side so a read costs about one call's time.
//!
//! Invariant: no read here makes herdr 0.8 collect an idle full-screen CLI's alternate screen
//! (recent rows are read as ANSI on 0.8, see `surface`).

use super::errors::Code;
use super::surface::{RecentAs, TitleFrom};
use super::{osc_title_of, parse_json, plain_rows, split_rows, Ctx, Herdr, Refusal, RECENT_ROWS};
use crate::mux::{Capture, MuxError, PaneRef};
use serde_json::Value;

impl Herdr {
    /// The visible rows, the title and (with `with_recent`) the recent rows, side by side.
    pub(super) fn capture(&self, pane: &PaneRef, with_recent: bool) -> Result<Capture, MuxError> {
        let surface = self.surface()?;
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let lines = RECENT_ROWS.to_string();
        let mut recent_args = vec!["pane", "read", &pane.id, "--source", "recent", "--lines", &lines];
        if surface.recent == RecentAs::Ansi {
            recent_args.extend(["--format", "ansi"]);
        }
        // The reads are independent herdr calls: run them side by side, so a read costs about
        // one call's time (each is a process start plus a server round trip).
        let (visible, recent, title) = std::thread::scope(|s| {
            let recent = with_recent.then(|| s.spawn(|| self.call(&pane.session, &recent_args, &ctx)));
            let title = s.spawn(|| self.title(pane, surface.title));
            // the visible rows as a whole frame shows them (`frame`)
            let capture = || self.visible(pane);
            let visible = self.frames.settled(&frame_key(pane), capture, std::thread::sleep);
            let panicked = || MuxError::Failed("a herdr read thread panicked".into());
            let recent = recent.map(|r| r.join().unwrap_or_else(|_| Err(panicked())));
            let title = title.join().unwrap_or_else(|_| Err(panicked()));
            (visible, recent, title)
        });
        let styled = split_rows(&String::from_utf8_lossy(&visible?));
        let plain = plain_rows(&styled);
        let recent = match recent {
            Some(r) => {
                let rows = split_rows(&r?.stdout_str());
                if surface.recent == RecentAs::Ansi {
                    plain_rows(&rows)
                } else {
                    rows
                }
            }
            None => Vec::new(),
        };
        let title = title?;
        let (cols, rows) = pane.shell_pid.and_then(self.tty_size).unwrap_or_else(|| {
            let w = plain.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            (w as u32, styled.len() as u32)
        });
        Ok(Capture { styled, plain, title, cols, rows, recent, mode: None })
    }

    /// One capture of the visible rows, as herdr prints them (ANSI).
    fn visible(&self, pane: &PaneRef) -> Result<Vec<u8>, MuxError> {
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let args = ["pane", "read", &pane.id, "--source", "visible", "--format", "ansi"];
        self.call(&pane.session, &args, &ctx).map(|o| o.stdout)
    }

    /// A first capture of the visible rows, kept for the read to come (`Mux::prime`).
    pub(super) fn prime_visible(&self, pane: &PaneRef) {
        if let Ok(bytes) = self.visible(pane) {
            self.frames.keep(&frame_key(pane), bytes);
        }
    }

    fn title(&self, pane: &PaneRef, from: TitleFrom) -> Result<String, MuxError> {
        if from == TitleFrom::AgentGet {
            return match self.agent_get(&pane.session, &pane.seat, &pane.id) {
                Ok(a) if a.get("pane_id").and_then(Value::as_str) == Some(pane.id.as_str()) => {
                    Ok(a.get("terminal_title").and_then(Value::as_str).unwrap_or("").to_string())
                }
                // An exited CLI (its name cleared) or one gone elsewhere: no title here.
                Ok(_) | Err(MuxError::NoSeat(_)) => Ok(String::new()),
                Err(e) => Err(e),
            };
        }
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let explain = |target: &str| self.ask(&pane.session, &["agent", "explain", target, "--json"], &ctx);
        let out = match explain(&pane.seat) {
            // a seat named like another agent's label: explain it by its pane id
            Err(Refusal { code: Some(Code::AgentTargetAmbiguous), .. }) => explain(&pane.id),
            other => other,
        };
        match out {
            Ok(o) => Ok(osc_title_of(&parse_json(&o, "agent explain")?).unwrap_or_default()),
            // An exited CLI has no detected agent: herdr has no title rule to explain.
            Err(Refusal { code: Some(Code::AgentExplainUnavailable), .. }) => Ok(String::new()),
            Err(r) => Err(r.error),
        }
    }
}

/// The key of a pane's frames: the herdr session and the pane id.
fn frame_key(pane: &PaneRef) -> String {
    format!("{} {}", pane.session, pane.id)
}
