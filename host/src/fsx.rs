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

/// The folder the process stands in (`cwd`, as `getcwd` gives it) as the user's shell names
/// it: `pwd` (the shell's `$PWD`, which `ctx` reads once) when that is an absolute, plain path
/// (no `.` or `..`) to the very same folder (device and inode), else `cwd` made canonical. A
/// folder entered through a symbolic link then keeps its place in the checkout it was entered
/// from — walking up from it reaches that checkout's root, never the link target's parents.
/// `pwd` only picks among names of the folder the process already stands in, so it grants
/// nothing a `cd` would not.
pub fn logical_dir(cwd: &Path, pwd: Option<&Path>) -> PathBuf {
    use std::os::unix::fs::MetadataExt;
    let canon = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let Some(pwd) = pwd else { return canon };
    let plain = pwd.is_absolute()
        && pwd.components().all(|c| matches!(c, std::path::Component::RootDir | std::path::Component::Normal(_)));
    match (plain, fs::metadata(pwd), fs::metadata(&canon)) {
        (true, Ok(a), Ok(b)) if a.dev() == b.dev() && a.ino() == b.ino() => pwd.to_path_buf(),
        _ => canon,
    }
}

/// Where a walk up from `cwd` starts: `cwd` as given when it is absolute and plain (the run's
/// folder always is: `ctx` makes it with [`logical_dir`]), else made canonical.
pub fn walk_start(cwd: &Path) -> PathBuf {
    let plain = cwd.is_absolute()
        && cwd.components().all(|c| matches!(c, std::path::Component::RootDir | std::path::Component::Normal(_)));
    if plain {
        cwd.to_path_buf()
    } else {
        cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf())
    }
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

/// Refuses a folder another user could write into, the way ssh treats its own: one owned by
/// another user, or writable by its group or by others. `Ok` when it is absent.
pub fn check_private(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let m = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(annotate(dir, e)),
    };
    if m.file_type().is_symlink() {
        return Err(refuse(dir, "a symbolic link"));
    }
    let denied = |why: String| io::Error::new(io::ErrorKind::PermissionDenied, why);
    if m.uid() != nix::unistd::getuid().as_raw() {
        return Err(denied(format!(
            "{} is owned by another user (uid {}), who could change what team reads there; refusing to use it (make it yours, or point team at a folder of your own)",
            dir.display(),
            m.uid()
        )));
    }
    let mode = m.mode() & 0o7777;
    if mode & 0o022 != 0 {
        let who = if mode & 0o002 != 0 { "every user" } else { "its group" };
        return Err(denied(format!(
            "{} is writable by {who} (mode {mode:o}), who could plant files team reads there; refusing to use it (repair: chmod 700 {})",
            dir.display(),
            dir.display()
        )));
    }
    Ok(())
}

/// `ensure_dirs`, then every folder from `base` (inclusive) down to the one returned must be
/// private (`check_private`): for the folders `team` keeps its own files in (the state and
/// config folders, the drop folders).
/// Checked before anything is made, so nothing is written into a folder that is refused.
pub fn ensure_private_dirs(base: &Path, rel: &Path, mode: u32) -> io::Result<PathBuf> {
    check_private(base)?;
    let mut cur = base.to_path_buf();
    for c in rel.components() {
        cur.push(c);
        check_private(&cur)?;
    }
    ensure_dirs(base, rel, mode)
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

/// The most any one file is read into memory by [`read_to_string`]; callers reading a kind
/// of file with a smaller bound of its own use [`read_capped`].
pub const READ_MAX: u64 = 16 << 20;

/// The largest team file, `teams.yaml` or history file read.
pub const TEXT_MAX: u64 = 1 << 20;

/// The largest agent record or grant read (one is a few hundred bytes).
pub const RECORD_MAX: u64 = 64 << 10;

/// Reads a whole file, refusing a symlink or FIFO; `Ok(None)` when it does not exist. At most
/// [`READ_MAX`] bytes.
pub fn read_to_string(path: &Path) -> io::Result<Option<String>> {
    read_capped(path, READ_MAX)
}

/// `read_to_string` bounded to `max` bytes: a larger file is refused, naming its size and the
/// bound, without being read (and a file that grows while read is read no further).
pub fn read_capped(path: &Path, max: u64) -> io::Result<Option<String>> {
    if !check_entry(path)? {
        return Ok(None);
    }
    let f = open_regular(path, OpenOptions::new().read(true))?;
    let too_big = |n: u64| {
        let (size, unit) = if max >= 1 << 20 { (max >> 20, "MiB") } else { (max >> 10, "KiB") };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is {n} bytes, more than team reads from a file of its kind ({size} {unit}); refusing to read it",
                path.display()
            ),
        )
    };
    let len = f.metadata().map_err(|e| annotate(path, e))?.len();
    if len > max {
        return Err(too_big(len));
    }
    let mut buf = Vec::new();
    f.take(max + 1).read_to_end(&mut buf).map_err(|e| annotate(path, e))?;
    if buf.len() as u64 > max {
        return Err(too_big(buf.len() as u64));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("{} is not UTF-8 text", path.display())))
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

