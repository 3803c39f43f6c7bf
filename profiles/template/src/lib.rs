//! A profile to copy: everything a `team` vendor profile needs, small enough to read in one
//! sitting (docs/writing-a-profile.md walks through it). Its worked example is the screen of
//! `@vibe-kit/grok-cli` 0.0.34 (three real captures in `screens/`): a rounded composer box
//! `│ ❯ <text> │`, a spinner row saying `esc to interrupt` while it works, and a confirmation
//! dialog that replaces the box.
//!
//! How a screen is read, in order (keep yours in this shape: the cheapest, surest signs first):
//! 1. **Exited**: tmux's `Pane is dead` (`profile_kit::exit_sign`).
//! 2. **Dialogs**: a phrase of [`DIALOGS`] in the bottom rows. A dialog is never typed into, so
//!    when in doubt, read a dialog.
//! 3. **The composer**: the last rounded box whose row starts `│ ❯`; faint (dim) text after
//!    `❯` is the placeholder, which reads as empty.
//! 4. **Working**: `esc to interrupt` above the box.
//! 5. Otherwise idle at the composer, or unknown (say why).

use profile_kit::text::contains_ci;
use profile_kit::{strings, Composer, Description, Dialog, DialogKind, Reading, Screen, State, View};

// The wasm glue: exports `describe`, `classify`, `shows_drop_read` and
// `transcript_shows_drop_read` below as `team:profile/classifier@0.2.0`.
profile_kit::export_profile!();

/// Dialog phrases, most specific first: (phrase, kind). A phrase is matched over the bottom
/// rows with whitespace and row breaks normalised, so one a narrow pane wraps still matches.
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Do you want to proceed with this operation?", DialogKind::Permission),
    ("Type your feedback and press Enter", DialogKind::Permission),
];

/// Says who this profile is and what it knows about its CLI (wit/v0.2 `description`).
pub fn describe() -> Description {
    Description {
        // The word a team file's `cli:` names; the installed file is `<id>/<version>.wasm`.
        id: "template".into(),
        version: "0.1.0".into(),
        clis: strings(&["grok-cli (@vibe-kit/grok-cli), as the template's example"]),
        process_names: strings(&["grok"]),
        native_channel: false,
        // The longest trigger line the composer takes whole.
        max_trigger: 500,
        working_hints: strings(&["esc to interrupt"]),
        // Measured on the real CLI: an Enter 0.3 s after the text always submitted.
        enter_pause_ms: 300,
        // Enter while working starts a second turn at once: never press it then.
        queues_while_working: false,
        // Lines starting with these words are run as shell commands by the CLI itself.
        forbidden_starts: strings(&["/", "ls", "cat", "cd", "echo", "rm", "exit"]),
        has_compose: false,
        transcript_patterns: Vec::new(),
        features: Vec::new(),
    }
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return Reading::new(State::Exited, Composer::Unreadable, None, why);
    }
    // One search per phrase over the joined bottom rows (cheaper than one per row).
    let bottom = v.bottom_nonempty(30);
    if let Some((phrase, kind, row)) = v.region(&bottom).first_of(DIALOGS) {
        let title = v.rows[row].trimmed().to_string();
        let why = format!("the dialog phrase `{phrase}`");
        return Reading::new(State::Dialog(Dialog { kind, title }), Composer::Unreadable, None, why);
    }
    let Some((top, bottom_row)) = v.last_rounded_box() else {
        if v.last_nonempty().is_none() {
            return Reading::new(State::Starting, Composer::Unreadable, None, "the screen is empty");
        }
        return Reading::new(
            State::Unknown("no composer box and no dialog phrase".into()),
            Composer::Unreadable,
            None,
            "no rounded box with `│ ❯` and no known dialog",
        );
    };
    let composer = read_composer(&v, top, bottom_row);
    if (top.saturating_sub(6)..top).any(|i| contains_ci(&v.rows[i].text, "esc to interrupt")) {
        let why = "the spinner row above the box says `esc to interrupt`";
        return Reading::new(State::Working("esc to interrupt".into()), composer, None, why);
    }
    Reading::new(State::Idle, composer, None, "the composer box and no working sign")
}

/// The text after `│ ❯ ` on the box's rows, unwrapped; faint text is the placeholder.
fn read_composer(v: &View, top: usize, bottom: usize) -> Composer {
    let Some(first) = (top + 1..bottom).find(|&i| v.rows[i].trimmed().starts_with("│ ❯")) else {
        return Composer::Unreadable;
    };
    let row = &v.rows[first];
    let at = row.find_char_index("❯").unwrap_or(0) + 1;
    let end = row.text.chars().count().saturating_sub(1);
    let t = row.span(at, end);
    if t.faint_only || t.text.is_empty() {
        return Composer::Empty;
    }
    // Without styling (a multiplexer that gives text only) the placeholder's words say it.
    if !v.styled && t.text == "Ask me anything..." {
        return Composer::Empty;
    }
    Composer::Holds(t.text)
}

/// A row names the drop and is not the trigger's echo, on a screen that is not a dialog (a
/// dialog quoting the drop's path asks to read it; it is not a read).
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// This CLI keeps no transcript, so none proves a read.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;
    use std::path::Path;

    /// Every screen in `screens/` reads as its meta says: the same check `team profile test`
    /// makes on the built component.
    #[test]
    fn every_screen_reads_as_its_meta_says() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screens");
        let fx = fixtures::load_tree(&dir).unwrap();
        assert_eq!(fx.len(), 3);
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn a_dialog_is_never_a_read() {
        let s = Screen::from_plain(
            "  ⏺ Read(/tmp/drop/abc.md)\n  Do you want to proceed with this operation?\n   1. Yes\n",
            "",
        );
        assert!(!shows_drop_read(&s, "abc", "please read /tmp/drop/abc.md"));
    }
}
