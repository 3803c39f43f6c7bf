//! The stdio transport's framing: one JSON-RPC message a line (MCP's stdio transport; a
//! message holds no raw newline).
//!
//! Invariant: no line is held in memory past [`MAX_MESSAGE`]: a longer one is read to its end
//! and dropped as it streams, so an endless or huge line costs a bounded buffer and is
//! answered as too large, never a crash or an allocation the size of the input.

use std::io::{self, BufRead};

/// The largest message the server reads: 8 MiB. A send's body is at most 1 MiB
/// ([`crate::send::MAX_BODY`]) and JSON escapes a control byte in six (`\u0001`), so every body
/// a send could carry fits, and a 10 MiB message does not.
pub const MAX_MESSAGE: usize = 8 << 20;

/// What one read of the input gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// One line, without its newline (possibly empty or blank).
    Message(Vec<u8>),
    /// A line longer than the cap: its length in bytes (read and dropped).
    TooLarge(usize),
    /// The input ended.
    End,
}

/// Reads the next line of `r`, holding at most `cap` bytes of it.
pub fn read(r: &mut impl BufRead, cap: usize) -> io::Result<Frame> {
    let mut line = Vec::new();
    let mut dropped: Option<usize> = None;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(match dropped {
                Some(n) => Frame::TooLarge(n),
                None if line.is_empty() => Frame::End,
                // a last line with no newline is still a message
                None => Frame::Message(line),
            });
        }
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        match &mut dropped {
            Some(n) => *n += chunk.len(),
            None if line.len() + chunk.len() > cap => {
                dropped = Some(line.len() + chunk.len());
                line = Vec::new();
            }
            None => line.extend_from_slice(chunk),
        }
        let used = ends.unwrap_or(chunk.len());
        r.consume(used);
        if ends.is_some() {
            return Ok(match dropped {
                Some(n) => Frame::TooLarge(n),
                None => Frame::Message(strip_cr(line)),
            });
        }
    }
}

/// A line ended `\r\n` is the same message.
fn strip_cr(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: usize) -> Vec<Frame> {
        // a tiny buffer: lines cross many fills
        let mut r = io::BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        loop {
            let f = read(&mut r, cap).unwrap();
            let end = f == Frame::End;
            out.push(f);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn lines_are_messages_and_a_long_one_is_dropped_whole() {
        let got = all(b"{\"a\":1}\r\n\n0123456789abc\nlast", 10);
        assert_eq!(
            got,
            vec![
                Frame::Message(b"{\"a\":1}".to_vec()),
                Frame::Message(Vec::new()),
                Frame::TooLarge(13),
                Frame::Message(b"last".to_vec()),
                Frame::End
            ]
        );
        assert_eq!(all(b"0123456789abcdef", 10), vec![Frame::TooLarge(16), Frame::End]);
        assert_eq!(all(b"0123456789\n", 10), vec![Frame::Message(b"0123456789".to_vec()), Frame::End]);
    }
}
