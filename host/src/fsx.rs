//! Files the host writes and reads safely: created with their mode (never chmod after),
//! opened only as regular files (`open_regular`: O_NOFOLLOW, never a FIFO), whole-file
//! writes by temp + fsync + rename.
//!
//! Invariant: a symbolic link or FIFO anywhere on the ladder from a trusted base down to the
//! file is refused, never followed. Every function here returns an `io::Error` whose message
//! names the offending path; callers turn it into a refusal.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

fn refuse(path: &Path, what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{} is {what}; refusing to follow it", path.display()))
}

/// Checks one existing path entry: a symlink or FIFO is refused; `Ok(false)` when absent.
pub fn check_entry(path: &Path) -> io::Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(m) => {
            let t = m.file_type();
            if t.is_symlink() {
                Err(refuse(path, "a symbolic link"))
            } else if t.is_fifo() {
                Err(refuse(path, "a FIFO"))
            } else {
                Ok(true)
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Checks every entry from `base` (inclusive) down to `path` (inclusive) that exists.
pub fn check_ladder(base: &Path, path: &Path) -> io::Result<()> {
    check_entry(base)?;
    let rel = path.strip_prefix(base).unwrap_or(path);
    let mut cur = base.to_path_buf();
    for c in rel.components() {
        cur.push(c);
        if !check_entry(&cur)? {
            break;
        }
    }
    Ok(())
}

/// Creates `base/rel` and every missing directory between, each with `mode`; an existing
/// symlink, FIFO or non-directory on the way is refused. `base` itself is created (with
/// its parents, mode `mode`) when missing.
pub fn ensure_dirs(base: &Path, rel: &Path, mode: u32) -> io::Result<PathBuf> {
    if !check_entry(base)? {
        fs::DirBuilder::new().recursive(true).mode(mode).create(base).map_err(|e| annotate(base, e))?;
    }
    let mut cur = base.to_path_buf();
    for c in rel.components() {
        cur.push(c);
        match fs::DirBuilder::new().mode(mode).create(&cur) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                check_entry(&cur)?;
                if !fs::symlink_metadata(&cur)?.is_dir() {
                    return Err(refuse(&cur, "not a directory"));
                }
            }
            Err(e) => return Err(annotate(&cur, e)),
        }
    }
    Ok(cur)
}

/// Opens `path` as `opts` says, and only as a regular file: a symbolic link or FIFO at it is
/// refused before the open (by name) and cannot be slipped in after that check either — the
/// open never follows a link (`O_NOFOLLOW`) nor waits on a FIFO (`O_NONBLOCK`), and what was
/// opened is checked again (`fstat`) before it is handed out. Every file the host reads or
/// appends to, or locks, is opened here.
pub fn open_regular(path: &Path, opts: &OpenOptions) -> io::Result<File> {
    check_entry(path)?;
    let mut opts = opts.clone();
    let f =
        opts.custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK).open(path).map_err(|e| annotate(path, e))?;
    let t = f.metadata().map_err(|e| annotate(path, e))?.file_type();
    if t.is_fifo() {
        return Err(refuse(path, "a FIFO"));
    }
    if !t.is_file() {
        return Err(refuse(path, "not a regular file"));
    }
    Ok(f)
}

/// Opens `path` for appending (created with `mode`), refusing a symlink or FIFO at it.
pub fn open_append(path: &Path, mode: u32) -> io::Result<File> {
    open_regular(path, OpenOptions::new().append(true).create(true).mode(mode))
}

/// Reads a whole file, refusing a symlink or FIFO; `Ok(None)` when it does not exist.
pub fn read_to_string(path: &Path) -> io::Result<Option<String>> {
    if !check_entry(path)? {
        return Ok(None);
    }
    let mut f = open_regular(path, OpenOptions::new().read(true))?;
    let mut s = String::new();
    f.read_to_string(&mut s).map_err(|e| annotate(path, e))?;
    Ok(Some(s))
}

/// Writes `bytes` to `path` whole: a temp file beside it created with `mode`, fsync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    check_entry(path)?;
    let tmp = write_temp(path, bytes, mode)?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        annotate(path, e)
    })
}

