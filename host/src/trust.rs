//! The owner's approvals of the commands a checkout's team file makes `team` run — the
//! `notify:` command and each seat's `launch:` line (`team up` runs it) — kept in the
//! owner's own config (`<config>/trusted-commands.json`), never in the repository: a cloned
//! file that names a program runs nothing until the owner has approved that exact command for
//! that checkout (git clones no hooks for this reason; direnv asks `direnv allow`).
//!
//! Invariants: only an exact match approves — the same checkout root, the same kind, the same
//! words (a word changed or added: approve again); the record holds the command's sha256 and
//! its words, so `team check` can say which one was approved; a file that cannot be read, or a
//! link or FIFO in its place, approves nothing; it is written whole (temp file and rename, 0600,
//! under its lock).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The approvals' file inside `<config>`.
pub const FILE: &str = "trusted-commands.json";
const LOCK: &str = "trusted-commands.lock";
const MAX_BYTES: u64 = 1024 * 1024;

/// Which of a team file's commands a record approves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum What {
    /// The `notify:` section's `command`.
    Notify,
    /// A seat's `launch:` line.
    Launch { seat: String },
}

impl What {
    /// `notify`, `launch <seat>`: the words `team trust` takes and `team check` prints.
    pub fn words(&self) -> String {
        match self {
            What::Notify => "notify".into(),
            What::Launch { seat } => format!("launch {seat}"),
        }
    }
}

/// A command a team file would make `team` run, in the checkout rooted at `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub root: PathBuf,
    pub what: What,
    pub argv: Vec<String>,
}

