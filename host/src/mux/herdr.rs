//! The herdr adapter (herdr 0.7.1 and 0.7.5 – 0.8.x): a seat is the agent named `<seat>` in
//! the session.
//!
//! What differs between the versions is read once per run and kept in one table
//! ([`surface::Surface`], from `herdr --version`); each session's client/server pairing is
//! checked once (`herdr --session S status`: an incompatible pair is its own unreachable, naming
//! both versions and the repair). Every call is `herdr --session <session> …`, through the
//! [`Runner`] seam (the text to type is one argument and NOT after a `--`: herdr types a `--`;
//! see `type_text`):
//! - locate: `agent get <seat>` (the answer's `name` must be the seat: 0.7.1 also resolves a
//!   target by label or pane id, which is not a seat), then `pane process-info --pane <pane>`
//!   for the shell pid. When the name is gone (0.8 clears it when its agent exits), the pane
//!   the seat was last seen on (`last_seen`, the registry's record once `team register` keeps
//!   one) tells an exited CLI — that pane back at its shell, read as such by the profile — from
//!   a seat that was never there;
//! - status: `agent get <seat>` → `agent_status` and, on 0.8, `state_change_seq` (which change
//!   of the server's this status is), read fresh on every call;
//! - screen: `pane read <pane> --source visible --format ansi` (plain rows derived from that one
//!   snapshot); recent rows: `pane read <pane> --source recent --lines 200` — with
//!   `--format ansi` on 0.8, where a text read makes the server scroll an idle full-screen CLI
//!   (and holds every ANSI read of the pane behind it): no read of this adapter ever starts that.
//!   The recent rows are asked for only by `read` (a look after a trigger was typed, where a
//!   drop-read may have scrolled off); `read_screen` (every look that judges the screen alone)
//!   makes the visible and title calls only;
//! - title: 0.8's `agent get` → `terminal_title`; 0.7.1 has it only as the `region_preview` of
//!   the `osc_title` rule in `agent explain <seat> --json` (none for an exited CLI);
//! - size: TIOCGWINSZ on the shell's terminal (herdr reports no PTY size); failing that, the
//!   content's extent;
//! - typing: `pane send-text <pane> <text>` (no Enter, no bracketed paste), Enter:
//!   `pane send-keys <pane> enter`. Never `agent prompt`: it presses Enter 300 ms later on the
//!   server, so the box cannot be read back before Enter, and two prompts can run together.
//!
//! Failures are read by their form ([`errors`]) and mapped to the same sentences on every
//! version: a server that is not running (0.7.1's `Error: Os {…}`, 0.8's `server_not_running`)
//! is told from a session that does not exist by `session list --json`.
//!
//! herdr cannot be installed where the tests run: the tests answer the adapter's argv from the
//! recorded outputs of both versions (a test double for a program that cannot run here). The
//! adapter itself only ever talks to the real program.

mod caller;
pub mod errors;
pub mod launch;
mod read;
mod seats;
pub mod server;
pub mod surface;

use super::{
    plain_rows, procfs, split_rows, AgentStatus, Capture, Located, Mux, MuxError, PaneInfo, PaneRef, Proc, RunOutput,
    Runner, StatusRead, SystemRunner,
};
use errors::{Code, Failure};
use serde_json::Value;
use std::sync::{Mutex, OnceLock};
use surface::{SessionStatus, Side, Surface, Version};

/// How many rows `read` asks for as `recent`.
pub const RECENT_ROWS: u32 = 200;

/// Where a seat was last seen: `(session, seat)` → its pane id.
pub type LastSeen = Box<dyn Fn(&str, &str) -> Option<String> + Send + Sync>;

