//! Time and ids, with the test overrides the binary reads, and the `Clock` the waits run on.
//!
//! `TEAM_NOW` (RFC 3339) fixes the clock, `TEAM_ID_SEED` makes message ids a deterministic
//! sequence, `TEAM_TIME_SCALE` (a float in (0, 1]) shortens every wait. None of these can
//! change *who* a caller is; they only make output repeatable in tests.
//!
//! Invariant: code that waits on a deadline (the typed leg's `deliver`) asks a `Clock` for
//! the time and for its sleeps, never `Instant::now` or `thread::sleep` itself, so a unit test
//! runs its real timing table on a `TestClock` without sleeping.

use chrono::{DateTime, SecondsFormat, Utc};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Monotonic time and a way to let it pass.
pub trait Clock {
    fn now(&self) -> Instant;
    fn sleep(&self, d: Duration);
}

/// The machine's clock: `now` is `Instant::now`, a sleep sleeps.
pub struct RealClock;

impl Clock for RealClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A clock for tests: a sleep returns at once and moves `now` on by exactly what was slept,
/// so the time a run took is the sum of its waits.
pub struct TestClock {
    start: Instant,
    slept: Cell<Duration>,
}

impl TestClock {
    pub fn new() -> TestClock {
        TestClock { start: Instant::now(), slept: Cell::new(Duration::ZERO) }
    }
    /// How much time has passed on this clock.
    pub fn elapsed(&self) -> Duration {
        self.slept.get()
    }
}

impl Default for TestClock {
    fn default() -> Self {
        TestClock::new()
    }
}

impl Clock for TestClock {
    fn now(&self) -> Instant {
        self.start + self.slept.get()
    }
    fn sleep(&self, d: Duration) {
        self.slept.set(self.slept.get() + d);
    }
}

/// Now, or the instant `TEAM_NOW` names.
pub fn now() -> DateTime<Utc> {
    if let Ok(v) = std::env::var("TEAM_NOW") {
        if let Ok(t) = DateTime::parse_from_rfc3339(v.trim()) {
            return t.with_timezone(&Utc);
        }
    }
    Utc::now()
}

/// An ISO-8601 timestamp for history lines (seconds precision, `Z`).
pub fn now_iso() -> String {
    now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

static SEQ: AtomicU64 = AtomicU64::new(0);

/// A fresh message id: a v4 UUID, or with `TEAM_ID_SEED=<n>` a deterministic UUID-shaped
/// id built from the seed and a per-process counter.
pub fn new_id() -> String {
    if let Ok(seed) = std::env::var("TEAM_ID_SEED") {
        if let Ok(seed) = seed.trim().parse::<u64>() {
            let n = SEQ.fetch_add(1, Ordering::Relaxed);
            let hi = seed;
            let lo = n;
            return format!(
                "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                (hi >> 32) as u32,
                (hi >> 16) as u16,
                (hi & 0xfff) as u16,
                (lo >> 48) as u16 & 0xfff,
                lo & 0xffff_ffff_ffff
            );
        }
    }
    uuid::Uuid::new_v4().to_string()
}

/// The factor every wait is multiplied by (`TEAM_TIME_SCALE`; tests only shorten).
pub fn time_scale() -> f64 {
    std::env::var("TEAM_TIME_SCALE")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f <= 1.0)
        .unwrap_or(1.0)
}

/// A wait of `ms` milliseconds, scaled.
pub fn scaled(ms: u64) -> Duration {
    Duration::from_micros(((ms as f64) * 1000.0 * time_scale()) as u64)
}

/// Measures a send's span in whole milliseconds; under a fixed `TEAM_NOW` the clock is
/// frozen and every span reads 0, so transcripts stay byte for byte.
pub struct Stopwatch(Option<std::time::Instant>);

impl Stopwatch {
    pub fn start() -> Self {
        if std::env::var_os("TEAM_NOW").is_some() {
            Stopwatch(None)
        } else {
            Stopwatch(Some(std::time::Instant::now()))
        }
    }
    pub fn ms(&self) -> u64 {
        self.0.map(|t| t.elapsed().as_millis() as u64).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_clock_moves_by_what_was_slept_and_never_sleeps() {
        let wall = Instant::now();
        let c = TestClock::new();
        let t0 = c.now();
        c.sleep(Duration::from_secs(20));
        c.sleep(Duration::from_millis(40));
        assert_eq!(c.now() - t0, Duration::from_millis(20_040));
        assert_eq!(c.elapsed(), Duration::from_millis(20_040));
        assert!(wall.elapsed() < Duration::from_secs(5), "it slept");
    }

    #[test]
    fn seeded_ids_are_uuid_shaped_and_distinct() {
        std::env::set_var("TEAM_ID_SEED", "7");
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!(uuid::Uuid::parse_str(&a).is_ok());
        std::env::remove_var("TEAM_ID_SEED");
    }
}
