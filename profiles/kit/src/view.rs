//! A screen prepared for reading: rows of plain text, their styled cells on demand, and the
//! regions profiles ask for ("bottom non-empty lines", "after the last horizontal rule", "the
//! composer box").
//!
//! Cost: building a view is cheap — the text comes from the plain rows (borrowed). Styles cost
//! only when asked, and only for the row asked about (the composer, a handful of rows): its
//! cells are parsed from its styled row, starting from the SGR state tmux carried into it,
//! which is read backwards from the rows above until a reset decides it.
//!
//! Invariant: `Row::text` and `Row::cells()` hold the same characters in the same order (char
//! index `i` of the text is `cells()[i]`), so a phrase found in the text can be asked for its
//! style. The plain row is the text when the screen gives one per styled row; otherwise the
//! styled row stripped of its escapes is. If a styled row's characters differ from the text
//! (the two were read at different moments), that row's cells carry no style.

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::ansi::{self, Cell, Style};
use crate::text;
use crate::Screen;

/// One screen row.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    /// The row's characters, trailing ASCII blanks removed.
    pub text: Cow<'a, str>,
    /// The styled source row ("" when none) and its index.
    raw: &'a str,
    index: usize,
    /// All styled rows of the screen: a row's start state is read backwards from them.
    all: &'a [String],
    cells: OnceCell<Vec<Cell>>,
}

/// Trailing ASCII blanks are padding; a trailing U+00A0 is drawn on purpose (Claude's `❯` + NBSP).
fn trim_pad(s: &str) -> &str {
    s.trim_end_matches([' ', '\t', '\r'])
}

impl<'a> Row<'a> {
    fn new(text: Cow<'a, str>, raw: &'a str, index: usize, all: &'a [String]) -> Row<'a> {
        Row { text, raw, index, all, cells: OnceCell::new() }
    }

    /// One cell per character of `text`, parsed from the styled row on first use.
    pub fn cells(&self) -> &[Cell] {
        self.cells.get_or_init(|| {
            let n = self.text.chars().count();
            if !self.raw.is_empty() {
                let mut st = ansi::state_before(self.all, self.index);
                let mut cells = ansi::parse_row(self.raw, &mut st);
                cells.truncate(n);
                if cells.len() == n && cells.iter().zip(self.text.chars()).all(|(c, t)| c.ch == t) {
                    return cells;
                }
            }
            self.text.chars().map(|ch| Cell { ch, style: Style::default() }).collect()
        })
    }

    /// True when the row has nothing but blanks.
    pub fn is_blank(&self) -> bool {
        self.text.is_empty()
    }

    /// The row without leading and trailing whitespace.
    pub fn trimmed(&self) -> &str {
        text::trim(&self.text)
    }

    /// True when the row is a horizontal rule: at least `min_len` characters `rule_char` and
    /// nothing else but whitespace.
    pub fn is_rule_of(&self, rule_char: char, min_len: usize) -> bool {
        // Most rows are not rules: their first drawn character says so.
        match self.text.chars().find(|&c| !text::is_space(c)) {
            Some(c) if c == rule_char => {}
            _ => return false,
        }
        if self.text.len() < min_len * rule_char.len_utf8() {
            return false;
        }
        // A rule is usually the rule character and nothing else: one comparison of the bytes.
        let mut buf = [0u8; 4];
        let unit = rule_char.encode_utf8(&mut buf).as_bytes();
        let drawn = text::trim(&self.text).as_bytes();
        if drawn.len() >= min_len * unit.len() && crate::scan::is_repeat(drawn, unit) {
            return true;
        }
        let mut n = 0;
        for c in self.text.chars() {
            if c == rule_char {
                n += 1;
            } else if !text::is_space(c) {
                return false;
            }
        }
        n >= min_len
    }

    /// Number of leading whitespace characters.
    pub fn indent(&self) -> usize {
        self.text.chars().take_while(|&c| text::is_space(c)).count()
    }

    /// The char index of the first occurrence of `needle`, if any.
    pub fn find_char_index(&self, needle: &str) -> Option<usize> {
        let byte = text::find(&self.text, needle)?;
        Some(self.text[..byte].chars().count())
    }

    /// The style of the cell at char index `i`.
    pub fn style_at(&self, i: usize) -> Style {
        self.cells().get(i).map(|c| c.style).unwrap_or_default()
    }

    /// The text from char index `start` on, with its faintness (see [`Tail`]).
    pub fn tail(&self, start: usize) -> Tail {
        self.span(start, usize::MAX)
    }

    /// The text of char indices `start..end` (clamped), with its faintness (see [`Tail`]).
    pub fn span(&self, start: usize, end: usize) -> Tail {
        let all = self.cells();
        let end = end.min(all.len());
        let cells = all.get(start.min(end)..end).unwrap_or(&[]);
        let text: String = cells.iter().map(|c| c.ch).collect();
        let significant = || cells.iter().filter(|c| !text::is_space(c.ch));
        let faint_only = significant().next().is_some()
            && significant().any(|c| c.style.faint)
            && significant().all(|c| c.style.faint || c.style.reverse);
        Tail { text: text::trim(&text).to_string(), faint_only }
    }

    /// The char index of the last occurrence of `ch`.
    pub fn rfind_char(&self, ch: char) -> Option<usize> {
        let byte = self.text.rfind(ch)?;
        Some(self.text[..byte].chars().count())
    }
}

/// The text of each visible row of `screen`, top to bottom, as [`Row::text`] holds it: the
/// plain row when the screen gives one per styled row (borrowed), else the styled row stripped
/// of its escapes; trailing ASCII blanks removed either way.
pub fn visible_texts(screen: &Screen) -> impl ExactSizeIterator<Item = Cow<'_, str>> {
    let use_plain = !screen.plain.is_empty() && (screen.styled.is_empty() || screen.plain.len() == screen.styled.len());
    let rows = if use_plain { &screen.plain } else { &screen.styled };
    rows.iter().map(move |r| {
        // Plain rows are borrowed as they are (a stray control character only costs that row
        // its styling: its cells then no longer match the text).
        if use_plain {
            Cow::Borrowed(trim_pad(r))
        } else {
            Cow::Owned(trim_pad(&ansi::strip(r)).to_string())
        }
    })
}

