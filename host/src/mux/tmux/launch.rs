//! What `team up` and `team down` ask of tmux: a pane opened for a seat (the session started
//! when it is not running, else a window of it), marked `@team-seat <seat>` before anything is
//! typed into it; a pane closed; a key pressed by name.
//!
//! Invariant: the pane is marked before its shell is given anything to run, so no moment exists
//! where the seat's CLI draws in a pane no one could address; the session is named exactly
//! (`=<name>:`), never a prefix of another.

use std::path::Path;

use super::super::{Mux, MuxError, PaneInfo, PaneRef};
use super::Tmux;
use crate::vocab::key::Key;

/// The size a session `team up` starts is drawn at until a client attaches.
const COLS: &str = "120";
const ROWS: &str = "40";

impl Tmux {
    /// Opens the seat's pane in `cwd` running the user's shell: a new session when `session`
    /// does not run, else a new window of it; marks it as `seat`; answers the pane as listed.
    pub(super) fn open_seat_pane(&self, session: &str, cwd: &Path, seat: &str) -> Result<PaneInfo, MuxError> {
        let dir = cwd.display().to_string();
        let running = match self.panes(session) {
            Ok(_) => true,
            Err(MuxError::NoSession(_) | MuxError::ServerStopped(_)) => false,
            Err(e) => return Err(e),
        };
        let target = format!("={session}:");
        let fmt = "#{pane_id}";
        let args: Vec<&str> = if running {
            vec!["new-window", "-d", "-P", "-F", fmt, "-t", &target, "-n", seat, "-c", &dir]
        } else {
            vec!["new-session", "-d", "-P", "-F", fmt, "-s", session, "-n", seat, "-x", COLS, "-y", ROWS, "-c", &dir]
        };
        let out = self.tmux(&args)?;
        if !out.ok() {
            return Err(self.failed(args[0], &out));
        }
        let id = out.stdout_str().trim().to_string();
        if !crate::vocab::names::valid_pane(&id) || !id.starts_with('%') {
            return Err(MuxError::Failed(format!("tmux {} answered no pane id ({id:?})", args[0])));
        }
        let out = self.tmux(&["set-option", "-p", "-t", &id, "@team-seat", seat])?;
        if !out.ok() {
            // a pane no one could address is not left behind
            let _ = self.tmux(&["kill-pane", "-t", &id]);
            return Err(self.failed("set-option", &out));
        }
        self.pane(session, &id)
    }

    /// Closes pane `id`; one already gone is no error.
    pub(super) fn close(&self, id: &str) -> Result<(), MuxError> {
        let out = self.tmux(&["kill-pane", "-t", id])?;
        let err = out.stderr_str();
        if out.ok() || err.contains("can't find pane") {
            return Ok(());
        }
        Err(self.failed("kill-pane", &out))
    }

    /// Presses `key` in the pane.
    pub(super) fn key(&self, pane: &PaneRef, key: Key) -> Result<(), MuxError> {
        let name = match key {
            Key::Enter => "Enter",
            Key::Esc => "Escape",
            Key::CtrlC => "C-c",
            Key::CtrlD => "C-d",
        };
        self.pane_cmd(pane, "send-keys", &["send-keys", "-t", &pane.id, name]).map(|_| ())
    }
}
