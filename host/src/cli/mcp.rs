//! `team mcp`: its arguments, the stdio loop (a line in, at most one line out) and the
//! rendering of what `crate::mcp` answers into MCP's JSON-RPC results. This file decides
//! nothing: who the caller is, what a tool takes and what a send did are `crate::mcp`'s.
//!
//! Invariant: stdout carries only JSON-RPC messages, one a line (the transport); nothing is
//! written to stderr while serving, and the loop ends only at the end of its input (or when
//! its reader is gone), whatever the lines hold.

use std::io::BufRead;

use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::mcp::{self, frame, install, rpc, tools::Tool, Answer, Recipient, Server};
use crate::output::Output;

/// Arguments of `team mcp`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "Without a subcommand: the server, run by an agent CLI (it speaks MCP over stdin and \
stdout), not by hand; the caller is the seat whose pane started the CLI that started it. \
install writes its entry where each seat's CLI reads it: Claude Code's .mcp.json, Codex's .codex/config.toml \
(project-level, in the checkout). docs/mcp.md says more.")]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
}

/// `team mcp install | status | remove`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Action {
    /// Write the server's entry where each seat's CLI reads it (merging; never clobbering).
    Install(Seats),
    /// Say, for each seat, whether its CLI's configuration runs this server.
    Status(Seats),
    /// Take the server's entry out (only this server's; the rest stays).
    Remove(Seats),
}

/// The seats an action covers.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Seats {
    /// Seats of the team file (all when none is named).
    pub seats: Vec<String>,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// What the server tells a client about itself (`initialize`'s `instructions`).
const INSTRUCTIONS: &str = "team_send sends a message to other seats of your team (AI coding agents in their own terminal panes) as `team send` run from your pane would; team_list shows whom you can reach. team_inbox lists the messages waiting for you with their ids; answer one with team_reply (it goes to its sender), or say you read it with team_ack. You are the sender: the seat whose pane started this server.";

/// Before the run's context is built: a CLI that starts its servers with a bare environment
/// (Codex) hides where the pane and the team's folders are, so they are read from the nearest
/// ancestor that has them (`mcp::pane_env_from_ancestors`; they say where to look, never who).
pub fn adopt_pane_env() {
    for (k, v) in mcp::pane_env_from_ancestors(|k| std::env::var(k).ok()) {
        std::env::set_var(k, v);
    }
}

impl Args {
    /// Whether an install, status or remove was asked for one JSON document.
    pub fn json(&self) -> bool {
        match &self.action {
            Some(Action::Install(s) | Action::Status(s) | Action::Remove(s)) => s.json,
            None => false,
        }
    }
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    match a.action {
        None => {}
        Some(Action::Install(s)) => return configure(install::Action::Install, &s, ctx, out),
        Some(Action::Status(s)) => return configure(install::Action::Status, &s, ctx, out),
        Some(Action::Remove(s)) => return configure(install::Action::Remove, &s, ctx, out),
    }
    // (a server whose folder cannot be read still answers: each tool call with the refusal)
    let cwd = ctx.cwd.clone().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let mut server = Server::start(ctx, &cwd);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    Ok(serve(&mut server, &mut input, out))
}

/// Serves `input` until it ends; exit 0, or 1 when the client's reader went away mid-answer.
pub fn serve(server: &mut Server, input: &mut impl BufRead, out: &mut Output) -> i32 {
    loop {
        let answer = match frame::read(input, frame::MAX_MESSAGE) {
            Ok(frame::Frame::End) => return 0,
            // the input broke (not a line the client sent): nothing more can be read
            Err(_) => return 1,
            Ok(frame::Frame::TooLarge(n)) => Some(rpc::error(&Value::Null, &Server::too_large(n))),
            Ok(frame::Frame::Message(line)) => server.handle(rpc::parse(&line)).map(|(id, a)| render(&id, a)),
        };
        if let Some(v) = answer {
            // one message a line (serde_json escapes every newline inside a string)
            out.json_line(&v);
            if out.closed() {
                return 1;
            }
        }
    }
}

/// One answer as its JSON-RPC message.
fn render(id: &Value, a: Answer) -> Value {
    match a {
        Answer::Initialize { protocol } => rpc::result(
            id,
            json!({
                "protocolVersion": protocol,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "team", "version": super::VERSION},
                "instructions": INSTRUCTIONS,
            }),
        ),
        Answer::Tools => {
            let tools: Vec<Value> = Tool::ALL.iter().map(|t| t.definition()).collect();
            rpc::result(id, json!({"tools": tools}))
        }
        Answer::Pong => rpc::result(id, json!({})),
        Answer::Error(e) => rpc::error(id, &e),
        Answer::Refused(e) => {
            let mut text = e.message();
            if let Some(r) = &e.repair() {
                text.push_str(&format!("\n{r}"));
            }
            rpc::result(id, tool_result(text, e.document("mcp"), true))
        }
        Answer::Sent { from, recipients } => {
            let text: Vec<String> = recipients.iter().map(recipient_line).collect();
            let all_refused = recipients.iter().all(|r| r.result.is_err());
            let rows: Vec<Value> = recipients.iter().map(recipient_doc).collect();
            rpc::result(id, tool_result(text.join("\n"), json!({"from": from, "recipients": rows}), all_refused))
        }
        Answer::Listed { caller, list } => {
            let (text, doc) = listed(&caller, &list);
            rpc::result(id, tool_result(text, doc, false))
        }
        Answer::Inbox(b) => rpc::result(id, tool_result(super::inbox::text(&b), super::inbox::doc(&b), false)),
        Answer::Acked(a) => {
            let line = super::ack::line(&a);
            rpc::result(id, tool_result(line.clone(), super::ack::doc(&a, &line), false))
        }
        Answer::Replied(r) => {
            let (text, doc, is_error) = replied(&r);
            rpc::result(id, tool_result(text, doc, is_error))
        }
    }
}

