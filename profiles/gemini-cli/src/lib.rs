//! The Gemini CLI profile: npm `@google/gemini-cli` 0.61.0, an Ink TUI on the normal screen
//! (specified by its real screens, `tests/data/screens/gemini-cli-0.61.0/`).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **The live composer**: the last row starting ` > ` (or ` >` alone) with the footer
//!    (`workspace (/directory) … sandbox … /model`) within a few rows under it. Past prompts are
//!    echoed the same way between `▄`/`▀` rows, but never with the footer under them; the
//!    composer's own `▄`/`▀` rows become blank rows without truecolor. Its text is what
//!    follows `> ` (and its three-space continuation rows), unwrapped; the placeholder
//!    `Type your message or @path/to/file` (grey, after a reverse-video cursor cell) reads as
//!    empty. Scrolled-up dialogs above it (the trust box drawn before a restart) are history.
//! 3. **No composer ⇒ a dialog, the shell, or start-up.** Every dialog is drawn in the
//!    composer's place: the trust box (`Do you trust the files in this folder?`), the tool
//!    confirmation (`Allow execution of [Shell]?` / `● 1. Allow once`), the auth choices seen
//!    live. A boxed numbered list with a selected `●` option is a dialog even when its words
//!    are unknown. Then a shell prompt as the last row is an exit (`/quit` prints its
//!    `Agent powering down. Goodbye!` box first); the title `Action Required` over no composer
//!    is a dialog this profile does not name.
//! 4. **Working**: `(esc to cancel, 3s)` in the spinner row a few rows above the composer
//!    (` ⠏ Thinking... (esc to cancel, 3s)`), which stays live; else the title `✦  Working…`.

use profile_kit::text::contains_ci;
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// The placeholder an empty composer shows; compared as text (it is grey, not faint).
pub const PLACEHOLDER: &str = "Type your message or @path/to/file";

/// Words of the footer under the live composer (its header row and its values row).
const FOOTER: &[&str] = &["workspace (/directory)", "sandbox", "/model"];

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Do you trust the files in this folder?", DialogKind::Trust),
    ("Trust folder (", DialogKind::Trust),
    ("Allow execution of", DialogKind::Permission),
    ("1. Allow once", DialogKind::Permission),
    ("Allow for this session", DialogKind::Permission),
    // Seen in the live run without the auth setting (not kept as captures).
    ("How would you like to authenticate", DialogKind::VendorNotice),
    ("Enter Gemini API Key", DialogKind::VendorNotice),
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
    let Some((first, last)) = find_composer(&v) else {
        return without_composer(&v);
    };
    let composer = read_composer(&v, first, last);
    let above = first.saturating_sub(6);
    if let Some(i) = (above..first).rev().find(|&i| contains_ci(&v.rows[i].text, "(esc to cancel")) {
        let why = format!("the spinner row above the composer: `{}`", spinner_text(v.rows[i].trimmed()));
        return reading(State::Working("esc to cancel".into()), composer, why);
    }
    if title_working(&v.title) {
        let why = format!("the composer with its footer, and the title says `{}`", v.title.trim());
        return reading(State::Working("title working".into()), composer, why);
    }
    reading(State::Idle, composer, "the composer with its footer under it and no spinner row above it")
}

/// The spinner row without the `? for shortcuts` drawn at its right.
fn spinner_text(row: &str) -> &str {
    match profile_kit::text::find(row, "? for shortcuts") {
        Some(i) => profile_kit::text::trim(&row[..i]),
        None => row,
    }
}

/// The title Gemini CLI writes during a turn: `✦  Working… (<dir>)` (`⏲` for silent work).
fn title_working(title: &str) -> bool {
    let t = title.trim_start();
    (t.starts_with('✦') || t.starts_with('⏲')) && t.contains("Working")
}

/// The prompt row of the composer or of an echo: ` > …` or ` >` alone.
fn is_prompt_row(text: &str) -> bool {
    text.starts_with(" > ") || text == " >"
}

/// The live composer: the last prompt row, with its continuation rows, that has the footer
/// within four rows under it. Returns `(first, last)` row indices.
fn find_composer(v: &View) -> Option<(usize, usize)> {
    let first = v.rows.iter().rposition(|r| is_prompt_row(&r.text))?;
    let mut last = first;
    while last + 1 < v.rows.len() {
        let r = &v.rows[last + 1];
        if r.text.starts_with("   ") && !r.is_blank() && !is_footer(&r.text) {
            last += 1;
        } else {
            break;
        }
    }
    let end = (last + 5).min(v.rows.len());
    v.rows[last + 1..end].iter().any(|r| is_footer(&r.text)).then_some((first, last))
}

fn is_footer(text: &str) -> bool {
    FOOTER.iter().any(|w| profile_kit::text::contains(text, w))
}

