//! Native mirrors of the `team:profile@0.1.0` types (`wit/v0.1/profile.wit`).
//!
//! Profiles compute with these plain Rust types so their logic compiles and is tested natively;
//! the wasm glue (`export_profile!`) converts them field for field into the generated bindings.
//! Invariant: every type here has exactly the cases and fields of its WIT counterpart.

/// A pane as the multiplexer shows it at one moment (WIT `screen`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Screen {
    /// The visible rows with their ANSI SGR styling, top to bottom.
    pub styled: Vec<String>,
    /// The same visible rows as plain text.
    pub plain: Vec<String>,
    /// The terminal title, or an empty string.
    pub title: String,
    /// Width in columns.
    pub cols: u32,
    /// Height in rows.
    pub rows: u32,
    /// Rows above the visible area, oldest first, when given.
    pub recent: Vec<String>,
}

impl Screen {
    /// A screen from plain rows only (no styling), sized from the text.
    pub fn from_plain(text: &str, title: &str) -> Screen {
        let plain: Vec<String> = text.lines().map(|l| l.trim_end_matches('\r').to_string()).collect();
        let cols = plain.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let rows = plain.len() as u32;
        Screen { styled: Vec::new(), plain, title: title.to_string(), cols, rows, recent: Vec::new() }
    }

    /// A screen from styled (ANSI) rows; the plain rows are derived by stripping SGR.
    pub fn from_ansi(text: &str, title: &str) -> Screen {
        let styled: Vec<String> = text.lines().map(|l| l.trim_end_matches('\r').to_string()).collect();
        let plain: Vec<String> = styled.iter().map(|l| crate::ansi::strip(l)).collect();
        let cols = plain.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let rows = plain.len() as u32;
        Screen { styled, plain, title: title.to_string(), cols, rows, recent: Vec::new() }
    }
}

/// The kinds of dialog a profile recognises (WIT `dialog-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
    /// The snake_case word the fixtures' `expect.dialog` and the host's JSON use.
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

/// A dialog as read from the screen (WIT `dialog`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub kind: DialogKind,
    /// Its title or first line, for the report.
    pub title: String,
}

/// What the seat is doing (WIT `state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Idle,
    /// Busy; the payload names the hint that showed it.
    Working(String),
    Dialog(Dialog),
    Starting,
    Exited,
    /// The profile cannot tell; the payload says why.
    Unknown(String),
}

impl State {
    /// The word for the state's case: idle, working, dialog, starting, exited, unknown.
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
    /// Nothing, or only faint placeholder / suggestion text.
    Empty,
    /// This text, unwrapped into one line.
    Holds(String),
    /// No input box can be read on this screen.
    Unreadable,
}

/// An error the last turn ended in (WIT `turn-error`).
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

/// A whole reading of one screen (WIT `reading`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub state: State,
    pub composer: Composer,
    pub last_error: Option<TurnError>,
    /// The rule or region that decided the reading, in a short sentence.
    pub why: String,
}

/// What a profile is and what it knows about its CLI (WIT `description`).
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// `&["a", "b"]` → `vec!["a".to_string(), "b".to_string()]`, for building descriptions.
pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}
