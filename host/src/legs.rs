//! The ways into an agent, one module each: `typed` (the drop file, one trigger line typed,
//! read back and proven), `compose` (a CLI that builds its own work item, typed through its
//! screens), `inbox` (queued for the seat's own CLI to take through its hooks; `team hook`'s
//! side too), `native` (a pane's native-channel address). Which leg a send goes by is
//! `crate::plan`'s; the leg's word is `vocab::leg::Leg`.
//!
//! Invariant: a leg writes its intent before it acts and says it delivered only on proof (the
//! screen, the transcript or a hook's receipt); no key reaches a pane the profile did not read
//! as ready for it.

pub mod compose;
pub mod inbox;
pub mod native;
pub mod remote;
pub mod reports;
pub mod typed;

use std::collections::BTreeMap;
use std::path::Path;

/// One seat as a leg (or the watch's look) reaches it, decided before anything runs: the one
/// declaration of the target every leg's request holds beside what is its own.
#[derive(Debug, Clone, Copy)]
pub struct SeatTarget<'a> {
    /// The receiving team's multiplexer session.
    pub session: &'a str,
    /// The receiving team (a pane marked `<seat>@<team>` is its seat too).
    pub team: &'a str,
    pub seat: &'a str,
    /// The seat's profile id (`claude-code`, `codex`, …).
    pub cli: &'a str,
    /// The receiving team's checkout root: its `.agents/` takes the drop.
    pub root: &'a Path,
    /// The team's profile pins.
    pub pins: &'a BTreeMap<String, String>,
    /// The seat's registry record, when it has one: its pane and process come first
    /// (`state::locate_with`).
    pub record: Option<&'a crate::registry::AgentRecord>,
}
