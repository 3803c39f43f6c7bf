//! What a profile answers about a screen, and what it says about itself.
//!
//! Every enum here is rendered to words in one place, its own `impl`:
//! - `word()` is the stable spelling of `--json` documents and the fixtures' `.meta.json`
//!   (snake_case: `vendor_notice`, `rate_limit`);
//! - `label()` is the spelling the spec uses for people (`vendor notice`, `rate limit`,
//!   `held-message`), which outcome lines and reports print.
//!
//! Invariant: these types have the cases and fields of the newest `team:profile` WIT line
//! (`wit/v0.2`); an older line converts into them (a field it cannot carry takes its
//! documented default), so nothing outside the conversions knows which line a profile speaks.

use std::fmt;

/// The kinds of dialog a profile recognises; a dialog is never typed into (WIT `dialog-kind`).
///
/// Open: [`DialogKind::Other`] names a vendor's dialog the host has no word for, so a new one
/// needs no host release. It is a dialog all the same.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DialogKind {
    /// The CLI asks its user a question with options.
    Question,
    /// The CLI asks to run a command or touch a file.
    Permission,
    /// The CLI asks whether to trust a folder, or hooks it would run (Codex's `Hooks need review`).
    Trust,
    /// A vendor notice, sign-in or API-key screen that wants an answer.
    VendorNotice,
    /// The provider failed and the CLI shows it in a dialog or retry screen.
    ProviderError,
    /// The provider's rate limit stopped the CLI and it asks what to do.
    RateLimit,
    /// Claude Code's held-message dialog (a cross-session message awaiting a person).
    HeldMessage,
    /// A dialog the profile names in its own words (a short phrase, such as `plan approval`).
    Other(String),
}

impl DialogKind {
    /// The closed kinds, in WIT order.
    pub const KNOWN: [DialogKind; 7] = [
        DialogKind::Question,
        DialogKind::Permission,
        DialogKind::Trust,
        DialogKind::VendorNotice,
        DialogKind::ProviderError,
        DialogKind::RateLimit,
        DialogKind::HeldMessage,
    ];

    /// The stable JSON word: `question`, `permission`, `trust`, `vendor_notice`,
    /// `provider_error`, `rate_limit`, `held_message`, or `other` (the name is in
    /// [`other_name`](Self::other_name)).
    pub fn word(&self) -> &'static str {
        match self {
            DialogKind::Question => "question",
            DialogKind::Permission => "permission",
            DialogKind::Trust => "trust",
            DialogKind::VendorNotice => "vendor_notice",
            DialogKind::ProviderError => "provider_error",
            DialogKind::RateLimit => "rate_limit",
            DialogKind::HeldMessage => "held_message",
            DialogKind::Other(_) => "other",
        }
    }

    /// The spec's word for people: `question`, `permission`, `trust`, `vendor notice`,
    /// `provider error`, `rate limit`, `held-message`, or the profile's own name for it.
    pub fn label(&self) -> &str {
        match self {
            DialogKind::Question => "question",
            DialogKind::Permission => "permission",
            DialogKind::Trust => "trust",
            DialogKind::VendorNotice => "vendor notice",
            DialogKind::ProviderError => "provider error",
            DialogKind::RateLimit => "rate limit",
            DialogKind::HeldMessage => "held-message",
            DialogKind::Other(name) => name,
        }
    }

    /// The profile's own name of an [`Other`](Self::Other) dialog.
    pub fn other_name(&self) -> Option<&str> {
        match self {
            DialogKind::Other(n) => Some(n),
            _ => None,
        }
    }

    /// The kind a JSON word names (`other` needs its name, so it is not one of them).
    pub fn from_word(word: &str) -> Option<DialogKind> {
        DialogKind::KNOWN.into_iter().find(|k| k.word() == word)
    }
}

impl fmt::Display for DialogKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A dialog as read from the screen (WIT `dialog`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    /// What kind of dialog it is.
    pub kind: DialogKind,
    /// Its title or first line, for the report.
    pub title: String,
}

impl Dialog {
    /// The dialog with its title quoted as a sentence ([`crate::quote::sentence`]): art
    /// glyphs out, spaces squashed, and empty when no word is left.
    pub fn quoted(self) -> Dialog {
        let title = crate::quote::sentence(&self.title).unwrap_or_default();
        Dialog { title, ..self }
    }
}

/// What the seat is doing (WIT `state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// At its prompt, waiting for input.
    Idle,
    /// Busy with a turn; the payload is the working hint that showed it (one of the profile's
    /// `description.working_hints`, such as `esc to interrupt` or `title spinner`).
    Working(String),
    /// Showing a dialog.
    Dialog(Dialog),
    /// Still starting up; no prompt yet.
    Starting,
    /// The CLI has exited and the pane shows a shell or nothing.
    Exited,
    /// The profile cannot tell; the payload says why.
    Unknown(String),
}

impl State {
    /// The word for the state's case: `idle`, `working`, `dialog`, `starting`, `exited`,
    /// `unknown` (the same for JSON and people).
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

