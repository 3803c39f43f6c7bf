//! The team file's edit lock: `<state>/file-locks/team-<16 hex digits of the file's path's
//! SHA-256>`, an flock a command that rewrites the team file (`team rename`) holds from the
//! read of the text it edits to the write of the edited text — so two such edits never
//! interleave, and neither writes over the other.
//!
//! Invariants: the lock's path is built from a digest (never from a word of the file); the file
//! is opened as every lock is (`fsx::open_regular`: no link, no FIFO, not truncated) and written
//! only while it is a lock of ours (one link, a few bytes); a holder is waited on up to a bound
//! and named when the wait ends, never waited on forever. The lock keeps out commands of
//! `team`; a hand edit takes no lock, so the editing command still compares the file with the
//! text it read before it writes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::lockfile::{self, Held, LockError};

/// The held lock; dropping it (closing the file) releases it.
pub struct EditLock {
    _held: Held,
}

/// How long an edit waits for another command editing the same file.
pub const WAIT: Duration = Duration::from_secs(30);

/// Where the lock of the team file at `path` lives under `state`.
pub fn path_of(state: &Path, path: &Path) -> PathBuf {
    let digest = crate::profiles::cache::sha256_hex(path.as_os_str().as_encoded_bytes());
    state.join("file-locks").join(format!("team-{}", &digest[..16]))
}

/// Why the edit lock was not taken (the caller says what was not done).
#[derive(Debug, thiserror::Error)]
pub enum EditLockError {
    #[error("the team file's lock folder could not be made ({0})")]
    Folder(std::io::Error),
    #[error("the team file's lock could not be opened ({0})")]
    Open(std::io::Error),
    #[error("{} is not a lock of team's (another owner, a link or content); refusing to use it", lock.display())]
    NotALock { lock: PathBuf },
    /// Another command held it past the wait.
    #[error(
        "another team {kind} (pid {pid}) has been editing {} for {secs} s (its lock {})",
        path.display(),
        lock.display()
    )]
    Busy { kind: String, pid: String, path: PathBuf, secs: u64, lock: PathBuf },
    #[error("the team file's lock {} could not be taken ({error})", lock.display())]
    Take { lock: PathBuf, error: std::io::Error },
}

/// Takes the edit lock of the team file at `path` for `kind` (`rename`), waiting up to `wait`
/// for a command that holds it.
pub fn lock(state: &Path, path: &Path, kind: &str, wait: Duration) -> Result<EditLock, EditLockError> {
    let dir = crate::fsx::ensure_private_dirs(state, Path::new("file-locks"), 0o700).map_err(EditLockError::Folder)?;
    let lock = path_of(state, path);
    debug_assert!(lock.starts_with(&dir));
    match lockfile::take(&lock, kind, wait, |_| true) {
        Ok(held) => Ok(EditLock { _held: held }),
        Err(LockError::Open(e)) => Err(EditLockError::Open(e)),
        Err(LockError::NotALock(_)) => Err(EditLockError::NotALock { lock }),
        Err(LockError::Busy(h)) => Err(EditLockError::Busy {
            kind: h.kind.as_deref().unwrap_or("command").to_string(),
            pid: h.pid_word(),
            path: path.to_path_buf(),
            secs: wait.as_secs(),
            lock,
        }),
        Err(LockError::Take(error)) => Err(EditLockError::Take { lock, error }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_at_a_time_and_the_holder_is_named() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("repo/.agents/team.yaml");
        let held = lock(d.path(), &file, "rename", Duration::ZERO).unwrap();
        let e = lock(d.path(), &file, "rename", Duration::from_millis(30)).err().unwrap().to_string();
        assert!(
            e.starts_with(&format!(
                "another team rename (pid {}) has been editing {} for 0 s (its lock ",
                std::process::id(),
                file.display()
            )),
            "{e}"
        );
        // another file's lock is another lock
        let _other = lock(d.path(), &d.path().join("b/.agents/team.yaml"), "rename", Duration::ZERO).unwrap();
        drop(held);
        let _again = lock(d.path(), &file, "rename", Duration::ZERO).unwrap();
        assert_eq!(std::fs::metadata(path_of(d.path(), &file)).unwrap().len(), crate::lockfile::HOLDER_BYTES as u64);
    }

    #[test]
    fn a_link_or_a_planted_file_at_the_lock_is_refused_and_never_written() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("team.yaml");
        let at = path_of(d.path(), &file);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let precious = d.path().join("authorized_keys");
        std::fs::write(&precious, "ssh-ed25519 AAAA… me\n").unwrap();
        std::os::unix::fs::symlink(&precious, &at).unwrap();
        let e = lock(d.path(), &file, "rename", Duration::ZERO).err().unwrap().to_string();
        assert!(e.contains("is a symbolic link; refusing to follow it"), "{e}");
        std::fs::remove_file(&at).unwrap();
        std::fs::hard_link(&precious, &at).unwrap();
        let e = lock(d.path(), &file, "rename", Duration::ZERO).err().unwrap().to_string();
        assert!(e.ends_with("is not a lock of team's (another owner, a link or content); refusing to use it"), "{e}");
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "ssh-ed25519 AAAA… me\n");
    }
}