/// The herdr adapter.
pub struct Herdr {
    bin: String,
    runner: Box<dyn Runner>,
    /// The terminal size of a pid's tty (a seam: tests pin it).
    tty_size: fn(u32) -> Option<(u32, u32)>,
    /// The process tree below a pid (a seam: recorded pids mean nothing on the test machine).
    tree: fn(u32) -> Vec<Proc>,
    /// The pane a seat was last seen on. A seam: the registry's record of it comes with
    /// `team register`; until then nothing records it and a missing name is "no agent named".
    pub last_seen: LastSeen,
    /// The version's surface, read once.
    surface: OnceLock<Result<Surface, MuxError>>,
    /// The sessions whose client/server pairing `status` found compatible.
    checked: Mutex<Vec<String>>,
    /// Each pane's last visible rows: a read hands on a whole frame (`frame`).
    frames: super::frame::Frames,
    /// herdr was chosen for want of any other choice (no `multiplexer:` key, not inside tmux):
    /// a missing herdr then says how to use tmux instead.
    pub by_default: bool,
    /// The pane the caller's environment names (`HERDR_PANE_ID`, from `mux::Hints`): a claim
    /// to verify against the process tree, never an identity.
    pub pane_hint: Option<String>,
}

/// A failed call: herdr's error code (when it printed one) and the error it means here.
struct Refusal {
    code: Option<Code>,
    error: MuxError,
}

