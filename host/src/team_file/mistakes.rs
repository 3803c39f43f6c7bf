//! The YAML mistakes a person writing a first team file makes, said in the project's words at
//! the line they are on: a tab in the indentation, a seat's keys not lined up under its
//! `name:` (a 3-space indent, a key at the column of the `-`), seats not starting at one
//! column, and `- keeper` for a seat (a name with no `cli:`).
//!
//! Invariant: it only words what the YAML reader already refused. It is asked only for a file
//! that did not load, and a mistake it finds stands in for the reader's words only when it is
//! on or just below the line the reader stopped at (a tab the reader meets one line early) —
//! else the reader's own sentence stands.

/// One mistake: where it is and how to put it right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// 1-based.
    pub line: usize,
    /// 1-based column the caret points at.
    pub col: usize,
    pub sentence: String,
    /// What to write instead.
    pub fix: String,
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn mistake(line: usize, col: usize, sentence: String, fix: String) -> Option<Mistake> {
    Some(Mistake { line, col, sentence, fix })
}

/// The first tab in a line's indentation.
fn tab(lines: &[&str]) -> Option<Mistake> {
    for (i, l) in lines.iter().enumerate() {
        let lead = &l[..l.len() - l.trim_start_matches([' ', '\t']).len()];
        if let Some(at) = lead.find('\t') {
            return mistake(
                i + 1,
                at + 1,
                "a tab indents this line, and YAML indents with spaces only".into(),
                "replace the tab with spaces: a seat's `-` two spaces in under seats:, its keys two more, under its name:"
                    .into(),
            );
        }
    }
    None
}

/// The key a line writes (`cli` of `  cli: codex`), for the sentence.
fn key_of(rest: &str) -> &str {
    rest.split(':').next().unwrap_or(rest).trim()
}

/// Indentation and shape under the top-level `seats:`.
fn seats(lines: &[&str]) -> Option<Mistake> {
    let start = lines.iter().position(|l| l.trim_end() == "seats:" || l.starts_with("seats: "))?;
    let mut item: Option<usize> = None;
    let mut key: Option<usize> = None;
    // a key whose value follows on deeper lines (a list, a block scalar): deeper lines are its
    let mut nested = false;
    for (i, l) in lines.iter().enumerate().skip(start + 1) {
        let rest = l.trim_start_matches(' ');
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        let ind = indent_of(l);
        if ind == 0 {
            break;
        }
        if let Some(after) = rest.strip_prefix('-').filter(|a| a.is_empty() || a.starts_with(' ')) {
            let first = item.get_or_insert(ind);
            if key.is_some() && nested && ind > key.unwrap_or(0) {
                continue; // a list inside a seat's key (delivery_order:)
            }
            if ind != *first {
                let (a, b) = (*first, ind);
                return mistake(
                    i + 1,
                    ind + 1,
                    format!("this seat's `-` is indented {b} spaces, and the first seat's {a}: every seat under seats: starts at the same column"),
                    format!("indent its `-` {a} spaces, as the seats above it"),
                );
            }
            let value = after.trim();
            if !value.is_empty() && !value.contains(':') && !value.starts_with(['{', '[', '"', '\'']) {
                let sp = " ".repeat(ind);
                return mistake(
                    i + 1,
                    ind + 3,
                    format!("`- {value}` names a seat without its CLI: a seat is a name: and a cli:"),
                    format!("write it as two lines:\n{sp}- name: {value}\n{sp}  cli: <cli>   (claude-code, codex, …: team profile list)"),
                );
            }
            key = Some(ind + 1 + (after.len() - after.trim_start().len()));
            nested = value.ends_with(':') || value.ends_with('|') || value.ends_with('>');
            continue;
        }
        let (Some(it), Some(k)) = (item, key) else { continue };
        if nested && ind > k {
            continue;
        }
        let name = key_of(rest);
        if ind != k {
            let sentence = if ind == it {
                format!("`{name}:` stands at the column of the seat's `-` above it, and a seat's keys line up under its name:, {k} spaces in")
            } else {
                format!("`{name}:` is indented {ind} spaces, and this seat's name: {k}: the keys of one seat line up")
            };
            return mistake(i + 1, ind + 1, sentence, format!("indent `{name}:` {k} spaces, under the seat's name:"));
        }
        nested = rest.trim_end().ends_with(':') || rest.trim_end().ends_with('|') || rest.trim_end().ends_with('>');
    }
    None
}

/// The newcomer's mistake in `text` that explains a read the YAML reader stopped at
/// `reader_line`, if there is one there.
pub fn explain(text: &str, reader_line: usize) -> Option<Mistake> {
    let lines: Vec<&str> = text.lines().collect();
    let found = tab(&lines).or_else(|| seats(&lines))?;
    (found.line <= reader_line + 1).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str, at: usize) -> Option<(usize, usize, String)> {
        explain(text, at).map(|m| (m.line, m.col, m.sentence))
    }

    #[test]
    fn the_mistakes_of_a_first_team_file() {
        // a 3-space indent under a seat
        let t = "project: shop\nseats:\n  - name: keeper\n    cli: claude-code\n  - name: rev\n     cli: codex\n";
        assert_eq!(
            said(t, 6),
            Some((6, 6, "`cli:` is indented 5 spaces, and this seat's name: 4: the keys of one seat line up".into()))
        );
        // seats at 3 spaces, then 2
        let t = "project: shop\nseats:\n   - name: keeper\n     cli: claude-code\n  - name: rev\n    cli: codex\n";
        assert_eq!(said(t, 5).map(|m| m.0), Some(5));
        // a seat's name alone
        let t = "project: shop\nseats:\n  - keeper\n  - name: rev\n    cli: codex\n";
        let m = explain(t, 3).unwrap();
        assert_eq!((m.line, m.col), (3, 5));
        assert!(m.sentence.starts_with("`- keeper` names a seat without its CLI"), "{m:?}");
        assert!(m.fix.contains("  - name: keeper\n    cli: <cli>"), "{m:?}");
        // a tab (the reader stops a line early)
        let t = "project: shop\nseats:\n  - name: keeper\n\tcli: claude-code\n";
        assert_eq!(said(t, 3), Some((4, 1, "a tab indents this line, and YAML indents with spaces only".into())));
        // a key at the column of the `-`
        let t = "project: shop\nseats:\n  - name: keeper\n  cli: claude-code\n";
        assert!(said(t, 4).unwrap().2.starts_with("`cli:` stands at the column of the seat's `-`"));
    }

    #[test]
    fn what_is_no_mistake_is_left_to_the_reader() {
        // nested lists and block scalars inside a seat are its own
        let t = "project: shop\nseats:\n  - name: keeper\n    cli: codex\n    delivery_order:\n      - typed\n    launch: |\n      codex\n  - name: rev\n    cli: codex\n";
        assert_eq!(explain(t, 10), None);
        // flush-left seats are one column too
        assert_eq!(explain("project: x\nseats:\n- name: a\n  cli: codex\n", 3), None);
        // a mistake far below where the reader stopped is not the reader's
        let t = "project: [\nseats:\n  - name: keeper\n\tcli: claude-code\n";
        assert_eq!(explain(t, 1), None);
    }
}
