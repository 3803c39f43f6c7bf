//! What `team up` and `team down` ask of herdr: the team's workspace in the session (the
//! workspace labelled with the team's name — the label `team register` writes on its sidebar
//! line), the session's server started when it does not run (`server`), a pane opened for a seat (the workspace created with its first seat's pane, a tab of
//! it for each further seat), the pane named as the seat before its CLI draws, the launch, a
//! pane closed, a key pressed by name.
//!
//! Naming before the CLI draws differs by version ([`Naming`], from the surface): 0.7.1 names
//! the pane's plain shell (`agent rename <pane> <seat>`) and the launch is typed into it as a
//! person types it; ≥ 0.7.5 names only a pane whose agent it sees, so the launch is herdr's own
//! `agent start <seat> --kind K --pane P -- <args>` (herdr types the kind's executable and the
//! args into the pane's shell and holds the name from then on). A launch line whose program is
//! none of herdr's kinds, or that carries shell syntax herdr's argument list cannot carry, is
//! typed into the shell, and the pane is named as soon as herdr sees its agent.
//!
//! Invariant: a pane this module opened and could not name is closed again, so no CLI is
//! started in a pane no seat could address; only the team's workspace is ever looked in.

use std::path::Path;
use std::time::{Duration, Instant};

use super::errors::Code;
use super::surface::{kind_of, Naming};
use super::{parse_json, unexpected, Ctx, Herdr, Refusal};
use crate::mux::{Mux, MuxError, PaneInfo, PaneRef};
use crate::vocab::key::Key;
use serde_json::Value;

/// How long `agent start` may take: herdr answers once the agent is detected and ready (≥ 3 s
/// settle; 3.5–4 s measured for the fakes), at once when it sits on a dialog, and with its
/// `timeout` error after its own default of 30 s (herdr v0.8.2 `src/app/agents.rs`
/// `DEFAULT_AGENT_START_TIMEOUT`), which `team` keeps.
pub const START_MS: u64 = 30_000;

/// How long a typed launch (a program that is no herdr kind) may take before herdr sees its agent.
const SEEN_BOUND: Duration = Duration::from_secs(15);

