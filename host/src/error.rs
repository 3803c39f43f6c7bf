//! Error kinds and exit codes (a kind's row is its outcome's word, `crate::vocab::outcome::Outcome`), and the one
//! error type that crosses the command boundary.
//!
//! Invariant: nothing below `cli` prints. Lower layers return `TeamError` (or plain data);
//! the command layer turns it into exactly one stderr line (plain runs) or exactly one
//! `team.error` document on stdout (`--json`), and the process exits with `kind.exit_code()`.

use schemars::JsonSchema;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::vocab::doc::{Document, Named};
use crate::vocab::outcome::Outcome;

/// What went wrong, at the granularity that decides the exit code and the error id's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The invocation cannot be read (bad flags, conflicting arguments): exit 2.
    Usage,
    /// The team file (or another input file) cannot be read: exit 2.
    BadFile,
    /// Nothing sent on purpose (admission, unknown seat, --wait, …): exit 1.
    Refused,
    /// The message is safely on disk but nothing was typed: exit 1.
    Held,
    /// A line was typed and never taken: exit 1.
    NotSubmitted,
    /// The seat was not reached: exit 1.
    Unreachable,
    /// A waited frame got no reply in its window: exit 1.
    Timeout,
    /// Anything else that stops a command (an I/O failure, a broken profile): exit 1.
    Failed,
}

impl Kind {
    /// The process exit code for this kind.
    pub fn exit_code(self) -> i32 {
        match self {
            Kind::Usage | Kind::BadFile => 2,
            _ => 1,
        }
    }

    /// The row part of an error id (`send.<row>`): the outcome word of a kind that is one.
    pub fn row(self) -> &'static str {
        match self {
            Kind::Usage => "usage",
            Kind::BadFile => "bad-file",
            outcome => outcome.outcome().and_then(|o| o.known_word()).unwrap_or_default(),
        }
    }

    /// Every kind.
    pub const ALL: [Kind; 8] = [
        Kind::Usage,
        Kind::BadFile,
        Kind::Refused,
        Kind::Held,
        Kind::NotSubmitted,
        Kind::Unreachable,
        Kind::Timeout,
        Kind::Failed,
    ];

    /// The kind a run that ended with `outcome` stops with: the one whose [`Kind::outcome`] it
    /// is (the one table between the two). `None`: an outcome that stops nothing (delivered,
    /// answered) or a word this build does not know.
    pub fn ending(outcome: &Outcome) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.outcome().as_ref() == Some(outcome))
    }

    /// The outcome a run that stopped with this kind ended with (`None`: the invocation or
    /// its file could not be read, and nothing ran).
    pub fn outcome(self) -> Option<Outcome> {
        Some(match self {
            Kind::Usage | Kind::BadFile => return None,
            Kind::Refused => Outcome::Refused,
            Kind::Held => Outcome::Held,
            Kind::NotSubmitted => Outcome::NotSubmitted,
            Kind::Unreachable => Outcome::Unreachable,
            Kind::Timeout => Outcome::Timeout,
            Kind::Failed => Outcome::Failed,
        })
    }
}

/// The error every command returns: its kind, a stable id, the sentence a plain run prints
/// after `team <command>: ` (as [`TeamError::message`] renders it), and its hints (ways out,
/// each shown on a line of its own after the message, in the order they were added).
#[derive(Debug, Clone)]
pub struct TeamError {
    pub kind: Kind,
    /// Stable id `<command>.<row>`; filled by the command layer when left empty below it.
    pub id: String,
    /// What went wrong, without the `refused: ` a refusal is shown with: code that builds on
    /// another error's words takes these (never the rendered message, never by cutting it).
    pub sentence: String,
    /// Made by [`TeamError::refused`]: shown after the spec's `refused: ` ([`TeamError::message`],
    /// the one place that adds it). A refusal the spec words without it (register, rename,
    /// route) is `Kind::Refused` with this `false`.
    pub refusal: bool,
    /// Ways out, first one first (`with_repair` adds one); rendered one a line as the repair.
    pub hints: Vec<String>,
    /// `(project, session)` when the run read a team file and reached an outcome (held,
    /// not-submitted, unreachable): the plain run prints the context line and the message on
    /// stdout, as every outcome line is printed; refusals and usage errors carry none.
    /// (Boxed: it is rare, and it keeps every `Result<_, TeamError>` small.)
    pub context: Option<Box<(String, String)>>,
    /// The file an I/O failure was about, when it came from one ([`IoAt`]); the sentence is
    /// the I/O error's own words, as before (boxed for the same reason as `context`).
    pub path: Option<Box<PathBuf>>,
}

