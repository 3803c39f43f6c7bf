//! The one table renderer of the commands: every column but the last padded to its widest
//! cell, two spaces between columns, no trailing spaces. Widths are terminal columns
//! (`unicode-width`), not characters, so a cell with wide characters (a CJK nickname) keeps
//! its column lined up. Cells are escaped by the caller (`vocab::text::one_line`): this only lays
//! them out.

use unicode_width::UnicodeWidthStr;

/// The rows (the header first) laid out as one table, one line each, indented two spaces.
pub fn table<S: AsRef<str>, R: AsRef<[S]>>(rows: &[R]) -> String {
    layout(rows, "  ")
}

/// The rows laid out with `indent` before each line.
pub fn layout<S: AsRef<str>, R: AsRef<[S]>>(rows: &[R], indent: &str) -> String {
    let cols = rows.iter().map(|r| r.as_ref().len()).max().unwrap_or(0);
    let width = |i: usize| rows.iter().filter_map(|r| r.as_ref().get(i)).map(|c| c.as_ref().width()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let mut out = String::new();
    for r in rows {
        let r = r.as_ref();
        let mut line = String::from(indent);
        for (i, c) in r.iter().enumerate() {
            let c = c.as_ref();
            line.push_str(c);
            if i + 1 < r.len() {
                line.push_str(&" ".repeat(widths[i] - c.width() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `text` cut to `max` terminal columns, the cut marked with `…`.
pub fn short(text: &str, max: usize) -> String {
    if text.width() <= max {
        return text.to_string();
    }
    let mut s = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max.saturating_sub(1) {
            break;
        }
        used += w;
        s.push(c);
    }
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_pad_to_the_widest_cell() {
        let rows = vec![
            vec!["SEAT".to_string(), "PANE".into(), "LAST".into()],
            vec!["claude-keeper".to_string(), "%1".into(), "".into()],
        ];
        assert_eq!(table(&rows), "  SEAT           PANE  LAST\n  claude-keeper  %1\n");
        assert_eq!(short("abcdef", 4), "abc…");
        assert_eq!(short("abc", 4), "abc");
    }

    #[test]
    fn wide_characters_take_two_columns() {
        let rows = vec![vec!["名前".to_string(), "x".into()], vec!["ab".to_string(), "y".into()]];
        assert_eq!(table(&rows), "  名前  x\n  ab    y\n");
        assert_eq!(layout(&rows, ""), "名前  x\nab    y\n");
        assert_eq!(short("名前です", 5), "名前…");
    }
}
