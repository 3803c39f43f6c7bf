//! The demo seat's state and its loop: the composer, Enter, the turn, and the terminal (raw
//! mode, size, input, painting). See the module docs of `demo` for what it is not.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// The CLI whose screens a demo seat draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vendor {
    Claude,
    Codex,
}

impl Vendor {
    /// The vendor a profile id names (`claude-code`, `codex`), if the demo draws it.
    pub fn from_id(id: &str) -> Option<Vendor> {
        match id {
            "claude-code" => Some(Vendor::Claude),
            "codex" => Some(Vendor::Codex),
            _ => None,
        }
    }
}

/// How long a turn works.
const TURN: Duration = Duration::from_secs(1);

/// One imitated CLI: what it shows and what it was sent.
pub struct Seat {
    pub(super) vendor: Vendor,
    pub(super) composer: String,
    /// The turns above the composer, each a block of styled rows.
    pub(super) history: Vec<Vec<String>>,
    /// The line being worked on, when the turn started.
    turn: Option<(String, Instant)>,
    pub(super) spin: usize,
    cols: usize,
}

impl Seat {
    pub fn new(vendor: Vendor) -> Seat {
        Seat { vendor, composer: String::new(), history: Vec::new(), turn: None, spin: 0, cols: 120 }
    }

    /// Seconds into the current turn, while working.
    pub(super) fn working(&self) -> Option<u64> {
        self.turn.as_ref().map(|(_, t)| t.elapsed().as_secs())
    }

    /// Keys from the terminal: printable text goes into the composer (a bracketed paste's too),
    /// Backspace takes one back, Enter takes the line; every other key does nothing.
    pub fn keys(&mut self, text: &str) {
        let mut it = text.chars().peekable();
        while let Some(c) = it.next() {
            match c {
                // an escape sequence (arrows, the paste brackets, …): skipped whole; Esc alone
                // does nothing
                '\x1b' if it.next_if_eq(&'[').is_some() => {
                    while it.next().is_some_and(|c| !('@'..='~').contains(&c)) {}
                }
                '\x1b' => {}
                '\r' | '\n' => self.enter(),
                '\x7f' | '\x08' => {
                    self.composer.pop();
                }
                c if !c.is_control() => self.composer.push(c),
                _ => {}
            }
        }
    }

    fn enter(&mut self) {
        let line = self.composer.trim().to_string();
        if line.is_empty() || self.turn.is_some() {
            return;
        }
        self.composer.clear();
        self.history.push(super::screen::echo(self.vendor, &line, self.cols));
        self.turn = Some((line, Instant::now()));
    }

    /// Time passes: the spinner turns, and a turn ends when due, leaving its rows.
    pub fn tick(&mut self) {
        if self.turn.as_ref().is_some_and(|(_, t)| t.elapsed() >= TURN) {
            let (line, _) = self.turn.take().expect("checked");
            let file = dropped_file(&line);
            self.history.extend(super::screen::finished(self.vendor, file.as_deref()));
        } else if self.turn.is_some() {
            self.spin = self.spin.wrapping_add(1);
        }
    }
}

/// The file name of the drop a trigger line names: its first word holding a `/`, quotes and
/// trailing punctuation removed.
fn dropped_file(line: &str) -> Option<String> {
    let q = |c: char| matches!(c, '"' | '\'' | '`' | '(' | ')' | ',' | ';' | ':' | '<' | '>');
    let word = line
        .split_whitespace()
        .map(|t| t.trim_start_matches(q).trim_end_matches(|c: char| q(c) || c == '.'))
        .find(|t| t.contains('/') && !t.ends_with('/'))?;
    Path::new(word).file_name().map(|n| n.to_string_lossy().into_owned())
}

/// Opens the demo's byte log: it must exist already as a regular file (`team demo` made it);
/// it is never created and never opened through a link (nor as a FIFO, which could hang).
fn open_log(p: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .append(true)
        .custom_flags((nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits())
        .open(p)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other(format!("{} is not a regular file", p.display())));
    }
    Ok(f)
}

/// `team demo-seat <cli> <log>`: the seat the cli names (a usage error for one the demo does
/// not draw), run until its terminal goes away.
pub fn run_named(cli: &str, log: &Path) -> crate::error::Result<()> {
    let Some(vendor) = Vendor::from_id(cli) else {
        let e = format!("the demo draws claude-code and codex seats, not \"{cli}\"");
        return Err(crate::error::TeamError::usage(e));
    };
    run(vendor, log).map_err(crate::error::TeamError::failed)
}

