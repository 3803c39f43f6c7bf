//! A screen prepared for reading: rows of styled cells plus their plain text, and the regions
//! profiles ask for ("bottom non-empty lines", "after the last horizontal rule", "the composer
//! box").
//!
//! Invariant: `Row::text` and `Row::cells` hold the same characters in the same order (char
//! index `i` of the text is `cells[i]`), so a phrase found in the text can be asked for its
//! style. When the screen carries styled rows they are the source of both; plain rows are used
//! only when no styled row is given (then every cell has the default style).

use crate::ansi::{self, Cell, Style};
use crate::text;
use crate::types::Screen;

/// One screen row.
#[derive(Debug, Clone)]
pub struct Row {
    /// The row's characters, trailing ASCII blanks removed.
    pub text: String,
    /// One cell per character of `text`.
    pub cells: Vec<Cell>,
}

impl Row {
    fn from_cells(mut cells: Vec<Cell>) -> Row {
        // Only ASCII blanks are padding; a trailing U+00A0 is drawn on purpose (Claude's `❯` + NBSP).
        while cells.last().map(|c| c.ch == ' ' || c.ch == '\t').unwrap_or(false) {
            cells.pop();
        }
        let text = cells.iter().map(|c| c.ch).collect();
        Row { text, cells }
    }

    /// True when the row has nothing but whitespace.
    pub fn is_blank(&self) -> bool {
        self.cells.is_empty()
    }

    /// The row without leading whitespace.
    pub fn trimmed(&self) -> &str {
        text::trim(&self.text)
    }

    /// True when the row is a horizontal rule: at least `min_len` cells of `rule_char` and
    /// nothing else but whitespace.
    pub fn is_rule_of(&self, rule_char: char, min_len: usize) -> bool {
        let mut n = 0;
        for c in &self.cells {
            if c.ch == rule_char {
                n += 1;
            } else if !text::is_space(c.ch) {
                return false;
            }
        }
        n >= min_len
    }

    /// Number of leading whitespace cells.
    pub fn indent(&self) -> usize {
        self.cells.iter().take_while(|c| text::is_space(c.ch)).count()
    }

    /// The char index of the first occurrence of `needle`, if any.
    pub fn find_char_index(&self, needle: &str) -> Option<usize> {
        let byte = self.text.find(needle)?;
        Some(self.text[..byte].chars().count())
    }

    /// The style of the cell at char index `i`.
    pub fn style_at(&self, i: usize) -> Style {
        self.cells.get(i).map(|c| c.style).unwrap_or_default()
    }

    /// The text from char index `start` on, with its faintness (see [`Tail`]).
    pub fn tail(&self, start: usize) -> Tail {
        self.span(start, self.cells.len())
    }

    /// The text of char indices `start..end` (clamped), with its faintness (see [`Tail`]).
    pub fn span(&self, start: usize, end: usize) -> Tail {
        let end = end.min(self.cells.len());
        let cells = self.cells.get(start.min(end)..end).unwrap_or(&[]);
        let text: String = cells.iter().map(|c| c.ch).collect();
        let significant: Vec<&Cell> = cells.iter().filter(|c| !text::is_space(c.ch)).collect();
        let faint_only = !significant.is_empty()
            && significant.iter().any(|c| c.style.faint)
            && significant.iter().all(|c| c.style.faint || c.style.reverse);
        Tail { text: text::trim(&text).to_string(), faint_only }
    }

    /// The char index of the last occurrence of `ch`.
    pub fn rfind_char(&self, ch: char) -> Option<usize> {
        self.cells.iter().rposition(|c| c.ch == ch)
    }
}

/// Text read from part of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// The text, trimmed.
    pub text: String,
    /// True when every visible character is faint (a drawn cursor in reverse video aside):
    /// a placeholder or suggestion, which reads as an empty composer.
    pub faint_only: bool,
}

/// A screen prepared for reading.
#[derive(Debug, Clone)]
pub struct View {
    pub rows: Vec<Row>,
    pub title: String,
    pub cols: usize,
    /// True when the rows carry any escape sequence (faintness can be read).
    pub styled: bool,
}

impl View {
    /// Prepares `screen` for reading.
    pub fn new(screen: &Screen) -> View {
        let styled = screen.styled.iter().any(|r| r.contains('\x1b'));
        let rows: Vec<Row> = if !screen.styled.is_empty() {
            ansi::parse_rows(&screen.styled).into_iter().map(Row::from_cells).collect()
        } else {
            screen
                .plain
                .iter()
                .map(|l| {
                    Row::from_cells(l.chars().filter(|c| !c.is_control()).map(|ch| Cell { ch, style: Style::default() }).collect())
                })
                .collect()
        };
        let widest = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
        let cols = if screen.cols > 0 { screen.cols as usize } else { widest };
        View { rows, title: screen.title.trim_end_matches(['\n', '\r']).to_string(), cols, styled }
    }

    /// The index of the last row with any text.
    pub fn last_nonempty(&self) -> Option<usize> {
        self.rows.iter().rposition(|r| !r.is_blank())
    }

    /// The indices of the bottom `n` rows that have text, top to bottom.
    pub fn bottom_nonempty(&self, n: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self.rows.iter().enumerate().rev().filter(|(_, r)| !r.is_blank()).map(|(i, _)| i).take(n).collect();
        out.reverse();
        out
    }

