//! Where the double may write, and how it writes there.
//!
//! The rule: the double writes its CLI's files (the sessions-registry entry, transcripts) only
//! under a HOME that lies inside the temp folder (`$TMPDIR`, else `/tmp`), is not that folder
//! itself, and is not the home the password database gives this user. Every test world is a
//! temp folder the test made, so its seats' HOMEs pass; a user's home never lies there, and the
//! password database's home is refused even where a temp folder holds it. (Comparing with the
//! password database alone would pass a HOME a CI job points at another real home.) The rule is
//! checked once, before the double execs, draws or writes anything; a double refused exits 2.
//!
//! Invariant: nothing is written through a symbolic link. The folders below a checked base are
//! made one at a time, each checked not to be a link (nor anything but a folder); a file is
//! opened with `O_NOFOLLOW` (and `O_NONBLOCK`, so that a FIFO cannot hang the open) and must be
//! a regular file; a whole file is written to a temp file created `O_EXCL | O_NOFOLLOW` and
//! renamed into place (a rename replaces a link, never follows it).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

use nix::fcntl::OFlag;

/// The sentence for a path that is a symbolic link.
fn link_refused(p: &Path) -> String {
    format!("{} is a symbolic link; refusing to follow it", p.display())
}

/// Refuses `p` when it is a symbolic link (a missing path is fine: it will be created).
pub fn refuse_link(p: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(p)),
        _ => Ok(()),
    }
}

/// The HOME the double writes under, checked against the rule (see the module docs): `home`
/// is `$HOME`, `temp` the temp folder, `passwd` the password database's home of this user.
pub fn checked_home(home: Option<&str>, temp: &Path, passwd: Option<&Path>) -> Result<PathBuf, String> {
    let why = "a fake seat writes its CLI's files under HOME (.claude, .codex) and runs only in a test's own world";
    let home = match home {
        Some(h) if !h.is_empty() => PathBuf::from(h),
        _ => return Err(format!("HOME is not set: {why}; set HOME to a folder inside {}", temp.display())),
    };
    if !home.is_absolute() {
        return Err(format!("HOME {} is not an absolute path: {why}", home.display()));
    }
    let real = home.canonicalize().map_err(|e| format!("HOME {}: {e}", home.display()))?;
    if !real.is_dir() {
        return Err(format!("HOME {} is not a folder", home.display()));
    }
    if let Some(p) = passwd {
        let p = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        if real == p {
            return Err(format!(
                "HOME {} is the password database's home of this user: {why}, never into the user's real one; set HOME to a folder inside {}",
                home.display(),
                temp.display()
            ));
        }
    }
    let temp_real = temp.canonicalize().map_err(|e| format!("the temp folder {}: {e}", temp.display()))?;
    if real == temp_real || !real.starts_with(&temp_real) {
        return Err(format!(
            "HOME {} is not inside the temp folder {}: {why}; set HOME to a folder inside it",
            home.display(),
            temp.display()
        ));
    }
    Ok(real)
}

/// The password database's home of this process's user, if it has an entry.
pub fn passwd_home() -> Option<PathBuf> {
    nix::unistd::User::from_uid(nix::unistd::getuid()).ok().flatten().map(|u| u.dir)
}

/// Makes the folders `rel` below `base` (mode 0700), one at a time, refusing a link or a
/// non-folder on the way; the folder made.
pub fn ensure_dirs(base: &Path, rel: &Path) -> Result<PathBuf, String> {
    let mut p = base.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else {
            return Err(format!("{} is not a plain relative path", rel.display()));
        };
        p.push(name);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => return Err(link_refused(&p)),
            Ok(m) if m.is_dir() => continue,
            Ok(_) => return Err(format!("{} is not a folder", p.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", p.display())),
        }
        match std::fs::DirBuilder::new().mode(0o700).create(&p) {
            Ok(()) => {}
            // made meanwhile: checked again
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let m = std::fs::symlink_metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                if !m.is_dir() {
                    return Err(if m.file_type().is_symlink() {
                        link_refused(&p)
                    } else {
                        format!("{} is not a folder", p.display())
                    });
                }
            }
            Err(e) => return Err(format!("cannot make {}: {e}", p.display())),
        }
    }
    Ok(p)
}

/// Opens `p` with `opts` plus `O_NOFOLLOW | O_NONBLOCK`, and only as a regular file.
fn open_regular(p: &Path, opts: &mut OpenOptions) -> Result<File, String> {
    let f = opts.custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits()).open(p).map_err(|e| {
        if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) {
            link_refused(p)
        } else {
            format!("cannot open {}: {e}", p.display())
        }
    })?;
    let m = f.metadata().map_err(|e| format!("{}: {e}", p.display()))?;
    if !m.is_file() {
        return Err(format!("{} is not a regular file", p.display()));
    }
    Ok(f)
}

