//! Process facts read from `/proc`: ancestry (who this process descends from) and the process
//! tree below a pane's shell, with each process's cwd and `HOME`.
//!
//! Invariant: ancestry is read from the kernel (`/proc/<pid>/stat`), never from an environment
//! variable, so it can verify a pane a variable merely names.

use super::Proc;
use std::collections::HashMap;
use std::path::PathBuf;

/// The parent pid of `pid` (field 4 of `/proc/<pid>/stat`, read after the `)` that closes the
/// command name, which may itself hold spaces and parentheses).
pub fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat_ppid(&stat)
}

fn parse_stat_ppid(stat: &str) -> Option<u32> {
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace();
    let _state = fields.next()?;
    fields.next()?.parse().ok()
}

/// True when this process is `pid` or descends from it (walking `/proc/self` → ppid → … → 1).
pub fn descends_from(pid: u32) -> bool {
    if pid == 0 {
        return false;
    }
    let mut cur = std::process::id();
    // A bound on the walk: pid chains are short; a cycle cannot happen, but a race can.
    for _ in 0..4096 {
        if cur == pid {
            return true;
        }
        match parent_of(cur) {
            Some(p) if p != 0 && p != cur => cur = p,
            _ => return false,
        }
    }
    false
}

/// The start time of `pid` in clock ticks since boot: field 22 of `/proc/<pid>/stat`, read
/// after the `)` that closes the command name. A pid and its start time together name one
/// process for good: a pid the kernel reuses starts at another time.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat_start(&stat)
}

fn parse_stat_start(stat: &str) -> Option<u64> {
    // fields 3.. follow the `)`: field 22 is the 20th of them
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(19)?.parse().ok()
}

/// Every process below `shell_pid` (not the shell itself), parents before children, each with
/// its name, cwd and `HOME` where readable. Empty when the shell has no children (or is gone).
pub fn process_tree_below(shell_pid: u32) -> Vec<Proc> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if let Some(pp) = parent_of(pid) {
                children.entry(pp).or_default().push(pid);
            }
        }
    }
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
    let mut first: Vec<u32> = children.get(&shell_pid).cloned().unwrap_or_default();
    first.sort_unstable();
    queue.extend(first);
    while let Some(pid) = queue.pop_front() {
        if out.len() > 4096 {
            break;
        }
        out.push(proc_info(pid));
        let mut kids = children.get(&pid).cloned().unwrap_or_default();
        kids.sort_unstable();
        queue.extend(kids);
    }
    out
}

/// One process's name, cwd and `HOME`.
pub fn proc_info(pid: u32) -> Proc {
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map(|s| s.trim_end_matches('\n').to_string())
        .unwrap_or_default();
    let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok();
    let home = std::fs::read(format!("/proc/{pid}/environ")).ok().and_then(|env| {
        env.split(|b| *b == 0)
            .find_map(|kv| kv.strip_prefix(b"HOME=").map(|v| PathBuf::from(String::from_utf8_lossy(v).into_owned())))
    });
    Proc { pid, name, cwd, home }
}

/// One ancestor of this process as the kernel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ancestor {
    pub pid: u32,
    /// `/proc/<pid>/comm` (cut at 15 bytes by the kernel).
    pub comm: String,
    /// `/proc/<pid>/cmdline`, split at NULs (empty when unreadable).
    pub argv: Vec<String>,
}

