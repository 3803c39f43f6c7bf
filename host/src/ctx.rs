//! What a run is given once: its folders, its clock and its id source.
//!
//! Invariant: [`Ctx::from_env`] is the one place below `main` that reads the process
//! environment for these, and `cli` calls it once per run; every layer below takes the
//! `Ctx` (or the piece it needs) as an argument. The test hooks `TEAM_NOW`, `TEAM_ID_SEED`
//! and `TEAM_TIME_SCALE` are read here and nowhere else, and only in a process whose entry
//! opened them (`test_env::open_test_hooks`): that function exists only with the `test-fakes` feature
//! (which `cargo test` turns on and `cargo install` never does), and only the test binary
//! `team-hooked` calls it. The `team` binary never does, in any build, so nothing in a caller's
//! environment can revive an expired grant, forge a history line's time or choose its ids. The
//! one other hook, `HERDR_BIN` (a recorded herdr for tests, herdr cannot be installed where they
//! run), is read through `test_env::test_hook` too. The variables that say which multiplexer server and
//! pane to ask — `TMUX`, `TMUX_PANE`, `HERDR_PANE_ID`, `TEAM_TMUX_SOCKET` — are read here too,
//! into [`Ctx::mux`] (`mux::Hints`), and passed down: hints the adapters verify against the
//! process tree; none of them names a program or an identity. So is `PWD`, the name the
//! shell gives the current folder, kept only when it names the very folder the process
//! stands in ([`Ctx::cwd`]).

use std::ffi::OsString;

use crate::clock::{Clock, Ids};
use crate::paths::Paths;

/// The run's context.
#[derive(Debug)]
pub struct Ctx {
    pub paths: Paths,
    pub clock: Clock,
    pub ids: Ids,
    /// The folder the run started in, read once (or why it could not be: removed, renamed),
    /// as the user's shell names it (`fsx::logical_dir`: `PWD` when it names this very
    /// folder, else the canonical path): every walk up to a checkout's root starts here.
    pub cwd: Result<std::path::PathBuf, std::sync::Arc<std::io::Error>>,
    /// The user's home as the password database says (`mux::program::home`), never `$HOME`:
    /// nothing below `cli` reads the process environment.
    pub home: Option<std::path::PathBuf>,
    /// Which multiplexer server and pane the environment names (`TMUX`, `TMUX_PANE`,
    /// `HERDR_PANE_ID`, `TEAM_TMUX_SOCKET`), read once: hints the adapters verify, never who
    /// the caller is.
    pub mux: crate::mux::Hints,
}

/// The folder this process runs in, as every command is given it: named as the shell that
/// started it names it (`PWD`, when it names this very folder: `fsx::logical_dir`).
fn current_dir(var: &impl Fn(&str) -> Option<OsString>) -> Result<std::path::PathBuf, std::sync::Arc<std::io::Error>> {
    let cwd = std::env::current_dir().map_err(std::sync::Arc::new)?;
    let pwd = var("PWD").map(std::path::PathBuf::from);
    Ok(crate::fsx::logical_dir(&cwd, pwd.as_deref()))
}

impl Ctx {
    /// The context the process environment describes.
    pub fn from_env() -> Ctx {
        Ctx::from_vars(|k| std::env::var_os(k))
    }

    /// The context a set of variables describes (`from_env` with the real ones); the test
    /// hooks among them count only where they are open ([`test_hooks_open`](crate::test_env::test_hooks_open)).
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Ctx {
        #[cfg(feature = "test-fakes")]
        return Ctx::from_vars_with_hooks(var, crate::test_env::test_hooks_open());
        #[cfg(not(feature = "test-fakes"))]
        Ctx {
            paths: Paths::resolve(&var),
            clock: Clock::real(),
            ids: Ids::random(),
            cwd: current_dir(&var),
            home: crate::mux::program::home(),
            mux: crate::mux::Hints::read(&var),
        }
    }

    /// `from_vars`, saying whether the test hooks count (`false`: what `team` does). Only with
    /// `test-fakes`: a build without it has no code that reads a hook.
    #[cfg(feature = "test-fakes")]
    pub fn from_vars_with_hooks(var: impl Fn(&str) -> Option<OsString>, hooks: bool) -> Ctx {
        use chrono::{DateTime, Utc};
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
        Ctx {
            paths: Paths::resolve(&var),
            clock,
            ids,
            cwd: current_dir(&var),
            home: crate::mux::program::home(),
            mux: crate::mux::Hints::read(&var),
        }
    }

    /// A context for tests: every folder under `base`, the real clock, random ids, no
    /// multiplexer hints.
    pub fn under(base: &std::path::Path) -> Ctx {
        Ctx {
            paths: Paths::under(base),
            clock: Clock::real(),
            ids: Ids::random(),
            cwd: current_dir(&|_| None),
            home: crate::mux::program::home(),
            mux: crate::mux::Hints::default(),
        }
    }

    /// The folder the run started in; every command refuses alike when it cannot be read.
    pub fn cwd(&self) -> Result<std::path::PathBuf, crate::error::TeamError> {
        self.cwd.clone().map_err(|e| {
            crate::error::TeamError::failed(format!("the current folder cannot be read: {e}"))
                .with_repair("cd into the checkout again (the folder this ran in was removed or renamed)")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_env::test_hook;
    use chrono::DateTime;
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
        let ctx = Ctx::from_vars_with_hooks(|k| vars.get(k).map(OsString::from), true);
        assert_eq!(ctx.clock.now_iso(), "2026-10-01T09:00:00Z");
        assert_eq!(ctx.clock.scale(), 0.05);
        assert_eq!(ctx.ids.new_id(), crate::clock::Ids::seeded(7).new_id());
        assert_eq!(ctx.paths.config, std::path::PathBuf::from("/c"));
        let plain = Ctx::from_vars_with_hooks(|_| None, true);
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
        // and a process that did not open them (this one: the library's tests) reads none
        assert!(!crate::test_env::test_hooks_open());
        let ctx = Ctx::from_vars(|k| vars.get(k).map(OsString::from));
        assert_eq!(ctx.clock.scale(), 1.0);
        assert_eq!(test_hook("PATH"), None);
    }

    #[test]
    fn a_malformed_hook_is_ignored() {
        let ctx = Ctx::from_vars_with_hooks(
            |k| match k {
                "TEAM_NOW" => Some("soon".into()),
                "TEAM_ID_SEED" => Some("x".into()),
                _ => None,
            },
            true,
        );
        assert_ne!(ctx.ids.new_id(), ctx.ids.new_id());
        assert!(ctx.clock.stopwatch().ms() < 1000);
    }
}
