//! One look at a tmux session's panes (`list-panes` once) that answers where many seats are:
//! `team status` and `team check` on a roster of thousands ask tmux once, not once a seat.
//!
//! Invariant: a look answers what the adapter's `locate_in` and `pane` answer for the same
//! listing — [`pick`] and [`no_pane`] say both — so a roster read through a look reads as one
//! read seat by seat.

use std::collections::HashMap;

use super::super::{MuxError, PaneInfo, PaneRef, Panes};

/// The panes of one session as one `list-panes` found them, indexed by mark and by id.
pub struct Look {
    session: String,
    listed: Result<Vec<PaneInfo>, MuxError>,
    by_mark: HashMap<String, Vec<usize>>,
    by_id: HashMap<String, usize>,
}

impl Look {
    pub fn new(session: &str, listed: Result<Vec<PaneInfo>, MuxError>) -> Look {
        let (mut by_mark, mut by_id) = (HashMap::<String, Vec<usize>>::new(), HashMap::new());
        for (i, p) in listed.iter().flatten().enumerate() {
            by_mark.entry(p.name.clone()).or_default().push(i);
            by_id.entry(p.id.clone()).or_insert(i);
        }
        Look { session: session.to_string(), listed, by_mark, by_id }
    }
}

impl Panes for Look {
    fn locate_in(&self, seat: &str, team: &str) -> Result<PaneRef, MuxError> {
        let panes = self.listed.as_ref().map_err(Clone::clone)?;
        let mark = |m: &str| self.by_mark.get(m).map(Vec::as_slice).unwrap_or(&[]);
        let spelled = format!("{seat}@{team}");
        // in the listing's order, as the live search finds them
        let mut at: Vec<usize> = mark(seat).iter().chain(mark(&spelled)).copied().collect();
        at.sort_unstable();
        pick(&self.session, seat, at.into_iter().map(|i| &panes[i]))
    }

    fn pane(&self, id: &str) -> Result<PaneInfo, MuxError> {
        let panes = self.listed.as_ref().map_err(Clone::clone)?;
        self.by_id.get(id).map(|i| panes[*i].clone()).ok_or_else(|| no_pane(&self.session, id))
    }
}

/// The one pane of `found` (the panes of `session` marked as `seat`, in listing order), or
/// why there is not one: none, or two claiming the seat.
pub fn pick<'p>(session: &str, seat: &str, found: impl Iterator<Item = &'p PaneInfo>) -> Result<PaneRef, MuxError> {
    let found: Vec<&PaneInfo> = found.collect();
    match found.as_slice() {
        [] => Err(MuxError::NoSeat(format!(
            "no pane of tmux session \"{session}\" is marked as seat \"{seat}\" (from inside its pane: team mark {seat})"
        ))),
        [p] => Ok(p.pane_ref(seat)),
        many => Err(MuxError::MarkedTwice(format!(
            "{} panes of tmux session \"{session}\" are marked as seat \"{seat}\": {}; two panes claiming one seat reach neither (mark one only)",
            many.len(),
            many.iter().map(|p| format!("{} (marked {})", p.id, p.name)).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// A pane id the session does not hold.
pub fn no_pane(session: &str, id: &str) -> MuxError {
    MuxError::NoSeat(format!("tmux session \"{session}\" has no pane {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, name: &str) -> PaneInfo {
        PaneInfo {
            id: id.into(),
            session: "s".into(),
            shell_pid: Some(7),
            name: name.into(),
            label: None,
            workspace: None,
            agent_session: None,
        }
    }

    #[test]
    fn a_look_answers_as_the_live_search() {
        let l = Look::new("s", Ok(vec![pane("%1", "a"), pane("%2", "b@t"), pane("%3", ""), pane("%4", "a@t")]));
        assert_eq!(l.locate_in("b", "t").unwrap().id, "%2");
        let two = l.locate_in("a", "t").unwrap_err().to_string();
        assert!(
            two.starts_with("2 panes of tmux session \"s\" are marked as seat \"a\": %1 (marked a), %4 (marked a@t)"),
            "{two}"
        );
        assert_eq!(
            l.locate_in("c", "t").unwrap_err(),
            MuxError::NoSeat(
                "no pane of tmux session \"s\" is marked as seat \"c\" (from inside its pane: team mark c)".into()
            )
        );
        assert_eq!(l.pane("%3").unwrap().shell_pid, Some(7));
        assert_eq!(l.pane("%9").unwrap_err(), no_pane("s", "%9"));
        let down = Look::new("s", Err(MuxError::ServerStopped("gone".into())));
        assert_eq!(down.locate_in("a", "t").unwrap_err(), MuxError::ServerStopped("gone".into()));
        assert_eq!(down.pane("%1").unwrap_err(), MuxError::ServerStopped("gone".into()));
    }
}
