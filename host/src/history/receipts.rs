//! The receipts file: `<config>/<project>-<hash8>/receipts.jsonl` (+ `.1`, `.2`), the sibling
//! of `messages.jsonl` that `team watch` writes and `team feed` joins by message id.
//!
//! **Settled** (docs/watch.md): a confirmation is a receipt, not a history line. The history
//! keeps one line per send run (and the spec's two later lines for an id: a watch's retry, and
//! "taken but never acted on"); a confirmation is no send run, and it is silent, so it lives
//! here. One receipt says either that the seat showed the sign it acted on a delivered line
//! (`read`, with the sign and the milliseconds from the send's start), or that the watch stopped
//! retrying a send (`retries-stopped`), so that neither is said twice; or that the receiving
//! model acknowledged it (`acked`, with its note: `team ack`, docs/conversations.md).
//!
//! Invariants: the same rules as the history — one `write(2)` per line on an `O_APPEND` file
//! under the folder's one `messages.lock`, rotation at 1 MB keeping three files, files 0600,
//! O_NOFOLLOW, a link or FIFO on the ladder refused; a receipt carries no body; a receipt
//! whose id is no message id is passed over when read.

use super::{append_jsonl_in, fsx, read_lines, Keyed, Read, DIR_MODE, LOCK, ROTATE_BYTES};
use crate::vocab::outcome::Ts;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::Path;

/// The receipts file's name inside the project folder.
pub const RECEIPTS: &str = "receipts.jsonl";

/// What a receipt records.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ReceiptKind {
    /// The seat showed the sign that it acted on the delivered line.
    Read,
    /// The watch stopped retrying the send (three tries, or thirty minutes, or no way to try).
    RetriesStopped,
    /// The watch is about to type try `try` of the send: written and fsync'd before anything
    /// is typed; the retry's history line (`retry: <try>`) ends it. One with no such line is a
    /// retry cut off, whose end is read from the seat, never guessed.
    RetryStarted,
    /// The seat's own CLI ran `team hook` and the message was handed to it from the seat's
    /// inbox (`crate::legs::inbox`): written, and fsync'd, once the hook's answer left whole —
    /// or, for a hook cut off between its answer and this receipt, once the CLI's transcript
    /// showed the answer taken (its `note` says so).
    Handed,
    /// The receiving model said it read the message and will act on it (or why not: `note`),
    /// with `team ack`; or, with `by: owner`, the owner set an alert about it aside. Once a
    /// message is acked by its seat, the watch stops looking for a sign.
    Acked,
    /// `team watch` saw the seat work and then sit free while the message waited in its inbox,
    /// unclaimed: the seat's CLI ran none of team's hooks for it (untrusted, removed, or not
    /// loaded). Said once (the owner's urgent `hook-stopped`); the message is typed instead.
    HookStopped,
}

/// The sign a confirmation was read from.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Sign {
    /// The CLI's session transcript shows the drop read (Claude Code, Codex).
    Transcript,
    /// A row of the screen names the drop read, and is not the trigger's echo.
    Screen,
    /// The seat, seen free after the send, was later seen working (herdr's status, or the
    /// profile's reading of the screen where the multiplexer has none).
    Status,
    /// The seat's own CLI ran `team hook`, which handed it the message whole (a `handed`
    /// receipt): the model had the text in its next request.
    Hook,
}

impl Sign {
    /// The word the feed and the docs use.
    pub fn word(self) -> &'static str {
        match self {
            Sign::Transcript => "transcript",
            Sign::Screen => "screen",
            Sign::Status => "status",
            Sign::Hook => "hook",
        }
    }
}

