//! The panes of the team's session that no seat holds ("unplaced"), each with the agent CLI it
//! runs and the `team mark <seat> --pane <id>` line that makes it a seat's: what `team status`
//! lists under its table, so a user whose CLI already runs marks its pane from anywhere.
//!
//! Invariant: read-only — it lists the session's panes and reads `/proc`; nothing is typed or
//! marked. A multiplexer that names its agents itself (herdr) lists none here.

use crate::mux::{Mux, PaneInfo};
use crate::profiles::Description;

use super::{Reads, Row};

/// One pane of the session that no seat holds, running an agent CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaced {
    pub pane: String,
    /// The profile id whose process names the CLI runs under.
    pub cli: String,
    /// The process's name (`claude`, `codex`).
    pub process: String,
    /// The file's seats of that CLI no pane was found for: the seats this pane may be.
    pub seats: Vec<String>,
}

impl Unplaced {
    /// The line that marks the pane as its seat (`<seat>` when the file has no single one).
    pub fn mark_line(&self) -> String {
        let seat = match self.seats.as_slice() {
            [one] => one.as_str(),
            _ => "<seat>",
        };
        format!("team mark {seat} --pane {}", self.pane)
    }
}

/// The CLI a pane runs: the first process below its shell (or the pane's own first process)
/// that a profile's process names name.
fn cli_of(mux: &dyn Mux, pane: &PaneInfo, descs: &[Description]) -> Option<(String, String)> {
    let (procs, own) = crate::seat_pane::processes(mux, pane, "").ok()?;
    procs
        .iter()
        .chain(own.iter())
        .find_map(|p| descs.iter().find(|d| d.process_names.contains(&p.name)).map(|d| (d.id.clone(), p.name.clone())))
}

/// The unplaced panes of `session` running an agent CLI, in pane order. `rows` are the
/// status rows of the file's own team (a seat whose pane was not found is a candidate).
pub fn find(mux: &dyn Mux, session: &str, descs: &[Description], rows: &[Row]) -> Vec<Unplaced> {
    let Ok(panes) = mux.panes_of(session) else { return Vec::new() };
    panes
        .iter()
        .filter(|p| p.name.is_empty())
        .filter_map(|p| {
            let (cli, process) = cli_of(mux, p, descs)?;
            let seats = rows
                .iter()
                .filter(|r| r.cli == cli && !r.name.contains('@') && matches!(r.reads, Reads::NotFound { .. }))
                .map(|r| r.name.clone())
                .collect();
            Some(Unplaced { pane: p.id.clone(), cli, process, seats })
        })
        .collect()
}
