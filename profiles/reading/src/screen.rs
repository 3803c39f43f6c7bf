//! A pane as the multiplexer shows it at one moment, and the one way a capture becomes one.
//!
//! Invariant: `plain[i]` is `styled[i]` stripped by [`crate::ansi::strip`] with trailing ASCII
//! spaces removed, whenever both are given ([`Screen::from_ansi`], [`plain_rows`]); a reader may
//! then take its text from `plain` and its styles from `styled`, row for row.

use crate::{ansi, scan};

/// A pane as the multiplexer shows it at one moment (WIT `screen`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Screen {
    /// The visible rows with their ANSI SGR styling, top to bottom (empty when only text was given).
    pub styled: Vec<String>,
    /// The same visible rows as plain text.
    pub plain: Vec<String>,
    /// The terminal title, or an empty string when the multiplexer gives none.
    pub title: String,
    /// The pane's width in columns.
    pub cols: u32,
    /// The pane's height in rows.
    pub rows: u32,
    /// Rows above the visible area (scrollback), oldest first, when the multiplexer gives them.
    pub recent: Vec<String>,
}

impl Screen {
    /// A screen from an ANSI capture (`tmux capture-pane -e -p`, `herdr pane read --format
    /// ansi`) or a plain one: one row per line ([`split_rows`]), plain rows derived by
    /// [`plain_rows`], `rows` = the number of lines and `cols` = the widest plain row in
    /// characters (a capture drops trailing blanks, so callers that know the pane's size set
    /// `cols`/`rows` after). One final newline of the title is dropped.
    pub fn from_ansi(text: &str, title: &str) -> Screen {
        let styled = split_rows(text);
        let plain = plain_rows(&styled);
        let cols = plain.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        Screen { rows: styled.len() as u32, cols, styled, plain, title: trim_title(title), recent: Vec::new() }
    }

    /// A screen from plain rows only (no styling), sized from the text.
    pub fn from_plain(text: &str, title: &str) -> Screen {
        let plain = split_rows(text);
        let cols = plain.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        Screen {
            rows: plain.len() as u32,
            cols,
            styled: Vec::new(),
            plain,
            title: trim_title(title),
            recent: Vec::new(),
        }
    }
}

fn trim_title(title: &str) -> String {
    let t = title.strip_suffix('\n').unwrap_or(title);
    t.strip_suffix('\r').unwrap_or(t).to_string()
}

/// Splits a multiplexer's text output into rows (`\n` or `\r\n` line ends); a final line end
/// does not make an extra empty row, and empty text is no rows.
pub fn split_rows(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    lines(text).map(str::to_string).collect()
}

/// The rows of `text` (see [`split_rows`]), borrowed, `\r` line ends removed: the newlines are
/// found with [`scan::find_ascii`] (a guest's `split('\n')` reads the text 4 bytes at a time).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut rest = (!text.is_empty()).then_some(body);
    std::iter::from_fn(move || {
        let r = rest?;
        let line = match scan::find_ascii(r, b'\n') {
            Some(at) => {
                rest = Some(&r[at + 1..]);
                &r[..at]
            }
            None => {
                rest = None;
                r
            }
        };
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// [`split_rows`] into `rows`, reusing the strings already there (a guest reads one screen
/// after another: a warm read then allocates nothing for rows it had before).
pub fn fill_rows(rows: &mut Vec<String>, text: &str) {
    let mut n = 0;
    for line in lines(text) {
        match rows.get_mut(n) {
            Some(r) => {
                r.clear();
                r.push_str(line);
            }
            None => rows.push(line.to_string()),
        }
        n += 1;
    }
    rows.truncate(n);
}

/// Rows as `team:profile@0.2.0` carries them: one string, every row ended by `\n` (so `""` is
/// no rows and `"\n"` one empty row). [`split_rows`] reads it back.
pub fn join_rows(rows: &[String]) -> String {
    let mut s = String::with_capacity(rows.iter().map(|r| r.len() + 1).sum());
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s
}

/// Plain rows from styled rows: escapes removed ([`ansi::strip`]), trailing ASCII spaces
/// trimmed, as `tmux capture-pane -p` trims them (with `-e` it keeps some that carried a style).
pub fn plain_rows(styled: &[String]) -> Vec<String> {
    // Only ASCII spaces: a composer row ends in U+00A0 after `❯`, which a reader must see.
    styled.iter().map(|r| plain_row(r)).collect()
}

/// One plain row from a styled one (see [`plain_rows`]).
pub fn plain_row(styled: &str) -> String {
    let mut s = ansi::strip(styled);
    let keep = s.trim_end_matches(' ').len();
    s.truncate(keep);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_ansi_strips_sgr_and_keeps_rows() {
        let s = Screen::from_ansi("\u{1b}[2mTry \"fix\"\u{1b}[0m\n\u{1b}[1m›\u{1b}[22m hi\n", "t\n");
        assert_eq!(s.rows, 2);
        assert_eq!(s.plain, vec!["Try \"fix\"".to_string(), "› hi".to_string()]);
        assert_eq!(s.styled[0], "\u{1b}[2mTry \"fix\"\u{1b}[0m");
        assert_eq!(s.cols, 9);
        assert_eq!(s.title, "t");
    }

    #[test]
    fn from_ansi_keeps_blank_rows_and_drops_only_the_final_newline() {
        let s = Screen::from_ansi("a\n\n\nb\n", "");
        assert_eq!(s.plain, vec!["a", "", "", "b"]);
        assert_eq!(Screen::from_ansi("", "").rows, 0);
        assert_eq!(Screen::from_ansi("\u{276f}\u{a0} \u{1b}[7m \u{1b}[0m  \n", "").plain, vec!["\u{276f}\u{a0}"]);
    }

    #[test]
    fn split_rows_handles_crlf_and_final_newline() {
        assert_eq!(split_rows("a\r\nb\r\n"), vec!["a", "b"]);
        assert_eq!(split_rows("a\n\nb\n"), vec!["a", "", "b"]);
        assert!(split_rows("").is_empty());
    }

    #[test]
    fn filling_rows_reads_what_splitting_does() {
        let mut rows = vec!["old".to_string(); 5];
        for text in ["a\r\n\nb\n", "", "\n", "x", "1\n2\n3\n4\n5\n6\n7\n"] {
            fill_rows(&mut rows, text);
            assert_eq!(rows, split_rows(text), "{text:?}");
        }
    }

    #[test]
    fn joined_rows_read_back_exactly() {
        for rows in [vec![], vec![String::new()], vec!["a".to_string(), String::new(), "b\r".to_string()]] {
            let back = split_rows(&join_rows(&rows));
            let want: Vec<String> = rows.iter().map(|r| r.trim_end_matches('\r').to_string()).collect();
            assert_eq!(back, want);
        }
        assert_eq!(join_rows(&[String::new(), String::new()]), "\n\n");
    }

    #[test]
    fn from_plain_has_no_styling() {
        let s = Screen::from_plain("› hi  \nx\n", "p");
        assert!(s.styled.is_empty());
        assert_eq!(s.plain, vec!["› hi  ", "x"]);
        assert_eq!((s.cols, s.rows), (6, 2));
    }
}