fn read_composer(v: &View, first: usize, last: usize) -> Composer {
    let head = &v.rows[first].text;
    let after = head.split_once('>').map(|(_, t)| t).unwrap_or("");
    let mut parts = vec![profile_kit::text::trim(after)];
    parts.extend(v.rows[first + 1..=last].iter().map(|r| r.trimmed()));
    let text = profile_kit::text::unwrap_rows(parts);
    if text.is_empty() || text == PLACEHOLDER {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

/// A screen with no live composer: a dialog, the shell, start-up, or something unknown.
fn without_composer(v: &View) -> Reading {
    let mut region = v.bottom_nonempty(30);
    // The dialog is drawn under the last prompt echo: rows above it are history.
    if let Some(echo) = v.rows.iter().rposition(|r| is_prompt_row(&r.text)) {
        region.retain(|&i| i > echo);
    }
    if let Some((phrase, kind, i)) = v.region(&region).first_of(DIALOGS) {
        let title = v.boxed_title(&region, i);
        let why = format!("no composer, and the dialog in its place says `{phrase}`");
        return reading(State::Dialog(Dialog { kind, title }), Composer::Unreadable, why);
    }
    if let Some(i) = selected_option(v, &region) {
        let title = v.boxed_title(&region, i);
        let why = format!("no composer, and a numbered choice is drawn in its place: `{}`", v.rows[i].trimmed());
        return reading(State::Dialog(Dialog { kind: DialogKind::Question, title }), Composer::Unreadable, why);
    }
    if profile_kit::shell_prompt_last(v) {
        let why = if v.contains("Agent powering down. Goodbye!") {
            "no composer: the shell prompt is back under Gemini CLI's `Agent powering down. Goodbye!` summary"
        } else {
            "no Gemini CLI composer, and the last row is a shell prompt"
        };
        return reading(State::Exited, Composer::Unreadable, why);
    }
    if v.title.contains("Action Required") {
        let title = region.iter().find_map(|&i| profile_kit::quote::sentence(v.rows[i].trimmed())).unwrap_or_default();
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Question, title }),
            Composer::Unreadable,
            "no composer, and the title says `Action Required` (a dialog this profile does not name)",
        );
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, "the screen is empty");
    }
    if v.contains("Gemini CLI is restarting") || v.contains("Gemini CLI v") {
        return reading(State::Starting, Composer::Unreadable, "the Gemini CLI banner without a composer yet");
    }
    reading(
        State::Unknown("no composer and no known dialog".into()),
        Composer::Unreadable,
        "no ` > ` composer with its footer, and no dialog phrase",
    )
}

/// The selected option of a boxed numbered list (`│ ● 1. …`) in `region`.
fn selected_option(v: &View, region: &[usize]) -> Option<usize> {
    region.iter().copied().find(|&i| {
        let t = v.rows[i].trimmed();
        let inner = t.strip_prefix('│').map(profile_kit::text::trim).unwrap_or(t);
        inner.strip_prefix("● ").and_then(profile_kit::text::leading_number).is_some() && t.starts_with('│')
    })
}

/// No row of Gemini CLI's own records a file read in a way captured so far: a row naming the
/// id that is not the trigger's echo, on a screen that is not a dialog (a confirmation quoting
/// the path asks for the read; it is not one).
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// True when a transcript row records a finished tool call that read the drop
/// (`tests/data/transcripts/gemini-cli-0.61.0/`): an entry of a `toolCalls` array with
/// `status: "success"` that is
/// - `read_file` whose `file_path` names the id and whose result is no `error` (read_file
///   refuses a path the ignore files name, `team init`'s `.agents/.gitignore` among them:
///   that entry is `status: "error"`); or
/// - `run_shell_command` whose command reads the file (`cat …`) and whose output says no
///   non-zero `Exit Code:` (a failed `cat` is still `status: "success"`, with `Exit Code: 1`).
///
/// Gemini CLI writes the `gemini` row first without its `toolCalls`, then again with the call,
/// its result and its status once the tool ran, so the request alone is never proof; nor is the
/// session's `memoryScratchpad`, which names the path and the tools in prose.
pub fn transcript_shows_drop_read(rows: &[String], id: &str) -> bool {
    use profile_kit::json::{items, raw_values};
    !id.is_empty()
        && rows.iter().any(|row| raw_values(row, "toolCalls").into_iter().flat_map(items).any(|c| read_the_drop(c, id)))
}

/// One `toolCalls` entry: a finished read of the file named by `id`.
fn read_the_drop(call: &str, id: &str) -> bool {
    use profile_kit::json::{raw_value, str_value};
    if str_value(call, "status") != Some("success") {
        return false;
    }
    let (Some(args), Some(result)) = (raw_value(call, "args"), raw_value(call, "result")) else { return false };
    match str_value(call, "name") {
        Some("read_file") => {
            str_value(args, "file_path").is_some_and(|p| p.contains(id)) && raw_value(result, "error").is_none()
        }
        Some("run_shell_command") => {
            str_value(args, "command").is_some_and(|c| profile_kit::text::shell_reads(c, id))
                && str_value(result, "output").is_some_and(|o| !failed_exit(o))
        }
        _ => false,
    }
}

/// Whether a shell tool's output reports a non-zero `Exit Code: <n>` (a command that exits 0
/// gets no such line).
fn failed_exit(output: &str) -> bool {
    output.split("Exit Code: ").skip(1).any(|rest| profile_kit::text::leading_number(rest) != Some(0))
}

#[cfg(test)]
mod tests;
