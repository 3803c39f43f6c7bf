//! The note a hook writes before its answer may leave: `answering/<key>.json`, beside the
//! claim it is about. It turns a claim into one whose answer may have reached the CLI, so a
//! claim whose claimer died is told apart:
//!
//! - no note: the answer never began to leave — the claim goes back to the queue (nothing can
//!   have reached the model);
//! - a note: the answer may have left — the claim is *in doubt*, and only evidence settles it
//!   (`legs::inbox::hook`'s evidence: the CLI's transcript from the size the note took, the
//!   CLI's later turn or session); offering it again blindly could hand it twice, calling it
//!   handed without evidence could lose it.
//!
//! What the note keeps is what that evidence needs: the hook event, when the answer began to
//! leave, the CLI's session and turn as its input named them, and the transcript it named
//! with that file's size then (only rows written after can show the answer taken).
//!
//! Invariants: the note is written whole (a complete temp file renamed in, fsync'd) before the
//! first byte of the answer, and removed only after the claim has moved on (to `handed/`) or
//! before it is given back (so a note never outlives the claim it vouches for in a way that
//! could make a never-answered claim look answered: a note whose claim was given back is gone
//! first); the sub-folder is not in the folder's own entries, so the fast path still reads one
//! directory.

use std::fs;
use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Claim, Claimer, SeatBox, DIR_MODE, FILE_MODE};
use crate::fsx;

/// The sub-folder of the notes.
pub const ANSWERING: &str = "answering";

/// The largest note read (one is a few hundred bytes; the transcript path is bounded).
const NOTE_MAX: u64 = 16 * 1024;

/// Written before a claimed message's answer may leave (see the module's words).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Answering {
    /// The hook that writes the answer.
    pub pid: u32,
    pub start: u64,
    /// The hook event's word (`post-tool-use`).
    pub event: String,
    /// When the answer began to leave, in ms since the epoch by the wall clock.
    pub at_ms: i64,
    /// The CLI's session and turn (its hook input's `session_id`, and `turn_id` or `prompt_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The CLI's session transcript as its hook input named it, and its size then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<PathBuf>,
    #[serde(default)]
    pub offset: u64,
    /// Whether a hook has said in team.log that the claim is in doubt (said once).
    #[serde(default)]
    pub said: bool,
    /// The CLI takes a hook's answer only from a hook that exits (its profile says so): the
    /// hook that wrote this note records nothing, and its claim is settled by the evidence
    /// alone once the hook has exited, whether it exited or was killed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_exit: bool,
}

impl Answering {
    /// The hook that wrote the note.
    pub fn by(&self) -> Claimer {
        Claimer { pid: self.pid, start: self.start }
    }
}

impl SeatBox {
    fn note_path(&self, c: &Claim) -> PathBuf {
        self.dir.join(ANSWERING).join(c.key.waiting())
    }

    /// Notes that `c`'s answer may leave from now on: written whole before its first byte.
    pub fn answering(&self, c: &Claim, note: &Answering) -> io::Result<()> {
        let dir = fsx::ensure_dirs(&self.dir, std::path::Path::new(ANSWERING), DIR_MODE)?;
        let bytes = serde_json::to_vec(note).map_err(io::Error::other)?;
        fsx::write_atomic(&dir.join(c.key.waiting()), &bytes, FILE_MODE)
    }

    /// The note of `c`'s message, when one was written (`Err`: one is there and cannot be
    /// read — the answer may still have left).
    pub fn note(&self, c: &Claim) -> io::Result<Option<Answering>> {
        let Some(text) = fsx::read_capped(&self.note_path(c), NOTE_MAX)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// Whether a note stands for `c`'s message (read or not).
    pub(super) fn noted(&self, c: &Claim) -> bool {
        fs::symlink_metadata(self.note_path(c)).is_ok()
    }

    /// Rewrites `c`'s note (that it was said in doubt).
    pub fn renote(&self, c: &Claim, note: &Answering) -> io::Result<()> {
        fsx::write_atomic(&self.note_path(c), &serde_json::to_vec(note).map_err(io::Error::other)?, FILE_MODE)
    }

    /// Removes `c`'s note (gone already is fine).
    pub(super) fn unnote(&self, c: &Claim) -> io::Result<()> {
        match fs::remove_file(self.note_path(c)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Takes over `c`, a claim whose claimer died, for `by` (which settles it): `None` when
    /// another took it first. Its note stays: it is the message's, not the claimer's.
    pub fn take_over(&self, c: &Claim, by: Claimer) -> io::Result<Option<Claim>> {
        let mine = Claim { key: c.key.clone(), by };
        match fs::rename(self.dir.join(c.name()), self.dir.join(mine.name())) {
            Ok(()) => Ok(Some(mine)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}
