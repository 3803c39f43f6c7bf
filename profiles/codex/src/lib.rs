//! The Codex profile (specified by real screens of Codex 0.171.0).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`.
//! 2. **Dialogs first**: Codex's dialog options use the composer's own `›` glyph
//!    (`› 1. Yes, proceed (y)`), so a `›` row proves nothing until the dialog phrases are ruled
//!    out. The question dialog's footer says `esc to interrupt`, which is why dialogs are read
//!    before the working test. Phrases are matched over the bottom region's text with
//!    whitespace and row breaks normalised, so a narrow pane that wraps `Would you like to run
//!    the following command?` over two rows still reads as a permission dialog.
//! 3. **The shell**: no live composer and a shell prompt as the last row is an exit, whatever
//!    the title says (an exited Codex leaves `[ ! ] Action Required` behind). The title's
//!    `Action Required` only adds evidence to a screen that agrees: one with no live composer
//!    and status line, read as a dialog this profile does not name.
//! 4. **The composer**: the last row starting with a bold, *not* faint `›` (history echoes are
//!    bold and faint), plus its two-space continuation rows, unwrapped. Dim text after `›`
//!    (`Ask Codex to do anything`) is the placeholder: empty.
//! 5. **Starting**: a composer is drawn but the status line (`model · dir · thread`) is not
//!    there yet — the vendor's own advice is not to treat the composer as ready before it.
//! 6. **Working**: `esc to interrupt` in the rows above the composer (`• Working (6s • esc to
//!    interrupt)`, also while retrying); else a braille spinner at the start of the title (the
//!    only sign while a reply streams).
//! 7. **The last turn's error**: a `■` row after the last prompt echo (rate/usage limit or 429
//!    ⇒ rate-limit; `Conversation interrupted` is no error; anything else ⇒ provider-error).
//! 8. **Queued lines** on a live screen: the `↳ <line>` rows under `• Queued follow-up inputs`.

use profile_kit::text::{contains_ci, is_braille};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, TurnError, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Trust this folder?", DialogKind::Trust),
    // New or changed hooks (`.codex/hooks.json`) wait for this answer before the prompt: a key
    // here would trust, or turn off, hooks nobody approved.
    ("Hooks need review", DialogKind::Trust),
    ("Continue without trusting (hooks won't run)", DialogKind::Trust),
    ("Trust and continue", DialogKind::Trust),
    ("Approaching rate limits", DialogKind::RateLimit),
    ("for lower credit usage?", DialogKind::RateLimit),
    ("Would you like to run the following command?", DialogKind::Permission),
    ("Would you like to make the following edits?", DialogKind::Permission),
    ("Press enter to confirm or esc to cancel", DialogKind::Permission),
    ("enter to submit answer", DialogKind::Question),
    ("unanswered)", DialogKind::Question),
    ("Welcome to Codex", DialogKind::VendorNotice),
    ("Sign in with ChatGPT", DialogKind::VendorNotice),
    ("Paste or type your API key", DialogKind::VendorNotice),
    ("keep & next", DialogKind::VendorNotice),
];

/// The placeholder Codex draws dim in an empty composer; used only when no styling was given.
const PLACEHOLDER: &str = "Ask Codex to do anything";

fn reading(state: State, composer: Composer, last_error: Option<TurnError>, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, last_error, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    let r = read_view(&v);
    match r.state {
        State::Idle | State::Working(_) => Reading { queued: queued_lines(&v), ..r },
        _ => r,
    }
}

/// The lines under `• Queued follow-up inputs` (Tab while working queues one): each `↳ <line>`
/// row with its deeper-indented continuation rows, oldest first, up to the
/// `shift+← edit last queued message` hint.
fn queued_lines(v: &View) -> Vec<String> {
    let Some(head) = v.rows.iter().rposition(|r| r.trimmed().starts_with("• Queued follow-up inputs")) else {
        return Vec::new();
    };
    let mut out: Vec<Vec<&str>> = Vec::new();
    for r in &v.rows[head + 1..] {
        let t = r.trimmed();
        if t.is_empty() || t.contains("edit last queued message") || r.text.starts_with("› ") {
            break;
        }
        match (t.strip_prefix("↳ "), out.last_mut()) {
            (Some(first), _) => out.push(vec![first]),
            (None, Some(line)) if r.indent() >= 4 => line.push(t),
            _ => break,
        }
    }
    out.into_iter().map(profile_kit::text::unwrap_rows).filter(|l| !l.is_empty()).collect()
}