/// Runs a demo seat of `vendor` in this terminal until it closes, appending every byte it
/// receives to `log` first.
pub fn run(vendor: Vendor, log: &Path) -> Result<(), String> {
    use nix::sys::termios;
    let mut log = open_log(log).map_err(|e| format!("the demo seat's log {}: {e}", log.display()))?;
    let stdin = std::io::stdin();
    let mut input =
        File::from(stdin.as_fd().try_clone_to_owned().map_err(|e| format!("cannot read the terminal: {e}"))?);
    let saved = termios::tcgetattr(&stdin).ok();
    if let Some(s) = &saved {
        let mut raw = s.clone();
        termios::cfmakeraw(&mut raw);
        termios::tcsetattr(&stdin, termios::SetArg::TCSANOW, &raw).map_err(|e| format!("cannot set raw mode: {e}"))?;
    }
    let mut seat = Seat::new(vendor);
    let mut shown = String::new();
    let mut buf = [0u8; 4096];
    let mut pending = Vec::new();
    loop {
        let (cols, rows) = size();
        seat.cols = cols;
        paint(&seat, cols, rows, &mut shown);
        let wait = if seat.turn.is_some() { 100 } else { 250 };
        if ready(&input, wait) {
            let n = match input.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let _ = log.write_all(&buf[..n]);
            // a character split across two reads waits for its end
            pending.extend_from_slice(&buf[..n]);
            let valid = match std::str::from_utf8(&pending) {
                Ok(s) => s.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => pending.len(),
            };
            let chunk: Vec<u8> = pending.drain(..valid).collect();
            seat.keys(&String::from_utf8_lossy(&chunk));
        }
        seat.tick();
    }
    if let Some(s) = &saved {
        let _ = termios::tcsetattr(&stdin, termios::SetArg::TCSANOW, s);
    }
    Ok(())
}

/// (columns, rows) of the terminal standard output is, or 120×40 when it is none.
fn size() -> (usize, usize) {
    match rustix::termios::tcgetwinsize(std::io::stdout()) {
        Ok(ws) if ws.ws_col > 0 => (ws.ws_col as usize, ws.ws_row as usize),
        _ => (120, 40),
    }
}

/// Whether input is waiting, after up to `ms` milliseconds.
fn ready(input: &File, ms: u16) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    let mut fds = [PollFd::new(input.as_fd(), PollFlags::POLLIN)];
    poll(&mut fds, PollTimeout::from(ms)).is_ok_and(|n| n > 0)
}

/// Paints the seat's screen in one write, unless it is what the terminal shows already.
fn paint(seat: &Seat, cols: usize, rows: usize, shown: &mut String) {
    let screen = seat.screen(cols, rows);
    let mut out = format!("\x1b]0;{}\x07\x1b[?25l\x1b[0m\x1b[H\x1b[2J", screen.title);
    for (i, r) in screen.rows.iter().take(rows).enumerate() {
        out.push_str(&format!("\x1b[{};1H\x1b[0m{}", i + 1, super::screen::truncate(r, cols)));
    }
    if let Some((r, c)) = screen.cursor {
        out.push_str(&format!("\x1b[{};{}H\x1b[?25h", r + 1, c + 1));
    }
    let frame = format!("{cols}x{rows}{out}");
    if *shown == frame {
        return;
    }
    let mut o = std::io::stdout();
    if o.write_all(out.as_bytes()).and_then(|_| o.flush()).is_ok() {
        *shown = frame;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_takes_the_line_and_the_turn_shows_the_drop_read() {
        let mut s = Seat::new(Vendor::Codex);
        s.keys("Please read the team message at .agents/send-drops/demo/reviewer/0001.");
        assert!(s.composer.starts_with("Please read"));
        s.keys("\r");
        assert!(s.composer.is_empty() && s.working().is_some());
        assert_eq!(s.history.len(), 1, "the echo");
        s.turn = Some((s.turn.take().unwrap().0, Instant::now() - TURN));
        s.tick();
        assert!(s.working().is_none());
        let rows: Vec<String> = s.history.concat().iter().map(|r| crate::mux::strip_ansi(r)).collect();
        assert!(rows.iter().any(|r| r == "  └ Read 0001"), "{rows:?}");
    }

    #[test]
    fn keys_that_are_no_text_change_nothing() {
        let mut s = Seat::new(Vendor::Claude);
        s.keys("ab\x1b[A\x1b[200~c\x1b[201~\x03\x7f");
        assert_eq!(s.composer, "ab", "c typed, then one Backspace");
        let mut s = Seat::new(Vendor::Claude);
        s.keys("  \r");
        assert!(s.working().is_none() && s.history.is_empty(), "a blank line is no turn");
        assert_eq!(dropped_file("read \"/tmp/x/id9\"."), Some("id9".into()));
        assert_eq!(dropped_file("hello"), None);
    }

    #[test]
    fn the_log_is_never_made_nor_followed() {
        let d = tempfile::tempdir().unwrap();
        assert!(open_log(&d.path().join("missing")).is_err());
        std::fs::write(d.path().join("target"), "keep").unwrap();
        std::os::unix::fs::symlink(d.path().join("target"), d.path().join("l")).unwrap();
        assert!(open_log(&d.path().join("l")).is_err());
        std::fs::write(d.path().join("log"), "").unwrap();
        open_log(&d.path().join("log")).unwrap().write_all(b"x").unwrap();
        assert_eq!(std::fs::read_to_string(d.path().join("log")).unwrap(), "x");
    }
}
