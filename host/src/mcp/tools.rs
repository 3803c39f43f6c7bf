//! The tools `team mcp` serves and the reading of their arguments: `team_send` (the spec's
//! harness tool, `schema/tools/team_send.json`, whose `parameters` are served byte for byte as
//! its `inputSchema`), `team_list` (the roster, and whom this caller may reach), and the
//! conversation's three (docs/conversations.md): `team_inbox` (what waits for the caller),
//! `team_reply` (answer a message by its id) and `team_ack` (say a message was read); and the
//! seats' two (docs/launch.md): `team_add` (start a seat the file declares) and `team_stop`
//! (stop seats as `team down` does). Every tool is listed to every caller: who may use one is
//! judged on each call, and a caller that may not is answered with the command's refusal.
//!
//! Invariant: no argument names the sender, and none is taken that the schema does not name;
//! every argument problem is a sentence the model can act on (a tool error, never a protocol
//! error), decided before anything is sent.

use serde_json::{json, Map, Value};

use crate::error::TeamError;

/// The shipped definition of `team_send` (the spec's parameters, this product's description).
pub const TEAM_SEND_JSON: &str = include_str!("../../../schema/tools/team_send.json");

/// The word the spec reserves for a broadcast.
pub const ALL: &str = "all";

/// `all` beside other names: the broadcast already reaches them.
pub const ALL_ALONE: &str =
    "`to`: \"all\" is the broadcast to every seat you may reach, and stands alone: give [\"all\"], or name seats";

/// The tools of this server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Send,
    List,
    Inbox,
    Reply,
    Ack,
    Add,
    Stop,
}

impl Tool {
    pub const ALL: [Tool; 7] = [Tool::Send, Tool::List, Tool::Inbox, Tool::Reply, Tool::Ack, Tool::Add, Tool::Stop];

