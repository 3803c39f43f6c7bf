//! The formats `team` asks tmux for, and the one reader of what tmux prints for them.
//!
//! tmux prints a format's values raw: an option value (`@team-seat`), a pane title or a session
//! name can hold a tab or a newline, and anyone in a pane of the server can set an option on any
//! pane. Split by newline and tab, such a value adds a row or a field (a forged pane row named
//! the tmux server's own pid as a pane's shell and passed as the lead).
//!
//! Invariant: no value can add a row or a field. Values tmux makes itself (ids, numbers, its
//! own ptys' paths, its mode names) are [`Field::Fixed`] and must hold no control character;
//! every value anyone else can set is [`Field::Framed`]: printed as `#{n:V}:#{V}`, its length
//! in bytes before it, and read as exactly that many bytes. An answer that does not parse
//! exactly is no answer ([`Malformed`]), never a best guess.

/// One field of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// A value tmux makes itself (`pane_id`, `pane_pid`, `pane_tty`, `pid`, `pane_width`, …).
    Fixed(&'static str),
    /// A value anyone can set (`@team-seat`, `pane_title`, `session_name`): length-framed.
    Framed(&'static str),
}

/// A tmux answer that did not parse as the format asked for it; the text says where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

/// The `-F` format for one row of `fields`, separated by tabs (tmux ends each row itself).
pub fn format(fields: &[Field]) -> String {
    fields
        .iter()
        .map(|f| match f {
            Field::Fixed(v) => format!("#{{{v}}}"),
            Field::Framed(v) => format!("#{{n:{v}}}:#{{{v}}}"),
        })
        .collect::<Vec<_>>()
        .join("\t")
}

/// Every row of `text`, each with one value per field, in order. The text must be whole rows
/// (each ended by a newline) and nothing else.
pub fn parse(text: &[u8], fields: &[Field]) -> Result<Vec<Vec<String>>, Malformed> {
    let mut rows = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (row, after) = parse_row(rest, fields)?;
        rows.push(row);
        rest = after;
    }
    Ok(rows)
}

/// The first row of `text` and what follows it (a command's output after the row: a capture).
pub fn parse_row<'a>(text: &'a [u8], fields: &[Field]) -> Result<(Vec<String>, &'a [u8]), Malformed> {
    let mut out = Vec::with_capacity(fields.len());
    let mut rest = text;
    for (i, f) in fields.iter().enumerate() {
        let end = if i + 1 == fields.len() { b'\n' } else { b'\t' };
        let (value, after) = match f {
            Field::Fixed(name) => {
                let n = rest.iter().position(|b| *b == end).ok_or_else(|| cut(name))?;
                let v = &rest[..n];
                if v.iter().any(|b| b.is_ascii_control()) {
                    return Err(Malformed(format!("tmux's {name} holds a control character")));
                }
                (v, &rest[n..])
            }
            Field::Framed(name) => {
                let colon = rest.iter().take(12).position(|b| *b == b':').ok_or_else(|| cut(name))?;
                let len: usize = std::str::from_utf8(&rest[..colon])
                    .ok()
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| Malformed(format!("tmux gave no length before {name}")))?;
                let body = &rest[colon + 1..];
                if body.len() < len {
                    return Err(cut(name));
                }
                (&body[..len], &body[len..])
            }
        };
        match after.first() {
            Some(b) if *b == end => {}
            _ => return Err(Malformed(format!("tmux's {} is not followed by its separator", field_name(f)))),
        }
        out.push(String::from_utf8_lossy(value).into_owned());
        rest = &after[1..];
    }
    Ok((out, rest))
}

fn field_name(f: &Field) -> &'static str {
    match f {
        Field::Fixed(n) | Field::Framed(n) => n,
    }
}

fn cut(name: &str) -> Malformed {
    Malformed(format!("tmux's answer ends inside {name}"))
}

/// Whether `s` holds a control character (C0, DEL or C1): a mark or a name holding one is no
/// seat's, and shown or split it would act on a terminal or a reader.
pub fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

