//! Text from outside made safe to show: control and bidirectional characters escaped
//! ([`one_line`] for a single-line field, [`escape_controls`] keeping newlines), and long
//! text bounded ([`bound`], [`guest`] for a profile's strings).
//!
//! Invariant: nothing these return can move a terminal's cursor, recolour it or reorder a
//! line; every layer that places outside text in a sentence escapes it here.

use std::borrow::Cow;

/// The longest text a profile's reading may carry into the host (characters); longer text
/// is cut there and marked.
pub const GUEST_TEXT_MAX: usize = 1024;

/// Whether `c` must not reach a terminal raw: C0 and C1 controls, DEL, and the bidirectional
/// controls that reorder what a line shows (`\n` and `\t` are decided by the caller).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every unsafe character written as an escape (`\e`-free, visible): `\n`, `\t`,
/// `\r` by name, other ASCII controls as `\x1b`, the rest as `\u{9b}`. `keep_newlines`
/// leaves `\n` as it is (multi-line output).
pub fn escape_controls(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) && !(keep_newlines && c == '\n')) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 && is_unsafe(c) => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text from outside placed on one line (a table cell, an outcome line's reason): every
/// unsafe character escaped, newlines included.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escape_controls(s, false)
}

/// `s` cut to at most `max` characters, marked with how much was cut.
pub fn bound(s: &str, max: usize) -> Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return Cow::Borrowed(s);
    }
    let kept: String = s.chars().take(max).collect();
    Cow::Owned(format!("{kept}… ({} more characters)", n - max))
}

/// A guest string as the host keeps it: bounded ([`GUEST_TEXT_MAX`]).
pub fn guest(s: String) -> String {
    match bound(&s, GUEST_TEXT_MAX) {
        Cow::Borrowed(_) => s,
        Cow::Owned(b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_escaped() {
        assert_eq!(one_line("plain — text"), "plain — text");
        assert!(matches!(one_line("plain"), Cow::Borrowed(_)));
        assert_eq!(one_line("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(one_line("x\ny\tz\r"), "x\\ny\\tz\\r");
        assert_eq!(one_line("\u{9b}31m \u{7f}"), "\\u{9b}31m \\x7f");
        assert_eq!(one_line("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(escape_controls("two\nlines\u{7}\n", true), "two\nlines\\x07\n");
    }

    #[test]
    fn long_text_is_bounded() {
        assert_eq!(bound("abc", 3), "abc");
        assert_eq!(bound("abcdef", 3), "abc… (3 more characters)");
        let long = "é".repeat(GUEST_TEXT_MAX + 10);
        assert_eq!(guest(long).chars().count(), GUEST_TEXT_MAX + "… (10 more characters)".chars().count());
    }
}
