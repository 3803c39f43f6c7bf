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

/// The fields of `/proc/<pid>/stat` the caller check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub ppid: u32,
    /// The session id (the pid of the session's leader).
    pub session: u32,
    /// The controlling terminal's device number (0: none).
    pub tty_nr: u64,
}

/// `pid`'s parent, session and controlling terminal.
pub fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

fn parse_stat(text: &str) -> Option<Stat> {
    // after the `)`: state(3) ppid(4) pgrp(5) session(6) tty_nr(7)
    let mut f = text[text.rfind(')')? + 1..].split_whitespace();
    let _state = f.next()?;
    let ppid = f.next()?.parse().ok()?;
    let _pgrp = f.next()?;
    let session = f.next()?.parse().ok()?;
    let tty_nr = f.next()?.parse::<i64>().ok()? as u64;
    Some(Stat { ppid, session, tty_nr })
}

/// A terminal a process has: a pseudo-terminal by its index (`/dev/pts/<n>`), or another
/// terminal device (a console, a serial line) by its device number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tty {
    Pts(u32),
    Other { major: u32, minor: u32 },
}

impl Tty {
    /// From a device number as `/proc/<pid>/stat` or `stat(2)` gives it.
    pub fn from_dev(dev: u64) -> Option<Tty> {
        if dev == 0 {
            return None;
        }
        let major = ((dev >> 8) & 0xfff) as u32 | ((dev >> 32) & !0xfff) as u32;
        let minor = (dev & 0xff) as u32 | ((dev >> 12) & !0xff) as u32;
        // Unix98 pty slaves: majors 136–143, the index counted across them
        Some(if (136..144).contains(&major) {
            Tty::Pts((major - 136) * 256 + minor)
        } else {
            Tty::Other { major, minor }
        })
    }

    /// The device's path, for a sentence.
    pub fn path(&self) -> String {
        match self {
            Tty::Pts(n) => format!("/dev/pts/{n}"),
            Tty::Other { major, minor } => format!("the terminal device {major}:{minor}"),
        }
    }
}

/// The terminal of a path (`/dev/pts/3`, `/dev/tty1`), when it is one.
pub fn tty_of_path(path: &std::path::Path) -> Option<Tty> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let m = std::fs::metadata(path).ok()?;
    if !m.file_type().is_char_device() {
        return None;
    }
    Tty::from_dev(m.rdev())
}

