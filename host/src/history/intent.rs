//! Intent before action: the rule for every leg that acts on a message more than once (today
//! `team watch`'s retry, `typed::retrigger`; tomorrow any leg that tries again — DESIGN §10).
//!
//! 1. **Claim before acting.** Before the first keystroke, the leg writes that it is about to
//!    act — an intent: a `retry-started` receipt naming the id and the try — with [`claim`],
//!    which appends it under the folder's lock, only when no intent for that id and try is
//!    there already, and returns once it is on the disk (fsync'd). A claim that cannot be
//!    written is a refusal: nothing is typed.
//! 2. **End what was claimed.** The act's own record (the retry's history line, `retry: <n>`)
//!    ends the intent, written with [`append_message_durably`].
//! 3. **Never act again on a guess.** A reader that finds an intent with no end (the ledger's
//!    `Entry::in_doubt`: the process was killed, or its end could not be written) does not act
//!    again: it reads what the act would have left — the seat's screen and transcript for that
//!    id — and ends the intent from what it sees (`read`), or stops, saying where the message is.
//! 4. **A record that cannot be written stops the retries of that message**, said once; when
//!    even the stop cannot be written, the process keeps it for its own life and says so on its
//!    output (`watch::decide::Memory`).
//!
//! Invariant: a claim is appended at most once per (id, try), whatever processes race for it
//! (the check and the append happen under one exclusive lock), and [`claim`] returns
//! [`Claim::Taken`] only when the line is durable.

use super::receipts::{Receipt, ReceiptKind, RECEIPTS};
use super::{
    append_admitted, project_dir_name, read_unlocked, Durability, MessageLine, DIR_MODE, LOCK, MESSAGES, ROTATE_BYTES,
};
use crate::fsx;
use std::io;
use std::path::Path;

/// How a claim ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The intent is on the disk: act.
    Taken,
    /// The same intent (id, try) was already recorded, by another process or an earlier run:
    /// do not act; its end is read from the seat.
    Held,
}

/// Records the intent `r` (a `retry-started` receipt with its try) in the project's receipts
/// under `config`, durably, unless the same intent is there already.
pub fn claim(config: &Path, project: &str, root: &Path, r: &Receipt) -> io::Result<Claim> {
    let dir = fsx::ensure_dirs(config, Path::new(&project_dir_name(project, root)), DIR_MODE)?;
    claim_in(&dir, r, ROTATE_BYTES)
}

/// [`claim`] in the project folder `dir`, rotating the receipts at `limit` bytes.
pub fn claim_in(dir: &Path, r: &Receipt, limit: u64) -> io::Result<Claim> {
    if r.receipt != ReceiptKind::RetryStarted || r.attempt.is_none() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "an intent is a retry-started receipt with its try"));
    }
    crate::vocab::id::check_id(&r.id).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let fresh = |dir: &Path| -> io::Result<bool> {
        let seen = read_unlocked::<Receipt>(dir, RECEIPTS)?;
        Ok(!seen.lines.iter().any(|x| x.receipt == ReceiptKind::RetryStarted && x.id == r.id && x.attempt == r.attempt))
    };
    match append_admitted(dir, RECEIPTS, LOCK, r, limit, Durability::Synced, fresh)? {
        true => Ok(Claim::Taken),
        false => Ok(Claim::Held),
    }
}

/// Appends a history line that ends an intent (or any line a retrying leg writes), fsync'd.
pub fn append_message_durably(config: &Path, project: &str, root: &Path, line: &MessageLine) -> io::Result<()> {
    let dir = fsx::ensure_private_dirs(config, Path::new(&project_dir_name(project, root)), DIR_MODE)?;
    append_admitted(&dir, MESSAGES, LOCK, line, ROTATE_BYTES, Durability::Synced, |_| Ok(true)).map(|_| ())
}

