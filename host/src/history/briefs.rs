//! The briefs a team keeps beside its messages: every `<from>-to-<to>.md` file of a folder
//! (`<root>/briefs` by default), each one event at its file's modification time.
//!
//! Invariant: reading writes nothing, and a link or FIFO at the folder or at a brief is
//! refused (`fsx`), never followed; a file whose name does not split at `-to-` into two
//! non-empty parts is not a brief and is passed over.

use crate::fsx;
use std::io;
use std::path::{Path, PathBuf};

/// One brief: who wrote it to whom, when (RFC 3339, seconds), its whole text, and its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Brief {
    pub ts: String,
    pub from: String,
    pub to: String,
    pub body: String,
    pub path: PathBuf,
}

/// The briefs of `dir`, by file name. A missing folder holds none.
pub fn read_briefs(dir: &Path) -> io::Result<Vec<Brief>> {
    if !fsx::check_entry(dir)? {
        return Ok(Vec::new());
    }
    let mut names: Vec<(String, String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".md") else { continue };
        let Some((from, to)) = stem.split_once("-to-") else { continue };
        if from.is_empty() || to.is_empty() {
            continue;
        }
        names.push((from.to_string(), to.to_string(), entry.path()));
    }
    names.sort_by(|a, b| a.2.cmp(&b.2));
    let mut out = Vec::new();
    for (from, to, path) in names {
        let Some(body) = fsx::read_to_string(&path)? else { continue };
        let mtime = std::fs::symlink_metadata(&path)?.modified()?;
        let ts = chrono::DateTime::<chrono::Utc>::from(mtime).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        out.push(Brief { ts, from, to, body, path });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn briefs_are_read_from_their_names() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("claude-keeper-to-gpt-reviewer.md"), "\n# Review the gate\n\nDetails.\n").unwrap();
        std::fs::write(d.path().join("notes.md"), "not a brief").unwrap();
        std::fs::write(d.path().join("-to-x.md"), "no sender").unwrap();
        let f = std::fs::File::options().write(true).open(d.path().join("claude-keeper-to-gpt-reviewer.md")).unwrap();
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000);
        f.set_modified(t).unwrap();
        let got = read_briefs(d.path()).unwrap();
        assert_eq!(
            got,
            vec![Brief {
                ts: "2026-11-18T11:06:40Z".into(),
                from: "claude-keeper".into(),
                to: "gpt-reviewer".into(),
                body: "\n# Review the gate\n\nDetails.\n".into(),
                path: d.path().join("claude-keeper-to-gpt-reviewer.md"),
            }]
        );
        assert!(read_briefs(&d.path().join("absent")).unwrap().is_empty());
    }

    #[test]
    fn a_linked_brief_is_refused() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("secret"), "x").unwrap();
        std::os::unix::fs::symlink(d.path().join("secret"), d.path().join("a-to-b.md")).unwrap();
        assert!(read_briefs(d.path()).is_err());
    }
}
