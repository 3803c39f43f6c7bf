//! A temporary runner for the real-CLI tier (`it/real_cli/`) until the single integration-test
//! runner `it/main.rs` lands; then that runner's `mod real_cli;` replaces this file.

mod common;
#[path = "it/real_cli/mod.rs"]
mod real_cli;
