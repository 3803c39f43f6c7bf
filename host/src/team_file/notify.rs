//! The team file's `notify:` section: the command that tells the owner what needs them, and
//! which events go at once (`urgent`) and which wait for the watch's digest (`digest`).
//!
//! ```yaml
//! notify:
//!   command: [notify-send, "team"]   # argv, never a shell string; the text is added last
//!   urgent: [held, unreachable, never-acted-on, to-owner, hook-stopped]
//!   digest: [delivered, acked]
//!   every: 600                       # seconds between two digests (60 to 86400)
//!   timeout: 5                       # seconds the command may run (1 to 30)
//! ```
//!
//! Invariant: the command is an argv list whose first word names a program — a string with
//! spaces is refused, never split or handed to a shell — and an event word this build does
//! not know is refused at its line, so a typo never silences an urgent event.

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::error::{self, TeamError};

/// An event the owner may be told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// A send ended held (the message is on disk; nothing was typed).
    Held,
    /// A send ended unreachable.
    Unreachable,
    /// A send was typed and never taken.
    NotSubmitted,
    /// `team watch`: taken, and the seat never showed a sign of acting on it.
    NeverActedOn,
    /// A message or a reply to the owner.
    ToOwner,
    /// `team watch`: a seat worked and finished its turn while a send waited in its inbox, and
    /// its CLI ran none of team's hooks (docs/inbox.md).
    HookStopped,
    /// Digest words: a delivered send, a message acked, a sign read, a retry.
    Delivered,
    Acked,
    Read,
    Retried,
}

impl Event {
    pub const ALL: [Event; 10] = [
        Event::Held,
        Event::Unreachable,
        Event::NotSubmitted,
        Event::NeverActedOn,
        Event::ToOwner,
        Event::HookStopped,
        Event::Delivered,
        Event::Acked,
        Event::Read,
        Event::Retried,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Event::Held => "held",
            Event::Unreachable => "unreachable",
            Event::NotSubmitted => "not-submitted",
            Event::NeverActedOn => "never-acted-on",
            Event::ToOwner => "to-owner",
            Event::HookStopped => "hook-stopped",
            Event::Delivered => "delivered",
            Event::Acked => "acked",
            Event::Read => "read",
            Event::Retried => "retried",
        }
    }

    /// The urgent event of a send that ended `outcome` and reached no one (held,
    /// not-submitted, unreachable); `None` for any other outcome.
    pub fn of_stranded(outcome: &crate::vocab::outcome::Outcome) -> Option<Event> {
        use crate::vocab::outcome::Outcome as O;
        match outcome {
            O::Held => Some(Event::Held),
            O::NotSubmitted => Some(Event::NotSubmitted),
            O::Unreachable => Some(Event::Unreachable),
            _ => None,
        }
    }

    pub fn from_word(w: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.word() == w)
    }

    fn words() -> String {
        Event::ALL.iter().map(|e| e.word()).collect::<Vec<_>>().join(", ")
    }
}

/// The urgent events when `urgent:` is left out.
pub const DEFAULT_URGENT: [Event; 5] =
    [Event::Held, Event::Unreachable, Event::NeverActedOn, Event::ToOwner, Event::HookStopped];
/// The digest's events when `digest:` is left out.
pub const DEFAULT_DIGEST: [Event; 2] = [Event::Delivered, Event::Acked];

/// The `notify:` section, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notify {
    /// The program and its first arguments; the notification's text is added last.
    pub command: Vec<String>,
    pub urgent: Vec<Event>,
    pub digest: Vec<Event>,
    /// Seconds between two digests.
    pub every: u64,
    /// Seconds the command may run before it is stopped.
    pub timeout: u64,
}

impl Notify {
    pub fn is_urgent(&self, e: Event) -> bool {
        self.urgent.contains(&e)
    }
    pub fn in_digest(&self, e: Event) -> bool {
        self.digest.contains(&e) && !self.is_urgent(e)
    }
}

type Sp<T> = Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNotify {
    command: Option<Sp<CommandWords>>,
    urgent: Option<Sp<Vec<Sp<String>>>>,
    digest: Option<Sp<Vec<Sp<String>>>>,
    every: Option<Sp<u64>>,
    timeout: Option<Sp<u64>>,
}