/// `s` with its control characters shown as `\n`, `\t`, `\x1b`, … for a sentence.
pub fn shown(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(60) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PANES: &[Field] = &[Field::Fixed("pane_id"), Field::Fixed("pane_pid"), Field::Framed("@team-seat")];

    #[test]
    fn the_format_frames_what_anyone_can_set() {
        assert_eq!(format(PANES), "#{pane_id}\t#{pane_pid}\t#{n:@team-seat}:#{@team-seat}");
    }

    #[test]
    fn a_value_holding_a_newline_and_tabs_stays_one_value() {
        // the forged mark of issue 17: a newline, then a whole pane row
        let mark = "claude-keeper\n%1\t4242\tclaude-keeper";
        let text = format!("%1\t100\t{}:{mark}\n%2\t101\t3:rev\n", mark.len());
        let rows = parse(text.as_bytes(), PANES).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], vec!["%1", "100", mark]);
        assert_eq!(rows[1], vec!["%2", "101", "rev"]);
    }

    #[test]
    fn anything_but_exact_rows_is_malformed() {
        for bad in [
            "%1\t100\t3:rev",      // no row end
            "%1\t100\t4:rev\n",    // a length past the value
            "%1\t100\t2:rev\n",    // a length short of it
            "%1\t100\trev\n",      // no length
            "%1\t100\t-1:rev\n",   // not a length
            "%1\n100\t3:rev\n",    // a fixed field cut by a newline
            "%1\t1\x1b0\t3:rev\n", // a control character in a fixed field
            "%1\t100\t99999999999999:x\n",
        ] {
            assert!(parse(bad.as_bytes(), PANES).is_err(), "{bad:?}");
        }
        assert_eq!(parse(b"", PANES).unwrap(), Vec::<Vec<String>>::new());
    }

    #[test]
    fn a_row_then_the_rest() {
        let f = &[Field::Fixed("pane_width"), Field::Framed("pane_title")];
        let (row, rest) = parse_row(b"80\t3:a\nb\ncapture\n", f).unwrap();
        assert_eq!(row, vec!["80", "a\nb"]);
        assert_eq!(rest, b"capture\n");
    }

    #[test]
    fn control_characters_are_found_and_shown() {
        assert!(has_control("a\nb") && has_control("\u{1b}[2J") && has_control("x\u{9b}") && has_control("\t"));
        assert!(!has_control("claude-keeper@beacon") && !has_control("é€"));
        assert_eq!(shown("a\nb\t\u{1b}"), "a\\nb\\t\\u{1b}");
    }

    proptest! {
        /// Whatever bytes the settable values hold, the rows read back are exactly the rows
        /// printed: no value adds a row or a field.
        #[test]
        fn no_value_adds_a_row_or_a_field(marks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..6)) {
            let mut text = Vec::new();
            for (i, m) in marks.iter().enumerate() {
                text.extend_from_slice(format!("%{i}\t{}\t{}:", 100 + i, m.len()).as_bytes());
                text.extend_from_slice(m);
                text.push(b'\n');
            }
            let rows = parse(&text, PANES).unwrap();
            prop_assert_eq!(rows.len(), marks.len());
            for (i, (row, m)) in rows.iter().zip(&marks).enumerate() {
                prop_assert_eq!(&row[0], &format!("%{i}"));
                prop_assert_eq!(&row[1], &format!("{}", 100 + i));
                prop_assert_eq!(&row[2], &String::from_utf8_lossy(m).into_owned());
            }
        }

        /// A text cut anywhere is never read as fewer whole rows that look fine.
        #[test]
        fn a_cut_answer_is_malformed(mark in "[a-z\n\t]{0,20}", cut_at in 0usize..40) {
            let text = format!("%1\t100\t{}:{mark}\n", mark.len());
            let cut_at = cut_at.min(text.len());
            if cut_at > 0 && cut_at < text.len() {
                prop_assert!(parse(&text.as_bytes()[..cut_at], PANES).is_err());
            }
        }
    }
}
