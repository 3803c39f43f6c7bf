//! `team mcp`: its arguments, the stdio loop (a line in, at most one line out, each answer
//! encoded by `crate::mcp::answer`) and `install | status | remove`'s lines. This file decides
//! nothing: who the caller is, what a tool takes and what a send did are `crate::mcp`'s.
//!
//! Invariant: stdout carries only JSON-RPC messages, one a line (the transport); nothing is
//! written to stderr while serving, and the loop ends only at the end of its input (or when
//! its reader is gone), whatever the lines hold.

use std::io::BufRead;

use serde_json::Value;

use crate::ctx::Ctx;
use crate::mcp::{self, frame, install, rpc, Server};
use crate::output::Output;

/// Arguments of `team mcp`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "Without a subcommand: the server, run by an agent CLI (it speaks MCP over stdin and \
stdout), not by hand; the caller is the seat whose pane started the CLI that started it. \
install writes its entry where each seat's CLI reads it, project-level in the checkout, as its profile says: \
.mcp.json (Claude Code, Copilot CLI), .codex/config.toml (Codex), .gemini/settings.json, .qwen/settings.json, \
.grok/settings.json, opencode.json. docs/mcp.md says more.")]
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
            Ok(frame::Frame::Message(line)) => {
                server.handle(rpc::parse(&line)).map(|(id, a)| mcp::answer::render(&id, a, super::VERSION))
            }
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

/// `install | status | remove`: the team file of the cwd, each seat's row.
fn configure(action: install::Action, s: &Seats, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let ws = crate::workspace::Workspace::new(ctx);
    let (l, rows) = install::run_here(&ws, &s.seats, action)?;
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
    if action == install::Action::Install {
        text.push_str(&approvals(&ws, &l.file.profiles, &rows));
    }
    out.out(&text);
    Ok(0)
}

/// The approval a CLI asks a person for before it starts a server its checkout names (its
/// profile's `mcp-approval=<what it shows>`), one line a CLI whose entry was just written:
/// the person answers it in the seat's pane; team never does.
fn approvals(
    ws: &crate::workspace::Workspace,
    pins: &std::collections::BTreeMap<String, String>,
    rows: &[install::Row],
) -> String {
    let mut said: Vec<&str> = Vec::new();
    let mut text = String::new();
    for r in rows.iter().filter(|r| r.done == Some(install::Done::Written)) {
        if said.contains(&r.cli.as_str()) {
            continue;
        }
        said.push(&r.cli);
        let Ok((d, _)) = ws.profiles().description(&r.cli, pins) else { continue };
        if let Some(asks) = d.features.iter().find_map(|f| f.strip_prefix(MCP_APPROVAL)) {
            text.push_str(&format!(
                "{}: {}; a person answers it in each {} seat's pane (team never does).\n",
                crate::vocab::text::one_line(&r.cli),
                crate::vocab::text::one_line(asks),
                crate::vocab::text::one_line(&r.cli),
            ));
        }
    }
    text
}

/// The feature word a profile names its CLI's approval of a workspace MCP server with.
const MCP_APPROVAL: &str = "mcp-approval=";