/// `command:` as written: a list of words, or (refused) one string.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum CommandWords {
    Argv(Vec<String>),
    Line(String),
}

fn at(line: u64, msg: impl AsRef<str>) -> TeamError {
    TeamError::bad_file(format!("line {}: notify: {}", line.max(1), msg.as_ref()))
}

fn events(list: &Option<Sp<Vec<Sp<String>>>>, key: &str, default: &[Event]) -> error::Result<Vec<Event>> {
    let Some(list) = list else { return Ok(default.to_vec()) };
    let mut out = Vec::new();
    for w in &list.value {
        let word = w.value.trim();
        let Some(e) = Event::from_word(word) else {
            return Err(at(
                w.referenced.line(),
                format!("{key}: unknown event \"{word}\" (the events: {})", Event::words()),
            ));
        };
        if !out.contains(&e) {
            out.push(e);
        }
    }
    Ok(out)
}

/// Checks the raw section found at `line`.
pub(super) fn read(raw: Sp<RawNotify>) -> error::Result<Notify> {
    let line = raw.referenced.line();
    let r = raw.value;
    let command = match r.command {
        None => return Err(at(line, "command: is missing: the program to run, as a list of words")),
        Some(c) => match c.value {
            CommandWords::Line(s) => {
                return Err(at(
                    c.referenced.line(),
                    format!("command: is a list of words, never a shell line: write [{}]", quoted_words(&s)),
                ))
            }
            CommandWords::Argv(v) if v.is_empty() || v[0].trim().is_empty() => {
                return Err(at(c.referenced.line(), "command: names no program"))
            }
            CommandWords::Argv(v) => v,
        },
    };
    let urgent = events(&r.urgent, "urgent", &DEFAULT_URGENT)?;
    let digest = events(&r.digest, "digest", &DEFAULT_DIGEST)?;
    let every = match r.every {
        None => 600,
        Some(e) if (60..=86_400).contains(&e.value) => e.value,
        Some(e) => return Err(at(e.referenced.line(), format!("every: {} is not 60 to 86400 seconds", e.value))),
    };
    let timeout = match r.timeout {
        None => 5,
        Some(t) if (1..=30).contains(&t.value) => t.value,
        Some(t) => return Err(at(t.referenced.line(), format!("timeout: {} is not 1 to 30 seconds", t.value))),
    };
    Ok(Notify { command, urgent, digest, every, timeout })
}

fn quoted_words(s: &str) -> String {
    s.split_whitespace().map(|w| format!("{w:?}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use crate::team_file::parse;

    const SEATS: &str = "project: p\nseats:\n  - name: a\n    cli: codex\n";

    #[test]
    fn the_section_is_read_and_its_mistakes_named_at_their_line() {
        let f =
            parse(&format!("{SEATS}notify:\n  command: [sh, -c, 'echo \"$1\" >> /tmp/x', notify]\n  urgent: [held]\n"))
                .unwrap();
        let n = f.notify.unwrap();
        assert_eq!(n.command, ["sh", "-c", "echo \"$1\" >> /tmp/x", "notify"]);
        assert_eq!(n.urgent, [super::Event::Held]);
        assert_eq!(n.digest, super::DEFAULT_DIGEST);
        assert_eq!((n.every, n.timeout), (600, 5));
        assert!(parse(SEATS).unwrap().notify.is_none());
        let e = parse(&format!("{SEATS}notify:\n  command: notify-send team\n")).unwrap_err();
        assert_eq!(
            e.message(),
            "line 6: notify: command: is a list of words, never a shell line: write [\"notify-send\", \"team\"]"
        );
        let e = parse(&format!("{SEATS}notify:\n  command: [x]\n  urgent: [held, hled]\n")).unwrap_err();
        assert!(e.message().starts_with("line 7: notify: urgent: unknown event \"hled\""), "{}", e.message());
        let e = parse(&format!("{SEATS}notify:\n  command: [x]\n  every: 5\n")).unwrap_err();
        assert!(e.message().starts_with("line 7: notify: every: 5 is not"), "{}", e.message());
        let e = parse(&format!("{SEATS}notify:\n  urgent: [held]\n")).unwrap_err();
        assert!(e.message().contains("command: is missing"), "{}", e.message());
    }
}
