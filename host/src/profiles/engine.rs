//! The one wasmtime `Engine` a process uses for profiles, and its epoch ticker.
//!
//! Invariant: every profile call runs under an epoch deadline of `CALL_BUDGET`; the ticker
//! thread that advances the epoch is started once per process, and only when a profile is
//! about to run (commands that load no profile start no thread). The engine's config is part
//! of the precompiled-cache key (`cache.rs`), because epoch interruption changes the code.

use std::sync::OnceLock;
use std::time::Duration;
use wasmtime::{Config, Engine};

use super::LoadError;

/// The wasmtime version the host is pinned to (`=48.0.8` in host/Cargo.toml); the cache
/// folder is named after it. A unit test checks it against Cargo.lock.
pub const WASMTIME_VERSION: &str = "48.0.8";

/// How often the ticker advances the epoch.
pub const TICK: Duration = Duration::from_millis(10);

/// Ticks a single call may run before it is interrupted: 10 × 10 ms, so an endless loop
/// stops 90–100 ms after the call began.
pub const CALL_TICKS: u64 = 10;

/// The budget per call, for messages.
pub const CALL_BUDGET: Duration = Duration::from_millis(TICK.as_millis() as u64 * CALL_TICKS);

static ENGINE: OnceLock<Result<Engine, LoadError>> = OnceLock::new();

/// The process's profile engine, built on first use (about 0.2 ms). One engine per process,
/// so the one ticker thread serves every `ProfileHost`.
pub fn engine() -> Result<&'static Engine, LoadError> {
    ENGINE
        .get_or_init(|| new_engine().map_err(|e| LoadError::Engine(format!("the profile engine could not start: {e}"))))
        .as_ref()
        .map_err(Clone::clone)
}

/// Builds the profile engine: Cranelift, component model, epoch interruption, no wasm
/// backtraces (a trap's message is what the user sees; a backtrace would bury it).
fn new_engine() -> wasmtime::Result<Engine> {
    let mut c = Config::new();
    c.wasm_component_model(true);
    c.epoch_interruption(true);
    c.wasm_backtrace_max_frames(None);
    c.cranelift_opt_level(wasmtime::OptLevel::Speed);
    Engine::new(&c)
}

static TICKER: OnceLock<()> = OnceLock::new();

/// Starts the process's epoch ticker (idempotent; one thread per process).
///
/// The thread sleeps `TICK` and increments the epoch of the process's engine, forever; it
/// never blocks process exit.
pub fn ensure_ticker(engine: &'static Engine) {
    TICKER.get_or_init(|| {
        std::thread::Builder::new()
            .name("team-profile-epoch".into())
            .spawn(move || loop {
                std::thread::sleep(TICK);
                engine.increment_epoch();
            })
            .expect("spawning the profile epoch ticker");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pinned_wasmtime_version_is_the_locked_one() {
        let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock")).unwrap();
        let at = lock.find("name = \"wasmtime\"\nversion = \"").expect("wasmtime in Cargo.lock");
        let rest = &lock[at + "name = \"wasmtime\"\nversion = \"".len()..];
        assert_eq!(&rest[..rest.find('"').unwrap()], WASMTIME_VERSION);
    }

    #[test]
    fn budget_is_100_ms() {
        assert_eq!(CALL_BUDGET, Duration::from_millis(100));
    }
}