/// A complete, synced temp file beside `path` (created with `mode`, never following a link).
fn write_temp(path: &Path, bytes: &[u8], mode: u32) -> io::Result<PathBuf> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A random name, never a message id: a temp file must not advance the (test-seeded) id
    // sequence, or which ids a run prints would depend on whether a cache was warm.
    let tmp = dir.join(format!(".{name}.tmp.{}.{}", std::process::id(), uuid::Uuid::new_v4().simple()));
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&tmp)
        .map_err(|e| annotate(&tmp, e))?;
    if let Err(e) = f.write_all(bytes).and_then(|_| f.sync_all()) {
        drop(f);
        let _ = fs::remove_file(&tmp);
        return Err(annotate(path, e));
    }
    Ok(tmp)
}

/// Like `write_atomic`, but never replaces a file already at `path`: the whole file appears
/// at once (hard link of a complete temp file) or the call fails with `AlreadyExists`.
pub fn write_new(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let tmp = write_temp(path, bytes, mode)?;
    let res = fs::hard_link(&tmp, path);
    let _ = fs::remove_file(&tmp);
    res.map_err(|e| annotate(path, e))
}

fn annotate(path: &Path, e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(nix::libc::ELOOP) {
        return refuse(path, "a symbolic link");
    }
    if let Some(why) = sandboxed(&e) {
        return io::Error::new(e.kind(), format!("{} {why}", path.display()));
    }
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The sentence for a write a sandbox refused: a read-only file system where the folder is
/// the user's own (an agent's sandbox re-mounts it read-only), or a permission refused on a
/// folder `team` made. `None` for every other error. Said in the project's words, with the
/// way out (`docs/agents.md` tells each vendor's setting).
pub fn sandboxed(e: &io::Error) -> Option<&'static str> {
    match e.raw_os_error() {
        Some(nix::libc::EROFS) => Some(
            "is read-only here: a sandbox is in the way (run `team send` outside the agent's sandbox; see docs/agents.md)",
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_read_only_file_system_is_named_as_a_sandbox() {
        let e = annotate(Path::new("/x/.agents"), io::Error::from_raw_os_error(nix::libc::EROFS));
        assert_eq!(
            e.to_string(),
            "/x/.agents is read-only here: a sandbox is in the way (run `team send` outside the agent's sandbox; see docs/agents.md)"
        );
        let e = annotate(Path::new("/x/f"), io::Error::from_raw_os_error(nix::libc::ENOSPC));
        assert!(e.to_string().starts_with("/x/f: "), "{e}");
    }

    #[test]
    fn atomic_write_sets_mode_and_refuses_symlink() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        write_atomic(&p, b"x", 0o600).unwrap();
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        let l = d.path().join("l");
        std::os::unix::fs::symlink(&p, &l).unwrap();
        assert!(write_atomic(&l, b"y", 0o600).is_err());
        assert!(open_append(&l, 0o600).is_err());
        assert!(read_to_string(&l).is_err());
    }

    #[test]
    fn only_a_regular_file_is_opened() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        fs::write(&f, "x").unwrap();
        assert!(open_regular(&f, OpenOptions::new().read(true)).is_ok());
        let fifo = d.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let e = open_regular(&fifo, OpenOptions::new().read(true)).unwrap_err();
        assert!(e.to_string().ends_with("is a FIFO; refusing to follow it"), "{e}");
        let e = open_regular(d.path(), OpenOptions::new().read(true)).unwrap_err();
        assert!(e.to_string().ends_with("is not a regular file; refusing to follow it"), "{e}");
        let link = d.path().join("l");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        let e = open_regular(&link, OpenOptions::new().read(true)).unwrap_err();
        assert!(e.to_string().ends_with("is a symbolic link; refusing to follow it"), "{e}");
    }

    #[test]
    fn write_new_never_replaces_a_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        write_new(&p, b"one", 0o600).unwrap();
        let e = write_new(&p, b"two", 0o600).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1, "no temp file left behind");
    }

    #[test]
    fn ensure_dirs_refuses_symlinked_rung() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, d.path().join("a")).unwrap();
        assert!(ensure_dirs(d.path(), Path::new("a/b"), 0o700).is_err());
        let made = ensure_dirs(d.path(), Path::new("x/y"), 0o700).unwrap();
        assert_eq!(fs::metadata(&made).unwrap().permissions().mode() & 0o777, 0o700);
    }
}
