//! The vendor facts the double reproduces outside its screen, encoded here from the
//! measurements of the real CLIs (quoted, with their sources, in `tests/data/vendor-files.md`)
//! and never computed with `team`'s own functions (this crate does not depend on `team`): a
//! product function that drifts from one of these facts then fails a test instead of being
//! mirrored by its double.
//!
//! Invariant: every path here is relative to a base the caller has checked (`world`): HOME,
//! or the socket folder the CLI's own rule picks.

use std::path::{Path, PathBuf};

/// A CLI the double imitates on its screen (Codex cloud has its own module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cli {
    Claude,
    Codex,
    Cursor,
}

impl Cli {
    /// The profile id a team file's `cli:` names it by.
    pub fn id(self) -> &'static str {
        match self {
            Cli::Claude => "claude-code",
            Cli::Codex => "codex",
            Cli::Cursor => "cursor",
        }
    }

    /// The agent name herdr 0.7.1 knows the CLI by (it reads `HERDR_AGENT` from
    /// `/proc/<pid>/environ`).
    pub fn herdr_label(self) -> &'static str {
        match self {
            Cli::Claude => "claude",
            Cli::Codex => "codex",
            Cli::Cursor => "cursor",
        }
    }

    /// The program the real CLI runs as, its `/proc/<pid>/comm`: Claude Code's npm `bin/claude`
    /// is the ELF itself; Codex runs as `codex`; Cursor's agent as `cursor-agent`.
    pub fn process_name(self) -> &'static str {
        match self {
            Cli::Claude => "claude",
            Cli::Codex => "codex",
            Cli::Cursor => "cursor-agent",
        }
    }

    /// Whether every interactive session holds Claude Code's native channel from startup (a
    /// listening socket and a sessions-registry entry). Only Claude Code does.
    pub fn native_channel(self) -> bool {
        self == Cli::Claude
    }
}

/// Claude Code's sessions registry, under HOME: `$HOME/.claude/sessions/<pid>.json`, mode 0644
/// (the HOME of the Claude process).
pub const CLAUDE_SESSIONS: &str = ".claude/sessions";

/// The registry entry's file name for `pid`.
pub fn session_entry(pid: u32) -> String {
    format!("{pid}.json")
}

/// Claude Code's messaging socket for `pid`: `<dir>/cc-socks/<pid>.sock`, `<dir>` =
/// `$XDG_RUNTIME_DIR`, else `$CLAUDE_CODE_TMPDIR`, else the OS temp folder; a path longer than
/// 103 bytes falls back to `/tmp/cc-socks-<uid>/<pid>.sock`. Folder 0700, socket 0600.
pub fn socket_path(var: impl Fn(&str) -> Option<String>, temp: &Path, pid: u32, uid: u32) -> PathBuf {
    let dir = var("XDG_RUNTIME_DIR")
        .filter(|v| !v.is_empty())
        .or_else(|| var("CLAUDE_CODE_TMPDIR").filter(|v| !v.is_empty()))
        .map(PathBuf::from)
        .unwrap_or_else(|| temp.to_path_buf());
    let p = dir.join("cc-socks").join(format!("{pid}.sock"));
    if p.as_os_str().len() > 103 {
        return PathBuf::from(format!("/tmp/cc-socks-{uid}/{pid}.sock"));
    }
    p
}

/// Claude Code's transcript folder for a session started in `cwd`, under HOME:
/// `.claude/projects/<cwd, every character not an ASCII letter or digit → "-">`
/// (`/tmp/w1/c_proj.x` → `-tmp-w1-c-proj-x`).
pub fn claude_projects(cwd: &Path) -> PathBuf {
    let dashed: String =
        cwd.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    Path::new(".claude/projects").join(dashed)
}

/// Codex's rollout folder for a session started at `now`, under HOME (`$CODEX_HOME` is
/// `~/.codex` unless set): `.codex/sessions/YYYY/MM/DD`.
pub fn codex_sessions(now: chrono::DateTime<chrono::Utc>) -> PathBuf {
    Path::new(".codex/sessions").join(now.format("%Y/%m/%d").to_string())
}

/// Codex's rollout file name: `rollout-<YYYY-MM-DDTHH-MM-SS>-<thread uuid>.jsonl`.
pub fn codex_rollout(now: chrono::DateTime<chrono::Utc>, thread: &str) -> String {
    format!("rollout-{}-{thread}.jsonl", now.format("%Y-%m-%dT%H-%M-%S"))
}