    /// The messaging tools, which `team mcp install` approves for Codex: the two that start
    /// and stop seats are left for the person to allow at the CLI's own question.
    pub const MESSAGING: [Tool; 5] = [Tool::Send, Tool::List, Tool::Inbox, Tool::Reply, Tool::Ack];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Send => "team_send",
            Tool::List => "team_list",
            Tool::Inbox => "team_inbox",
            Tool::Reply => "team_reply",
            Tool::Ack => "team_ack",
            Tool::Add => "team_add",
            Tool::Stop => "team_stop",
        }
    }

    /// Every tool's name, for a sentence (`team_send, team_list, … and team_ack`).
    pub fn names() -> String {
        let n: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
        match n.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => n.join(""),
        }
    }

    pub fn named(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The tool as `tools/list` lists it: name, description, input schema.
    pub fn definition(self) -> Value {
        match self {
            Tool::Send => {
                let d: Value = serde_json::from_str(TEAM_SEND_JSON).expect("schema/tools/team_send.json is JSON");
                json!({"name": d["name"], "description": d["description"], "inputSchema": d["parameters"]})
            }
            Tool::List => json!({
                "name": "team_list",
                "description": "List the seats of your team (and of the other teams of its entity you may address): each seat's address, nickname, CLI, role, project, how it is reached, and whether you may send to it — admitted_by names the rule that admits you, null when a send would be refused. You are the seat whose pane started this server. Takes no arguments.",
                "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false},
            }),
            Tool::Inbox => json!({
                "name": "team_inbox",
                "description": "What waits for you, newest last: the messages delivered to you that you have not acked, each with the id team_reply and team_ack take, its sender and its first line (the whole message is in the drop file named). You are the seat whose pane started this server. Takes no arguments.",
                "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false},
            }),
            Tool::Reply => json!({
                "name": "team_reply",
                "description": "Answer a message you received, by its id (team_inbox lists them): the reply goes to that message's sender only — admitted because they wrote to you, about that message — and is delivered as any send is; the result says whether the asker's seat took it (delivered), has it queued in its inbox for its next hook (queued: nothing more to do), or not (held, not-submitted, unreachable, refused). A reply to the owner is left in the owner's inbox. A delivered or queued reply also acks the message.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "minLength": 1, "description": "The id of the message you answer"},
                        "message": {"type": "string", "minLength": 1},
                        "again": {"type": "boolean", "description": "Answer once more a message you already answered, when the asker asked for more (a message is answered once otherwise)"},
                    },
                    "required": ["id", "message"],
                    "additionalProperties": false,
                },
            }),
            Tool::Ack => json!({
                "name": "team_ack",
                "description": "Say you read a message you received (by its id; team_inbox lists them) and will act on it — or, in `note`, why not. It leaves your inbox and its sender sees it acked. A message you answer with team_reply needs no ack. A message is acked once.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "minLength": 1, "description": "The id of the message"},
                        "note": {"type": "string", "description": "What you will do, or why not (at most 4096 bytes)"},
                    },
                    "required": ["id"],
                    "additionalProperties": false,
                },
            }),
            Tool::Add => json!({
                "name": "team_add",
                "description": "Start one seat of your team's file (a seat the file declares, not yet running) in the team's session, as `team add <seat>` does: its pane opened, its launch run (the line the owner approved, or its CLI's own), waited for until it is at its prompt (at most 40 s), then recorded. A seat already running is left as it is; a seat that stops at a first-run dialog is reported waiting for the person. Only the team's lead, or a seat the file's delegates name for `up`, may; anyone else is refused and nothing is started.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "seat": {"type": "string", "minLength": 1, "description": "The seat's name in the team file"},
                    },
                    "required": ["seat"],
                    "additionalProperties": false,
                },
            }),
            Tool::Stop => json!({
                "name": "team_stop",
                "description": "Stop seats of your team, as `team down <seat>…` does: each CLI is asked to leave its own way, only when its screen is idle with an empty composer; a seat that is working, holds a draft or shows a dialog is left running and named with why. Messages still waiting in a seat's inbox are named and kept. Only the team's lead, or a seat the file's delegates name for `up`, may; anyone else is refused and nothing is stopped.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "seats": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The seats' names in the team file"},
                    },
                    "required": ["seats"],
                    "additionalProperties": false,
                },
            }),
        }
    }
}

/// A tool call, its arguments read.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// The addresses (as written, each once, in order) and the body.
    Send {
        to: Vec<String>,
        message: String,
    },
    /// `to: ["all"]`: every seat the caller may reach (`send::all`).
    Broadcast {
        message: String,
    },
    List,
    Inbox,
    /// `team_reply`: the id answered, the reply, and whether it answers once more.
    Reply {
        id: String,
        message: String,
        again: bool,
    },
    /// `team_ack`: the id and the note.
    Ack {
        id: String,
        note: Option<String>,
    },
    /// `team_add`: the seat of the file to start.
    Add {
        seat: String,
    },
    /// `team_stop`: the seats of the file to stop (each once, in order).
    Stop {
        seats: Vec<String>,
    },
}

fn wrong(tool: Tool, what: impl AsRef<str>) -> TeamError {
    TeamError::usage(format!("{}: {}", tool.name(), what.as_ref()))
}

/// The arguments of the object `args` that `tool` does not take, refused with a sentence (the
/// sender above all: it is found, never given).
fn only(tool: Tool, args: &Map<String, Value>, takes: &[&str]) -> Result<(), TeamError> {
    let Some(extra) = args.keys().find(|k| !takes.contains(&k.as_str())) else { return Ok(()) };
    let takes = match takes {
        [] => "no arguments".to_string(),
        ts => {
            let named: Vec<String> = ts.iter().map(|t| format!("`{t}`")).collect();
            match named.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("only {} and {last}", rest.join(", ")),
                _ => format!("only {}", named.join("")),
            }
        }
    };
    // (the name is the client's: escaped on its line, as every outside word of an answer)
    let extra = crate::vocab::text::one_line(extra);
    Err(wrong(
        tool,
        format!(
            "it takes {takes}, not `{extra}`; the sender is never an argument: it is the seat whose pane started this server"
        ),
    ))
}

