//! The Claude Code profile (specified by real screens of 2.1.197, 2.1.295 and 2.1.332).
//!
//! How a screen is read, in order:
//! 1. **Exited**: tmux's `Pane is dead`, or a shell prompt with no Claude UI.
//! 2. **The composer**: `❯` + U+00A0 as the first row between two full-width `─` rules. History
//!    rows and dialog options use `❯` + an ASCII space, so they never match. Its text is the rows
//!    between the rules unwrapped into one line; faint text (a `Try "…"` or `Press up to edit
//!    queued messages` placeholder) reads as empty.
//! 3. **No composer ⇒ a dialog** (dialogs replace the composer and footer), named by its phrases;
//!    the held-message dialog first (Enter there means Deny) — unless a shell prompt is the last
//!    row under the phrase: Claude printed it and exited (`Unable to connect to Anthropic
//!    services` on a first run offline). The title is the dialog's first sentence, never art.
//! 4. **Working** when a composer is live: the footer's `esc to interrupt`; else the spinner row
//!    above the composer (`✢ Gerund… (` or `Retrying in`), which stays while the composer holds
//!    text and the footer hint is gone; else a braille spinner in the title (2.1.197 only:
//!    2.1.295+ keeps `✳ Claude Code` while working).
//! 5. **The last turn's error** on an idle screen: an `API Error` (429/rate limit ⇒ rate-limit),
//!    or a usage/session limit row, after the last prompt echo above the composer.
//! 6. **Queued lines** (a line submitted while working): 2.1.295+ draws `❯ <line>` (ASCII space,
//!    continuation rows indented two) with `ctrl+x ctrl+s to send now` under it, above the
//!    spinner row; the marker may follow `Queued · ` or wrap in a narrow pane.

use profile_kit::text::{contains, contains_ci, is_braille};
use profile_kit::{Composer, Dialog, DialogKind, Reading, Screen, State, TurnError, View};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// The live composer's prompt: `❯` + NO-BREAK SPACE.
const PROMPT: &str = "❯\u{a0}";

/// Spinner glyphs Claude Code draws at the start of its working row.
const SPINNER_GLYPHS: &[char] = &['✢', '✳', '✶', '✻', '✽', '·', '*', '✺', '✹', '✷', '✸'];

/// Placeholders Claude draws faint in an empty composer; used only when no styling was given.
const PLACEHOLDERS: &[&str] =
    &["Try \"", "Press up to edit queued messages", "Resend your message to try again", "Message @"];

/// Dialog phrases, most specific first: (phrase, kind).
const DIALOGS: &[(&str, DialogKind)] = &[
    ("Held message from another session", DialogKind::HeldMessage),
    ("Accessing workspace:", DialogKind::Trust),
    ("Yes, I trust this folder", DialogKind::Trust),
    ("Is this a project you created or one you trust", DialogKind::Trust),
    ("Stop and wait for limit to reset", DialogKind::RateLimit),
    ("Do you want to proceed?", DialogKind::Permission),
    ("Do you want to create ", DialogKind::Permission),
    ("Do you want to make this edit", DialogKind::Permission),
    ("Do you want to allow", DialogKind::Permission),
    ("Tab to amend", DialogKind::Permission),
    ("Enter to select", DialogKind::Question),
    ("Chat about this", DialogKind::Question),
    ("Detected a custom API key", DialogKind::VendorNotice),
    ("Do you want to use this API key?", DialogKind::VendorNotice),
    ("Select login method", DialogKind::VendorNotice),
    ("Security notes:", DialogKind::VendorNotice),
    ("Choose the text style", DialogKind::VendorNotice),
    ("Syntax theme:", DialogKind::VendorNotice),
    ("Bypass Permissions mode", DialogKind::VendorNotice),
    ("We're changing auto mode", DialogKind::VendorNotice),
    ("Press Enter to continue", DialogKind::VendorNotice),
    ("Enter to continue", DialogKind::VendorNotice),
    ("Unable to connect to Anthropic services", DialogKind::ProviderError),
    // An options dialog we do not know: still a dialog, never typed into.
    ("Enter to confirm", DialogKind::Question),
    ("Esc to cancel", DialogKind::Question),
];

