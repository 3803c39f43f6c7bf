//! Who is running this command: the owner, a seat found from its own pane, an unplaced
//! caller (an agent outside the multiplexer, or a herdr pane no seat holds), or nobody at a
//! terminal at all (refused before anything else).
//!
//! Invariant: the caller is found, never claimed. No flag and no environment variable names
//! an identity: `TMUX_PANE` / `HERDR_PANE_ID` only say which pane to look at, and the seat is
//! read from the multiplexer's mark on that pane (tmux `@team-seat`) or from the registry
//! record holding that pane (herdr). The process ancestry is read from `/proc`.
//!
//! Agent CLIs recognised in the ancestry (by `/proc/<pid>/comm`, or for a `node`/`bun`/
//! `deno`/`python` wrapper by its script's basename): see [`AGENT_NAMES`] and
//! [`agent_in_cmdline`]; docs/registry.md lists them.

use std::path::Path;

use crate::mux::Mux;

use crate::registry::{AgentRecord, Registry};
use crate::team_file::Loaded;

/// Process names (comm, or a wrapper's script basename) of the agent CLIs `team` knows.
pub const AGENT_NAMES: &[&str] =
    &["claude", "codex", "cursor-agent", "cursor", "agy", "antigravity", "grok", "grok-build", "gemini", "opencode"];

/// Interpreters whose script argument names the program (herdr reads them the same way).
const WRAPPERS: &[&str] = &["node", "nodejs", "bun", "deno", "python", "python3"];

/// The caller of this run.
#[derive(Debug, Clone, PartialEq)]
pub enum Caller {
    /// A person at a terminal outside any multiplexer pane that is a seat, with no agent CLI
    /// among this process's ancestors.
    Owner,
    /// A seat, found from its own pane.
    Seat {
        team: String,
        seat: String,
        /// The seat's registry record, when it has one.
        agent: Option<AgentRecord>,
        /// The pane it was found from (`%3`, `w1:p2`).
        pane: String,
    },
    /// A terminal that is neither the owner nor a seat; `why` completes
    /// `unplaced (<why>)`.
    Unplaced { why: String },
    /// No terminal on stdin, stdout, stderr, nor `/dev/tty`.
    NoTerminal,
}

impl Caller {
    /// How refusals name this caller: `the owner`, `seat gpt-reviewer of beacon`,
    /// `unplaced (it is run by an agent (claude) outside herdr)`, `a run with no terminal`.
    pub fn describe(&self) -> String {
        match self {
            Caller::Owner => "the owner".into(),
            Caller::Seat { team, seat, .. } => format!("seat {seat} of {team}"),
            Caller::Unplaced { why } => format!("unplaced ({why})"),
            Caller::NoTerminal => "a run with no terminal".into(),
        }
    }

    /// The name history lines carry in `from`: `owner`, the seat, or `unplaced`.
    pub fn from_name(&self) -> String {
        match self {
            Caller::Owner => "owner".into(),
            Caller::Seat { seat, .. } => seat.clone(),
            Caller::Unplaced { .. } => "unplaced".into(),
            Caller::NoTerminal => "none".into(),
        }
    }
}

/// Is any of stdin, stdout, stderr a terminal, or can `/dev/tty` be opened?
pub fn has_terminal() -> bool {
    use std::os::fd::AsFd;
    let tty = |fd: std::os::fd::BorrowedFd<'_>| nix::unistd::isatty(fd).unwrap_or(false);
    if tty(std::io::stdin().as_fd()) || tty(std::io::stdout().as_fd()) || tty(std::io::stderr().as_fd()) {
        return true;
    }
    std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").is_ok()
}

/// Reads `(comm, ppid)` of a process from `/proc/<pid>/stat` (the comm may hold spaces and
/// parentheses: the fields after it start after the last `)`).
fn stat(pid: i32) -> Option<(String, i32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let open = s.find('(')?;
    let close = s.rfind(')')?;
    let comm = s.get(open + 1..close)?.to_string();
    let mut rest = s.get(close + 1..)?.split_whitespace();
    let _state = rest.next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some((comm, ppid))
}

