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

// Grouped as ARCHITECTURE.md's layers: a module names only modules of its own or a lower group.

// The command line: parsing and rendering, and the one writer.
pub mod cli;
pub mod output;
// The --json documents' schemas, generated from the report types that print them.
pub mod schema;

// Use-cases: one command's logic each, returning a typed report.
pub mod check;
pub mod converse;
pub mod demo;
// `team feed` (reading the history, its receipts, briefs and audit lines; following; --stats)
pub mod feed;
// `team hooks` (the CLIs' hook configuration in a checkout; the walk asks it too)
pub mod hooks;
pub mod init;
pub mod mark;
pub mod mcp;
pub mod profile_tool;
pub mod project_files;
pub mod register;
pub mod rename;
pub mod route;
pub mod send;
pub mod status;
pub mod watch;

// Rules: who is calling, which seat a word names, who may reach whom, how a send may travel.
pub mod address;
pub mod admission;
pub mod caller;
pub mod legs;
pub mod names;

// Legs: the ways into an agent.
pub mod compose;
pub mod inbox;
pub mod native;
pub mod typed;

// Ports: the multiplexers and the vendor profiles' sandbox.
pub mod mux;
pub mod profiles;

// Records: the files read and written.
pub mod fsx;
pub mod history;
pub mod lockfile;
pub mod paths;
pub mod registry;
pub mod state;
pub mod team_file;
pub mod yaml;

// What every run is given.
pub mod clock;
pub mod ctx;
pub mod nearest;
pub mod outcome;

#[cfg(test)]
mod props;
