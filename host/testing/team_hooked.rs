//! `team-hooked`: the `team` command line with the test hooks open (`TEAM_NOW`, `TEAM_ID_SEED`,
//! `TEAM_TIME_SCALE`, `HERDR_BIN`; see `team::ctx`), the binary the integration tests run as
//! `team`. Built only with the `test-fakes` feature, which `cargo test` turns on and
//! `cargo install` never does. The product binary (`src/main.rs`) never opens the hooks, in any
//! build: a test runs it with the hooks set and sees them ignored (`hardening::hooks`).

#![forbid(unsafe_code)]

fn main() {
    team::test_env::open_test_hooks();
    std::process::exit(team::cli::main());
}
