//! The config-edit engine `team mcp install|status|remove` and `team hooks
//! install|status|remove` share: the three actions, what an action did to a seat's file, the
//! walk over the team file's seats (one read and at most one write a file however many seats
//! share it, [`run`]), the one way a CLI's project-level file in the checkout is read and
//! written, reading it as JSON or TOML ([`config`], whose [`ConfigError`] is the sentence
//! of a file that cannot be read as its format), and editing a JSON one keeping every byte the
//! edit does not touch ([`json_edit`]).
//!
//! Invariant: a file is read bounded and written whole (rewritten keeping its mode, or created
//! with the caller's mode), and never through a link or FIFO anywhere on its ladder below the
//! checkout root.

pub mod config;
pub mod ignore;
pub mod json_edit;

use std::path::Path;

use crate::error::TeamError;
use crate::fsx;
use crate::team_file::Loaded;
pub use config::ConfigError;

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
pub fn read(root: &Path, rel: &str) -> Result<Option<String>, ConfigError> {
    let path = root.join(rel);
    fsx::check_ladder(root, &path)?;
    Ok(fsx::read_capped(&path, fsx::RECORD_MAX * 16)?)
}

/// Writes `text` to `rel` below `root` whole: an existing file keeps its mode, a new one is
/// made with `new_mode` (and the folders on its way with 0755).
pub fn write(root: &Path, rel: &str, text: &str, new_mode: u32) -> Result<(), ConfigError> {
    let path = root.join(rel);
    fsx::check_ladder(root, &path)?;
    if let Some(parent) = Path::new(rel).parent().filter(|p| !p.as_os_str().is_empty()) {
        fsx::ensure_dirs(root, parent, 0o755)?;
    }
    if fsx::check_entry(&path)? {
        fsx::rewrite_keeping_mode(&path, text.as_bytes())?;
    } else {
        fsx::write_atomic(&path, text.as_bytes(), new_mode)?;
    }
    Ok(())
}

/// One seat's row of a run: its CLI, the place (`K`: a hook format, an MCP file) that CLI
/// reads, the state found before the action (status: now), and what the action did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow<K, S> {
    pub seat: String,
    pub cli: String,
    pub place: Option<K>,
    pub state: S,
    pub done: Option<Done>,
}

/// The seats asked for (all when none is named), each with its CLI; an unknown name is refused.
pub fn seats<'a>(l: &'a Loaded, named: &[String]) -> Result<Vec<(&'a str, &'a str)>, TeamError> {
    let all: Vec<(&str, &str)> = l.file.seats.iter().map(|s| (s.name.as_str(), s.cli.as_str())).collect();
    if named.is_empty() {
        return Ok(all);
    }
    named
        .iter()
        .map(|n| {
            all.iter().find(|(s, _)| s == n).copied().ok_or_else(|| {
                TeamError::usage(format!(
                    "{n} is not a seat of {} (its seats: {})",
                    l.file.team,
                    all.iter().map(|(s, _)| *s).collect::<Vec<_>>().join(", ")
                ))
            })
        })
        .collect()
}

/// Runs `action` for the seats `named` (all when empty) of `l`: `place_of(cli)` is the place
/// a CLI reads (none: `unsupported`, left alone by install and remove), and `act(place)` reads
/// it, acts and says the state it found and what it did, once a place however many seats share
/// it. A place that cannot be written is refused (the rows before it stand: each file is written
/// whole or not at all).
pub fn run<K: Copy + Eq, S: Clone>(
    l: &Loaded,
    named: &[String],
    action: Action,
    place_of: impl Fn(&str) -> Option<K>,
    unsupported: S,
    mut act: impl FnMut(K) -> Result<(S, Option<Done>), TeamError>,
) -> Result<Vec<SeatRow<K, S>>, TeamError> {
    let mut rows = Vec::new();
    let mut acted: Vec<(K, S, Option<Done>)> = Vec::new();
    for (seat, cli) in seats(l, named)? {
        let place = place_of(cli);
        let (state, done) = match place {
            None => (unsupported.clone(), (action != Action::Status).then_some(Done::LeftAlone)),
            Some(p) => match acted.iter().find(|(q, _, _)| *q == p) {
                Some((_, s, d)) => (s.clone(), *d),
                None => {
                    let (s, d) = act(p)?;
                    acted.push((p, s.clone(), d));
                    (s, d)
                }
            },
        };
        rows.push(SeatRow { seat: seat.to_string(), cli: cli.to_string(), place, state, done });
    }
    Ok(rows)
}
