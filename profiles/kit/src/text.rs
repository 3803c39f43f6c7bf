//! Phrase matching that costs nothing to build.
//!
//! Profiles never compile regexes (a wasm guest paid ~9 ms per cold start doing that): these are
//! plain scans over `str`, so the first classify in a fresh process costs what a warm one does.
//! Substring search goes through [`crate::scan`], which vectorises inside a wasm guest.

/// True when `hay` contains `needle`, comparing ASCII letters without case.
pub fn contains_ci(hay: &str, needle: &str) -> bool {
    find_ci(hay, needle).is_some()
}

/// The byte offset of the first occurrence of `needle` in `hay`, ASCII case-insensitively.
pub fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    crate::scan::find_ci(hay, needle)
}

/// The byte offset of the first occurrence of `needle` in `hay`: `str::find`, but vectorised
/// in a wasm guest too ([`crate::scan`]). Use it for phrase search in hot paths.
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    crate::scan::find(hay, needle)
}

/// True when `hay` contains `needle` (see [`find`]).
pub fn contains(hay: &str, needle: &str) -> bool {
    crate::scan::contains(hay, needle)
}

/// True when `hay` contains any of `needles` (case-sensitive).
pub fn contains_any(hay: &str, needles: &[&str]) -> bool {
    needles.iter().any(|n| contains(hay, n))
}

/// True when `hay` contains every one of `needles` (case-sensitive).
pub fn contains_all(hay: &str, needles: &[&str]) -> bool {
    needles.iter().all(|n| contains(hay, n))
}

/// True when a shell `command` reads a file whose path holds `needle` with a common reader
/// (`cat`, `head`, `tail`, `sed`, `less`, `more`, `bat`, `nl`, `awk` as a word of it): how a
/// model reads a file through a CLI's shell tool.
pub fn shell_reads(command: &str, needle: &str) -> bool {
    const READERS: &[&str] = &["cat", "head", "tail", "sed", "less", "more", "bat", "nl", "awk"];
    !needle.is_empty()
        && contains(command, needle)
        && command.split(|c: char| c.is_whitespace() || matches!(c, '|' | ';' | '&')).any(|w| READERS.contains(&w))
}

/// True for the whitespace a terminal draws, including U+00A0 NO-BREAK SPACE.
pub fn is_space(c: char) -> bool {
    c == ' ' || c == '\u{a0}' || c == '\t' || c.is_whitespace()
}

/// A braille pattern character other than the blank one (U+2801–U+28FF): spinner frames.
pub fn is_braille(c: char) -> bool {
    ('\u{2801}'..='\u{28ff}').contains(&c)
}

/// The row with leading and trailing terminal whitespace removed.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Collapses runs of whitespace into one ASCII space and trims the ends.
pub fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending = false;
    for c in s.chars() {
        if is_space(c) {
            pending = !out.is_empty();
        } else {
            if pending {
                out.push(' ');
                pending = false;
            }
            out.push(c);
        }
    }
    out
}

/// Joins wrapped rows into one line: each row trimmed, joined with single spaces.
///
/// A terminal wraps at a word boundary for the CLIs read here, so the space the wrap consumed is
/// put back; an empty row ends nothing and is skipped.
pub fn unwrap_rows<'a, I: IntoIterator<Item = &'a str>>(rows: I) -> String {
    let mut out = String::new();
    for r in rows {
        let t = trim(r);
        if t.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(t);
    }
    out
}

/// True when the first word of `line` (up to a space) equals `word`, ASCII case-insensitively.
pub fn first_word_is(line: &str, word: &str) -> bool {
    let t = trim(line);
    let first = t.split(is_space).next().unwrap_or("");
    first.eq_ignore_ascii_case(word)
}

/// True when `s` has a word ending in `ing` followed by `…` or `...` (a gerund spinner label,
/// such as `Thinking…`), case-insensitively.
pub fn has_gerund_ellipsis(s: &str) -> bool {
    for (i, _) in s.match_indices("ing") {
        let rest = &s[i + 3..];
        if rest.starts_with('…') || rest.starts_with("...") {
            // The `ing` must end a word of letters.
            let before = s[..i].chars().next_back();
            if before.map(|c| c.is_alphabetic()).unwrap_or(false) {
                return true;
            }
        }
    }
    false
}

/// Parses a leading run of ASCII digits.
pub fn leading_number(s: &str) -> Option<u64> {
    let digits: &str = &s[..s.bytes().take_while(|b| b.is_ascii_digit()).count()];
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_read_names_the_file_and_a_reader() {
        let id = "3f6d2b1c-8a4e-4f7b-9c2d-1e5a7b9c0d11";
        assert!(shell_reads(&format!("cat .agents/send-drops/b/s/{id}"), id));
        assert!(shell_reads(&format!("cd x && head -50 {id}|nl"), id));
        assert!(!shell_reads(&format!("ls .agents/send-drops/b/s/{id}"), id), "no reader");
        assert!(!shell_reads("cat notes.txt", id), "another file");
        assert!(!shell_reads(&format!("concatenate {id}"), id), "a reader inside a word is no reader");
        assert!(!shell_reads("cat x", ""));
    }

    #[test]
    fn case_insensitive_search() {
        assert!(contains_ci("Press ENTER to confirm", "enter to confirm"));
        assert_eq!(find_ci("abcABC", "cab"), Some(2));
        assert!(!contains_ci("abc", "abcd"));
        assert!(contains_ci("é ctrl+C to stop", "ctrl+c to stop"));
    }

    #[test]
    fn squash_and_unwrap() {
        assert_eq!(squash("  a \u{a0} b  "), "a b");
        assert_eq!(unwrap_rows(["please look at", "  rejects empty", ""]), "please look at rejects empty");
    }

    #[test]
    fn gerunds() {
        assert!(has_gerund_ellipsis("⠋ Thinking… (3s)"));
        assert!(has_gerund_ellipsis("- Calibrating... (0s"));
        assert!(!has_gerund_ellipsis("✻ Sautéed for 25s"));
        assert!(!has_gerund_ellipsis("ing…"));
    }

    #[test]
    fn words_and_numbers() {
        assert!(first_word_is("  LS -la", "ls"));
        assert!(!first_word_is("lsof", "ls"));
        assert_eq!(leading_number("42s"), Some(42));
        assert_eq!(leading_number("x"), None);
        assert!(is_braille('⠋') && !is_braille('\u{2800}'));
    }
}
