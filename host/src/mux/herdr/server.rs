//! The session's herdr server, started by `team up` when it does not run: `herdr --session
//! <session> server` (herdr's headless server, which runs in the foreground — herdr
//! v0.7.1/v0.8.2 `src/server/headless.rs`), left running on its own (`Runner::start`: its own
//! process group, no terminal, not waited for), then asked `herdr --session <session> status`
//! until it says `status: running`, for at most [`START_BOUND`].
//!
//! Invariant: a server is started only where `status` read the session's server as not
//! running (never a second server beside a running one, never where `status` could not be
//! read), and `team up` goes on only once the started one answers.

use std::time::{Duration, Instant};

use super::surface::SessionStatus;
use super::Herdr;
use crate::mux::MuxError;

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

    /// `Some(running)` as `herdr --session <session> status` says it; `None` when its answer
    /// is not one this adapter reads.
    fn server_state(&self, session: &str) -> Result<Option<bool>, MuxError> {
        let out = self.run_raw(&["--session", session, "status"])?;
        Ok(SessionStatus::parse(&out.stdout_str()).map(|s| s.server.is_some()))
    }
}
