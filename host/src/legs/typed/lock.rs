//! The seat lock: `<state>/seat-locks/<session>/<seat>`, an flock held for the whole typed
//! send so two sends never type into one pane at once, and a launch of the seat cannot act
//! beside a send.
//!
//! Invariants: the path is built only from a session and seat that follow their grammars
//! (`names`), under the state folder; the file is opened without truncating and without
//! following a link, and written only when it is a seat lock (a regular file of ours with
//! one link and a few bytes), so no lock can ever change another file. It names its holder
//! (kind, pid) while it is held, so a waiter can say who holds it; a lock held by a send (or
//! by a command of the waiter's own kind) is waited on, up to the waiter's bound, never
//! forever — a send holds it for one delivery, so a rename waits out a send briefly rather than
//! refusing — and one held by another kind of command (a launch, a rename) is refused at once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::lockfile::{self, Held, LockError};

/// The held lock; dropping it (closing the file) releases it.
pub struct SeatLock {
    _held: Held,
}

/// How long a send waits for another send to the same seat before it refuses.
pub const LOCK_WAIT_MS: u64 = 120_000;

/// Why the seat lock was not taken. The sentence stops before what was not done: the caller
/// adds it (`; nothing was sent`, `; nothing was renamed`) — the lock is taken before anything.
#[derive(Debug, thiserror::Error)]
pub enum SeatLockError {
    /// The session or seat breaks the name rule (`names::check`'s sentence).
    #[error("the seat lock cannot be named: {0}")]
    BadName(String),
    #[error("the seat lock's folder could not be made ({0})")]
    Folder(std::io::Error),
    #[error("the seat lock could not be opened ({0})")]
    Open(std::io::Error),
    #[error("{} is not a seat lock ({why}); refusing to use it", path.display())]
    NotALock { path: PathBuf, why: String },
    /// Held by a command this one does not wait on (a launch, a rename).
    #[error("the seat lock {} is held by team {kind} (pid {pid})", path.display())]
    HeldBy { path: PathBuf, kind: String, pid: String },
    /// Held past the wait.
    #[error("another team {kind} (pid {pid}) has held the seat lock {} for {secs} s", path.display())]
    HeldTooLong { path: PathBuf, kind: String, pid: String, secs: u64 },
    #[error("the seat lock {} could not be taken ({error})", path.display())]
    Take { path: PathBuf, error: std::io::Error },
}

