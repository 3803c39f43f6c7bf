//! `.agents/team.yaml`: find it (walk up from the cwd to the git root), parse it with
//! serde-saphyr, validate it (every error names its line), and expose the seat model.
//!
//! Invariant: a file that loads is valid — names, nicknames, delivery orders checked;
//! unknown keys are kept and ignored so files written by newer versions still load.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// One seat as the file declares it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seat {
    pub name: String,
    pub nickname: Option<String>,
    pub role: Option<String>,
    /// The profile id that reads this seat's screen (`claude-code`, `codex`, …).
    pub cli: String,
    /// The `leads: true` mark (or the legacy `coordinator:` key naming this seat).
    pub leads: bool,
    pub assistant: bool,
    pub stopped: bool,
    pub delivery_order: Option<Vec<String>>,
    /// Carried and shown, never judged.
    pub label: Option<String>,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub version: Option<String>,
    pub launch: Option<String>,
    pub effort: Option<String>,
    /// The 1-based line the seat starts on, for messages.
    pub line: usize,
}

/// A loaded, validated team file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TeamFile {
    pub format: u32,
    pub project: String,
    /// Team name; defaults to `project`.
    pub team: String,
    /// Entity; `None` means the registry's default entity.
    pub entity: Option<String>,
    /// Multiplexer session; defaults to `project`.
    pub session: String,
    /// `herdr` | `tmux` when the file chooses.
    pub multiplexer: Option<String>,
    pub delivery_order: Option<Vec<String>>,
    /// Profile pins: cli id -> version requirement (`"1.4"`).
    pub profiles: BTreeMap<String, String>,
    pub seats: Vec<Seat>,
    /// Notes for `team check` (a legacy seat named `lead`, …); never errors.
    pub notes: Vec<String>,
}

/// A team file together with where it was found.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: TeamFile,
    /// `<checkout>/.agents/team.yaml`.
    pub path: PathBuf,
    /// The checkout root: the folder holding `.agents/` (canonical).
    pub root: PathBuf,
}
