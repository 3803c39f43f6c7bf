//! What `team mcp install|status|remove` and `team hooks install|status|remove` share: the
//! three actions, what an action did to a seat's file, and the one way a CLI's project-level
//! file in the checkout is read and written.
//!
//! Invariant: a file is read bounded and written whole (rewritten keeping its mode, or created
//! with the caller's mode), and never through a link or FIFO anywhere on its ladder below the
//! checkout root.

use std::path::Path;

use crate::fsx;

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Status,
    Install,
    Remove,
}

crate::vocab::doc::words!(Action: Status, Install, Remove);

impl Action {
    /// The subcommand's word: `status`, `install`, `remove`.
    pub fn word(self) -> &'static str {
        match self {
            Action::Status => "status",
            Action::Install => "install",
            Action::Remove => "remove",
        }
    }
}

/// What install or remove did to one seat's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// The entry was written (added, completed, or pointed at this `team`).
    Written,
    /// The entry was taken out.
    Removed,
    /// Nothing to do: already as asked.
    Unchanged,
    /// Left alone: a foreign entry, an unreadable file, an unsupported CLI.
    LeftAlone,
}

crate::vocab::doc::words!(Done: Written, Removed, Unchanged, LeftAlone);

impl Done {
    pub fn word(self) -> &'static str {
        match self {
            Done::Written => "written",
            Done::Removed => "removed",
            Done::Unchanged => "unchanged",
            Done::LeftAlone => "left alone",
        }
    }
}

/// The file `rel` below the checkout `root`: `None` when it does not exist.
pub fn read(root: &Path, rel: &str) -> Result<Option<String>, String> {
    let path = root.join(rel);
    fsx::check_ladder(root, &path).map_err(|e| e.to_string())?;
    fsx::read_capped(&path, fsx::RECORD_MAX * 16).map_err(|e| e.to_string())
}

/// Writes `text` to `rel` below `root` whole: an existing file keeps its mode, a new one is
/// made with `new_mode` (and the folders on its way with 0755).
pub fn write(root: &Path, rel: &str, text: &str, new_mode: u32) -> Result<(), String> {
    let path = root.join(rel);
    fsx::check_ladder(root, &path).map_err(|e| e.to_string())?;
    if let Some(parent) = Path::new(rel).parent().filter(|p| !p.as_os_str().is_empty()) {
        fsx::ensure_dirs(root, parent, 0o755).map_err(|e| e.to_string())?;
    }
    let r = if fsx::check_entry(&path).map_err(|e| e.to_string())? {
        fsx::rewrite_keeping_mode(&path, text.as_bytes())
    } else {
        fsx::write_atomic(&path, text.as_bytes(), new_mode)
    };
    r.map_err(|e| e.to_string())
}
