//! Reading the rotated JSON-lines stores of a project folder (`messages.jsonl`,
//! `receipts.jsonl`, each with `.1` and `.2`): oldest first, under the folder's shared lock,
//! with the ladder checks of `fsx`.
//!
//! Invariants: reading writes nothing (the shared lock is taken only when the lock file
//! exists); a line that does not parse, or is torn (no newline), is skipped and counted; a line
//! whose id is no message id (`id`) is passed over, counted, and named per file in
//! [`PassedOver`] for the command to say — never handed on, so no id read back becomes a path
//! or a typed line.

use super::{fsx, Locked, MessageLine, LOCK, MESSAGES};
use crate::vocab::id;
use std::io;
use std::path::{Path, PathBuf};

/// Lines of one file passed over because their id is no message id (`id`): said by the
/// command that read them (`team feed`'s skipped note, a `team watch` problem), never handed on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassedOver {
    /// The file that holds them.
    pub file: PathBuf,
    /// How many lines.
    pub lines: usize,
    /// The first few ids, as written (escape them to show them).
    pub ids: Vec<String>,
}

impl PassedOver {
    /// The sentence that says it: `passed over 2 lines of <file> whose id is no message id
    /// ("/etc/hostname", "../x")`.
    pub fn sentence(&self) -> String {
        let mut shown: Vec<String> = self
            .ids
            .iter()
            .map(|i| format!("\"{}\"", crate::vocab::text::one_line(&crate::vocab::text::bound(i, 60))))
            .collect();
        if self.lines > self.ids.len() {
            shown.push("…".into());
        }
        let s = if self.lines == 1 { "" } else { "s" };
        format!(
            "passed over {} line{s} of {} whose id is no message id ({})",
            self.lines,
            self.file.display(),
            shown.join(", ")
        )
    }
}

/// How many ids a [`PassedOver`] keeps to show.
const SHOWN_IDS: usize = 3;

/// What one rotated JSON-lines store read back: the lines oldest first; how many lines were
/// not handed on (`skipped`: those that did not parse, and those passed over for their id);
/// and, per file, the lines passed over for their id.
#[derive(Debug, Clone, PartialEq)]
pub struct Read<T> {
    pub lines: Vec<T>,
    pub skipped: usize,
    pub passed_over: Vec<PassedOver>,
}

impl<T> Default for Read<T> {
    fn default() -> Self {
        Read { lines: Vec::new(), skipped: 0, passed_over: Vec::new() }
    }
}

impl<T> Read<T> {
    /// How many of the skipped lines were passed over for their id.
    pub fn bad_ids(&self) -> usize {
        self.passed_over.iter().map(|p| p.lines).sum()
    }
}

/// Everything read from one project's history folder.
pub type History = Read<MessageLine>;

/// A record whose message id the reader checks.
pub trait Keyed {
    fn id(&self) -> &str;
}

impl Keyed for MessageLine {
    fn id(&self) -> &str {
        &self.id
    }
}

/// The history files of `dir`, oldest first: `.2`, `.1`, then the current file.
pub fn history_files(dir: &Path) -> [PathBuf; 3] {
    rotated_files(dir, MESSAGES)
}

/// `dir/<name>.2`, `.1`, then `dir/<name>`: a rotated file's parts, oldest first.
pub(super) fn rotated_files(dir: &Path, name: &str) -> [PathBuf; 3] {
    [dir.join(format!("{name}.2")), dir.join(format!("{name}.1")), dir.join(name)]
}

/// Reads `.2`, `.1`, then the current file of `dir`, oldest first, skipping lines that do
/// not parse or whose id is no message id. Writes nothing. (`team feed` reads through
/// [`read_history`] to say the count.)
#[allow(dead_code)]
pub fn read_messages(config: &Path, dir: &Path) -> io::Result<Vec<MessageLine>> {
    read_history(config, dir).map(|h| h.lines)
}

/// As [`read_messages`], also counting the skipped lines. Refuses a symlink or FIFO on the
/// ladder from `config` down to the files (when `dir` is under `config`), and holds a
/// shared lock while reading so a rotation cannot move a line between two reads.
pub fn read_history(config: &Path, dir: &Path) -> io::Result<History> {
    read_lines(config, dir, MESSAGES)
}

/// Reads the rotated JSON-lines file `<name>` of `dir` (`.2`, `.1`, current), oldest first,
/// under the folder's shared lock, with the ladder checks of [`read_history`].
pub(super) fn read_lines<T: serde::de::DeserializeOwned + Keyed>(
    config: &Path,
    dir: &Path,
    name: &str,
) -> io::Result<Read<T>> {
    if dir.starts_with(config) {
        fsx::check_ladder(config, dir)?;
    } else {
        fsx::check_entry(dir)?;
    }
    if !dir.exists() {
        return Ok(Read::default());
    }
    let _lock = Locked::shared_if_present(&dir.join(LOCK))?;
    read_unlocked(dir, name)
}

/// [`read_lines`]' reading, for a caller that holds the folder's lock already.
pub(super) fn read_unlocked<T: serde::de::DeserializeOwned + Keyed>(dir: &Path, name: &str) -> io::Result<Read<T>> {
    let mut out = Read::default();
    for path in rotated_files(dir, name) {
        let Some(text) = fsx::read_to_string(&path)? else { continue };
        parse_into(&text, &path, &mut out);
    }
    Ok(out)
}

fn parse_into<T: serde::de::DeserializeOwned + Keyed>(text: &str, path: &Path, out: &mut Read<T>) {
    let mut rest = text;
    while !rest.is_empty() {
        let (line, next, complete) = match rest.find('\n') {
            Some(i) => (&rest[..i], &rest[i + 1..], true),
            None => (rest, "", false),
        };
        rest = next;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<T>(line) {
            Ok(m) if complete && id::valid_id(m.id()) => out.lines.push(m),
            Ok(m) if complete => {
                out.skipped += 1;
                match out.passed_over.iter_mut().find(|p| p.file == path) {
                    Some(p) => {
                        p.lines += 1;
                        if p.ids.len() < SHOWN_IDS {
                            p.ids.push(m.id().to_string());
                        }
                    }
                    None => out.passed_over.push(PassedOver {
                        file: path.to_path_buf(),
                        lines: 1,
                        ids: vec![m.id().to_string()],
                    }),
                }
            }
            _ => out.skipped += 1,
        }
    }
}