/// Several rows joined so that a phrase is searched once over the region rather than once per
/// row (each `str::contains` call sets up a searcher), mapped back to the row it starts in.
///
/// The text is normalised: each row trimmed, every run of whitespace (U+00A0 included) one
/// space, and the rows joined with one space; a phrase is normalised the same way before it is
/// searched. So a phrase a narrow pane wrapped over two rows (`Would you like to run the` /
/// `following command?`) is found as if it were on one.
#[derive(Debug, Clone)]
pub struct RegionText {
    /// The rows' normalised text, joined with single spaces.
    pub text: String,
    /// `(byte offset where the row starts in text, row index)`, ascending.
    starts: Vec<(usize, usize)>,
}

/// True when `s` has no whitespace but single ASCII spaces: read from its bytes (the
/// non-ASCII whitespace `text::is_space` knows starts with 0xC2, 0xE1, 0xE2 or 0xE3; the box
/// drawing and prompt glyphs that also start with 0xE2 are told apart by the next byte).
fn plain_spaced(s: &str) -> bool {
    let b = s.as_bytes();
    let mut prev_space = false;
    for (i, &c) in b.iter().enumerate() {
        let next = |k: usize| b.get(i + k).copied().unwrap_or(0);
        let space = match c {
            b' ' if prev_space => return false,
            b' ' => true,
            b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => return false,
            0xC2 if matches!(next(1), 0x85 | 0xA0) => return false,
            0xE1 if next(1) == 0x9A && next(2) == 0x80 => return false,
            0xE2 if next(1) == 0x80 && matches!(next(2), 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF) => return false,
            0xE2 if next(1) == 0x81 && next(2) == 0x9F => return false,
            0xE3 if next(1) == 0x80 && next(2) == 0x80 => return false,
            _ => false,
        };
        prev_space = space;
    }
    true
}

/// `s` with every run of terminal whitespace turned into one ASCII space (ends kept), borrowed
/// when it is already so.
fn normalise(s: &str) -> Cow<'_, str> {
    if plain_spaced(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut prev_space = false;
    for c in s.chars() {
        if text::is_space(c) {
            if !prev_space {
                out.push(' ');
            }
            prev_space = true;
        } else {
            out.push(c);
            prev_space = false;
        }
    }
    Cow::Owned(out)
}

impl RegionText {
    fn row_at(&self, byte: usize) -> usize {
        let k = self.starts.partition_point(|&(off, _)| off <= byte);
        self.starts[k.saturating_sub(1)].1
    }

    /// The index of the row where `needle` first occurs, whitespace and row breaks normalised.
    pub fn find(&self, needle: &str) -> Option<usize> {
        text::find(&self.text, &normalise(needle)).map(|b| self.row_at(b))
    }

