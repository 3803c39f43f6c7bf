//! The Grok Build (xAI, `grok`) profile — from documented phrases only: it is not on npm and no
//! real screen could be captured here, so its fixtures (`tests/data/screens/grok-synthetic/`)
//! are synthetic and each phrase's source is in their meta. Not to be confused with
//! `@vibe-kit/grok-cli` (profile `grok-cli`).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **Permission**: `Yes, proceed` with `No, reject` (the whitelist-scope selector), or the
//!    `ctrl+o:yolo` hint; `⚠ Action required` ⇒ a dialog of unknown kind (question).
//! 3. **Working**: `ctrl+c:cancel` with `ctrl+enter:interject`; or the newer `esc:cancel` with
//!    `ctrl+.:shortcuts` in the bottom two rows; or a braille spinner row starting
//!    `Run|Read|Search|List|Waiting` or ending in a `[stop]` chip. (A bare braille glyph is not
//!    enough: the start-up splash draws its logo in braille.)
//! 4. **The composer**: the last rounded box whose first inner row is `│ ❯`; faint text reads as
//!    empty.

use profile_kit::text::{contains_ci, is_braille};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

fn reading(state: State, composer: Composer, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, None, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, why);
    }
    let bottom = v.bottom_text(30);
    if (contains_ci(&bottom, "yes, proceed") && contains_ci(&bottom, "no, reject"))
        || contains_ci(&bottom, "ctrl+o:yolo")
    {
        let title = v
            .rows
            .iter()
            .rev()
            .find(|r| contains_ci(&r.text, "yes, proceed"))
            .map(|r| r.trimmed().to_string())
            .unwrap_or_default();
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Permission, title }),
            Composer::Unreadable,
            "the permission selector (`Yes, proceed` / `No, reject`)",
        );
    }
    if contains_ci(&bottom, "⚠ action required") {
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Question, title: "Action required".into() }),
            Composer::Unreadable,
            "`⚠ Action required`",
        );
    }
    let composer = read_composer(&v);
    if contains_ci(&bottom, "ctrl+c:cancel") && contains_ci(&bottom, "ctrl+enter:interject") {
        return reading(
            State::Working("ctrl+c:cancel".into()),
            composer,
            "the running hints `Ctrl+c:cancel │ Ctrl+Enter:interject`",
        );
    }
    let bottom2 = v.bottom_text(2);
    if contains_ci(&bottom2, "esc:cancel") && contains_ci(&bottom2, "ctrl+.:shortcuts") {
        return reading(State::Working("esc:cancel".into()), composer, "the bottom rows show `esc:cancel`");
    }
    if let Some(&i) = v.bottom_nonempty(30).iter().find(|&&i| is_spinner_row(v.rows[i].trimmed())) {
        return reading(
            State::Working("spinner row".into()),
            composer,
            format!("a braille spinner row: `{}`", v.rows[i].trimmed()),
        );
    }
    match composer {
        Composer::Unreadable if v.last_nonempty().is_none() => {
            reading(State::Starting, composer, "the screen is empty")
        }
        Composer::Unreadable => {
            reading(State::Unknown("no prompt box and no known phrase".into()), composer, "no `│ ❯` prompt box")
        }
        c => reading(State::Idle, c, "the prompt box with no working sign"),
    }
}

fn is_spinner_row(t: &str) -> bool {
    let mut chars = t.chars();
    if !chars.next().map(is_braille).unwrap_or(false) {
        return false;
    }
    let rest = chars.as_str().trim_start();
    t.ends_with("[stop]") || ["Run ", "Read ", "Search ", "List ", "Waiting"].iter().any(|w| rest.starts_with(w))
}

fn read_composer(v: &View) -> Composer {
    let Some((top, bottom)) = v.last_rounded_box() else { return Composer::Unreadable };
    if bottom <= top + 1 || !v.rows[top + 1].trimmed().starts_with("│ ❯") {
        return Composer::Unreadable;
    }
    let mut parts = Vec::new();
    let mut all_faint = true;
    for (n, r) in v.rows[top + 1..bottom].iter().enumerate() {
        let left =
            if n == 0 { r.find_char_index("❯").map(|i| i + 1) } else { r.find_char_index("│").map(|i| i + 1) };
        let (Some(l), Some(rt)) = (left, r.rfind_char('│')) else { continue };
        if rt <= l {
            continue;
        }
        let t = r.span(l, rt);
        if t.text.is_empty() {
            continue;
        }
        all_faint &= t.faint_only;
        parts.push(t.text);
    }
    if parts.is_empty() || (v.styled && all_faint) {
        Composer::Empty
    } else {
        Composer::Holds(parts.join(" "))
    }
}

/// A row naming the drop id that is not the trigger's echo and not inside the permission selector.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// Grok Build's session storage is not documented as a JSON-lines transcript.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn every_synthetic_grok_build_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("grok").unwrap();
        assert!(fx.len() >= 6, "only {} fixtures", fx.len());
        assert!(fx.iter().all(|f| f.synthetic));
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn a_braille_logo_is_not_a_spinner() {
        assert!(!is_spinner_row("⣿⣿⣿⣷⣦⣀ ⠈⠙⠻⣿⣿"));
        assert!(is_spinner_row("⠹ Search \"fn main\""));
    }
}
