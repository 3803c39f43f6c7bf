//! The plain tables the commands print: two spaces of indent, every column but the last padded
//! to its widest cell, two spaces between columns, no trailing spaces. Cells are escaped by the
//! caller (`output::one_line`): this only lays them out.

/// The rows (the header first) laid out as one table, one line each.
pub fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |i: usize| rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (i, c) in r.iter().enumerate() {
            line.push_str(c);
            if i + 1 < r.len() {
                line.push_str(&" ".repeat(widths[i] - c.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `text` cut to `max` characters, the cut marked with `…`.
pub fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
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
}
