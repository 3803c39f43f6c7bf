//! What a run is given once: its folders, its clock and its id source.
//!
//! Invariant: [`Ctx::from_env`] is the one place below `main` that reads the process
//! environment for these, and `cli` calls it once per run; every layer below takes the
//! `Ctx` (or the piece it needs) as an argument. The test hooks `TEAM_NOW`, `TEAM_ID_SEED`
//! and `TEAM_TIME_SCALE` are read here and nowhere else, and only by a build that carries
//! them ([`TEST_HOOKS`]: a debug build, which is what `cargo test` runs): a release build
//! ignores them, so nothing in a caller's environment can revive an expired grant, forge a
//! history line's time or choose its ids. The one other hook, `HERDR_BIN` (a recorded herdr
//! for tests, herdr cannot be installed where they run), is read through [`test_hook`] too.
//! (The multiplexer adapters still read the variables that say which server and pane to ask —
//! `TMUX`, `TEAM_TMUX_SOCKET`, `HERDR_*` — in `mux`; none of them names a program.)

use std::ffi::OsString;

use chrono::{DateTime, Utc};

use crate::clock::{Clock, Ids};
use crate::paths::Paths;

/// Whether this build honours the test hooks: a debug build (`cargo test`, `cargo build`)
/// does; a release build (`cargo install`, `cargo build --release`) ignores every one.
pub const TEST_HOOKS: bool = cfg!(debug_assertions);

/// A test hook's value from the process environment; `None` in a build without them.
pub fn test_hook(name: &str) -> Option<OsString> {
    if TEST_HOOKS {
        std::env::var_os(name)
    } else {
        None
    }
}

/// The run's context.
#[derive(Debug)]
pub struct Ctx {
    pub paths: Paths,
    pub clock: Clock,
    pub ids: Ids,
}

impl Ctx {
    /// The context the process environment describes.
    pub fn from_env() -> Ctx {
        Ctx::from_vars(|k| std::env::var_os(k))
    }

    /// The context a set of variables describes (`from_env` with the real ones); the test
    /// hooks among them count only in a build that carries them ([`TEST_HOOKS`]).
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Ctx {
        Ctx::from_vars_with_hooks(var, TEST_HOOKS)
    }

    /// `from_vars`, saying whether the test hooks count (`false`: what a release build does).
    pub fn from_vars_with_hooks(var: impl Fn(&str) -> Option<OsString>, hooks: bool) -> Ctx {
        let text = |k: &str| {
            if !hooks {
                return None;
            }
            var(k).and_then(|v| v.into_string().ok()).map(|v| v.trim().to_string())
        };
        let fixed = text("TEAM_NOW").and_then(|v| DateTime::parse_from_rfc3339(&v).ok()).map(|t| t.with_timezone(&Utc));
        let mut clock = fixed.map(Clock::fixed).unwrap_or_else(Clock::real);
        if let Some(f) = text("TEAM_TIME_SCALE").and_then(|v| v.parse::<f64>().ok()) {
            clock = clock.with_scale(f);
        }
        let ids = match text("TEAM_ID_SEED").and_then(|v| v.parse::<u64>().ok()) {
            Some(seed) => Ids::seeded(seed),
            None => Ids::random(),
        };
        Ctx { paths: Paths::resolve(&var), clock, ids }
    }

    /// A context for tests: every folder under `base`, the real clock, random ids.
    pub fn under(base: &std::path::Path) -> Ctx {
        Ctx { paths: Paths::under(base), clock: Clock::real(), ids: Ids::random() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn the_test_hooks_are_read_when_the_context_is_built() {
        let vars: HashMap<&str, &str> = [
            ("TEAM_NOW", "2026-10-01T09:00:00Z"),
            ("TEAM_ID_SEED", " 7 "),
            ("TEAM_TIME_SCALE", "0.05"),
            ("TEAM_CONFIG_DIR", "/c"),
        ]
        .into_iter()
        .collect();
        let ctx = Ctx::from_vars(|k| vars.get(k).map(OsString::from));
        assert_eq!(ctx.clock.now_iso(), "2026-10-01T09:00:00Z");
        assert_eq!(ctx.clock.scale(), 0.05);
        assert_eq!(ctx.ids.new_id(), crate::clock::Ids::seeded(7).new_id());
        assert_eq!(ctx.paths.config, std::path::PathBuf::from("/c"));
        let plain = Ctx::from_vars(|_| None);
        assert_eq!(plain.clock.scale(), 1.0);
        assert!(plain.clock.now() > DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap());
    }

    #[test]
    fn a_build_without_the_hooks_ignores_them() {
        let vars: HashMap<&str, &str> = [
            ("TEAM_NOW", "2020-01-01T00:00:00Z"),
            ("TEAM_ID_SEED", "7"),
            ("TEAM_TIME_SCALE", "0.01"),
            ("TEAM_STATE_DIR", "/s"),
        ]
        .into_iter()
        .collect();
        let ctx = Ctx::from_vars_with_hooks(|k| vars.get(k).map(OsString::from), false);
        assert!(ctx.clock.now() > DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap(), "the real clock");
        assert_eq!(ctx.clock.scale(), 1.0);
        assert_ne!(ctx.ids.new_id(), crate::clock::Ids::seeded(7).new_id());
        assert_eq!(ctx.paths.state, std::path::PathBuf::from("/s"), "the folders are no hooks");
        // the test build (this one) carries them; a release build is built without
        assert_eq!(TEST_HOOKS, cfg!(debug_assertions));
    }

    #[test]
    fn a_malformed_hook_is_ignored() {
        let ctx = Ctx::from_vars(|k| match k {
            "TEAM_NOW" => Some("soon".into()),
            "TEAM_ID_SEED" => Some("x".into()),
            _ => None,
        });
        assert_ne!(ctx.ids.new_id(), ctx.ids.new_id());
        assert!(ctx.clock.stopwatch().ms() < 1000);
    }
}