/// `team_list`'s text (the caller, then a line per seat) and its document.
fn listed(caller: &str, list: &crate::send::ListReport) -> (String, Value) {
    let mut text = format!("you are {caller}; {}", list.summary());
    for s in &list.seats {
        let reach = s.reach.map(|r| r.word()).unwrap_or("-");
        let may = match &s.admitted_by {
            Some(rule) => format!("you may send to it ({rule})"),
            None => "a send to it would be refused".into(),
        };
        let nick = s.nickname.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
        let role = s.role.as_deref().map(|r| format!(", {r}")).unwrap_or_default();
        text.push_str(&format!("\n{}{nick} ({}{role}, reach {reach}): {may}", s.name, s.cli));
        if let Some(p) = &s.problem {
            text.push_str(&format!("; {p}"));
        }
    }
    let doc = json!({
        "caller": caller,
        "project": list.context.as_ref().map(|c| c.0.clone()),
        "session": list.context.as_ref().map(|c| c.1.clone()),
        "seats": list.seats,
        "summary": list.summary(),
    });
    (text, doc)
}

/// `team_reply`'s text, document and whether it is a tool error: a reply held or unreachable is
/// a call that ran and says so; only a refusal (nothing sent) is an error.
fn replied(r: &crate::converse::reply::Replied) -> (String, crate::converse::reply::ReplyDoc, bool) {
    let sent = match &r.went {
        crate::converse::reply::Went::Seat(s) => s.id.clone(),
        crate::converse::reply::Went::Owner(o) => o.as_ref().map(|o| o.id.clone()),
    };
    let with_id = |line: String| match &sent {
        Some(i) => format!("{line} [id {i}]"),
        None => line,
    };
    match super::reply::said(r, false) {
        Ok((line, status)) => (with_id(line.clone()), super::reply::doc(r, false, status, &line), false),
        Err(e) => {
            let outcome = mcp::outcome_of(e.kind);
            let mut text = with_id(e.message());
            if let Some(rep) = &e.repair() {
                text.push_str(&format!("\n{rep}"));
            }
            (
                text,
                super::reply::doc(r, false, crate::converse::reply::Status::of(&outcome), &e.message()),
                outcome == crate::vocab::outcome::Outcome::Refused,
            )
        }
    }
}

fn tool_result(text: String, structured: impl serde::Serialize, is_error: bool) -> Value {
    json!({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": is_error})
}

fn recipient_line(r: &Recipient) -> String {
    match r.id() {
        Some(id) => format!("{} [id {id}]", sentence(r)),
        None => sentence(r),
    }
}

fn recipient_doc(r: &Recipient) -> Value {
    let repair = r.result.as_ref().err().and_then(|e| e.repair());
    json!({
        "to": r.to,
        "seat": r.seat(),
        "outcome": r.outcome(),
        "sentence": sentence(r),
        "id": r.id(),
        "repair": repair,
    })
}

/// `install | status | remove`: the team file of the cwd, each seat's row.
fn configure(action: install::Action, s: &Seats, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let ws = crate::workspace::Workspace::new(ctx);
    let rows = ws.team().and_then(|l| {
        let exe = std::env::current_exe()
            .map_err(|e| TeamError::failed(format!("this team's own path cannot be read: {e}")))?;
        install::run(l, &s.seats, &exe.display().to_string(), action).map(|rows| (l, rows))
    });
    let (l, rows) = rows?;
    if s.json {
        out.doc(&crate::mcp::doc::document(action, &l.file.project, &l.file.session, &rows));
        return Ok(0);
    }
    let mut text = crate::error::context_line(&l.file.project, &l.file.session);
    for r in &rows {
        let done = r.done.map(|d| format!(" → {}", d.word())).unwrap_or_default();
        text.push_str(&format!(
            "{}: {}{done} ({})\n",
            crate::vocab::text::one_line(&r.seat),
            r.state.word(),
            crate::vocab::text::one_line(&r.state.detail(r.place))
        ));
    }
    out.out(&text);
    Ok(0)
}

/// The sentence `team send` prints for this outcome (its line, or its error's message).
fn sentence(r: &Recipient) -> String {
    use crate::cli::send::{history_words, watch_words};
    use crate::send::Outcome;
    let r = match &r.result {
        Ok(r) => r,
        Err(e) => return e.message(),
    };
    let seat = &r.seat;
    match (&r.outcome, r.outcome.delivered()) {
        (_, Some(Some(n))) => format!("{seat}: delivered ({n}){}", history_words(&r.history)),
        (_, Some(None)) => format!("{seat}: delivered{}", history_words(&r.history)),
        (Outcome::Ended(e), _) if e.is_refused() => {
            format!("refused: {seat}: {}{}", e.reason(), history_words(&r.history))
        }
        (o, _) => match o.failure() {
            Some((_, reason)) => {
                format!("{seat}: {} ({reason}){}{}", o.word(), history_words(&r.history), watch_words(r))
            }
            None => format!("{seat}: {}", o.word()),
        },
    }
}