impl TeamError {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        TeamError {
            kind,
            id: String::new(),
            sentence: message.into(),
            refusal: false,
            hints: Vec::new(),
            context: None,
            path: None,
        }
    }
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Kind::Usage, message)
    }
    pub fn bad_file(message: impl Into<String>) -> Self {
        Self::new(Kind::BadFile, message)
    }
    /// A refusal; its message is shown with the spec's `refused: ` prefix.
    pub fn refused(message: impl Into<String>) -> Self {
        TeamError { refusal: true, ..Self::new(Kind::Refused, message) }
    }

    /// The message as every command shows it: the sentence, after `refused: ` for a refusal.
    pub fn message(&self) -> String {
        if self.refusal {
            format!("refused: {}", self.sentence)
        } else {
            self.sentence.clone()
        }
    }
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(Kind::Failed, message)
    }
    /// Adds a hint (a way out) after those already there.
    pub fn with_repair(mut self, repair: impl Into<String>) -> Self {
        self.hints.push(repair.into());
        self
    }
    /// [`TeamError::with_repair`] under its list name.
    pub fn with_hint(self, hint: impl Into<String>) -> Self {
        self.with_repair(hint)
    }
    /// Adds the hints of `hints` (none, one or more) after those already there.
    pub fn with_hints(mut self, hints: impl IntoIterator<Item = String>) -> Self {
        self.hints.extend(hints);
        self
    }
    /// The hints as the one repair text every command shows (one a line), or `None`.
    pub fn repair(&self) -> Option<String> {
        (!self.hints.is_empty()).then(|| self.hints.join("\n"))
    }
    /// Marks an outcome reached by a run that read a team file (see `context`).
    pub fn with_context(mut self, context: (String, String)) -> Self {
        self.context = Some(Box::new(context));
        self
    }
    /// Set an explicit id (`register.no-seat`, …) instead of `<command>.<row>`.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }
    /// The id, defaulting to `<command>.<row>`.
    pub fn id_for(&self, command: &str) -> String {
        if self.id.is_empty() {
            format!("{command}.{}", self.kind.row())
        } else {
            self.id.clone()
        }
    }

    /// The `team.error` document.
    pub fn document(&self, command: &str) -> ErrorDoc {
        ErrorDoc {
            schema: Named::new(),
            error: ErrorBody { id: self.id_for(command), message: self.message(), repair: self.repair() },
        }
    }

    /// The plain stderr text: `team <command>: <message>` (on one line: text from outside
    /// inside it is escaped) and, when there is one, the repair.
    pub fn plain(&self, command: &str) -> String {
        let message = self.message();
        let message = crate::vocab::text::one_line(&message);
        match self.repair() {
            Some(r) => format!("team {command}: {message}\n{r}\n"),
            None => format!("team {command}: {message}\n"),
        }
    }
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for TeamError {}

impl From<std::io::Error> for TeamError {
    fn from(e: std::io::Error) -> Self {
        TeamError::failed(e.to_string())
    }
}

/// An I/O failure and the file it was about. Into a [`TeamError`] it is `failed` (or, by
/// [`IoAt::bad_file`], a file that cannot be read) with the I/O error's own words as its
/// sentence — the words every command showed before — and the path kept in `TeamError::path`.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct IoAt {
    pub path: PathBuf,
    #[source]
    pub error: std::io::Error,
}

impl IoAt {
    /// As a `BadFile` error (exit 2): an input file that cannot be read.
    pub fn bad_file(self) -> TeamError {
        TeamError { path: Some(Box::new(self.path)), ..TeamError::bad_file(self.error.to_string()) }
    }
}

