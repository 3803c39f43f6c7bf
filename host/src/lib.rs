//! `team`: reach the AI coding agents of a team in their terminal panes.
//!
//! Data flows one way: `cli` parses and builds the run's `ctx` → `caller` + `team_file`/
//! `registry` load → `send`: `address` resolves → `admission` judges → `legs` plans and
//! `send::walk` walks (`typed` via `mux` + `profiles`) → `history` writes → a report returns →
//! `cli` renders it through `output`. Nothing below `cli` prints.

// One writer for stdout and stderr (`output`): a print! elsewhere would bypass its escaping
// and its closed-pipe handling (tests may print).
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]
//
// No `unsafe` anywhere but the one place that needs it: loading a precompiled profile
// (wasmtime's `Component::deserialize`, `profiles::cache`, which says why it is sound).
#![deny(unsafe_code)]

pub mod address;
pub mod admission;
pub mod caller;
pub mod check;
pub mod cli;
pub mod clock;
pub mod compose;
pub mod ctx;
pub mod demo;
pub mod fsx;
pub mod history;
pub mod init;
pub mod legs;
pub mod mcp;
pub mod mux;
pub mod names;
pub mod native;
pub mod nearest;
pub mod outcome;
pub mod output;
pub mod paths;
pub mod profiles;
#[cfg(test)]
mod props;
pub mod register;
pub mod registry;
pub mod rename;
pub mod route;
pub mod send;
pub mod state;
pub mod status;
pub mod team_file;
pub mod typed;
pub mod watch;
pub mod yaml;
