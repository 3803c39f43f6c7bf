//! The watch on a CLI's session transcripts during one send: the files its profile's
//! `transcript-patterns` name for the seat's home and folder, and the rows appended to them
//! since the send began.
//!
//! Invariants: only rows appended after `begin` are ever handed to the profile (a file new
//! since then is read whole); a link or FIFO where a transcript should be is skipped, never
//! followed; and `{cwd-dashed}` has one spelling, [`cwd_dashed`], which the fake seat writes
//! its transcript under too.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most folder entries one look for transcript files reads.
pub const WALK_ENTRIES: usize = 20_000;

/// A working folder as Claude Code names its folder under `~/.claude/projects/`: every
/// character that is not an ASCII letter or digit becomes `-` (`/tmp/w1/c_proj.x` →
/// `-tmp-w1-c-proj-x`; docs/offline-vendor-clis.md §1.7). This is what the pattern word
/// `{cwd-dashed}` means.
pub fn cwd_dashed(cwd: &Path) -> String {
    cwd.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// Session transcripts the profile says its CLI writes, watched from the start of a send.
pub struct TranscriptWatch {
    patterns: Vec<String>,
    home: Option<PathBuf>,
    cwd: Option<PathBuf>,
    sizes: BTreeMap<PathBuf, u64>,
    last_check: Option<Instant>,
    /// The least time between two reads (a send polls fast; a watch's passes are its own pace).
    gap: Duration,
}

impl TranscriptWatch {
    /// Notes every matching file's size now.
    pub fn begin(patterns: &[String], home: Option<PathBuf>, cwd: Option<PathBuf>) -> Self {
        let mut w = TranscriptWatch {
            patterns: patterns.to_vec(),
            home,
            cwd,
            sizes: Default::default(),
            last_check: None,
            gap: Duration::from_millis(200),
        };
        for p in w.files() {
            if let Ok(m) = std::fs::metadata(&p) {
                w.sizes.insert(p, m.len());
            }
        }
        w
    }

    /// A watch that hands over the last `tail` bytes of every file modified at or after
    /// `since` (the whole file when it is shorter; a first row cut there parses as nothing), and
    /// nothing of the files older than that; then, as `begin`'s, the rows appended. The rows a
    /// later look needs about a send that began at `since` (`team watch`; the drop's id, unique
    /// to one send, is what they are asked about).
    pub fn since(
        patterns: &[String],
        home: Option<PathBuf>,
        cwd: Option<PathBuf>,
        since: std::time::SystemTime,
        tail: u64,
    ) -> Self {
        let mut w = TranscriptWatch {
            patterns: patterns.to_vec(),
            home,
            cwd,
            sizes: Default::default(),
            last_check: None,
            gap: Duration::ZERO,
        };
        for p in w.files() {
            if let Ok(m) = std::fs::metadata(&p) {
                let old = m.modified().map(|t| t < since).unwrap_or(false);
                w.sizes.insert(p, if old { m.len() } else { m.len().saturating_sub(tail) });
            }
        }
        w
    }

    /// The files the patterns match now. `{yyyy}`, `{mm}`, `{dd}` match any folder (a long
    /// session keeps writing the file of the day it started); `*` works in any segment. The
    /// walk is bounded: at most [`WALK_ENTRIES`] folder entries are looked at per call, so a
    /// pattern over a huge tree costs milliseconds, not a minute, under the seat lock.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut out = vec![];
        let mut budget = WALK_ENTRIES;
        for pat in &self.patterns {
            let Some(expanded) = self.expand(pat) else { continue };
            let mut dirs = vec![PathBuf::from("/")];
            let segs: Vec<&str> = expanded.trim_start_matches('/').split('/').collect();
            for (i, seg) in segs.iter().enumerate() {
                let last = i + 1 == segs.len();
                let mut next = vec![];
                for d in &dirs {
                    if seg.contains('*') {
                        let Ok(rd) = std::fs::read_dir(d) else { continue };
                        for e in rd.flatten() {
                            if budget == 0 {
                                break;
                            }
                            budget -= 1;
                            let name = e.file_name().to_string_lossy().into_owned();
                            if glob_match(seg, &name) {
                                next.push(d.join(name));
                            }
                        }
                    } else {
                        next.push(d.join(seg));
                    }
                }
                dirs = next;
                if last {
                    out.extend(dirs.iter().filter(|p| p.is_file()).cloned());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn expand(&self, pat: &str) -> Option<String> {
        let mut s = pat.to_string();
        if s.contains("{home}") {
            s = s.replace("{home}", &self.home.as_ref()?.display().to_string());
        }
        if s.contains("{cwd-dashed}") {
            s = s.replace("{cwd-dashed}", &cwd_dashed(self.cwd.as_ref()?));
        }
        if s.contains("{cwd}") {
            s = s.replace("{cwd}", &self.cwd.as_ref()?.display().to_string());
        }
        for d in ["{yyyy}", "{mm}", "{dd}"] {
            s = s.replace(d, "*");
        }
        Some(s)
    }

    /// Rows appended since `begin` (new files whole), at most every 200 ms (a watch made by
    /// `since`: on every call).
    pub fn new_rows(&mut self) -> Option<Vec<String>> {
        if self.patterns.is_empty() {
            return None;
        }
        if let Some(t) = self.last_check {
            if t.elapsed() < self.gap {
                return None;
            }
        }
        self.last_check = Some(Instant::now());
        let mut rows = vec![];
        for f in self.files() {
            let from = self.sizes.get(&f).copied().unwrap_or(0);
            let Ok(text) = read_from(&f, from) else { continue };
            rows.extend(text.lines().map(str::to_string));
        }
        Some(rows)
    }
}

/// The text of `path` from byte `from` on (at most 8 MiB), opened only as a regular file.
fn read_from(path: &Path, from: u64) -> std::io::Result<String> {
    let mut f = crate::fsx::open_regular(path, std::fs::OpenOptions::new().read(true))?;
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::new();
    f.take(8 << 20).read_to_end(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// `*` matches any run of characters; everything else is literal.
fn glob_match(pat: &str, name: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    if parts.len() == 1 {
        return pat == name;
    }
    let mut rest = name;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else { return false };
            rest = r;
        } else if i + 1 == parts.len() {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else { return false };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_hand_over_only_rows_appended_after_begin() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        let day = home.join(".codex/sessions/2026/11/29");
        std::fs::create_dir_all(&day).unwrap();
        let f = day.join("rollout-a.jsonl");
        std::fs::write(&f, "old row\n").unwrap();
        let mut w = TranscriptWatch::begin(
            &["{home}/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl".to_string()],
            Some(home.clone()),
            None,
        );
        assert_eq!(w.files(), vec![f.clone()]);
        use std::io::Write;
        std::fs::OpenOptions::new().append(true).open(&f).unwrap().write_all(b"new row\n").unwrap();
        std::fs::write(day.join("rollout-b.jsonl"), "fresh\n").unwrap();
        std::fs::write(day.join("other.jsonl"), "no\n").unwrap();
        assert_eq!(w.new_rows().unwrap(), vec!["new row".to_string(), "fresh".to_string()]);
    }

    #[test]
    fn a_watch_since_an_instant_reads_the_files_written_since_whole() {
        let d = tempfile::tempdir().unwrap();
        let old = d.path().join("old.jsonl");
        let fresh = d.path().join("fresh.jsonl");
        std::fs::write(&old, "before the send\n").unwrap();
        std::fs::write(&fresh, "first row\n").unwrap();
        let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options().write(true).open(&old).unwrap().set_modified(hour_ago).unwrap();
        let since = std::time::SystemTime::now() - Duration::from_secs(60);
        let pat = [format!("{}/*.jsonl", d.path().display())];
        let mut w = TranscriptWatch::since(&pat, None, None, since, 1 << 20);
        assert_eq!(w.new_rows().unwrap(), vec!["first row".to_string()]);
        // A long file is read from its tail.
        std::fs::write(&fresh, format!("{}\nlast row\n", "x".repeat(100))).unwrap();
        let mut w = TranscriptWatch::since(&pat, None, None, since, 20);
        assert_eq!(w.new_rows().unwrap(), vec!["xxxxxxxxxx".to_string(), "last row".to_string()]);
    }

    #[test]
    fn cwd_dashed_is_claudes_spelling_of_a_folder() {
        // The measured example (docs/offline-vendor-clis.md §1.7).
        assert_eq!(cwd_dashed(Path::new("/tmp/w1/c_proj.x")), "-tmp-w1-c-proj-x");
        assert_eq!(cwd_dashed(Path::new("/tmp/x/my_work dir.x")), "-tmp-x-my-work-dir-x");
        assert_eq!(cwd_dashed(Path::new("/tmp/drop/proj5")), "-tmp-drop-proj5");
        assert_eq!(cwd_dashed(Path::new("/home/a/café+1")), "-home-a-caf--1");
    }

    #[test]
    fn a_claude_folder_with_an_underscore_and_a_space_is_found() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        let cwd = d.path().join("my_work dir.x");
        let proj = home.join(".claude/projects").join(cwd_dashed(&cwd));
        std::fs::create_dir_all(&proj).unwrap();
        let w = TranscriptWatch::begin(
            &["{home}/.claude/projects/{cwd-dashed}/*.jsonl".to_string()],
            Some(home),
            Some(cwd),
        );
        std::fs::write(proj.join("s.jsonl"), "row\n").unwrap();
        assert_eq!(w.files(), vec![proj.join("s.jsonl")]);
    }

    #[test]
    fn a_link_where_a_transcript_should_be_is_not_read() {
        let d = tempfile::tempdir().unwrap();
        let secret = d.path().join("secret");
        std::fs::write(&secret, "do not hand me over\n").unwrap();
        let dir = d.path().join("t");
        std::fs::create_dir(&dir).unwrap();
        let mut w = TranscriptWatch::begin(&[format!("{}/*.jsonl", dir.display())], None, None);
        std::os::unix::fs::symlink(&secret, dir.join("x.jsonl")).unwrap();
        assert_eq!(w.new_rows().unwrap(), Vec::<String>::new());
    }
}
