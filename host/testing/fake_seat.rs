//! `fake-seat`: the test double of a vendor CLI's seat (the `fake-seat` crate, `host/fake-seat/`).
//! Built only with the `test-fakes` feature, which `cargo test` turns on (the dev-dependency of
//! `team` on itself) and `cargo install` never does; tests find it as `CARGO_BIN_EXE_fake-seat`.

#![forbid(unsafe_code)]

fn main() {
    std::process::exit(fake_seat::main());
}
