//! MCP's encoding of what the server answers (`Answer`): each as its JSON-RPC message, a
//! tool's answer as MCP's tool result — its text (the words the command line says) beside
//! its structured document (the command's `--json` document), and whether it is a tool error.
//!
//! Invariant: a send, reply, inbox or ack is said here in the words its command says it
//! (`send::words`, `converse`); this file only encodes them.

use serde_json::{json, Value};

use super::{rpc, tools::Tool, Answer, Recipient};

/// What the server tells a client about itself (`initialize`'s `instructions`).
const INSTRUCTIONS: &str = "team_send sends a message to other seats of your team (AI coding agents in their own terminal panes) as `team send` run from your pane would; team_list shows whom you can reach. team_inbox lists the messages waiting for you with their ids; answer one with team_reply (it goes to its sender), or say you read it with team_ack. You are the sender: the seat whose pane started this server.";

/// One answer as its JSON-RPC message (`version`: the server's, as `team --version` says it).
pub fn render(id: &Value, a: Answer, version: &str) -> Value {
    match a {
        Answer::Initialize { protocol } => rpc::result(
            id,
            json!({
                "protocolVersion": protocol,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "team", "version": version},
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
        Answer::Inbox(b) => rpc::result(id, tool_result(b.text(), b.document(), false)),
        Answer::Acked(a) => {
            let line = a.line();
            rpc::result(id, tool_result(line.clone(), a.document(&line), false))
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
    match r.said(false) {
        Ok((line, status)) => (with_id(line.clone()), r.document(false, status, &line), false),
        Err(e) => {
            let outcome = super::outcome_of(e.kind);
            let mut text = with_id(e.message());
            if let Some(rep) = &e.repair() {
                text.push_str(&format!("\n{rep}"));
            }
            (
                text,
                r.document(false, crate::converse::reply::Status::of(&outcome), &e.message()),
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

/// The sentence `team send` prints for this outcome (its line, or its error's message).
fn sentence(r: &Recipient) -> String {
    match &r.result {
        Ok(r) => r.sentence(),
        Err(e) => e.message(),
    }
}
