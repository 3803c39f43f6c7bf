//! `team`: reach the AI coding agents of a team in their terminal panes.
//!
//! Data flows one way: `cli` parses and builds the run's `ctx` → the run's `workspace` (the
//! `team_file`, `registry`, profile host, multiplexer and `caller`, each found when asked) →
//! `send`: `address` resolves → `admission` judges → `plan` plans and `send::walk` walks
//! (`legs::typed` via `mux` + `profiles`) → `history` writes → a report returns → `cli`
//! renders it through `output`. Nothing below `cli` prints.

// One writer for stdout and stderr (`output`): a print! elsewhere would bypass its escaping
// and its closed-pipe handling (tests may print).
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]
//
// No `unsafe` anywhere but the one place that needs it: loading a precompiled profile
// (wasmtime's `Component::deserialize`, `profiles::cache`, which says why it is sound).
#![deny(unsafe_code)]

// Grouped as ARCHITECTURE.md's layers: a module names only modules of its own or a lower group.

// The command line: parsing and rendering, and the one writer.
// Grouped as ARCHITECTURE.md's layers, top first: a module names only modules of its own or a
// lower group, and no two name each other (host/tests/it/layers.rs holds it).

// The command line: parsing and rendering, the one writer, the schema registry.
pub mod cli;
pub mod output;
pub mod schema;

// Use-cases: one command's logic each, returning a typed report.
pub mod approve;
pub mod check;
pub mod converse;
pub mod demo;
pub mod down;
pub mod feed;
pub mod hooks;
pub mod init;
pub mod mark;
pub mod mcp;
pub mod profile_tool;
pub mod register;
pub mod rename;
pub mod route;
pub mod seats;
pub mod send;
pub mod status;
pub mod up;
pub mod watch;

// Legs: the ways into an agent, the owner's notifications, a pane read as a seat.
pub mod legs;
pub mod notify;
pub mod seat_pane;

// Rules: who is calling, which seat a word names, who may reach whom, how a send may travel,
// and the run's working set (the team file, registry, profiles, multiplexer and caller).
pub mod address;
pub mod admission;
pub mod caller;
pub mod plan;
pub mod workspace;

// Records: the files read and written, and what a run is given.
pub mod ctx;
pub mod history;
pub mod mailbox;
pub mod project_files;
pub mod registry;
pub mod state;
pub mod team_file;
pub mod trust;

// Ports: the multiplexers and the vendor profiles' sandbox.
pub mod mux;
pub mod profiles;
pub mod ssh;

// Foundations: the error type, the clock, safe files, locks, the folders, the YAML reader.
pub mod child;
pub mod clock;
pub mod error;
pub mod fsx;
pub mod lockfile;
pub mod paths;
pub mod test_env;
pub mod yaml;

// The vocabulary: words, grammars and the document trait every layer speaks.
pub mod nearest;
pub mod vocab;

#[cfg(test)]
mod props;