/// This process and its ancestors, itself first, walking ppid up to (not including) pid 0.
/// In a pid namespace the walk ends at that namespace's pid 1: what lies above is not visible.
pub fn ancestry() -> Vec<Ancestor> {
    let mut out = Vec::new();
    let mut cur = std::process::id();
    // A bound on the walk: pid chains are short; a cycle cannot happen, but a race can.
    for _ in 0..4096 {
        let comm = std::fs::read_to_string(format!("/proc/{cur}/comm"))
            .map(|s| s.trim_end_matches('\n').to_string())
            .unwrap_or_default();
        let argv = std::fs::read(format!("/proc/{cur}/cmdline"))
            .map(|raw| {
                raw.split(|b| *b == 0)
                    .filter(|a| !a.is_empty())
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        out.push(Ancestor { pid: cur, comm, argv });
        match parent_of(cur) {
            Some(p) if p != 0 && p != cur => cur = p,
            _ => break,
        }
    }
    out
}

/// Whether `pid` is a process this one can see in `/proc` (a process in a pid namespace sees
/// none of the processes outside it).
pub fn visible(pid: u32) -> bool {
    pid != 0 && std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// The terminal size (cols, rows) of the tty `pid` has on stdin, read with TIOCGWINSZ on
/// `/proc/<pid>/fd/0` (opened without becoming our controlling terminal).
pub fn tty_size_of(pid: u32) -> Option<(u32, u32)> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOCTTY | nix::libc::O_NONBLOCK)
        .open(format!("/proc/{pid}/fd/0"))
        .ok()?;
    let ws = rustix::termios::tcgetwinsize(&f).ok().filter(|ws| ws.ws_col > 0)?;
    Some((ws.ws_col as u32, ws.ws_row as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_of_a_process_s_terminal_is_read_through_proc() {
        let ws = nix::pty::Winsize { ws_row: 24, ws_col: 30, ws_xpixel: 0, ws_ypixel: 0 };
        let pty = nix::pty::openpty(Some(&ws), None).unwrap();
        let mut child =
            std::process::Command::new("sleep").arg("30").stdin(std::process::Stdio::from(pty.slave)).spawn().unwrap();
        let got = tty_size_of(child.id());
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(got, Some((30, 24)));
        let mut plain =
            std::process::Command::new("sleep").arg("30").stdin(std::process::Stdio::null()).spawn().unwrap();
        let none = tty_size_of(plain.id());
        let _ = plain.kill();
        let _ = plain.wait();
        assert_eq!(none, None, "no terminal on stdin: no size");
    }

    #[test]
    fn ppid_parsed_after_the_command_name() {
        assert_eq!(parse_stat_ppid("123 (a) b) c) S 77 123 123 0"), Some(77));
        assert_eq!(parse_stat_ppid("1 (init) S 0 1 1"), Some(0));
    }

    #[test]
    fn this_process_descends_from_itself_and_its_parent_not_a_child() {
        assert!(descends_from(std::process::id()));
        let parent = parent_of(std::process::id()).unwrap();
        assert!(descends_from(parent));
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        assert!(!descends_from(child.id()));
        // and the child shows in our tree, with its cwd and HOME
        // wait for the child's exec to finish (its environ is empty for a moment there)
        let t = std::time::Instant::now();
        while proc_info(child.id()).home.is_none() && t.elapsed() < std::time::Duration::from_secs(2) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let tree = process_tree_below(std::process::id());
        let me = tree.iter().find(|p| p.pid == child.id()).expect("child in tree");
        assert_eq!(me.name, "sleep");
        assert_eq!(me.cwd.as_deref(), std::env::current_dir().ok().as_deref());
        assert_eq!(me.home, std::env::var_os("HOME").map(PathBuf::from));
        child.kill().ok();
        child.wait().ok();
    }

    #[test]
    fn the_ancestry_starts_here_and_climbs_to_the_top() {
        let a = ancestry();
        assert_eq!(a[0].pid, std::process::id());
        assert_eq!(a.get(1).map(|p| p.pid), parent_of(std::process::id()));
        assert!(!a[0].argv.is_empty() && !a[0].comm.is_empty());
        assert!(a.iter().all(|p| visible(p.pid)));
        assert!(!visible(0));
    }

    #[test]
    fn the_start_time_is_field_22() {
        let stat = "27322 (claude code) S 27311 27322 27311 34816 27322 4194304 1 2 3 4 5 6 7 8 20 0 1 0 331952 100 5";
        assert_eq!(parse_stat_start(stat), Some(331952));
        let me = start_time(std::process::id()).unwrap();
        assert!(me > 0);
        assert_eq!(start_time(std::process::id()), Some(me));
    }

    #[test]
    fn pid_zero_is_nobody() {
        assert!(!descends_from(0));
    }
}
