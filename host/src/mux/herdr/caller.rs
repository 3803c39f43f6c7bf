//! The herdr adapter's caller search: which pane of a session this process runs in (the pane
//! whose shell, a session leader on a terminal, is among its ancestors) and herdr's server (the
//! parent of the panes' shells); and the refusal of an agent name holding a control character.

use super::{parse_json, Ctx, Herdr};
use crate::mux::{procfs, Located, MuxError, PaneRef};
use serde_json::Value;

impl Herdr {
    /// The caller search behind `pane_of_caller`: the pane `named` (`HERDR_PANE_ID`) first, then
    /// every pane of `session`, each by its shell pid from `pane process-info`; the one whose
    /// shell — a session leader on a terminal, as a pane's shell is — is in `ancestry` is the
    /// caller's, its seat the pane's agent name ("" if none). The server is the parent of the
    /// shells herdr names.
    pub fn find_caller(
        &self,
        session: &str,
        named: Option<&str>,
        ancestry: &[u32],
        kernel: &dyn procfs::Kernel,
    ) -> Result<Located, MuxError> {
        // A shell hidden from this process (another pid namespace) is kept: it matches no
        // ancestor here, and says why the pane cannot vouch (`not_inside`).
        let shell_of = |id: &str| -> Result<Option<Option<u32>>, MuxError> {
            match self.process_info(session, id, "") {
                Ok(info) => Ok(Some(
                    info.get("shell_pid")
                        .and_then(Value::as_u64)
                        .map(|p| p as u32)
                        .filter(|&p| !kernel.visible(p) || kernel.shell_like(p)),
                )),
                Err(MuxError::NoSeat(_)) => Ok(None),
                Err(e) => Err(e),
            }
        };
        let mut server = None;
        let mut found = |id: &str, shell: Option<u32>| -> Result<Option<Located>, MuxError> {
            server = server.or_else(|| shell.filter(|&p| kernel.visible(p)).and_then(|p| kernel.parent(p)));
            if shell.is_some_and(|p| ancestry.contains(&p)) {
                return Ok(Some(Located { pane: Some(self.caller_pane(session, id, shell)?), server }));
            }
            Ok(None)
        };
        let unreachable = |e: &MuxError| {
            matches!(e, MuxError::ServerStopped(_) | MuxError::NoSession(_) | MuxError::ProgramMissing(_))
        };
        let mut named_shell = None;
        if let Some(id) = named {
            match shell_of(id) {
                Ok(Some(shell)) => {
                    if let Some(l) = found(id, shell)? {
                        return Ok(l);
                    }
                    named_shell = Some((id, shell));
                }
                Ok(None) => {}
                // The environment says this is a herdr pane and herdr cannot be asked: unverified.
                Err(e) => return Err(e),
            }
        }
        let ctx = Ctx { seat: String::new(), pane: String::new() };
        let list = match self.call(session, &["pane", "list"], &ctx) {
            Ok(out) => parse_json(&out, "pane list")?,
            Err(e) if unreachable(&e) => return Ok(Located::default()),
            Err(e) => return Err(e),
        };
        let ids: Vec<&str> = list
            .pointer("/result/panes")
            .and_then(Value::as_array)
            .map(|panes| panes.iter().filter_map(|p| p.get("pane_id").and_then(Value::as_str)).collect())
            .unwrap_or_default();
        for id in ids.into_iter().filter(|id| Some(*id) != named) {
            if let Some(shell) = shell_of(id)? {
                if let Some(l) = found(id, shell)? {
                    return Ok(l);
                }
            }
        }
        match named_shell {
            Some((id, shell)) => {
                Err(crate::mux::not_inside("HERDR_PANE_ID", id, session, shell, &|p| kernel.visible(p)))
            }
            None => Ok(Located { pane: None, server }),
        }
    }

    /// The caller's pane `id`, with the agent name herdr gives it as its seat ("" if none).
    fn caller_pane(&self, session: &str, id: &str, shell: Option<u32>) -> Result<PaneRef, MuxError> {
        let ctx = Ctx { seat: String::new(), pane: id.into() };
        let seat = match self.call(session, &["agent", "get", id], &ctx) {
            Ok(out) => parse_json(&out, "agent get")?
                .pointer("/result/agent/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            Err(MuxError::NoSeat(_)) => String::new(),
            Err(e) => return Err(e),
        };
        refuse_control(session, id, &seat)?;
        Ok(PaneRef { id: id.into(), session: session.into(), seat, shell_pid: shell })
    }
}

/// An agent name holding a control character is no seat's: refused wherever it is read, naming
/// the pane (herdr's JSON cannot split a row, but such a name shown or matched would act on a
/// terminal or pass for another).
pub(crate) fn refuse_control(session: &str, pane: &str, name: &str) -> Result<(), MuxError> {
    if !crate::mux::tmux::format::has_control(name) {
        return Ok(());
    }
    Err(MuxError::Failed(format!(
        "pane {pane} of herdr session \"{session}\" is named \"{}\": a name holding a control character names no seat (repair: herdr agent rename {pane} <seat>)",
        crate::mux::tmux::format::shown(name)
    )))
}

#[cfg(test)]
mod name_tests {
    use proptest::prelude::*;

    proptest! {
        /// An agent name is a seat's only without control characters; the refusal names the
        /// pane and shows the name escaped.
        #[test]
        fn a_name_with_a_control_character_is_refused_naming_the_pane(name in "\\PC{0,6}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}]\\PC{0,6}") {
            let e = super::refuse_control("beacon", "w1:p2", &name).unwrap_err().to_string();
            prop_assert!(e.starts_with("pane w1:p2 of herdr session \"beacon\" is named \""), "{}", e);
            prop_assert!(!e.chars().any(char::is_control), "{:?}", e);
        }

        #[test]
        fn a_plain_name_passes(name in "[a-z][a-z0-9_-]{0,31}") {
            prop_assert!(super::refuse_control("beacon", "w1:p2", &name).is_ok());
        }
    }
}
