//! The agy (Antigravity CLI) profile — from documented phrases only: no real screen could be
//! captured here, so its fixtures (`tests/data/screens/agy-synthetic/`) are synthetic and each
//! phrase's source is in their meta.
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **Permission**: `Requesting permission for:` with `Do you want to proceed?`, matched also
//!    when a narrow pane soft-wraps either phrase (rows are joined before matching).
//! 3. **Working**: the `esc to cancel` footer in the bottom rows; else a braille spinner row
//!    ending in an `…ing` word (`⣻  Generating...`).
//! 4. **Idle** otherwise. The input box's form is not documented, so the composer is reported
//!    **unreadable** rather than guessed: the host must not assume it is empty.

use profile_kit::text::{contains_ci, has_gerund_ellipsis, is_braille};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

fn reading(state: State, why: impl Into<String>) -> Reading {
    Reading::new(state, Composer::Unreadable, None, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, why);
    }
    // The bottom rows, and the same rows joined, so a soft-wrapped phrase still matches.
    let bottom = v.bottom_text(30);
    if contains_ci(&bottom, "requesting permission for:") && contains_ci(&bottom, "do you want to proceed?") {
        let title = v
            .rows
            .iter()
            .rev()
            .find(|r| contains_ci(&r.text, "do you want to proceed"))
            .map(|r| r.trimmed().to_string())
            .unwrap_or_default();
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Permission, title }),
            "`Requesting permission for:` with `Do you want to proceed?`",
        );
    }
    if contains_ci(&v.bottom_text(3), "esc to cancel") {
        return reading(State::Working("esc to cancel".into()), "the `esc to cancel` footer");
    }
    let rows = v.bottom_nonempty(12);
    if let Some(&i) = rows.iter().find(|&&i| {
        let t = v.rows[i].trimmed();
        t.chars().next().map(is_braille).unwrap_or(false) && has_gerund_ellipsis(t)
    }) {
        return reading(
            State::Working("spinner row".into()),
            format!("a braille spinner row: `{}`", v.rows[i].trimmed()),
        );
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, "the screen is empty");
    }
    reading(
        State::Idle,
        "no permission prompt and no working sign (the input box's form is not documented: composer unreadable)",
    )
}

/// A row naming the drop id that is not the trigger's echo and not inside a permission prompt.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// agy's session storage is not documented as a JSON-lines transcript.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn every_synthetic_agy_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("agy").unwrap();
        assert!(fx.len() >= 5, "only {} fixtures", fx.len());
        assert!(fx.iter().all(|f| f.synthetic));
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn a_finished_marker_is_not_a_spinner() {
        let s = Screen::from_plain("> hi\n\n✦ Done.\n\n? for shortcuts\n", "");
        assert_eq!(classify(&s).state, State::Idle);
    }
}
