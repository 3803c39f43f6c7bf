//! What a team's sends leave behind, and the other records `team feed` reads beside them.
//!
//! Owns `<config>/<project>-<hash8>/messages.jsonl` (with `.1` and `.2`), where `<hash8>` is
//! the first 8 hex digits of the sha256 of the canonical checkout root. The parts: `log`, the
//! daily log `<root>/.agents/team.log`; `briefs`, a team's `<from>-to-<to>.md` files; `audit`,
//! the Desk's `audit.jsonl` lines.
//!
//! Invariants:
//! - every history line is one JSON object written by ONE `write(2)` on an `O_APPEND` file,
//!   under an exclusive `flock` on `<project dir>/messages.lock` that also covers rotation, so
//!   concurrent appends from many processes are never torn, interleaved or lost — including
//!   the append that rotates;
//! - the log rotates when the next line would take `messages.jsonl` past 1 MB: `.1` becomes
//!   `.2` (the old `.2` is dropped), the current file becomes `.1`; three files at most;
//! - files are created 0600, the project folder 0700, everything is opened with O_NOFOLLOW,
//!   and a symbolic link or FIFO anywhere on the ladder from `<config>` down is refused
//!   (`fsx`), never followed;
//! - reading writes nothing: a reader takes a shared lock only when the lock file already
//!   exists, and skips (and counts) a line it cannot parse rather than failing the run;
//! - every id read back is checked against the id grammar (`id`): a line whose id is no
//!   message id is passed over, counted and named in [`PassedOver`], and never handed on — so
//!   no id from a file becomes a path or a typed line;
//! - an intent is written, and fsync'd, before the act it announces (`intent`, DESIGN §10:
//!   "intent before action"); so is the line that ends it;
//! - `team.log` lines carry the command, caller, seat, outcome and sizes — never a body.

mod audit;
mod briefs;
pub mod intent;
pub mod ledger;
mod line;
mod log;
mod read;
pub mod receipts;
pub mod stats;

pub use audit::{audit_files, parse_audit, read_audit, AuditLine};
pub use briefs::{read_briefs, Brief};
pub use intent::{append_message_durably, append_receipt_durably, claim, Claim};
pub use ledger::{Entry, Ledger, ReadState};
pub use line::{first_line, header_split, in_reply_to, message_of, MessageLine};
pub use log::{append_log, LogLine};
pub use read::{history_files, read_history, read_messages, History, Keyed, PassedOver, Read};
use read::{read_lines, read_unlocked};
pub use receipts::{
    append_ack_once, append_receipt, read_receipts, read_receipts_checked, Receipt, ReceiptKind, Sign, RECEIPTS,
};

use crate::fsx;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// `messages.jsonl` rotates when the next line would take it past this many bytes.
pub const ROTATE_BYTES: u64 = 1024 * 1024;
/// The current history file's name inside the project folder.
pub const MESSAGES: &str = "messages.jsonl";
/// The lock file that serialises appends and rotation (never holds data).
pub const LOCK: &str = "messages.lock";

const FILE_MODE: u32 = 0o600;
const DIR_MODE: u32 = 0o700;

/// The first 8 hex digits of the sha256 of the canonical checkout root (the root as given
/// when it cannot be canonicalised, e.g. it no longer exists).
pub fn root_hash(root: &Path) -> String {
    let canon = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let digest = Sha256::digest(canon.as_os_str().as_bytes());
    digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// The folder name `<project>-<hash8>`. A project name is one path component: any
/// character outside `[A-Za-z0-9._-]` (a `/` above all) becomes `_`, and a leading `.`
/// becomes `_`, so the name can never climb out of `<config>`.
pub fn project_dir_name(project: &str, root: &Path) -> String {
    let mut name: String = project
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.replace_range(0..0, "_");
    }
    format!("{name}-{}", root_hash(root))
}

/// `<config>/<project>-<hash8>`.
pub fn project_dir(config: &Path, project: &str, root: &Path) -> PathBuf {
    config.join(project_dir_name(project, root))
}