impl Herdr {
    /// The id of the workspace labelled `team` in `session`; `None` when there is none (or the
    /// session's server does not run).
    pub(super) fn team_workspace(&self, session: &str, team: &str) -> Result<Option<String>, MuxError> {
        let ctx = Ctx { seat: String::new(), pane: String::new() };
        let out = match self.call(session, &["workspace", "list"], &ctx) {
            Ok(o) => o,
            Err(MuxError::ServerStopped(_) | MuxError::NoSession(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let doc = parse_json(&out, "workspace list")?;
        let list = doc
            .pointer("/result/workspaces")
            .and_then(Value::as_array)
            .ok_or_else(|| unexpected("workspace list", &out))?;
        Ok(list
            .iter()
            .find(|w| w.get("label").and_then(Value::as_str) == Some(team))
            .and_then(|w| w.get("workspace_id").and_then(Value::as_str))
            .map(str::to_string))
    }

    /// Every pane of the team's workspace, each with its shell and the agent name herdr gives it.
    pub(super) fn team_pane_list(&self, session: &str, team: &str) -> Result<Vec<PaneInfo>, MuxError> {
        let Some(w) = self.team_workspace(session, team)? else { return Ok(Vec::new()) };
        let ctx = Ctx { seat: String::new(), pane: String::new() };
        let out = self.call(session, &["pane", "list"], &ctx)?;
        let doc = parse_json(&out, "pane list")?;
        let panes =
            doc.pointer("/result/panes").and_then(Value::as_array).ok_or_else(|| unexpected("pane list", &out))?;
        let ids: Vec<String> = panes
            .iter()
            .filter(|p| p.get("workspace_id").and_then(Value::as_str) == Some(w.as_str()))
            .filter_map(|p| p.get("pane_id").and_then(Value::as_str).map(str::to_string))
            .collect();
        let mut infos = Vec::new();
        for id in ids {
            match self.pane_info(session, &id) {
                Ok(mut i) => {
                    i.workspace.get_or_insert_with(|| w.clone());
                    infos.push(i)
                }
                // closed between the list and the look
                Err(MuxError::NoSeat(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(infos)
    }

    /// Opens `seat`'s pane in `cwd`: the session's server started when it does not run
    /// (`ensure_server`), the team's workspace created with the pane when there is none, else a
    /// tab of that workspace; on 0.7.1 the pane's shell is named as the seat here.
    pub(super) fn open_in(&self, session: &str, cwd: &Path, seat: &str, team: &str) -> Result<PaneInfo, MuxError> {
        self.ensure_server(session)?;
        let dir = cwd.display().to_string();
        let ctx = Ctx { seat: seat.into(), pane: String::new() };
        let (verb, out) = match self.team_workspace(session, team)? {
            None => (
                "workspace create",
                self.call(session, &["workspace", "create", "--cwd", &dir, "--label", team, "--no-focus"], &ctx)?,
            ),
            Some(w) => (
                "tab create",
                self.call(
                    session,
                    &["tab", "create", "--workspace", &w, "--label", seat, "--cwd", &dir, "--no-focus"],
                    &ctx,
                )?,
            ),
        };
        let doc = parse_json(&out, verb)?;
        let root = doc.pointer("/result/root_pane").ok_or_else(|| unexpected(verb, &out))?;
        let text = |k: &str| root.get(k).and_then(Value::as_str).map(str::to_string);
        let id =
            text("pane_id").filter(|p| crate::vocab::names::valid_pane(p)).ok_or_else(|| unexpected(verb, &out))?;
        if self.surface()?.naming == Naming::RenameShell && !self.rename(session, &id, seat)? {
            // a pane no seat could address is not left behind
            let _ = self.close(session, &id);
            return Err(MuxError::Failed(format!(
                "herdr did not take the name \"{seat}\" for the new pane {id}; it was closed"
            )));
        }
        let shell_pid = self
            .process_info(session, &id, seat)
            .ok()
            .and_then(|i| i.get("shell_pid").and_then(Value::as_u64))
            .map(|p| p as u32);
        Ok(PaneInfo {
            id,
            session: session.into(),
            shell_pid,
            name: seat.into(),
            label: None,
            workspace: text("workspace_id"),
            agent_session: None,
        })
    }

    /// Runs `line` in the seat's pane, named as the seat (see the module doc).
    pub(super) fn launch_in(&self, pane: &PaneRef, line: &str) -> Result<(), MuxError> {
        let start = match self.surface()?.naming {
            Naming::RenameShell => None,
            Naming::AgentStart => startable(line),
        };
        let Some((kind, args)) = start else {
            self.type_line(pane, line)?;
            return match self.surface()?.naming {
                Naming::RenameShell => Ok(()),
                Naming::AgentStart => self.name_when_seen(pane),
            };
        };
        let mut argv = vec!["agent", "start", &pane.seat, "--kind", kind, "--pane", &pane.id];
        if !args.is_empty() {
            argv.push("--");
            argv.extend(args.iter().map(String::as_str));
        }
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let limit = Duration::from_millis(START_MS) + Duration::from_secs(5);
        match self.ask_for(&pane.session, &argv, &ctx, limit) {
            Ok(out) => {
                let doc = parse_json(&out, "agent start")?;
                let name = doc.pointer("/result/agent/name").and_then(Value::as_str);
                if name == Some(pane.seat.as_str()) {
                    Ok(())
                } else {
                    Err(unexpected("agent start", &out))
                }
            }
            // it sits on a dialog at startup: herdr keeps the name (`launch_pending`), the
            // person answers it; the wait reads it as a dialog
            Err(Refusal { code: Some(Code::Other(c)), .. }) if c == "agent_not_ready" => Ok(()),
            Err(r) => Err(r.error),
        }
    }

    /// Typed as every text is typed (`Mux::type_text`: one argument, never read as herdr's own
    /// option), then Enter.
    fn type_line(&self, pane: &PaneRef, line: &str) -> Result<(), MuxError> {
        Mux::type_text(self, pane, line)?;
        Mux::press_enter(self, pane)
    }

    /// ≥ 0.7.5, a launch herdr did not start: the pane is named once herdr sees its agent.
    fn name_when_seen(&self, pane: &PaneRef) -> Result<(), MuxError> {
        let t = Instant::now();
        loop {
            if self.rename(&pane.session, &pane.id, &pane.seat)? {
                return Ok(());
            }
            if t.elapsed() > SEEN_BOUND {
                return Err(MuxError::Failed(format!(
                    "herdr saw no agent in pane {} within {} s of its launch, so it could not be named \"{}\"",
                    pane.id,
                    SEEN_BOUND.as_secs(),
                    pane.seat
                )));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Closes pane `id`; one already gone is no error. A server left holding no workspace
    /// ends with it (`end_when_empty`).
    pub(super) fn close(&self, session: &str, id: &str) -> Result<(), MuxError> {
        let ctx = Ctx { seat: String::new(), pane: id.into() };
        match self.ask(session, &["pane", "close", id], &ctx) {
            Ok(_) => self.end_when_empty(session),
            Err(Refusal { code: Some(Code::PaneNotFound), .. }) => Ok(()),
            Err(r) => Err(r.error),
        }
    }

    /// Presses `key` in the pane (herdr's key names).
    pub(super) fn key(&self, pane: &PaneRef, key: Key) -> Result<(), MuxError> {
        let name = match key {
            Key::Enter => "enter",
            Key::Esc => "esc",
            Key::CtrlC => "ctrl+c",
            Key::CtrlD => "ctrl+d",
        };
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        self.call(&pane.session, &["pane", "send-keys", &pane.id, name], &ctx).map(|_| ())
    }
}

/// The herdr kind and arguments `agent start` runs `line` as: its program is a kind's
/// executable and every word is plain (no quoting, expansion, redirection or separator, which
/// herdr's argument list would not carry as the shell does). `None`: the line is typed.
pub fn startable(line: &str) -> Option<(&'static str, Vec<String>)> {
    let plain = |w: &str| w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@+%".contains(c));
    let words: Vec<&str> = line.split_whitespace().collect();
    let (first, rest) = words.split_first()?;
    if !words.iter().all(|w| plain(w)) {
        return None;
    }
    let kind = kind_of(first)?;
    Some((kind, rest.iter().map(|w| w.to_string()).collect()))
}
