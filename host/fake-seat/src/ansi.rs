//! The plain text of a styled row: what a terminal shows of it, escape sequences removed.
//! (The double's own: the rows it writes to `--drawn` must not depend on the reader the
//! product judges screens with.)

/// `s` without its escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC \`)
/// and two-byte escapes.
pub fn strip(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('[') => {
                for c in it.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = it.next() {
                    if c == '\x07' || (c == '\x1b' && it.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_take_no_room() {
        assert_eq!(super::strip("\x1b[1;2m›\x1b[0m x\x1b]0;title\x07y\x1b]0;t\x1b\\z\x1b7"), "› xyz");
    }
}
