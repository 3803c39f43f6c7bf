//! The `@team-seat` marks of a tmux server as `team mark` and the not-found sentences need
//! them: where a pane a user names is (`%3`, `<session>:<window>.<pane>`) and what it is marked,
//! and which sessions have marked panes at all. Marking is the port's `name_pane`.
//!
//! Invariant: everything here only lists; nothing is written.

use super::super::MuxError;
use super::format::{self, Field::Fixed, Field::Framed};
use super::Tmux;

/// One pane with its mark (`""` when unmarked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedPane {
    pub id: String,
    pub session: String,
    pub shell_pid: Option<u32>,
    /// Its window's and its own index (`<session>:<window>.<pane>`).
    pub window: String,
    pub pane: String,
    pub mark: String,
}

/// A pane, its session (framed: tmux shows a name's control characters escaped, but a name is
/// still anyone's to set), its shell and its mark (framed).
const ROW: &[format::Field] = &[
    Fixed("pane_id"),
    Framed("session_name"),
    Fixed("pane_pid"),
    Fixed("window_index"),
    Fixed("pane_index"),
    Framed("@team-seat"),
];

/// A pane as a user names it: its id (`%3`) or its place (`<session>:<window>[.<pane>]`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Named {
    Id(String),
    Place { session: String, window: String, pane: Option<String> },
}

/// `target` read as a pane's name, or `None` for a word that names no pane (tmux itself would
/// resolve a missing window or an empty word to some other pane: its current one).
fn named(target: &str) -> Option<Named> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(n) = target.strip_prefix('%') {
        return digits(n).then(|| Named::Id(target.to_string()));
    }
    let (session, rest) = target.split_once(':')?;
    let (window, pane) = match rest.split_once('.') {
        Some((w, p)) => (w, Some(p)),
        None => (rest, None),
    };
    let session_ok = !session.is_empty()
        && session.len() <= 200
        && !session.starts_with('=')
        && !session.contains(['.', ':'])
        && !format::has_control(session);
    (session_ok && digits(window) && pane.is_none_or(digits)).then(|| Named::Place {
        session: session.to_string(),
        window: window.to_string(),
        pane: pane.map(str::to_string),
    })
}

/// The rows of `text`; a mark holding a control character is refused, naming its pane.
fn parse(text: &[u8]) -> Result<Vec<MarkedPane>, MuxError> {
    let rows = format::parse(text, ROW)
        .map_err(|m| MuxError::Failed(format!("tmux answered in a form team does not read ({})", m.0)))?;
    rows.into_iter()
        .map(|row| {
            let [id, session, pid, window, pane, mark] = <[String; 6]>::try_from(row)
                .map_err(|_| MuxError::Failed("a row without its fields".to_string()))?;
            if format::has_control(&mark) {
                return Err(MuxError::Failed(format!(
                    "pane {id} of tmux session \"{session}\" is marked \"{}\": a mark holding a control character marks no seat (repair: tmux set -p -t {id} -u @team-seat)",
                    format::shown(&mark)
                )));
            }
            Ok(MarkedPane { id, session, shell_pid: pid.parse().ok(), window, pane, mark })
        })
        .collect()
}

impl Tmux {
    /// Pane `target` (`%3`, `<session>:<window>.<pane>`, `<session>:<window>` for a window's
    /// active pane) with its session and mark. `Err(NoSeat)`: the word names no pane, or tmux
    /// knows no such pane — the pane tmux answers with must be the one the word names (tmux
    /// resolves a missing window to its current pane).
    pub fn pane_marked(&self, target: &str) -> Result<MarkedPane, MuxError> {
        let no_pane = || MuxError::NoSeat(format!("{} has no pane {target}", self.server_name()));
        let Some(want) = named(target) else {
            return Err(MuxError::NoSeat(format!(
                "\"{}\" names no tmux pane: a pane is %<n> or <session>:<window>.<pane> (tmux list-panes -a -F '#{{pane_id}} #{{session_name}}:#{{window_index}}.#{{pane_index}}' lists them)",
                format::shown(target)
            )));
        };
        let out = self.tmux(&["display-message", "-p", "-t", target, &format::format(ROW)])?;
        if !out.ok() {
            let err = out.stderr_str();
            if err.contains("can't find") {
                return Err(MuxError::NoSeat(format!("{} has no pane {target}", self.server_name())));
            }
            return Err(self.failed("display-message", &out));
        }
        // (tmux 3.3 answers a target it cannot find with empty fields, not always an error)
        let got = parse(&out.stdout)?.into_iter().next().filter(|p| !p.id.is_empty());
        let got = got.ok_or_else(no_pane)?;
        let same = match &want {
            Named::Id(id) => got.id == *id,
            Named::Place { session, window, pane } => {
                got.session == *session && got.window == *window && pane.as_ref().is_none_or(|p| got.pane == *p)
            }
        };
        if same {
            Ok(got)
        } else {
            Err(no_pane())
        }
    }

