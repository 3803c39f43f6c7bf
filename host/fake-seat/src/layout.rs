//! The fake seat's screen for its state: each CLI's rows laid out as that CLI lays them out
//! (history above, composer and footer below), at the terminal's size.
//!
//! Invariant: layout only reads the seat's state; nothing here changes it.

use super::screens::{self, Screen};
use super::seat::{Phase, Seat};
use super::Cli;

impl Seat {
    /// The whole screen at `cols`×`rows`.
    pub(super) fn screen(&self, cols: usize, rows: usize) -> Screen {
        if self.blank_while_unshown && self.unshown.is_some() {
            return Screen { rows: Vec::new(), title: String::new(), cursor: None };
        }
        match &self.phase {
            Phase::Dialog(kind) => {
                let (ansi, title) = screens::dialog(self.cli.id(), kind).expect("checked at start");
                // A capture whose title is the capture host's name (`vm`, tmux's default) shows a
                // CLI that had set none: set none either.
                let title = screens::title_of(title);
                let title = if title == "vm" { String::new() } else { title };
                Screen { rows: screens::rows_of(ansi), title, cursor: None }
            }
            Phase::Exited => {
                let mut r = self.shell.clone();
                if r.len() > rows {
                    r.drain(..r.len() - rows);
                }
                let last = r.len() - 1;
                let col = screens::width(&r[last]);
                Screen { rows: r, title: String::new(), cursor: Some((last, col)) }
            }
            _ => match self.cli {
                Cli::Claude => self.claude_screen(cols, rows),
                Cli::Codex => self.codex_screen(cols, rows),
                Cli::Cursor => self.cursor_screen(cols, rows),
            },
        }
    }

    fn claude_screen(&self, cols: usize, rows: usize) -> Screen {
        let idle = screens::rows_of(screens::CLAUDE_IDLE.0);
        let mut top: Vec<String> = idle[..11].to_vec();
        top.push(String::new());
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        if let Some(secs) = self.working() {
            for q in &self.queued {
                top.push(String::new());
                top.extend(screens::claude_queued_rows(&word_wrap(q, cols.saturating_sub(2))));
            }
            top.push(String::new());
            let g = screens::CLAUDE_SPINNER[self.spin / 2 % screens::CLAUDE_SPINNER.len()];
            top.push(screens::claude_spinner_row(g, secs));
        }
        top.push(String::new());
        let composer = if !self.composer.is_empty() {
            wrap_composer(&self.composer, cols)
                .iter()
                .enumerate()
                .map(|(i, l)| if i == 0 { screens::claude_composer(l) } else { format!("  {l}") })
                .collect()
        } else if self.show_placeholder {
            vec![screens::claude_placeholder()]
        } else if !self.queued.is_empty() {
            vec![screens::claude_queued_placeholder()]
        } else {
            vec![screens::claude_composer("")]
        };
        let footer = match (self.working().is_some(), self.composer.is_empty()) {
            (_, false) => String::new(),
            (true, true) => screens::claude_footer_working(),
            (false, true) => screens::claude_footer_idle(),
        };
        let mut bottom = vec![screens::claude_rule(cols)];
        bottom.extend(composer);
        bottom.push(screens::claude_rule(cols));
        bottom.push(footer);
        let all = stack(top, bottom, rows, false);
        let title = match self.working() {
            Some(_) => format!("{} Claude Code", if self.spin.is_multiple_of(2) { '⠂' } else { '⠐' }),
            None => "✳ Claude Code".to_string(),
        };
        // Claude hides the terminal cursor and draws its own (the reverse-video cell).
        Screen { rows: all, title, cursor: None }
    }

