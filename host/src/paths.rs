//! Where `team` keeps things: `<config>`, `<state>`, `<cache>` (docs/DESIGN.md §2).
//!
//! Invariant: this module reads no environment itself. [`Paths::resolve`] is given a lookup
//! (the process environment, read once by `ctx::Ctx::from_env`; a map in tests), so tests
//! point all three at a temp dir through `TEAM_CONFIG_DIR`, `TEAM_STATE_DIR`,
//! `TEAM_CACHE_DIR`; nothing here ever falls back to a path outside the user's own home or
//! XDG folders.

use std::ffi::OsString;
use std::path::PathBuf;

/// The three folders a run uses, decided once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// `$TEAM_CONFIG_DIR` or `~/.config/team`: the registry, the history, dropped-in profiles.
    pub config: PathBuf,
    /// `$TEAM_STATE_DIR` or `$XDG_STATE_HOME/team` or `~/.local/state/team`: seat locks.
    pub state: PathBuf,
    /// `$TEAM_CACHE_DIR` or `$XDG_CACHE_HOME/team` or `~/.cache/team`: precompiled profiles.
    pub cache: PathBuf,
}

impl Paths {
    /// The folders as the variables `var` answers say (an empty value counts as unset).
    pub fn resolve(var: impl Fn(&str) -> Option<OsString>) -> Paths {
        let nonempty = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = var("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/"));
        Paths {
            config: nonempty("TEAM_CONFIG_DIR").unwrap_or_else(|| home.join(".config").join("team")),
            state: nonempty("TEAM_STATE_DIR")
                .or_else(|| nonempty("XDG_STATE_HOME").map(|p| p.join("team")))
                .unwrap_or_else(|| home.join(".local").join("state").join("team")),
            cache: nonempty("TEAM_CACHE_DIR")
                .or_else(|| nonempty("XDG_CACHE_HOME").map(|p| p.join("team")))
                .unwrap_or_else(|| home.join(".cache").join("team")),
        }
    }

    /// All three under one folder (tests).
    pub fn under(base: &std::path::Path) -> Paths {
        Paths { config: base.join("config"), state: base.join("state"), cache: base.join("cache") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn paths(vars: &[(&str, &str)]) -> Paths {
        let m: HashMap<String, OsString> = vars.iter().map(|(k, v)| (k.to_string(), OsString::from(v))).collect();
        Paths::resolve(|k| m.get(k).cloned())
    }

    #[test]
    fn the_team_variables_win_then_xdg_then_home() {
        let p = paths(&[("HOME", "/h"), ("TEAM_CONFIG_DIR", "/c"), ("XDG_STATE_HOME", "/x"), ("TEAM_CACHE_DIR", "")]);
        assert_eq!(p.config, PathBuf::from("/c"));
        assert_eq!(p.state, PathBuf::from("/x/team"));
        assert_eq!(p.cache, PathBuf::from("/h/.cache/team"), "an empty value is unset");
        let p = paths(&[]);
        assert_eq!(p.config, PathBuf::from("/.config/team"));
    }
}
