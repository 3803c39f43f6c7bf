//! The fake seat's terminal: raw mode on standard input (restored on drop), the window size,
//! waiting for keys, and painting a screen.
//!
//! Invariant: a frame goes to the terminal in one write, whole (home, clear, every row), and
//! only then is it recorded in the `--drawn` file (whole, through a temp file, never through a
//! link), so that file never names a frame the terminal has not been sent.

use super::screens::{self, Screen};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::time::Duration;

/// The terminal in raw mode, and what was last painted on it.
pub struct Term {
    saved: Option<nix::sys::termios::Termios>,
    /// Standard input, unbuffered (std's `Stdin` buffers, and a poll on the descriptor cannot
    /// see bytes already in that buffer).
    input: File,
    last: Option<(Screen, (usize, usize))>,
    drawn: Option<PathBuf>,
}

impl Term {
    /// Puts standard input in raw mode; `drawn` receives each frame's plain rows.
    pub fn enter(drawn: Option<PathBuf>) -> Result<Term, String> {
        use nix::sys::termios;
        let stdin = std::io::stdin();
        let input =
            File::from(stdin.as_fd().try_clone_to_owned().map_err(|e| format!("cannot read the terminal: {e}"))?);
        let saved = termios::tcgetattr(&stdin).ok();
        if let Some(s) = &saved {
            let mut raw = s.clone();
            termios::cfmakeraw(&mut raw);
            termios::tcsetattr(&stdin, termios::SetArg::TCSANOW, &raw)
                .map_err(|e| format!("cannot set raw mode: {e}"))?;
        }
        Ok(Term { saved, input, last: None, drawn })
    }

    /// (columns, rows) of the terminal standard output is, or 120×40 when it is none.
    pub fn size(&self) -> (usize, usize) {
        match rustix::termios::tcgetwinsize(std::io::stdout()) {
            Ok(ws) if ws.ws_col > 0 => (ws.ws_col as usize, ws.ws_row as usize),
            _ => (120, 40),
        }
    }

    /// Waits up to `timeout` (`None`: forever) for input; `Ok(false)` when none came (a signal
    /// that interrupts the wait counts as none).
    pub fn wait_input(&self, timeout: Option<Duration>) -> Result<bool, String> {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        let ms = timeout.map_or(PollTimeout::NONE, |d| {
            PollTimeout::try_from(d.as_millis().min(i32::MAX as u128) as i32).unwrap_or(PollTimeout::MAX)
        });
        let mut fds = [PollFd::new(self.input.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, ms) {
            Ok(n) => Ok(n > 0),
            Err(nix::errno::Errno::EINTR) => Ok(false),
            Err(e) => Err(format!("poll failed: {e}")),
        }
    }

    /// Reads what is waiting; 0 when the terminal went away.
    pub fn read(&mut self, buf: &mut [u8]) -> Result<usize, String> {
        loop {
            match self.input.read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // A hung-up terminal reads as an error on some systems: the seat ends either way.
                Err(_) => return Ok(0),
            }
        }
    }

    /// Paints `screen`, made for `size`, unless it is what the terminal already shows.
    pub fn paint(&mut self, screen: &Screen, size: (usize, usize), force: bool) {
        let (cols, rows) = size;
        if !force && self.last.as_ref().is_some_and(|(s, sz)| s == screen && *sz == size) {
            return;
        }
        let mut out = String::new();
        let title_changed = force || self.last.as_ref().map(|(s, _)| &s.title) != Some(&screen.title);
        let rows_changed = force
            || self.last.as_ref().map(|(s, sz)| (&s.rows, &s.cursor, *sz))
                != Some((&screen.rows, &screen.cursor, size));
        if title_changed && !(screen.title.is_empty() && self.last.is_none()) {
            out.push_str(&format!("\x1b]0;{}\x07", screen.title));
        }
        let mut plain = Vec::new();
        if rows_changed {
            out.push_str("\x1b[?25l\x1b[0m\x1b[H\x1b[2J");
            for (i, r) in screen.rows.iter().take(rows).enumerate() {
                let cut = screens::truncate(r, cols);
                out.push_str(&format!("\x1b[{};1H\x1b[0m", i + 1));
                out.push_str(&cut);
                plain.push(crate::ansi::strip(&cut).trim_end().to_string());
            }
            if let Some((r, c)) = screen.cursor {
                out.push_str(&format!("\x1b[{};{}H\x1b[?25h", r + 1, c.min(cols.saturating_sub(1)) + 1));
            }
        }
        let mut o = std::io::stdout();
        let sent = o.write_all(out.as_bytes()).and_then(|_| o.flush()).is_ok();
        if rows_changed && sent {
            self.record(&plain, size);
        }
        self.last = Some((screen.clone(), size));
    }

    /// Writes the frame's plain rows (trailing blank rows dropped) to the `--drawn` file, with
    /// a first line naming the size it was drawn for.
    fn record(&self, plain: &[String], (cols, rows): (usize, usize)) {
        let Some(path) = &self.drawn else { return };
        let used = plain.iter().rposition(|r| !r.is_empty()).map_or(0, |i| i + 1);
        let mut text = format!("{cols}x{rows}\n");
        for r in &plain[..used] {
            text.push_str(r);
            text.push('\n');
        }
        // (a planted temp link is replaced, never written through: `world::write_whole`)
        let _ = crate::world::write_whole(path, text.as_bytes(), 0o644);
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if let Some(s) = &self.saved {
            let _ = nix::sys::termios::tcsetattr(std::io::stdin(), nix::sys::termios::SetArg::TCSANOW, s);
        }
        let mut out = std::io::stdout();
        let _ = out.write_all(b"\x1b[0m\x1b[?25h");
        let _ = out.flush();
    }
}