/// Reads a prepared screen (everything but the queued lines).
fn read_view(v: &View) -> Reading {
    if let Some(why) = profile_kit::exit_sign(v) {
        return reading(State::Exited, Composer::Unreadable, None, why);
    }
    let mut region = v.bottom_nonempty(30);
    // A dialog is drawn below the last prompt echo (a faint `›` row); with styling, the rows
    // above it are history and need no search.
    if v.styled {
        if let Some(echo) = v.rows.iter().rposition(|r| r.text.starts_with("› ") && r.style_at(0).faint) {
            region.retain(|&i| i > echo);
        }
    }
    if let Some((phrase, kind, i)) = v.region(&region).first_of(DIALOGS) {
        // The dialog's first sentence within a few rows above the phrase: never the logo Codex
        // keeps over its sign-in screen in a tall pane (profile_kit::quote).
        let near = region.iter().copied().filter(|&j| j + 12 >= i && j <= i);
        let title = profile_kit::quote::first_sentence(near.map(|j| v.rows[j].trimmed())).unwrap_or_default();
        let why = format!("the bottom of the screen shows the dialog phrase `{phrase}`");
        return reading(State::Dialog(Dialog { kind, title }), Composer::Unreadable, None, why);
    }
    let composer_at = find_composer(v);
    // What the screen shows decides; the title only adds evidence to a screen that agrees. An
    // exited Codex leaves its last `[ ! ] Action Required` title behind over the shell.
    if composer_at.is_none() && profile_kit::shell_prompt_last(v) {
        let why = match v.rows.iter().rposition(|r| r.trimmed().starts_with("codex resume ")) {
            Some(_) => "no Codex UI: the shell is back under Codex's `codex resume …` line",
            None => "no Codex UI, and the last row is a shell prompt",
        };
        let stale =
            if v.title.contains("Action Required") { " (the title's `Action Required` is left over)" } else { "" };
        return reading(State::Exited, Composer::Unreadable, None, format!("{why}{stale}"));
    }
    // A dialog replaces the composer's status line: a title saying `Action Required` over a
    // screen with no live composer (or one without its status line) is a dialog this profile
    // does not name.
    let live = composer_at.map(|(_, last)| status_line(v, last).is_some()).unwrap_or(false);
    if v.title.contains("Action Required") && !live {
        let title = region.first().map(|&i| v.rows[i].trimmed().to_string()).unwrap_or_default();
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Question, title }),
            Composer::Unreadable,
            None,
            "the title says `Action Required` and no live composer is drawn (a dialog this profile does not name)",
        );
    }
    let Some((first, last)) = composer_at else {
        if v.last_nonempty().is_none() {
            return reading(State::Starting, Composer::Unreadable, None, "the screen is empty");
        }
        if v.contains("OpenAI Codex") || v.rows.iter().any(|r| r.text.chars().filter(|&c| is_braille(c)).count() > 8) {
            return reading(
                State::Starting,
                Composer::Unreadable,
                None,
                "the Codex banner or logo without a composer yet",
            );
        }
        return reading(
            State::Unknown("no composer and no known dialog".into()),
            Composer::Unreadable,
            None,
            "no `›` composer row and no dialog phrase",
        );
    };
    if let Some(title) = unnamed_options(v, first) {
        return reading(
            State::Dialog(Dialog { kind: DialogKind::Question, title }),
            Composer::Unreadable,
            None,
            "the `›` row is the selected option of a numbered list (a dialog this profile does not name)",
        );
    }
    let composer = read_composer(v, first, last);
    if status_line(v, last).is_none() && v.cols > 0 && v.cols < MIN_COLS {
        // Below this width the status line is cut or wrapped past reading: said as what it is,
        // not as a CLI still starting.
        let why = format!("the pane is {} columns wide, too narrow to read Codex's status line (widen it to at least {MIN_COLS} columns)", v.cols);
        return reading(State::Unknown(why.clone()), composer, None, why);
    }
    if status_line(v, last).is_none() {
        return reading(
            State::Starting,
            composer,
            None,
            "the composer is drawn but the status line under it is not there yet",
        );
    }
    let above_start = first.saturating_sub(14);
    if let Some(i) = (above_start..first).rev().find(|&i| contains_ci(&v.rows[i].text, "esc to interrupt")) {
        let why = format!("the status row above the composer: `{}`", v.rows[i].trimmed());
        return reading(State::Working("esc to interrupt".into()), composer, None, why);
    }
    if v.title.chars().next().map(is_braille).unwrap_or(false) {
        return reading(
            State::Working("title spinner".into()),
            composer,
            None,
            "the terminal title starts with a braille spinner",
        );
    }
    if v.title.is_empty() {
        if let Some(i) = unfinished_turn(v, first) {
            let why = format!("no title was given, and the reply `{}` has no done marker yet", v.rows[i].trimmed());
            return reading(State::Working("reply streaming".into()), composer, None, why);
        }
    }
    let (last_error, err_why) = match last_turn_error(v, first) {
        Some((e, row)) => (Some(e), format!("; the last turn ended in `{}`", v.rows[row].trimmed())),
        None => (None, String::new()),
    };
    reading(
        State::Idle,
        composer,
        last_error,
        format!("a live `›` composer with the status line under it and no working sign{err_why}"),
    )
}

