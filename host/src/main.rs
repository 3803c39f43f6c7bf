//! The `team` binary: everything lives in the library; this only runs it.

#![forbid(unsafe_code)]

fn main() {
    std::process::exit(team::cli::main());
}