/// Every `<name>-<8 hex>` folder of `<config>` (a project's history), by path, with the
/// project it names. A link or FIFO standing there under such a name is kept, so that the
/// read that follows refuses it rather than passing it over.
pub fn project_dirs(config: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    fsx::check_entry(config)?;
    let rd = match fs::read_dir(config) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in rd {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((project, hash)) = name.rsplit_once('-') else { continue };
        if project.is_empty() || hash.len() != 8 || !hash.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        // A plain file under such a name is not a history folder.
        if entry.file_type()?.is_file() {
            continue;
        }
        out.push((project.to_string(), entry.path()));
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

/// Appends one line to the project's history under `config` (rotating at [`ROTATE_BYTES`]).
pub fn append_message(config: &Path, project: &str, root: &Path, line: &MessageLine) -> io::Result<()> {
    let dir = fsx::ensure_private_dirs(config, Path::new(&project_dir_name(project, root)), DIR_MODE)?;
    append_message_in(&dir, line, ROTATE_BYTES)
}

/// Appends one line to `dir/messages.jsonl`, rotating when the next line would take the
/// file past `limit` bytes. `dir` must exist (its ladder is the caller's to check:
/// [`append_message`] builds it with `fsx::ensure_dirs`). Tests reach the rotation through
/// `limit`; the product always passes [`ROTATE_BYTES`].
pub fn append_message_in(dir: &Path, line: &MessageLine, limit: u64) -> io::Result<()> {
    append_jsonl_in(dir, MESSAGES, LOCK, line, limit)
}

/// `routes.jsonl`: one line per address `team route` handed out, beside `messages.jsonl`.
pub const ROUTES: &str = "routes.jsonl";
/// The lock of `routes.jsonl`'s appends and rotation.
pub const ROUTES_LOCK: &str = "routes.lock";

/// `<config>/<project>-<hash8>/routes.jsonl`.
pub fn routes_path(config: &Path, project: &str, root: &Path) -> PathBuf {
    project_dir(config, project, root).join(ROUTES)
}

/// Appends one line to the project's `routes.jsonl` with the history's writer: one `write(2)`
/// under the file's own lock, rotated at [`ROTATE_BYTES`] (three files kept), 0600, the folder
/// 0700, O_NOFOLLOW, no link or FIFO on the ladder.
pub fn append_route<T: Serialize>(config: &Path, project: &str, root: &Path, line: &T) -> io::Result<PathBuf> {
    let dir = fsx::ensure_dirs(config, Path::new(&project_dir_name(project, root)), DIR_MODE)?;
    append_jsonl_in(&dir, ROUTES, ROUTES_LOCK, line, ROTATE_BYTES)?;
    Ok(dir.join(ROUTES))
}

/// Appends one JSON line to `dir/<name>` under `dir/<lock>`, rotating `<name>` → `.1` → `.2`
/// when the next line would take it past `limit` bytes.
pub fn append_jsonl_in<T: Serialize>(dir: &Path, name: &str, lock: &str, line: &T, limit: u64) -> io::Result<()> {
    append_admitted(dir, name, lock, line, limit, Durability::Buffered, |_| Ok(true)).map(|_| ())
}

/// Whether an append returns before the line is on the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durability {
    /// Written (one `write(2)`); the kernel flushes it when it will.
    Buffered,
    /// Written and `fsync`'d, and the folder too when the file was made or rotated: a crash
    /// after the append returns cannot lose the line.
    Synced,
}

/// [`append_jsonl_in`] with the exclusive lock held across `admit(dir)`, which decides, from
/// what the folder holds, whether the line is appended at all (`Ok(false)`: it is not, and
/// nothing is written). `admit` must not take the folder's lock itself (it is held).
pub(crate) fn append_admitted<T: Serialize>(
    dir: &Path,
    name: &str,
    lock: &str,
    line: &T,
    limit: u64,
    durability: Durability,
    admit: impl FnOnce(&Path) -> io::Result<bool>,
) -> io::Result<bool> {
    let mut bytes = serde_json::to_vec(line).map_err(io::Error::other)?;
    bytes.push(b'\n');
    fsx::check_entry(dir)?;
    let lock = Locked::exclusive(&dir.join(lock))?;
    if !admit(dir)? {
        return Ok(false);
    }
    let current = dir.join(name);
    let existed = fsx::check_entry(&current)?;
    let size = if existed { fs::symlink_metadata(&current)?.len() } else { 0 };
    let rotated = size > 0 && size + bytes.len() as u64 > limit;
    if rotated {
        rotate(dir, name)?;
    }
    let mut f = fsx::open_append(&current, FILE_MODE)?;
    write_once(&mut f, &bytes, &current)?;
    if durability == Durability::Synced {
        let synced = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", current.display()));
        f.sync_data().map_err(synced)?;
        if rotated || !existed {
            sync_dir(dir)?;
        }
    }
    drop(lock);
    Ok(true)
}

/// `fsync` of a folder, so that a name made or moved in it survives a crash.
fn sync_dir(dir: &Path) -> io::Result<()> {
    let mut o = OpenOptions::new();
    o.read(true).custom_flags(nix::libc::O_DIRECTORY | nix::libc::O_NOFOLLOW);
    let d = o.open(dir).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    d.sync_all().map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
}

/// `.1` → `.2`, current → `.1`. Called with the exclusive lock held. `rename` replaces a
/// link at the target without following it; a link or FIFO standing at `.1`/`.2` is still
/// refused so that nothing odd is silently carried along.
fn rotate(dir: &Path, name: &str) -> io::Result<()> {
    let current = dir.join(name);
    let one = dir.join(format!("{name}.1"));
    let two = dir.join(format!("{name}.2"));
    fsx::check_entry(&two)?;
    if fsx::check_entry(&one)? {
        fs::rename(&one, &two)?;
    }
    fs::rename(&current, &one)
}

/// One `write(2)` for the whole line. A regular file on a local file system takes it whole;
/// a short write is reported rather than finished by a second call, which could interleave.
fn write_once(f: &mut File, bytes: &[u8], path: &Path) -> io::Result<()> {
    let n = f.write(bytes).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    if n != bytes.len() {
        return Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("{}: short write ({n} of {} bytes)", path.display(), bytes.len()),
        ));
    }
    Ok(())
}

