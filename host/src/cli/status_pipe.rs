//! `team status-pipe <file>`: the filter `team up` attaches to a reporting seat's pane (tmux
//! `pipe-pane -O`), never run by hand. It reads the pane's raw output on stdin until the pane
//! or the pipe closes and keeps the CLI's OSC 7501 status reports in `<file>`
//! (`legs::reports`; docs/status-reports.md).
//!
//! Invariants: nothing is printed (tmux discards it anyway) and no team file, registry or
//! profile is read; the file must lie in a `status-reports` folder, so the command writes no
//! other file whatever it is given; the exit is 0 once stdin ends, 1 on a failure.

use std::path::PathBuf;

use crate::legs::reports;

/// Arguments of `team status-pipe`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Run by tmux for a seat team up started (pipe-pane); not by hand. docs/status-reports.md.")]
pub struct Args {
    /// The reports file: <state>/status-reports/<key>.
    pub file: PathBuf,
}

/// Runs the filter; the exit code.
pub fn run(a: Args) -> i32 {
    let in_folder = a.file.parent().and_then(|p| p.file_name()).is_some_and(|n| n == reports::FOLDER);
    if !a.file.is_absolute() || !in_folder {
        return 1;
    }
    match reports::pipe(&a.file, &mut std::io::stdin().lock()) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}
