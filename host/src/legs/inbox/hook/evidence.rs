//! Settling a claim in doubt: a hook wrote its note (`mailbox::store::Answering`), its answer
//! may have left, and it died before recording the hand-over. Whether the CLI took that
//! answer is read from evidence, never guessed — the two CLIs measured differ: Claude Code
//! 2.1.332 gives the model the answer of a hook killed after writing it, Codex 0.171.0 does
//! not (docs/inbox.md, `tests/data/transcripts/*/hook-context.jsonl`).
//!
//! - **Taken**: the CLI's own session transcript — the file its hook input named, read from
//!   the size it had when the answer began to leave — holds, in a row of the shape the seat's
//!   profile says carries what the model is sent ([`FEATURE`]), the message's mark
//!   (`mailbox::text::id_mark`: the header the hook's text opens with). The model had it.
//! - **Not taken**: that transcript was read and holds no such row, *and* the CLI has gone
//!   past the hook since: a hook of the same session in another turn (Claude Code's
//!   `prompt_id`, Codex's `turn_id`), or a hook of another session in the same seat. Whatever
//!   the CLI took from the cut-off hook it recorded before its next turn (measured: both CLIs
//!   write the hook's text as they add it, before the request that carries it).
//! - Anything else is **unknown**, and the claim stays in doubt: within the same turn the CLI
//!   may not have written its row yet; with no transcript there is nothing to read.
//!
//! Invariant: only rows appended after the note's offset are read, at most [`READ_MAX`]
//! bytes, the file opened only as a regular file (`fsx::open_regular`); a row counts only
//! whole (a JSON value) and only in a shape the profile names.

use std::io::{Read, Seek, SeekFrom};

use super::HookInput;
use crate::mailbox::store::Answering;

/// The feature word a profile names a transcript row's shape with: `hook-context=<path>=<value>`,
/// where `<path>` is dot-separated object keys (`attachment.type`) and `<value>` the string
/// (or `true`, `false`, a number, as JSON writes it) found there. A row of that shape is text
/// the CLI sent its model; a profile may name several.
pub const FEATURE: &str = "hook-context=";

/// The feature word of a CLI that takes a hook's answer only from a hook that exits (Codex
/// 0.171.0: one killed after writing its answer whole has it dropped). Its hook records nothing
/// before it exits: the hand-over is recorded once the CLI's transcript shows the answer taken
/// (`deliver::confirm`, `deliver::settle`).
pub const ON_EXIT: &str = "hook-answer=on-exit";

/// Whether a profile's features say its CLI takes a hook's answer only from a hook that exits.
pub fn on_exit(features: &[String]) -> bool {
    features.iter().any(|f| f == ON_EXIT)
}

/// For a CLI that takes a hook's answer only from a hook that exits, the rows of its
/// transcript that show what its model was sent (`None`: another CLI, or one whose profile
/// names no such rows — nothing to confirm a hand-over by).
pub fn on_exit_rules(features: &[String]) -> Option<Vec<Rule>> {
    on_exit(features).then(|| Rule::from_features(features)).filter(|r| !r.is_empty())
}

/// The feature word of a CLI whose hook input names its session but not always its transcript
/// (GitHub Copilot CLI 1.0.102: only `agentStop`'s does): `hook-transcript=<pattern>`, the
/// session's transcript as a path over `{home}` (the CLI's HOME, which its hooks inherit) and
/// `{session}` (the input's session id).
pub const TRANSCRIPT_AT: &str = "hook-transcript=";

/// The transcript a hook's input leaves unnamed, as the profile's [`TRANSCRIPT_AT`] pattern
/// places it for `session` under `home` (`None`: no pattern, or not an absolute path).
pub fn transcript_of(features: &[String], session: &str, home: &std::path::Path) -> Option<std::path::PathBuf> {
    let pattern = features.iter().find_map(|f| f.strip_prefix(TRANSCRIPT_AT))?;
    // (a session id is a word of letters, digits and `-_.:`, `HookInput::parse`: no `/`)
    let path = pattern.replace("{home}", &home.to_string_lossy()).replace("{session}", session);
    let p = std::path::PathBuf::from(path);
    (p.is_absolute() && !session.is_empty() && !session.starts_with('.')).then_some(p)
}

/// The most of a transcript read past the note's offset.
pub const READ_MAX: u64 = 8 << 20;