fn reading(state: State, composer: Composer, last_error: Option<TurnError>, why: impl Into<String>) -> Reading {
    Reading::new(state, composer, last_error, why)
}

/// Reads one screen.
pub fn classify(screen: &Screen) -> Reading {
    let v = View::new(screen);
    if let Some(why) = profile_kit::exit_sign(&v) {
        return reading(State::Exited, Composer::Unreadable, None, why);
    }
    let Some((first, last)) = v.composer_between_rules(PROMPT) else {
        return without_composer(&v);
    };
    let upper_rule = first - 1;
    let lower_rule = last + 1;
    if let Some(why) = exited_below(&v, lower_rule) {
        return reading(State::Exited, Composer::Unreadable, None, why);
    }
    let composer = read_composer(&v, first, last);
    let queued = queued_lines(&v, upper_rule);
    let r = classify_live(&v, composer, upper_rule, lower_rule);
    Reading { queued, ..r }
}

/// What Claude Code prints when it exits, under the last frame it leaves on screen.
const RESUME_HINT: &str = "Resume this session with:";

/// An inline Claude that exited leaves its last frame — the composer between its rules — above
/// `Resume this session with:`, `claude --resume <id>` and the shell's prompt: that composer is
/// no prompt, and a line typed there goes to the shell. Both signs are needed: the hint under
/// the frame, and a shell prompt as the last row (a footer such as `…: 9%` alone is not one).
fn exited_below(v: &View, lower_rule: usize) -> Option<String> {
    let hint = (lower_rule + 1..v.rows.len()).find(|&i| v.rows[i].trimmed().starts_with(RESUME_HINT))?;
    let last = v.last_nonempty()?;
    (last > hint && profile_kit::shell_prompt_last(v))
        .then(|| format!("`{RESUME_HINT}` under the last frame, and the last row is a shell prompt"))
}

/// The marker Claude Code 2.1.295+ draws under a queued line.
const QUEUED_MARKER: &str = "ctrl+x ctrl+s to send now";

/// How many rows with text above the composer's rule are searched for queued lines.
const QUEUE_ROWS: usize = 16;

/// The queued lines above the composer: each `❯ ` row (with its continuation rows) that a
/// `ctrl+x ctrl+s to send now` marker follows, oldest first. The marker may wrap in a narrow
/// pane (`ctrl+x ctrl+s to` / `send now`).
fn queued_lines(v: &View, upper_rule: usize) -> Vec<String> {
    let mut out = Vec::new();
    // Queued lines sit just above the spinner row: the last rows with text above the rule.
    let mut rows: Vec<usize> = (0..upper_rule).rev().filter(|&i| !v.rows[i].is_blank()).take(QUEUE_ROWS).collect();
    rows.reverse();
    for (k, &i) in rows.iter().enumerate() {
        let t = v.rows[i].trimmed();
        // The marker holds `ctrl+x`: most rows have neither, and one search says so.
        let marker = contains(t, "ctrl+x")
            && (contains(t, QUEUED_MARKER)
                || rows.get(k + 1).map(|&j| v.region(&[i, j]).find(QUEUED_MARKER).is_some()).unwrap_or(false));
        if !marker || v.rows[i].text.starts_with("❯ ") {
            continue;
        }
        // The `❯ ` row nearest above the marker, a few rows up at most (a long line wraps).
        let Some(head) = (i.saturating_sub(8)..i).rev().find(|&h| v.rows[h].text.starts_with("❯ ")) else { continue };
        let parts = std::iter::once(&v.rows[head].text["❯ ".len()..])
            .chain(v.rows[head + 1..i].iter().filter(|r| r.indent() >= 2).map(|r| &*r.text));
        let line = profile_kit::text::unwrap_rows(parts);
        if !line.is_empty() {
            out.push(line);
        }
    }
    out
}