impl Wanted {
    /// The command's hash: sha256 over its kind and words, each ended by a NUL (so no two
    /// lists of words hash alike by moving a boundary).
    pub fn sha256(&self) -> String {
        let mut h = Sha256::new();
        for part in std::iter::once(self.what.words()).chain(self.argv.iter().cloned()) {
            h.update(part.as_bytes());
            h.update([0u8]);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Every command the team file of `loaded` makes `team` run, with the line it is on: the
/// `notify:` command, then each seat's `launch:` line (`team up` types it into the seat's
/// shell: its one word is the whole line, as written).
pub fn wanted(loaded: &crate::team_file::Loaded) -> Vec<(Wanted, Option<usize>)> {
    let mut out = Vec::new();
    if let Some(n) = &loaded.file.notify {
        let w = Wanted { root: loaded.root.clone(), what: What::Notify, argv: n.command.clone() };
        out.push((w, loaded.file.lines.line("notify")));
    }
    for seat in &loaded.file.seats {
        if let Some(w) = launch(loaded, &seat.name) {
            out.push((w, Some(seat.line)));
        }
    }
    out
}

/// The `launch:` line of `seat` as a command the file makes `team` run (`None`: the seat
/// writes none, and its profile's own launch is no command of the file's).
pub fn launch(loaded: &crate::team_file::Loaded, seat: &str) -> Option<Wanted> {
    let line = loaded.file.seat(seat)?.launch.as_deref()?.trim();
    (!line.is_empty()).then(|| Wanted {
        root: loaded.root.clone(),
        what: What::Launch { seat: seat.to_string() },
        argv: vec![line.to_string()],
    })
}

/// A command's words as a sentence shows them: each escaped, one line, joined by spaces.
pub fn shown(argv: &[String]) -> String {
    argv.iter().map(|w| crate::vocab::text::one_line(w).into_owned()).collect::<Vec<_>>().join(" ")
}

/// The repair that approves `w`.
pub fn repair(w: &Wanted) -> String {
    format!("the owner approves it, once they have read it, with: team trust {}", w.what.words())
}

/// One approval, as the file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    pub root: PathBuf,
    #[serde(flatten)]
    pub what: What,
    pub argv: Vec<String>,
    pub sha256: String,
    /// When the owner approved it (RFC 3339).
    pub at: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Book {
    #[serde(default)]
    approved: Vec<Approval>,
}

fn read(config: &Path) -> Book {
    crate::fsx::read_capped(&config.join(FILE), MAX_BYTES)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Where the approval of `w`'s checkout and kind stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Stands {
    /// These very words, approved at the time given.
    Approved { at: String },
    /// An approval of other words (the file's command changed since).
    Other { argv: Vec<String> },
    /// None.
    None,
}

/// Where `w` stands: one read of the approvals.
pub fn stands(config: &Path, w: &Wanted) -> Stands {
    let Some(a) = read(config).approved.into_iter().find(|a| a.root == w.root && a.what == w.what) else {
        return Stands::None;
    };
    if a.sha256 == w.sha256() && a.argv == w.argv {
        Stands::Approved { at: a.at }
    } else {
        Stands::Other { argv: a.argv }
    }
}

/// Whether the owner approved exactly `w`.
pub fn approved(config: &Path, w: &Wanted) -> bool {
    matches!(stands(config, w), Stands::Approved { .. })
}

/// Records the owner's approval of `w` at `at`, replacing the one of the same checkout and
/// kind (a changed command approved anew). Only the owner's own run may call this.
pub fn approve(config: &Path, w: &Wanted, at: &str) -> std::io::Result<Approval> {
    std::fs::create_dir_all(config)?;
    let _held = crate::lockfile::take(&config.join(LOCK), "trust", Duration::from_secs(5), |_| true)
        .map_err(|e| std::io::Error::other(format!("{e:?}")))?;
    let mut book = read(config);
    book.approved.retain(|a| !(a.root == w.root && a.what == w.what));
    let a = Approval {
        root: w.root.clone(),
        what: w.what.clone(),
        argv: w.argv.clone(),
        sha256: w.sha256(),
        at: at.into(),
    };
    book.approved.push(a.clone());
    let body = serde_json::to_vec_pretty(&book).map_err(std::io::Error::other)?;
    crate::fsx::write_atomic(&config.join(FILE), &body, 0o600)?;
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notify(root: &str, argv: &[&str]) -> Wanted {
        Wanted { root: root.into(), what: What::Notify, argv: argv.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn only_the_exact_command_of_that_checkout_is_approved() {
        let d = tempfile::tempdir().unwrap();
        let config = d.path().join("config");
        let w = notify("/src/beacon", &["notify-send", "team"]);
        assert!(!approved(&config, &w), "nothing approved yet");
        approve(&config, &w, "2026-12-06T09:00:00Z").unwrap();
        assert!(approved(&config, &w));
        // another checkout, another word, a word added, a boundary moved, another kind
        assert!(!approved(&config, &notify("/src/other", &["notify-send", "team"])));
        assert!(!approved(&config, &notify("/src/beacon", &["notify-send", "teams"])));
        assert!(!approved(&config, &notify("/src/beacon", &["notify-send", "team", "x"])));
        assert!(!approved(&config, &notify("/src/beacon", &["notify-sendteam"])));
        let launch = Wanted { what: What::Launch { seat: "rev".into() }, ..w.clone() };
        assert!(!approved(&config, &launch));
        // a changed command approved anew replaces the old one
        let changed = notify("/src/beacon", &["sh", "-c", "id > /tmp/x"]);
        assert_eq!(stands(&config, &changed), Stands::Other { argv: vec!["notify-send".into(), "team".into()] });
        approve(&config, &changed, "2026-12-06T09:01:00Z").unwrap();
        assert!(approved(&config, &changed) && !approved(&config, &w));
        let mode =
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(config.join(FILE)).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_link_or_a_bad_file_approves_nothing() {
        let d = tempfile::tempdir().unwrap();
        let config = d.path().join("config");
        let w = notify("/src/beacon", &["notify-send"]);
        let elsewhere = d.path().join("planted.json");
        approve(&d.path().join("other"), &w, "t").unwrap();
        std::fs::copy(d.path().join("other").join(FILE), &elsewhere).unwrap();
        std::fs::create_dir_all(&config).unwrap();
        std::os::unix::fs::symlink(&elsewhere, config.join(FILE)).unwrap();
        assert!(!approved(&config, &w), "a link in its place is no approval");
        std::fs::remove_file(config.join(FILE)).unwrap();
        std::fs::write(config.join(FILE), "{not json").unwrap();
        assert!(!approved(&config, &w));
    }
}
