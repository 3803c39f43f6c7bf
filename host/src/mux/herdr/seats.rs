//! The herdr adapter's answers about panes as seats: one pane's names (`pane`), the panes an
//! agent name picks (`named`), naming a pane as a seat (`agent rename <pane> <seat>`) and the
//! seat's sidebar lines (`workspace rename`, `pane report-metadata --display-agent`).
//!
//! herdr 0.7.1 names any pane (a plain shell too); 0.8 names only a pane whose agent it
//! detected and takes only `[a-z][a-z0-9_-]{0,31}`: a rename it refuses is "did not take the
//! name", never a failure of the run. The name is read back from herdr's answer.

use super::errors::Code;
use super::{parse_json, Ctx, Herdr, Refusal};
use crate::mux::{MuxError, PaneInfo};
use serde_json::Value;

/// The source id `team` reports its sidebar metadata under.
pub const METADATA_SOURCE: &str = "team";

fn info_of(session: &str, id: &str, shell_pid: Option<u32>, agent: Option<&Value>) -> PaneInfo {
    let text = |k: &str| agent.and_then(|a| a.get(k)).and_then(Value::as_str).map(str::to_string);
    PaneInfo {
        id: id.into(),
        session: session.into(),
        shell_pid,
        name: text("name").unwrap_or_default(),
        label: text("agent"),
        workspace: text("workspace_id"),
        agent_session: agent
            .and_then(|a| a.get("agent_session"))
            .and_then(|s| s.get("value"))
            .and_then(Value::as_str)
            .map(str::to_string),
    }
}

impl Herdr {
    /// The pane `id`: `pane process-info` for its shell (a missing pane is `NoSeat`), then
    /// `agent get <pane>` for the agent herdr sees there (none: a plain shell, no names).
    pub(super) fn pane_info(&self, session: &str, id: &str) -> Result<PaneInfo, MuxError> {
        let info = match self.process_info(session, id, "") {
            Ok(i) => i,
            Err(MuxError::NoSeat(_)) => {
                return Err(MuxError::NoSeat(format!("herdr session \"{session}\" has no pane {id}")))
            }
            Err(e) => return Err(e),
        };
        let shell = info.get("shell_pid").and_then(Value::as_u64).map(|p| p as u32);
        let ctx = Ctx { seat: String::new(), pane: id.into() };
        let agent = match self.ask(session, &["agent", "get", id], &ctx) {
            Ok(out) => parse_json(&out, "agent get")?.pointer("/result/agent").cloned(),
            Err(Refusal { code: Some(Code::AgentNotFound), .. }) => None,
            Err(r) => return Err(r.error),
        };
        // an answer about another pane (a 0.7.1 target read as a label) is no answer about this one
        let agent = agent.filter(|a| a.get("pane_id").and_then(Value::as_str) == Some(id));
        let info = info_of(session, id, shell, agent.as_ref());
        super::caller::refuse_control(session, id, &info.name)?;
        Ok(info)
    }

    /// The agent named `seat` (herdr's names are unique in a session): none or one pane.
    pub(super) fn named_panes(&self, session: &str, seat: &str) -> Result<Vec<PaneInfo>, MuxError> {
        let agent = match self.agent_get(session, seat, "") {
            Ok(a) => a,
            Err(MuxError::NoSeat(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let Some(id) = agent.get("pane_id").and_then(Value::as_str).map(str::to_string) else {
            return Err(MuxError::Failed(format!("herdr did not name the pane of agent \"{seat}\"")));
        };
        let shell = match self.process_info(session, &id, seat) {
            Ok(pi) => pi.get("shell_pid").and_then(Value::as_u64).map(|p| p as u32),
            Err(MuxError::Failed(_)) => None,
            Err(e) => return Err(e),
        };
        let info = info_of(session, &id, shell, Some(&agent));
        super::caller::refuse_control(session, &id, &info.name)?;
        Ok(vec![info])
    }

    /// `agent rename <pane> <seat>`: whether herdr's answer names the pane's agent `seat`.
    pub(super) fn rename(&self, session: &str, id: &str, seat: &str) -> Result<bool, MuxError> {
        let ctx = Ctx { seat: seat.into(), pane: id.into() };
        match self.ask(session, &["agent", "rename", id, seat], &ctx) {
            Ok(out) => {
                let doc = parse_json(&out, "agent rename")?;
                let a = doc.pointer("/result/agent");
                Ok(a.and_then(|a| a.get("name")).and_then(Value::as_str) == Some(seat)
                    && a.and_then(|a| a.get("pane_id")).and_then(Value::as_str) == Some(id))
            }
            // refused by herdr itself (a name it does not allow, one taken, no agent to name)
            Err(Refusal { code: Some(_), error: MuxError::Failed(_) | MuxError::NoSeat(_) }) => Ok(false),
            Err(r) => Err(r.error),
        }
    }

    /// The seat's sidebar lines: the workspace's label and the pane's display line.
    pub(super) fn sidebar_lines(&self, pane: &PaneInfo, label: &str, display: &str) -> Result<(), MuxError> {
        let ctx = Ctx { seat: pane.name.clone(), pane: pane.id.clone() };
        if let Some(w) = &pane.workspace {
            self.call(&pane.session, &["workspace", "rename", w, label], &ctx)?;
        }
        self.call(
            &pane.session,
            &["pane", "report-metadata", &pane.id, "--source", METADATA_SOURCE, "--display-agent", display],
            &ctx,
        )
        .map(|_| ())
    }
}