    /// As [`find`](Self::find), comparing ASCII letters without case.
    pub fn find_ci(&self, needle: &str) -> Option<usize> {
        text::find_ci(&self.text, &normalise(needle)).map(|b| self.row_at(b))
    }

    /// The first entry of `table` whose phrase occurs, with the row it is in (table order wins).
    pub fn first_of<T: Clone>(&self, table: &[(&'static str, T)]) -> Option<(&'static str, T, usize)> {
        table.iter().find_map(|(p, v)| self.find(p).map(|row| (*p, v.clone(), row)))
    }

    /// As [`first_of`](Self::first_of), comparing ASCII letters without case.
    pub fn first_of_ci<T: Clone>(&self, table: &[(&'static str, T)]) -> Option<(&'static str, T, usize)> {
        table.iter().find_map(|(p, v)| self.find_ci(p).map(|row| (*p, v.clone(), row)))
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
pub struct View<'a> {
    pub rows: Vec<Row<'a>>,
    pub title: String,
    pub cols: usize,
    /// True when the rows carry any escape sequence (faintness can be read).
    pub styled: bool,
}

impl<'a> View<'a> {
    /// Prepares `screen` for reading.
    pub fn new(screen: &'a Screen) -> View<'a> {
        let styled = screen.styled.iter().any(|r| crate::scan::find_ascii(r, 0x1b).is_some());
        let rows = visible_texts(screen)
            .enumerate()
            .map(|(i, text)| {
                let raw: &str = screen.styled.get(i).map(|s| s.as_str()).unwrap_or("");
                Row::new(text, if styled { raw } else { "" }, i, &screen.styled)
            })
            .collect::<Vec<_>>();
        let cols = if screen.cols > 0 {
            screen.cols as usize
        } else {
            rows.iter().map(|r| r.text.chars().count()).max().unwrap_or(0)
        };
        View { rows, title: screen.title.trim_end_matches(['\n', '\r']).to_string(), cols, styled }
    }

    /// The index of the last row with any text.
    pub fn last_nonempty(&self) -> Option<usize> {
        self.rows.iter().rposition(|r| !r.is_blank())
    }

    /// The indices of the bottom `n` rows that have text, top to bottom.
    pub fn bottom_nonempty(&self, n: usize) -> Vec<usize> {
        let mut out: Vec<usize> =
            self.rows.iter().enumerate().rev().filter(|(_, r)| !r.is_blank()).map(|(i, _)| i).take(n).collect();
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
        s.push_str(&text::unwrap_rows(idx.iter().map(|&i| &*self.rows[i].text)));
        s
    }

    /// The rows at `indices` (ascending) joined for phrase search ([`RegionText`]).
    pub fn region(&self, indices: &[usize]) -> RegionText {
        let mut text = String::with_capacity(indices.len() * (self.cols + 1));
        let mut starts = Vec::with_capacity(indices.len());
        for &i in indices {
            let row = text::trim(&self.rows[i].text);
            if row.is_empty() {
                continue;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            starts.push((text.len(), i));
            text.push_str(&normalise(row));
        }
        RegionText { text, starts }
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
    pub fn after_last_rule(&self) -> &[Row<'a>] {
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
        let top =
            self.rows[..bottom].iter().rposition(|r| r.trimmed().starts_with('╭') && r.trimmed().ends_with('╮'))?;
        Some((top, bottom))
    }

    /// A boxed dialog's title: the first sentence of the rows of `region` from the top of the
    /// rounded box holding row `i` (or the three rows above it, with no box top) down to `i` —
    /// box borders are art, and a banner above the box is not the dialog.
    pub fn boxed_title(&self, region: &[usize], i: usize) -> String {
        let top = self.rows[..=i].iter().rposition(|r| r.trimmed().starts_with('╭')).unwrap_or(i.saturating_sub(3));
        let near = region.iter().copied().filter(|&j| j >= top && j <= i);
        profile_reading::quote::first_sentence(near.map(|j| self.rows[j].trimmed())).unwrap_or_default()
    }

    /// Indices of rows whose text contains `needle`.
    pub fn rows_containing(&self, needle: &str) -> Vec<usize> {
        self.rows.iter().enumerate().filter(|(_, r)| text::contains(&r.text, needle)).map(|(i, _)| i).collect()
    }

    /// The last row index whose text contains `needle`.
    pub fn last_row_containing(&self, needle: &str) -> Option<usize> {
        self.rows.iter().rposition(|r| text::contains(&r.text, needle))
    }

    /// True when any row in `range` contains `needle`.
    pub fn any_in(&self, range: std::ops::Range<usize>, needle: &str) -> bool {
        let end = range.end.min(self.rows.len());
        let start = range.start.min(end);
        self.rows[start..end].iter().any(|r| text::contains(&r.text, needle))
    }

    /// True when any row contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.rows.iter().any(|r| text::contains(&r.text, needle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(rows: &[&str]) -> Screen {
        Screen {
            styled: rows.iter().map(|s| s.to_string()).collect(),
            plain: vec![],
            title: "t\n".into(),
            cols: 20,
            rows: rows.len() as u32,
            recent: vec![],
        }
    }

    #[test]
    fn regions() {
        let rule = "─".repeat(20);
        let s = screen(&["hello", "", &rule, "❯\u{a0}\x1b[7mT\x1b[0;2mry it", &rule, "  ? for shortcuts", ""]);
        let v = View::new(&s);
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
    fn region_search_maps_back_to_rows() {
        let s = screen(&["alpha", "", "beta gamma", "Delta"]);
        let v = View::new(&s);
        let r = v.region(&v.bottom_nonempty(10));
        assert_eq!(r.find("gamma"), Some(2));
        assert_eq!(r.find_ci("delta"), Some(3));
        assert_eq!(r.find("alpha"), Some(0));
        assert_eq!(r.find("zeta"), None);
        assert_eq!(r.first_of(&[("nope", 1), ("beta", 2), ("alpha", 3)]), Some(("beta", 2, 2)));
    }

    #[test]
    fn the_byte_test_for_plain_spacing_agrees_with_the_char_test() {
        let by_chars = |s: &str| {
            let mut prev = false;
            s.chars().all(|c| {
                let bad = text::is_space(c) && (c != ' ' || prev);
                prev = text::is_space(c);
                !bad
            })
        };
        for s in [
            "a b",
            "a  b",
            "a\tb",
            "❯\u{a0}x",
            "─── ╭╮ ❯ ⏺",
            "a\u{2003}b",
            "a\u{3000}b",
            "a\u{85}b",
            "a\u{1680}b",
            "é ü",
            "a\u{205f}b",
            "\u{2028}",
            "a\u{202f}b",
            "a\u{2010}b",
        ] {
            assert_eq!(plain_spaced(s), by_chars(s), "{s:?}");
        }
    }

    #[test]
    fn a_phrase_wrapped_over_rows_is_found_where_it_starts() {
        let s =
            screen(&["", "  Would you like to run the", "  following command?", "", "  Press enter to", "  confirm"]);
        let v = View::new(&s);
        let r = v.region(&v.bottom_nonempty(10));
        assert_eq!(r.find("Would you like to run the following command?"), Some(1));
        assert_eq!(r.find("Press enter to  confirm"), Some(4));
        assert_eq!(r.find("the following"), Some(1));
        assert_eq!(r.find_ci("RUN THE FOLLOWING"), Some(1));
        // A trailing space in a phrase still asks for a word to follow.
        assert_eq!(r.find("command? "), Some(2));
        assert_eq!(r.find("confirm "), None);
    }

    #[test]
    fn style_of_a_row_uses_the_state_carried_from_above() {
        let s = screen(&["\x1b[2mfaint starts here", "still faint\x1b[0m plain"]);
        let v = View::new(&s);
        assert!(v.rows[1].style_at(0).faint);
        assert!(!v.rows[1].style_at(13).faint);
        assert_eq!(v.rows[1].tail(0).text, "still faint plain");
    }

    #[test]
    fn wrapped_phrase_in_bottom_text() {
        let s = screen(&["x", "ctrl+c to", "stop"]);
        let v = View::new(&s);
        assert!(v.bottom_text(3).contains("ctrl+c to stop"));
    }

    #[test]
    fn rounded_box() {
        let s = screen(&["  ╭────╮", "  │ ❯ hi │", "  ╰────╯", "footer"]);
        let v = View::new(&s);
        assert_eq!(v.last_rounded_box(), Some((0, 2)));
    }

    #[test]
    fn plain_rows_when_no_styling() {
        let s = Screen {
            styled: vec![],
            plain: vec!["abc   ".into()],
            title: String::new(),
            cols: 0,
            rows: 1,
            recent: vec![],
        };
        let v = View::new(&s);
        assert_eq!(v.rows[0].text, "abc");
        assert_eq!(v.cols, 3);
        assert!(!v.styled);
    }
}
