//! ANSI/SGR parsing into styled cells.
//!
//! A vendor's colour runs split words (`\e[38;5;246mto\e[39m`), so text is matched only after
//! the escapes are gone; styling (faint, reverse, colours) is read per cell. tmux's
//! `capture-pane -e` carries the SGR state from one row into the next (a row can start mid-run),
//! so [`parse_rows`] threads the state through all rows. Every escape other than SGR (other CSI
//! sequences, OSC such as hyperlinks or titles) is skipped and contributes no cell.

/// A colour as SGR sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Color {
    #[default]
    Default,
    /// 0–15 (the 8 basic colours and their bright forms) and 16–255 (the 256-colour palette).
    Idx(u8),
    Rgb(u8, u8, u8),
}

/// The attributes of one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub bold: bool,
    /// SGR 2: dim. Placeholders and suggestions are drawn this way.
    pub faint: bool,
    pub italic: bool,
    pub underline: bool,
    /// SGR 7: reverse video (a drawn cursor, or a selected option).
    pub reverse: bool,
    pub fg: Color,
    pub bg: Color,
}

/// One character and its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub ch: char,
    pub style: Style,
}

/// Applies one SGR parameter list (the text between `ESC[` and `m`) to `st`.
pub fn apply_sgr(st: &mut Style, params: &str) {
    // Parameters are `;`-separated; `:` sub-parameters (as in `38:2::r:g:b`) are read as
    // separate numbers, which covers the forms terminals actually send.
    let mut nums: [u16; 32] = [0; 32];
    let mut n = 0usize;
    if params.is_empty() {
        nums[0] = 0;
        n = 1;
    } else {
        for part in params.split([';', ':']) {
            if n == nums.len() {
                break;
            }
            nums[n] = part.parse::<u16>().unwrap_or(0);
            n += 1;
        }
    }
    let mut i = 0;
    while i < n {
        let p = nums[i];
        match p {
            0 => *st = Style::default(),
            1 => st.bold = true,
            2 => st.faint = true,
            3 => st.italic = true,
            4 => st.underline = true,
            7 => st.reverse = true,
            21 => st.underline = true,
            22 => {
                st.bold = false;
                st.faint = false;
            }
            23 => st.italic = false,
            24 => st.underline = false,
            27 => st.reverse = false,
            30..=37 => st.fg = Color::Idx((p - 30) as u8),
            39 => st.fg = Color::Default,
            40..=47 => st.bg = Color::Idx((p - 40) as u8),
            49 => st.bg = Color::Default,
            90..=97 => st.fg = Color::Idx((p - 90 + 8) as u8),
            100..=107 => st.bg = Color::Idx((p - 100 + 8) as u8),
            38 | 48 => {
                let target_fg = p == 38;
                let (color, used) = match nums.get(i + 1).copied() {
                    Some(5) if i + 2 < n => (Some(Color::Idx(nums[i + 2] as u8)), 2),
                    Some(2) if i + 4 < n => {
                        (Some(Color::Rgb(nums[i + 2] as u8, nums[i + 3] as u8, nums[i + 4] as u8)), 4)
                    }
                    _ => (None, 0),
                };
                if let Some(c) = color {
                    if target_fg {
                        st.fg = c;
                    } else {
                        st.bg = c;
                    }
                }
                i += used;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Parses one row, starting from `st` (which it leaves at the row's end state).
pub fn parse_row(row: &str, st: &mut Style) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(row.len());
    let bytes = row.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == 0x1b {
            match bytes.get(i + 1) {
                Some(b'[') => {
                    // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, final 0x40–0x7e.
                    let start = i + 2;
                    let mut j = start;
                    while j < bytes.len() && !(0x40..=0x7e).contains(&bytes[j]) {
                        j += 1;
                    }
                    if j < bytes.len() && bytes[j] == b'm' {
                        apply_sgr(st, &row[start..j]);
                    }
                    i = j + 1;
                }
                Some(b']') => {
                    // OSC: ends with BEL or ESC \.
                    let mut j = i + 2;
                    while j < bytes.len() {
                        if bytes[j] == 0x07 {
                            j += 1;
                            break;
                        }
                        if bytes[j] == 0x1b && bytes.get(j + 1) == Some(&b'\\') {
                            j += 2;
                            break;
                        }
                        j += 1;
                    }
                    i = j;
                }
                Some(_) => i += 2,
                None => i += 1,
            }
            continue;
        }
        if b == b'\r' || b == b'\n' {
            i += 1;
            continue;
        }
        // A UTF-8 character: decode from the str at this byte offset.
        let ch = row[i..].chars().next().unwrap_or('\u{fffd}');
        i += ch.len_utf8();
        if ch.is_control() {
            continue;
        }
        cells.push(Cell { ch, style: *st });
    }
    cells
}

/// Parses all rows in order, threading the SGR state from row to row as tmux writes it.
pub fn parse_rows(rows: &[String]) -> Vec<Vec<Cell>> {
    let mut st = Style::default();
    rows.iter().map(|r| parse_row(r, &mut st)).collect()
}

/// The row's text without any escape sequence.
pub fn strip(row: &str) -> String {
    let mut st = Style::default();
    parse_row(row, &mut st).into_iter().map(|c| c.ch).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_runs_do_not_split_words_in_the_text() {
        let row = "esc\x1b[39m \x1b[38;5;246mto\x1b[39m interrupt";
        assert_eq!(strip(row), "esc to interrupt");
    }

    #[test]
    fn faint_reverse_and_colours_are_read_per_cell() {
        let mut st = Style::default();
        let cells = parse_row("❯\u{a0}\x1b[7mT\x1b[0;2mry\x1b[0m \x1b[38;2;1;2;3;48;5;237mx", &mut st);
        assert!(cells[2].style.reverse && !cells[2].style.faint);
        assert!(cells[3].style.faint && !cells[3].style.reverse);
        assert!(!cells[5].style.faint);
        assert_eq!(cells[6].style.fg, Color::Rgb(1, 2, 3));
        assert_eq!(cells[6].style.bg, Color::Idx(237));
    }

    #[test]
    fn state_carries_into_the_next_row_and_osc_is_skipped() {
        let rows = vec!["\x1b[2mab".to_string(), "c\x1b[22md\x1b]8;;http://x\x07e".to_string()];
        let parsed = parse_rows(&rows);
        assert!(parsed[1][0].style.faint);
        assert!(!parsed[1][1].style.faint);
        assert_eq!(parsed[1].iter().map(|c| c.ch).collect::<String>(), "cde");
    }

    #[test]
    fn basic_and_bright_colours() {
        let mut st = Style::default();
        apply_sgr(&mut st, "36");
        assert_eq!(st.fg, Color::Idx(6));
        apply_sgr(&mut st, "90;47");
        assert_eq!(st.fg, Color::Idx(8));
        assert_eq!(st.bg, Color::Idx(7));
        apply_sgr(&mut st, "");
        assert_eq!(st, Style::default());
    }
}