/// Rewrites a file the user keeps (the team file) whole, with the mode it has: a temp file
/// beside it holding `bytes`, given exactly that mode on its own descriptor (the umask
/// cannot narrow it), fsync, rename. Only a regular file is rewritten: a link, a FIFO or a
/// missing file is refused.
pub fn rewrite_keeping_mode(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !check_entry(path)? {
        return Err(annotate(path, io::Error::from(io::ErrorKind::NotFound)));
    }
    let meta = fs::symlink_metadata(path).map_err(|e| annotate(path, e))?;
    let mode = meta.permissions().mode() & 0o777;
    // a file of another user, or one its owner made read-only, is not ours to replace — even
    // for root, whom the rename would let (it would leave a root-owned copy, or undo a choice)
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} belongs to another user (uid {}); team rewrites only the files of the user it runs as",
                path.display(),
                meta.uid()
            ),
        ));
    }
    if mode & 0o200 == 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is read-only (mode {mode:04o}); team does not rewrite it: make it writable first if it should change", path.display()),
        ));
    }
    let tmp = write_temp_with(path, bytes, mode, Some(fs::Permissions::from_mode(mode)))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        annotate(path, e)
    })
}

/// A complete, synced temp file beside `path` (created with `mode`, never following a link).
fn write_temp(path: &Path, bytes: &[u8], mode: u32) -> io::Result<PathBuf> {
    write_temp_with(path, bytes, mode, None)
}

/// `write_temp`, the temp file's permissions set on its descriptor to `exact` when given.
fn write_temp_with(path: &Path, bytes: &[u8], mode: u32, exact: Option<fs::Permissions>) -> io::Result<PathBuf> {
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
    let exact = match exact {
        Some(p) => f.set_permissions(p),
        None => Ok(()),
    };
    if let Err(e) = exact.and_then(|_| f.write_all(bytes)).and_then(|_| f.sync_all()) {
        drop(f);
        let _ = fs::remove_file(&tmp);
        return Err(annotate(path, e));
    }
    Ok(tmp)
}

