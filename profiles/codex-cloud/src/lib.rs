//! The `codex cloud` profile (Codex 0.171.0's Cloud Tasks TUI), with a compose module.
//!
//! A `codex cloud` seat takes no trigger line: its CLI builds a cloud task from its own screens
//! (the New Task composer), so the host composes the brief through them (`compose`). The
//! classifier reads what those screens show ([`cloud`] parses them):
//! - the environment chooser open ⇒ a dialog the host has no word for, `other("chooser")`;
//! - the New Task page ⇒ idle with its composer (the dim `Compose new task` is empty);
//!   `Submitting new task…` ⇒ working (`submitting`); a `Submit failed: …` status ⇒ the last
//!   turn's provider error;
//! - the task list ⇒ idle, no composer (the list is not an input box);
//! - a shell prompt as the last row ⇒ exited (Ctrl+C or a second Esc quits `codex cloud`).

pub mod cloud;
mod compose;
mod describe;

pub use compose::{brief_line, compose_next, plan, MAX_BRIEF};
pub use describe::describe;

use cloud::{Box as Input, Page};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, TurnError, View};

profile_kit::export_composer!();

/// The dialog name of the environment chooser (`DialogKind::Other`).
pub const CHOOSER: &str = "chooser";

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return Reading::new(State::Exited, Composer::Unreadable, None, why);
    }
    let Some(c) = cloud::parse(&v) else {
        if v.last_nonempty().is_none() {
            return Reading::new(State::Starting, Composer::Unreadable, None, "the screen is empty");
        }
        if profile_kit::shell_prompt_last(&v) {
            return Reading::new(
                State::Exited,
                Composer::Unreadable,
                None,
                "no Cloud Tasks box, and the last row is a shell prompt",
            );
        }
        return Reading::new(
            State::Unknown("not a codex cloud page".into()),
            Composer::Unreadable,
            None,
            "no `Cloud Tasks` or `New Task` box at the top of the screen",
        );
    };
    if let Some(ch) = &c.chooser {
        let why = format!("the `Select Environment` chooser is open (search `{}`)", ch.search);
        let d = Dialog { kind: DialogKind::Other(CHOOSER.into()), title: "Select Environment".into() };
        return Reading::new(State::Dialog(d), Composer::Unreadable, None, why);
    }
    match c.page {
        Page::TaskList => {
            let env = c.env.as_deref().unwrap_or("All");
            Reading::new(State::Idle, Composer::Unreadable, None, format!("the task list of `{env}` (no input box)"))
        }
        Page::NewTask => {
            let composer = match c.composer {
                Some(Input::Holds(t)) => Composer::Holds(t),
                Some(Input::Empty) => Composer::Empty,
                None => Composer::Unreadable,
            };
            if c.status.starts_with("Submitting new task") {
                return Reading::new(
                    State::Working("submitting".into()),
                    composer,
                    None,
                    "the status line says `Submitting new task…`",
                );
            }
            let error = c.status.starts_with("Submit failed").then_some(TurnError::ProviderError);
            let why = match error {
                Some(_) => format!("the New Task page; the last submit failed: `{}`", c.status),
                None => "the New Task page and its composer".to_string(),
            };
            Reading::new(State::Idle, composer, error, why)
        }
    }
}

/// A `codex cloud` seat is never sent a trigger line, so no row shows one being read.
pub fn shows_drop_read(_screen: &Screen, _id: &str, _trigger: &str) -> bool {
    false
}

/// `codex cloud` keeps no local transcript of a task.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests;
