//! The team file's sections that say who besides the owner and the team's own seats may run a
//! command: `delegates: {up: [<seat>…]}` and `grant: {seat, pane, scope}` (docs/team-file.md).
//!
//! Invariant: every entry is a seat spelling (`<seat>`, `<seat>@<team>`, an agent id) or the
//! file is refused at read, naming the line; a grant's word alone grants nothing (its approval
//! lives in the owner's grants folder, `registry::verify_up`).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{at, line_of, valid_name, Sp, SpWords};
use crate::error;

/// The file's `delegates` section: `delegates: {up: [<seat>@<team> | <agent id> | <seat>, …]}`.
/// A section the file does not write is `None`; an empty list names nobody.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Delegates {
    pub up: Option<Vec<String>>,
}

/// The file's `grant` section: `grant: {seat: <seat>, pane: <pane>, scope: [up, …]}`. The
/// repository's word alone grants nothing: a record in the owner's grants folder approves it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileGrant {
    /// The granted seat: `<seat>@<team>`, an agent id, or a bare seat of this team.
    pub seat: String,
    /// The one pane the grant holds for, when it names one.
    pub pane: Option<String>,
    pub scope: Vec<String>,
    pub line: usize,
}

/// Is `s` a seat spelling a `delegates` or `grant` entry takes: `<seat>`, `<seat>@<team>` or an
/// agent id?
pub fn valid_seat_spelling(s: &str) -> bool {
    if crate::vocab::names::is_agent_id(s) {
        return true;
    }
    match s.split_once('@') {
        Some((seat, team)) => valid_name(seat) && valid_name(team),
        None => valid_name(s),
    }
}

#[derive(Deserialize)]
pub(super) struct RawGrant {
    seat: Option<Sp<String>>,
    pane: Option<Sp<String>>,
    scope: Option<Sp<Vec<Sp<String>>>>,
}

/// Reads the two sections from their raw shapes.
pub(super) fn read(
    delegates_raw: Option<Sp<BTreeMap<String, SpWords>>>,
    grant_raw: Option<Sp<RawGrant>>,
) -> error::Result<(Delegates, Option<FileGrant>)> {
    let mut delegates = Delegates::default();
    if let Some(d) = delegates_raw {
        for (cmd, list) in d.value {
            let mut names = Vec::new();
            for w in list.value {
                let v = w.value.trim().to_string();
                if !valid_seat_spelling(&v) {
                    return Err(at(
                        line_of(&w),
                        format!("delegates: {cmd}: \"{v}\" is not a seat (<seat>, <seat>@<team> or an agent id)"),
                    ));
                }
                names.push(v);
            }
            // other commands' lists are kept by newer versions; this one reads `up`
            if cmd == "up" {
                delegates.up = Some(names);
            }
        }
    }
    let grant = match grant_raw {
        None => None,
        Some(g) => {
            let gl = line_of(&g);
            let seat = match g.value.seat {
                Some(s) if valid_seat_spelling(s.value.trim()) => s.value.trim().to_string(),
                Some(s) => {
                    return Err(at(
                        line_of(&s),
                        format!(
                            "grant: seat: \"{}\" is not a seat (<seat>, <seat>@<team> or an agent id)",
                            s.value.trim()
                        ),
                    ))
                }
                None => return Err(at(gl, "grant: names no seat: (the seat it grants to)")),
            };
            let pane = match g.value.pane {
                Some(p) if p.value.trim().is_empty() => return Err(at(line_of(&p), "grant: pane: is empty")),
                Some(p) => Some(p.value.trim().to_string()),
                None => None,
            };
            let scope = g.value.scope.map(|s| s.value.into_iter().map(|w| w.value.trim().to_string()).collect());
            Some(FileGrant { seat, pane, scope: scope.unwrap_or_default(), line: gl as usize })
        }
    };
    Ok((delegates, grant))
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn delegates_and_grant_sections() {
        let base = "project: beacon\nseats:\n  - name: a\n    cli: codex\n";
        let f = parse(base).unwrap();
        assert_eq!(f.delegates, Delegates::default());
        assert!(f.grant.is_none());
        let f = parse(&format!(
            "{base}delegates:\n  up: [builder@labs, agt_00000000000000a1]\n  down: [x]\ngrant:\n  seat: builder@labs\n  pane: w2:p1\n  scope: [up, add]\n"
        ))
        .unwrap();
        assert_eq!(f.delegates.up, Some(vec!["builder@labs".to_string(), "agt_00000000000000a1".to_string()]));
        let g = f.grant.unwrap();
        assert_eq!((g.seat.as_str(), g.pane.as_deref(), g.scope.len(), g.line), ("builder@labs", Some("w2:p1"), 2, 9));
        let e = parse(&format!("{base}delegates:\n  up: [\"Bad Seat\"]\n")).unwrap_err();
        assert_eq!(
            e.message(),
            "line 6: delegates: up: \"Bad Seat\" is not a seat (<seat>, <seat>@<team> or an agent id)"
        );
        let e = parse(&format!("{base}grant:\n  scope: [up]\n")).unwrap_err();
        assert_eq!(e.message(), "line 6: grant: names no seat: (the seat it grants to)");
    }
}
