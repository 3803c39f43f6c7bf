//! A message's body as an invocation gives it: words, a file, or standard input — bounded by
//! [`MAX_BODY`] and read before anything is written or typed.
//!
//! Invariant: no body is read past `MAX_BODY` (an endless source ends the read), and a `--file`
//! that is no regular file (a FIFO, a device, a folder) is refused before it is read.

use std::io::Read;
use std::path::Path;

use super::MAX_BODY;
use crate::error::{self, TeamError};
use crate::vocab::text::one_line;

/// A body of words, bounded.
pub fn of_words(body: String) -> error::Result<String> {
    bounded("", body)
}

/// A body larger than a send carries, refused before anything is written.
fn too_large(what: &str, n: u64) -> TeamError {
    TeamError::refused(format!(
        "{what}the message is {n} bytes, larger than a message may be ({} MiB, the largest frame a seat's socket takes); nothing was sent",
        MAX_BODY >> 20
    ))
}

/// Checks a body's size (words joined, or read).
fn bounded(what: &str, body: String) -> error::Result<String> {
    if body.len() > MAX_BODY {
        return Err(too_large(what, body.len() as u64));
    }
    Ok(body)
}

/// Reads at most one byte more than a body may hold, so an endless source ends the read.
fn read_bounded(r: impl Read, what: &str, shown: &str) -> error::Result<String> {
    let mut buf = Vec::new();
    r.take(MAX_BODY as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| TeamError::bad_file(format!("--file {shown}: it cannot be read: {e}")))?;
    if buf.len() > MAX_BODY {
        return Err(too_large(what, buf.len() as u64));
    }
    String::from_utf8(buf).map_err(|_| TeamError::bad_file(format!("--file {shown}: it is not UTF-8 text")))
}

/// The body `--file` names: a regular file, or standard input for `-`. Anything else — a FIFO
/// (which would wait for a writer forever), a device such as `/dev/zero`, a folder — is
/// refused before it is read, and no body is read past [`MAX_BODY`].
pub fn of_file(p: &Path) -> error::Result<String> {
    if p == Path::new("-") {
        return read_bounded(std::io::stdin().lock(), "--file -: ", "-");
    }
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let shown = one_line(&p.display().to_string()).into_owned();
    // O_NONBLOCK: opening a FIFO must not wait for its writer.
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(p)
        .map_err(|e| TeamError::bad_file(format!("--file {shown}: {e}")))?;
    let m = f.metadata().map_err(|e| TeamError::bad_file(format!("--file {shown}: {e}")))?;
    let t = m.file_type();
    if !t.is_file() {
        let what = if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_dir() {
            "a folder"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return Err(TeamError::usage(format!(
            "--file {shown}: it is {what}, not a regular file; name a file, or - for standard input"
        )));
    }
    if m.len() > MAX_BODY as u64 {
        return Err(too_large(&format!("--file {shown}: "), m.len()));
    }
    read_bounded(f, &format!("--file {shown}: "), &shown)
}
