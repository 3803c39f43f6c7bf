//! The Qwen Code profile: npm `@qwen-code/qwen-code` 0.24.4, an Ink TUI on the alternate screen
//! (Gemini CLI's layout with other glyphs; specified by its real screens,
//! `tests/data/screens/qwen-code-0.24.4/`).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **The live composer**: the last pair of full-width `─` rules with a row starting `>` at
//!    the left edge between them (past prompts are echoed as `  > …`, indented, with no rules).
//!    Its text is what follows `>` on those rows, unwrapped, without the cursor's U+200B; the
//!    placeholder `Type your message or @path/to/file` (grey, after the cursor cell) reads as
//!    empty, and so does a next-prompt suggestion drawn in its place (its first character
//!    under the cursor, the rest in the placeholder's grey; typed text is in the default colour).
//! 3. **No composer ⇒ a dialog, the shell, or start-up.** Every dialog replaces the composer:
//!    the tool confirmation (`Allow execution of: 'touch'?` / `› 1. Yes, allow once` /
//!    `⠏ Waiting for user confirmation...`); before the prompt, the workspace MCP server's
//!    approval and the folder-trust question (`Do you trust this folder?`), both trust dialogs.
//!    A numbered list with a selected `› 1.` option is a dialog even when its words are
//!    unknown. Then a shell prompt as the last row is an exit
//!    (`/quit` leaves the alternate screen and prints `qwen --resume <uuid>`); the title `✳︎`
//!    (waiting for a confirmation) over no composer is a dialog this profile does not name.
//! 4. **Working**: `esc to cancel` in the spinner row just above the composer
//!    (`⠏ <random phrase>... (4s · esc to cancel)`), which stays live; else the title's `◐︎`
//!    (responding).

use profile_kit::text::contains_ci;
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// The placeholder an empty composer shows; compared as text (it is grey, not faint).
pub const PLACEHOLDER: &str = "Type your message or @path/to/file";

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Allow execution of", DialogKind::Permission),
    ("Yes, allow once", DialogKind::Permission),
    ("Waiting for user confirmation", DialogKind::Permission),
    // Before the prompt, for an MCP server the checkout's `.qwen/settings.json` names
    // (`mcp-server-approval`): a key would approve a server nobody approved.
    ("Untrusted MCP server", DialogKind::Trust),
    ("Approve this server", DialogKind::Trust),
    // Before the prompt, in a folder the person never trusted, with their folder trust on
    // (`security.folderTrust.enabled`; `untrusted-trust-dialog`): a key would trust it.
    ("Do you trust this folder?", DialogKind::Trust),
    ("Trust folder (", DialogKind::Trust),
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
    let Some((first, last)) = v.composer_between_rules(">") else {
        return without_composer(&v);
    };
    let composer = read_composer(&v, first, last);
    // first - 1 is the upper rule; the spinner row is right above it.
    let above = first.saturating_sub(5);
    if let Some(i) = (above..first).rev().find(|&i| contains_ci(&v.rows[i].text, "esc to cancel")) {
        let why = format!("the spinner row above the composer: `{}`", v.rows[i].trimmed());
        return reading(State::Working("esc to cancel".into()), composer, why);
    }
    if v.title.trim_start().starts_with('◐') {
        let why = format!("the composer between its rules, and the title says `{}`", v.title.trim());
        return reading(State::Working("title responding".into()), composer, why);
    }
    reading(State::Idle, composer, "the `>` composer between its two rules and no spinner row above it")
}

fn read_composer(v: &View, first: usize, last: usize) -> Composer {
    if is_ghost(v, first, last) {
        return Composer::Empty;
    }
    let head = &v.rows[first].text;
    let after = head.split_once('>').map(|(_, t)| t).unwrap_or("");
    let mut parts = vec![after];
    parts.extend(v.rows[first + 1..=last].iter().map(|r| &*r.text));
    // The drawn cursor is a grey cell followed by U+200B (ZERO WIDTH SPACE).
    let text = profile_kit::text::unwrap_rows(parts).replace('\u{200b}', "");
    let text = profile_kit::text::trim(&text);
    if text.is_empty() || text == PLACEHOLDER {
        Composer::Empty
    } else {
        Composer::Holds(text.to_string())
    }
}

/// Whether the composer shows a ghost in its empty box rather than typed text: the
/// placeholder, or the next-prompt suggestion Qwen draws in the placeholder's place after a
/// turn (`idle-prompt-suggestion`; Enter would accept it, a typed key dismisses it). A ghost
/// is drawn as its first character under the drawn cursor (a background or an underline) and
/// the rest in one foreground colour of its own; typed text is drawn in the terminal's default
/// colour, the cursor after it. Without styles nothing is a ghost (the placeholder's words
/// still read empty).
fn is_ghost(v: &View, first: usize, last: usize) -> bool {
    use profile_kit::ansi::Color;
    let head = v.rows[first].cells();
    let marks_cursor =
        |c: &profile_kit::ansi::Cell| c.style.bg != Color::Default || c.style.underline || c.style.reverse;
    // after the `>` and the blank that follows it
    let mut cells = head.iter().skip(1).skip_while(|c| c.ch == ' ' && !marks_cursor(c));
    if !cells.next().is_some_and(marks_cursor) {
        return false;
    }
    let rest = cells.chain(v.rows[first + 1..=last].iter().flat_map(|r| r.cells().iter()));
    let mut colours = rest.filter(|c| !profile_kit::text::is_space(c.ch)).map(|c| c.style.fg);
    match colours.next() {
        Some(fg) => fg != Color::Default && colours.all(|c| c == fg),
        None => false,
    }
}