/// A screen with a live composer: working, or idle with the last turn's error.
fn classify_live(v: &View, composer: Composer, upper_rule: usize, lower_rule: usize) -> Reading {
    // Working: the footer hint, then the spinner row, then the title.
    let footer_hint = v.rows[lower_rule + 1..].iter().any(|r| contains_ci(&r.text, "esc to interrupt"));
    if footer_hint {
        return reading(
            State::Working("esc to interrupt".into()),
            composer,
            None,
            "the footer under the composer says `esc to interrupt`",
        );
    }
    if let Some(row) = spinner_row(v, upper_rule) {
        let why = format!("the spinner row above the composer: `{}`", v.rows[row].trimmed());
        return reading(State::Working("spinner row".into()), composer, None, why);
    }
    if v.title.chars().next().map(is_braille).unwrap_or(false) {
        return reading(
            State::Working("title spinner".into()),
            composer,
            None,
            "the terminal title starts with a braille spinner",
        );
    }
    let (last_error, err_why) = match last_turn_error(v, upper_rule) {
        Some((e, row)) => (Some(e), format!("; the last turn ended in `{}`", v.rows[row].trimmed())),
        None => (None, String::new()),
    };
    let why = format!("a live composer (`❯` + no-break space between two rules) and no working sign{err_why}");
    reading(State::Idle, composer, last_error, why)
}

/// The composer's text: the rows between the rules unwrapped; faint text reads as empty.
fn read_composer(v: &View, first: usize, last: usize) -> Composer {
    let head = v.rows[first].tail(PROMPT.chars().count());
    if head.faint_only {
        return Composer::Empty;
    }
    let mut parts: Vec<String> = Vec::new();
    if !head.text.is_empty() {
        parts.push(head.text);
    }
    for r in &v.rows[first + 1..=last] {
        let t = r.tail(0);
        if !t.text.is_empty() && !t.faint_only {
            parts.push(t.text);
        }
    }
    let text = parts.join(" ");
    if text.is_empty() || (!v.styled && PLACEHOLDERS.iter().any(|p| text.starts_with(p))) {
        Composer::Empty
    } else {
        Composer::Holds(text)
    }
}

/// The spinner row within the few rows above the composer's upper rule, if any.
fn spinner_row(v: &View, upper_rule: usize) -> Option<usize> {
    let start = upper_rule.saturating_sub(12);
    (start..upper_rule).rev().find(|&i| is_spinner_text(v.rows[i].trimmed()))
}

fn is_spinner_text(t: &str) -> bool {
    let mut chars = t.chars();
    let Some(glyph) = chars.next() else { return false };
    if !SPINNER_GLYPHS.contains(&glyph) || chars.next() != Some(' ') {
        return false;
    }
    let rest = &t[glyph.len_utf8() + 1..];
    // `✢ Philosophising… (3s · ↓ 7 tokens)`; `✻ API error · Retrying in 4s · attempt 4/10`.
    // The finished marker (`✻ Sautéed for 25s`) has neither.
    (rest.contains('…') && rest.contains('(')) || contains_ci(rest, "retrying in")
}

