//! One watch per project: `<state>/watch/<project>-<hash8>.lock`, an flock the running watch
//! holds for its whole life, naming its holder (`watch <pid>`), and the probe a send asks
//! whether a watch runs for the receiving project.
//!
//! Invariants: the lock's name is the history folder's (`history::project_dir_name`), so a
//! watch and a send of one checkout always agree on it; the probe creates nothing and never
//! keeps a lock (a shared try, released at once), and a watch starting beside a probe waits out
//! that instant instead of refusing; a second watch is refused naming the process that holds it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::lockfile::{self, Held, LockError};

/// The held project lock; dropping it releases it.
#[derive(Debug)]
pub struct ProjectLock {
    _held: Held,
    pub path: PathBuf,
}

/// Who holds a project's lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
}

/// How long a starting watch retries a lock it finds taken before it says who holds it: a
/// send's probe holds it shared for an instant.
const START_WAIT: Duration = Duration::from_millis(500);

/// `<state>/watch/<project>-<hash8>.lock`.
pub fn lock_path(state: &Path, project: &str, root: &Path) -> PathBuf {
    state.join("watch").join(format!("{}.lock", crate::history::project_dir_name(project, root)))
}

/// A watch's pid, when the line names a watch.
fn watch_of(h: &lockfile::Holder) -> Option<Holder> {
    (h.kind.as_deref() == Some("watch")).then_some(())?;
    Some(Holder { pid: h.pid? })
}

/// Why a watch did not take its project's lock.
#[derive(Debug, thiserror::Error)]
pub enum NotTaken {
    #[error("the watch lock folder could not be made: {0}")]
    NoFolder(std::io::Error),
    /// The lock file could not be opened (a link, a FIFO, an I/O error).
    #[error("{0}")]
    Open(std::io::Error),
    #[error("{} is not a watch lock ({why}); refusing to use it", path.display())]
    NotALock { path: PathBuf, why: String },
    /// Another watch runs for the project (its pid, when the lock names a watch).
    #[error("another team watch{} is watching this project", pid.map(|p| format!(" (pid {p})")).unwrap_or_default())]
    Watched { pid: Option<u32> },
    #[error("{}: {error}", path.display())]
    Take { path: PathBuf, error: std::io::Error },
}

/// Takes the project's watch lock, or says which process holds it.
pub fn acquire(state: &Path, project: &str, root: &Path) -> Result<ProjectLock, NotTaken> {
    let path = lock_path(state, project, root);
    let dir = crate::fsx::ensure_dirs(state, Path::new("watch"), 0o700).map_err(NotTaken::NoFolder)?;
    debug_assert_eq!(Some(dir.as_path()), path.parent());
    match lockfile::take(&path, "watch", START_WAIT, |_| true) {
        Ok(held) => Ok(ProjectLock { _held: held, path }),
        Err(LockError::Open(e)) => Err(NotTaken::Open(e)),
        Err(LockError::NotALock(why)) => Err(NotTaken::NotALock { path, why }),
        Err(LockError::Busy(h)) => Err(NotTaken::Watched { pid: watch_of(&h).map(|h| h.pid) }),
        Err(LockError::Take(error)) => Err(NotTaken::Take { path, error }),
    }
}

/// The running watch of a project, when there is one. Creates nothing; holds nothing.
pub fn running(state: &Path, project: &str, root: &Path) -> Option<Holder> {
    let h = lockfile::holder(&lock_path(state, project, root))?;
    Some(watch_of(&h).unwrap_or(Holder { pid: 0 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_watch_per_project_and_a_send_sees_it() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        assert_eq!(running(d.path(), "beacon", &root), None);
        assert!(!d.path().join("watch").exists(), "the probe creates nothing");
        let held = acquire(d.path(), "beacon", &root).unwrap();
        assert_eq!(running(d.path(), "beacon", &root), Some(Holder { pid: std::process::id() }));
        let e = acquire(d.path(), "beacon", &root).unwrap_err();
        assert!(matches!(e, NotTaken::Watched { pid: Some(p) } if p == std::process::id()));
        assert_eq!(e.to_string(), format!("another team watch (pid {}) is watching this project", std::process::id()));
        // another project is another lock
        let other = acquire(d.path(), "api", &root).unwrap();
        drop(held);
        assert_eq!(running(d.path(), "beacon", &root), None);
        assert!(acquire(d.path(), "beacon", &root).is_ok());
        drop(other);
    }

    #[test]
    fn a_link_at_the_lock_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("repo");
        let path = lock_path(d.path(), "beacon", &root);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(d.path().join("elsewhere"), &path).unwrap();
        assert!(acquire(d.path(), "beacon", &root).unwrap_err().to_string().contains("symbolic link"));
        assert_eq!(running(d.path(), "beacon", &root), None);
        assert!(!d.path().join("elsewhere").exists());
        // a hard link to another file is never truncated or written
        std::fs::remove_file(&path).unwrap();
        std::fs::write(d.path().join("elsewhere"), "keep\n").unwrap();
        std::fs::hard_link(d.path().join("elsewhere"), &path).unwrap();
        assert!(acquire(d.path(), "beacon", &root)
            .unwrap_err()
            .to_string()
            .contains("is not a watch lock (it has 2 links)"));
        assert_eq!(std::fs::read_to_string(d.path().join("elsewhere")).unwrap(), "keep\n");
    }
}