    /// The working hint, when working.
    pub fn hint(&self) -> Option<&str> {
        match self {
            State::Working(h) => Some(h),
            _ => None,
        }
    }

    /// The dialog, when showing one.
    pub fn dialog(&self) -> Option<&Dialog> {
        match self {
            State::Dialog(d) => Some(d),
            _ => None,
        }
    }
}

impl fmt::Display for State {
    /// `idle`, `working (esc to interrupt)`, `a vendor notice dialog: <title>`, `unknown: <why>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Working(h) => write!(f, "working ({h})"),
            State::Dialog(d) => write!(f, "dialog ({}): {}", d.kind.label(), d.title),
            State::Unknown(w) => write!(f, "unknown: {w}"),
            other => f.write_str(other.word()),
        }
    }
}

/// What the input box holds (WIT `composer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Composer {
    /// Nothing, or only faint placeholder or suggestion text.
    Empty,
    /// This text, unwrapped into one line.
    Holds(String),
    /// No input box can be read on this screen.
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

    /// The text it holds (`""` when empty), or `None` when it cannot be read.
    pub fn text(&self) -> Option<&str> {
        match self {
            Composer::Empty => Some(""),
            Composer::Holds(t) => Some(t),
            Composer::Unreadable => None,
        }
    }
}

impl fmt::Display for Composer {
    /// `empty`, `holds "<text>"`, `unreadable`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Composer::Holds(t) => write!(f, "holds \"{t}\""),
            other => f.write_str(other.word()),
        }
    }
}

/// An error the last turn ended in, shown above an idle prompt (WIT `turn-error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnError {
    /// The provider's rate limit.
    RateLimit,
    /// Any other provider or API error.
    ProviderError,
}

impl TurnError {
    /// `rate_limit` or `provider_error`.
    pub fn word(self) -> &'static str {
        match self {
            TurnError::RateLimit => "rate_limit",
            TurnError::ProviderError => "provider_error",
        }
    }

    /// `rate limit` or `provider error`.
    pub fn label(self) -> &'static str {
        match self {
            TurnError::RateLimit => "rate limit",
            TurnError::ProviderError => "provider error",
        }
    }
}

/// What the host is looking for on a screen while a send is in flight (WIT `probe`): the
/// drop's id and the trigger line typed for it. An empty id asks nothing (`drop_read` false).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probe {
    /// The drop file's id, as it appears in the drop's path.
    pub drop_id: String,
    /// The trigger line typed for it (its echo is not a read).
    pub trigger: String,
}

impl Probe {
    /// A probe for the drop `id` and its `trigger`.
    pub fn new(id: &str, trigger: &str) -> Probe {
        Probe { drop_id: id.to_string(), trigger: trigger.to_string() }
    }
}

/// A profile's whole reading of one screen (WIT `reading`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// What the seat is doing.
    pub state: State,
    /// What its input box holds.
    pub composer: Composer,
    /// The error the last turn ended in, when an idle screen shows one.
    pub last_error: Option<TurnError>,
    /// The lines the CLI shows it has queued to send when the current turn ends, oldest first,
    /// each unwrapped into one line (Claude Code's `❯ <line>` / `ctrl+x ctrl+s to send now`,
    /// Codex's `• Queued follow-up inputs` / `↳ <line>`); empty when none is shown. A queued line
    /// was taken by the CLI: it is not in the box any more.
    pub queued: Vec<String>,
    /// The screen shows the probe's drop being read (not the trigger's echo, not a dialog
    /// asking to read it). False when no probe was given.
    pub drop_read: bool,
    /// The rule or region that decided the reading, in a short sentence.
    pub why: String,
}

impl Reading {
    /// A reading with no queued line and no drop read. A dialog's title is quoted as a
    /// sentence, never art ([`crate::quote::sentence`]; a title that is art alone reads empty).
    pub fn new(state: State, composer: Composer, last_error: Option<TurnError>, why: impl Into<String>) -> Reading {
        let state = match state {
            State::Dialog(d) => State::Dialog(d.quoted()),
            other => other,
        };
        Reading { state, composer, last_error, queued: Vec::new(), drop_read: false, why: why.into() }
    }

    /// True when one of the queued lines the CLI shows is `line` (compared with whitespace
    /// squashed, and allowing a CLI that cuts a long line short with `…`).
    pub fn queued_holds(&self, line: &str) -> bool {
        let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let line = squash(line);
        self.queued.iter().map(|q| squash(q)).any(|q| {
            !q.is_empty()
                && (q == line
                    || q.strip_suffix('…')
                        .map(|p| !p.trim_end().is_empty() && line.starts_with(p.trim_end()))
                        .unwrap_or(false))
        })
    }
}

/// `team:profile@0.1.0` (frozen) has no field for queued lines. A 0.1 component whose
/// description lists this feature word carries the newest one at the end of `why`, as
/// `<why>; queued: `<line>`` ([`QUEUED_IN_WHY`]); the host reads it back with
/// [`split_queued_why`]. 0.2 has the field (`reading.queued`, every line).
pub const QUEUED_LINE_FEATURE: &str = "queued-line";

