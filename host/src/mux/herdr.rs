//! The herdr adapter (herdr ≥ 0.7.1): a seat is the agent named `<seat>` in the session.
//!
//! Every call is `herdr --session <session> …`, through the [`Runner`] seam (the text to type
//! is one argument and NOT after a `--`: herdr 0.7.1 would type the `--`; see `type_text`):
//! - locate: `agent get <seat>` (the answer's `name` must be the seat: herdr also resolves a
//!   target by label or pane id, which is not a seat), then `pane process-info --pane <pane>`
//!   for the shell pid;
//! - status: `agent get <seat>` → `agent_status`;
//! - screen: `pane read <pane> --source visible --format ansi` (plain rows are derived from
//!   that one snapshot), recent rows: `pane read <pane> --source recent --lines 200`;
//! - title: herdr's pane info carries none for the vendor CLIs; the OSC title it matches on is
//!   the `region_preview` of the `osc_title` rule in `agent explain <seat> --json` (an exited
//!   CLI answers `agent_explain_unavailable`: no title);
//! - size: TIOCGWINSZ on the shell's terminal (herdr reports no PTY size; its layout rect is
//!   the cell area, a column wider than the PTY); failing that, the content's extent;
//! - typing: `pane send-text <pane> <text>` (no Enter, no bracketed paste), Enter:
//!   `pane send-keys <pane> enter`.
//!
//! Errors are parsed from herdr's exact outputs (see `tests/data/herdr-0.7.1/`): API errors are
//! one JSON line on stderr (`{"error":{code,message},"id"}`, or the bare `{code,message}` of
//! `pane read`); a server that is not running — or a session that does not exist — prints a Rust
//! Debug string (`Error: Os { code: 2, kind: NotFound, … }`), so `session list --json` then
//! tells a stopped session from one that is not there.
//!
//! herdr cannot be installed where the tests run: the unit tests below answer the adapter's
//! argv from the recorded outputs (a test double for a program that cannot run here). The
//! adapter itself only ever talks to the real program.

use super::{
    plain_rows, procfs, split_rows, AgentStatus, Capture, Mux, MuxError, PaneRef, Proc, RunOutput, Runner, SystemRunner,
};
use serde_json::Value;

/// How many rows `read` asks for as `recent`.
pub const RECENT_ROWS: u32 = 200;

/// The herdr adapter.
pub struct Herdr {
    bin: String,
    runner: Box<dyn Runner>,
    /// The terminal size of a pid's tty (a seam: tests pin it).
    tty_size: fn(u32) -> Option<(u32, u32)>,
    /// The process tree below a pid (a seam: recorded pids mean nothing on the test machine).
    tree: fn(u32) -> Vec<Proc>,
}