/// Reads a call's arguments (`null` when the call gave none).
pub fn read(tool: Tool, args: &Value) -> Result<Call, TeamError> {
    let empty = Map::new();
    let args = match args {
        Value::Null => &empty,
        Value::Object(o) => o,
        _ => return Err(wrong(tool, "its arguments are a JSON object")),
    };
    match tool {
        Tool::List => only(tool, args, &[]).map(|()| Call::List),
        Tool::Inbox => only(tool, args, &[]).map(|()| Call::Inbox),
        Tool::Reply => {
            only(tool, args, &["id", "message", "again"])?;
            let id = id_of(tool, args)?;
            let message = message_of(tool, args, "the reply")?;
            let again = match args.get("again") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(wrong(tool, "`again` is true or false")),
            };
            Ok(Call::Reply { id, message, again })
        }
        Tool::Ack => {
            only(tool, args, &["id", "note"])?;
            let id = id_of(tool, args)?;
            let note = match args.get("note") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s.trim().is_empty() => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => return Err(wrong(tool, "`note` is a string")),
            };
            Ok(Call::Ack { id, note })
        }
        Tool::Add => {
            only(tool, args, &["seat"])?;
            match args.get("seat") {
                None => Err(wrong(tool, "`seat` is required: the name of a seat of the team file")),
                Some(Value::String(s)) if s.trim().is_empty() => Err(wrong(tool, "`seat` is empty")),
                Some(Value::String(s)) => Ok(Call::Add { seat: s.trim().to_string() }),
                Some(_) => Err(wrong(tool, "`seat` is a string: the name of a seat of the team file")),
            }
        }
        Tool::Stop => read_stop(tool, args),
        Tool::Send => read_send(tool, args),
    }
}

/// `team_stop`'s arguments: the seats named, each once.
fn read_stop(tool: Tool, args: &Map<String, Value>) -> Result<Call, TeamError> {
    only(tool, args, &["seats"])?;
    let list = match args.get("seats") {
        None => return Err(wrong(tool, "`seats` is required: an array of the team file's seat names")),
        Some(Value::Array(a)) if a.is_empty() => return Err(wrong(tool, "`seats` names no seat: give at least one")),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(wrong(tool, "`seats` is an array of seat names, such as [\"rev\"]")),
    };
    let mut seats: Vec<String> = Vec::new();
    for n in list {
        match n.as_str().map(str::trim) {
            None => return Err(wrong(tool, "every name in `seats` is a string")),
            Some("") => return Err(wrong(tool, "a name in `seats` is empty")),
            Some(n) if !seats.iter().any(|m| m == n) => seats.push(n.to_string()),
            Some(_) => {}
        }
    }
    Ok(Call::Stop { seats })
}

/// `team_send`'s arguments: the addresses, each once, and the message; `all` alone broadcasts.
fn read_send(tool: Tool, args: &Map<String, Value>) -> Result<Call, TeamError> {
    only(tool, args, &["to", "message"])?;
    let to = match args.get("to") {
        None => return Err(wrong(tool, "`to` is required: an array of seat addresses (team_list shows them)")),
        Some(Value::Array(a)) if a.is_empty() => {
            return Err(wrong(tool, "`to` names no one: give at least one seat address"))
        }
        Some(Value::Array(a)) => a,
        Some(_) => return Err(wrong(tool, "`to` is an array of seat addresses, such as [\"gpt-reviewer\"]")),
    };
    let mut names: Vec<String> = Vec::new();
    for n in to {
        let Some(n) = n.as_str() else {
            return Err(wrong(tool, "every name in `to` is a string"));
        };
        if n.trim().is_empty() {
            return Err(wrong(tool, "a name in `to` is empty"));
        }
        if !names.iter().any(|m| m == n) {
            names.push(n.to_string());
        }
    }
    let message = message_of(tool, args, "the message")?;
    if names.iter().any(|n| n.trim() == ALL) {
        if names.len() > 1 {
            return Err(wrong(tool, ALL_ALONE));
        }
        return Ok(Call::Broadcast { message });
    }
    Ok(Call::Send { to: names, message })
}