fn program_name(s: &str) -> String {
    let base = Path::new(s).file_name().map(|b| b.to_string_lossy().into_owned()).unwrap_or_default();
    for ext in [".js", ".mjs", ".cjs", ".py"] {
        if let Some(b) = base.strip_suffix(ext) {
            return b.to_string();
        }
    }
    base
}

/// The agent a process name denotes: an exact name, or `codex-<target>` (the native binary
/// the codex wrapper starts; comm is cut at 15 bytes).
fn agent_name(name: &str) -> Option<&'static str> {
    if let Some(a) = AGENT_NAMES.iter().find(|a| **a == name) {
        return Some(a);
    }
    if name.starts_with("codex-") {
        return Some("codex");
    }
    None
}

/// The agent a wrapper's command line runs: its first non-option argument's basename, or a
/// vibe-kit grok-cli path (`…/grok-cli/dist/index.js`, `…/.bin/grok`).
pub fn agent_in_cmdline(argv: &[String]) -> Option<&'static str> {
    let script = argv.iter().skip(1).find(|a| !a.starts_with('-'))?;
    if script.contains("grok-cli/dist/") {
        return Some("grok");
    }
    agent_name(&program_name(script))
}

/// The first agent CLI among the ancestors of `pid` (exclusive), walking ppid up to 1.
pub fn agent_ancestor(pid: i32) -> Option<String> {
    let mut cur = stat(pid)?.1;
    for _ in 0..256 {
        if cur <= 1 {
            return None;
        }
        let (comm, ppid) = stat(cur)?;
        if let Some(a) = agent_name(&comm) {
            return Some(a.to_string());
        }
        if WRAPPERS.iter().any(|w| comm == *w || comm.starts_with("python3.")) {
            let raw = std::fs::read(format!("/proc/{cur}/cmdline")).unwrap_or_default();
            let argv: Vec<String> = raw
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            if let Some(a) = agent_in_cmdline(&argv) {
                return Some(a.to_string());
            }
        }
        cur = ppid;
    }
    None
}

/// Why a pane the environment names is not this caller's: it does not run inside it (a
/// claimed identity), or the multiplexer could not be asked.
fn claimed(e: &crate::mux::MuxError) -> String {
    match e {
        crate::mux::MuxError::Unverified(s) => format!("a claimed identity: {s}"),
        other => format!("its pane could not be verified: {other}"),
    }
}