/// A process's start time as the registry entry's `procStart` holds it: field 22 of
/// `/proc/<pid>/stat` (clock ticks since boot), counted after the `)` that ends the name.
pub fn proc_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    // fields 3… follow the name: field 22 is the 20th of them
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The `<owner>/<name>` of a GitHub remote URL, as `codex cloud` looks environments up by repo
/// (`https://github.com/o/n(.git)`, `ssh://git@github.com/o/n`, `git@github.com:o/n.git`);
/// `None` for any other host.
pub fn github_repo(url: &str) -> Option<String> {
    let u = url.trim();
    let path = if let Some((_, rest)) = u.split_once("://") {
        let (host, path) = rest.split_once('/')?;
        (host.rsplit('@').next()? == "github.com").then_some(path)?
    } else {
        let (host, path) = u.split_once(':')?;
        (host.rsplit('@').next()? == "github.com").then_some(path)?
    };
    let path = path.trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let (owner, name) = path.split_once('/')?;
    (!owner.is_empty() && !name.is_empty() && !name.contains('/')).then(|| format!("{owner}/{name}"))
}

/// The GitHub repo `codex cloud` finds for the folder `cwd`: the first GitHub URL among its
/// remotes (`git config --get-regexp remote\..*\.url`; origin first).
pub fn repo_of(cwd: &Path) -> Option<String> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(cwd)
        .args(["config", "--get-regexp", r"^remote\..*\.url$"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut urls: Vec<(bool, &str)> =
        text.lines().filter_map(|l| l.split_once(' ')).map(|(k, url)| (k != "remote.origin.url", url)).collect();
    urls.sort_by_key(|(not_origin, _)| *not_origin);
    urls.into_iter().find_map(|(_, url)| github_repo(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_spells_a_folder_with_dashes() {
        // the measured example (tests/data/vendor-files.md)
        assert_eq!(claude_projects(Path::new("/tmp/w1/c_proj.x")), Path::new(".claude/projects/-tmp-w1-c-proj-x"));
        assert_eq!(claude_projects(Path::new("/tmp/drop/proj5")), Path::new(".claude/projects/-tmp-drop-proj5"));
    }

    #[test]
    fn the_socket_follows_the_cli_s_own_rule() {
        let vars = |xdg: Option<&str>, tmp: Option<&str>| {
            let (xdg, tmp) = (xdg.map(String::from), tmp.map(String::from));
            move |k: &str| match k {
                "XDG_RUNTIME_DIR" => xdg.clone(),
                "CLAUDE_CODE_TMPDIR" => tmp.clone(),
                _ => None,
            }
        };
        let t = Path::new("/tmp");
        assert_eq!(socket_path(vars(None, None), t, 7, 0), Path::new("/tmp/cc-socks/7.sock"));
        assert_eq!(socket_path(vars(Some("/run/u"), Some("/c")), t, 7, 0), Path::new("/run/u/cc-socks/7.sock"));
        assert_eq!(socket_path(vars(Some(""), Some("/c")), t, 7, 0), Path::new("/c/cc-socks/7.sock"));
        let long = format!("/{}", "x".repeat(100));
        assert_eq!(socket_path(vars(Some(&long), None), t, 7, 1000), Path::new("/tmp/cc-socks-1000/7.sock"));
    }

    #[test]
    fn codex_files_by_date() {
        let t = chrono::DateTime::parse_from_rfc3339("2026-10-01T09:08:07Z").unwrap().with_timezone(&chrono::Utc);
        assert_eq!(codex_sessions(t), Path::new(".codex/sessions/2026/10/01"));
        assert_eq!(codex_rollout(t, "abc"), "rollout-2026-10-01T09-08-07-abc.jsonl");
    }

    #[test]
    fn a_github_remote_names_its_repo() {
        for url in [
            "https://github.com/acme/team-beta.git",
            "https://github.com/acme/team-beta",
            "ssh://git@github.com/acme/team-beta.git",
            "git@github.com:acme/team-beta.git",
        ] {
            assert_eq!(github_repo(url).as_deref(), Some("acme/team-beta"), "{url}");
        }
        for url in ["https://gitlab.com/acme/x.git", "/srv/git/x", "git@github.com:acme", "https://github.com/a/b/c"] {
            assert_eq!(github_repo(url), None, "{url}");
        }
    }

    #[test]
    fn this_process_has_a_start_time() {
        assert!(proc_start(std::process::id()).is_some_and(|t| t > 0));
    }
}