/// The error the last turn ended in: rows after the last prompt echo (`❯ ` + ASCII space)
/// above the composer.
fn last_turn_error(v: &View, upper_rule: usize) -> Option<(TurnError, usize)> {
    let start = v.rows[..upper_rule].iter().rposition(|r| r.text.starts_with("❯ ")).unwrap_or(0);
    let rows: Vec<usize> = (start..upper_rule).filter(|&i| !v.rows[i].is_blank()).collect();
    let region = v.region(&rows);
    // The earliest error row after the prompt (one search per phrase over the region).
    let api = region.find("API Error");
    let limit = [region.find("You've hit your"), region.find("Usage limit reached")]
        .into_iter()
        .flatten()
        .filter(|&i| contains(&v.rows[i].text, "limit"))
        .min();
    match (api, limit) {
        (Some(a), l) if l.map(|l| a <= l).unwrap_or(true) => {
            // The message may wrap: read this row and the next two.
            let mut joined = String::new();
            for r in &v.rows[a..(a + 3).min(upper_rule)] {
                joined.push_str(&r.text);
                joined.push(' ');
            }
            let kind = if contains(&joined, "429") || contains_ci(&joined, "rate limit") {
                TurnError::RateLimit
            } else {
                TurnError::ProviderError
            };
            Some((kind, a))
        }
        (_, Some(l)) => Some((TurnError::RateLimit, l)),
        _ => None,
    }
}

/// No live composer: a dialog, a start-up screen, or something unknown.
fn without_composer(v: &View) -> Reading {
    // Dialogs sit at the bottom; transcript rows far above cannot name one.
    let region: Vec<usize> = v.bottom_nonempty(30);
    if let Some((phrase, kind, i)) = v.region(&region).first_of(DIALOGS) {
        // A shell prompt under the phrase: Claude printed it and exited (a fresh HOME offline
        // leaves `Unable to connect to Anthropic services` over the shell it returned to).
        if v.last_nonempty().is_some_and(|last| last > i) && profile_kit::shell_prompt_last(v) {
            let why = format!("`{phrase}` is what Claude left on screen: the last row under it is a shell prompt");
            return reading(State::Exited, Composer::Unreadable, None, why);
        }
        let title = dialog_title(v, &region, i);
        let why = format!("no live composer, and the bottom of the screen shows `{phrase}`");
        return reading(State::Dialog(Dialog { kind, title }), Composer::Unreadable, None, why);
    }
    if profile_kit::shell_prompt_last(v) {
        return reading(State::Exited, Composer::Unreadable, None, "no Claude UI, and the last row is a shell prompt");
    }
    if v.last_nonempty().is_none() {
        return reading(State::Starting, Composer::Unreadable, None, "the screen is empty");
    }
    if v.contains("Claude Code") && !v.contains("❯") {
        return reading(State::Starting, Composer::Unreadable, None, "the Claude Code banner without a composer yet");
    }
    reading(
        State::Unknown("no composer and no known dialog".into()),
        Composer::Unreadable,
        None,
        "no live composer and no dialog phrase",
    )
}

/// The dialog's first sentence: the first row after the last full-width rule above the
/// matched row that holds one (art is passed over: `profile_kit::quote`), else the matched row.
fn dialog_title(v: &View, region: &[usize], matched: usize) -> String {
    let rules = v.rules('─', 90);
    let after = rules.iter().rev().find(|&&r| r < matched).map(|&r| r + 1).unwrap_or(matched);
    let rows = region.iter().filter(|&&i| i >= after && i <= matched).map(|&i| v.rows[i].trimmed());
    profile_kit::quote::first_sentence(rows).unwrap_or_default()
}

/// Claude Code 2.1 collapses a read into `Read 1 file` without its name, so the screen (visible
/// rows and scrollback) proves a read only in the older form: a `Read(<path naming the id>)` tool row whose result row
/// (`⎿  Read N lines`) follows. A permission dialog naming the file is a request, not proof.
pub fn shows_drop_read(screen: &Screen, id: &str, _trigger: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    // One pass: `tool_row` is whether the last row with text was such a `Read(` row.
    let mut tool_row = false;
    for r in profile_kit::rows_text(screen) {
        if r.trim().is_empty() {
            continue;
        }
        if tool_row && r.contains('⎿') && contains(&r, "Read ") && contains(&r, "line") {
            return true;
        }
        tool_row = contains(&r, "Read(") && contains(&r, id);
    }
    false
}