impl Herdr {
    /// `$HERDR_BIN` or `herdr` on PATH, run for real.
    pub fn from_env() -> Herdr {
        let bin = std::env::var("HERDR_BIN").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "herdr".into());
        Herdr { bin, runner: Box::new(SystemRunner), tty_size: procfs::tty_size_of, tree: procfs::process_tree_below }
    }

    /// An adapter running `bin` through `runner` (tests).
    pub fn with_runner(bin: &str, runner: Box<dyn Runner>) -> Herdr {
        Herdr { bin: bin.into(), runner, tty_size: |_| None, tree: procfs::process_tree_below }
    }

    fn run_raw(&self, args: &[&str]) -> Result<RunOutput, MuxError> {
        let mut argv = vec![self.bin.clone()];
        argv.extend(args.iter().map(|s| s.to_string()));
        self.runner.run(&argv).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                MuxError::ProgramMissing(format!(
                    "herdr is not installed: no `{}` on PATH (set HERDR_BIN to its path)",
                    self.bin
                ))
            } else {
                MuxError::Failed(format!("could not run {}: {e}", self.bin))
            }
        })
    }

    /// `herdr --session <session> <args…>`; a non-zero exit becomes a `MuxError` (`ctx` names
    /// the seat or pane the call was about).
    fn call(&self, session: &str, args: &[&str], ctx: &Ctx) -> Result<RunOutput, MuxError> {
        let mut full = vec!["--session", session];
        full.extend_from_slice(args);
        let out = self.run_raw(&full)?;
        if out.ok() {
            return Ok(out);
        }
        Err(self.error_of(session, args, &out, ctx))
    }

    fn error_of(&self, session: &str, args: &[&str], out: &RunOutput, ctx: &Ctx) -> MuxError {
        let err = out.stderr_str();
        if let Some((code, message)) = api_error(&err) {
            return match code.as_str() {
                "agent_not_found" => {
                    MuxError::NoSeat(format!("herdr session \"{session}\" has no agent named \"{}\"", ctx.seat))
                }
                "pane_not_found" => MuxError::NoSeat(format!(
                    "the pane {} of seat \"{}\" in herdr session \"{session}\" is gone",
                    ctx.pane, ctx.seat
                )),
                _ => MuxError::Failed(format!("herdr {} failed: {message} ({code})", verb(args))),
            };
        }
        if err.starts_with("Error: Os {") {
            return self.why_unreachable(session);
        }
        let first = err.lines().next().unwrap_or("").to_string();
        let first = if first.is_empty() { format!("exit {:?}", out.code) } else { first };
        MuxError::Failed(format!("herdr {} failed: {first}", verb(args)))
    }

    /// After a connection failure: a session herdr knows but is not running, or none at all.
    fn why_unreachable(&self, session: &str) -> MuxError {
        let stopped = MuxError::ServerStopped(format!("the herdr server of session \"{session}\" is not running"));
        let Ok(out) = self.run_raw(&["session", "list", "--json"]) else { return stopped };
        let Ok(doc) = serde_json::from_slice::<Value>(&out.stdout) else { return stopped };
        let Some(list) = doc.get("sessions").and_then(Value::as_array) else { return stopped };
        match list.iter().find(|s| s.get("name").and_then(Value::as_str) == Some(session)) {
            Some(_) => stopped,
            None => MuxError::NoSession(format!("there is no herdr session \"{session}\"")),
        }
    }

    /// The agent named `seat`. herdr resolves a target by terminal id, pane id, then name OR
    /// label in one pass (src/app/terminal_targets.rs), so a seat named like another agent's
    /// label is "ambiguous": then the agent is found by its pane id (`pane` known) or by name in
    /// `agent list`.
    fn agent_get(&self, session: &str, seat: &str, pane: &str) -> Result<Value, MuxError> {
        let ctx = Ctx { seat: seat.into(), pane: pane.into() };
        let agent = match self.call(session, &["agent", "get", seat], &ctx) {
            Ok(out) => {
                let doc = parse_json(&out, "agent get")?;
                doc.pointer("/result/agent").cloned().ok_or_else(|| unexpected("agent get", &out))?
            }
            Err(MuxError::Failed(m)) if m.ends_with("(agent_target_ambiguous)") => {
                if pane.is_empty() {
                    let out = self.call(session, &["agent", "list"], &ctx)?;
                    let doc = parse_json(&out, "agent list")?;
                    let found = doc.pointer("/result/agents").and_then(Value::as_array).and_then(|list| {
                        list.iter().find(|a| a.get("name").and_then(Value::as_str) == Some(seat)).cloned()
                    });
                    found.ok_or_else(|| {
                        MuxError::NoSeat(format!("herdr session \"{session}\" has no agent named \"{seat}\""))
                    })?
                } else {
                    let out = self.call(session, &["agent", "get", pane], &ctx)?;
                    let doc = parse_json(&out, "agent get")?;
                    doc.pointer("/result/agent").cloned().ok_or_else(|| unexpected("agent get", &out))?
                }
            }
            Err(e) => return Err(e),
        };
        // herdr resolves a target by terminal id, name, label or pane id: only a name is a seat.
        if agent.get("name").and_then(Value::as_str) != Some(seat) {
            return Err(MuxError::NoSeat(format!("herdr session \"{session}\" has no agent named \"{seat}\"")));
        }
        Ok(agent)
    }

    fn process_info(&self, session: &str, pane_id: &str, seat: &str) -> Result<Value, MuxError> {
        let ctx = Ctx { seat: seat.into(), pane: pane_id.into() };
        let out = self.call(session, &["pane", "process-info", "--pane", pane_id], &ctx)?;
        let doc = parse_json(&out, "pane process-info")?;
        doc.pointer("/result/process_info").cloned().ok_or_else(|| unexpected("pane process-info", &out))
    }

    fn title(&self, pane: &PaneRef) -> Result<String, MuxError> {
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let out = match self.call(&pane.session, &["agent", "explain", &pane.seat, "--json"], &ctx) {
            Ok(o) => o,
            // a seat named like another agent's label: explain it by its pane id
            Err(MuxError::Failed(m)) if m.ends_with("(agent_target_ambiguous)") => {
                match self.call(&pane.session, &["agent", "explain", &pane.id, "--json"], &ctx) {
                    Ok(o) => o,
                    Err(MuxError::Failed(m)) if m.contains("agent_explain_unavailable") => return Ok(String::new()),
                    Err(e) => return Err(e),
                }
            }
            // An exited CLI has no detected agent: herdr has no title rule to explain.
            Err(MuxError::Failed(m)) if m.contains("agent_explain_unavailable") => return Ok(String::new()),
            Err(e) => return Err(e),
        };
        let doc = parse_json(&out, "agent explain")?;
        Ok(osc_title_of(&doc).unwrap_or_default())
    }
}