/// One line of <config>/<project>-<hash8>/receipts.jsonl (and .1, .2), the sibling of
/// messages.jsonl that team watch writes and team feed joins by id; never a message body. A
/// reader passes over a line whose id is no message id (a UUID as team writes one), and one of
/// a kind it does not know, counting it as skipped. See docs/watch.md.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
// (the line is read with this type too: no `deny_unknown_fields`, which would refuse a newer
// build's line; the schema says what this build writes)
#[schemars(extend("additionalProperties" = false))]
#[schemars(transform = crate::vocab::doc::absent_not_null, transform = one_kind_each)]
pub struct Receipt {
    /// When the watch recorded it (ISO-8601, the run's clock).
    pub ts: Ts,
    /// The message id.
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub id: String,
    /// The seat.
    pub to: String,
    pub receipt: ReceiptKind,
    /// The sign a `read` receipt was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sign: Option<Sign>,
    /// Whole milliseconds from the send's start to the sign (a `read` receipt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// Why the retries stopped (a `retries-stopped` receipt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The try a `retry-started` receipt announces, 1 to 3.
    #[serde(default, rename = "try", skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3))]
    pub attempt: Option<u32>,
    /// The hook event that handed the message (a handed receipt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = crate::vocab::hook_event::Event::ALL.map(|e| e.word())))]
    pub event: Option<String>,
    /// The receiving CLI's own session id, as its hook's input gave it (a handed receipt;
    /// absent when the input did not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z0-9._:-]{1,128}$"))]
    pub session: Option<String>,
    /// What the model said with its ack (team ack --note), or `replied <id>` for a question
    /// acked by its reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// On an acked receipt: the owner set an alert about the message aside (the seat's own
    /// ack carries no by).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("const" = "owner"))]
    pub by: Option<String>,
}

impl crate::vocab::doc::Document for Receipt {
    const NAME: &'static str = "receipts.jsonl line";
    const FILE: &'static str = "receipts";
}

/// Which members each kind of receipt carries: (kind, what it is, the members it must have,
/// the members it never has). The watch, the hook, `team ack` and `team reply` each set only
/// their kind's members on [`Receipt::new`].
const KINDS: [(ReceiptKind, &str, &[&str], &[&str]); 6] = [
    (
        ReceiptKind::Read,
        "The seat showed the sign that it acted on a delivered line: the sign, and whole milliseconds from the send's start to it.",
        &["sign", "ms"],
        &["why", "try", "event", "session"],
    ),
    (
        ReceiptKind::RetriesStopped,
        "The watch stopped retrying the send, and said where the message is, once: why.",
        &["why"],
        &["sign", "ms", "try", "event", "session"],
    ),
    (
        ReceiptKind::RetryStarted,
        "The intent of a retry, written and fsync'd before its first keystroke: try is the try about to be typed. The retry's own history line (retry: try) ends it; one without that line is a retry cut off, whose end the watch reads from the seat and never types again on a guess.",
        &["try"],
        &["sign", "ms", "why", "event", "session"],
    ),
    (
        ReceiptKind::Handed,
        "The seat's own CLI ran team hook and the message was handed to it from the seat's inbox (docs/inbox.md): written and fsync'd once the hook's answer left whole, or, for a hook cut off between its answer and this receipt, once the CLI's transcript showed the answer taken (note says so). sign is hook, ms the whole milliseconds from the send's start, event the hook event.",
        &["sign", "ms", "event"],
        &["why", "try"],
    ),
    (
        ReceiptKind::Acked,
        "The seat the message went to acked it (team ack, or its team reply), or with by: owner the owner set an alert about it aside (docs/conversations.md).",
        &[],
        &["why", "try", "sign"],
    ),
    (
        ReceiptKind::HookStopped,
        "The watch saw the seat work and then sit free while the message waited unclaimed in its inbox, its CLI running none of team's hooks: said once, why; the message is typed instead.",
        &["why"],
        &["sign", "ms", "try", "event", "session"],
    ),
];

/// The schema's `oneOf`, one branch per kind ([`KINDS`]); a handed receipt's sign is `hook`.
fn one_kind_each(s: &mut schemars::Schema) {
    let branches: Vec<serde_json::Value> = KINDS
        .iter()
        .map(|(kind, what, must, never)| {
            let word = serde_json::to_value(kind).expect("a kind is a word");
            let mut props = serde_json::json!({ "receipt": { "const": word } });
            if *kind == ReceiptKind::Handed {
                props["sign"] = serde_json::json!({ "const": Sign::Hook.word() });
            }
            let never: Vec<serde_json::Value> = never.iter().map(|m| serde_json::json!({ "required": [m] })).collect();
            let mut b = serde_json::json!({ "description": what, "properties": props, "not": { "anyOf": never } });
            if !must.is_empty() {
                b["required"] = serde_json::json!(must);
            }
            b
        })
        .collect();
    s.insert("oneOf".into(), serde_json::Value::Array(branches));
}

