//! Where `team` finds the multiplexer programs it runs (`tmux`, `herdr`): the first of a fixed
//! list of folders that holds one — never a path the caller's environment names.
//!
//! Invariant: the caller's identity rests on what the multiplexer answers about its pane, so
//! the program that answers is never chosen by `PATH` or any other variable of the caller's
//! environment (a script named by one could answer that any process sits in the lead's pane).
//! The list is the system's folders first, then the user's own, whose home comes from the
//! password database (not `$HOME`):
//!
//! `/usr/local/bin`, `/usr/bin`, `/bin`, `/opt/homebrew/bin`, `/opt/local/bin`, `/snap/bin`,
//! `~/.local/bin`, `~/.cargo/bin`, `~/bin`.
//!
//! A process whose test hooks are open (`test_env::test_hooks_open`: only the test binary
//! `team-hooked`) also honours `HERDR_BIN`, the recorded herdr of the
//! tests (herdr cannot be installed where they run); `team` never does.

use std::path::{Path, PathBuf};

/// The system folders, searched first, in order.
pub const SYSTEM: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin", "/opt/homebrew/bin", "/opt/local/bin", "/snap/bin"];

/// The user's own folders, under the home the password database gives, searched after.
pub const USER: &[&str] = &[".local/bin", ".cargo/bin", "bin"];

/// The list as a sentence names it.
pub const SEARCHED: &str =
    "/usr/local/bin, /usr/bin, /bin, ~/.local/bin or another folder team looks in (docs/multiplexers.md)";

/// The user's home as the password database says (never `$HOME`).
pub fn home() -> Option<PathBuf> {
    nix::unistd::User::from_uid(nix::unistd::getuid()).ok().flatten().map(|u| u.dir)
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Every folder searched, in order.
pub fn folders() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
    if let Some(h) = home() {
        v.extend(USER.iter().map(|u| h.join(u)));
    }
    v
}

/// The program `name` (`tmux`, `herdr`): its path in the first folder that holds it.
pub fn find(name: &str) -> Option<PathBuf> {
    folders().into_iter().map(|d| d.join(name)).find(|p| executable(p))
}

/// herdr's program: the test hooks' `HERDR_BIN` when set, else `find("herdr")`.
pub fn herdr() -> Option<PathBuf> {
    match crate::test_env::test_hook("HERDR_BIN").filter(|v| !v.is_empty()) {
        Some(p) => Some(PathBuf::from(p)),
        None => find("herdr"),
    }
}

/// The sentence for a program the search did not find.
pub fn missing(name: &str, bin: &str) -> String {
    if bin.contains('/') {
        format!("{name} is not installed: no `{bin}`")
    } else {
        format!("{name} is not installed: no `{name}` in {SEARCHED}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_is_fixed_and_ignores_path() {
        // tmux is installed here, in a system folder; PATH cannot move it
        let t = find("tmux").expect("tmux is installed where the tests run");
        assert!(SYSTEM.iter().any(|d| t.starts_with(d)), "{}", t.display());
        assert!(find("no-such-program-anywhere").is_none());
        let f = folders();
        assert_eq!(f[0], PathBuf::from("/usr/local/bin"));
        assert_eq!(missing("tmux", "tmux"), format!("tmux is not installed: no `tmux` in {SEARCHED}"));
        assert_eq!(missing("herdr", "/x/herdr"), "herdr is not installed: no `/x/herdr`");
    }
}
