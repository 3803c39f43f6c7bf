//! The MCP face (issue 22): `team mcp`, a stdio MCP server an agent CLI starts, serving the
//! `team_send` and `team_list` tools and the conversation's `team_inbox`, `team_reply` and
//! `team_ack` (`converse`, as `team inbox`, `team reply` and `team ack` run them), and the
//! seats' `team_add` and `team_stop` (`seats`, as `team add` and `team down` run them). The
//! protocol is MCP's JSON-RPC read directly with
//! serde_json (docs/mcp.md says why no SDK): `frame` reads lines, `rpc` judges them, this
//! module answers them with typed [`Answer`]s that `answer` encodes as JSON-RPC results.
//!
//! Invariants:
//! - the caller is found, never given: once when the server starts, from the process tree (the
//!   server is a child of the CLI in the seat's pane, found by `caller::find` as a shell
//!   `team send` is), and again on every tool call; a call whose caller is no longer the one
//!   the server started as is refused, and a caller `team send` would refuse (no terminal, a
//!   sandbox or a shared `codex app-server` daemon in the way) is refused on every call with
//!   the same sentence;
//! - a send is `send::run` for each recipient, as `team send` runs it: admitted, written down
//!   and logged the same way; its outcome (delivered, held, not-submitted, unreachable,
//!   refused) is a successful tool call that says so, never a protocol error;
//! - every line is answered at most once, and no input crashes the server (`frame` bounds a
//!   line, `rpc` judges any bytes).

pub mod answer;
pub mod approve;
pub mod doc;
pub mod frame;
pub mod install;
pub mod rpc;
pub mod seats;
pub mod tools;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::{Kind, TeamError};
use crate::send::{self, Ask, ListReport, Loadout, Outcome, Report, SendReport};
use crate::workspace::Workspace;

use rpc::{Code, Incoming, RpcError};
use tools::{Call, Tool};

/// The protocol revisions this server speaks, newest first: a client asking for one of them
/// gets it, any other client the newest (MCP's version negotiation).
pub const PROTOCOLS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

pub use crate::mux::procfs::{pane_env_from_ancestors, PANE_ENV};

/// What the server answers a request with (encoded by `answer`).
#[derive(Debug)]
pub enum Answer {
    /// `initialize`: the protocol revision agreed.
    Initialize { protocol: &'static str },
    /// `tools/list`.
    Tools,
    /// `ping`.
    Pong,
    /// `team_send`: one result per recipient, in the order named.
    Sent { from: String, recipients: Vec<Recipient> },
    /// `team_list`: the roster as `team send --list` computes it, for this caller.
    Listed { caller: String, list: ListReport },
    /// `team_inbox`: what waits for this caller.
    Inbox(crate::converse::inbox::Inbox),
    /// `team_reply`: where the reply went and how its send ended.
    Replied(Box<crate::converse::reply::Replied>),
    /// `team_ack`: the receipt written.
    Acked(crate::converse::ack::Acked),
    /// `team_add`: the `team add` run's report.
    Added(Box<crate::up::Report>),
    /// `team_stop`: the `team down` run's report.
    Stopped(Box<crate::down::Report>),
    /// A tool call refused as a whole before anything was sent (its arguments, its caller).
    Refused(TeamError),
    /// A JSON-RPC error.
    Error(RpcError),
}

/// One recipient of a `team_send`.
#[derive(Debug)]
pub struct Recipient {
    /// The address as the model wrote it.
    pub to: String,
    /// The send's report, or the refusal (or file error) it met before anything was written.
    pub result: Result<SendReport, TeamError>,
}

/// The outcome of a recipient whose run ended with an error of kind `k`: `refused` for one
/// that sent nothing on purpose (or could not be read), the send's own word for one that
/// reached no one, `failed` for a run stopped by anything else.
pub fn outcome_of(k: Kind) -> crate::vocab::outcome::Outcome {
    use crate::vocab::outcome::Outcome;
    // the kind's own outcome (`Kind::outcome`), but a usage error is a refusal here and a bad
    // file or a timeout a failure
    match k {
        Kind::Usage => Outcome::Refused,
        Kind::BadFile | Kind::Timeout => Outcome::Failed,
        k => k.outcome().unwrap_or(Outcome::Failed),
    }
}

impl Recipient {
    /// How the send to this recipient ended (docs/mcp.md's words).
    pub fn outcome(&self) -> crate::vocab::outcome::Outcome {
        match &self.result {
            Ok(r) => match &r.outcome {
                Outcome::Recorded { .. } => crate::vocab::outcome::Outcome::Delivered,
                // a dry run is never asked for here
                Outcome::DryRun(_) => crate::vocab::outcome::Outcome::Failed,
                carried => carried.ended().unwrap_or(crate::vocab::outcome::Outcome::Failed),
            },
            Err(e) => outcome_of(e.kind),
        }
    }