    fn codex_screen(&self, cols: usize, rows: usize) -> Screen {
        let idle = screens::rows_of(screens::CODEX_IDLE.0);
        let mut top: Vec<String> = idle[..11].to_vec();
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        let mut bottom = Vec::new();
        if let Some(secs) = self.working() {
            bottom.push(screens::codex_working_row(secs));
            bottom.push(String::new());
        }
        bottom.push(String::new());
        let wrapped = wrap_composer(&self.composer, cols).join("\n");
        let composer = screens::codex_composer(&wrapped);
        let composer_at = bottom.len() + composer.len() - 1;
        let cursor_col = 2 + wrapped.rsplit('\n').next().unwrap_or("").chars().count();
        bottom.extend(composer);
        bottom.push(String::new());
        bottom
            .push(screens::codex_status_line(self.thread.as_deref().map(|t| screens::codex_thread(t, "…")).as_deref()));
        bottom.push(if !self.composer.is_empty() {
            if self.working().is_some() {
                "  \x1b[2mtab to queue message\x1b[0m".into()
            } else {
                String::new()
            }
        } else {
            idle[39].clone()
        });
        let bottom_len = bottom.len();
        let all = stack(top, bottom, rows, true);
        let composer_row = all.len() - bottom_len + composer_at;
        let base = match &self.thread {
            Some(t) => format!("{} | cproj2", screens::codex_thread(t, "...")),
            None => "cproj2".to_string(),
        };
        let title = match self.working() {
            Some(_) => format!("{} {base}", screens::BRAILLE[self.spin % screens::BRAILLE.len()]),
            None => base,
        };
        Screen { rows: all, title, cursor: Some((composer_row, cursor_col)) }
    }

    /// A Cursor-agent screen as `tests/data/screens/cursor-synthetic/` draws it (no real
    /// Cursor capture exists; those screens are built from documented phrases): transcript
    /// rows, `⬢ Reading…` while working, the input box `│ → <text or placeholder> │`, and under
    /// it the `ctrl+c to stop` hint, which word-wraps in a pane narrower than 32 columns.
    fn cursor_screen(&self, cols: usize, rows: usize) -> Screen {
        let mut top: Vec<String> = Vec::new();
        for b in &self.history {
            top.extend(b.iter().cloned());
        }
        let mut bottom = Vec::new();
        if self.working().is_some() {
            bottom.push(String::new());
            bottom.push("  ⬢ Reading…".to_string());
            bottom.push(String::new());
        }
        // The input box wraps a long line inside its borders (`│ → …│`, then `│   …│`); the
        // placeholder is drawn faint (SGR 2), so a reader takes it for an empty box however
        // narrow the pane; typed text is plain.
        let inner = cols.saturating_sub(6).max(1);
        bottom.push(format!("┌{}┐", "─".repeat(cols.saturating_sub(2))));
        if self.composer.is_empty() {
            let ph: String = "Plan, search, build anything".chars().take(inner).collect();
            let pad = " ".repeat(inner.saturating_sub(ph.chars().count()));
            bottom.push(format!("│ → \x1b[2m{ph}\x1b[0m{pad} │"));
        } else {
            let chars: Vec<char> = self.composer.replace('\n', " ").chars().collect();
            for (i, chunk) in chars.chunks(inner).enumerate() {
                let text: String = chunk.iter().collect();
                let pad = " ".repeat(inner - chunk.len());
                bottom.push(format!("│ {} {text}{pad} │", if i == 0 { "→" } else { " " }));
            }
        }
        bottom.push(format!("└{}┘", "─".repeat(cols.saturating_sub(2))));
        if self.working().is_some() {
            if cols < 32 {
                bottom.push("  ctrl+c to".to_string());
                bottom.push("  stop".to_string());
            } else {
                bottom.push("  ctrl+c to stop".to_string());
            }
        }
        let top: Vec<String> = top.iter().flat_map(|r| soft_wrap(r, cols)).collect();
        let all = stack(top, bottom, rows, false);
        Screen { rows: all, title: String::new(), cursor: None }
    }
}

