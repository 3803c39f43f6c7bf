//! The session's herdr server, started by `team up` when it does not run: `herdr --session
//! <session> server` (herdr's headless server, which runs in the foreground — herdr
//! v0.7.1/v0.8.2 `src/server/headless.rs`), left running on its own (`Runner::start`: its own
//! process group, no terminal, not waited for), then asked `herdr --session <session> status`
//! until it says `status: running`, for at most [`START_BOUND`].
//!
//! The other end: a server left holding no workspace at all once a pane closed (`team down`'s
//! last seat: herdr closes a workspace with its last pane) is stopped, `herdr session stop
//! <session> --json` — as a tmux server ends with its last session, so `team down` leaves no
//! session behind.
//!
//! Invariant: a server is started only where `status` read the session's server as not
//! running (never a second server beside a running one, never where `status` could not be
//! read), and `team up` goes on only once the started one answers; a server is stopped only
//! when its own `workspace list` is empty.

use std::time::{Duration, Instant};

use super::surface::SessionStatus;
use super::{parse_json, unexpected, Ctx, Herdr};
use crate::mux::MuxError;
use serde_json::Value;

/// How long a started server may take to answer `status` (a release build answers in ~50 ms).
pub const START_BOUND: Duration = Duration::from_secs(10);

/// What [`Herdr::ensure_server`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    /// It was running already (or `status` could not be read: the calls themselves then say).
    Running,
    /// It was not running, and this run started it.
    Started,
}

impl Herdr {
    /// Starts the herdr server of `session` when `status` reads it as not running, and waits,
    /// bounded, until it answers.
    pub fn ensure_server(&self, session: &str) -> Result<Server, MuxError> {
        self.surface()?;
        if self.server_state(session)? != Some(false) {
            return Ok(Server::Running);
        }
        let argv: Vec<String> = [self.bin.as_str(), "--session", session, "server"].map(String::from).into();
        self.runner.start(&argv).map_err(|e| {
            MuxError::Failed(format!(
                "could not start the herdr server of session \"{session}\" ({}): {e}",
                argv.join(" ")
            ))
        })?;
        let t = Instant::now();
        while self.server_state(session)? != Some(true) {
            if t.elapsed() > START_BOUND {
                return Err(MuxError::Failed(format!(
                    "started the herdr server of session \"{session}\" ({}), but it did not answer within {} s; its log is herdr-server.log in the session's folder (herdr session list --json names it)",
                    argv.join(" "),
                    START_BOUND.as_secs()
                )));
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        Ok(Server::Started)
    }

    /// Stops the session's server when it holds no workspace any more.
    pub(super) fn end_when_empty(&self, session: &str) -> Result<(), MuxError> {
        let ctx = Ctx { seat: String::new(), pane: String::new() };
        let out = self.call(session, &["workspace", "list"], &ctx)?;
        let doc = parse_json(&out, "workspace list")?;
        let list = doc
            .pointer("/result/workspaces")
            .and_then(Value::as_array)
            .ok_or_else(|| unexpected("workspace list", &out))?;
        if !list.is_empty() {
            return Ok(());
        }
        let out = self.run_raw(&["session", "stop", session, "--json"])?;
        match serde_json::from_slice::<Value>(&out.stdout).ok().and_then(|d| d.get("stopped").and_then(Value::as_bool)) {
            Some(true) => Ok(()),
            _ => Err(MuxError::Failed(format!(
                "the herdr server of session \"{session}\" holds no workspace any more, but `herdr session stop {session}` did not stop it: {}",
                out.stderr_str().lines().next().unwrap_or("")
            ))),
        }
    }

    /// `Some(running)` as `herdr --session <session> status` says it; `None` when its answer
    /// is not one this adapter reads.
    fn server_state(&self, session: &str) -> Result<Option<bool>, MuxError> {
        let out = self.run_raw(&["--session", session, "status"])?;
        Ok(SessionStatus::parse(&out.stdout_str()).map(|s| s.server.is_some()))
    }
}