impl Receipt {
    /// A receipt of `kind` for message `id` to `to`, at `ts`, with no other field set (the
    /// caller sets the ones its kind carries).
    pub fn new(kind: ReceiptKind, ts: Ts, id: &str, to: &str) -> Receipt {
        Receipt {
            ts,
            id: id.to_string(),
            to: to.to_string(),
            receipt: kind,
            sign: None,
            ms: None,
            why: None,
            attempt: None,
            event: None,
            session: None,
            note: None,
            by: None,
        }
    }
}

impl Keyed for Receipt {
    fn id(&self) -> &str {
        &self.id
    }
}

/// Appends one receipt to the project's receipts file under `config`.
pub fn append_receipt(config: &Path, project: &str, root: &Path, r: &Receipt) -> io::Result<()> {
    let dir = fsx::ensure_dirs(config, Path::new(&super::project_dir_name(project, root)), DIR_MODE)?;
    append_receipt_in(&dir, r, ROTATE_BYTES)
}

/// Appends one receipt to `dir/receipts.jsonl`, rotating at `limit` bytes.
pub fn append_receipt_in(dir: &Path, r: &Receipt, limit: u64) -> io::Result<()> {
    append_jsonl_in(dir, RECEIPTS, LOCK, r, limit)
}

/// Appends an `acked` receipt under `config` only when no `acked` receipt of the same id and
/// the same acker (`to`, `by`) is there already — the check and the append under the folder's
/// one exclusive lock, so two acks racing write one line. `Ok(false)`: acked already, nothing
/// written.
pub fn append_ack_once(config: &Path, project: &str, root: &Path, r: &Receipt) -> io::Result<bool> {
    if r.receipt != ReceiptKind::Acked {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "an ack is an acked receipt"));
    }
    crate::vocab::id::check_id(&r.id).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let dir = fsx::ensure_dirs(config, Path::new(&super::project_dir_name(project, root)), DIR_MODE)?;
    let fresh = |dir: &Path| -> io::Result<bool> {
        let seen = super::read_unlocked::<Receipt>(dir, RECEIPTS)?;
        Ok(!seen.lines.iter().any(|x| x.receipt == ReceiptKind::Acked && x.id == r.id && x.to == r.to && x.by == r.by))
    };
    super::append_admitted(&dir, RECEIPTS, LOCK, r, ROTATE_BYTES, super::Durability::Buffered, fresh)
}

/// Every receipt of a project folder, oldest first, and how many lines were skipped (did not
/// parse, or name no message id). Writes nothing.
pub fn read_receipts(config: &Path, dir: &Path) -> io::Result<(Vec<Receipt>, usize)> {
    read_receipts_checked(config, dir).map(|r| (r.lines, r.skipped))
}

