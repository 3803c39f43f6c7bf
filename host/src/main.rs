//! `team`: reach the AI coding agents of a team in their terminal panes.
//!
//! Data flows one way: `cli` parses → `caller` + `team_file`/`registry` load → `address`
//! resolves → `admission` judges → `legs` walks (`typed` via `mux` + `profiles`) →
//! `history` writes → `outcome` prints. Nothing below `cli` prints.

mod address;
mod admission;
mod caller;
mod cli;
mod clock;
mod fsx;
mod history;
mod legs;
mod mux;
mod outcome;
mod paths;
mod profiles;
mod registry;
mod team_file;
mod typed;

fn main() {
    std::process::exit(cli::main());
}
