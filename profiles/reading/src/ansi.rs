//! The one ANSI reader of the tree: [`strip`] (a row's text without escapes) and SGR parsing
//! into styled cells ([`parse_row`]).
//!
//! A vendor's colour runs split words (`\e[38;5;246mto\e[39m`), so text is matched only after
//! the escapes are gone; styling (faint, reverse, colours) is read per cell. tmux's
//! `capture-pane -e` carries the SGR state from one row into the next (a row can start mid-run),
//! so [`parse_rows`] threads the state through all rows.
//!
//! Invariant: [`strip`] and [`parse_row`] skip exactly the same bytes (one scanner,
//! [`escape_end`]), so char `i` of a stripped row is cell `i` of the parsed one. Skipped: CSI
//! (`ESC [ … final`, SGR included), the string sequences OSC/DCS/APC/PM (`ESC ] … BEL` or
//! `… ESC \`), charset designations (`ESC ( B`), any other two-byte escape, and control
//! characters other than tab.

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

/// Where SGR parameters land: a whole [`Style`], or a partial record of what one escape changed.
pub trait SgrSink {
    fn reset(&mut self);
    fn set_bold(&mut self, v: bool);
    fn set_faint(&mut self, v: bool);
    fn set_italic(&mut self, v: bool);
    fn set_underline(&mut self, v: bool);
    fn set_reverse(&mut self, v: bool);
    fn set_fg(&mut self, c: Color);
    fn set_bg(&mut self, c: Color);
}

impl SgrSink for Style {
    fn reset(&mut self) {
        *self = Style::default();
    }
    fn set_bold(&mut self, v: bool) {
        self.bold = v;
    }
    fn set_faint(&mut self, v: bool) {
        self.faint = v;
    }
    fn set_italic(&mut self, v: bool) {
        self.italic = v;
    }
    fn set_underline(&mut self, v: bool) {
        self.underline = v;
    }
    fn set_reverse(&mut self, v: bool) {
        self.reverse = v;
    }
    fn set_fg(&mut self, c: Color) {
        self.fg = c;
    }
    fn set_bg(&mut self, c: Color) {
        self.bg = c;
    }
}

/// What one escape (or a run of escapes, newest first) decided: `None` = not touched.
#[derive(Debug, Clone, Copy, Default)]
struct Partial {
    reset: bool,
    bold: Option<bool>,
    faint: Option<bool>,
    italic: Option<bool>,
    underline: Option<bool>,
    reverse: Option<bool>,
    fg: Option<Color>,
    bg: Option<Color>,
}

impl SgrSink for Partial {
    fn reset(&mut self) {
        *self = Partial { reset: true, ..Partial::default() };
    }
    fn set_bold(&mut self, v: bool) {
        self.bold = Some(v);
    }
    fn set_faint(&mut self, v: bool) {
        self.faint = Some(v);
    }
    fn set_italic(&mut self, v: bool) {
        self.italic = Some(v);
    }
    fn set_underline(&mut self, v: bool) {
        self.underline = Some(v);
    }
    fn set_reverse(&mut self, v: bool) {
        self.reverse = Some(v);
    }
    fn set_fg(&mut self, c: Color) {
        self.fg = Some(c);
    }
    fn set_bg(&mut self, c: Color) {
        self.bg = Some(c);
    }
}

impl Partial {
    /// Takes from `older` every field this one has not decided; true when all are now decided.
    fn fill_from(&mut self, older: &Partial) -> bool {
        fn f<T: Copy>(mine: &mut Option<T>, theirs: Option<T>, reset: bool, default: T) {
            if mine.is_none() {
                *mine = theirs.or(if reset { Some(default) } else { None });
            }
        }
        let r = older.reset;
        f(&mut self.bold, older.bold, r, false);
        f(&mut self.faint, older.faint, r, false);
        f(&mut self.italic, older.italic, r, false);
        f(&mut self.underline, older.underline, r, false);
        f(&mut self.reverse, older.reverse, r, false);
        f(&mut self.fg, older.fg, r, Color::Default);
        f(&mut self.bg, older.bg, r, Color::Default);
        r || (self.bold.is_some()
            && self.faint.is_some()
            && self.italic.is_some()
            && self.underline.is_some()
            && self.reverse.is_some()
            && self.fg.is_some()
            && self.bg.is_some())
    }

