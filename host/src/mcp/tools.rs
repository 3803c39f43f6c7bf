//! The tools `team mcp` serves and the reading of their arguments: `team_send` (the spec's
//! harness tool, `schema/tools/team_send.json`, whose `parameters` are served byte for byte as
//! its `inputSchema`) and `team_list` (the roster, and whom this caller may reach).
//!
//! Invariant: no argument names the sender, and none is taken that the schema does not name;
//! every argument problem is a sentence the model can act on (a tool error, never a protocol
//! error), decided before anything is sent.

use serde_json::{json, Map, Value};

use crate::outcome::TeamError;

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
}

impl Tool {
    pub const ALL: [Tool; 2] = [Tool::Send, Tool::List];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Send => "team_send",
            Tool::List => "team_list",
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
        ts => format!("only {}", ts.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" and ")),
    };
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
        Tool::Send => {
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
            let message = match args.get("message") {
                None => return Err(wrong(tool, "`message` is required: the text to send")),
                Some(Value::String(s)) => s,
                Some(_) => return Err(wrong(tool, "`message` is a string")),
            };
            if message.trim().is_empty() {
                return Err(wrong(tool, "the message is empty: nothing to send"));
            }
            if message.len() > crate::send::MAX_BODY {
                return Err(TeamError::refused(format!(
                    "the message is {} bytes, larger than a message may be ({} MiB, the largest frame a seat's socket takes); nothing was sent",
                    message.len(),
                    crate::send::MAX_BODY >> 20
                )));
            }
            if names.iter().any(|n| n.trim() == ALL) {
                if names.len() > 1 {
                    return Err(wrong(tool, ALL_ALONE));
                }
                return Ok(Call::Broadcast { message: message.clone() });
            }
            Ok(Call::Send { to: names, message: message.clone() })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Kind;

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
    }

    #[test]
    fn team_send_serves_the_spec_parameters() {
        let d = Tool::Send.definition();
        let shipped: Value = serde_json::from_str(TEAM_SEND_JSON).unwrap();
        assert_eq!(d["inputSchema"], shipped["parameters"]);
        assert_eq!(d["inputSchema"]["properties"]["to"]["type"], "array");
    }
}
