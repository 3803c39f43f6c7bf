//! The nearest known word to a word a user mistyped: a team file's key, a seat name, a
//! profile id. One rule everywhere, so every "did you mean" reads the same.
//!
//! Invariant: a suggestion is made only when it is close — within two edits (one for a word
//! of three characters or fewer), or a known word that starts with the typed one (`claude` →
//! `claude-code`) — and the closest wins, ties going to the first candidate given.

/// The candidate closest to `word`, when one is close enough (see the module docs).
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let all: Vec<&'a str> = candidates.into_iter().collect();
    let len = word.chars().count();
    let budget = if len <= 3 { 1 } else { 2 };
    let mut best: Option<(usize, &'a str)> = None;
    for c in &all {
        // a word longer or shorter by more than the budget is never within it (the distance is
        // at least the difference in length): it is passed over without the distance's
        // len × len table, so a long word against many candidates stays linear
        if c.chars().count().abs_diff(len) > budget {
            continue;
        }
        let d = edits(word, c);
        if d > 0 && d <= budget && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    if let Some((_, c)) = best {
        return Some(c);
    }
    if len >= 3 {
        return all.into_iter().find(|c| c.starts_with(word) && *c != word);
    }
    None
}

/// The Levenshtein distance between two words (in characters).
pub fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_words_are_suggested_and_far_ones_are_not() {
        let keys = ["format", "project", "session", "multiplexer", "seats"];
        assert_eq!(nearest("multiplexor", keys), Some("multiplexer"));
        assert_eq!(nearest("sessoin", keys), Some("session"));
        assert_eq!(nearest("seat", keys), Some("seats"));
        assert_eq!(nearest("colour", keys), None);
        assert_eq!(nearest("project", keys), None, "the word itself is no suggestion");
        let ids = ["agy", "claude-code", "codex", "cursor", "grok", "grok-cli"];
        assert_eq!(nearest("codx", ids), Some("codex"));
        assert_eq!(nearest("claude", ids), Some("claude-code"));
        assert_eq!(nearest("grk", ids), Some("grok"));
        assert_eq!(nearest("x", ids), None);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "abc"), 3);
    }

    #[test]
    fn a_long_word_against_many_names_is_passed_over_by_length() {
        // a 100 kB word against 10,000 seat names: no len × len table is filled
        let names: Vec<String> = (0..10_000).map(|i| format!("seat-{i:05}")).collect();
        let long = "s".repeat(100_000);
        assert_eq!(nearest(&long, names.iter().map(String::as_str)), None);
        assert_eq!(nearest("seat-0999", names.iter().map(String::as_str)), Some("seat-00999"));
    }
}