/// As [`read_receipts`], with the lines passed over for their id named.
pub fn read_receipts_checked(config: &Path, dir: &Path) -> io::Result<Read<Receipt>> {
    read_lines(config, dir, RECEIPTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn read(n: usize) -> Receipt {
        let id = format!("00000000-0000-4000-8000-{n:012x}");
        Receipt {
            sign: Some(Sign::Transcript),
            ms: Some(5_000),
            ..Receipt::new(ReceiptKind::Read, "2026-11-29T09:00:05Z".into(), &id, "gpt-reviewer")
        }
    }

    #[test]
    fn a_receipt_is_one_line_with_no_body() {
        let s = serde_json::to_string(&read(1)).unwrap();
        assert_eq!(
            s,
            r#"{"ts":"2026-11-29T09:00:05Z","id":"00000000-0000-4000-8000-000000000001","to":"gpt-reviewer","receipt":"read","sign":"transcript","ms":5000}"#
        );
        let stop = Receipt {
            receipt: ReceiptKind::RetriesStopped,
            sign: None,
            ms: None,
            why: Some("3 tries".into()),
            ..read(2)
        };
        assert!(serde_json::to_string(&stop).unwrap().contains(r#""receipt":"retries-stopped","why":"3 tries""#));
        let started = Receipt { receipt: ReceiptKind::RetryStarted, sign: None, ms: None, attempt: Some(2), ..read(3) };
        let s = serde_json::to_string(&started).unwrap();
        assert!(s.ends_with(r#""receipt":"retry-started","try":2}"#), "{s}");
        assert_eq!(serde_json::from_str::<Receipt>(&s).unwrap(), started);
    }

    #[test]
    fn an_ack_is_written_once_per_acker() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        let ack = Receipt { receipt: ReceiptKind::Acked, sign: None, ms: None, note: Some("on it".into()), ..read(1) };
        assert!(append_ack_once(d.path(), "beacon", &root, &ack).unwrap());
        assert!(!append_ack_once(d.path(), "beacon", &root, &Receipt { note: None, ..ack.clone() }).unwrap());
        let owner = Receipt { by: Some("owner".into()), ..ack.clone() };
        assert!(append_ack_once(d.path(), "beacon", &root, &owner).unwrap(), "the owner's is another acker's");
        let dir = d.path().join(super::super::project_dir_name("beacon", &root));
        assert_eq!(read_receipts(d.path(), &dir).unwrap().0, vec![ack, owner]);
        assert!(append_ack_once(d.path(), "beacon", &root, &read(2)).is_err(), "only an acked receipt");
    }

    #[test]
    fn a_receipt_whose_id_is_no_message_id_is_passed_over_and_named() {
        let d = tempfile::tempdir().unwrap();
        let dir = fsx::ensure_dirs(d.path(), Path::new("beacon-0000abcd"), DIR_MODE).unwrap();
        append_receipt_in(&dir, &read(1), ROTATE_BYTES).unwrap();
        for bad in ["/etc/hostname", "../x", "id-2"] {
            append_receipt_in(&dir, &Receipt { id: bad.into(), ..read(2) }, ROTATE_BYTES).unwrap();
        }
        append_receipt_in(&dir, &read(3), ROTATE_BYTES).unwrap();
        let got = read_receipts_checked(d.path(), &dir).unwrap();
        assert_eq!(got.lines, vec![read(1), read(3)]);
        assert_eq!((got.skipped, got.bad_ids()), (3, 3));
        assert_eq!(got.passed_over[0].file, dir.join(RECEIPTS));
        assert_eq!(got.passed_over[0].ids, ["/etc/hostname", "../x", "id-2"]);
        assert_eq!(read_receipts(d.path(), &dir).unwrap(), (vec![read(1), read(3)], 3));
    }

    #[test]
    fn receipts_rotate_and_read_back_oldest_first_beside_the_history() {
        let d = tempfile::tempdir().unwrap();
        let dir = fsx::ensure_dirs(d.path(), Path::new("beacon-0000abcd"), DIR_MODE).unwrap();
        let one = serde_json::to_vec(&read(0)).unwrap().len() as u64 + 1;
        for n in 0..7 {
            append_receipt_in(&dir, &read(n), one * 2 + 1).unwrap();
        }
        let (got, skipped) = read_receipts(d.path(), &dir).unwrap();
        assert_eq!(skipped, 0);
        assert_eq!(got, (2..7).map(read).collect::<Vec<_>>());
        assert_eq!(std::fs::metadata(dir.join(RECEIPTS)).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(!dir.join(super::super::MESSAGES).exists(), "the history is not touched");
        // A link at the receipts file is refused, never followed.
        let elsewhere = d.path().join("elsewhere");
        std::fs::remove_file(dir.join(RECEIPTS)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join(RECEIPTS)).unwrap();
        assert!(append_receipt_in(&dir, &read(9), ROTATE_BYTES).is_err());
        assert!(read_receipts(d.path(), &dir).is_err());
        assert!(!elsewhere.exists());
    }
}