/// What an error is about, for its sentence.
struct Ctx {
    seat: String,
    pane: String,
}

fn verb(args: &[&str]) -> String {
    args.iter().take(2).copied().collect::<Vec<_>>().join(" ")
}

/// `(code, message)` of herdr's JSON error line: `{"error":{…},"id":…}` or the bare `{code,message}`.
fn api_error(stderr: &str) -> Option<(String, String)> {
    let v: Value = serde_json::from_str(stderr.lines().next()?.trim()).ok()?;
    let e = v.get("error").unwrap_or(&v);
    let code = e.get("code")?.as_str()?.to_string();
    let message = e.get("message").and_then(Value::as_str).unwrap_or("").to_string();
    Some((code, message))
}

fn parse_json(out: &RunOutput, what: &str) -> Result<Value, MuxError> {
    serde_json::from_slice(&out.stdout).map_err(|_| unexpected(what, out))
}

fn unexpected(what: &str, out: &RunOutput) -> MuxError {
    let s = out.stdout_str();
    MuxError::Failed(format!("herdr {what} answered something unexpected: {}", s.lines().next().unwrap_or("")))
}

/// The OSC title herdr evaluated: the `region_preview` of the first rule over `osc_title`.
pub fn osc_title_of(explain: &Value) -> Option<String> {
    explain.get("evaluated_rules")?.as_array()?.iter().find_map(|r| {
        (r.get("region").and_then(Value::as_str) == Some("osc_title"))
            .then(|| r.pointer("/evidence/region_preview").and_then(Value::as_str).map(str::to_string))
            .flatten()
    })
}