/// True when the transcript rows prove the drop was read:
/// - a Read result: a `toolUseResult` object whose `file.filePath` names the id; or
/// - a shell read: a `Bash` `tool_use` whose command reads the file (`cat`, `head`, `tail`, `sed`,
///   `less`, `bat`, `nl`, `awk` … naming the id), answered later by a `tool_result` for that
///   tool-use id that is not an error.
///
/// The assistant's `tool_use` row alone is written when the model asks, before any approval, so
/// it is never proof.
pub fn transcript_shows_drop_read(rows: &[String], id: &str) -> bool {
    use profile_kit::json::{raw_value, str_value};
    if id.is_empty() {
        return false;
    }
    let mut shell_reads: Vec<&str> = Vec::new();
    for row in rows {
        if let Some(result) = raw_value(row, "toolUseResult") {
            // An error result is a string, not an object.
            if result.starts_with('{') && str_value(result, "filePath").map(|p| p.contains(id)).unwrap_or(false) {
                return true;
            }
        }
        if row.contains("\"tool_use\"") && row.contains(id) && str_value(row, "name") == Some("Bash") {
            let reads = raw_value(row, "input")
                .and_then(|i| str_value(i, "command"))
                .map(|c| is_shell_read(c, id))
                .unwrap_or(false);
            if let (true, Some(tool_id)) = (reads, tool_use_id(row)) {
                shell_reads.push(tool_id);
            }
        }
        if row.contains("\"tool_result\"") && !row.contains("\"is_error\":true") {
            if let Some(answered) = str_value(row, "tool_use_id") {
                if shell_reads.contains(&answered) {
                    return true;
                }
            }
        }
    }
    false
}

/// The `id` of the `tool_use` block in an assistant row.
fn tool_use_id(row: &str) -> Option<&str> {
    let at = row.find("\"tool_use\"")?;
    // The block's own `id` is the first `"id":` after its type (or just before it).
    profile_kit::json::str_value(&row[at..], "id").or_else(|| {
        let start = row[..at].rfind('{')?;
        profile_kit::json::str_value(&row[start..], "id")
    })
}

