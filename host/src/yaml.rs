//! What a YAML file that cannot be read is told, in the project's own words: the sentence of a
//! serde-saphyr error without its library advice (`set DuplicateKeyPolicy in Options`, `use
//! from_str_multiple`, `budget breached: Nodes { … }`) and without its location (the callers
//! put `line <n>:` in front).
//!
//! Invariant: every YAML error a team file, `teams.yaml` or an agent record meets is said
//! through [`words`]; the library's rendering is used only for errors that name the file's
//! own text (an invalid type, an unexpected character).

use serde_saphyr::Error;

/// The innermost error of a wrapped one (a snippet, an alias's location).
fn inner(e: &Error) -> &Error {
    match e.without_snippet() {
        Error::AliasError { error, .. } => inner(error),
        other => other,
    }
}

/// The sentence for `e`, without a location.
pub fn words(e: &Error) -> String {
    match inner(e) {
        Error::DuplicateMappingKey { key: Some(k), .. } => {
            format!("the key `{}` is written twice in one mapping; keep one", crate::vocab::text::one_line(k))
        }
        Error::DuplicateMappingKey { key: None, .. } => "a key is written twice in one mapping; keep one".into(),
        Error::MultipleDocuments { .. } => {
            "the file holds more than one YAML document (a second `---`); it must be one".into()
        }
        Error::Budget { .. }
        | Error::AliasReplayLimitExceeded { .. }
        | Error::AliasExpansionLimitExceeded { .. }
        | Error::AliasReplayStackDepthExceeded { .. }
        | Error::AliasReplayCounterOverflow { .. } => {
            "the file is larger, deeper or expands its aliases further than team reads; write it plainly and shorter"
                .into()
        }
        other => {
            let text =
                other.render_with_options(serde_saphyr::render_options! { snippets: serde_saphyr::SnippetMode::Off });
            let first = text.lines().next().unwrap_or("").trim().to_string();
            let re = regex::Regex::new(r"(?i)\s*at line \d+,? column \d+\s*$|^line \d+,? column \d+:\s*")
                .expect("static regex");
            let msg = re.replace_all(&first, "").into_owned();
            if msg.contains("recursion limit") {
                "the file is larger, deeper or expands its aliases further than team reads; write it plainly and shorter".into()
            } else if msg.is_empty() {
                "the file cannot be read as YAML".into()
            } else {
                msg
            }
        }
    }
}

/// The line `e` points at (1 when it names none).
pub fn line(e: &Error) -> u64 {
    e.location().map(|l| l.line()).unwrap_or(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> String {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Any {
            a: Option<serde::de::IgnoredAny>,
        }
        let e = serde_saphyr::from_str::<Any>(text).unwrap_err();
        format!("line {}: {}", line(&e), words(&e))
    }

    #[test]
    fn library_advice_never_reaches_a_refusal() {
        assert_eq!(said("a: 1\na: 2\n"), "line 2: the key `a` is written twice in one mapping; keep one");
        assert_eq!(
            said("a: 1\n---\na: 2\n"),
            "line 3: the file holds more than one YAML document (a second `---`); it must be one"
        );
        let too_much =
            "the file is larger, deeper or expands its aliases further than team reads; write it plainly and shorter";
        let deep = format!("a: {}1{}\n", "[".repeat(2000), "]".repeat(2000));
        assert!(said(&deep).ends_with(too_much), "{}", said(&deep));
        // more nodes than the reader's budget (250 000): a 520 kB list, under the file cap
        let wide = format!("a: [{}]\n", "0,".repeat(260_000));
        assert!(said(&wide).ends_with(too_much), "{}", said(&wide));
        for m in [said("a: 1\na: 2\n"), said(&deep), said(&wide)] {
            for leak in ["DuplicateKeyPolicy", "from_str_multiple", "budget breached", "Options"] {
                assert!(!m.contains(leak), "{m}");
            }
        }
    }
}