/// Finds the caller of this process. `file` is the team file of the cwd (if any).
pub fn find(reg: &Registry, file: Option<&Loaded>) -> Caller {
    if !has_terminal() {
        return Caller::NoTerminal;
    }
    let me = std::process::id() as i32;
    // herdr: the seat whose record holds this pane; none → unplaced.
    if let Some(named) = std::env::var("HERDR_PANE_ID").ok().filter(|v| !v.is_empty()) {
        // The variable only names a pane: it is believed when this process descends from
        // that pane's shell (the multiplexer port's check); otherwise it is a claimed identity.
        let pane = match crate::mux::herdr::Herdr::from_env().pane_of_caller() {
            Ok(Some(p)) => p.id,
            Ok(None) => named,
            Err(e) => return Caller::Unplaced { why: claimed(&e) },
        };
        let holders: Vec<&AgentRecord> =
            reg.agents.iter().filter(|a| a.pane.as_deref() == Some(pane.as_str())).collect();
        return match holders.as_slice() {
            [a] => Caller::Seat { team: a.team.clone(), seat: a.seat.clone(), agent: Some((*a).clone()), pane },
            [] => Caller::Unplaced { why: format!("its herdr pane {pane} holds no seat") },
            _ => Caller::Unplaced { why: format!("its herdr pane {pane} is recorded for more than one seat") },
        };
    }
    // tmux: the seat the pane is marked for; an unmarked pane is a terminal like any other.
    if std::env::var("TMUX_PANE").is_ok_and(|v| !v.is_empty()) {
        // Believed only when this process descends from the named pane's shell; the seat is
        // the pane's `@team-seat` mark, read by the same call.
        let (pane, mark) = match crate::mux::tmux::Tmux::from_env().pane_of_caller() {
            Ok(Some(p)) => (p.id, (!p.seat.is_empty()).then_some(p.seat)),
            Ok(None) => (String::new(), None),
            Err(e) => return Caller::Unplaced { why: claimed(&e) },
        };
        if let Some(mark) = mark {
            let (seat, team) = match mark.split_once('@') {
                Some((s, t)) => (s.to_string(), Some(t.to_string())),
                None => (mark.clone(), None),
            };
            let team = team.or_else(|| file.map(|l| l.file.team.clone()));
            return match team {
                Some(team) => {
                    let agent = reg.agent_for(&team, &seat).cloned();
                    Caller::Seat { team, seat, agent, pane }
                }
                None => Caller::Unplaced {
                    why: format!("its tmux pane {pane} is marked {mark}, and no team file names the team"),
                },
            };
        }
    }
    match agent_ancestor(me) {
        Some(agent) => Caller::Unplaced { why: format!("it is run by an agent ({agent}) outside herdr") },
        None => Caller::Owner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn wrapped_agents_are_read_from_their_script() {
        assert_eq!(agent_in_cmdline(&argv(&["node", "/usr/lib/node_modules/.bin/grok"])), Some("grok"));
        assert_eq!(agent_in_cmdline(&argv(&["node", "/x/@vibe-kit/grok-cli/dist/index.js"])), Some("grok"));
        assert_eq!(agent_in_cmdline(&argv(&["node", "--no-warnings", "/x/bin/codex.js"])), Some("codex"));
        assert_eq!(agent_in_cmdline(&argv(&["python3", "/x/bin/codex"])), Some("codex"));
        assert_eq!(agent_in_cmdline(&argv(&["node", "/x/server.js"])), None);
        assert_eq!(agent_in_cmdline(&argv(&["node"])), None);
    }

    #[test]
    fn process_names() {
        assert_eq!(agent_name("claude"), Some("claude"));
        assert_eq!(agent_name("codex-x86_64-un"), Some("codex"));
        assert_eq!(agent_name("cursor-agent"), Some("cursor-agent"));
        assert_eq!(agent_name("bash"), None);
        assert_eq!(agent_name("claudette"), None);
    }

    #[test]
    fn stat_parses_a_comm_with_spaces_and_parens() {
        let (comm, ppid) = stat(std::process::id() as i32).unwrap();
        assert!(!comm.is_empty());
        assert!(ppid >= 0);
    }

    /// A real process named `claude` (a copy of `sleep` under that name) as this test's
    /// child's parent: the walk finds it.
    #[test]
    fn an_agent_ancestor_is_found_in_proc() {
        let d = tempfile::tempdir().unwrap();
        let sh = d.path().join("claude");
        std::fs::copy("/bin/sh", &sh).unwrap();
        // `claude -c 'sleep 5'`: a shell named claude whose child is sleep
        let mut child = std::process::Command::new(&sh).arg("-c").arg("sleep 5; true").spawn().unwrap();
        let mut found = None;
        for _ in 0..100 {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let kids = std::fs::read_to_string(format!("/proc/{}/task/{}/children", child.id(), child.id()))
                .unwrap_or_default();
            if let Some(k) = kids.split_whitespace().next() {
                found = agent_ancestor(k.parse().unwrap());
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(found.as_deref(), Some("claude"));
    }

    #[test]
    fn callers_are_described_for_refusals() {
        assert_eq!(Caller::Owner.describe(), "the owner");
        assert_eq!(
            Caller::Unplaced { why: "it is run by an agent (claude) outside herdr".into() }.describe(),
            "unplaced (it is run by an agent (claude) outside herdr)"
        );
    }
}