/// The live composer: the last row starting with a bold, non-faint `›` + space, and its
/// two-space continuation rows. Returns `(first, last)` row indices.
fn find_composer(v: &View) -> Option<(usize, usize)> {
    let first = v.rows.iter().rposition(|r| r.text.starts_with("› ") || r.text == "›")?;
    // History echoes are drawn faint: if the last `›` row is one, there is no live composer.
    if v.styled && v.rows[first].style_at(0).faint {
        return None;
    }
    let mut last = first;
    while last + 1 < v.rows.len() {
        let r = &v.rows[last + 1];
        if !r.is_blank() && r.text.starts_with("  ") && !r.trimmed().is_empty() && r.indent() == 2 {
            last += 1;
        } else {
            break;
        }
    }
    Some((first, last))
}

/// A numbered options list whose selected row carries the `›` marker (`› 1. …` followed by
/// `  2. …`): a dialog, whatever its phrases. Returns the option row as the title.
fn unnamed_options(v: &View, first: usize) -> Option<String> {
    let after = v.rows[first].text.strip_prefix("› ")?;
    let numbered = |t: &str| {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && t[digits..].starts_with(". ")
    };
    let next_is_option = v.rows[first + 1..(first + 4).min(v.rows.len())].iter().any(|r| numbered(r.trimmed()));
    let prev_is_option = v.rows[first.saturating_sub(3)..first].iter().any(|r| numbered(r.trimmed()));
    (numbered(after) && (next_is_option || prev_is_option)).then(|| v.rows[first].trimmed().to_string())
}

/// The status line under the composer (`  <model> <effort> · <dir>[ · <thread>]`), if drawn.
/// The narrowest pane this profile reads a Codex screen in.
pub const MIN_COLS: usize = 40;

fn status_line(v: &View, composer_last: usize) -> Option<usize> {
    let i = (composer_last + 1..v.rows.len()).find(|&i| !v.rows[i].is_blank())?;
    let t = &v.rows[i].text;
    if t.starts_with("  ") && t.contains(" · ") && !t.contains("for shortcuts") && !t.contains("for agents") {
        Some(i)
    } else {
        None
    }
}

