//! The `team` binary: everything lives in the library; this only runs it.

fn main() {
    std::process::exit(team::cli::main());
}
