//! The lock files `team` holds (a seat's, the team file's edit lock, a project's watch): a small
//! regular file under the state folder, an `flock` on it, and one line naming the holder
//! (`<kind> <pid>`) so a waiter can say who holds it.
//!
//! Invariants: a lock file is opened without following a link, without truncating, and is
//! written only while it is a lock of ours — our uid, one link, at most [`HOLDER_BYTES`] — so a
//! link or a file planted at a lock's place is never changed; the holder line is written at
//! offset 0 padded to [`HOLDER_BYTES`], never by truncating; a wait is bounded, never forever.
//! Each caller keeps its own sentences: this says what happened, as [`LockError`].

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

/// The holder line is written at offset 0 padded to this width; a longer file is no lock.
pub const HOLDER_BYTES: usize = 32;

/// How often a waiter tries the lock again.
const RETRY: Duration = Duration::from_millis(15);

/// A held lock; dropping it (closing the file) releases it.
#[derive(Debug)]
pub struct Held {
    _file: File,
}

/// Who holds a lock, as its line says. `kind` is `None` while a holder is between taking the
/// lock and naming itself (or names itself in a way this build does not read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub kind: Option<String>,
    pub pid: Option<u32>,
}

impl Holder {
    /// The pid as a sentence shows it (`?` when the line names none).
    pub fn pid_word(&self) -> String {
        self.pid.map_or_else(|| "?".to_string(), |p| p.to_string())
    }
}

/// Why a lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// The lock file could not be opened (a link, a FIFO, a folder, an I/O error).
    Open(std::io::Error),
    /// The file at the lock's place is not a lock of ours: why (another owner, links, size).
    NotALock(String),
    /// Another process holds it: either one the caller does not wait on, or past the wait.
    Busy(Holder),
    /// `flock` itself failed.
    Take(std::io::Error),
}

/// Why the file at a lock's place is not a lock of ours, when it is not one.
fn not_a_lock(m: &std::fs::Metadata) -> Option<String> {
    if m.uid() != nix::unistd::getuid().as_raw() {
        Some(format!("it is owned by another user (uid {})", m.uid()))
    } else if m.nlink() != 1 {
        Some(format!("it has {} links", m.nlink()))
    } else if m.len() > HOLDER_BYTES as u64 {
        Some(format!("it holds {} bytes", m.len()))
    } else {
        None
    }
}

/// The holder a lock file's line names.
fn read_holder(file: &mut File) -> Holder {
    let mut text = String::new();
    let _ = file.rewind();
    let _ = file.take(HOLDER_BYTES as u64).read_to_string(&mut text);
    let mut parts = text.split_whitespace();
    Holder { kind: parts.next().map(str::to_string), pid: parts.next().and_then(|p| p.parse().ok()) }
}

/// Takes the lock at `path` (its folder already made) for `kind`, trying again for up to
/// `wait` while `waits_on` says the holder is one to wait behind.
pub fn take(path: &Path, kind: &str, wait: Duration, waits_on: impl Fn(&Holder) -> bool) -> Result<Held, LockError> {
    let mut file = crate::fsx::open_regular(
        path,
        OpenOptions::new().read(true).write(true).create(true).truncate(false).mode(0o600),
    )
    .map_err(LockError::Open)?;
    let meta = file.metadata().map_err(LockError::Open)?;
    if let Some(why) = not_a_lock(&meta) {
        return Err(LockError::NotALock(why));
    }
    let deadline = Instant::now() + wait;
    loop {
        match file.try_lock() {
            Ok(()) => {
                let line = format!("{kind} {}", std::process::id());
                let _ = file.write_all_at(format!("{line:<w$}\n", w = HOLDER_BYTES - 1).as_bytes(), 0);
                return Ok(Held { _file: file });
            }
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                if !waits_on(&holder) || Instant::now() >= deadline {
                    return Err(LockError::Busy(holder));
                }
                std::thread::sleep(RETRY);
            }
            Err(TryLockError::Error(e)) => return Err(LockError::Take(e)),
        }
    }
}

/// Who holds the lock at `path` now, if anyone: creates nothing and keeps nothing (a shared
/// try, released at once).
pub fn holder(path: &Path) -> Option<Holder> {
    let mut file = crate::fsx::open_regular(path, OpenOptions::new().read(true)).ok()?;
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            None
        }
        Err(TryLockError::WouldBlock) => Some(read_holder(&mut file)),
        Err(TryLockError::Error(_)) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_is_named_and_a_waiter_gives_up_at_its_bound() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("l");
        let held = take(&p, "send", Duration::ZERO, |_| true).unwrap();
        let me = Some(std::process::id());
        assert_eq!(holder(&p), Some(Holder { kind: Some("send".into()), pid: me }));
        match take(&p, "rename", Duration::from_millis(40), |_| true) {
            Err(LockError::Busy(h)) => assert_eq!(h, Holder { kind: Some("send".into()), pid: me }),
            other => panic!("{other:?}"),
        }
        // one not waited on is answered at once
        let t = Instant::now();
        assert!(matches!(take(&p, "send", Duration::from_secs(600), |_| false), Err(LockError::Busy(_))));
        assert!(t.elapsed() < Duration::from_secs(600));
        drop(held);
        assert_eq!(holder(&p), None);
        let _again = take(&p, "rename", Duration::ZERO, |_| true).unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().len(), HOLDER_BYTES as u64);
    }

    #[test]
    fn a_link_or_a_planted_file_is_never_written() {
        let d = tempfile::tempdir().unwrap();
        let precious = d.path().join("authorized_keys");
        std::fs::write(&precious, "ssh-ed25519 AAAA… me\n").unwrap();
        let at = d.path().join("l");
        std::os::unix::fs::symlink(&precious, &at).unwrap();
        assert!(matches!(take(&at, "watch", Duration::ZERO, |_| true), Err(LockError::Open(_))));
        std::fs::remove_file(&at).unwrap();
        std::fs::hard_link(&precious, &at).unwrap();
        match take(&at, "watch", Duration::ZERO, |_| true) {
            Err(LockError::NotALock(why)) => assert_eq!(why, "it has 2 links"),
            other => panic!("{other:?}"),
        }
        std::fs::remove_file(&at).unwrap();
        std::fs::write(&at, "x".repeat(100)).unwrap();
        assert!(matches!(take(&at, "watch", Duration::ZERO, |_| true), Err(LockError::NotALock(_))));
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "ssh-ed25519 AAAA… me\n");
        assert_eq!(holder(&d.path().join("absent")), None);
        assert!(!d.path().join("absent").exists(), "the probe creates nothing");
    }
}
