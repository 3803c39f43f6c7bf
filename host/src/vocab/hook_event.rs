//! The hook events `team hook` answers, as words: `post-tool-use` on `team hook`'s command line,
//! in receipts and notes; `PostToolUse` in the CLIs' configurations and answers.
//!
//! Invariant: each word is written once, in [`Event::word`] and [`Event::vendor`]; readers
//! parse through [`Event::from_word`] and [`Event::from_vendor`].

/// The hook events `team hook` answers (the words `team hooks install` writes after `hook`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    SessionStart,
    UserPromptSubmit,
    PostToolUse,
    Stop,
}

impl Event {
    pub const ALL: [Event; 4] = [Event::SessionStart, Event::UserPromptSubmit, Event::PostToolUse, Event::Stop];

    /// `post-tool-use`: the word on `team hook`'s command line, in receipts and notes.
    pub fn word(self) -> &'static str {
        match self {
            Event::SessionStart => "session-start",
            Event::UserPromptSubmit => "user-prompt-submit",
            Event::PostToolUse => "post-tool-use",
            Event::Stop => "stop",
        }
    }

    /// `PostToolUse`: the event's name in both CLIs' configuration and answers.
    pub fn vendor(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::UserPromptSubmit => "UserPromptSubmit",
            Event::PostToolUse => "PostToolUse",
            Event::Stop => "Stop",
        }
    }

    pub fn from_word(w: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.word() == w)
    }

    pub fn from_vendor(w: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.vendor() == w)
    }
}