impl From<IoAt> for TeamError {
    fn from(e: IoAt) -> Self {
        TeamError { path: Some(Box::new(e.path)), ..TeamError::failed(e.error.to_string()) }
    }
}

/// `.at(path)` on an I/O result: the error keeps the path it was about ([`IoAt`]).
pub trait At<T> {
    fn at(self, path: impl AsRef<Path>) -> std::result::Result<T, IoAt>;
}

impl<T> At<T> for std::io::Result<T> {
    fn at(self, path: impl AsRef<Path>) -> std::result::Result<T, IoAt> {
        self.map_err(|error| IoAt { path: path.as_ref().to_path_buf(), error })
    }
}

/// The structured error document every `team` command prints on stdout under --json when it
/// exits 1 or 2 (stderr stays empty). error.id is `<command>.<row>` (send.refused,
/// send.not-submitted, feed.refused, …); error.message is the text a plain run prints after
/// its `team <command>: ` prefix; error.repair is a way out when there is one.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorDoc {
    pub schema: Named<ErrorDoc>,
    pub error: ErrorBody,
}

impl Document for ErrorDoc {
    const NAME: &'static str = "team.error";
    const FILE: &'static str = "error";
}

/// The error itself.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// Stable id `<command>.<row>`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$"))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub message: String,
    pub repair: Option<String>,
}

pub type Result<T, E = TeamError> = std::result::Result<T, E>;

/// The context line every run that reads a team file opens with (the file's words escaped).
pub fn context_line(project: &str, session: &str) -> String {
    use crate::vocab::text::one_line;
    format!("team {}, session \"{}\"\n", one_line(project), one_line(session))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_spec_table() {
        assert_eq!(Kind::Usage.exit_code(), 2);
        assert_eq!(Kind::BadFile.exit_code(), 2);
        assert_eq!(Kind::Refused.exit_code(), 1);
        assert_eq!(Kind::NotSubmitted.exit_code(), 1);
    }

    #[test]
    fn rows_are_the_outcome_words() {
        let rows: Vec<&str> = Kind::ALL.map(Kind::row).to_vec();
        assert_eq!(rows, ["usage", "bad-file", "refused", "held", "not-submitted", "unreachable", "timeout", "failed"]);
    }

    #[test]
    fn a_kind_is_derived_from_the_outcome_it_ends_with() {
        for k in Kind::ALL {
            match k.outcome() {
                Some(o) => assert_eq!(Kind::ending(&o), Some(k)),
                None => assert!(matches!(k, Kind::Usage | Kind::BadFile)),
            }
        }
        assert_eq!(Kind::ending(&Outcome::Delivered), None);
        assert_eq!(Kind::ending(&Outcome::Answered), None);
    }

    #[test]
    fn error_document_matches_the_spec_shape() {
        let e = TeamError::refused("x: no");
        let doc = serde_json::to_value(e.document("send")).unwrap();
        assert_eq!(doc["error"]["id"], "send.refused");
        assert_eq!(doc["error"]["message"], "refused: x: no");
        assert!(doc["error"]["repair"].is_null());
        assert_eq!(doc["schema"]["name"], "team.error");
    }

    #[test]
    fn hints_are_a_list_rendered_one_a_line() {
        let one = TeamError::failed("x").with_repair("do y");
        assert_eq!(one.plain("c"), "team c: x\ndo y\n");
        let two = one.with_hint("or z");
        assert_eq!(two.hints, ["do y", "or z"]);
        assert_eq!(two.plain("c"), "team c: x\ndo y\nor z\n");
        assert_eq!(TeamError::failed("x").repair(), None);
    }

    #[test]
    fn an_io_error_keeps_its_path_and_its_words() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e: TeamError = Err::<(), _>(io).at("/x/y").unwrap_err().into();
        assert_eq!(
            (e.kind, e.message(), e.path.as_deref()),
            (Kind::Failed, "gone".into(), Some(&PathBuf::from("/x/y")))
        );
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = Err::<(), _>(io).at("/x/y").unwrap_err().bad_file();
        assert_eq!((e.kind, e.plain("c")), (Kind::BadFile, "team c: gone\n".into()));
    }
}
