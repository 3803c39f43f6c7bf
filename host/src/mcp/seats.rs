//! What a launch installs before a seat's CLI starts — the seat's hooks (`team hooks
//! install`) and its MCP entry (`team mcp install`), each use-case called as it is — for `team
//! up`, `team add` and the MCP tools that start seats.
//!
//! Invariant: a file that cannot be written stops nothing: it is said, and the seat starts
//! without it (the CLI reads these files at its start, so they are written before it).

use crate::project_files::Action;
use crate::workspace::Workspace;

/// Installs the hooks (`hooks`) and the MCP entry (`mcp`) of the seats `names`; answers the
/// lines to say about what could not be written.
pub fn prepare(ws: &Workspace, names: &[String], hooks: bool, mcp: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if hooks {
        if let Err(e) = crate::hooks::run_here(ws, names, Action::Install) {
            notes.push(format!("the seats' hooks were not installed: {}", e.message()));
        }
    }
    if mcp {
        if let Err(e) = super::install::run_here(ws, names, Action::Install) {
            notes.push(format!("the seats' MCP entries were not installed: {}", e.message()));
        }
    }
    notes
}