    fn resolve(self) -> Style {
        Style {
            bold: self.bold.unwrap_or(false),
            faint: self.faint.unwrap_or(false),
            italic: self.italic.unwrap_or(false),
            underline: self.underline.unwrap_or(false),
            reverse: self.reverse.unwrap_or(false),
            fg: self.fg.unwrap_or_default(),
            bg: self.bg.unwrap_or_default(),
        }
    }
}

/// Where the escape sequence starting at `b[i]` (an ESC) ends (exclusive), and the byte range of
/// its SGR parameters when it is an SGR (`ESC [ … m`). Never ends inside a UTF-8 character.
pub fn escape_end(b: &[u8], i: usize) -> (usize, Option<(usize, usize)>) {
    match b.get(i + 1) {
        Some(b'[') => {
            // Parameters 0x30–0x3f, intermediates 0x20–0x2f, then one final byte 0x40–0x7e.
            let start = i + 2;
            let mut j = start;
            while j < b.len() && !(0x40..=0x7e).contains(&b[j]) {
                j += 1;
            }
            if j < b.len() {
                (j + 1, (b[j] == b'm').then_some((start, j)))
            } else {
                (b.len(), None)
            }
        }
        Some(b']' | b'P' | b'_' | b'^') => {
            // String sequences end at BEL or ST (ESC \).
            let mut j = i + 2;
            while j < b.len() {
                if b[j] == 0x07 {
                    return (j + 1, None);
                }
                if b[j] == 0x1b && b.get(j + 1) == Some(&b'\\') {
                    return (j + 2, None);
                }
                j += 1;
            }
            (b.len(), None)
        }
        // Charset designations take one more (ASCII) byte.
        Some(b'(' | b')' | b'*' | b'+' | b'#') => match b.get(i + 2) {
            Some(&c) if c < 0x80 => (i + 3, None),
            _ => (i + 2, None),
        },
        Some(&c) if c < 0x80 => (i + 2, None),
        // ESC before a non-ASCII character: only the ESC goes.
        _ => (i + 1, None),
    }
}

/// The index of the first ESC in `row` at or after `from`. `from` is always a character
/// boundary ([`escape_end`] never ends inside a character), so the search is `str`'s (`memchr`
/// natively, the vectorised scan in a guest); the byte search is only a fallback.
fn next_esc(row: &str, from: usize) -> Option<usize> {
    let off = match row.get(from..) {
        Some(rest) => crate::scan::find_ascii(rest, 0x1b),
        None => crate::scan::find_byte(&row.as_bytes()[from..], 0x1b),
    };
    off.map(|o| from + o)
}

/// The byte ranges of the SGR parameter lists (`ESC[` … `m`) in `row`, in order.
fn sgr_ranges(row: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let bytes = row.as_bytes();
    let mut i = 0;
    while let Some(at) = next_esc(row, i) {
        i = at;
        let (end, sgr) = escape_end(bytes, i);
        out.extend(sgr);
        i = end;
        if i >= bytes.len() {
            break;
        }
    }
}

/// The SGR state in force at the start of `rows[k]`, as tmux's `capture-pane -e` carries it
/// from row to row. Reads the escapes *backwards* from the end of `rows[k - 1]` and stops as
/// soon as every attribute is decided (a full reset decides them all), so asking about one row
/// costs a few escapes, not the whole screen.
pub fn state_before(rows: &[String], k: usize) -> Style {
    let mut acc = Partial::default();
    let mut ranges = Vec::new();
    for r in (0..k.min(rows.len())).rev() {
        let row = &rows[r];
        sgr_ranges(row, &mut ranges);
        for &(a, b) in ranges.iter().rev() {
            let mut d = Partial::default();
            apply_sgr_to(&mut d, &row[a..b]);
            if acc.fill_from(&d) {
                return acc.resolve();
            }
        }
    }
    acc.resolve()
}

/// Applies one SGR parameter list (the text between `ESC[` and `m`) to `st`.
///
/// Parameters are `;`- (or `:`-) separated numbers, read in one pass with a small state machine
/// for the extended colours (`38;5;n`, `38;2;r;g;b`, and `48;…`): this runs for every escape of
/// every row, and some CLIs colour each character of a logo separately.
pub fn apply_sgr(st: &mut Style, params: &str) {
    apply_sgr_to(st, params)
}

