//! The gate of the test hooks (`TEAM_NOW`, `TEAM_ID_SEED`, `TEAM_TIME_SCALE`, `HERDR_BIN`):
//! closed in every process but the test binary `team-hooked`, which opens it first thing.
//!
//! Invariant: [`open_test_hooks`] exists only with the `test-fakes` feature (which `cargo test`
//! turns on and `cargo install` never does), so nothing in a caller's environment reaches a
//! product binary through [`test_hook`]. It names nothing else in the crate, so the lowest
//! layers (`mux::program`, `ctx`) may ask it.

use std::ffi::OsString;

/// Whether this process opened the test hooks (the test binary `team-hooked` does, first thing).
#[cfg(feature = "test-fakes")]
static HOOKS_OPEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Opens the test hooks for the rest of this process: called only by the test binary
/// `team-hooked`, before it runs the command line. Exists only with the `test-fakes` feature.
#[cfg(feature = "test-fakes")]
pub fn open_test_hooks() {
    HOOKS_OPEN.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether the test hooks count in this process: never in a build without `test-fakes`, and
/// in one with it only after [`open_test_hooks`].
pub fn test_hooks_open() -> bool {
    #[cfg(feature = "test-fakes")]
    return HOOKS_OPEN.load(std::sync::atomic::Ordering::SeqCst);
    #[cfg(not(feature = "test-fakes"))]
    false
}

/// A test hook's value from the process environment; `None` unless the hooks are open (and
/// always, in a build without `test-fakes`).
pub fn test_hook(name: &str) -> Option<OsString> {
    #[cfg(feature = "test-fakes")]
    if test_hooks_open() {
        return std::env::var_os(name);
    }
    let _ = name;
    None
}
