//! What a fake seat shows of itself outside its screen, the way the real CLI does: its process
//! name, and for a CLI that carries the native channel (Claude Code) the sessions-registry entry
//! and the listening socket every interactive session holds from startup
//! (docs/claude-native-channel.md).
//!
//! - The process takes the first of its profile's `process_names` (`claude`, `codex`): the real
//!   CLI runs as that program, and `team register` looks for it in front of the pane's shell.
//! - The socket is `<dir>/cc-socks/<pid>.sock`, `<dir>` = `$XDG_RUNTIME_DIR`, else
//!   `$CLAUDE_CODE_TMPDIR`, else the temp dir; a path longer than 103 bytes falls back to
//!   `/tmp/cc-socks-<uid>/<pid>.sock`. Folder 0700, socket 0600. Connections are accepted and
//!   read to their end; nothing is ever written back on one (the real receiver answers on the
//!   sender's own socket, never on the connection).
//! - The entry is written where the profile says the CLI keeps it (`native-sessions=`), with
//!   the fields the real one carries (`pid`, `procStart` = field 22 of `/proc/<pid>/stat`,
//!   `messagingSocketPath`, `name` = `<cwd basename>-<2 hex>`, `status`, …), mode 0644.
//! - A clean end (the terminal closes, SIGHUP, SIGTERM) removes the socket and the entry; a
//!   process killed outright leaves both behind, a stale socket, as the real one does.
//!
//! `--native full` (the default) does all of it; `socket-only` listens but writes no entry;
//! `none` does neither.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::profiles::{Description, ProfileHost};

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

/// The profile's description of `cli` (embedded for a bundled profile, cached otherwise).
fn describe(cli: &str, paths: &crate::paths::Paths) -> Option<Description> {
    ProfileHost::new(paths).description(cli, &Default::default()).ok().map(|(d, _)| d)
}

/// Takes the CLI's process name (`/proc/self/comm`), before any thread starts.
fn take_name(desc: &Description) {
    if let Some(name) = desc.process_names.first() {
        let _ = std::fs::write("/proc/self/comm", name.as_bytes());
    }
}

/// The socket path the real CLI would take for `pid`.
fn socket_path(pid: u32) -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = var("XDG_RUNTIME_DIR").or_else(|| var("CLAUDE_CODE_TMPDIR")).unwrap_or_else(std::env::temp_dir);
    let p = dir.join("cc-socks").join(format!("{pid}.sock"));
    if p.as_os_str().len() > 103 {
        let uid = nix::unistd::getuid();
        return PathBuf::from(format!("/tmp/cc-socks-{uid}/{pid}.sock"));
    }
    p
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

/// Shows the CLI outside its screen (see the module docs). `exited`: the CLI has exited, so
/// nothing of it is shown.
pub fn show(cli: &str, exited: bool, native: Native, paths: &crate::paths::Paths) -> Result<Shown, String> {
    let mut shown = Shown { files: Vec::new() };
    if exited {
        return Ok(shown);
    }
    let Some(desc) = describe(cli, paths) else { return Ok(shown) };
    take_name(&desc);
    if !desc.native_channel || native == Native::None {
        return Ok(shown);
    }
    let pid = std::process::id();
    let sock = socket_path(pid);
    let dir = sock.parent().unwrap_or(Path::new("/tmp"));
    {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    let _ = std::fs::remove_file(&sock);
    let listener = std::os::unix::net::UnixListener::bind(&sock)
        .map_err(|e| format!("cannot listen on {}: {e}", sock.display()))?;
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o600));
    }
    shown.files.push(sock.clone());
    if native == Native::Full {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/"));
        if let Some(entry) = crate::native::entry_path(&desc, &home, pid) {
            write_entry(&entry, pid, &sock)?;
            shown.files.push(entry);
        }
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
    let start = crate::mux::procfs::start_time(pid).ok_or("cannot read this process's start time")?;
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
    let dir = entry.parent().unwrap_or(Path::new("/"));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    std::fs::write(entry, doc.to_string()).map_err(|e| format!("cannot write {}: {e}", entry.display()))
}