/// A `flock` held until drop (closing the descriptor releases it).
struct Locked {
    _held: File,
}

impl Locked {
    fn open(path: &Path, create: bool) -> io::Result<Option<File>> {
        let mut o = OpenOptions::new();
        o.read(true);
        if create {
            o.write(true).create(true).mode(FILE_MODE);
        }
        match fsx::open_regular(path, &o) {
            Ok(f) => Ok(Some(f)),
            Err(e) if !create && e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Waits for the lock `take` asks for; a signal that interrupts the wait does not end it.
    fn take(f: File, path: &Path, take: fn(&File) -> io::Result<()>) -> io::Result<Locked> {
        loop {
            match take(&f) {
                Ok(()) => return Ok(Locked { _held: f }),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
            }
        }
    }

    fn exclusive(path: &Path) -> io::Result<Locked> {
        let f = Self::open(path, true)?.expect("create always yields a file");
        Self::take(f, path, File::lock)
    }

    /// A shared lock when the lock file exists; `None` (no lock, nothing created) otherwise.
    fn shared_if_present(path: &Path) -> io::Result<Option<Locked>> {
        match Self::open(path, false)? {
            Some(f) => Self::take(f, path, File::lock_shared).map(Some),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn line(n: usize) -> MessageLine {
        MessageLine {
            ts: "2026-11-29T09:00:00Z".into(),
            from: "owner".into(),
            to: "gpt-reviewer".into(),
            body: format!("message {n}"),
            id: format!("00000000-0000-4000-8000-{n:012x}"),
            outcome: "delivered".into(),
            ..Default::default()
        }
    }

    #[test]
    fn line_keeps_spec_order_and_skips_absent_fields() {
        let mut m = line(1);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"ts":"2026-11-29T09:00:00Z","from":"owner","to":"gpt-reviewer","body":"message 1","id":"00000000-0000-4000-8000-000000000001","outcome":"delivered"}"#
        );
        m.spec = Some("@rev".into());
        m.resolved = Some("agt_1".into());
        m.ms = Some(812);
        m.via = Some("typed".into());
        m.failed = vec!["native: the CLI carries no native channel".into()];
        m.note = Some("taken, not yet confirmed".into());
        let s = serde_json::to_string(&m).unwrap();
        let keys: Vec<_> =
            ["ts", "from", "to", "body", "id", "outcome", "spec", "resolved", "ms", "via", "failed", "note"]
                .iter()
                .map(|k| s.find(&format!("\"{k}\":")).unwrap())
                .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{s}");
        assert_eq!(serde_json::from_str::<MessageLine>(&s).unwrap(), m);
    }

    #[test]
    fn old_lines_with_six_fields_parse() {
        let s = r#"{"ts":"t","from":"a","to":"b","body":"x","id":"i","outcome":"held"}"#;
        let m: MessageLine = serde_json::from_str(s).unwrap();
        assert!(m.failed.is_empty() && m.ms.is_none());
    }

    #[test]
    fn project_dirs_are_the_named_history_folders() {
        let d = tempfile::tempdir().unwrap();
        for n in ["beacon-0123abcd", "api-ffffffff", "notes", "x-123", "-01234567"] {
            fs::create_dir(d.path().join(n)).unwrap();
        }
        fs::write(d.path().join("file-89abcdef"), "").unwrap();
        let got: Vec<String> = project_dirs(d.path()).unwrap().into_iter().map(|(p, _)| p).collect();
        assert_eq!(got, ["api", "beacon"]);
        assert!(project_dirs(&d.path().join("absent")).unwrap().is_empty());
    }

    #[test]
    fn project_dir_hashes_the_canonical_root() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("repo");
        fs::create_dir(&root).unwrap();
        let link = d.path().join("alias");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        let name = project_dir_name("beacon", &root);
        assert_eq!(name, project_dir_name("beacon", &link));
        let (proj, hash) = name.rsplit_once('-').unwrap();
        assert_eq!(proj, "beacon");
        assert_eq!(hash.len(), 8);
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
        let canon = fs::canonicalize(&root).unwrap();
        let want = format!("{:x}", Sha256::digest(canon.as_os_str().as_bytes()));
        assert_eq!(hash, &want[..8]);
        assert!(!project_dir_name("../x/y", &root).contains('/'));
        assert!(project_dir_name("..", &root).starts_with('_'));
    }

    #[test]
    fn append_creates_modes_and_reads_back_in_order() {
        let d = tempfile::tempdir().unwrap();
        let dir = fsx::ensure_dirs(d.path(), Path::new("beacon-0000abcd"), DIR_MODE).unwrap();
        for n in 0..3 {
            append_message_in(&dir, &line(n), ROTATE_BYTES).unwrap();
        }
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join(MESSAGES)), 0o600);
        assert_eq!(mode(&dir.join(LOCK)), 0o600);
        let got = read_messages(d.path(), &dir).unwrap();
        assert_eq!(got, (0..3).map(line).collect::<Vec<_>>());
    }

    #[test]
    fn rotation_keeps_three_files_oldest_first() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        let one = serde_json::to_vec(&line(0)).unwrap().len() as u64 + 1;
        // Two lines per file: the 7th line drops the 1st and 2nd.
        for n in 0..7 {
            append_message_in(dir, &line(n), one * 2 + 1).unwrap();
        }
        let got = read_messages(d.path(), dir).unwrap();
        assert_eq!(got, (2..7).map(line).collect::<Vec<_>>());
        for p in history_files(dir) {
            assert!(fs::metadata(&p).unwrap().len() <= one * 2 + 1);
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert!(!dir.join(format!("{MESSAGES}.3")).exists());
    }

    #[test]
    fn unparsable_and_torn_lines_are_skipped_and_counted() {
        let d = tempfile::tempdir().unwrap();
        let good = serde_json::to_string(&line(1)).unwrap();
        fs::write(d.path().join(MESSAGES), format!("{good}\nnot json\n\n{good}\n{{\"ts\":")).unwrap();
        let h = read_history(d.path(), d.path()).unwrap();
        assert_eq!(h.lines.len(), 2);
        assert_eq!(h.skipped, 2);
        assert!(h.passed_over.is_empty());
    }

    #[test]
    fn a_line_whose_id_is_no_message_id_is_passed_over_and_named_per_file() {
        let d = tempfile::tempdir().unwrap();
        let with = |id: &str| serde_json::to_string(&MessageLine { id: id.into(), ..line(1) }).unwrap();
        let good = with(&line(1).id);
        let bad = ["/etc/hostname", "../../x", "", "A0000000-0000-4000-8000-000000000001", "x\u{1b}[31m"];
        let current: Vec<String> = bad.iter().map(|b| with(b)).collect();
        fs::write(d.path().join(MESSAGES), format!("{good}\n{}\n{good}\n", current.join("\n"))).unwrap();
        fs::write(d.path().join(format!("{MESSAGES}.1")), format!("{}\n", with("/etc/passwd"))).unwrap();
        let h = read_history(d.path(), d.path()).unwrap();
        assert_eq!(h.lines, vec![line(1), line(1)]);
        assert_eq!((h.skipped, h.bad_ids()), (6, 6));
        let older = &h.passed_over[0];
        assert_eq!(
            (older.file.clone(), older.lines, older.ids.clone()),
            (d.path().join(format!("{MESSAGES}.1")), 1, vec!["/etc/passwd".to_string()])
        );
        let cur = &h.passed_over[1];
        assert_eq!(
            (cur.lines, cur.ids.as_slice()),
            (5, &["/etc/hostname".to_string(), "../../x".into(), "".into()][..])
        );
        assert_eq!(
            cur.sentence(),
            format!(
                "passed over 5 lines of {} whose id is no message id (\"/etc/hostname\", \"../../x\", \"\", …)",
                d.path().join(MESSAGES).display()
            )
        );
    }

    #[test]
    fn symlinks_and_fifos_are_refused_not_followed() {
        let d = tempfile::tempdir().unwrap();
        let elsewhere = d.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        // The log itself a link.
        let dir = d.path().join("p");
        fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("m"), dir.join(MESSAGES)).unwrap();
        assert!(append_message_in(&dir, &line(1), ROTATE_BYTES).is_err());
        assert!(read_messages(d.path(), &dir).is_err());
        assert!(!elsewhere.join("m").exists());
        // A FIFO at the log.
        let dir2 = d.path().join("q");
        fs::create_dir(&dir2).unwrap();
        nix::unistd::mkfifo(&dir2.join(MESSAGES), nix::sys::stat::Mode::S_IRWXU).unwrap();
        assert!(append_message_in(&dir2, &line(1), ROTATE_BYTES).is_err());
        assert!(read_messages(d.path(), &dir2).is_err());
        // The project folder a link.
        let dir3 = d.path().join("r");
        std::os::unix::fs::symlink(&elsewhere, &dir3).unwrap();
        assert!(append_message_in(&dir3, &line(1), ROTATE_BYTES).is_err());
        assert!(read_messages(d.path(), &dir3).is_err());
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    const CHILD_ENV: &str = "TEAM_HISTORY_TEST_CHILD";
    const WRITERS: usize = 8;
    const PER_WRITER: usize = 500;

    fn child_line(w: usize, n: usize) -> MessageLine {
        MessageLine {
            body: format!("writer {w} line {n} {}", "x".repeat(40)),
            id: format!("00000000-0000-4000-8{w:03x}-{n:012x}"),
            via: Some("typed".into()),
            ms: Some(n as u64),
            ..line(0)
        }
    }

    fn limit_for_test() -> u64 {
        let one = serde_json::to_vec(&child_line(7, 499)).unwrap().len() as u64 + 1;
        // All lines fit in three files with room to spare, and the writers rotate twice.
        one * (WRITERS * PER_WRITER) as u64 * 2 / 5
    }

    /// The child role of `concurrent_appends_across_rotation`: run only when that test
    /// re-invokes this test binary with `TEAM_HISTORY_TEST_CHILD=<dir>:<writer>`.
    #[test]
    #[ignore = "child role of concurrent_appends_across_rotation"]
    fn concurrent_child_appender() {
        let v = std::env::var(CHILD_ENV).expect("run by concurrent_appends_across_rotation");
        let (dir, w) = v.rsplit_once(':').unwrap();
        let w: usize = w.parse().unwrap();
        for n in 0..PER_WRITER {
            append_message_in(Path::new(dir), &child_line(w, n), limit_for_test()).unwrap();
        }
    }

    #[test]
    fn concurrent_appends_across_rotation() {
        let d = tempfile::tempdir().unwrap();
        let exe = std::env::current_exe().unwrap();
        let children: Vec<_> = (0..WRITERS)
            .map(|w| {
                std::process::Command::new(&exe)
                    .args([
                        "--exact",
                        "history::tests::concurrent_child_appender",
                        "--include-ignored",
                        "--test-threads=1",
                        "-q",
                    ])
                    .env(CHILD_ENV, format!("{}:{w}", d.path().display()))
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        let h = read_history(d.path(), d.path()).unwrap();
        assert_eq!(h.skipped, 0, "torn or unparsable lines");
        // Every writer's lines are all there, each once, in that writer's order.
        let mut next = [0usize; WRITERS];
        for m in &h.lines {
            let parts: Vec<&str> = m.id.split('-').collect();
            let w = usize::from_str_radix(&parts[3][1..], 16).unwrap();
            let n = usize::from_str_radix(parts[4], 16).unwrap();
            assert_eq!(n, next[w], "writer {w} out of order or duplicated");
            assert_eq!(*m, child_line(w, n));
            next[w] += 1;
        }
        assert_eq!(next, [PER_WRITER; WRITERS], "lines lost");
        // It did rotate, twice, and no file grew past the limit.
        for p in history_files(d.path()) {
            let len = fs::metadata(&p).unwrap().len();
            assert!(len > 0 && len <= limit_for_test(), "{}: {len}", p.display());
        }
    }
}
