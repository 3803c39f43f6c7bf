//! The opencode profile: npm `opencode-ai` 1.18.33, a TUI on the alternate screen (specified by
//! its real screens, `tests/data/screens/opencode-1.18.33/`).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **The live composer**: the block of rows with a `┃` in one column that ends in the mode
//!    row (`┃  Build · Mock Model Mock`: agent · model) over the `╹▀▀▀…` row. Prompt echoes in
//!    the history are `┃` blocks too, but never over a `╹▀` row. The composer's text is its rows
//!    above the mode row, read only within the `╹▀▀▀` row's width (the session view draws a
//!    sidebar to the right of it), unwrapped; the grey example `Ask anything… "<example>"` of
//!    the home screen reads as empty (the session view draws no placeholder).
//! 3. **No composer ⇒ a dialog, the shell, or start-up.** Permission dialogs replace the
//!    composer (`△ Permission required` / `# Shell command` / `$ <cmd>` / `Allow once   Allow
//!    always   Reject` / `⇆ select  enter confirm`). Then a shell prompt as the last row is an
//!    exit (the alternate screen closes and prints `Continue  opencode -s ses_…`).
//! 4. **Working**: the status row under the composer says `esc interrupt` (after an animated
//!    `■■■■⬝⬝⬝⬝` bar). The title is the session's name, never its state, so it is not read.

use profile_kit::text::contains;
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// The start of the example the home screen's empty composer shows (the example changes).
pub const PLACEHOLDER_START: &str = "Ask anything… \"";

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Permission required", DialogKind::Permission),
    ("Allow once Allow always Reject", DialogKind::Permission),
    ("⇆ select enter confirm", DialogKind::Question),
];

/// Where the composer is drawn.
struct Frame {
    /// The char column of its `┃` (and of the `╹` under it).
    left: usize,
    /// The char column just right of its `╹▀▀▀` row.
    right: usize,
    /// Its first row, the mode row, and the `╹▀▀▀` row.
    top: usize,
    mode: usize,
    bottom: usize,
}

fn reading(state: State, composer: Composer, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, None, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, why);
    }
    let Some(b) = find_composer(&v) else {
        return without_composer(&v);
    };
    let composer = read_composer(&v, &b);
    let status = (b.bottom + 1..(b.bottom + 3).min(v.rows.len())).find(|&i| contains(&v.rows[i].text, "esc interrupt"));
    if let Some(i) = status {
        let why = format!("the status row under the composer: `{}`", v.rows[i].trimmed());
        return reading(State::Working("esc interrupt".into()), composer, why);
    }
    let why = format!("the `┃` composer over its mode row `{}` and no `esc interrupt`", v.rows[b.mode].trimmed());
    reading(State::Idle, composer, why)
}

/// True when char column `col` of row `i` is the composer's `┃`.
fn bar_at(v: &View, i: usize, col: usize) -> bool {
    v.rows[i].text.chars().nth(col) == Some('┃')
}

/// The composer: the last `╹▀▀▀` row, the `┃` mode row right above it, and the `┃` rows above
/// that in the same column (at most eight).
fn find_composer(v: &View) -> Option<Frame> {
    let bottom = v.rows.iter().rposition(|r| r.trimmed().starts_with("╹▀"))?;
    let text = &v.rows[bottom].text;
    let left = text.chars().position(|c| c == '╹')?;
    let right = left + 1 + text.chars().skip(left + 1).take_while(|&c| c == '▀').count();
    let mode = bottom.checked_sub(1)?;
    if !bar_at(v, mode, left) {
        return None;
    }
    let mut top = mode;
    while top > 0 && mode - top < 8 && bar_at(v, top - 1, left) {
        top -= 1;
    }
    Some(Frame { left, right, top, mode, bottom })
}

fn read_composer(v: &View, b: &Frame) -> Composer {
    let rows: Vec<String> = (b.top..b.mode).map(|i| v.rows[i].span(b.left + 1, b.right).text).collect();
    let text = profile_kit::text::unwrap_rows(rows.iter().map(String::as_str));
    if text.is_empty() || (text.starts_with(PLACEHOLDER_START) && text.ends_with('"')) {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

/// A screen with no live composer: a dialog, the shell, start-up, or something unknown.
fn without_composer(v: &View) -> Reading {
    let region = v.bottom_nonempty(12);
    if let Some((phrase, kind, _)) = v.region(&region).first_of(DIALOGS) {
        let title = region
            .iter()
            .find_map(|&i| {
                let t = v.rows[i].trimmed();
                contains(t, "△").then(|| profile_kit::quote::sentence(t)).flatten()
            })
            .unwrap_or_default();
        let why = format!("no composer, and the dialog in its place says `{phrase}`");
        return reading(State::Dialog(Dialog { kind, title }), Composer::Unreadable, why);
    }
    if profile_kit::shell_prompt_last(v) {
        let why = if v.contains("opencode -s ses_") {
            "no composer: the shell prompt is back under opencode's `Continue  opencode -s ses_…` line"
        } else {
            "no opencode composer, and the last row is a shell prompt"
        };
        return reading(State::Exited, Composer::Unreadable, why);
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, "the screen is empty");
    }
    reading(
        State::Unknown("no composer and no known dialog".into()),
        Composer::Unreadable,
        "no `┃` composer over a `╹▀` row, and no dialog phrase",
    )
}

/// A row naming the id that is not the trigger's echo, on a screen that is not a dialog (a
/// permission quoting the path asks for the read; it is not one). A row of a `┃` block — the
/// composer, or a prompt in the session's history — is what was typed, never a read: opencode
/// wraps the trigger there with the bar before each piece (live, 1.18.33: the id alone on the
/// block's second row), which the generic echo test cannot tell from a read row. opencode's own
/// read is a tool row, `→ Read <path>`.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    if id.is_empty() || matches!(classify(screen).state, State::Dialog(_)) {
        return false;
    }
    let trig = profile_kit::text::squash(trigger);
    profile_kit::rows_text(screen)
        .any(|r| contains(&r, id) && !r.trim_start().starts_with('┃') && !profile_kit::is_echo(&r, &trig))
}

/// opencode keeps its sessions in SQLite, not in transcript rows.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}

#[cfg(test)]
mod tests;