    /// The message id the send composed (none for a send refused before it had one).
    pub fn id(&self) -> Option<&str> {
        self.result.as_ref().ok().and_then(|r| r.id.as_deref())
    }

    /// The seat the address resolved to.
    pub fn seat(&self) -> Option<&str> {
        self.result.as_ref().ok().map(|r| r.seat.as_str())
    }
}

/// The server's state: where it runs and whom it was started by.
pub struct Server<'a> {
    cwd: PathBuf,
    /// The run's working set: its profile host and multiplexer serve every call; the team
    /// file, the registry and the caller are read afresh for each.
    ws: Workspace<'a>,
    /// The caller found at start.
    pub started_as: Caller,
}

impl<'a> Server<'a> {
    /// A server for a run in `cwd`: its caller found now, from the process tree.
    pub fn start(ctx: &'a Ctx, cwd: &Path) -> Server<'a> {
        let ws = Workspace::new(ctx);
        let started_as = match send::load(ctx, cwd) {
            Ok(l) => ws.caller_of(&l.reg, l.file.as_ref()),
            // every call reads the world again and meets the same error while it stands
            Err(e) => {
                Caller::Unplaced { why: format!("the team file or the registry could not be read: {}", e.message()) }
            }
        };
        Server { cwd: cwd.to_path_buf(), ws, started_as }
    }

    /// The answer to one incoming line (`None`: nothing is answered), with the id to answer.
    pub fn handle(&mut self, incoming: Incoming) -> Option<(Value, Answer)> {
        let (id, method, params) = match incoming {
            Incoming::Request { id, method, params } => (id, method, params),
            Incoming::Invalid { id, error } => return Some((id, Answer::Error(error))),
            Incoming::Notification { .. } | Incoming::Response | Incoming::Blank => return None,
        };
        let answer = match method.as_str() {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Value::as_str);
                let protocol = PROTOCOLS.iter().find(|p| Some(**p) == asked).copied().unwrap_or(PROTOCOLS[0]);
                Answer::Initialize { protocol }
            }
            "ping" => Answer::Pong,
            "tools/list" => Answer::Tools,
            "tools/call" => self.call(&params),
            m => Answer::Error(RpcError::new(
                Code::MethodNotFound,
                format!(
                    "this server serves initialize, ping, tools/list and tools/call, not {}",
                    crate::vocab::text::one_line(m)
                ),
            )),
        };
        Some((id, answer))
    }

    /// A line longer than [`frame::MAX_MESSAGE`]: its error.
    pub fn too_large(n: usize) -> RpcError {
        RpcError::new(
            Code::InvalidRequest,
            format!(
                "the message is {n} bytes, larger than a message to this server may be ({} MiB); it was not read",
                frame::MAX_MESSAGE >> 20
            ),
        )
    }

    fn call(&self, params: &Value) -> Answer {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Answer::Error(RpcError::new(Code::InvalidParams, "tools/call names no tool (params.name)"));
        };
        let Some(tool) = Tool::named(name) else {
            return Answer::Error(RpcError::new(
                Code::InvalidParams,
                format!(
                    "there is no tool {}: this server serves {}",
                    crate::vocab::text::one_line(name),
                    Tool::names()
                ),
            ));
        };
        let call = match tools::read(tool, params.get("arguments").unwrap_or(&Value::Null)) {
            Ok(c) => c,
            Err(e) => return Answer::Refused(e),
        };
        let (load, caller) = match self.caller_now() {
            Ok(x) => x,
            Err(e) => return Answer::Refused(e),
        };
        let means = send::Means::of(&self.ws);
        match call {
            Call::List => match send::run(&means, load, caller.clone(), &Ask::List, false) {
                Ok(Report::List(list)) => Answer::Listed { caller: caller.describe(), list },
                Ok(_) => Answer::Refused(TeamError::failed("a list run answered with a send")),
                Err(e) => Answer::Refused(e),
            },
            Call::Send { to, message } => self.send_each(&means, &caller, &to, &message),
            Call::Inbox => match load.file.as_ref() {
                None => Answer::Refused(crate::team_file::no_team_file(&self.cwd)),
                Some(file) => match crate::converse::inbox::inbox(self.ws.ctx, file, &caller) {
                    Ok(b) => Answer::Inbox(b),
                    Err(e) => Answer::Refused(e),
                },
            },
            Call::Reply { id, message, again } => {
                let ask = crate::converse::reply::Ask { id, body: message, dry_run: false, again };
                match crate::converse::reply::reply(&means, load, caller, &ask) {
                    Ok(r) => Answer::Replied(Box::new(r)),
                    Err(e) => Answer::Refused(e),
                }
            }
            Call::Ack { id, note } => match load.file.as_ref() {
                None => Answer::Refused(crate::team_file::no_team_file(&self.cwd)),
                Some(file) => match crate::converse::ack::ack(&means, file, &caller, &id, note.as_deref()) {
                    Ok(a) => Answer::Acked(a),
                    Err(e) => Answer::Refused(e),
                },
            },
            Call::Broadcast { message } => broadcast(&means, load, &caller, message),
            Call::Add { seat } => match seats::add(self.ws.ctx, &caller, &seat) {
                Ok(r) => Answer::Added(Box::new(r)),
                Err(e) => Answer::Refused(e),
            },
            Call::Stop { seats: names } => match seats::stop(self.ws.ctx, &caller, names) {
                Ok(r) => Answer::Stopped(Box::new(r)),
                Err(e) => Answer::Refused(e),
            },
        }
    }

    /// `team_send`: one send a recipient, each reading the world afresh as a run of `team
    /// send` would.
    fn send_each(&self, means: &send::Means, caller: &Caller, to: &[String], message: &str) -> Answer {
        let mut recipients = Vec::new();
        for target in to {
            let ask = Ask::Send { target: target.clone(), body: message.to_string(), wait: false };
            let result =
                send::load(self.ws.ctx, &self.cwd).and_then(|l| send::run(means, l, caller.clone(), &ask, false));
            let result = match result {
                Ok(Report::Send(r)) => Ok(*r),
                Ok(_) => Err(TeamError::failed("a send run answered with a list")),
                Err(e) => Err(e),
            };
            recipients.push(Recipient { to: target.clone(), result });
        }
        Answer::Sent { from: caller.from_name(), recipients }
    }

    /// The world read afresh and the caller found again: the one the server started as, or
    /// the refusal every tool answers with.
    fn caller_now(&self) -> Result<(Loadout, Caller), TeamError> {
        let load = send::load(self.ws.ctx, &self.cwd)?;
        let now = self.ws.caller_of(&load.reg, load.file.as_ref());
        if let Some(e) = crate::caller::refusal(&now) {
            return Err(e);
        }
        if !same(&now, &self.started_as) {
            return Err(TeamError::refused(format!(
                "this server was started by {}, and its caller is now {}; nothing was sent",
                self.started_as.describe(),
                now.describe()
            ))
            .with_repair("restart the agent's MCP server (or the agent) from the seat's own pane"));
        }
        Ok((load, now))
    }
}

/// Two findings of the caller name the same one (a seat: the same seat of the same team on
/// the same pane; anyone else: the same description).
fn same(a: &Caller, b: &Caller) -> bool {
    match (a, b) {
        (Caller::Seat { team, seat, pane, .. }, Caller::Seat { team: t, seat: s, pane: p, .. }) => {
            team == t && seat == s && pane == p
        }
        _ => a.describe() == b.describe(),
    }
}

/// `team_broadcast`: a send to every seat the caller may reach, one recipient a row.
fn broadcast(means: &send::Means, load: Loadout, caller: &Caller, message: String) -> Answer {
    let ask = Ask::All { body: message };
    match send::run(means, load, caller.clone(), &ask, false) {
        Ok(Report::All(f)) => {
            let recipients = f
                .rows
                .into_iter()
                .map(|r| match r {
                    send::all::Row::Sent(s) => Recipient { to: s.seat.clone(), result: Ok(*s) },
                    send::all::Row::Refused { seat, error } => Recipient { to: seat, result: Err(error) },
                })
                .collect();
            Answer::Sent { from: caller.from_name(), recipients }
        }
        Ok(_) => Answer::Refused(TeamError::failed("a broadcast answered with something else")),
        Err(e) => Answer::Refused(e),
    }
}