/// The marker before a queued line at the end of a 0.1 `why` (see [`QUEUED_LINE_FEATURE`]).
pub const QUEUED_IN_WHY: &str = "; queued: `";

/// A 0.1 `why` split into the sentence and the queued line it carries, if any.
pub fn split_queued_why(why: &str) -> (String, Option<String>) {
    match why.rfind(QUEUED_IN_WHY) {
        Some(at) if why.ends_with('`') && at + QUEUED_IN_WHY.len() < why.len() => {
            let line = &why[at + QUEUED_IN_WHY.len()..why.len() - 1];
            (why[..at].to_string(), Some(line.to_string()))
        }
        _ => (why.to_string(), None),
    }
}

/// What a profile is and what it knows about its CLI (WIT `description`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Description {
    /// The profile's id, the word a team file's `cli:` names.
    pub id: String,
    /// The profile's own version (semver).
    pub version: String,
    /// The CLIs it reads, by their product names.
    pub clis: Vec<String>,
    /// Process names (argv[0] basenames) its CLI runs as.
    pub process_names: Vec<String>,
    /// Whether the CLI carries the cross-session native channel.
    pub native_channel: bool,
    /// The longest trigger line, in characters, its composer takes whole.
    pub max_trigger: u32,
    /// The working hints this profile recognises, for the report.
    pub working_hints: Vec<String>,
    /// Milliseconds to wait between typed text and Enter.
    pub enter_pause_ms: u32,
    /// Whether the CLI queues a line submitted while it works.
    pub queues_while_working: bool,
    /// Words or characters a trigger line must never begin with.
    pub forbidden_starts: Vec<String>,
    /// Whether this profile ships a compose module.
    pub has_compose: bool,
    /// Where the CLI writes session transcripts, as patterns over `{home}`, `{cwd}`,
    /// `{cwd-dashed}`, `{yyyy}`, `{mm}`, `{dd}` and `*` in the last path segment.
    pub transcript_patterns: Vec<String>,
    /// Additive capabilities, named by word.
    pub features: Vec<String>,
}

/// `&["a", "b"]` → `vec!["a".to_string(), "b".to_string()]`, for building descriptions.
pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_json_word_and_one_label() {
        let words: Vec<&str> = DialogKind::KNOWN.iter().map(|k| k.word()).collect();
        assert_eq!(
            words,
            ["question", "permission", "trust", "vendor_notice", "provider_error", "rate_limit", "held_message"]
        );
        for k in DialogKind::KNOWN {
            assert_eq!(DialogKind::from_word(k.word()), Some(k.clone()));
            assert!(!k.word().contains(' ') && !k.word().contains('-'), "{k:?}");
        }
        assert_eq!(DialogKind::VendorNotice.label(), "vendor notice");
        assert_eq!(DialogKind::HeldMessage.label(), "held-message");
        let other = DialogKind::Other("plan approval".into());
        assert_eq!(
            (other.word(), other.label(), other.other_name()),
            ("other", "plan approval", Some("plan approval"))
        );
        assert_eq!(DialogKind::from_word("other"), None);
    }

    #[test]
    fn states_and_composers_render() {
        let d = State::Dialog(Dialog { kind: DialogKind::RateLimit, title: "What do you want to do?".into() });
        assert_eq!(d.to_string(), "dialog (rate limit): What do you want to do?");
        assert_eq!(State::Working("esc to interrupt".into()).to_string(), "working (esc to interrupt)");
        assert_eq!(Composer::Holds("hi".into()).to_string(), "holds \"hi\"");
        assert_eq!(Composer::Empty.text(), Some(""));
        assert_eq!(TurnError::RateLimit.label(), "rate limit");
    }

    #[test]
    fn a_queued_line_rides_at_the_end_of_a_0_1_why() {
        let why = format!("the spinner row{QUEUED_IN_WHY}also check the tests`");
        assert_eq!(split_queued_why(&why), ("the spinner row".to_string(), Some("also check the tests".to_string())));
        assert_eq!(split_queued_why("a `quoted` why"), ("a `quoted` why".to_string(), None));
        assert_eq!(split_queued_why("x; queued: `"), ("x; queued: `".to_string(), None));
    }

    #[test]
    fn a_queued_line_is_compared_squashed_and_may_be_cut() {
        let mut r = Reading::new(State::Idle, Composer::Empty, None, "");
        assert!(!r.queued_holds("x"));
        r.queued = vec!["also check the tests".into(), "Please read  the team message at a/b".into()];
        assert!(r.queued_holds("Please read the team message at a/b"));
        assert!(!r.queued_holds("Please read the team message at a/c"));
        r.queued = vec!["Please read the team…".into()];
        assert!(r.queued_holds("Please read the team message at a/b"));
        r.queued = vec!["…".into()];
        assert!(!r.queued_holds("anything"));
    }
}
