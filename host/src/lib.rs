//! `team`: reach the AI coding agents of a team in their terminal panes.
//!
//! Data flows one way: `cli` parses → `caller` + `team_file`/`registry` load → `address`
//! resolves → `admission` judges → `legs` walks (`typed` via `mux` + `profiles`) →
//! `history` writes → `outcome` prints. Nothing below `cli` prints.

pub mod address;
pub mod admission;
pub mod caller;
pub mod cli;
pub mod clock;
pub mod fake_seat;
pub mod fsx;
pub mod history;
pub mod legs;
pub mod mux;
pub mod native;
pub mod outcome;
pub mod paths;
pub mod profiles;
pub mod register;
pub mod registry;
pub mod route;
pub mod state;
pub mod team_file;
pub mod typed;