/// One shape of transcript row that holds what the CLI sent its model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    path: Vec<String>,
    value: String,
}

impl Rule {
    /// The rules a profile's features name (a word that is not one is passed over).
    pub fn from_features(features: &[String]) -> Vec<Rule> {
        features
            .iter()
            .filter_map(|f| f.strip_prefix(FEATURE))
            .filter_map(|r| {
                let (path, value) = r.split_once('=')?;
                let path: Vec<String> = path.split('.').map(str::to_string).collect();
                (!value.is_empty() && path.iter().all(|p| !p.is_empty())).then(|| Rule { path, value: value.into() })
            })
            .collect()
    }

    fn matches(&self, row: &serde_json::Value) -> bool {
        let at = self.path.iter().try_fold(row, |v, k| v.get(k));
        match at {
            Some(serde_json::Value::String(s)) => *s == self.value,
            Some(serde_json::Value::Bool(b)) => self.value == if *b { "true" } else { "false" },
            Some(serde_json::Value::Number(n)) => self.value == n.to_string().as_str(),
            _ => false,
        }
    }
}

/// What the evidence says of a claim in doubt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The CLI took the answer: the transcript shows it.
    Taken,
    /// The CLI went on without it (why).
    NotTaken(String),
    /// Nothing settles it yet (why).
    Unknown(String),
}

/// What the transcript since the note shows of the message `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shown {
    Taken,
    Nothing,
    Unread(String),
}

/// Judges a claim in doubt: its note, its message's id, the rules of its seat's profile, and
/// the hook input of the hook that asks (`None`: a reader with no hook input, the watch).
pub fn judge(note: &Answering, id: &str, rules: &[Rule], now: Option<&HookInput>) -> Verdict {
    match shown(note, id, rules) {
        Shown::Taken => Verdict::Taken,
        Shown::Unread(why) => Verdict::Unknown(why),
        Shown::Nothing => match now.and_then(|i| moved_on(note, i)) {
            Some(how) => Verdict::NotTaken(format!(
                "{how}, and its transcript shows no text of that hook holding the message since the answer began"
            )),
            None => Verdict::Unknown(
                "its transcript shows no text holding it yet, and its CLI is still in the turn of that hook".into(),
            ),
        },
    }
}

/// How the CLI has gone past the hook of `note`, as the hook input `now` shows, if it has.
fn moved_on(note: &Answering, now: &HookInput) -> Option<&'static str> {
    match (&note.session, &now.session_id) {
        (Some(a), Some(b)) if a != b => Some("its CLI runs another session in the seat now"),
        (Some(_), Some(_)) => match (&note.turn, &now.turn) {
            (Some(a), Some(b)) if a != b => Some("its CLI has begun another turn of the same session"),
            _ => None,
        },
        _ => None,
    }
}

/// Reads the transcript rows appended since the note for the message's mark.
fn shown(note: &Answering, id: &str, rules: &[Rule]) -> Shown {
    if rules.is_empty() {
        return Shown::Unread("its CLI's profile names no transcript rows of what its model is sent".into());
    }
    let Some(path) = &note.transcript else {
        return Shown::Unread("its hook's input named no transcript".into());
    };
    let text = match read_from(path, note.offset) {
        Ok(t) => t,
        Err(e) => return Shown::Unread(format!("its transcript could not be read ({e})")),
    };
    let mark = crate::mailbox::text::id_mark(id);
    let taken = text
        .lines()
        .filter(|l| l.contains(&mark))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .any(|row| rules.iter().any(|r| r.matches(&row)));
    if taken {
        Shown::Taken
    } else {
        Shown::Nothing
    }
}

/// The text of `path` from byte `from` on (at most [`READ_MAX`] bytes), opened only as a
/// regular file.
fn read_from(path: &std::path::Path, from: u64) -> std::io::Result<String> {
    let mut f = crate::fsx::open_regular(path, std::fs::OpenOptions::new().read(true))?;
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::new();
    f.take(READ_MAX).read_to_end(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The transcript's size now (its offset for a note): 0 when it is not there yet.
pub fn size_of(path: &std::path::Path) -> u64 {
    std::fs::symlink_metadata(path).ok().filter(|m| m.is_file()).map_or(0, |m| m.len())
}

#[cfg(test)]
mod tests;
