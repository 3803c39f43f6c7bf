//! `team`: reach the AI coding agents of a team in their terminal panes.
//!
//! Data flows one way: `cli` parses and builds the run's `ctx` → `caller` + `team_file`/
//! `registry` load → `send`: `address` resolves → `admission` judges → `legs` plans and
//! `send::walk` walks (`typed` via `mux` + `profiles`) → `history` writes → a report returns →
//! `cli` renders it through `output`. Nothing below `cli` prints.

pub mod address;
pub mod admission;
pub mod caller;
pub mod cli;
pub mod clock;
pub mod ctx;
pub mod fake_seat;
pub mod fsx;
pub mod history;
pub mod legs;
pub mod mux;
pub mod outcome;
pub mod output;
pub mod paths;
pub mod profiles;
pub mod registry;
pub mod send;
pub mod team_file;
pub mod typed;
