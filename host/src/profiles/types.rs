//! Host-side mirrors of the `team:profile` WIT types: what the rest of `team` sees of a
//! profile, independent of which WIT version the component speaks.
//!
//! Invariant: these types carry no wasmtime type; each supported WIT version converts its
//! bindgen types into these (`v0_1` today), so callers never change when `0.2` arrives.

use std::fmt;

/// A pane as the multiplexer shows it at one moment (WIT `screen`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Screen {
    /// The visible rows with their ANSI SGR styling, top to bottom.
    pub styled: Vec<String>,
    /// The same rows as plain text.
    pub plain: Vec<String>,
    /// The terminal title, or empty.
    pub title: String,
    pub cols: u32,
    pub rows: u32,
    /// Scrollback rows above the visible area, oldest first, when the multiplexer gives them.
    pub recent: Vec<String>,
}

impl Screen {
    /// A screen from an ANSI capture (`tmux capture-pane -e -p`, `herdr pane read --format
    /// ansi`) or a plain one: one row per line (a final newline ends the last row, it does not
    /// start a new one), plain rows derived by stripping escape sequences and trailing spaces, `rows` = the number
    /// of lines and `cols` = the widest plain row in characters (a capture drops trailing
    /// blanks, so callers that know the pane's size should set `cols`/`rows` after).
    pub fn from_ansi(text: &str, title: &str) -> Screen {
        let text = text.strip_suffix('\n').unwrap_or(text);
        let styled: Vec<String> = if text.is_empty() {
            Vec::new()
        } else {
            text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).to_string()).collect()
        };
        // Trailing blanks are dropped from plain rows, as `tmux capture-pane -p` drops them
        // (with `-e` it keeps some that carried a style).
        let plain: Vec<String> = styled.iter().map(|l| strip_ansi(l).trim_end_matches(' ').to_string()).collect();
        let cols = plain.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        Screen {
            rows: styled.len() as u32,
            cols,
            styled,
            plain,
            title: title.strip_suffix('\n').unwrap_or(title).to_string(),
            recent: Vec::new(),
        }
    }
}

pub use crate::mux::strip_ansi;

/// The dialog kinds a profile recognises (WIT `dialog-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogKind {
    Question,
    Permission,
    Trust,
    VendorNotice,
    ProviderError,
    RateLimit,
    HeldMessage,
}

impl DialogKind {
    /// The word `--json` documents use: the WIT case with `_` for `-`, as the screen
    /// fixtures' `.meta.json` spell it, so a vendor can compare `team profile explain`
    /// output with a fixture's expectation directly.
    pub fn word(self) -> &'static str {
        match self {
            DialogKind::Question => "question",
            DialogKind::Permission => "permission",
            DialogKind::Trust => "trust",
            DialogKind::VendorNotice => "vendor_notice",
            DialogKind::ProviderError => "provider_error",
            DialogKind::RateLimit => "rate_limit",
            DialogKind::HeldMessage => "held_message",
        }
    }
}

/// A dialog as read from the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub kind: DialogKind,
    pub title: String,
}

/// What the seat is doing (WIT `state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Idle,
    /// The hint that showed it.
    Working(String),
    Dialog(Dialog),
    Starting,
    Exited,
    /// Why the profile cannot tell.
    Unknown(String),
}

impl State {
    /// `idle`, `working`, `dialog`, `starting`, `exited` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            State::Idle => "idle",
            State::Working(_) => "working",
            State::Dialog(_) => "dialog",
            State::Starting => "starting",
            State::Exited => "exited",
            State::Unknown(_) => "unknown",
        }
    }
}

/// What the input box holds (WIT `composer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Composer {
    Empty,
    Holds(String),
    Unreadable,
}

impl Composer {
    /// `empty`, `holds` or `unreadable`.
    pub fn word(&self) -> &'static str {
        match self {
            Composer::Empty => "empty",
            Composer::Holds(_) => "holds",
            Composer::Unreadable => "unreadable",
        }
    }
}

/// The error the last turn ended in (WIT `turn-error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnError {
    RateLimit,
    ProviderError,
}

impl TurnError {
    pub fn word(self) -> &'static str {
        match self {
            TurnError::RateLimit => "rate_limit",
            TurnError::ProviderError => "provider_error",
        }
    }
}

/// A profile's whole reading of one screen (WIT `reading`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub state: State,
    pub composer: Composer,
    pub last_error: Option<TurnError>,
    /// The rule or region that decided the reading.
    pub why: String,
}

/// What a profile is and what it knows about its CLI (WIT `description`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Description {
    pub id: String,
    pub version: String,
    pub clis: Vec<String>,
    pub process_names: Vec<String>,
    pub native_channel: bool,
    pub max_trigger: u32,
    pub working_hints: Vec<String>,
    pub enter_pause_ms: u32,
    pub queues_while_working: bool,
    pub forbidden_starts: Vec<String>,
    pub has_compose: bool,
    pub transcript_patterns: Vec<String>,
    pub features: Vec<String>,
}

/// Where a profile component comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Embedded in the `team` binary.
    Bundled,
    /// A file: dropped in under `<config>/profiles/`, or named by `--profile`/`check`.
    Path(std::path::PathBuf),
}

impl Source {
    /// `bundled` or `path`, for `--json`.
    pub fn word(&self) -> &'static str {
        match self {
            Source::Bundled => "bundled",
            Source::Path(_) => "path",
        }
    }
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Source::Bundled => None,
            Source::Path(p) => Some(p),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Bundled => f.write_str("bundled"),
            Source::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

/// One installed profile as `team profile list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Available {
    pub id: String,
    pub version: String,
    pub source: Source,
    /// `Ok` when the host would use it; `Err(why)` when it is refused.
    pub validity: Result<(), String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_ansi_strips_sgr_and_keeps_rows() {
        let s = Screen::from_ansi("\u{1b}[2mTry \"fix\"\u{1b}[0m\n\u{1b}[1m›\u{1b}[22m hi\n", "t\n");
        assert_eq!(s.rows, 2);
        assert_eq!(s.plain, vec!["Try \"fix\"".to_string(), "› hi".to_string()]);
        assert_eq!(s.styled[0], "\u{1b}[2mTry \"fix\"\u{1b}[0m");
        assert_eq!(s.cols, 9);
        assert_eq!(s.title, "t");
    }

    #[test]
    fn from_ansi_keeps_blank_rows_and_drops_only_the_final_newline() {
        let s = Screen::from_ansi("a\n\n\nb\n", "");
        assert_eq!(s.plain, vec!["a", "", "", "b"]);
        assert_eq!(Screen::from_ansi("", "").rows, 0);
        assert_eq!(Screen::from_ansi("\u{276f}\u{a0} \u{1b}[7m \u{1b}[0m  \n", "").plain, vec!["\u{276f}\u{a0}"]);
    }

    #[test]
    fn strip_ansi_handles_osc_and_charset_escapes() {
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}x\u{1b}(By\u{1b}]8;;u\u{1b}\\z"), "xyz");
        assert_eq!(strip_ansi("\u{1b}[38;2;1;2;3mA\u{1b}[m\tB"), "A\tB");
    }
}