/// A shell command that reads a file naming `id` with a common reader.
fn is_shell_read(command: &str, id: &str) -> bool {
    const READERS: &[&str] = &["cat", "head", "tail", "sed", "less", "more", "bat", "nl", "awk"];
    command.contains(id)
        && command.split(|c: char| c.is_whitespace() || c == '|' || c == ';' || c == '&').any(|w| READERS.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile_kit::fixtures;

    #[test]
    fn every_claude_code_fixture_reads_as_its_meta_says() {
        let fx = fixtures::for_cli("claude-code").unwrap();
        assert!(fx.len() >= 80, "only {} fixtures", fx.len());
        let failures = fixtures::conformance(&fx, classify);
        assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
    }

    #[test]
    fn without_a_title_every_fixture_still_reads_the_same_state() {
        // 2.1.295+ never shows work in the title, and a multiplexer may give none: the screen must do.
        for f in fixtures::for_cli("claude-code").unwrap() {
            let mut s = f.screen.clone();
            s.title.clear();
            let r = classify(&s);
            assert_eq!(r.state.word(), f.expect.state, "{} without its title: {:?} ({})", f.label(), r.state, r.why);
        }
    }

    #[test]
    fn transcript_proof_is_the_tool_result_not_the_request() {
        let path = fixtures::transcripts_dir().join("claude-code-2.1.197/read-drop-file.jsonl");
        let rows: Vec<String> = std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect();
        let id = "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913";
        assert!(transcript_shows_drop_read(&rows, id));
        // Up to and including the tool_use request (row 8), nothing proves the read.
        assert!(!transcript_shows_drop_read(&rows[..8], id));
        assert!(transcript_shows_drop_read(&rows[8..9], id));
        assert!(!transcript_shows_drop_read(&rows, "00000000-0000-0000-0000-000000000000"));
    }

    #[test]
    fn a_shell_read_is_proof_only_once_its_result_is_back_and_not_an_error() {
        let id = "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913";
        let ask = format!(
            r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"toolu_1","name":"Bash","input":{{"command":"cat /tmp/drop/{id}.md"}}}}]}}}}"#
        );
        let ok = r#"{"type":"user","message":{"content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"From: lead"}]}}"#.to_string();
        let err = r#"{"type":"user","message":{"content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"No such file","is_error":true}]}}"#.to_string();
        let other =
            r#"{"type":"user","message":{"content":[{"tool_use_id":"toolu_2","type":"tool_result","content":"x"}]}}"#
                .to_string();
        assert!(!transcript_shows_drop_read(std::slice::from_ref(&ask), id));
        assert!(transcript_shows_drop_read(&[ask.clone(), ok.clone()], id));
        assert!(!transcript_shows_drop_read(&[ask.clone(), err], id));
        assert!(!transcript_shows_drop_read(&[ask.clone(), other], id));
        // A command that names the file without reading it proves nothing.
        let ls = ask.replace("cat /tmp", "ls -l /tmp");
        assert!(!transcript_shows_drop_read(&[ls, ok], id));
    }

    #[test]
    fn screen_read_proof_needs_the_result_row() {
        let trigger = "Read /tmp/drop/abc-123.md and follow it";
        let echo = Screen::from_plain(&format!("❯ {trigger}\n\n● Read(/tmp/drop/abc-123.md)\n  ⎿  Waiting…\n"), "");
        assert!(!shows_drop_read(&echo, "abc-123", trigger));
        let done = Screen::from_plain(&format!("❯ {trigger}\n\n● Read(/tmp/drop/abc-123.md)\n  ⎿  Read 5 lines\n"), "");
        assert!(shows_drop_read(&done, "abc-123", trigger));
        let collapsed = Screen::from_plain(&format!("❯ {trigger}\n\n  Read 1 file (ctrl+o to expand)\n"), "");
        assert!(!shows_drop_read(&collapsed, "abc-123", trigger));
    }

    #[test]
    fn a_line_queued_mid_turn_is_reported() {
        let f = fixtures::load(&fixtures::screens_dir().join("claude-code-2.1.295"), "working-queued").unwrap();
        let r = classify(&f.screen);
        assert_eq!(r.queued, ["also check the tests"]);
        assert!(matches!(r.state, State::Working(_)) && r.composer == Composer::Empty, "{r:?}");
        // Our trigger queued, wrapped in a narrow pane, with the `Queued · ` form of the marker.
        let rule = "─".repeat(40);
        let trigger = "Please read the team message at .agents/send-drops/s/a/01.md";
        let s = Screen::from_plain(
            &format!(
                "❯ earlier prompt\n\n●\n\n❯ Please read the team message at\n  .agents/send-drops/s/a/01.md\n  Queued · ctrl+x ctrl+s to\n  send now\n\n✢ Pondering… (3s · ↓ 6 tokens)\n{rule}\n❯\u{a0}\n{rule}\n  esc to interrupt\n"
            ),
            "",
        );
        let r = classify(&s);
        assert_eq!(r.queued, [trigger]);
        assert!(r.queued_holds(trigger));
        // A prompt echo with no marker under it is not queued.
        let s = Screen::from_plain(&format!("❯ {trigger}\n\n✢ Pondering… (3s)\n{rule}\n❯\u{a0}\n{rule}\n"), "");
        assert!(classify(&s).queued.is_empty());
    }

    #[test]
    fn plain_placeholder_reads_empty_without_styling() {
        let rule = "─".repeat(40);
        let s = Screen::from_plain(
            &format!("{rule}\n❯\u{a0}Try \"fix lint errors\"\n{rule}\n  ? for shortcuts\n"),
            "✳ Claude Code",
        );
        let r = classify(&s);
        assert_eq!(r.state, State::Idle);
        assert_eq!(r.composer, Composer::Empty);
    }
}