/// `p` opened for appending (made, mode `mode`, when missing), never through a link.
pub fn open_append(p: &Path, mode: u32) -> Result<File, String> {
    open_regular(p, OpenOptions::new().append(true).create(true).mode(mode))
}

/// `p` made anew for appending, mode `mode`: it must not exist (not even as a link).
pub fn create_new(p: &Path, mode: u32) -> Result<File, String> {
    open_regular(p, OpenOptions::new().append(true).create_new(true).mode(mode))
}

/// The temp file a whole write of `p` goes through.
pub fn temp_of(p: &Path) -> PathBuf {
    let mut name = p.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    p.with_file_name(name)
}

/// Writes `bytes` as the whole of `p` (mode `mode`): a temp file beside it, created anew
/// (a leftover one is removed first: unlinking a link removes the link), then renamed over `p`.
pub fn write_whole(p: &Path, bytes: &[u8], mode: u32) -> Result<(), String> {
    use std::io::Write;
    let tmp = temp_of(p);
    let mut f = match create_new(&tmp, mode) {
        Ok(f) => f,
        Err(_) => {
            let _ = std::fs::remove_file(&tmp);
            create_new(&tmp, mode)?
        }
    };
    f.write_all(bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    drop(f);
    std::fs::rename(&tmp, p).map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), p.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_inside_the_temp_folder_is_taken_and_any_other_refused() {
        let t = tempfile::tempdir().unwrap();
        let temp = t.path();
        let home = temp.join("world/home");
        std::fs::create_dir_all(&home).unwrap();
        let h = home.to_str().unwrap();
        assert_eq!(checked_home(Some(h), temp, None), Ok(home.canonicalize().unwrap()));
        // the password database's home, even inside the temp folder
        let e = checked_home(Some(h), temp, Some(&home)).unwrap_err();
        assert!(e.contains("is the password database's home"), "{e}");
        // outside the temp folder, the temp folder itself, unset, relative
        let other = tempfile::tempdir().unwrap();
        let e = checked_home(Some(other.path().to_str().unwrap()), temp, None).unwrap_err();
        assert!(e.contains("is not inside the temp folder"), "{e}");
        let e = checked_home(Some(temp.to_str().unwrap()), temp, None).unwrap_err();
        assert!(e.contains("is not inside the temp folder"), "{e}");
        assert!(checked_home(None, temp, None).unwrap_err().starts_with("HOME is not set"));
        assert!(checked_home(Some("world/home"), temp, None).unwrap_err().contains("not an absolute path"));
        // a link inside the temp folder to a home outside it is judged by where it leads
        std::os::unix::fs::symlink(other.path(), temp.join("lnk")).unwrap();
        let e = checked_home(Some(temp.join("lnk").to_str().unwrap()), temp, None).unwrap_err();
        assert!(e.contains("is not inside the temp folder"), "{e}");
    }

    #[test]
    fn folders_are_made_without_following_a_link() {
        let t = tempfile::tempdir().unwrap();
        let base = t.path();
        assert_eq!(ensure_dirs(base, Path::new("a/b")), Ok(base.join("a/b")));
        assert!(base.join("a/b").is_dir());
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), base.join("a/l")).unwrap();
        let e = ensure_dirs(base, Path::new("a/l/c")).unwrap_err();
        assert_eq!(e, format!("{} is a symbolic link; refusing to follow it", base.join("a/l").display()));
        assert!(std::fs::read_dir(elsewhere.path()).unwrap().next().is_none());
        assert!(ensure_dirs(base, Path::new("../x")).is_err());
    }

    #[test]
    fn files_are_never_opened_through_a_link_nor_as_a_fifo() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        std::fs::write(d.join("target"), "keep").unwrap();
        std::os::unix::fs::symlink(d.join("target"), d.join("l")).unwrap();
        let e = open_append(&d.join("l"), 0o600).unwrap_err();
        assert!(e.ends_with("is a symbolic link; refusing to follow it"), "{e}");
        nix::unistd::mkfifo(&d.join("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        // (no reader: the non-blocking open fails at once instead of waiting for one)
        assert!(open_append(&d.join("fifo"), 0o600).is_err());
        // a whole write replaces a planted temp link instead of writing through it
        std::os::unix::fs::symlink(d.join("target"), d.join("w.tmp")).unwrap();
        write_whole(&d.join("w"), b"frame", 0o644).unwrap();
        assert_eq!(std::fs::read_to_string(d.join("w")).unwrap(), "frame");
        assert_eq!(std::fs::read_to_string(d.join("target")).unwrap(), "keep");
        assert!(create_new(&d.join("w"), 0o600).is_err(), "create_new never takes an existing file");
    }
}