impl Mux for Herdr {
    fn name(&self) -> &'static str {
        "herdr"
    }

    fn locate(&self, session: &str, seat: &str) -> Result<PaneRef, MuxError> {
        let agent = self.agent_get(session, seat, "")?;
        let id = agent
            .get("pane_id")
            .and_then(Value::as_str)
            .ok_or_else(|| MuxError::Failed(format!("herdr did not name the pane of agent \"{seat}\"")))?
            .to_string();
        let shell_pid = match self.process_info(session, &id, seat) {
            Ok(pi) => pi.get("shell_pid").and_then(Value::as_u64).map(|p| p as u32),
            Err(MuxError::Failed(_)) => None,
            Err(e) => return Err(e),
        };
        Ok(PaneRef { id, session: session.into(), seat: seat.into(), shell_pid })
    }

    fn read(&self, pane: &PaneRef) -> Result<Capture, MuxError> {
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        let lines = RECENT_ROWS.to_string();
        // The three reads are independent herdr calls: run them side by side, so a read costs
        // about one call's time (each is a process start plus a server round trip).
        let (visible, recent, title) = std::thread::scope(|s| {
            let recent = s.spawn(|| {
                self.call(&pane.session, &["pane", "read", &pane.id, "--source", "recent", "--lines", &lines], &ctx)
            });
            let title = s.spawn(|| self.title(pane));
            let visible =
                self.call(&pane.session, &["pane", "read", &pane.id, "--source", "visible", "--format", "ansi"], &ctx);
            let panicked = || MuxError::Failed("a herdr read thread panicked".into());
            let recent = recent.join().unwrap_or_else(|_| Err(panicked()));
            let title = title.join().unwrap_or_else(|_| Err(panicked()));
            (visible, recent, title)
        });
        let styled = split_rows(&visible?.stdout_str());
        let plain = plain_rows(&styled);
        let recent = split_rows(&recent?.stdout_str());
        let title = title?;
        let (cols, rows) = pane.shell_pid.and_then(self.tty_size).unwrap_or_else(|| {
            let w = plain.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            (w as u32, styled.len() as u32)
        });
        Ok(Capture { styled, plain, title, cols, rows, recent })
    }

    fn status(&self, pane: &PaneRef) -> Result<Option<AgentStatus>, MuxError> {
        let agent = self.agent_get(&pane.session, &pane.seat, &pane.id)?;
        if agent.get("pane_id").and_then(Value::as_str) != Some(pane.id.as_str()) {
            return Err(MuxError::NoSeat(format!(
                "agent \"{}\" of herdr session \"{}\" moved from pane {}",
                pane.seat, pane.session, pane.id
            )));
        }
        Ok(Some(AgentStatus::parse(agent.get("agent_status").and_then(Value::as_str).unwrap_or("unknown"))))
    }

    fn type_text(&self, pane: &PaneRef, text: &str) -> Result<(), MuxError> {
        if text.is_empty() {
            return Ok(());
        }
        // No `--` before the text: herdr 0.7.1 keeps a `--` in the argv it hands the command
        // (src/session.rs, configure_from_args) and `pane send-text` joins every word after the
        // pane id (src/cli/pane.rs), so `-- <text>` would type "-- <text>". The text goes as
        // ONE argument; only an argument that is itself `--`, `--session` or `--session=…` is
        // read as herdr's own, and such a text is refused rather than mangled.
        if text == "--" || text == "--session" || text.starts_with("--session=") {
            return Err(MuxError::Failed(format!(
                "herdr would read the text {text:?} as its own option; nothing was typed"
            )));
        }
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        self.call(&pane.session, &["pane", "send-text", &pane.id, text], &ctx).map(|_| ())
    }

    fn press_enter(&self, pane: &PaneRef) -> Result<(), MuxError> {
        let ctx = Ctx { seat: pane.seat.clone(), pane: pane.id.clone() };
        self.call(&pane.session, &["pane", "send-keys", &pane.id, "enter"], &ctx).map(|_| ())
    }

    fn foreground_processes(&self, pane: &PaneRef) -> Result<Vec<Proc>, MuxError> {
        let info = self.process_info(&pane.session, &pane.id, &pane.seat)?;
        let shell = info.get("shell_pid").and_then(Value::as_u64).map(|p| p as u32).or(pane.shell_pid);
        let tree = shell.map(self.tree).unwrap_or_default();
        if !tree.is_empty() {
            return Ok(tree);
        }
        // /proc shows nothing below the shell (another pid namespace, or the shell is gone):
        // herdr's own view of the foreground job.
        Ok(info
            .get("foreground_processes")
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| {
                        let pid = p.get("pid")?.as_u64()? as u32;
                        let name = p.get("name").and_then(Value::as_str).unwrap_or("").to_string();
                        let cwd = p.get("cwd").and_then(Value::as_str).map(Into::into);
                        Some(Proc { pid, name, cwd, home: None })
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    fn pane_of_caller(&self, session: &str, ancestry: &[u32]) -> Result<Option<PaneRef>, MuxError> {
        let named = std::env::var("HERDR_PANE_ID").ok().filter(|s| !s.is_empty());
        let in_herdr = ["HERDR_SESSION", "HERDR_SOCKET_PATH"].iter().any(|k| std::env::var_os(k).is_some());
        if named.is_none() && !in_herdr {
            return Ok(None);
        }
        self.find_caller(session, named.as_deref(), ancestry, &procfs::visible)
    }
}

impl Herdr {
    /// The caller search behind `pane_of_caller`: the pane `named` (`HERDR_PANE_ID`) first, then
    /// every pane of `session`, each by its shell pid from `pane process-info`; the one whose
    /// shell is in `ancestry` is the caller's, its seat the pane's agent name ("" if none).
    pub fn find_caller(
        &self,
        session: &str,
        named: Option<&str>,
        ancestry: &[u32],
        visible: &dyn Fn(u32) -> bool,
    ) -> Result<Option<PaneRef>, MuxError> {
        let shell_of = |id: &str| -> Result<Option<Option<u32>>, MuxError> {
            match self.process_info(session, id, "") {
                Ok(info) => Ok(Some(info.get("shell_pid").and_then(Value::as_u64).map(|p| p as u32))),
                Err(MuxError::NoSeat(_)) => Ok(None),
                Err(e) => Err(e),
            }
        };
        let unreachable = |e: &MuxError| {
            matches!(e, MuxError::ServerStopped(_) | MuxError::NoSession(_) | MuxError::ProgramMissing(_))
        };
        let mut named_shell = None;
        if let Some(id) = named {
            match shell_of(id) {
                Ok(Some(shell)) if shell.is_some_and(|p| ancestry.contains(&p)) => {
                    return self.caller_pane(session, id, shell).map(Some)
                }
                Ok(Some(shell)) => named_shell = Some((id, shell)),
                Ok(None) => {}
                // The environment says this is a herdr pane and herdr cannot be asked: unverified.
                Err(e) => return Err(e),
            }
        }
        let ctx = Ctx { seat: String::new(), pane: String::new() };
        let list = match self.call(session, &["pane", "list"], &ctx) {
            Ok(out) => parse_json(&out, "pane list")?,
            Err(e) if unreachable(&e) => return Ok(None),
            Err(e) => return Err(e),
        };
        let ids: Vec<&str> = list
            .pointer("/result/panes")
            .and_then(Value::as_array)
            .map(|panes| panes.iter().filter_map(|p| p.get("pane_id").and_then(Value::as_str)).collect())
            .unwrap_or_default();
        for id in ids.into_iter().filter(|id| Some(*id) != named) {
            if let Some(shell) = shell_of(id)? {
                if shell.is_some_and(|p| ancestry.contains(&p)) {
                    return self.caller_pane(session, id, shell).map(Some);
                }
            }
        }
        match named_shell {
            Some((id, shell)) => Err(super::not_inside("HERDR_PANE_ID", id, session, shell, visible)),
            None => Ok(None),
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
        Ok(PaneRef { id: id.into(), session: session.into(), seat, shell_pid: shell })
    }
}

#[cfg(test)]
mod tests;
