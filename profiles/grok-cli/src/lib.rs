//! The grok-cli profile: npm `@vibe-kit/grok-cli` 0.0.34, an Ink TUI (not xAI's Grok Build).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`, or the start-up refusal `❌ Error: API key required`
//!    (it exits with status 1 before drawing anything), or — started from a shell, as `team up`
//!    starts it — the shell's prompt under its last frame (re-captured live:
//!    `live-exited-after-ctrl-c`; it leaves the composer box and footer drawn).
//! 2. **The composer**: the last rounded box (`╭╮ │ ╰╯`) whose first inner row is `│ ❯ …` and
//!    under which the footer (`auto-edit: …`) is drawn. The feedback box of a rejected
//!    permission has a `❯` too, but no footer under it. The composer's text is the box rows
//!    between the borders, unwrapped; the dim `Ask me anything...` placeholder reads as empty.
//! 3. **No composer ⇒ the confirmation dialog** (`Do you want to proceed with this operation?`,
//!    or its feedback step `Type your feedback and press Enter`): the only dialog this CLI has.
//! 4. **Working**: `esc to interrupt` in the spinner row above the box
//!    (`- Analyzing... (4s · ↑ 797 tokens · esc to interrupt)`); it is drawn even while the
//!    composer holds text, and never on an idle screen or in a dialog.
//! 5. **The last turn's error**: after the last prompt echo (`> …`), an entry
//!    `⏺ Sorry, I encountered an error: Grok API error: <status> …` (429 or rate limit ⇒
//!    rate-limit; anything else ⇒ provider-error).
//!
//! The terminal title is never set by this CLI, so it is not read.

use profile_kit::text::contains_ci;
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, TurnError, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

const PLACEHOLDER: &str = "Ask me anything...";

fn reading(state: State, composer: Composer, last_error: Option<TurnError>, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, last_error, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, None, why);
    }
    // Printed alone on an otherwise empty screen, just before the process exits.
    if v.bottom_nonempty(6).len() < 6 && v.contains("Error: API key required") {
        return reading(
            State::Exited,
            Composer::Unreadable,
            None,
            "grok-cli printed `API key required`, which it does just before exiting",
        );
    }
    let Some((top, bottom, footer)) = composer_box(&v) else {
        return without_composer(&v);
    };
    // Started from a shell, it leaves its last frame when it exits (one Ctrl-C ends it): the
    // shell's prompt comes back under the footer (live-exited-after-ctrl-c).
    if v.last_nonempty().is_some_and(|last| last > footer) && profile_kit::shell_prompt_last(&v) {
        return reading(
            State::Exited,
            Composer::Unreadable,
            None,
            "the shell's prompt under grok-cli's last frame: the CLI has exited",
        );
    }
    let composer = read_composer(&v, top, bottom);
    let start = top.saturating_sub(6);
    if let Some(i) = (start..top).rev().find(|&i| contains_ci(&v.rows[i].text, "esc to interrupt")) {
        let why = format!("the spinner row above the composer box: `{}`", v.rows[i].trimmed());
        return reading(State::Working("esc to interrupt".into()), composer, None, why);
    }
    let (last_error, err_why) = match last_turn_error(&v, top) {
        Some((e, row)) => (Some(e), format!("; the last turn ended in `{}`", v.rows[row].trimmed())),
        None => (None, String::new()),
    };
    reading(State::Idle, composer, last_error, format!("the composer box with its footer and no spinner row{err_why}"))
}

/// The composer box: the last rounded box whose first inner row starts `│ ❯` and which has the
/// `auto-edit` footer within two rows under it. Returns `(top, bottom)` border rows and the
/// footer's row.
fn composer_box(v: &View) -> Option<(usize, usize, usize)> {
    let (top, bottom) = v.last_rounded_box()?;
    if bottom <= top + 1 || !v.rows[top + 1].trimmed().starts_with("│ ❯") {
        return None;
    }
    let footer = (bottom + 1..(bottom + 4).min(v.rows.len())).find(|&i| v.rows[i].text.contains("auto-edit"))?;
    Some((top, bottom, footer))
}

