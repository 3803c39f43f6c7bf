//! What a reading may quote from a screen as its evidence: a sentence, never art.
//!
//! A CLI draws more than words: logos in braille or block glyphs (Codex's sign-in screen keeps
//! a braille logo over its text in a tall pane; Claude Code's welcome screen draws block-glyph
//! art over `Unable to connect to Anthropic services`), box borders and rules. A report that
//! quotes such a row as a dialog's title tells the reader nothing. The rule, in one place:
//! - a row is **art** when it holds no word: [`sentence`] takes the art glyphs
//!   ([`is_art_char`]: box drawing, block elements, braille, the legacy-computing blocks) out,
//!   squashes the spaces, and keeps the rest only when it has a word of two letters or more;
//! - a profile picks a dialog's title with [`first_sentence`] over the rows it would quote;
//! - [`Reading::new`](crate::Reading::new) passes a dialog's title through [`sentence`], so no
//!   reading built there carries art, whatever row a profile chose (an art-only title reads
//!   as no title); the host does the same to a component's reading, and the fixtures' check
//!   refuses a dialog title that is not a sentence.
//!
//! Invariant: [`sentence`] returns text with no art glyph, no run of two spaces and no
//! leading or trailing space, and it returns `None` exactly when no word is left.

/// A glyph drawn for its shape, not read: box drawing (U+2500–U+257F), block elements
/// (U+2580–U+259F: `█▄▀▐▛░▒▓`), braille patterns (U+2800–U+28FF: the logos CLIs draw with
/// them) and the symbols for legacy computing (U+1FB00–U+1FBFF).
pub fn is_art_char(c: char) -> bool {
    matches!(c as u32, 0x2500..=0x259F | 0x2800..=0x28FF | 0x1FB00..=0x1FBFF)
}

/// The shortest run of letters that makes a word.
const WORD: usize = 2;

/// True when `text` holds a word: a run of at least two letters.
fn has_word(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        if c.is_alphabetic() {
            run += 1;
            if run >= WORD {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// The sentence `row` holds: its text with the art glyphs taken out and the spaces squashed,
/// or `None` when no word is left (the row is art, or empty).
pub fn sentence(row: &str) -> Option<String> {
    let mut out = String::with_capacity(row.len());
    let mut gap = false;
    for c in row.chars() {
        if is_art_char(c) || c.is_whitespace() {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    has_word(&out).then_some(out)
}

/// True when `row` is a sentence as it stands: it holds a word and no art glyph.
pub fn is_sentence(row: &str) -> bool {
    has_word(row) && !row.chars().any(is_art_char)
}

/// The first of `rows` that holds a sentence, as [`sentence`] gives it.
pub fn first_sentence<'a>(rows: impl IntoIterator<Item = &'a str>) -> Option<String> {
    rows.into_iter().find_map(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logo_rows_are_art_and_words_are_kept() {
        // Codex 0.171.0's sign-in logo, Claude Code's welcome art (tests/data/screens)
        for art in [
            "                         ⢀⣀⣠⣤⣤⣤⣤⣤⣤⣀⣀",
            "              ⢿⣿⣿⡇ ⢸⣿⣿⡇ ⢸⣿⣿⠋⠁  ⠈⠙⢻⣿⣿⣿⣶⣄⡀⠈⠻⣿⣿⣷⡀",
            "     *                                       █████▓▓░",
            ".......█ █   █ █..........................................",
            "      ██▄█████▄██                        *",
            "──────────────────────────────",
            "╭──────╮",
            "",
            "   ",
            "1. 2.",
        ] {
            assert_eq!(sentence(art), None, "{art:?}");
            assert!(!is_sentence(art), "{art:?}");
        }
        assert_eq!(
            sentence("  Welcome to Codex, OpenAI's command-line coding agent").as_deref(),
            Some("Welcome to Codex, OpenAI's command-line coding agent")
        );
        // a sentence inside a box, or beside a small logo: the words, without the glyphs
        assert_eq!(sentence("│ Do you want to proceed? │").as_deref(), Some("Do you want to proceed?"));
        assert_eq!(sentence(" ▐▛███▜▌   Claude Code v2.1.332").as_deref(), Some("Claude Code v2.1.332"));
        assert!(is_sentence("Unable to connect to Anthropic services"));
        assert!(!is_sentence("│ Do you want to proceed? │"));
    }

    #[test]
    fn the_first_sentence_passes_over_art() {
        let rows = ["⣀⣠⣤⣤⣄⣀⡀", "", "⢸⣿⣿⣧ ⠸⣿⣿⣿⣦⣼⣿⣿", "  Welcome to Codex", "  Choose how"];
        assert_eq!(first_sentence(rows).as_deref(), Some("Welcome to Codex"));
        assert_eq!(first_sentence(["█▀▀", "───"]), None);
    }

    use proptest::prelude::*;

    /// Rows drawn from art glyphs, letters, digits, punctuation and spaces.
    fn row() -> impl Strategy<Value = String> {
        let glyph = prop_oneof![
            (0x2500u32..=0x259F).prop_map(|c| char::from_u32(c).unwrap()),
            (0x2800u32..=0x28FF).prop_map(|c| char::from_u32(c).unwrap()),
            (0x1FB00u32..=0x1FBCA).prop_map(|c| char::from_u32(c).unwrap_or('█')),
            prop::sample::select(vec!['a', 'Z', 'é', 'ß', '1', '9', '.', ',', '*', '?', '`', ' ', ' ', '\u{a0}', '●']),
        ];
        prop::collection::vec(glyph, 0..60).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn a_sentence_never_quotes_art(r in row()) {
            match sentence(&r) {
                Some(s) => {
                    prop_assert!(is_sentence(&s), "{s:?} from {r:?}");
                    prop_assert!(!s.contains("  ") && s.trim() == s, "{s:?}");
                    // nothing is made up: the sentence is the row's own non-art text, in order
                    let kept: String = r.chars().filter(|c| !is_art_char(*c) && !c.is_whitespace()).collect();
                    prop_assert_eq!(s.chars().filter(|c| !c.is_whitespace()).collect::<String>(), kept);
                    // and a sentence is its own sentence
                    prop_assert_eq!(sentence(&s), Some(s.clone()));
                }
                None => {
                    let spaced: String = r.chars().map(|c| if is_art_char(c) { ' ' } else { c }).collect();
                    prop_assert!(!has_word(&spaced), "{spaced:?}");
                }
            }
        }

        #[test]
        fn art_alone_is_never_a_sentence(n in 0usize..80, seed in any::<u64>()) {
            let r: String = (0..n)
                .map(|i| {
                    let k = (seed.wrapping_mul(6364136223846793005).wrapping_add(i as u64) >> 33) as u32;
                    char::from_u32([0x2500 + k % 0xA0, 0x2800 + k % 0x100, 0x20][(k % 3) as usize]).unwrap()
                })
                .collect();
            prop_assert_eq!(sentence(&r), None);
            prop_assert_eq!(first_sentence([r.as_str(), "", r.as_str()]), None);
        }
    }
}
