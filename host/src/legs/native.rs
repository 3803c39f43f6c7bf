//! A pane's native-channel address, read from outside without dialing anything
//! (docs/claude-native-channel.md, "Telling from outside whether a pane's Claude has a
//! live socket"): the CLI's sessions-registry entry for its pid, whose start time must be the
//! process's own (a reused pid is another process), names the socket; the socket is live when
//! that process holds a listening unix socket at that path (`/proc/<pid>/fd` → `socket:[inode]`
//! → `/proc/<pid>/net/unix`, the table of the process's own network namespace).
//!
//! Invariant: nothing here opens, connects to or writes any socket, and nothing is read through
//! a symbolic link. Where the registry entry lives is the profile's fact (its feature
//! `native-sessions=<pattern>`, `{home}` and `{pid}` filled in), never this module's.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::profiles::Description;
use crate::registry::ProcessIdentity;

/// The feature word a profile names its CLI's sessions registry with.
pub const SESSIONS_FEATURE: &str = "native-sessions=";

/// The sessions-registry entry a profile says its CLI writes for `pid` under `home`.
pub fn entry_path(desc: &Description, home: &Path, pid: u32) -> Option<PathBuf> {
    let pattern = desc.features.iter().find_map(|f| f.strip_prefix(SESSIONS_FEATURE))?;
    let home = home.display().to_string();
    Some(PathBuf::from(pattern.replace("{home}", home.trim_end_matches('/')).replace("{pid}", &pid.to_string())))
}

/// What one sessions-registry entry says (the fields `team` reads).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SessionEntry {
    pub pid: u32,
    /// Field 22 of `/proc/<pid>/stat` when the entry was written, as a decimal string.
    #[serde(rename = "procStart")]
    pub proc_start: String,
    #[serde(rename = "messagingSocketPath")]
    pub socket: Option<String>,
    /// The name the session answers to: what SendMessage addresses.
    pub name: Option<String>,
}

/// Reads the entry at `path` for `who`: `None` when there is none, it does not parse, it is a
/// link, or its pid or start time is not `who`'s.
pub fn read_entry(path: &Path, who: ProcessIdentity) -> Option<SessionEntry> {
    let text = crate::fsx::read_to_string(path).ok()??;
    let e: SessionEntry = serde_json::from_str(&text).ok()?;
    (e.pid == who.pid && e.proc_start.trim() == who.start.to_string()).then_some(e)
}

/// The unix socket paths `pid` holds listening (abstract sockets have no path and are left out).
pub fn listening_paths(pid: u32) -> Vec<PathBuf> {
    listening_paths_of(pid).unwrap_or_default()
}

/// [`listening_paths`], `None` when the process's open files cannot be read (gone, another
/// user's, another pid namespace).
pub fn listening_paths_of(pid: u32) -> Option<Vec<PathBuf>> {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    let inodes: HashSet<u64> = fds
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok()
        })
        .collect();
    if inodes.is_empty() {
        return Some(Vec::new());
    }
    // the table of the process's own network namespace (a CLI in another one — a sandbox, a
    // private test network — lists its sockets only there)
    let table = std::fs::read_to_string(format!("/proc/{pid}/net/unix"))
        .or_else(|_| std::fs::read_to_string("/proc/net/unix"))
        .unwrap_or_default();
    Some(listeners(&table).into_iter().filter(|(inode, _)| inodes.contains(inode)).map(|(_, p)| p).collect())
}

/// `__SO_ACCEPTCON`: the flag `/proc/net/unix` shows on a listening socket.
const ACCEPTCON: u32 = 0x0001_0000;

/// The listening sockets with a path in a `/proc/net/unix` table: (inode, path).
fn listeners(table: &str) -> Vec<(u64, PathBuf)> {
    table
        .lines()
        .skip(1)
        .filter_map(|row| {
            // Num RefCount Protocol Flags Type St Inode Path
            let f: Vec<&str> = row.split_whitespace().collect();
            let flags = u32::from_str_radix(f.get(3)?, 16).ok()?;
            let inode: u64 = f.get(6)?.parse().ok()?;
            let path = f.get(7).filter(|p| p.starts_with('/'))?;
            (flags & ACCEPTCON != 0).then(|| (inode, PathBuf::from(path)))
        })
        .collect()
}

/// The live native address of one CLI process: its entry's socket, held listening by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveAddress {
    pub socket: PathBuf,
    /// The session's name (what SendMessage addresses), when the entry gives one.
    pub name: Option<String>,
}

/// Reads `who`'s live native address as a launch records it: the profile's sessions-registry
/// entry under the process's `home` (start time matched), its socket path, and that path held
/// listening by the process. `None` when any link of the chain is missing.
pub fn live_address(desc: &Description, home: &Path, who: ProcessIdentity) -> Option<LiveAddress> {
    let entry = read_entry(&entry_path(desc, home, who.pid)?, who)?;
    let socket = PathBuf::from(entry.socket?);
    listening_paths(who.pid).contains(&socket).then_some(LiveAddress { socket, name: entry.name })
}

/// The name the session of `who` answers to, from its entry (start time matched).
pub fn session_name(desc: &Description, home: &Path, who: ProcessIdentity) -> Option<String> {
    read_entry(&entry_path(desc, home, who.pid)?, who)?.name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc() -> Description {
        Description {
            features: vec![format!("{SESSIONS_FEATURE}{{home}}/.claude/sessions/{{pid}}.json")],
            ..Default::default()
        }
    }

    #[test]
    fn the_entry_path_is_the_profiles_pattern() {
        assert_eq!(
            entry_path(&desc(), Path::new("/home/me/"), 21939),
            Some(PathBuf::from("/home/me/.claude/sessions/21939.json"))
        );
        assert_eq!(entry_path(&Description::default(), Path::new("/h"), 1), None);
    }

    #[test]
    fn listeners_are_read_from_the_kernels_table() {
        // the row shape seen on the real CLI (docs/claude-native-channel.md), and a connected one
        let table = "Num       RefCount Protocol Flags    Type St Inode Path\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 262617 /tmp/cc-socks/20061.sock\n\
            0000000000000000: 00000003 00000000 00000000 0001 03 262700 /tmp/cc-socks/20061.sock\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 262618 @abstract\n";
        assert_eq!(listeners(table), vec![(262617, PathBuf::from("/tmp/cc-socks/20061.sock"))]);
    }

    #[test]
    fn a_socket_this_process_listens_on_is_found_and_a_reused_pid_is_not_its_entry() {
        let d = tempfile::tempdir().unwrap();
        let sock = d.path().join("cc-socks").join(format!("{}.sock", std::process::id()));
        std::fs::create_dir_all(sock.parent().unwrap()).unwrap();
        let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        assert!(listening_paths(std::process::id()).contains(&sock));
        let me = ProcessIdentity::read(std::process::id()).unwrap();
        let entry = d.path().join(".claude/sessions").join(format!("{}.json", me.pid));
        std::fs::create_dir_all(entry.parent().unwrap()).unwrap();
        let write = |start: u64| {
            std::fs::write(
                &entry,
                serde_json::json!({"pid": me.pid, "procStart": start.to_string(), "messagingSocketPath": sock, "name": "beacon-f6"}).to_string(),
            )
            .unwrap()
        };
        write(me.start);
        let got = live_address(&desc(), d.path(), me).unwrap();
        assert_eq!((got.socket.as_path(), got.name.as_deref()), (sock.as_path(), Some("beacon-f6")));
        write(me.start + 1);
        assert_eq!(live_address(&desc(), d.path(), me), None);
    }
}
