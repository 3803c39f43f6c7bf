//! A watch's run, the use-case `team watch` calls: the team file of the folder, the project's
//! watch lock (a second watch is refused naming the holder), then passes — one every
//! [`PASS_MS`](super::PASS_MS) (scaled by the run's clock), or one with `once` — until the
//! listener's reader is gone. What each pass did goes to the [`Listener`], which renders it.
//!
//! Invariants: a pass that fails is said once while the same error stands (a running watch
//! goes on; a `once` run ends with the error); a watch whose team file is gone stops with an
//! error; the lock is held for the whole run and let go when it ends.

use super::{acquire, Pass, Watch, PASS_MS};
use crate::error::{self, TeamError};
use crate::workspace::Workspace;

/// Who renders a run.
pub trait Listener {
    /// The run holds the lock and begins (`once`: it makes one pass).
    fn started(&mut self, project: &str, session: &str, once: bool);
    /// What one pass did (its events and problems).
    fn pass(&mut self, pass: &Pass);
    /// A pass failed with this sentence: said once while it stands.
    fn problem(&mut self, message: &str);
    /// Whether nobody reads what the run says any more (the run then ends).
    fn gone(&mut self) -> bool;
}

/// Runs the watch of the working set's team file (required: a watch watches one team's
/// project) until `listener` is gone (or one pass).
pub fn run(ws: &Workspace, once: bool, listener: &mut dyn Listener) -> error::Result<()> {
    let ctx = ws.ctx;
    let team = ws.team()?.clone();
    let (project, session) = (team.file.project.clone(), team.file.session.clone());
    let _lock = acquire(&ctx.paths.state, &project, &team.root)
        .map_err(|why| TeamError::refused(format!("{why} ({}); this one did not start", team.root.display())))?;
    let mut w = Watch::new(ws, team);
    listener.started(&project, &session, once);
    let mut last_problem: Option<String> = None;
    loop {
        let pass = match w.pass() {
            Ok(p) => p,
            Err(e) if once => return Err(e),
            Err(e) => {
                if !w.team().path.exists() {
                    return Err(TeamError::failed(format!("{} is gone; the watch stopped", w.team().path.display())));
                }
                if last_problem.as_deref() != Some(e.message().as_str()) {
                    listener.problem(&e.message());
                    last_problem = Some(e.message());
                }
                Pass::default()
            }
        };
        listener.pass(&pass);
        if once {
            return Ok(());
        }
        // until the next pass, or until nobody reads what it says
        let wait = ctx.clock.scaled(PASS_MS);
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            if listener.gone() {
                return Ok(());
            }
            std::thread::sleep(wait.min(std::time::Duration::from_millis(100)));
        }
    }
}
