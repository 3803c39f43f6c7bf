//! The hook events `team hook` answers, as words: `post-tool-use` on `team hook`'s command line,
//! in receipts and notes; `PostToolUse` in the CLIs' configurations and answers.
//!
//! Invariant: each word is written once, in [`Event::word`] and [`Event::vendor`]; readers
//! parse through [`Event::from_word`] and [`Event::from_vendor`].

use super::leg::HookFormat;

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

    /// The event's name in the CLI whose hooks are of format `f` (`None`: a CLI whose format is
    /// not known, Claude's names): Claude's, which Codex and Qwen Code share; Gemini CLI's
    /// `AfterTool` (the tool's result in hand), `AfterAgent` (its `decision: block` gives the
    /// model the reason as a new turn, as Claude's Stop) and `BeforeAgent` (its context goes
    /// with the prompt), as its settings name them; GitHub Copilot CLI's camelCase
    /// `postToolUse`, `agentStop` (its `decision: block` reason becomes the next prompt) and
    /// `userPromptSubmitted` (docs/inbox.md).
    pub fn named_in(self, f: Option<HookFormat>) -> &'static str {
        match (f, self) {
            (Some(HookFormat::CopilotSettings), Event::PostToolUse) => "postToolUse",
            (Some(HookFormat::CopilotSettings), Event::Stop) => "agentStop",
            (Some(HookFormat::CopilotSettings), Event::UserPromptSubmit) => "userPromptSubmitted",
            (Some(HookFormat::CopilotSettings), Event::SessionStart) => "sessionStart",
            (Some(HookFormat::GeminiSettings), Event::PostToolUse) => "AfterTool",
            (Some(HookFormat::GeminiSettings), Event::Stop) => "AfterAgent",
            (Some(HookFormat::GeminiSettings), Event::UserPromptSubmit) => "BeforeAgent",
            (_, e) => e.vendor(),
        }
    }

    pub fn from_word(w: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.word() == w)
    }

    pub fn from_vendor(w: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.vendor() == w)
    }
}
