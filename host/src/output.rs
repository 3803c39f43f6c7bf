//! The one writer for a run's stdout and stderr, and the escaping of text that comes from
//! outside (message bodies, team-file words, strings a profile returns).
//!
//! Invariants:
//! - a closed stdout (`team feed | head -1`) ends the writing quietly: the first write that
//!   finds the reader gone marks the run closed, nothing more is written, nothing panics, and
//!   a follow loop asks [`Output::reader_gone`] between passes;
//! - no raw control character reaches a terminal from a plain run: every plain write passes
//!   through [`escape_controls`](crate::vocab::text::escape_controls) (newlines kept), and a single-line field is escaped with
//!   [`one_line`](crate::vocab::text::one_line) (newlines too) by the renderer that places it. `--json` documents are
//!   serde_json's, which escapes control characters itself.

use std::io::{self, Write};

use crate::vocab::text::escape_controls;

/// The styling sequences the product writes itself (SGR 2, faint; SGR 22, normal intensity),
/// and the only raw controls [`Output::out_styled`] lets through.
pub const STYLES: &[&str] = &["\x1b[2m", "\x1b[22m"];

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

    /// Writes text the product styled itself: every part from outside already escaped by the
    /// caller (`vocab::text::one_line`), and the product's own SGR sequences ([`STYLES`]: faint
    /// on and off) written raw; any other control character is escaped as [`Output::out`] does.
    pub fn out_styled(&mut self, text: &str) {
        let mut kept = String::with_capacity(text.len());
        let mut rest = text;
        while let Some((at, style)) = STYLES.iter().filter_map(|s| rest.find(s).map(|i| (i, *s))).min() {
            kept.push_str(&escape_controls(&rest[..at], true));
            kept.push_str(style);
            rest = &rest[at + style.len()..];
        }
        kept.push_str(&escape_controls(rest, true));
        self.raw_out(kept.as_bytes());
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
        self.raw_out(crate::vocab::doc::render_json(doc).as_bytes());
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

    /// Why stdout is no place a program reads an answer from, when it is not (a pipe, a
    /// socket or a file is one): a terminal, `/dev/null` — where the runtime reopens a stdout
    /// that was closed before the program started —, `/dev/full`, another character device.
    pub fn answer_place(&self) -> Option<String> {
        use nix::sys::stat::{fstat, major, minor, SFlag};
        use std::os::fd::AsFd;
        let stdout = io::stdout();
        let st = match fstat(stdout.as_fd()) {
            Ok(st) => st,
            Err(e) => return Some(format!("its stdout cannot be read ({e})")),
        };
        if SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT != SFlag::S_IFCHR {
            return None;
        }
        let dev = st.st_rdev;
        Some(match (major(dev), minor(dev)) {
            (1, 3) => "its stdout is /dev/null (or was closed: it is reopened there)".to_string(),
            (1, 7) => "its stdout is /dev/full".to_string(),
            _ if nix::unistd::isatty(stdout.as_fd()).unwrap_or(false) => "its stdout is a terminal".to_string(),
            (ma, mi) => format!("its stdout is a character device ({ma}:{mi})"),
        })
    }

    /// Writes `bytes` to stdout whole and unbuffered (nothing is left in a buffer to go out
    /// later), and says how it went: a failed or short write is an `Err`. A stdout that would
    /// block is waited on, as a blocking one is.
    pub fn answer(&mut self, bytes: &[u8]) -> io::Result<()> {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        let mut f = std::fs::File::from(io::stdout().as_fd().try_clone_to_owned()?);
        let mut rest = bytes;
        while !rest.is_empty() {
            match f.write(rest) {
                Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "stdout took no more bytes")),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let mut fds = [PollFd::new(f.as_fd(), PollFlags::POLLOUT)];
                    poll(&mut fds, PollTimeout::NONE).map_err(io::Error::from)?;
                }
                Err(e) => {
                    self.closed = true;
                    return Err(e);
                }
            }
        }
        f.flush()
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