/// [`apply_sgr`] into any [`SgrSink`].
pub fn apply_sgr_to<S: SgrSink>(st: &mut S, params: &str) {
    let b = params.as_bytes();
    if b.is_empty() {
        st.reset();
        return;
    }
    // Fast path for the commonest escape in colourful output: one truecolour `38;2;r;g;b`.
    if b.len() >= 9 && (b[0] == b'3' || b[0] == b'4') && b[1] == b'8' && b[2] == b';' && b[3] == b'2' && b[4] == b';' {
        if let Some(rgb) = three_numbers(&b[5..]) {
            let c = Color::Rgb(rgb[0], rgb[1], rgb[2]);
            if b[0] == b'3' {
                st.set_fg(c);
            } else {
                st.set_bg(c);
            }
            return;
        }
    }
    // ext: 0 = plain parameters; 38/48 = reading an extended colour for fg/bg.
    // ext_mode: 0 = expecting the 5/2 selector, 5 = expecting an index, 2 = expecting r, g, b.
    let (mut ext, mut ext_mode, mut rgb, mut rgb_n) = (0u16, 0u8, [0u8; 3], 0usize);
    let mut cur: u16 = 0;
    let mut i = 0;
    while i <= b.len() {
        let c = if i < b.len() { b[i] } else { b';' };
        i += 1;
        if c.is_ascii_digit() {
            cur = cur.saturating_mul(10).saturating_add((c - b'0') as u16);
            continue;
        }
        if c != b';' && c != b':' {
            continue;
        }
        let p = cur;
        cur = 0;
        if ext != 0 {
            let set = |st: &mut S, color: Color| {
                if ext == 38 {
                    st.set_fg(color)
                } else {
                    st.set_bg(color)
                }
            };
            match ext_mode {
                0 if p == 5 => ext_mode = 5,
                0 if p == 2 => {
                    ext_mode = 2;
                    rgb_n = 0;
                }
                0 => ext = 0,
                5 => {
                    set(st, Color::Idx(p as u8));
                    ext = 0;
                }
                _ => {
                    rgb[rgb_n] = p as u8;
                    rgb_n += 1;
                    if rgb_n == 3 {
                        set(st, Color::Rgb(rgb[0], rgb[1], rgb[2]));
                        ext = 0;
                    }
                }
            }
            continue;
        }
        match p {
            0 => st.reset(),
            1 => st.set_bold(true),
            2 => st.set_faint(true),
            3 => st.set_italic(true),
            4 | 21 => st.set_underline(true),
            7 => st.set_reverse(true),
            22 => {
                st.set_bold(false);
                st.set_faint(false);
            }
            23 => st.set_italic(false),
            24 => st.set_underline(false),
            27 => st.set_reverse(false),
            30..=37 => st.set_fg(Color::Idx((p - 30) as u8)),
            39 => st.set_fg(Color::Default),
            40..=47 => st.set_bg(Color::Idx((p - 40) as u8)),
            49 => st.set_bg(Color::Default),
            90..=97 => st.set_fg(Color::Idx((p - 90 + 8) as u8)),
            100..=107 => st.set_bg(Color::Idx((p - 100 + 8) as u8)),
            38 | 48 => {
                ext = p;
                ext_mode = 0;
            }
            _ => {}
        }
    }
}

/// Exactly three `;`-separated numbers of at most three digits (`r;g;b`), nothing after.
fn three_numbers(b: &[u8]) -> Option<[u8; 3]> {
    let mut out = [0u16; 3];
    let mut k = 0;
    let mut digits = 0;
    for &c in b {
        if c.is_ascii_digit() {
            out[k] = out[k] * 10 + (c - b'0') as u16;
            digits += 1;
            if digits > 3 {
                return None;
            }
        } else if c == b';' && digits > 0 && k < 2 {
            k += 1;
            digits = 0;
        } else {
            return None;
        }
    }
    (k == 2 && digits > 0).then(|| [out[0] as u8, out[1] as u8, out[2] as u8])
}

/// Parses one row, starting from `st` (which it leaves at the row's end state).
pub fn parse_row(row: &str, st: &mut Style) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(row.len().min(256));
    scan(row, |ch, style| cells.push(Cell { ch, style }), st);
    cells
}

