//! What a fake seat shows of itself outside its screen, the way the real CLI does: its process
//! name, and for a CLI that carries the native channel (Claude Code) the sessions-registry entry
//! and the listening socket every interactive session holds from startup (the facts and their
//! sources: `vendor.rs`).
//!
//! - The process takes the CLI's program name (`claude`, `codex`, `cursor-agent`): the real
//!   CLI runs as that program, and `team register` looks for it in front of the pane's shell.
//! - The socket is where the CLI's own rule puts it (`vendor::socket_path`). Folder 0700 (made
//!   without following a link), socket 0600. Connections are accepted and read to their end;
//!   nothing is ever written back on one (the real receiver answers on the sender's own
//!   socket, never on the connection).
//! - The entry is `$HOME/.claude/sessions/<pid>.json` under the checked HOME (`world`), with
//!   the fields the real one carries (`pid`, `procStart` = field 22 of `/proc/<pid>/stat`,
//!   `messagingSocketPath`, `name` = `<cwd basename>-<2 hex>`, `status`, …), mode 0644, written
//!   whole through a temp file, never through a link.
//! - A clean end (the terminal closes, SIGHUP, SIGTERM) removes the socket and the entry; a
//!   process killed outright leaves both behind, a stale socket, as the real one does.
//!
//! `--native full` (the default) does all of it; `socket-only` listens but writes no entry;
//! `none` does neither.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::vendor::{self, Cli};
use crate::world;

/// How much of the native channel a fake seat shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Native {
    Full,
    SocketOnly,
    None,
}

impl Native {
    pub fn parse(s: &str) -> Result<Native, String> {
        match s {
            "full" => Ok(Native::Full),
            "socket-only" => Ok(Native::SocketOnly),
            "none" => Ok(Native::None),
            other => Err(format!("unknown --native \"{other}\" (full, socket-only, none)")),
        }
    }
}

/// Takes the CLI's process name (`/proc/self/comm`), before any thread starts.
fn take_name(cli: Cli) {
    let _ = std::fs::write("/proc/self/comm", cli.process_name().as_bytes());
}

/// What a fake seat holds until it ends cleanly.
pub struct Shown {
    files: Vec<PathBuf>,
}

impl Drop for Shown {
    fn drop(&mut self) {
        for f in &self.files {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// Shows the CLI outside its screen (see the module docs) for a seat whose checked HOME is
/// `home`. `exited`: the CLI has exited, so nothing of it is shown.
pub fn show(cli: Cli, exited: bool, native: Native, home: &Path) -> Result<Shown, String> {
    let mut shown = Shown { files: Vec::new() };
    if exited {
        return Ok(shown);
    }
    if !cli.native_channel() || native == Native::None {
        take_name(cli);
        return Ok(shown);
    }
    // everything that can be refused, before anything is written
    let entries = match native {
        Native::Full => Some(world::ensure_dirs(home, Path::new(vendor::CLAUDE_SESSIONS))?),
        _ => None,
    };
    let pid = std::process::id();
    let sock =
        vendor::socket_path(|k| std::env::var(k).ok(), &std::env::temp_dir(), pid, nix::unistd::getuid().as_raw());
    let folder = sock.parent().unwrap_or(Path::new("/tmp"));
    let (Some(dir), Some(name)) = (folder.parent(), folder.file_name()) else {
        return Err(format!("{} has no folder to make", sock.display()));
    };
    world::ensure_dirs(dir, Path::new(name))?;
    take_name(cli);
    // a stale socket of an earlier process (unlinking removes a link, never follows it)
    let _ = std::fs::remove_file(&sock);
    // made 0600 by the umask it is bound under (never chmod'ed after); no thread runs yet
    let old = nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o177));
    let bound = std::os::unix::net::UnixListener::bind(&sock);
    nix::sys::stat::umask(old);
    let listener = bound.map_err(|e| format!("cannot listen on {}: {e}", sock.display()))?;
    shown.files.push(sock.clone());
    if let Some(dir) = entries {
        let entry = dir.join(vendor::session_entry(pid));
        write_entry(&entry, pid, &sock)?;
        shown.files.push(entry);
    }
    // A clean end removes what the session showed: SIGHUP and SIGTERM are waited for on a
    // thread of their own (blocked everywhere else), then the files go and the process ends.
    let mut set = nix::sys::signal::SigSet::empty();
    set.add(nix::sys::signal::Signal::SIGHUP);
    set.add(nix::sys::signal::Signal::SIGTERM);
    let _ = set.thread_block();
    let files = shown.files.clone();
    std::thread::spawn(move || {
        if set.wait().is_ok() {
            for f in &files {
                let _ = std::fs::remove_file(f);
            }
            std::process::exit(0);
        }
    });
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut c = conn;
                let mut sink = Vec::new();
                let _ = c.read_to_end(&mut sink);
            });
        }
    });
    Ok(shown)
}

fn write_entry(entry: &Path, pid: u32, sock: &Path) -> Result<(), String> {
    let start = vendor::proc_start(pid).ok_or("cannot read this process's start time")?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let base = cwd.file_name().map(|b| b.to_string_lossy().into_owned()).unwrap_or_else(|| "session".into());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let doc = serde_json::json!({
        "pid": pid,
        "sessionId": uuid::Uuid::new_v4().to_string(),
        "cwd": cwd,
        "startedAt": now,
        "procStart": start.to_string(),
        "version": "2.1.332",
        "peerProtocol": 1,
        "kind": "interactive",
        "entrypoint": "cli",
        "messagingSocketPath": sock,
        "name": format!("{base}-{:02x}", pid % 256),
        "nameSource": "derived",
        "status": "idle",
        "updatedAt": now,
    });
    world::write_whole(entry, doc.to_string().as_bytes(), 0o644)
}