    /// Every session of the server that has marked panes, with their marks (sessions by name,
    /// marks in pane order).
    pub fn seated_sessions(&self) -> Result<Vec<(String, Vec<String>)>, MuxError> {
        let out = self.tmux(&["list-panes", "-a", "-F", &format::format(ROW)])?;
        if !out.ok() {
            return Err(self.failed("list-panes", &out));
        }
        let mut by: Vec<(String, Vec<String>)> = Vec::new();
        for p in parse(&out.stdout)?.into_iter().filter(|p| !p.mark.is_empty()) {
            match by.iter_mut().find(|(s, _)| *s == p.session) {
                Some((_, marks)) => marks.push(p.mark),
                None => by.push((p.session, vec![p.mark])),
            }
        }
        by.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(by)
    }

    /// The "no such session" error, naming the sessions that do have marked panes.
    pub(super) fn no_session(&self, session: &str) -> MuxError {
        let others = match self.seated_sessions() {
            Ok(v) if v.is_empty() => "; no session there has a pane marked as a seat".to_string(),
            Ok(v) => format!(
                "; the sessions with marked panes are {}",
                v.iter().map(|(s, m)| format!("{s} ({})", m.join(", "))).collect::<Vec<_>>().join(", ")
            ),
            Err(_) => String::new(),
        };
        MuxError::NoSession(format!(
            "{} has no session \"{session}\"{others}{}",
            self.server_name(),
            self.private_hint()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A mark holding any control character, anywhere, is refused naming its pane; one
        /// holding none is read back exactly.
        #[test]
        fn a_mark_is_read_exactly_or_refused_naming_its_pane(head in "[a-z@.-]{0,8}", c in any::<char>(), tail in "\\PC{0,8}") {
            let mark = format!("{head}{c}{tail}");
            let text = format!("%7\t6:beacon\t42\t0\t0\t{}:{mark}\n", mark.len());
            match parse(text.as_bytes()) {
                Ok(rows) => {
                    prop_assert!(!format::has_control(&mark));
                    prop_assert_eq!(rows.len(), 1);
                    prop_assert_eq!(&rows[0].mark, &mark);
                }
                Err(e) => {
                    let e = e.to_string();
                    prop_assert!(format::has_control(&mark));
                    prop_assert!(e.starts_with("pane %7 of tmux session \"beacon\" is marked \""), "{}", e);
                    prop_assert!(!format::has_control(&e.replace('\n', "")), "the sentence shows no raw control character: {:?}", e);
                }
            }
        }
    }

    #[test]
    fn a_pane_is_named_by_its_id_or_its_place_and_nothing_else() {
        assert_eq!(named("%3"), Some(Named::Id("%3".into())));
        assert_eq!(named("beacon:9"), Some(Named::Place { session: "beacon".into(), window: "9".into(), pane: None }));
        assert_eq!(
            named("beacon:1.2"),
            Some(Named::Place { session: "beacon".into(), window: "1".into(), pane: Some("2".into()) })
        );
        for bad in [
            "",
            "%",
            "%x",
            "../../x",
            "beacon",
            "beacon:",
            ":1",
            "beacon:1.",
            "beacon:a.1",
            "=beacon:1",
            "a\nb:1",
            "%1;kill",
        ] {
            assert_eq!(named(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn rows_are_read_with_or_without_a_mark() {
        let got = parse(b"%1\t6:beacon\t42\t0\t0\t6:keeper\n%2\t6:beacon\t43\t0\t1\t0:\n%3\t5:other\tx\t1\t0\t3:rev\n")
            .unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0],
            MarkedPane {
                id: "%1".into(),
                session: "beacon".into(),
                shell_pid: Some(42),
                window: "0".into(),
                pane: "0".into(),
                mark: "keeper".into()
            }
        );
        assert_eq!(got[1].mark, "");
        assert_eq!(got[2].shell_pid, None);
        let hostile = parse(b"%1\t6:beacon\t42\t0\t0\t18:keeper\n%9\t1\tkeeper\n").unwrap_err().to_string();
        assert!(
            hostile.starts_with("pane %1 of tmux session \"beacon\" is marked \"keeper\\n%9\\t1\\tkeeper\""),
            "{hostile}"
        );
    }
}
