//! The Cursor Agent CLI (`cursor-agent`) profile — from documented phrases only: no real screen
//! could be captured here, so its fixtures (`tests/data/screens/cursor-synthetic/`) are
//! synthetic and each phrase's source is in their meta.
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **Dialogs first**: the approval's selected option is marked with `→`, the same glyph as
//!    the input box's prompt, so the approval phrases are ruled out before a `→` row is read as
//!    the composer: `Run this command?`, `Skip (esc or n)`, `(y) (enter)`, `Waiting for approval`,
//!    `Write to this file?`, `Reject & propose changes` ⇒ permission; `Trust this workspace` ⇒
//!    trust; `Press any key to log in` ⇒ vendor notice.
//! 3. **Working**: `ctrl+c to stop` in the bottom six non-empty rows, also when a narrow pane
//!    wraps it over two rows; else a spinner activity row (`⬢ Reading…`, `⬡ Grepping..`).
//! 4. **The composer**: the last boxed row `│ → …` and the boxed rows a long line wraps onto;
//!    the `Plan, search, build anything` placeholder (or any faint text) reads as empty.

use profile_kit::text::{contains_ci, has_gerund_ellipsis, is_braille};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

const PLACEHOLDER: &str = "Plan, search, build anything";

/// (phrase, kind), matched case-insensitively.
const DIALOGS: &[(&str, DialogKind)] = &[
    ("trust this workspace", DialogKind::Trust),
    ("press any key to log in", DialogKind::VendorNotice),
    ("run this command?", DialogKind::Permission),
    ("skip (esc or n)", DialogKind::Permission),
    ("(y) (enter)", DialogKind::Permission),
    ("waiting for approval", DialogKind::Permission),
    ("write to this file?", DialogKind::Permission),
    ("reject & propose changes", DialogKind::Permission),
    ("run (once) (y)", DialogKind::Permission),
];

fn reading(state: State, composer: Composer, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, None, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, why);
    }
    let region = v.bottom_nonempty(30);
    if let Some((phrase, kind, i)) = v.region(&region).first_of_ci(DIALOGS) {
        let title = v.rows[i].trimmed().trim_matches('│').trim().to_string();
        return reading(
            State::Dialog(Dialog { kind, title }),
            Composer::Unreadable,
            format!("the screen shows `{phrase}`"),
        );
    }
    let composer = read_composer(&v);
    if contains_ci(&v.bottom_text(6), "ctrl+c to stop") {
        return reading(State::Working("ctrl+c to stop".into()), composer, "`ctrl+c to stop` in the bottom rows");
    }
    if let Some(&i) = region.iter().find(|&&i| is_activity_row(v.rows[i].trimmed())) {
        let why = format!("a spinner activity row: `{}`", v.rows[i].trimmed());
        return reading(State::Working("spinner row".into()), composer, why);
    }
    match composer {
        Composer::Unreadable if v.last_nonempty().is_none() => {
            reading(State::Starting, composer, "the screen is empty")
        }
        Composer::Unreadable => {
            reading(State::Unknown("no input box and no known phrase".into()), composer, "no `│ →` input box")
        }
        c => reading(State::Idle, c, "the input box with no working sign"),
    }
}

/// `⬢ Reading…`, `⬡ Grepping..` (or a braille glyph) followed by an `…ing` word.
fn is_activity_row(t: &str) -> bool {
    let Some(first) = t.chars().next() else { return false };
    (first == '⬢' || first == '⬡' || is_braille(first)) && (has_gerund_ellipsis(t) || t.contains("ing.."))
}

/// The box's text: the `│ → …│` row and the `│   …│` rows a long line wraps onto, unwrapped
/// into one line (the box wraps inside its borders, so the rows join with no space added).
fn read_composer(v: &View) -> Composer {
    let Some(i) = v.rows.iter().rposition(|r| r.trimmed().starts_with("│ →")) else { return Composer::Unreadable };
    let r = &v.rows[i];
    let (Some(l), Some(rt)) = (r.find_char_index("→").map(|x| x + 1), r.rfind_char('│')) else {
        return Composer::Unreadable;
    };
    let t = r.span(l, rt);
    if t.text.is_empty() || t.faint_only || (!v.styled && t.text == PLACEHOLDER) {
        return Composer::Empty;
    }
    let mut text = t.text;
    for row in &v.rows[i + 1..] {
        let trimmed = row.trimmed();
        if !trimmed.starts_with('│') || trimmed.starts_with("│ →") {
            break;
        }
        let (Some(rt), true) = (row.rfind_char('│'), row.text.chars().count() > 4) else { break };
        let cont = row.span(row.find_char_index("│").map_or(0, |x| x + 1), rt);
        if cont.text.is_empty() {
            break;
        }
        text.push_str(&cont.text);
    }
    Composer::Holds(text)
}

/// A row naming the drop id that is not the trigger's echo and not inside an approval.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// Cursor keeps its chats in a database, not a documented JSON-lines transcript.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn a_long_line_wrapped_inside_the_box_reads_whole() {
        let s = Screen::from_plain(
            "┌──────────────────┐\n│ → Please read th │\n│   e message at / │\n│   tmp/x          │\n└──────────────────┘\n",
            "",
        );
        assert_eq!(classify(&s).composer, Composer::Holds("Please read the message at /tmp/x".into()));
    }

    #[test]
    fn every_synthetic_cursor_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("cursor").unwrap();
        assert!(fx.len() >= 8, "only {} fixtures", fx.len());
        assert!(fx.iter().all(|f| f.synthetic));
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn drop_read_rows() {
        let trigger = "please read /tmp/drop/abc-123.md";
        let s = Screen::from_plain(&format!("  > {trigger}\n\n  ⬢ Read abc-123.md\n"), "");
        assert!(shows_drop_read(&s, "abc-123", trigger));
        let echo = Screen::from_plain(&format!("  > {trigger}\n"), "");
        assert!(!shows_drop_read(&echo, "abc-123", trigger));
        let ask = Screen::from_plain(
            "│ Run this command?\n│ Not in allowlist: cat /tmp/drop/abc-123.md\n│  → Run (once) (y)\n",
            "",
        );
        assert!(!shows_drop_read(&ask, "abc-123", trigger));
    }
}