fn read_composer(v: &View, top: usize, bottom: usize) -> Composer {
    let mut parts: Vec<String> = Vec::new();
    let mut all_faint = true;
    for (n, r) in v.rows[top + 1..bottom].iter().enumerate() {
        // Between the left `│` (after `❯ ` on the first row) and the right `│`.
        let left =
            if n == 0 { r.find_char_index("❯").map(|i| i + 1) } else { r.find_char_index("│").map(|i| i + 1) };
        let right = r.rfind_char('│');
        let (Some(l), Some(rt)) = (left, right) else { continue };
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
    let text = parts.join(" ");
    if text.is_empty() || (v.styled && all_faint) || (!v.styled && text == PLACEHOLDER) {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

fn last_turn_error(v: &View, top: usize) -> Option<(TurnError, usize)> {
    let start = v.rows[..top].iter().rposition(|r| r.trimmed().starts_with("> ")).unwrap_or(0);
    let i = (start..top).find(|&i| v.rows[i].text.contains("Sorry, I encountered an error"))?;
    let mut joined = v.rows[i].text.to_string();
    if let Some(next) = v.rows.get(i + 1) {
        joined.push(' ');
        joined.push_str(&next.text);
    }
    let rate = joined.contains("error: 429") || contains_ci(&joined, "rate limit");
    Some((if rate { TurnError::RateLimit } else { TurnError::ProviderError }, i))
}

fn without_composer(v: &View) -> Reading {
    let region = v.bottom_nonempty(30);
    for phrase in ["Do you want to proceed with this operation?", "Type your feedback and press Enter"] {
        if let Some(&i) = region.iter().find(|&&i| v.rows[i].text.contains(phrase)) {
            // The tool line (`⏺ Run bash command(…)`, `⏺ Write(…)`) names what is asked.
            let title = region
                .iter()
                .rev()
                .find(|&&j| j < i && v.rows[j].trimmed().starts_with('⏺'))
                .map(|&j| v.rows[j].trimmed().to_string())
                .unwrap_or_else(|| v.rows[i].trimmed().to_string());
            let why = format!("no composer box, and the confirmation dialog says `{phrase}`");
            return reading(
                State::Dialog(Dialog { kind: DialogKind::Permission, title }),
                Composer::Unreadable,
                None,
                why,
            );
        }
    }
    if profile_kit::shell_prompt_last(v) {
        return reading(
            State::Exited,
            Composer::Unreadable,
            None,
            "no grok-cli UI, and the last row is a shell prompt",
        );
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, None, "the screen is empty");
    }
    reading(
        State::Unknown("no composer box and no confirmation dialog".into()),
        Composer::Unreadable,
        None,
        "no composer box and no dialog phrase",
    )
}

/// True when the CLI shows the file's contents under its name: `Contents of <path naming the
/// id>:` (the `view_file` tool's output, drawn after the read; reads need no confirmation), and
/// the row is not the trigger's echo (`> read …`).
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    let trig = profile_kit::text::squash(trigger);
    profile_kit::row_texts(screen).iter().any(|r| {
        let t = profile_kit::text::trim(r);
        t.starts_with("Contents of ") && t.contains(id) && !profile_kit::is_echo(t, &trig)
    })
}

/// grok-cli writes no session history: the screen is the only record.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn every_grok_cli_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("grok-cli").unwrap();
        assert!(fx.len() >= 27, "only {} fixtures", fx.len());
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn contents_row_proves_the_read_and_the_echo_does_not() {
        let f = fixtures::load(&fixtures::screens_dir().join("grok-cli-0.0.34"), "idle-after-file-read").unwrap();
        let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
        assert!(shows_drop_read(&f.screen, id, "read the drop file"));
        let trigger = format!("please read /tmp/drop/{id}.txt");
        let echo = Screen::from_plain(&format!("  > {trigger}\n\n  - Thinking... (0s · esc to interrupt)\n"), "");
        assert!(!shows_drop_read(&echo, id, &trigger));
    }
}
