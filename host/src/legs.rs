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
pub mod typed;