    /// The bottom `n` non-empty rows joined into one string (with `\n`), for phrase tests that
    /// must survive a narrow pane wrapping a phrase over two rows: the rows are also joined
    /// with a space (second part of the string), so `"ctrl+c to\nstop"` matches `"ctrl+c to stop"`.
    pub fn bottom_text(&self, n: usize) -> String {
        let idx = self.bottom_nonempty(n);
        let mut s = String::new();
        for &i in &idx {
            s.push_str(&self.rows[i].text);
            s.push('\n');
        }
        s.push('\u{1}');
        s.push_str(&text::unwrap_rows(idx.iter().map(|&i| self.rows[i].text.as_str())));
        s
    }

    /// All rows' text joined with `\n`.
    pub fn all_text(&self) -> String {
        let mut s = String::new();
        for r in &self.rows {
            s.push_str(&r.text);
            s.push('\n');
        }
        s
    }

    /// Indices of rows that are rules of `rule_char` spanning at least `frac_percent`% of the width.
    pub fn rules(&self, rule_char: char, frac_percent: usize) -> Vec<usize> {
        let min = (self.cols * frac_percent / 100).max(8);
        self.rows.iter().enumerate().filter(|(_, r)| r.is_rule_of(rule_char, min)).map(|(i, _)| i).collect()
    }

    /// The index of the last full-width (≥ 90 %) `─` rule.
    pub fn last_rule(&self) -> Option<usize> {
        self.rules('─', 90).last().copied()
    }

    /// The rows after the last full-width `─` rule (empty when there is none).
    pub fn after_last_rule(&self) -> &[Row] {
        match self.last_rule() {
            Some(i) => &self.rows[i + 1..],
            None => &[],
        }
    }

    /// The last pair of full-width `─` rules with rows between them whose first row starts with
    /// `prompt`: the composer box (Claude Code draws `❯` + U+00A0 there). Returns the rows
    /// strictly between the rules as `(first, last)` indices.
    pub fn composer_between_rules(&self, prompt: &str) -> Option<(usize, usize)> {
        let rules = self.rules('─', 90);
        for w in rules.windows(2).rev() {
            let (a, b) = (w[0], w[1]);
            if b > a + 1 && self.rows[a + 1].text.starts_with(prompt) {
                return Some((a + 1, b - 1));
            }
        }
        None
    }

    /// The last rounded box (`╭…╮` / `│ … │` / `╰…╯`): `(top, bottom)` row indices.
    pub fn last_rounded_box(&self) -> Option<(usize, usize)> {
        let bottom = self.rows.iter().rposition(|r| r.trimmed().starts_with('╰') && r.trimmed().ends_with('╯'))?;
        let top = self.rows[..bottom].iter().rposition(|r| r.trimmed().starts_with('╭') && r.trimmed().ends_with('╮'))?;
        Some((top, bottom))
    }

    /// Indices of rows whose text contains `needle`.
    pub fn rows_containing(&self, needle: &str) -> Vec<usize> {
        self.rows.iter().enumerate().filter(|(_, r)| r.text.contains(needle)).map(|(i, _)| i).collect()
    }

    /// The last row index whose text contains `needle`.
    pub fn last_row_containing(&self, needle: &str) -> Option<usize> {
        self.rows.iter().rposition(|r| r.text.contains(needle))
    }

    /// True when any row in `range` contains `needle`.
    pub fn any_in(&self, range: std::ops::Range<usize>, needle: &str) -> bool {
        let end = range.end.min(self.rows.len());
        let start = range.start.min(end);
        self.rows[start..end].iter().any(|r| r.text.contains(needle))
    }

    /// True when any row contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.rows.iter().any(|r| r.text.contains(needle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(rows: &[&str]) -> Screen {
        Screen { styled: rows.iter().map(|s| s.to_string()).collect(), plain: vec![], title: "t\n".into(), cols: 20, rows: rows.len() as u32, recent: vec![] }
    }

    #[test]
    fn regions() {
        let rule = "─".repeat(20);
        let v = View::new(&screen(&["hello", "", &rule, "❯\u{a0}\x1b[7mT\x1b[0;2mry it", &rule, "  ? for shortcuts", ""]));
        assert_eq!(v.title, "t");
        assert_eq!(v.last_nonempty(), Some(5));
        assert_eq!(v.bottom_nonempty(2), vec![4, 5]);
        assert_eq!(v.last_rule(), Some(4));
        assert_eq!(v.after_last_rule().len(), 2);
        let (a, b) = v.composer_between_rules("❯\u{a0}").unwrap();
        assert_eq!((a, b), (3, 3));
        let tail = v.rows[3].tail(2);
        assert_eq!(tail.text, "Try it");
        assert!(tail.faint_only);
        assert!(v.bottom_text(2).contains("? for shortcuts"));
    }

    #[test]
    fn wrapped_phrase_in_bottom_text() {
        let v = View::new(&screen(&["x", "ctrl+c to", "stop"]));
        assert!(v.bottom_text(3).contains("ctrl+c to stop"));
    }

    #[test]
    fn rounded_box() {
        let v = View::new(&screen(&["  ╭────╮", "  │ ❯ hi │", "  ╰────╯", "footer"]));
        assert_eq!(v.last_rounded_box(), Some((0, 2)));
    }

    #[test]
    fn plain_rows_when_no_styling() {
        let s = Screen { styled: vec![], plain: vec!["abc   ".into()], title: String::new(), cols: 0, rows: 1, recent: vec![] };
        let v = View::new(&s);
        assert_eq!(v.rows[0].text, "abc");
        assert_eq!(v.cols, 3);
        assert!(!v.styled);
    }
}
