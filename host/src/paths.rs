//! Where `team` keeps things: `<config>`, `<state>`, `<cache>` (DESIGN.md §2).
//!
//! Invariant: tests point all three at a temp dir through `TEAM_CONFIG_DIR`,
//! `TEAM_STATE_DIR`, `TEAM_CACHE_DIR`; nothing here ever falls back to a path outside the
//! user's own home or XDG folders.

use std::path::PathBuf;

fn home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/"))
}

fn nonempty(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// `<config>` = `$TEAM_CONFIG_DIR` or `~/.config/team`.
pub fn config_dir() -> PathBuf {
    nonempty("TEAM_CONFIG_DIR").unwrap_or_else(|| home().join(".config").join("team"))
}

/// `<state>` = `$TEAM_STATE_DIR` or `$XDG_STATE_HOME/team` or `~/.local/state/team`.
pub fn state_dir() -> PathBuf {
    nonempty("TEAM_STATE_DIR")
        .or_else(|| nonempty("XDG_STATE_HOME").map(|p| p.join("team")))
        .unwrap_or_else(|| home().join(".local").join("state").join("team"))
}

/// `<cache>` = `$TEAM_CACHE_DIR` or `$XDG_CACHE_HOME/team` or `~/.cache/team`.
pub fn cache_dir() -> PathBuf {
    nonempty("TEAM_CACHE_DIR")
        .or_else(|| nonempty("XDG_CACHE_HOME").map(|p| p.join("team")))
        .unwrap_or_else(|| home().join(".cache").join("team"))
}
