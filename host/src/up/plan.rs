//! What `team up` does for one seat, decided before anything is opened or typed: nothing (a
//! seat stopped in the file, one whose recorded CLI still runs, one whose launch is not
//! approved or not declared) or its launch, with the recorded pane its CLI left when there is
//! one.
//!
//! Invariant: it only reads — the state, the panes' processes, the approvals, the profile's
//! description.

use crate::mux::PaneInfo;
use crate::profiles::launch::launch_line;
use crate::seat_pane::{self, NoCli};
use crate::state::{Stage, State};
use crate::team_file::Loaded;
use crate::trust::{self, Stands};
use crate::workspace::Workspace;

use super::Outcome;

/// One seat's plan.
#[derive(Debug, Clone)]
pub enum Plan {
    Done(Outcome),
    /// Type `line` into the seat's shell; `own`: its profile's launch (no line of the file's);
    /// `reuse`: the recorded pane whose CLI has left, its shell still there.
    Launch {
        line: String,
        own: bool,
        reuse: Option<PaneInfo>,
    },
    /// Launched by an earlier run and not yet recorded ready (it stopped at a dialog): its CLI
    /// runs in its pane; it is waited for again, nothing typed.
    Await {
        pane: PaneInfo,
        line: String,
    },
}

/// Decides `name`'s plan against the state `st` and the session's `panes`.
pub fn plan(ws: &Workspace, file: &Loaded, st: &State, session: &str, panes: &[PaneInfo], name: &str) -> Plan {
    let Some(seat) = file.file.seat(name) else {
        return Plan::Done(Outcome::Failed { why: format!("the file has no seat \"{name}\"") });
    };
    if seat.stopped {
        return Plan::Done(Outcome::StoppedInFile);
    }
    let desc = match ws.profiles().load(&seat.cli, &file.file.profiles) {
        Ok(p) => p.describe().clone(),
        Err(e) => return Plan::Done(Outcome::Failed { why: e.message() }),
    };
    let rec = st.seat(session, name).filter(|r| r.stage != Stage::Stopped);
    let recorded = rec.as_ref().and_then(|r| r.pane.as_deref()).and_then(|p| panes.iter().find(|x| x.id == p));
    let mut reuse = None;
    if let Some(p) = recorded {
        let Ok(mux) = ws.team_mux() else {
            return Plan::Done(Outcome::Failed { why: "the multiplexer could not be asked".into() });
        };
        let procs = match seat_pane::processes(mux, p, name) {
            Ok(x) => x,
            Err(e) => return Plan::Done(Outcome::Failed { why: e.to_string() }),
        };
        match seat_pane::cli_process(&procs.0, procs.1, &desc.process_names, p.label.as_deref()) {
            Ok(_) if rec.as_ref().is_some_and(|r| r.stage == Stage::Ready) => {
                return Plan::Done(Outcome::Already { pane: p.id.clone() })
            }
            Ok(_) => {
                let line = rec.as_ref().and_then(|r| r.raw.get("launch_line")).and_then(|v| v.as_str());
                return Plan::Await { pane: p.clone(), line: line.unwrap_or_default().to_string() };
            }
            Err(NoCli::Nothing) => reuse = Some(p.clone()),
            Err(NoCli::Other) => {
                let what = procs.0.first().map(|x| x.name.clone()).unwrap_or_default();
                return Plan::Done(Outcome::Failed {
                    why: format!(
                        "its pane {} runs `{what}` in front of its shell, not its CLI; nothing was started there",
                        p.id
                    ),
                });
            }
        }
    } else if rec.is_none() {
        if let Some(p) = panes.iter().find(|p| p.name == name) {
            return Plan::Done(Outcome::Unrecorded { pane: p.id.clone() });
        }
    }
    match trust::launch(file, name) {
        Some(w) => {
            let line = w.argv.first().cloned().unwrap_or_default();
            match trust::stands(&ws.ctx.paths.config, &w) {
                Stands::Approved { .. } => Plan::Launch { line, own: false, reuse },
                Stands::Other { .. } => Plan::Done(Outcome::NotApproved { line, other: true }),
                Stands::None => Plan::Done(Outcome::NotApproved { line, other: false }),
            }
        }
        None => match launch_line(&desc) {
            Some(line) => Plan::Launch { line, own: true, reuse },
            None => Plan::Done(Outcome::NoLaunch { cli: seat.cli.clone() }),
        },
    }
}