impl Herdr {
    /// The first `herdr` of the fixed search (`program`; the test hooks' `HERDR_BIN` first),
    /// run for real; none found: every call says herdr is not installed, and nothing is run.
    pub fn from_env() -> Herdr {
        let found = super::program::herdr();
        let bin = found.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "herdr".into());
        let runner: Box<dyn Runner> = if found.is_some() { Box::new(SystemRunner) } else { Box::new(super::Missing) };
        let mut h = Herdr::with_runner(&bin, runner);
        h.tty_size = procfs::tty_size_of;
        h
    }

    /// An adapter running `bin` through `runner` (tests).
    pub fn with_runner(bin: &str, runner: Box<dyn Runner>) -> Herdr {
        Herdr {
            bin: bin.into(),
            runner,
            tty_size: |_| None,
            tree: procfs::process_tree_below,
            last_seen: Box::new(|_, _| None),
            surface: OnceLock::new(),
            checked: Mutex::new(Vec::new()),
            frames: Default::default(),
            by_default: false,
            pane_hint: None,
        }
    }

    fn run_raw(&self, args: &[&str]) -> Result<RunOutput, MuxError> {
        self.run_raw_for(args, None)
    }

    /// `run_raw`, waiting up to `limit` where one is given (a call herdr answers late).
    fn run_raw_for(&self, args: &[&str], limit: Option<std::time::Duration>) -> Result<RunOutput, MuxError> {
        let mut argv = vec![self.bin.clone()];
        argv.extend(args.iter().map(|s| s.to_string()));
        let ran = match limit {
            Some(l) => self.runner.run_for(&argv, l),
            None => self.runner.run(&argv),
        };
        ran.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                let tmux = if self.by_default {
                    "; to run the seats in tmux instead, write `multiplexer: tmux` in .agents/team.yaml (or run team inside tmux)"
                } else {
                    ""
                };
                MuxError::ProgramMissing(format!("{}{tmux}", super::program::missing("herdr", &self.bin)))
            }
            std::io::ErrorKind::TimedOut => MuxError::NoAnswer(format!(
                "herdr did not answer within {} s (`herdr {}`): its server is not responding (stopped or hung)",
                super::CALL_TIMEOUT.as_secs(),
                args.join(" ")
            )),
            _ => MuxError::Failed(format!("could not run {}: {e}", self.bin)),
        })
    }

    /// What this herdr offers, from `herdr --version`, read once per adapter (one run).
    pub fn surface(&self) -> Result<Surface, MuxError> {
        self.surface
            .get_or_init(|| {
                let out = self.run_raw(&["--version"])?;
                let text = out.stdout_str();
                let version = Version::parse(&text).filter(|_| out.ok()).ok_or_else(|| {
                    let said = text.lines().next().map(str::to_string).unwrap_or_else(|| out.stderr_str());
                    MuxError::Failed(format!("`{} --version` did not name a herdr version: {said:?}", self.bin))
                })?;
                Surface::of(version).map_err(|e| MuxError::Failed(e.to_string()))
            })
            .clone()
    }

    /// Once per session: `herdr --session S status`. A server that is not running is told from
    /// a session that does not exist; a client and server that are not compatible are a
    /// [`MuxError::Mismatch`]. An answer this adapter cannot read is no reason to stop: the
    /// calls themselves then say what is wrong.
    fn check_session(&self, session: &str) -> Result<(), MuxError> {
        self.surface()?;
        if self.checked.lock().map(|c| c.iter().any(|s| s == session)).unwrap_or(false) {
            return Ok(());
        }
        let out = self.run_raw(&["--session", session, "status"])?;
        if let (false, Failure::Denied(why)) = (out.ok(), errors::read(&out.stderr_str(), out.code)) {
            return Err(sandboxed(session, why));
        }
        if let Some(st) = SessionStatus::parse(&out.stdout_str()).filter(|_| out.ok()) {
            if st.server.is_none() {
                return Err(self.why_unreachable(session));
            }
            if st.compatible == Some(false) {
                return Err(MuxError::Mismatch(mismatch_sentence(session, &st)));
            }
        }
        if let Ok(mut c) = self.checked.lock() {
            c.push(session.to_string());
        }
        Ok(())
    }

    /// `herdr --session <session> <args…>`; a non-zero exit becomes a `MuxError` (`ctx` names
    /// the seat or pane the call was about).
    fn call(&self, session: &str, args: &[&str], ctx: &Ctx) -> Result<RunOutput, MuxError> {
        self.ask(session, args, ctx).map_err(|r| r.error)
    }

    /// `call`, keeping herdr's error code for the callers that act on one.
    fn ask(&self, session: &str, args: &[&str], ctx: &Ctx) -> Result<RunOutput, Refusal> {
        self.ask_within(session, args, ctx, None)
    }

    /// `ask`, for a call that may take up to `limit`.
    fn ask_for(
        &self,
        session: &str,
        args: &[&str],
        ctx: &Ctx,
        limit: std::time::Duration,
    ) -> Result<RunOutput, Refusal> {
        self.ask_within(session, args, ctx, Some(limit))
    }

    fn ask_within(
        &self,
        session: &str,
        args: &[&str],
        ctx: &Ctx,
        limit: Option<std::time::Duration>,
    ) -> Result<RunOutput, Refusal> {
        self.check_session(session).map_err(|error| Refusal { code: None, error })?;
        let mut full = vec!["--session", session];
        full.extend_from_slice(args);
        let out = self.run_raw_for(&full, limit).map_err(|error| Refusal { code: None, error })?;
        if out.ok() {
            return Ok(out);
        }
        Err(self.error_of(session, args, &out, ctx))
    }

    fn error_of(&self, session: &str, args: &[&str], out: &RunOutput, ctx: &Ctx) -> Refusal {
        let (code, message) = match errors::read(&out.stderr_str(), out.code) {
            Failure::NotConnected => return Refusal { code: None, error: self.why_unreachable(session) },
            Failure::Denied(why) => return Refusal { code: None, error: sandboxed(session, why) },
            Failure::Other(first) => {
                let error = MuxError::Failed(format!("herdr {} failed: {first}", verb(args)));
                return Refusal { code: None, error };
            }
            Failure::Api { code, message } => (code, message),
        };
        let error = match &code {
            Code::ServerNotRunning => self.why_unreachable(session),
            Code::ServerUnavailable => {
                MuxError::ServerStopped(format!("the herdr server of session \"{session}\" is shutting down"))
            }
            Code::ProtocolMismatch => self.mismatch(session, &message),
            Code::AgentNotFound => no_agent(session, &ctx.seat),
            Code::PaneNotFound => MuxError::NoSeat(format!(
                "the pane {} of seat \"{}\" in herdr session \"{session}\" is gone",
                ctx.pane, ctx.seat
            )),
            c => MuxError::Failed(format!("herdr {} failed: {message} ({})", verb(args), c.word())),
        };
        Refusal { code: Some(code), error }
    }

    /// After a connection failure: a session herdr knows but is not running, or none at all.
    fn why_unreachable(&self, session: &str) -> MuxError {
        let stopped = MuxError::ServerStopped(format!("the herdr server of session \"{session}\" is not running"));
        let Ok(out) = self.run_raw(&["session", "list", "--json"]) else { return stopped };
        let Ok(doc) = serde_json::from_slice::<Value>(&out.stdout) else { return stopped };
        let Some(list) = doc.get("sessions").and_then(Value::as_array) else { return stopped };
        let name = |s: &Value| s.get("name").and_then(Value::as_str).map(str::to_string);
        if list.iter().any(|s| name(s).as_deref() == Some(session)) {
            return stopped;
        }
        // the sessions a seat could be named in: the running ones
        let running: Vec<String> =
            list.iter().filter(|s| s.get("running").and_then(Value::as_bool) == Some(true)).filter_map(name).collect();
        let known = if running.is_empty() {
            "; no herdr session is running".to_string()
        } else {
            format!("; the herdr sessions running are {}", running.join(", "))
        };
        MuxError::NoSession(format!("there is no herdr session \"{session}\"{known}"))
    }

    /// A call refused for a protocol mismatch: `status` names both versions.
    fn mismatch(&self, session: &str, message: &str) -> MuxError {
        let st =
            self.run_raw(&["--session", session, "status"]).ok().and_then(|o| SessionStatus::parse(&o.stdout_str()));
        match st.filter(|s| s.server.is_some() && s.compatible == Some(false)) {
            Some(st) => MuxError::Mismatch(mismatch_sentence(session, &st)),
            None => MuxError::Mismatch(format!(
                "herdr and the server of session \"{session}\" speak different protocols ({}); restart that server: herdr session stop {session}, then herdr session attach {session} (its panes' programs exit)",
                message.lines().next().unwrap_or("")
            )),
        }
    }

    /// The agent named `seat`. herdr 0.7.1 resolves a target by terminal id, pane id, then name
    /// OR label in one pass, so a seat named like another agent's label is "ambiguous": then
    /// the agent is found by its pane id (`pane` known) or by name in `agent list`. (0.8 takes
    /// only names and pane ids; the name check below is then merely harmless.)
    fn agent_get(&self, session: &str, seat: &str, pane: &str) -> Result<Value, MuxError> {
        let ctx = Ctx { seat: seat.into(), pane: pane.into() };
        let agent = match self.ask(session, &["agent", "get", seat], &ctx) {
            Ok(out) => agent_of(&out)?,
            Err(Refusal { code: Some(Code::AgentTargetAmbiguous), .. }) if pane.is_empty() => {
                let out = self.call(session, &["agent", "list"], &ctx)?;
                let doc = parse_json(&out, "agent list")?;
                let found = doc.pointer("/result/agents").and_then(Value::as_array).and_then(|list| {
                    list.iter().find(|a| a.get("name").and_then(Value::as_str) == Some(seat)).cloned()
                });
                found.ok_or_else(|| no_agent(session, seat))?
            }
            Err(Refusal { code: Some(Code::AgentTargetAmbiguous), .. }) => {
                agent_of(&self.call(session, &["agent", "get", pane], &ctx)?)?
            }
            Err(r) => return Err(r.error),
        };
        // herdr resolves a target by terminal id, name, label or pane id: only a name is a seat.
        if agent.get("name").and_then(Value::as_str) != Some(seat) {
            return Err(no_agent(session, seat));
        }
        Ok(agent)
    }

    fn process_info(&self, session: &str, pane_id: &str, seat: &str) -> Result<Value, MuxError> {
        let ctx = Ctx { seat: seat.into(), pane: pane_id.into() };
        let out = self.call(session, &["pane", "process-info", "--pane", pane_id], &ctx)?;
        let doc = parse_json(&out, "pane process-info")?;
        doc.pointer("/result/process_info").cloned().ok_or_else(|| unexpected("pane process-info", &out))
    }

    /// Whether the pane `pane_id` is there with nothing but its shell in the foreground — where
    /// an agent ran, its CLI has exited. `Some(shell pid)` then; `None` when the pane is gone or
    /// runs something else.
    fn back_at_shell(&self, session: &str, pane_id: &str, seat: &str) -> Result<Option<Option<u32>>, MuxError> {
        let info = match self.process_info(session, pane_id, seat) {
            Ok(i) => i,
            Err(MuxError::NoSeat(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let shell = info.get("shell_pid").and_then(Value::as_u64);
        let group = info.get("foreground_process_group_id").and_then(Value::as_u64);
        let foreground: Vec<u64> = info
            .get("foreground_processes")
            .and_then(Value::as_array)
            .map(|ps| ps.iter().filter_map(|p| p.get("pid").and_then(Value::as_u64)).collect())
            .unwrap_or_default();
        let only_shell = shell.is_some()
            && (group == shell || (!foreground.is_empty() && foreground.iter().all(|p| Some(*p) == shell)));
        Ok(only_shell.then(|| shell.map(|p| p as u32)))
    }
}

/// A connection to the session's server that this process was refused: a sandbox (Codex's
/// bubblewrap, a seccomp or Landlock policy) keeps it from the socket.
fn sandboxed(session: &str, why: &str) -> MuxError {
    MuxError::Sandboxed(format!("the herdr server of session \"{session}\" refused this process's connection ({why})"))
}

/// The sentence for a client and server that do not speak to each other.
fn mismatch_sentence(session: &str, st: &SessionStatus) -> String {
    let side = |s: &Side| {
        let v = s.version.map(|v| v.to_string()).unwrap_or_else(|| "of an unknown version".into());
        match s.protocol {
            Some(p) => format!("{v} (protocol {p})"),
            None => v,
        }
    };
    let server = st.server.unwrap_or(Side { version: None, protocol: None });
    let client_newer = match (st.client.protocol, server.protocol) {
        (Some(c), Some(s)) => c > s,
        _ => st.client.version > server.version,
    };
    let (here, there) = (side(&st.client), side(&server));
    let restart =
        format!("herdr session stop {session}, then herdr session attach {session} (its panes' programs exit)");
    if client_newer {
        format!("herdr here is {here} but the server of session \"{session}\" runs herdr {there}, which it cannot talk to; restart that server with this herdr: {restart}")
    } else {
        format!("herdr here is {here} but the server of session \"{session}\" runs herdr {there}, which it cannot talk to; run the herdr that started it (installed where team looks for it: docs/multiplexers.md), or restart that server with this herdr: {restart}")
    }
}

/// What an error is about, for its sentence.
struct Ctx {
    seat: String,
    pane: String,
}

fn no_agent(session: &str, seat: &str) -> MuxError {
    MuxError::NoSeat(format!("herdr session \"{session}\" has no agent named \"{seat}\""))
}

fn verb(args: &[&str]) -> String {
    args.iter().take(2).copied().collect::<Vec<_>>().join(" ")
}

fn parse_json(out: &RunOutput, what: &str) -> Result<Value, MuxError> {
    serde_json::from_slice(&out.stdout).map_err(|_| unexpected(what, out))
}

fn agent_of(out: &RunOutput) -> Result<Value, MuxError> {
    parse_json(out, "agent get")?.pointer("/result/agent").cloned().ok_or_else(|| unexpected("agent get", out))
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

    fn server(&self, session: &str, _pane: &str) -> Option<String> {
        // every call names its session (`herdr --session S`), and a pane of it has HERDR_SESSION
        Some(session.to_string())
    }

    fn locate(&self, session: &str, seat: &str) -> Result<PaneRef, MuxError> {
        let agent = match self.agent_get(session, seat, "") {
            Ok(a) => a,
            Err(MuxError::NoSeat(never)) => {
                // The name is gone. 0.8 clears it when its agent exits: the pane the seat was
                // last seen on, back at its shell, is an exited CLI (the profile reads it so);
                // otherwise the seat was never there.
                let Some(id) = (self.last_seen)(session, seat) else { return Err(MuxError::NoSeat(never)) };
                return match self.back_at_shell(session, &id, seat)? {
                    Some(shell_pid) => Ok(PaneRef { id, session: session.into(), seat: seat.into(), shell_pid }),
                    None => Err(MuxError::NoSeat(never)),
                };
            }
            Err(e) => return Err(e),
        };
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
        self.capture(pane, true)
    }

    fn read_screen(&self, pane: &PaneRef) -> Result<Capture, MuxError> {
        self.capture(pane, false)
    }

    fn prime(&self, pane: &PaneRef) {
        self.prime_visible(pane)
    }

    fn status(&self, pane: &PaneRef) -> Result<Option<StatusRead>, MuxError> {
        let agent = match self.agent_get(&pane.session, &pane.seat, &pane.id) {
            Ok(a) => a,
            // 0.8 clears the name of an exited agent; 0.7.1 keeps it and says `unknown`. The
            // seat's own pane back at its shell reads the same on both.
            Err(MuxError::NoSeat(m)) => {
                return match self.back_at_shell(&pane.session, &pane.id, &pane.seat)? {
                    Some(_) => Ok(Some(StatusRead { status: AgentStatus::Unknown, change: None })),
                    None => Err(MuxError::NoSeat(m)),
                };
            }
            Err(e) => return Err(e),
        };
        if agent.get("pane_id").and_then(Value::as_str) != Some(pane.id.as_str()) {
            return Err(MuxError::NoSeat(format!(
                "agent \"{}\" of herdr session \"{}\" moved from pane {}",
                pane.seat, pane.session, pane.id
            )));
        }
        let status = AgentStatus::parse(agent.get("agent_status").and_then(Value::as_str).unwrap_or("unknown"));
        Ok(Some(StatusRead { status, change: agent.get("state_change_seq").and_then(Value::as_u64) }))
    }

    fn type_text(&self, pane: &PaneRef, text: &str) -> Result<(), MuxError> {
        if text.is_empty() {
            return Ok(());
        }
        // No `--` before the text: herdr keeps a `--` in the argv it hands the command (0.7.1
        // src/session.rs, configure_from_args; 0.8.2 the same, recorded as
        // `pane-read-after-send-text-double-dash.txt`) and `pane send-text` joins every word
        // after the pane id, so `-- <text>` would type "-- <text>". The text goes as ONE
        // argument; only an argument that is itself `--`, `--session` or `--session=…` is read
        // as herdr's own, and such a text is refused rather than mangled.
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

    fn pane(&self, session: &str, id: &str) -> Result<PaneInfo, MuxError> {
        self.pane_info(session, id)
    }

    fn named(&self, session: &str, seat: &str) -> Result<Vec<PaneInfo>, MuxError> {
        self.named_panes(session, seat)
    }

    fn name_pane(&self, session: &str, id: &str, seat: &str) -> Result<bool, MuxError> {
        self.rename(session, id, seat)
    }

    fn sidebar(&self, pane: &PaneInfo, workspace_label: &str, display: &str) -> Result<(), MuxError> {
        self.sidebar_lines(pane, workspace_label, display)
    }

    fn open_team_seat(
        &self,
        session: &str,
        cwd: &std::path::Path,
        seat: &str,
        team: &str,
    ) -> Result<PaneInfo, MuxError> {
        self.open_in(session, cwd, seat, team)
    }

    fn team_panes(&self, session: &str, team: &str) -> Result<Vec<PaneInfo>, MuxError> {
        self.team_pane_list(session, team)
    }

    fn launch(&self, pane: &PaneRef, line: &str) -> Result<(), MuxError> {
        self.launch_in(pane, line)
    }

    fn close_pane(&self, session: &str, id: &str) -> Result<(), MuxError> {
        self.close(session, id)
    }

    fn press_key(&self, pane: &PaneRef, key: crate::vocab::key::Key) -> Result<(), MuxError> {
        self.key(pane, key)
    }

    fn pane_of_caller(&self, session: &str, ancestry: &[u32]) -> Result<Located, MuxError> {
        // Always asked: a caller that strips HERDR_* from its environment is still in its pane.
        let named = self.pane_hint.clone();
        self.find_caller(session, named.as_deref(), ancestry, &procfs::Live)
    }
}

#[cfg(test)]
pub(crate) mod replay;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_082;
#[cfg(test)]
mod tests_launch;