/// How old a temp file of a live process may be before it is taken for a leftover anyway
/// (a pid can be reused; no write takes this long).
const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temp files `write_temp` left in `dir` when their writer died mid-write (killed
/// between creating and renaming): `.<name>.tmp.<pid>.<32 hex>` regular files whose pid no
/// longer runs, or that are older than an hour. Anything else is left alone; errors are
/// ignored (a sweep is housekeeping, never a reason to stop).
pub fn sweep_stale_temps(dir: &Path) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temp_writer(&name) else { continue };
        let Ok(m) = fs::symlink_metadata(e.path()) else { continue };
        if !m.file_type().is_file() {
            continue;
        }
        let old = m.modified().ok().and_then(|t| t.elapsed().ok()).is_some_and(|age| age > STALE_TEMP);
        let dead = !Path::new(&format!("/proc/{pid}")).exists();
        if (dead || old) && pid != std::process::id() {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The writer's pid when `name` is one of `write_temp`'s names.
fn temp_writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (head, uuid) = rest.rsplit_once('.')?;
    let (head, pid) = head.rsplit_once('.')?;
    if !head.ends_with(".tmp") || uuid.len() != 32 || !uuid.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    pid.parse().ok()
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

/// Whether `dir` is a git checkout's root: its `.git` is a file (a worktree's or a
/// submodule's `gitdir:` link) or a folder holding `HEAD`. An empty `.git` folder is none:
/// Codex's sandbox leaves one behind in every folder it makes writable (it mounts over
/// `<root>/.git` so a command cannot create it; docs/offline-vendor-clis.md), `/tmp` too.
pub fn is_checkout_root(dir: &Path) -> bool {
    let git = dir.join(".git");
    match std::fs::metadata(&git) {
        Ok(m) if m.is_file() => true,
        Ok(m) if m.is_dir() => git.join("HEAD").exists(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_checkout_root_has_a_real_git_and_an_empty_one_left_by_a_sandbox_is_none() {
        let d = tempfile::tempdir().unwrap();
        let (empty, repo, linked) = (d.path().join("tmp"), d.path().join("repo"), d.path().join("worktree"));
        fs::create_dir_all(empty.join(".git")).unwrap();
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        fs::create_dir_all(&linked).unwrap();
        fs::write(linked.join(".git"), "gitdir: /elsewhere/.git/worktrees/w\n").unwrap();
        assert!(!is_checkout_root(&empty), "an empty .git folder (Codex's sandbox leaves one in /tmp)");
        assert!(is_checkout_root(&repo));
        assert!(is_checkout_root(&linked), "a worktree's .git file");
        assert!(!is_checkout_root(d.path()));
    }

    use super::*;

    #[test]
    fn the_shell_s_name_of_the_folder_counts_only_when_it_names_this_folder() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().canonicalize().unwrap().join("repo");
        fs::create_dir_all(real.join("sub")).unwrap();
        let link = real.parent().unwrap().join("linked");
        std::os::unix::fs::symlink(real.join("sub"), &link).unwrap();
        let here = real.join("sub");
        // the link the user entered by names this very folder: kept
        assert_eq!(logical_dir(&here, Some(&link)), link);
        // no name, another folder's name, a relative or a dotted name: the canonical path
        assert_eq!(logical_dir(&here, None), here);
        assert_eq!(logical_dir(&here, Some(&real)), here);
        assert_eq!(logical_dir(&here, Some(Path::new("linked"))), here);
        assert_eq!(logical_dir(&here, Some(&link.join("..").join("linked"))), here);
        // a walk starts from a plain absolute folder as given, anything else made canonical
        assert_eq!(walk_start(&link), link);
        assert_eq!(walk_start(&link.join("..").join("sub")), here);
    }
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_rewrite_keeps_the_files_mode_whatever_the_umask() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("team.yaml");
        fs::write(&p, "a\n").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o666)).unwrap();
        // (a test process's umask is 022 or 002: a plain create would drop a write bit)
        rewrite_keeping_mode(&p, b"b\n").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "b\n");
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o666);
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        rewrite_keeping_mode(&p, b"c\n").unwrap();
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        let leftovers: Vec<_> = fs::read_dir(d.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(leftovers.len(), 1, "no temp file left: {leftovers:?}");
        // a link or a missing file is not rewritten
        std::os::unix::fs::symlink(&p, d.path().join("link.yaml")).unwrap();
        assert!(rewrite_keeping_mode(&d.path().join("link.yaml"), b"x")
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));
        assert!(rewrite_keeping_mode(&d.path().join("none.yaml"), b"x").is_err());
        assert_eq!(fs::read_to_string(&p).unwrap(), "c\n");
    }

    /// issue 29: run as root, an install replaced another user's file with a root-owned copy and
    /// rewrote a read-only one. Neither is rewritten now, and each says why.
    #[test]
    fn another_user_s_file_and_a_read_only_one_are_not_rewritten() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let ro = d.path().join("settings.json");
        fs::write(&ro, "{}\n").unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
        let e = rewrite_keeping_mode(&ro, b"x").unwrap_err().to_string();
        assert!(
            e.ends_with(
                "is read-only (mode 0444); team does not rewrite it: make it writable first if it should change"
            ),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&ro).unwrap(), "{}\n");
        let theirs = d.path().join("theirs.json");
        fs::write(&theirs, "{}\n").unwrap();
        // another user's file can be made only by root (which the tests run as here and in CI)
        let nobody = nix::unistd::Uid::from_raw(65534);
        nix::unistd::chown(&theirs, Some(nobody), None).expect("the tests run as root: chown to nobody");
        let e = rewrite_keeping_mode(&theirs, b"x").unwrap_err().to_string();
        assert!(
            e.ends_with("belongs to another user (uid 65534); team rewrites only the files of the user it runs as"),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&theirs).unwrap(), "{}\n");
        use std::os::unix::fs::MetadataExt;
        assert_eq!(fs::metadata(&theirs).unwrap().uid(), 65534, "still theirs");
    }

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
    fn a_read_is_bounded() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        fs::write(&p, "x".repeat(2000)).unwrap();
        assert_eq!(read_capped(&p, 2000).unwrap().unwrap().len(), 2000);
        let e = read_capped(&p, 1024).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is 2000 bytes, more than team reads from a file of its kind (1 KiB); refusing to read it",
                p.display()
            )
        );
        assert!(read_capped(&d.path().join("none"), 10).unwrap().is_none());
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
    fn stale_temp_files_are_swept_and_live_ones_kept() {
        let d = tempfile::tempdir().unwrap();
        let uuid = "0123456789abcdef0123456789abcdef";
        // a pid that cannot run (above pid_max), ours, and a name that is not a temp file
        let dead = d.path().join(format!(".id.tmp.4294967.{uuid}"));
        let live = d.path().join(format!(".id.tmp.{}.{uuid}", std::process::id()));
        let other = d.path().join(".id.tmp.notes");
        for p in [&dead, &live, &other] {
            fs::write(p, "x").unwrap();
        }
        sweep_stale_temps(d.path());
        assert!(!dead.exists());
        assert!(live.exists() && other.exists());
        assert_eq!(temp_writer(&format!(".a.b.tmp.12.{uuid}")), Some(12));
    }

    #[test]
    fn a_folder_others_can_write_is_not_private() {
        let d = tempfile::tempdir().unwrap();
        let loose = d.path().join("loose");
        fs::create_dir(&loose).unwrap();
        fs::set_permissions(&loose, fs::Permissions::from_mode(0o777)).unwrap();
        let e = ensure_private_dirs(&loose, Path::new("a"), 0o700).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{0} is writable by every user (mode 777), who could plant files team reads there; refusing to use it (repair: chmod 700 {0})",
                loose.display()
            )
        );
        assert!(!loose.join("a").exists(), "nothing is made in a folder that is refused");
        fs::set_permissions(&loose, fs::Permissions::from_mode(0o770)).unwrap();
        assert!(check_private(&loose).unwrap_err().to_string().contains("writable by its group (mode 770)"));
        fs::set_permissions(&loose, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(ensure_private_dirs(&loose, Path::new("a"), 0o700).is_ok());
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
