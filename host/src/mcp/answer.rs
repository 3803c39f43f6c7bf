//! MCP's encoding of what the server answers (`Answer`): each as its JSON-RPC message, a
//! tool's answer as MCP's tool result — its text (the words the command line says) beside
//! its structured document (the command's `--json` document), and whether it is a tool error.
//!
//! Invariants: a send, reply, inbox or ack is said here in the words its command says it
//! (`send::words`, `converse`); this file only encodes them. Every string of an answer — its
//! text, its structured document, an error's message — is escaped as the command line's
//! output is (`vocab::text`: a control or bidirectional character shown, never sent raw; a
//! field placed on one line of the text escaped with its newlines): a client decodes the JSON
//! and draws those strings (Codex draws a tool's result), and an address, an argument, a team
//! file's word or another seat's message is text from outside. Only the request's `id` is
//! echoed as the client sent it: it is how the client matches the answer.

use serde_json::{json, Map, Value};

use super::{rpc, tools::Tool, Answer, Recipient};
use crate::vocab::text::{escape_controls, one_line};

/// What the server tells a client about itself (`initialize`'s `instructions`).
const INSTRUCTIONS: &str = "team_send sends a message to other seats of your team (AI coding agents in their own terminal panes) as `team send` run from your pane would; team_list shows whom you can reach. team_inbox lists the messages waiting for you with their ids; answer one with team_reply (it goes to its sender), or say you read it with team_ack. A lead starts a seat the team file declares with team_add and stops seats with team_stop. You are the sender: the seat whose pane started this server.";

/// One answer as its JSON-RPC message (`version`: the server's, as `team --version` says it),
/// every string of its result or error escaped ([`shown`]).
pub fn render(id: &Value, a: Answer, version: &str) -> Value {
    let mut v = message(id, a, version);
    if let Value::Object(o) = &mut v {
        for k in ["result", "error"] {
            if let Some(part) = o.remove(k) {
                o.insert(k.to_string(), shown(part));
            }
        }
    }
    v
}

/// `v` with every string (and every key) escaped as the command line's output escapes text:
/// control and bidirectional characters shown (`\x1b]52;…`), never sent raw; newlines kept
/// (a field placed on one line of a text is escaped with its newlines where it is placed).
pub fn shown(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(escape_controls(&s, true).into_owned()),
        Value::Array(a) => Value::Array(a.into_iter().map(shown).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter().map(|(k, v)| (escape_controls(&k, true).into_owned(), shown(v))).collect::<Map<_, _>>(),
        ),
        other => other,
    }
}

/// One answer as its JSON-RPC message, its strings as the answer's parts say them.
fn message(id: &Value, a: Answer, version: &str) -> Value {
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
        // a run that ran is a successful call whatever each seat's line says (the document's
        // `ready`, each seat's `status`): only a refusal of the whole run is a tool error
        Answer::Added(r) => rpc::result(id, tool_result(crate::up::words::lines(&r), r.document(), false)),
        Answer::Stopped(r) => rpc::result(id, tool_result(crate::down::words::lines(&r), r.document(), false)),
    }
}

/// `team_list`'s text (the caller, then a line per seat: each field from the team file or the
/// registry escaped on its line, as `team send --list` escapes its cells) and its document.
fn listed(caller: &str, list: &crate::send::ListReport) -> (String, Value) {
    let mut text = format!("you are {}; {}", one_line(caller), list.summary());
    for s in &list.seats {
        let reach = s.reach.map(|r| r.word()).unwrap_or("-");
        let may = match &s.admitted_by {
            Some(rule) => format!("you may send to it ({})", one_line(rule)),
            None => "a send to it would be refused".into(),
        };
        let nick = s.nickname.as_deref().map(|n| format!(" {}", one_line(n))).unwrap_or_default();
        let role = s.role.as_deref().map(|r| format!(", {}", one_line(r))).unwrap_or_default();
        text.push_str(&format!("\n{}{nick} ({}{role}, reach {reach}): {may}", one_line(&s.name), one_line(&s.cli)));
        if let Some(p) = &s.problem {
            text.push_str(&format!("; {}", one_line(p)));
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

/// A recipient's line of `team_send`'s text: its sentence on one line (an address with a
/// newline adds no line), and the message's id.
fn recipient_line(r: &Recipient) -> String {
    let said = one_line(&sentence(r)).into_owned();
    match r.id() {
        Some(id) => format!("{said} [id {id}]"),
        None => said,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// OSC 52 (the clipboard), BEL, a C1 CSI, a right-to-left override, a newline.
    const HOSTILE: &str = "x\u{1b}]52;c;aGk=\u{7}\u{9b}31m\u{202e}\ny";

    /// Every decoded string of `v` that holds a control but the newline, or a bidi control.
    fn raw(v: &Value) -> Vec<String> {
        let bad = |s: &str| s.chars().any(|c| c != '\n' && crate::vocab::text::is_unsafe(c));
        match v {
            Value::String(s) if bad(s) => vec![s.clone()],
            Value::Array(a) => a.iter().flat_map(raw).collect(),
            Value::Object(o) => {
                o.iter().flat_map(|(k, v)| raw(&Value::String(k.clone())).into_iter().chain(raw(v))).collect()
            }
            _ => vec![],
        }
    }

    #[test]
    fn every_answer_is_shown_escaped_and_its_id_echoed_as_sent() {
        use crate::error::TeamError;
        let id = json!(HOSTILE);
        let answers = [
            Answer::Refused(TeamError::refused(format!("{HOSTILE}: it is not a declared seat")).with_repair(HOSTILE)),
            Answer::Error(rpc::RpcError::new(rpc::Code::MethodNotFound, format!("not {HOSTILE}"))),
            Answer::Sent {
                from: HOSTILE.into(),
                recipients: vec![Recipient { to: HOSTILE.into(), result: Err(TeamError::refused(HOSTILE)) }],
            },
        ];
        for a in answers {
            let v = render(&id, a, "1");
            assert_eq!(v["id"], id, "the id as the client sent it");
            let mut rest = v.clone();
            rest.as_object_mut().unwrap().remove("id");
            assert_eq!(raw(&rest), Vec::<String>::new(), "{v}");
            assert!(rest.to_string().contains("x\\\\x1b]52;c;aGk=\\\\x07\\\\u{9b}31m\\\\u{202e}"), "shown: {v}");
        }
        // a recipient's sentence stays on its line of the text
        let sent = Answer::Sent {
            from: "lead".into(),
            recipients: vec![Recipient { to: HOSTILE.into(), result: Err(TeamError::refused(HOSTILE)) }],
        };
        let text = render(&json!(1), sent, "1")["result"]["content"][0]["text"].as_str().unwrap().to_string();
        assert_eq!(text.lines().count(), 1, "{text:?}");
    }
}