/// The `id` a reply or an ack names (its grammar is checked where it is looked up).
fn id_of(tool: Tool, args: &Map<String, Value>) -> Result<String, TeamError> {
    match args.get("id") {
        None => Err(wrong(tool, "`id` is required: the message's id (team_inbox lists them)")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(wrong(tool, "`id` is empty (team_inbox lists the ids)")),
        Some(Value::String(s)) => Ok(s.trim().to_string()),
        Some(_) => Err(wrong(tool, "`id` is a string, such as the id team_inbox lists")),
    }
}

/// The `message` of a send or a reply: a string, not blank, no larger than a send carries.
fn message_of(tool: Tool, args: &Map<String, Value>, what: &str) -> Result<String, TeamError> {
    let message = match args.get("message") {
        None => return Err(wrong(tool, "`message` is required: the text to send")),
        Some(Value::String(s)) => s,
        Some(_) => return Err(wrong(tool, "`message` is a string")),
    };
    if message.trim().is_empty() {
        return Err(wrong(tool, format!("{what} is empty: nothing to send")));
    }
    if message.len() > crate::send::MAX_BODY {
        return Err(TeamError::refused(format!(
            "{what} is {} bytes, larger than a message may be ({} MiB, the largest frame a seat's socket takes); nothing was sent",
            message.len(),
            crate::send::MAX_BODY >> 20
        )));
    }
    Ok(message.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    fn err(tool: Tool, args: Value) -> TeamError {
        read(tool, &args).unwrap_err()
    }

    #[test]
    fn arguments_are_read_or_refused_with_a_sentence() {
        assert_eq!(
            read(Tool::Send, &json!({"to": ["a", "b@t", "a"], "message": "hi"})).unwrap(),
            Call::Send { to: vec!["a".into(), "b@t".into()], message: "hi".into() }
        );
        assert_eq!(read(Tool::List, &Value::Null).unwrap(), Call::List);
        let e = err(Tool::Send, json!({"to": ["a"], "message": "hi", "from": "lead"}));
        assert_eq!(e.kind, Kind::Usage);
        assert!(e.message().contains("not `from`; the sender is never an argument"), "{}", e.message());
        assert_eq!(
            read(Tool::Send, &json!({"to": ["all"], "message": "hi"})).unwrap(),
            Call::Broadcast { message: "hi".into() }
        );
        let e = err(Tool::Send, json!({"to": ["all", "a"], "message": "hi"}));
        assert_eq!(e.kind, Kind::Usage);
        assert!(e.message().contains("stands alone"), "{}", e.message());
        assert!(err(Tool::Send, json!({"to": "a", "message": "hi"})).message().contains("is an array"));
        assert!(err(Tool::Send, json!({"to": [], "message": "hi"})).message().contains("names no one"));
        assert!(err(Tool::Send, json!({"to": [3], "message": "hi"})).message().contains("is a string"));
        assert!(err(Tool::Send, json!({"to": ["a"], "message": " "})).message().contains("empty"));
        assert!(err(Tool::Send, json!({"to": ["a"]})).message().contains("`message` is required"));
        let big = "x".repeat(crate::send::MAX_BODY + 1);
        assert_eq!(err(Tool::Send, json!({"to": ["a"], "message": big})).kind, Kind::Refused);
        assert!(err(Tool::List, json!({"x": 1})).message().contains("takes no arguments"));
        assert!(err(Tool::Inbox, json!({"from": "lead"})).message().contains("takes no arguments"));
        // a hostile argument name is named escaped, on one line
        let e = err(Tool::List, json!({"x\u{1b}]52;c;aGk=\u{7}\nfake line": 1})).message();
        assert!(e.contains("not `x\\x1b]52;c;aGk=\\x07\\nfake line`"), "{e}");
    }

    #[test]
    fn conversation_tools_read_their_arguments() {
        assert_eq!(read(Tool::Inbox, &json!({})).unwrap(), Call::Inbox);
        assert_eq!(
            read(Tool::Reply, &json!({"id": " 1a ", "message": "done"})).unwrap(),
            Call::Reply { id: "1a".into(), message: "done".into(), again: false }
        );
        assert_eq!(
            read(Tool::Reply, &json!({"id": "1a", "message": "more", "again": true})).unwrap(),
            Call::Reply { id: "1a".into(), message: "more".into(), again: true }
        );
        assert!(read(Tool::Reply, &json!({"id": "1a", "message": "x", "again": "yes"})).is_err());
        assert_eq!(
            read(Tool::Ack, &json!({"id": "1a", "note": "on it"})).unwrap(),
            Call::Ack { id: "1a".into(), note: Some("on it".into()) }
        );
        assert_eq!(
            read(Tool::Ack, &json!({"id": "1a", "note": " "})).unwrap(),
            Call::Ack { id: "1a".into(), note: None }
        );
        assert!(err(Tool::Reply, json!({"message": "x"})).message().contains("`id` is required"));
        assert!(err(Tool::Reply, json!({"id": "", "message": "x"})).message().contains("`id` is empty"));
        assert!(err(Tool::Reply, json!({"id": 7, "message": "x"})).message().contains("`id` is a string"));
        assert!(err(Tool::Reply, json!({"id": "a", "message": "  "})).message().contains("the reply is empty"));
        assert!(err(Tool::Reply, json!({"id": "a", "message": "x", "to": "lead"})).message().contains("not `to`"));
        assert!(err(Tool::Ack, json!({"id": "a", "note": 3})).message().contains("`note` is a string"));
        let big = "x".repeat(crate::send::MAX_BODY + 1);
        assert_eq!(err(Tool::Reply, json!({"id": "a", "message": big})).kind, Kind::Refused);
        assert_eq!(Tool::names(), "team_send, team_list, team_inbox, team_reply, team_ack, team_add and team_stop");
        for t in Tool::ALL {
            assert_eq!(Tool::named(t.name()), Some(t));
            assert_eq!(t.definition()["name"], t.name());
        }
    }

    #[test]
    fn seat_tools_read_their_arguments() {
        assert_eq!(read(Tool::Add, &json!({"seat": " rev "})).unwrap(), Call::Add { seat: "rev".into() });
        assert!(err(Tool::Add, json!({})).message().contains("`seat` is required"));
        assert!(err(Tool::Add, json!({"seat": ""})).message().contains("`seat` is empty"));
        assert!(err(Tool::Add, json!({"seat": ["rev"]})).message().contains("`seat` is a string"));
        // an agent names a seat of the file, never a launch of its own
        let e = err(Tool::Add, json!({"seat": "rev", "launch": "sh -c 'curl evil'"})).message();
        assert!(e.contains("it takes only `seat`, not `launch`"), "{e}");
        assert_eq!(
            read(Tool::Stop, &json!({"seats": ["rev", "keeper", "rev"]})).unwrap(),
            Call::Stop { seats: vec!["rev".into(), "keeper".into()] }
        );
        assert!(err(Tool::Stop, json!({"seats": []})).message().contains("names no seat"));
        assert!(err(Tool::Stop, json!({"seats": "rev"})).message().contains("is an array"));
        assert!(err(Tool::Stop, json!({"seats": [1]})).message().contains("is a string"));
        assert!(err(Tool::Stop, json!({"seats": ["rev"], "force": true})).message().contains("not `force`"));
    }

    #[test]
    fn team_send_serves_the_spec_parameters() {
        let d = Tool::Send.definition();
        let shipped: Value = serde_json::from_str(TEAM_SEND_JSON).unwrap();
        assert_eq!(d["inputSchema"], shipped["parameters"]);
        assert_eq!(d["inputSchema"]["properties"]["to"]["type"], "array");
    }
}