/// Takes the seat lock under `state` (the state dir) for `kind` (`send`, `rename`), waiting
/// up to `wait` behind a send (or another command of the same kind).
pub fn lock_seat(
    state: &Path,
    session: &str,
    seat: &str,
    kind: &str,
    wait: Duration,
) -> Result<SeatLock, SeatLockError> {
    // The names were checked when their files were read; a lock path is still never built
    // from anything else.
    crate::vocab::names::check(crate::vocab::names::Kind::Session, session)
        .and_then(|()| crate::vocab::names::check(crate::vocab::names::Kind::Seat, seat))
        .map_err(SeatLockError::BadName)?;
    let dir = crate::fsx::ensure_private_dirs(state, &Path::new("seat-locks").join(session), 0o700)
        .map_err(SeatLockError::Folder)?;
    let path = dir.join(seat);
    // An unnamed holder is one between taking the lock and naming itself: waited on.
    let waits_on = |h: &lockfile::Holder| h.kind.as_deref().is_none_or(|k| k == kind || k == "send");
    let holder = |h: &lockfile::Holder| (h.kind.clone().unwrap_or_else(|| kind.to_string()), h.pid_word());
    match lockfile::take(&path, kind, wait, waits_on) {
        Ok(held) => Ok(SeatLock { _held: held }),
        Err(LockError::Open(e)) => Err(SeatLockError::Open(e)),
        Err(LockError::NotALock(why)) => Err(SeatLockError::NotALock { path, why }),
        Err(LockError::Busy(h)) if !waits_on(&h) => {
            let (kind, pid) = holder(&h);
            Err(SeatLockError::HeldBy { path, kind, pid })
        }
        Err(LockError::Busy(h)) => {
            let (kind, pid) = holder(&h);
            Err(SeatLockError::HeldTooLong { path, kind, pid, secs: wait.as_secs() })
        }
        Err(LockError::Take(error)) => Err(SeatLockError::Take { path, error }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal as a send says it.
    fn as_a_send_says(e: SeatLockError) -> String {
        format!("{e}; nothing was sent")
    }

    #[test]
    fn a_second_lock_waits_and_names_its_holder() {
        let d = tempfile::tempdir().unwrap();
        let lock = |kind, ms| lock_seat(d.path(), "s", "a", kind, Duration::from_millis(ms));
        let held = lock("send", 10).unwrap();
        let e = lock("send", 50).err().map(as_a_send_says).unwrap();
        assert!(e.contains("another team send") && e.contains(&std::process::id().to_string()), "{e}");
        drop(held);
        let _l = lock("launch", 10).unwrap();
        let e = lock("send", 500).err().map(as_a_send_says).unwrap();
        assert!(e.starts_with("the seat lock ") && e.contains("/seat-locks/s/a is held by team launch"), "{e}");
        assert!(e.ends_with("; nothing was sent"), "{e}");
    }

    #[test]
    fn a_rename_waits_behind_a_send_and_takes_the_lock_once_it_is_free() {
        let d = tempfile::tempdir().unwrap();
        let held = lock_seat(d.path(), "s", "a", "send", Duration::ZERO).unwrap();
        // behind a send, a rename waits its bound, then names the send
        let e = lock_seat(d.path(), "s", "a", "rename", Duration::from_millis(50)).err().map(as_a_send_says).unwrap();
        assert!(
            e.starts_with(&format!("another team send (pid {}) has held the seat lock ", std::process::id())),
            "{e}"
        );
        // and takes it as soon as the send lets go
        let waiter = {
            let dir = d.path().to_path_buf();
            std::thread::spawn(move || lock_seat(&dir, "s", "a", "rename", Duration::from_secs(60)).map(|_| ()))
        };
        drop(held);
        waiter.join().unwrap().unwrap();
        // a send meets a rename's lock with a refusal at once
        let _r = lock_seat(d.path(), "s", "a", "rename", Duration::ZERO).unwrap();
        let e = lock_seat(d.path(), "s", "a", "send", Duration::from_secs(60)).err().map(as_a_send_says).unwrap();
        assert!(e.contains("/seat-locks/s/a is held by team rename"), "{e}");
    }

    #[test]
    fn a_link_at_the_lock_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("seat-locks/s");
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(d.path().join("elsewhere"), dir.join("a")).unwrap();
        let e = lock_seat(d.path(), "s", "a", "send", Duration::from_millis(10)).err().map(as_a_send_says).unwrap();
        assert!(e.ends_with("is a symbolic link; refusing to follow it); nothing was sent"), "{e}");
        assert!(e.starts_with("the seat lock could not be opened ("), "{e}");
        assert!(!d.path().join("elsewhere").exists());
    }

    #[test]
    fn a_file_that_is_not_a_lock_is_never_written() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("seat-locks/s");
        std::fs::create_dir_all(&dir).unwrap();
        // a hard link to a file of the user's, and a file with content
        let precious = d.path().join("authorized_keys");
        std::fs::write(&precious, "ssh-ed25519 AAAA… me\n").unwrap();
        std::fs::hard_link(&precious, dir.join("a")).unwrap();
        let e = lock_seat(d.path(), "s", "a", "send", Duration::from_millis(10)).err().map(as_a_send_says).unwrap();
        assert!(e.ends_with("is not a seat lock (it has 2 links); refusing to use it; nothing was sent"), "{e}");
        std::fs::write(dir.join("b"), "x".repeat(100)).unwrap();
        let e = lock_seat(d.path(), "s", "b", "send", Duration::from_millis(10)).err().map(as_a_send_says).unwrap();
        assert!(e.contains("(it holds 100 bytes)"), "{e}");
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "ssh-ed25519 AAAA… me\n");
        // names outside their grammar never make a path
        let e = lock_seat(d.path(), "../..", "a", "send", Duration::from_millis(10)).err().map(as_a_send_says).unwrap();
        assert!(e.starts_with("the seat lock cannot be named: session \"../..\""), "{e}");
        // a lock is reused without ever growing
        for _ in 0..3 {
            drop(lock_seat(d.path(), "s", "c", "send", Duration::from_millis(10)).unwrap());
        }
        assert_eq!(std::fs::metadata(dir.join("c")).unwrap().len(), crate::lockfile::HOLDER_BYTES as u64);
    }
}