/// Lays `top` (anchored at the top), padding, and `bottom` (anchored at the bottom when
/// `pin_bottom`, else right after `top`) into `rows` rows; overflow drops the oldest top rows.
fn stack(mut top: Vec<String>, bottom: Vec<String>, rows: usize, pin_bottom: bool) -> Vec<String> {
    let room = rows.saturating_sub(bottom.len());
    if top.len() > room {
        top.drain(..top.len() - room);
    }
    if pin_bottom {
        while top.len() < room {
            top.push(String::new());
        }
    }
    top.extend(bottom);
    top
}

/// The composer's text as the CLIs draw it: each logical line cut into rows that fit after the
/// two-column prompt (`❯ ` / `› `), continuation rows indented by two spaces by the caller.
fn wrap_composer(text: &str, cols: usize) -> Vec<String> {
    let width = cols.saturating_sub(3).max(8);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let chars: Vec<char> = line.chars().collect();
        if chars.is_empty() {
            out.push(String::new());
            continue;
        }
        for chunk in chars.chunks(width) {
            out.push(chunk.iter().collect());
        }
    }
    out
}

/// Plain text cut into rows of at most `width` characters at spaces, as Claude Code wraps its
/// prompt rows (`idle-typed-wrapped-narrow60`); a word longer than a row is cut where it must.
fn word_wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut rows = vec![String::new()];
    for word in text.split(' ') {
        let row = rows.last_mut().expect("one row at least");
        let room = width.saturating_sub(row.chars().count());
        if row.is_empty() || word.chars().count() < room {
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(word);
        } else {
            rows.push(word.to_string());
        }
        while rows.last().is_some_and(|r| r.chars().count() > width) {
            let long: Vec<char> = rows.pop().expect("checked").chars().collect();
            rows.push(long[..width].iter().collect());
            rows.push(long[width..].iter().collect());
        }
    }
    rows
}

/// Splits a styled row into rows of at most `cols` cells (a terminal's soft wrap).
fn soft_wrap(row: &str, cols: usize) -> Vec<String> {
    let plain_w = screens::width(row);
    if plain_w <= cols || cols == 0 {
        return vec![row.to_string()];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut n = 0;
    let mut it = row.chars().peekable();
    let mut sgr = String::new();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            let mut seq = String::from(c);
            if it.peek() == Some(&'[') {
                for c in it.by_ref() {
                    seq.push(c);
                    if ('@'..='~').contains(&c) && c != '[' {
                        break;
                    }
                }
            }
            if seq.ends_with('m') {
                sgr.push_str(&seq);
            }
            cur.push_str(&seq);
            continue;
        }
        if n == cols {
            out.push(std::mem::take(&mut cur) + "\x1b[0m");
            cur.push_str(&sgr);
            n = 0;
        }
        cur.push(c);
        n += 1;
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_composer_text_wraps_instead_of_being_cut() {
        let rows = wrap_composer(&"x".repeat(250), 120);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.concat(), "x".repeat(250));
        assert_eq!(wrap_composer("a\nb", 120), vec!["a", "b"]);
    }

    #[test]
    fn word_wrap_breaks_at_spaces_and_cuts_only_a_word_too_long() {
        assert_eq!(
            word_wrap("Please read the team message at /tmp/x/.agents/send-drops/s/a/01", 34),
            vec!["Please read the team message at", "/tmp/x/.agents/send-drops/s/a/01"]
        );
        assert_eq!(word_wrap("ab cd", 40), vec!["ab cd"]);
        assert_eq!(word_wrap(&"x".repeat(20), 8), vec!["x".repeat(8), "x".repeat(8), "x".repeat(4)]);
    }

    #[test]
    fn soft_wrap_splits_long_rows() {
        let r = soft_wrap("  > Read \x1b[2m.agents/send-drops\x1b[0m", 12);
        let plain: Vec<String> = r.iter().map(|s| crate::ansi::strip(s)).collect();
        assert_eq!(plain, vec!["  > Read .ag", "ents/send-dr", "ops"]);
    }
}