/// Appends a receipt a retrying leg writes (a stop, a confirmation), fsync'd.
pub fn append_receipt_durably(config: &Path, project: &str, root: &Path, r: &Receipt) -> io::Result<()> {
    let dir = fsx::ensure_dirs(config, Path::new(&project_dir_name(project, root)), DIR_MODE)?;
    append_admitted(&dir, RECEIPTS, LOCK, r, ROTATE_BYTES, Durability::Synced, |_| Ok(true)).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::read_receipts;

    const ID: &str = "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913";

    fn intent(n: u32) -> Receipt {
        Receipt {
            ts: "2026-11-29T09:00:05Z".into(),
            id: ID.into(),
            to: "rev".into(),
            receipt: ReceiptKind::RetryStarted,
            sign: None,
            ms: None,
            why: None,
            attempt: Some(n),
            event: None,
            session: None,
            note: None,
            by: None,
        }
    }

    #[test]
    fn a_claim_is_taken_once_per_try_and_is_on_disk_when_it_returns() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(claim_in(d.path(), &intent(1), ROTATE_BYTES).unwrap(), Claim::Taken);
        // what is on the disk now, read by another reader
        assert_eq!(read_receipts(d.path(), d.path()).unwrap().0, vec![intent(1)]);
        assert_eq!(claim_in(d.path(), &intent(1), ROTATE_BYTES).unwrap(), Claim::Held, "the same try twice");
        assert_eq!(claim_in(d.path(), &intent(2), ROTATE_BYTES).unwrap(), Claim::Taken);
        let other = Receipt { id: "00000000-0000-4000-8000-000000000001".into(), ..intent(1) };
        assert_eq!(claim_in(d.path(), &other, ROTATE_BYTES).unwrap(), Claim::Taken, "another id's try 1");
        assert_eq!(read_receipts(d.path(), d.path()).unwrap().0, vec![intent(1), intent(2), other]);
    }

    #[test]
    fn a_claim_sees_intents_in_the_rotated_files() {
        let d = tempfile::tempdir().unwrap();
        let one = serde_json::to_vec(&intent(1)).unwrap().len() as u64 + 1;
        assert_eq!(claim_in(d.path(), &intent(1), one).unwrap(), Claim::Taken);
        assert_eq!(claim_in(d.path(), &intent(2), one).unwrap(), Claim::Taken);
        assert!(d.path().join(format!("{RECEIPTS}.1")).exists(), "rotated");
        assert_eq!(claim_in(d.path(), &intent(1), one).unwrap(), Claim::Held);
    }

    #[test]
    fn no_claim_is_made_of_anything_but_an_intent_with_a_message_id() {
        let d = tempfile::tempdir().unwrap();
        let read = Receipt { receipt: ReceiptKind::Read, attempt: None, ..intent(1) };
        assert!(claim_in(d.path(), &read, ROTATE_BYTES).is_err());
        let path = Receipt { id: "/etc/hostname".into(), ..intent(1) };
        assert!(claim_in(d.path(), &path, ROTATE_BYTES).is_err());
        assert!(!d.path().join(RECEIPTS).exists());
    }

    #[test]
    fn a_claim_that_cannot_be_written_is_an_error_and_leaves_nothing() {
        let d = tempfile::tempdir().unwrap();
        let elsewhere = d.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, d.path().join(RECEIPTS)).unwrap();
        assert!(claim_in(d.path(), &intent(1), ROTATE_BYTES).is_err());
        assert!(!elsewhere.exists());
    }

    const CHILD_ENV: &str = "TEAM_INTENT_TEST_CHILD";

    /// The child role of `racing_processes_claim_a_try_once`.
    #[test]
    #[ignore = "child role of racing_processes_claim_a_try_once"]
    fn racing_child_claims() {
        let Ok(dir) = std::env::var(CHILD_ENV) else { return };
        let mut taken = 0;
        for n in 1..=40 {
            if claim_in(Path::new(&dir), &intent(n), ROTATE_BYTES).unwrap() == Claim::Taken {
                taken += 1;
            }
        }
        std::fs::write(Path::new(&dir).join(format!("taken-{}", std::process::id())), taken.to_string()).unwrap();
    }

    #[test]
    fn racing_processes_claim_a_try_once() {
        let d = tempfile::tempdir().unwrap();
        let exe = std::env::current_exe().unwrap();
        let children: Vec<_> = (0..4)
            .map(|_| {
                std::process::Command::new(&exe)
                    .args(["--exact", "history::intent::tests::racing_child_claims", "--include-ignored", "-q"])
                    .env(CHILD_ENV, d.path())
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        let (got, skipped) = read_receipts(d.path(), d.path()).unwrap();
        assert_eq!(skipped, 0);
        let mut tries: Vec<u32> = got.iter().filter_map(|r| r.attempt).collect();
        tries.sort();
        assert_eq!(tries, (1..=40).collect::<Vec<_>>(), "each try claimed exactly once");
        let total: usize = std::fs::read_dir(d.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("taken-"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(total, 40, "the Taken answers add up to the claims");
    }
}
