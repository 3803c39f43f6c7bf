//! The GitHub Copilot CLI profile: npm `@github/copilot` 1.0.102, a TUI on the alternate screen
//! (specified by its real screens, `tests/data/screens/copilot-1.0.102/`).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **The live composer**: the last pair of full-width `─` rules with a row starting `❯` at
//!    the left edge between them (under the `<cwd> [⎇ <branch>]` row; past prompts are echoed
//!    indented, ` ❯ <text>   <time>`, with no rules). Its text is what follows `❯`, unwrapped;
//!    an empty composer is `❯` alone (no placeholder, no drawn cursor).
//! 3. **No composer ⇒ a dialog, the shell, or start-up.** Every dialog replaces the composer:
//!    `Confirm folder trust` / `Do you trust the files in this folder?`, the command
//!    confirmation `Do you want to run this command?`, the path one `Allow path access` /
//!    `Do you want to allow this?`; any list with a selected `❯ 1.` option or the
//!    `↑/↓ to navigate · enter to select` hint is a dialog even when its words are unknown.
//!    Then a shell prompt as the last row is an exit (`/exit` prints `Resume copilot
//!    --resume=<uuid>` beside the logo).
//! 4. **Working**: the footer under the composer says `esc esc edit prompt` (` ◎ Working esc esc
//!    edit prompt`) or, once bytes stream, `esc esc interrupt`. The title is the session's name,
//!    never its state, so it is not read.

use profile_kit::text::contains;
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Confirm folder trust", DialogKind::Trust),
    ("Do you trust the files in this folder?", DialogKind::Trust),
    ("Do you want to run this command?", DialogKind::Permission),
    ("Allow path access", DialogKind::Permission),
    ("Do you want to allow this?", DialogKind::Permission),
    ("to navigate · enter to select", DialogKind::Question),
];

/// The working hints of the footer, as `describe()` names them.
const WORKING: &[&str] = &["esc esc edit prompt", "esc esc interrupt"];

fn reading(state: State, composer: Composer, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, None, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, why);
    }
    let Some((first, last)) = v.composer_between_rules("❯") else {
        return without_composer(&v);
    };
    let composer = read_composer(&v, first, last);
    // last + 1 is the lower rule; the footer is under it.
    let footer = (last + 2..(last + 4).min(v.rows.len()))
        .find_map(|i| WORKING.iter().find(|h| contains(&v.rows[i].text, h)).map(|h| (i, *h)));
    if let Some((i, hint)) = footer {
        let why = format!("the footer under the composer: `{}`", v.rows[i].trimmed());
        return reading(State::Working(hint.into()), composer, why);
    }
    reading(State::Idle, composer, "the `❯` composer between its two rules and no working footer")
}

fn read_composer(v: &View, first: usize, last: usize) -> Composer {
    let head = v.rows[first].text.strip_prefix('❯').unwrap_or(&v.rows[first].text);
    let mut parts = vec![head];
    parts.extend(v.rows[first + 1..=last].iter().map(|r| &*r.text));
    let text = profile_kit::text::unwrap_rows(parts);
    if text.is_empty() {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

/// A screen with no live composer: a dialog, the shell, start-up, or something unknown.
fn without_composer(v: &View) -> Reading {
    let region = v.bottom_nonempty(30);
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
        let why = if v.contains("copilot --resume=") {
            "no composer: the shell prompt is back under Copilot's `Resume copilot --resume=…` summary"
        } else {
            "no Copilot composer, and the last row is a shell prompt"
        };
        return reading(State::Exited, Composer::Unreadable, why);
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, "the screen is empty");
    }
    if v.contains("Copilot v") {
        return reading(State::Starting, Composer::Unreadable, "the Copilot banner without a composer yet");
    }
    reading(
        State::Unknown("no composer and no known dialog".into()),
        Composer::Unreadable,
        "no `❯` composer between rules, and no dialog phrase",
    )
}

/// The selected option of a boxed numbered list (`│ ❯ 1. …`) in `region`.
fn selected_option(v: &View, region: &[usize]) -> Option<usize> {
    region.iter().copied().find(|&i| {
        let t = v.rows[i].trimmed();
        let inner = t.strip_prefix('│').map(profile_kit::text::trim).unwrap_or(t);
        inner.strip_prefix("❯ ").and_then(profile_kit::text::leading_number).is_some()
    })
}

/// No row of Copilot's own records a file read in a way captured so far: a row naming the id
/// that is not the trigger's echo, on a screen that is not a dialog (a confirmation quoting the
/// path asks for the read; it is not one).
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// True when the session's events prove the drop was read
/// (`tests/data/transcripts/copilot-1.0.102/`): a `tool.execution_start` of `view` whose `path`
/// names the id, or of `bash` whose command reads the file (`cat …`), answered later by a
/// `tool.execution_complete` for that `toolCallId` with `success: true` and, for a command, exit
/// code 0 (a `cat` that failed is still `success: true`, with `shellExecution.exitCode: 1`).
///
/// The `assistant.message` asking for the call, and the start itself, come before any approval
/// and before the tool ran: never proof.
pub fn transcript_shows_drop_read(rows: &[String], id: &str) -> bool {
    use profile_kit::json::{raw_value, str_value};
    if id.is_empty() {
        return false;
    }
    let mut reads: Vec<&str> = Vec::new();
    for row in rows {
        let Some(data) = raw_value(row, "data") else { continue };
        match str_value(row, "type") {
            Some("tool.execution_start") => {
                let args = raw_value(data, "arguments").unwrap_or("");
                let reads_it = match str_value(data, "toolName") {
                    Some("view") => str_value(args, "path").is_some_and(|p| p.contains(id)),
                    Some("bash") => str_value(args, "command").is_some_and(|c| profile_kit::text::shell_reads(c, id)),
                    _ => false,
                };
                if let (true, Some(call)) = (reads_it, str_value(data, "toolCallId")) {
                    reads.push(call);
                }
            }
            Some("tool.execution_complete") => {
                let exit = raw_value(data, "shellExecution").and_then(|e| raw_value(e, "exitCode"));
                if raw_value(data, "success") == Some("true")
                    && exit.is_none_or(|c| c == "0")
                    && str_value(data, "toolCallId").is_some_and(|c| reads.contains(&c))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests;