fn read_composer(v: &View, first: usize, last: usize) -> Composer {
    let head = v.rows[first].tail(2);
    if head.faint_only {
        return Composer::Empty;
    }
    let mut text = head.text;
    for r in &v.rows[first + 1..=last] {
        let t = r.tail(0);
        if t.text.is_empty() || t.faint_only {
            continue;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&t.text);
    }
    if text.is_empty() || (!v.styled && text == PLACEHOLDER) {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

/// While a reply streams Codex draws no status row; the title's spinner is the sure sign. When
/// the multiplexer gives no title: after the last prompt echo, a `• ` reply row with neither the
/// done marker (`Worked for …`) nor an error row (`■ …`) after the echo means the turn is open.
fn unfinished_turn(v: &View, composer_first: usize) -> Option<usize> {
    let echo = v.rows[..composer_first].iter().rposition(|r| r.text.starts_with("› "))?;
    let after = &v.rows[echo + 1..composer_first];
    let reply = after.iter().position(|r| r.text.starts_with("• "))?;
    let done = after.iter().any(|r| r.trimmed().starts_with("Worked for") || r.text.starts_with('■'));
    (!done).then_some(echo + 1 + reply)
}

/// A `■` error row after the last prompt echo above the composer.
fn last_turn_error(v: &View, composer_first: usize) -> Option<(TurnError, usize)> {
    let start = v.rows[..composer_first].iter().rposition(|r| r.text.starts_with("› ")).unwrap_or(0);
    let i = (start..composer_first).find(|&i| v.rows[i].text.starts_with('■'))?;
    let mut joined = v.rows[i].text.to_string();
    if let Some(next) = v.rows.get(i + 1) {
        joined.push(' ');
        joined.push_str(&next.text);
    }
    if contains_ci(&joined, "Conversation interrupted") {
        return None;
    }
    let rate = contains_ci(&joined, "rate limit")
        || contains_ci(&joined, "usage limit")
        || joined.contains("429")
        || contains_ci(&joined, "too many requests");
    Some((if rate { TurnError::RateLimit } else { TurnError::ProviderError }, i))
}

/// True for Codex's own record of a read, visible or in the scrollback: `└ Read <name>` under
/// `• Explored` (or a `Read <name>` row) naming the id. The trigger's echo (`› read /tmp/drop/<id>.md`) and an approval dialog's
/// `$ cat …` are requests, not proof.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    let trig = profile_kit::text::squash(trigger);
    profile_kit::row_texts(screen).iter().any(|r| {
        let t = profile_kit::text::trim(r);
        let t = t.strip_prefix("└ ").or_else(|| t.strip_prefix("• ")).unwrap_or(t);
        t.starts_with("Read ") && t.contains(id) && !profile_kit::is_echo(r, &trig)
    })
}

/// True when a transcript row records a completed command Codex itself parsed as a read of the
/// drop: `event_msg`/`item_completed`, item `CommandExecution`, status `completed`, exit code 0,
/// and a `parsed_cmd` entry of type `read` naming the id. The `function_call` row that asks to run
/// `cat` is written before the command runs (and before any approval), so it is not proof.
pub fn transcript_shows_drop_read(rows: &[String], id: &str) -> bool {
    use profile_kit::json::{raw_value, str_value};
    if id.is_empty() {
        return false;
    }
    rows.iter().any(|row| {
        let Some(payload) = raw_value(row, "payload") else { return false };
        if str_value(payload, "type") != Some("item_completed") {
            return false;
        }
        let Some(item) = raw_value(payload, "item") else { return false };
        if str_value(item, "type") != Some("CommandExecution") || str_value(item, "status") != Some("completed") {
            return false;
        }
        if raw_value(item, "exit_code") != Some("0") {
            return false;
        }
        let Some(parsed) = raw_value(item, "parsed_cmd") else { return false };
        parsed.contains("\"type\":\"read\"") && parsed.contains(id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn every_codex_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("codex").unwrap();
        assert!(fx.len() >= 28, "only {} fixtures", fx.len());
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn without_a_title_every_fixture_still_reads_the_same_state() {
        // herdr or another multiplexer may give no title: the screen alone must do.
        let fx = fixtures::for_cli("codex").unwrap();
        for f in &fx {
            let mut s = f.screen.clone();
            s.title.clear();
            let r = classify(&s);
            // A dialog only the title names is the one allowed difference (none is captured).
            assert_eq!(r.state.word(), f.expect.state, "{} without its title: {:?} ({})", f.label(), r.state, r.why);
        }
    }

    fn fixture(name: &str) -> fixtures::Fixture {
        fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), name).unwrap()
    }

    #[test]
    fn a_twenty_column_pane_is_too_narrow_not_starting() {
        // A live composer whose status line is cut at the pane's edge (drawn at 20 columns).
        let text = "\u{1b}[1m›\u{1b}[0m \u{1b}[2mAsk Codex to do an\n\n  gpt-5.1-codex defa\n";
        let screen = Screen::from_ansi(text, "");
        assert_eq!(screen.cols, 20);
        let r = classify(&screen);
        assert_eq!(
            r.state,
            State::Unknown(
                "the pane is 20 columns wide, too narrow to read Codex's status line (widen it to at least 40 columns)"
                    .into()
            ),
            "{}",
            r.why
        );
    }

    #[test]
    fn a_wrapped_approval_in_a_narrow_pane_is_a_permission_dialog() {
        for name in ["permission-shell-narrow30", "permission-shell-narrow40"] {
            let f = fixture(name);
            // The fixture tests the wrap: no single row holds either phrase.
            for phrase in ["Would you like to run the following command?", "Press enter to confirm or esc to cancel"] {
                assert!(!f.screen.plain.iter().any(|r| r.contains(phrase)), "{name}: `{phrase}` is not wrapped");
            }
            let r = classify(&f.screen);
            assert!(matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Permission), "{name}: {r:?}");
            assert!(r.why.contains("Would you like to run the following command?"), "{name}: {}", r.why);
        }
        // Every dialog has its 30- and 40-column forms.
        for d in ["permission-shell", "trust-dialog", "question", "rate-limit-usage-dialog", "onboarding-signin"] {
            for w in [30, 40] {
                let f = fixture(&format!("{d}-narrow{w}"));
                assert_eq!((f.screen.cols, f.derived_from.as_deref()), (w, Some(&*format!("codex-0.171.0/{d}"))));
            }
        }
    }

    #[test]
    fn a_stale_action_required_title_over_the_shell_is_an_exit() {
        let f = fixture("exited-stale-title");
        assert!(f.screen.title.contains("[ ! ] Action Required"));
        let r = classify(&f.screen);
        assert_eq!(r.state, State::Exited, "{}", r.why);
        assert!(r.why.contains("codex resume") && r.why.contains("left over"), "{}", r.why);
        // The same title over a screen with no live composer is still a dialog.
        let mut s = fixture("question").screen;
        s.plain = vec!["  Something new", "", "  1. Go", "  2. Stop"].into_iter().map(String::from).collect();
        s.styled.clear();
        assert!(matches!(classify(&s).state, State::Dialog(_)));
        // And over a live composer with its status line, the screen decides.
        let mut s = fixture("idle-typed").screen;
        s.title = "[ ! ] Action Required | x".into();
        assert_eq!(classify(&s).state, State::Idle);
    }

    #[test]
    fn an_unknown_options_dialog_is_a_dialog_not_a_composer() {
        let s = Screen::from_plain(
            "  Allow the tool to run?\n\n› 1. Allow once\n  2. Deny\n\n  enter select · esc back\n",
            "cproj",
        );
        let r = classify(&s);
        assert!(matches!(r.state, State::Dialog(ref d) if d.kind == DialogKind::Question), "{r:?}");
        assert_eq!(r.composer, Composer::Unreadable);
        // Typed text that merely starts with a number is still the composer.
        let s = Screen::from_plain("› 1. fix the parser\n\n  gpt-5.1-codex default · /tmp/p\n  ? for shortcuts\n", "p");
        assert_eq!(classify(&s).composer, Composer::Holds("1. fix the parser".into()));
    }

    #[test]
    fn explored_read_row_proves_the_read_and_the_echo_does_not() {
        let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "idle-after-file-read").unwrap();
        let id = "7b2e5d10-3c4a-4f86-a1d9-0e6f52c8b3a7";
        assert!(shows_drop_read(&f.screen, id, "read the drop file"));
        let trigger = format!("Read /tmp/drop/{id}.txt and follow it");
        let echo = Screen::from_plain(&format!("› {trigger}\n\n• Working (1s • esc to interrupt)\n"), "");
        assert!(!shows_drop_read(&echo, id, &trigger));
        let dialog = Screen::from_plain(&format!("  $ cat /tmp/drop/{id}.txt\n› 1. Yes, proceed (y)\n"), "");
        assert!(!shows_drop_read(&dialog, id, &trigger));
        // A read that scrolled off the visible rows still counts.
        let mut scrolled = Screen::from_plain("› Ask Codex to do anything\n", "");
        scrolled.recent = vec!["\x1b[1m•\x1b[0m Explored".into(), format!("  └ Read {id}.txt")];
        assert!(shows_drop_read(&scrolled, id, &trigger));
    }

    #[test]
    fn transcript_proof_is_the_completed_read_not_the_function_call() {
        let path = fixtures::transcripts_dir().join("codex-0.171.0/read-drop-file.jsonl");
        let rows: Vec<String> = std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect();
        let id = "2c8f4e91-7a05-4d3b-b6e2-5f19a0c7d846";
        assert!(transcript_shows_drop_read(&rows, id));
        let proof = rows.iter().position(|r| transcript_shows_drop_read(std::slice::from_ref(r), id)).unwrap();
        // The function_call asking to `cat` the file comes earlier and proves nothing.
        assert!(rows[..proof].iter().any(|r| r.contains("function_call") && r.contains(id)));
        assert!(!transcript_shows_drop_read(&rows[..proof], id));
        assert!(!transcript_shows_drop_read(&rows, "00000000-0000-0000-0000-000000000000"));
    }
}
