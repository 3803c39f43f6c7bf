//! A tmux server a command starts and owns: `team demo`'s private one (a socket in its own
//! temp folder). Starting a session, a window, marking a pane, reading a pane's plain rows and
//! stopping the server go through the adapter, so the demo runs the same `tmux` (the fixed
//! search's) with the same bounds as every other call.
//!
//! Invariant: these are only ever called on an adapter made for a named socket
//! (`Tmux::with_socket`), never the user's server; the session starts with no config file read
//! (`-f /dev/null`), so nothing of the user's tmux setup reaches it.

use std::path::Path;

use super::super::MuxError;
use super::Tmux;

/// A session to start: its name, size, folder, environment and first command.
pub struct NewSession<'a> {
    pub name: &'a str,
    pub cols: u32,
    pub rows: u32,
    pub cwd: &'a Path,
    /// Set in the session's environment (`-e`), so its panes have them.
    pub env: &'a [(String, String)],
    /// The first pane's command (a shell line).
    pub command: &'a str,
}

impl Tmux {
    /// Whether the program answers at all (`tmux -V`).
    pub fn answers(&self) -> bool {
        self.tmux(&["-V"]).is_ok_and(|o| o.ok())
    }

    /// Runs `args`; a failure is `Failed` naming `what`.
    fn must(&self, what: &str, args: &[&str]) -> Result<String, MuxError> {
        let out = self.tmux(args)?;
        if !out.ok() {
            return Err(self.failed(what, &out));
        }
        Ok(out.stdout_str())
    }

    /// Starts session `s` detached, reading no config file.
    pub fn start_session(&self, s: &NewSession) -> Result<(), MuxError> {
        let (cols, rows, cwd) = (s.cols.to_string(), s.rows.to_string(), s.cwd.display().to_string());
        let env: Vec<String> = s.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut args = vec!["-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", &cols, "-y", &rows, "-c", &cwd];
        for e in &env {
            args.extend(["-e", e.as_str()]);
        }
        args.push(s.command);
        self.must("new-session", &args).map(|_| ())
    }

    /// Opens a window of `session` in `cwd` running `command`.
    pub fn new_window(&self, session: &str, cwd: &Path, command: &str) -> Result<(), MuxError> {
        let cwd = cwd.display().to_string();
        self.must("new-window", &["new-window", "-t", session, "-c", &cwd, command]).map(|_| ())
    }

    /// Marks pane `target` (`<session>:<window>.<pane>`) as `seat`.
    pub fn set_mark(&self, target: &str, seat: &str) -> Result<(), MuxError> {
        self.must("set-option", &["set-option", "-p", "-t", target, "@team-seat", seat]).map(|_| ())
    }

    /// The plain rows pane `target` shows now.
    pub fn capture_plain(&self, target: &str) -> Result<String, MuxError> {
        self.must("capture-pane", &["capture-pane", "-p", "-t", target])
    }

    /// Stops the server (and every pane on it); a server already gone is no error.
    pub fn kill_server(&self) {
        let _ = self.tmux(&["kill-server"]);
    }
}
