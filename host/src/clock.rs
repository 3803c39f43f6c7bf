//! Time and ids as a run is given them: the wall clock (or a fixed instant), the factor every
//! wait is scaled by, the message-id source, and the `Timer` waits run on.
//!
//! Invariant: code that waits on a deadline (the typed leg's `deliver`) asks a `Timer` for
//! the time and for its sleeps, never `Instant::now` or `thread::sleep` itself, so a unit test
//! runs its real timing table on a `TestTimer` without sleeping.
//!
//! Invariant: nothing here reads the environment. The test hooks — `TEAM_NOW` (a fixed
//! instant), `TEAM_TIME_SCALE` (a factor in (0, 1]), `TEAM_ID_SEED` (deterministic ids) — are
//! read once, by `ctx::Ctx::from_env`, only in the test binary that opens them (`ctx`), and
//! arrive here as values. None of them can change *who* a caller is; they only make output
//! repeatable in tests.

use chrono::{DateTime, SecondsFormat, Utc};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Monotonic time and a way to let it pass.
pub trait Timer {
    fn now(&self) -> Instant;
    fn sleep(&self, d: Duration);
}

/// The machine's: `now` is `Instant::now`, a sleep sleeps.
pub struct RealTimer;

impl Timer for RealTimer {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A timer for tests: a sleep returns at once and moves `now` on by exactly what was slept,
/// so the time a run took is the sum of its waits.
pub struct TestTimer {
    start: Instant,
    slept: Cell<Duration>,
}

impl TestTimer {
    pub fn new() -> TestTimer {
        TestTimer { start: Instant::now(), slept: Cell::new(Duration::ZERO) }
    }
    /// How much time has passed on this timer.
    pub fn elapsed(&self) -> Duration {
        self.slept.get()
    }
}

impl Default for TestTimer {
    fn default() -> Self {
        TestTimer::new()
    }
}

impl Timer for TestTimer {
    fn now(&self) -> Instant {
        self.start + self.slept.get()
    }
    fn sleep(&self, d: Duration) {
        self.slept.set(self.slept.get() + d);
    }
}

/// The run's clock: real, or frozen at one instant (then every measured span reads 0, so
/// transcripts stay byte for byte), with the factor every wait is multiplied by.
#[derive(Debug, Clone, PartialEq)]
pub struct Clock {
    fixed: Option<DateTime<Utc>>,
    scale: f64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::real()
    }
}

impl Clock {
    /// The wall clock, waits unscaled.
    pub fn real() -> Clock {
        Clock { fixed: None, scale: 1.0 }
    }

    /// A clock frozen at `t`.
    pub fn fixed(t: DateTime<Utc>) -> Clock {
        Clock { fixed: Some(t), scale: 1.0 }
    }

    /// The same clock with every wait multiplied by `scale`; a factor outside (0, 1] is
    /// ignored (tests only ever shorten).
    pub fn with_scale(mut self, scale: f64) -> Clock {
        if scale > 0.0 && scale <= 1.0 {
            self.scale = scale;
        }
        self
    }

    /// Now, or the fixed instant.
    pub fn now(&self) -> DateTime<Utc> {
        self.fixed.unwrap_or_else(Utc::now)
    }

    /// An ISO-8601 timestamp for history and log lines (seconds precision, `Z`).
    pub fn now_iso(&self) -> String {
        self.now().to_rfc3339_opts(SecondsFormat::Secs, true)
    }

    /// Now as a history line's `ts` (the same text as [`Clock::now_iso`]).
    pub fn now_ts(&self) -> crate::vocab::outcome::Ts {
        crate::vocab::outcome::Ts::of(self.now())
    }

    /// The factor every wait is multiplied by.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// A wait of `ms` milliseconds, scaled.
    pub fn scaled(&self, ms: u64) -> Duration {
        Duration::from_micros(((ms as f64) * 1000.0 * self.scale) as u64)
    }

    /// Starts measuring a span; under a fixed clock every span reads 0.
    pub fn stopwatch(&self) -> Stopwatch {
        Stopwatch(self.fixed.is_none().then(std::time::Instant::now))
    }
}

/// Measures a send's span in whole milliseconds (see [`Clock::stopwatch`]).
pub struct Stopwatch(Option<std::time::Instant>);

impl Stopwatch {
    pub fn ms(&self) -> u64 {
        self.0.map(|t| t.elapsed().as_millis() as u64).unwrap_or(0)
    }
}

/// Where message ids come from: v4 UUIDs, or with a seed a deterministic UUID-shaped sequence
/// built from the seed and a per-run counter.
#[derive(Debug, Default)]
pub struct Ids {
    seed: Option<u64>,
    next: AtomicU64,
}

impl Ids {
    /// Random v4 UUIDs.
    pub fn random() -> Ids {
        Ids { seed: None, next: AtomicU64::new(0) }
    }

    /// The deterministic sequence for `seed`.
    pub fn seeded(seed: u64) -> Ids {
        Ids { seed: Some(seed), next: AtomicU64::new(0) }
    }

    /// A fresh id.
    pub fn new_id(&self) -> String {
        let Some(hi) = self.seed else { return uuid::Uuid::new_v4().to_string() };
        let lo = self.next.fetch_add(1, Ordering::Relaxed);
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            (hi >> 32) as u32,
            (hi >> 16) as u16,
            (hi & 0xfff) as u16,
            (lo >> 48) as u16 & 0xfff,
            lo & 0xffff_ffff_ffff
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_timer_moves_by_what_was_slept_and_never_sleeps() {
        let wall = Instant::now();
        let c = TestTimer::new();
        let t0 = c.now();
        c.sleep(Duration::from_secs(20));
        c.sleep(Duration::from_millis(40));
        assert_eq!(c.now() - t0, Duration::from_millis(20_040));
        assert_eq!(c.elapsed(), Duration::from_millis(20_040));
        assert!(wall.elapsed() < Duration::from_secs(5), "it slept");
    }

    #[test]
    fn seeded_ids_are_uuid_shaped_and_distinct() {
        let ids = Ids::seeded(7);
        let a = ids.new_id();
        let b = ids.new_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!(uuid::Uuid::parse_str(&a).is_ok());
        assert_eq!(Ids::seeded(7).new_id(), a, "the same seed gives the same sequence");
        assert_ne!(Ids::random().new_id(), Ids::random().new_id());
    }

    #[test]
    fn a_fixed_clock_is_frozen_and_scales_only_shorten() {
        let t = DateTime::parse_from_rfc3339("2026-10-01T09:00:00Z").unwrap().with_timezone(&Utc);
        let c = Clock::fixed(t).with_scale(0.05);
        assert_eq!(c.now_iso(), "2026-10-01T09:00:00Z");
        assert_eq!(c.scaled(1000), Duration::from_millis(50));
        assert_eq!(c.stopwatch().ms(), 0);
        assert_eq!(Clock::real().with_scale(3.0).scale(), 1.0);
        assert_eq!(Clock::real().with_scale(0.0).scale(), 1.0);
    }
}