/// The one walk over a row: every character that is text, with the style in force, to `f`;
/// every SGR applied to `st`; everything else skipped.
#[inline]
fn scan(row: &str, mut f: impl FnMut(char, Style), st: &mut Style) {
    let bytes = row.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // Fast path: printable ASCII.
        if (0x20..0x7f).contains(&b) {
            f(b as char, *st);
            i += 1;
            continue;
        }
        if b == 0x1b {
            let (end, sgr) = escape_end(bytes, i);
            if let Some((a, z)) = sgr {
                apply_sgr(st, &row[a..z]);
            }
            i = end;
            continue;
        }
        // A UTF-8 character (or a control byte): decode from the str at this byte offset.
        let ch = row[i..].chars().next().unwrap_or('\u{fffd}');
        i += ch.len_utf8();
        if ch.is_control() && ch != '\t' {
            continue;
        }
        f(ch, *st);
    }
}

/// Applies the row's SGR escapes to `st` without building cells: the state the next row
/// starts in. Costs one pass over the escapes only.
pub fn advance_state(row: &str, st: &mut Style) {
    let bytes = row.as_bytes();
    let mut i = 0;
    while let Some(at) = next_esc(row, i) {
        i = at;
        let (end, sgr) = escape_end(bytes, i);
        if let Some((a, z)) = sgr {
            apply_sgr(st, &row[a..z]);
        }
        i = end;
        if i >= bytes.len() {
            break;
        }
    }
}

/// Parses all rows in order, threading the SGR state from row to row as tmux writes it.
pub fn parse_rows(rows: &[String]) -> Vec<Vec<Cell>> {
    let mut st = Style::default();
    rows.iter().map(|r| parse_row(r, &mut st)).collect()
}

/// The row's text without any escape sequence or control character (tab kept): what a reader
/// matches phrases against. The one stripper of the tree; the host's plain rows are made with it.
pub fn strip(row: &str) -> String {
    strip_cow(row).into_owned()
}

/// [`strip`], borrowing the row when it holds nothing to strip.
pub fn strip_cow(row: &str) -> std::borrow::Cow<'_, str> {
    if !row.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(row);
    }
    let mut out = String::with_capacity(row.len());
    let mut st = Style::default();
    scan(row, |ch, _| out.push(ch), &mut st);
    std::borrow::Cow::Owned(out)
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
    fn state_before_a_row_matches_the_forward_scan() {
        let rows: Vec<String> = [
            "\x1b[1;38;5;174mbold pink\x1b[22m",
            "\x1b[2mfaint \x1b[7mrev",
            "plain? \x1b[27m\x1b[48;2;1;2;3mbg",
            "\x1b[0mreset \x1b[3;4mit",
            "x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut st = Style::default();
        for k in 0..rows.len() {
            assert_eq!(state_before(&rows, k), st, "row {k}");
            advance_state(&rows[k], &mut st);
        }
    }

    #[test]
    fn strip_handles_osc_charset_and_string_escapes() {
        assert_eq!(strip("\u{1b}]0;title\u{7}x\u{1b}(By\u{1b}]8;;u\u{1b}\\z"), "xyz");
        assert_eq!(strip("\u{1b}[38;2;1;2;3mA\u{1b}[m\tB"), "A\tB");
        assert_eq!(strip("\x1b[0m\x1b[2mAsk\x1b[0m x"), "Ask x");
        assert_eq!(strip("a\x1b]0;title\x1b\\b"), "ab");
        assert_eq!(strip("❯\u{a0}\x1b[7m \x1b[0m"), "❯\u{a0} ");
        assert_eq!(strip("a\x1bPq#0\x1b\\b\x07c\x7f"), "abc");
        // An ESC before a non-ASCII character never cuts it.
        assert_eq!(strip("\x1b❯ x"), "❯ x");
        assert_eq!(strip("plain ❯ row"), "plain ❯ row");
    }

    #[test]
    fn strip_and_parse_row_keep_the_same_characters() {
        let rows = ["\x1b[1m›\x1b[0m \x1b[2mAsk\x1b(B\tx\x1b]8;;u\x07y\x1b", "\x1b", "\x1bé"];
        for r in rows {
            let mut st = Style::default();
            let cells: String = parse_row(r, &mut st).iter().map(|c| c.ch).collect();
            assert_eq!(cells, strip(r), "{r:?}");
        }
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
