//! The one line a CLI's own ignore file ([`IgnoreFile`], at the checkout's root) needs so that
//! its file tools read team's message drops: `!.agents/send-drops/`. `team init`'s
//! `.agents/.gitignore` keeps the drops out of git, and Gemini CLI's `read_file` refuses what
//! git ignores unless its `.geminiignore` lifts it (measured, `real_cli::inbox_vendors`).
//!
//! Invariants: install appends the line (after a newline when the file's last line has none)
//! and changes nothing else; it is idempotent (a file holding the line already is left as it
//! is); remove takes out that line alone, and the file only when nothing else was in it; the
//! file is only ever one of the closed set's names, at the checkout's root, written through
//! `fsx` (no link or FIFO, whole-file rename).

use std::path::Path;

use super::{read, ConfigError, Done};
use crate::vocab::leg::IgnoreFile;

/// The line, as Gemini CLI reads it: a negation of the ignore rule git's files give the drops.
pub const LINE: &str = "!.agents/send-drops/";

fn is_ours(line: &str) -> bool {
    line.trim_end_matches('\r') == LINE
}

/// Whether the text holds the line.
pub fn has(text: &str) -> bool {
    text.lines().any(is_ours)
}

/// The text with the line appended (`None`: it is there already).
pub fn added(text: Option<&str>) -> Option<String> {
    let text = text.unwrap_or("");
    if has(text) {
        return None;
    }
    let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
    Some(format!("{text}{sep}{LINE}\n"))
}

/// The text with the line taken out, every other byte kept (`None`: it is not there).
pub fn removed(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    for line in text.split_inclusive('\n') {
        if is_ours(line.trim_end_matches('\n')) {
            found = true;
        } else {
            out.push_str(line);
        }
    }
    found.then_some(out)
}

/// Runs `install` or `remove` of the line in `root`'s `f`; `status` reads only.
pub fn act(root: &Path, f: IgnoreFile, action: super::Action) -> Result<Option<Done>, ConfigError> {
    let rel = f.word();
    let text = read(root, rel)?;
    Ok(Some(match action {
        super::Action::Status => return Ok(None),
        super::Action::Install => match added(text.as_deref()) {
            Some(t) => {
                super::write(root, rel, &t, 0o644)?;
                Done::Written
            }
            None => Done::Unchanged,
        },
        super::Action::Remove => match text.as_deref().and_then(removed) {
            Some(t) if t.is_empty() => {
                let path = root.join(rel);
                crate::fsx::check_ladder(root, &path)?;
                std::fs::remove_file(&path)?;
                Done::Removed
            }
            Some(t) => {
                super::write(root, rel, &t, 0o644)?;
                Done::Removed
            }
            None => Done::Unchanged,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project_files::Action;

    #[test]
    fn the_line_is_appended_once_and_taken_out_alone() {
        assert_eq!(added(None).unwrap(), "!.agents/send-drops/\n");
        assert_eq!(added(Some("")).unwrap(), "!.agents/send-drops/\n");
        let mine = "# mine\r\nnode_modules/\n";
        let with = added(Some(mine)).unwrap();
        assert_eq!(with, "# mine\r\nnode_modules/\n!.agents/send-drops/\n");
        assert_eq!(added(Some(&with)), None, "idempotent");
        assert_eq!(removed(&with).unwrap(), mine);
        // a last line without its newline gets one before the line
        assert_eq!(added(Some("dist")).unwrap(), "dist\n!.agents/send-drops/\n");
        // the person's own copy of the line, in the middle, counts as there (and goes on remove)
        let theirs = "a\n!.agents/send-drops/\r\nb";
        assert_eq!(added(Some(theirs)), None);
        assert_eq!(removed(theirs).unwrap(), "a\nb");
        assert_eq!(removed("a\n!.agents/send-drops/x\n"), None, "not a line of ours");
    }

    #[test]
    fn install_then_remove_gives_the_file_back_and_a_file_install_made_goes() {
        let d = tempfile::tempdir().unwrap();
        let (root, f) = (d.path(), IgnoreFile::Geminiignore);
        let p = root.join(".geminiignore");
        assert_eq!(act(root, f, Action::Install).unwrap(), Some(Done::Written));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "!.agents/send-drops/\n");
        assert_eq!(act(root, f, Action::Install).unwrap(), Some(Done::Unchanged));
        assert_eq!(act(root, f, Action::Status).unwrap(), None);
        assert_eq!(act(root, f, Action::Remove).unwrap(), Some(Done::Removed));
        assert!(!p.exists());
        assert_eq!(act(root, f, Action::Remove).unwrap(), Some(Done::Unchanged));
        std::fs::write(&p, "tmp/\n").unwrap();
        act(root, f, Action::Install).unwrap();
        act(root, f, Action::Remove).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "tmp/\n");
        // a link in its place is refused, and what it points at stays as it was
        std::fs::remove_file(&p).unwrap();
        std::fs::write(root.join("elsewhere"), "x\n").unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere"), &p).unwrap();
        assert!(act(root, f, Action::Install).is_err());
        assert_eq!(std::fs::read_to_string(root.join("elsewhere")).unwrap(), "x\n");
    }
}
