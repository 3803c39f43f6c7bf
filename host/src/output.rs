//! The one writer for a run's stdout and stderr, and the escaping of text that comes from
//! outside (message bodies, team-file words, strings a profile returns).
//!
//! Invariants:
//! - a closed stdout (`team feed | head -1`) ends the writing quietly: the first write that
//!   finds the reader gone marks the run closed, nothing more is written, nothing panics, and
//!   a follow loop asks [`Output::reader_gone`] between passes;
//! - no raw control character reaches a terminal from a plain run: every plain write passes
//!   through [`escape_controls`] (newlines kept), and a single-line field is escaped with
//!   [`one_line`] (newlines too) by the renderer that places it. `--json` documents are
//!   serde_json's, which escapes control characters itself.

use std::borrow::Cow;
use std::io::{self, Write};

/// The longest text a profile's reading may carry into the host (characters); longer text
/// is cut there and marked.
pub const GUEST_TEXT_MAX: usize = 1024;

/// A run's stdout and stderr.
#[derive(Debug, Default)]
pub struct Output {
    closed: bool,
}

impl Output {
    pub fn new() -> Output {
        Output::default()
    }

    /// Writes plain text to stdout (control characters but `\n` escaped).
    pub fn out(&mut self, text: &str) {
        self.raw_out(escape_controls(text, true).as_bytes());
    }

    /// Redraws a terminal: clears it, then writes `text` as [`Output::out`] does (a watch on
    /// a terminal; the clear sequence is the only raw control this writer sends).
    pub fn redraw(&mut self, text: &str) {
        let mut bytes = b"\x1b[H\x1b[2J".to_vec();
        bytes.extend_from_slice(escape_controls(text, true).as_bytes());
        self.raw_out(&bytes);
    }

    /// Writes text this build generated itself (a shell completion script) exactly as it is:
    /// never text from outside, which goes through [`Output::out`].
    pub fn verbatim(&mut self, bytes: &[u8]) {
        self.raw_out(bytes);
    }

    /// Whether stdout is a terminal.
    pub fn is_terminal(&self) -> bool {
        use std::io::IsTerminal;
        io::stdout().is_terminal()
    }

    /// Writes one `--json` document to stdout, pretty-printed with a final newline.
    pub fn doc<T: serde::Serialize + ?Sized>(&mut self, doc: &T) {
        self.raw_out(crate::outcome::render_json(doc).as_bytes());
    }

    /// Writes one JSON object on one line (JSON Lines: a stream that runs until stopped).
    pub fn json_line<T: serde::Serialize + ?Sized>(&mut self, doc: &T) {
        let mut s = serde_json::to_string(doc).expect("a document always serialises");
        s.push('\n');
        self.raw_out(s.as_bytes());
    }

    fn raw_out(&mut self, bytes: &[u8]) {
        if self.closed {
            return;
        }
        let mut o = io::stdout().lock();
        if let Err(e) = o.write_all(bytes).and_then(|()| o.flush()) {
            // The reader went away (EPIPE), or stdout is gone: stop writing, quietly.
            let _ = e;
            self.closed = true;
        }
    }

    /// Writes plain text to stderr (escaped as `out`); a stderr that cannot be written is
    /// no reason to stop the run.
    pub fn err(&mut self, text: &str) {
        let mut e = io::stderr().lock();
        let _ = e.write_all(escape_controls(text, true).as_bytes()).and_then(|()| e.flush());
    }

    /// Whether a write found stdout closed.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Whether stdout's reader has gone away, asked without writing (a pipe whose read end is
    /// closed polls as an error); marks the run closed when it has.
    pub fn reader_gone(&mut self) -> bool {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        if self.closed {
            return true;
        }
        let stdout = io::stdout();
        let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
        if let Ok(n) = poll(&mut fds, PollTimeout::ZERO) {
            let gone = PollFlags::POLLERR | PollFlags::POLLHUP | PollFlags::POLLNVAL;
            if n > 0 && fds[0].revents().is_some_and(|r| r.intersects(gone)) {
                self.closed = true;
            }
        }
        self.closed
    }
}

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