/// The prompt echo: `  > <text>` (indented; the composer's `>` is at the left edge).
fn is_echo_row(text: &str) -> bool {
    text.starts_with("  > ")
}

/// A screen with no live composer: a dialog, the shell, start-up, or something unknown.
fn without_composer(v: &View) -> Reading {
    let mut region = v.bottom_nonempty(30);
    // The dialog is drawn under the last prompt echo: rows above it are history.
    if let Some(echo) = v.rows.iter().rposition(|r| is_echo_row(&r.text)) {
        region.retain(|&i| i > echo);
    }
    if let Some((phrase, kind, i)) = v.region(&region).first_of(DIALOGS) {
        let title = dialog_title(v, &region, i);
        let why = format!("no composer, and the dialog in its place says `{phrase}`");
        return reading(State::Dialog(Dialog { kind, title }), Composer::Unreadable, why);
    }
    if let Some(i) = selected_option(v, &region) {
        let title = dialog_title(v, &region, i);
        let why = format!("no composer, and a numbered choice is drawn in its place: `{}`", v.rows[i].trimmed());
        return reading(State::Dialog(Dialog { kind: DialogKind::Question, title }), Composer::Unreadable, why);
    }
    if profile_kit::shell_prompt_last(v) {
        let why = if v.contains("qwen --resume") {
            "no composer: the shell prompt is back under Qwen Code's `qwen --resume …` line"
        } else {
            "no Qwen Code composer, and the last row is a shell prompt"
        };
        return reading(State::Exited, Composer::Unreadable, why);
    }
    if v.title.trim_start().starts_with('✳') {
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Question, title: dialog_title(v, &region, usize::MAX) }),
            Composer::Unreadable,
            "no composer, and the title's `✳︎` says a confirmation waits (a dialog this profile does not name)",
        );
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, "the screen is empty");
    }
    if v.contains(">_ Qwen Code") {
        return reading(State::Starting, Composer::Unreadable, "the Qwen Code banner without a composer yet");
    }
    reading(
        State::Unknown("no composer and no known dialog".into()),
        Composer::Unreadable,
        "no `>` composer between rules, and no dialog phrase",
    )
}

/// The selected option of a numbered list (`› 1. …`) in `region`.
fn selected_option(v: &View, region: &[usize]) -> Option<usize> {
    region.iter().copied().find(|&i| {
        unboxed(v.rows[i].trimmed()).strip_prefix("› ").and_then(profile_kit::text::leading_number).is_some()
    })
}

/// A row's text inside a box's left border (`│ › 1. …`).
fn unboxed(text: &str) -> &str {
    text.strip_prefix('│').map(profile_kit::text::trim).unwrap_or(text)
}

/// The dialog's first sentence: the first of the rounded box holding row `i` when it is boxed
/// (`Untrusted MCP server in .qwen/settings.json`), else its first row under the last prompt
/// echo (`? Shell <cmd> ←`).
fn dialog_title(v: &View, region: &[usize], i: usize) -> String {
    // the nearest box top above `i` with no box bottom between: `i` is inside that box
    let edge =
        region.iter().rev().filter(|&&j| j <= i).map(|&j| v.rows[j].trimmed()).find(|t| t.starts_with(['╭', '╰']));
    if edge.is_some_and(|t| t.starts_with('╭')) {
        return v.boxed_title(region, i);
    }
    profile_kit::quote::first_sentence(region.iter().map(|&j| v.rows[j].trimmed())).unwrap_or_default()
}

/// No row of Qwen Code's own records a file read in a way captured so far: a row naming the id
/// that is not the trigger's echo, on a screen that is not a dialog (a confirmation quoting the
/// path asks for the read; it is not one).
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::drop_read_outside_dialog(classify, screen, id, trigger)
}

/// True when the transcript rows prove the drop was read
/// (`tests/data/transcripts/qwen-code-0.24.4/`): an `assistant` row whose `functionCall` is
/// `read_file` with a `file_path` naming the id, or `run_shell_command` whose command reads the
/// file (`cat …`), answered later by a `tool_result` row whose `toolCallResult` names that call
/// with `status: "success"` (a `cat` that exits 1 is `status: "error"`).
///
/// The `assistant` row alone is written when the model asks, before any approval: never proof.
pub fn transcript_shows_drop_read(rows: &[String], id: &str) -> bool {
    use profile_kit::json::{items, raw_value, raw_values, str_value};
    if id.is_empty() {
        return false;
    }
    let mut reads: Vec<&str> = Vec::new();
    for row in rows {
        match str_value(row, "type") {
            Some("assistant") => {
                let parts = raw_value(row, "message").and_then(|m| raw_value(m, "parts")).unwrap_or("");
                for call in items(parts).into_iter().flat_map(|p| raw_values(p, "functionCall")) {
                    if let (true, Some(call_id)) = (reads_the_drop(call, id), str_value(call, "id")) {
                        reads.push(call_id);
                    }
                }
            }
            Some("tool_result") => {
                let Some(result) = raw_value(row, "toolCallResult") else { continue };
                if str_value(result, "status") == Some("success")
                    && str_value(result, "callId").is_some_and(|c| reads.contains(&c))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A `functionCall` that reads the file named by `id`.
fn reads_the_drop(call: &str, id: &str) -> bool {
    use profile_kit::json::{raw_value, str_value};
    let Some(args) = raw_value(call, "args") else { return false };
    match str_value(call, "name") {
        Some("read_file") => str_value(args, "file_path").is_some_and(|p| p.contains(id)),
        Some("run_shell_command") => str_value(args, "command").is_some_and(|c| profile_kit::text::shell_reads(c, id)),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
