//! The `@team-seat` marks of a tmux server as `team mark` and the not-found sentences need
//! them: where a pane a user names is (`%3`, `<session>:<window>.<pane>`) and what it is marked,
//! and which sessions have marked panes at all. Marking is the port's `name_pane`.
//!
//! Invariant: everything here only lists; nothing is written.

use super::super::{split_rows, MuxError};
use super::Tmux;

/// One pane with its mark (`""` when unmarked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedPane {
    pub id: String,
    pub session: String,
    pub shell_pid: Option<u32>,
    pub mark: String,
}

const FORMAT: &str = "#{pane_id}\t#{session_name}\t#{pane_pid}\t#{@team-seat}";

fn parse(text: &str) -> Vec<MarkedPane> {
    split_rows(text)
        .into_iter()
        .filter_map(|row| {
            let mut f = row.splitn(4, '\t');
            Some(MarkedPane {
                id: f.next()?.to_string(),
                session: f.next()?.to_string(),
                shell_pid: f.next().and_then(|p| p.parse().ok()),
                mark: f.next().unwrap_or("").to_string(),
            })
        })
        .collect()
}

impl Tmux {
    /// Pane `target` (`%3`, `<session>:<window>.<pane>`) with its session and mark.
    /// `Err(NoSeat)`: tmux knows no such pane.
    pub fn pane_marked(&self, target: &str) -> Result<MarkedPane, MuxError> {
        let out = self.tmux(&["display-message", "-p", "-t", target, FORMAT])?;
        if !out.ok() {
            let err = out.stderr_str();
            if err.contains("can't find") {
                return Err(MuxError::NoSeat(format!("{} has no pane {target}", self.server_name())));
            }
            return Err(self.failed("display-message", &out));
        }
        // (tmux 3.3 answers a target it cannot find with empty fields, not always an error)
        parse(&out.stdout_str())
            .into_iter()
            .next()
            .filter(|p| !p.id.is_empty())
            .ok_or_else(|| MuxError::NoSeat(format!("{} has no pane {target}", self.server_name())))
    }

    /// Every session of the server that has marked panes, with their marks (sessions by name,
    /// marks in pane order).
    pub fn seated_sessions(&self) -> Result<Vec<(String, Vec<String>)>, MuxError> {
        let out = self.tmux(&["list-panes", "-a", "-F", FORMAT])?;
        if !out.ok() {
            return Err(self.failed("list-panes", &out));
        }
        let mut by: Vec<(String, Vec<String>)> = Vec::new();
        for p in parse(&out.stdout_str()).into_iter().filter(|p| !p.mark.is_empty()) {
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

    #[test]
    fn rows_are_read_with_or_without_a_mark() {
        let got = parse("%1\tbeacon\t42\tkeeper\n%2\tbeacon\t43\t\n%3\tother\tx\trev\n");
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0],
            MarkedPane { id: "%1".into(), session: "beacon".into(), shell_pid: Some(42), mark: "keeper".into() }
        );
        assert_eq!(got[1].mark, "");
        assert_eq!(got[2].shell_pid, None);
    }
}