/// The terminals this process has: its controlling terminal and whatever terminal its stdin,
/// stdout or stderr is, each once.
pub fn own_terminals() -> Vec<Tty> {
    use std::os::fd::AsFd;
    let mut out = Vec::new();
    if let Some(t) = stat(std::process::id()).and_then(|s| Tty::from_dev(s.tty_nr)) {
        out.push(t);
    }
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    let fds = [stdin.as_fd(), stdout.as_fd(), stderr.as_fd()];
    for (n, fd) in fds.into_iter().enumerate() {
        if !nix::unistd::isatty(fd).unwrap_or(false) {
            continue;
        }
        if let Some(t) = tty_of_path(std::path::Path::new(&format!("/proc/self/fd/{n}"))) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// Whether `pid` holds the master side of pseudo-terminal `index` (an open `/dev/ptmx` whose
/// `fdinfo` names that index): it is the program that provides that terminal.
pub fn holds_pty(pid: u32, index: u32) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
    // A bound: a terminal program holds a few hundred descriptors, not millions.
    for e in fds.flatten().take(65_536) {
        let Ok(target) = std::fs::read_link(e.path()) else { continue };
        if target.as_os_str() != "/dev/ptmx" && target.as_os_str() != "/dev/pts/ptmx" {
            continue;
        }
        let info = std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{}", e.file_name().to_string_lossy()));
        let holds = info.ok().is_some_and(|i| {
            i.lines().any(|l| l.strip_prefix("tty-index:").is_some_and(|v| v.trim().parse() == Ok(index)))
        });
        if holds {
            return true;
        }
    }
    false
}

/// Whether `pid` is what a multiplexer says it is, the shell of one of its panes: a session
/// leader (it began the pane's session) whose controlling terminal is the pane's (`tty`, when
/// the multiplexer names it) and whose parent is the multiplexer's server (`server`, when
/// known). A pid that fails is never a pane's shell: a forged or confused answer (the server's
/// own pid named as a shell is an ancestor of every pane) places no caller.
pub fn is_pane_shell(pid: u32, tty: Option<Tty>, server: Option<u32>) -> bool {
    let Some(st) = stat(pid) else { return false };
    if st.session != pid || st.tty_nr == 0 || server == Some(pid) {
        return false;
    }
    if tty.is_some_and(|t| Tty::from_dev(st.tty_nr) != Some(t)) {
        return false;
    }
    server.is_none_or(|s| st.ppid == s)
}

/// What a caller search asks the kernel about a pid a multiplexer named (herdr's tests answer
/// for recorded pids that do not exist where they run).
pub trait Kernel {
    /// Whether the pid is a process this one can see (`visible`).
    fn visible(&self, pid: u32) -> bool;
    /// Whether the pid can be a pane's shell: a session leader with a controlling terminal
    /// (`is_pane_shell`, with no terminal or server to hold it to).
    fn shell_like(&self, pid: u32) -> bool;
    /// The pid's parent.
    fn parent(&self, pid: u32) -> Option<u32>;
}

/// The kernel this process runs on.
pub struct Live;

impl Kernel for Live {
    fn visible(&self, pid: u32) -> bool {
        visible(pid)
    }
    fn shell_like(&self, pid: u32) -> bool {
        is_pane_shell(pid, None, None)
    }
    fn parent(&self, pid: u32) -> Option<u32> {
        parent_of(pid)
    }
}

/// Every process below `shell_pid` (not the shell itself), parents before children, each with
/// its name, cwd and `HOME` where readable. Empty when the shell has no children (or is gone).
pub fn process_tree_below(shell_pid: u32) -> Vec<Proc> {
    let pids = pids_below_by_children(shell_pid).unwrap_or_else(|| pids_below_by_scan(shell_pid));
    pids.into_iter().map(proc_info).collect()
}

/// The pids below `pid`, parents before children, from the kernel's own lists of each task's
/// children (`/proc/<pid>/task/<tid>/children`): a few small reads where a pane holds a few
/// processes, against a scan of every process on the machine. `None` when the kernel keeps no
/// such list (built without `CONFIG_PROC_CHILDREN`) or `pid` is gone: then the scan answers.
pub fn pids_below_by_children(pid: u32) -> Option<Vec<u32>> {
    // every thread's list: a child belongs to the thread that forked it
    let kids = |p: u32| -> Option<Vec<u32>> {
        let mut out = Vec::new();
        for t in std::fs::read_dir(format!("/proc/{p}/task")).ok()?.flatten() {
            let list = std::fs::read_to_string(t.path().join("children")).ok()?;
            out.extend(list.split_whitespace().filter_map(|w| w.parse::<u32>().ok()));
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    };
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<u32> = kids(pid)?.into();
    while let Some(p) = queue.pop_front() {
        if out.len() > 4096 {
            break;
        }
        out.push(p);
        // a process gone since its parent's list was read has no children
        queue.extend(kids(p).unwrap_or_default());
    }
    Some(out)
}

/// The pids below `shell_pid`, parents before children, from every process's parent.
pub fn pids_below_by_scan(shell_pid: u32) -> Vec<u32> {
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
        out.push(pid);
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
    /// Its parent's pid (0 when unreadable).
    pub ppid: u32,
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
        let ppid = parent_of(cur).unwrap_or(0);
        out.push(Ancestor { pid: cur, ppid, comm, argv });
        match ppid {
            p if p != 0 && p != cur => cur = p,
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

/// The variables that say where the caller's pane and the team's folders are. A CLI that
/// starts its servers with a bare environment (Codex passes only its static `env` table)
/// hides them; the server then reads them from the nearest ancestor that has them
/// ([`pane_env_from_ancestors`]). They say where to look, never who the caller is: the pane is
/// still the one whose shell is among the server's ancestors.
pub const PANE_ENV: [&str; 11] = [
    "TMUX",
    "TMUX_PANE",
    "TEAM_TMUX_SOCKET",
    "HERDR_PANE_ID",
    "HERDR_SESSION",
    "HERDR_SOCKET_PATH",
    "TEAM_CONFIG_DIR",
    "TEAM_STATE_DIR",
    "TEAM_CACHE_DIR",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
];

/// The variables whose presence says which multiplexer to ask.
const LOCATING: [&str; 3] = ["TMUX", "TEAM_TMUX_SOCKET", "HERDR_PANE_ID"];

/// The pane variables this process lacks and the nearest ancestor that locates a pane has
/// (none when this process has any locating variable itself: its own environment stands).
pub fn pane_env_from_ancestors(own: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    if LOCATING.iter().any(|k| own(k).is_some_and(|v| !v.is_empty())) {
        return Vec::new();
    }
    for a in ancestry().iter().skip(1) {
        let Ok(raw) = std::fs::read(format!("/proc/{}/environ", a.pid)) else { continue };
        let vars: Vec<(String, String)> = raw
            .split(|&b| b == 0)
            .filter_map(|kv| std::str::from_utf8(kv).ok()?.split_once('=').map(|(k, v)| (k.into(), v.into())))
            .collect();
        if !vars.iter().any(|(k, v)| LOCATING.contains(&k.as_str()) && !v.is_empty()) {
            continue;
        }
        return vars
            .into_iter()
            .filter(|(k, v)| PANE_ENV.contains(&k.as_str()) && !v.is_empty() && own(k).is_none())
            .collect();
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's children lists and the scan of every process find the same tree, in the
    /// same order (a real tree: a shell, its two children, a grandchild).
    #[test]
    fn the_children_lists_find_the_tree_the_scan_finds() {
        let mut child =
            std::process::Command::new("sh").args(["-c", "(sleep 300 & wait) & sleep 300 & wait"]).spawn().unwrap();
        let pid = child.id();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while pids_below_by_scan(pid).len() < 3 && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let scanned = pids_below_by_scan(pid);
        let listed = pids_below_by_children(pid);
        for p in scanned.iter().rev() {
            let _ = std::process::Command::new("kill").arg(p.to_string()).status();
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(scanned.len(), 3, "{scanned:?}");
        assert_eq!(listed, Some(scanned));
        // a pid that is gone: the scan answers (nothing)
        assert_eq!(pids_below_by_children(pid), None);
    }

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
    fn stat_reads_the_session_and_the_terminal() {
        let st = parse_stat("27322 (claude code) S 27311 27322 27300 34816 27322 4194304").unwrap();
        assert_eq!(st, Stat { ppid: 27311, session: 27300, tty_nr: 34816 });
        // 34816 = major 136, minor 0: /dev/pts/0
        assert_eq!(Tty::from_dev(34816), Some(Tty::Pts(0)));
        assert_eq!(Tty::from_dev(34816 + 7), Some(Tty::Pts(7)));
        assert_eq!(Tty::from_dev(0), None);
        // /dev/tty1: major 4, minor 1
        assert_eq!(Tty::from_dev(4 << 8 | 1), Some(Tty::Other { major: 4, minor: 1 }));
    }

    /// A pseudo-terminal whose two ends close on exec (a child spawned by another test thread
    /// must not inherit the master and pass as its holder), and the slave's terminal.
    fn cloexec_pty() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd, Tty) {
        use nix::fcntl::OFlag;
        use std::os::unix::fs::OpenOptionsExt;
        let master = nix::pty::posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC).unwrap();
        nix::pty::grantpt(&master).unwrap();
        nix::pty::unlockpt(&master).unwrap();
        let name = nix::pty::ptsname_r(&master).unwrap();
        let slave: std::os::fd::OwnedFd = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags((OFlag::O_NOCTTY | OFlag::O_CLOEXEC).bits())
            .open(&name)
            .unwrap()
            .into();
        let tty = tty_of_path(std::path::Path::new(&name)).unwrap();
        (master.into(), slave, tty)
    }

    #[test]
    fn the_holder_of_a_pseudo_terminal_is_found_by_its_index() {
        let (_master, slave, tty) = cloexec_pty();
        let Tty::Pts(n) = tty else { panic!("{tty:?} is no pty") };
        assert!(holds_pty(std::process::id(), n));
        assert!(!holds_pty(std::process::id(), n + 100_000));
        // a child given only the slave does not hold it
        let mut child =
            std::process::Command::new("sleep").arg("30").stdin(std::process::Stdio::from(slave)).spawn().unwrap();
        let held = holds_pty(child.id(), n);
        let _ = child.kill();
        let _ = child.wait();
        assert!(!held);
    }

    #[test]
    fn a_pane_shell_is_a_session_leader_on_the_pane_s_terminal_under_the_server() {
        let (_master, slave, dev) = cloexec_pty();
        // `setsid -c`: a new session whose controlling terminal is the one on stdin, as a
        // multiplexer starts a pane's shell (no fork: the child is no group leader)
        let mut child = std::process::Command::new("setsid")
            .args(["-c", "sleep", "30"])
            .stdin(std::process::Stdio::from(slave))
            .spawn()
            .unwrap();
        let me = std::process::id();
        let t = std::time::Instant::now();
        while stat(child.id()).is_none_or(|s| s.tty_nr == 0) && t.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let shell = is_pane_shell(child.id(), Some(dev), Some(me));
        let other_tty = is_pane_shell(child.id(), Some(Tty::Pts(999_999)), Some(me));
        let other_server = is_pane_shell(child.id(), Some(dev), Some(1));
        let not_a_leader = is_pane_shell(me, None, None);
        let _ = child.kill();
        let _ = child.wait();
        assert!(shell);
        assert!(!other_tty && !other_server && !not_a_leader);
    }

    #[test]
    fn pid_zero_is_nobody() {
        assert!(!descends_from(0));
    }
}
