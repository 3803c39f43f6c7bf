//! JSON-RPC 2.0 as MCP uses it: one incoming line read into a request, a notification, a
//! client's response (ignored), or the error it must be answered with.
//!
//! Invariant: every line gets exactly one judgement and nothing here panics on input: a line
//! that is not JSON is a parse error (`id` null), a batch or a message that breaks JSON-RPC's
//! shape is an invalid request (its `id` echoed when it has a usable one).

use serde_json::{json, Value};

/// The JSON-RPC error codes this server answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// The line is not JSON (or not UTF-8).
    Parse,
    /// JSON, but not a JSON-RPC request (a batch, no `method`, a wrong `jsonrpc`, too large).
    InvalidRequest,
    /// A method this server does not serve.
    MethodNotFound,
    /// The method's params are not what it takes (an unknown tool).
    InvalidParams,
}

impl Code {
    pub fn number(self) -> i64 {
        match self {
            Code::Parse => -32700,
            Code::InvalidRequest => -32600,
            Code::MethodNotFound => -32601,
            Code::InvalidParams => -32602,
        }
    }
}

/// A JSON-RPC error: its code and the sentence that says what was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: Code,
    pub message: String,
}

impl RpcError {
    pub fn new(code: Code, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into() }
    }
}

/// One incoming line, judged.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request: answered exactly once, with its `id`.
    Request { id: Value, method: String, params: Value },
    /// A notification (no `id`): never answered.
    Notification { method: String },
    /// A response to a request of ours (the server sends none): ignored.
    Response,
    /// A line answered with an error (`id` null when none could be read).
    Invalid { id: Value, error: RpcError },
    /// A blank line: nothing to answer.
    Blank,
}

/// Reads one line.
pub fn parse(line: &[u8]) -> Incoming {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Blank;
    }
    let v: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Invalid {
                id: Value::Null,
                error: RpcError::new(Code::Parse, format!("the message is not JSON: {e}")),
            }
        }
    };
    let invalid = |id: Value, why: &str| Incoming::Invalid { id, error: RpcError::new(Code::InvalidRequest, why) };
    let Value::Object(o) = v else {
        return match v {
            Value::Array(_) => {
                invalid(Value::Null, "a batch (a JSON array) is not taken: send one JSON-RPC message a line")
            }
            _ => invalid(Value::Null, "a JSON-RPC message is a JSON object"),
        };
    };
    // an id is a string or a number; anything else cannot be echoed back
    let id = match o.get("id") {
        None => None,
        Some(i @ (Value::String(_) | Value::Number(_))) => Some(i.clone()),
        Some(_) => return invalid(Value::Null, "a request's id is a string or a number"),
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(id.unwrap_or(Value::Null), "the message does not say \"jsonrpc\": \"2.0\"");
    }
    let Some(method) = o.get("method") else {
        if id.is_some() && (o.contains_key("result") || o.contains_key("error")) {
            return Incoming::Response;
        }
        return invalid(id.unwrap_or(Value::Null), "the message names no method");
    };
    let Some(method) = method.as_str().map(str::to_string) else {
        return invalid(id.unwrap_or(Value::Null), "a method is a string");
    };
    let params = o.get("params").cloned().unwrap_or(Value::Null);
    if !matches!(params, Value::Null | Value::Object(_) | Value::Array(_)) {
        return invalid(id.unwrap_or(Value::Null), "params are an object or an array");
    }
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method },
    }
}

/// The answer to request `id`.
pub fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The error answer to request `id` (null when none could be read).
pub fn error(id: &Value, e: &RpcError) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code.number(), "message": e.message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &str) -> (Value, Code) {
        match parse(line.as_bytes()) {
            Incoming::Invalid { id, error } => (id, error.code),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn lines_are_judged() {
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            Incoming::Request { id: json!(7), method: "ping".into(), params: Value::Null }
        );
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { method: "notifications/initialized".into() }
        );
        assert_eq!(parse(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#), Incoming::Response);
        assert_eq!(parse(b"  "), Incoming::Blank);
        assert_eq!(code("{"), (Value::Null, Code::Parse));
        assert!(matches!(parse(b"\xff"), Incoming::Invalid { error: RpcError { code: Code::Parse, .. }, .. }));
        assert_eq!(code("[]"), (Value::Null, Code::InvalidRequest));
        assert_eq!(code("3"), (Value::Null, Code::InvalidRequest));
        assert_eq!(code(r#"{"id":1,"method":"ping"}"#), (json!(1), Code::InvalidRequest));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#), (Value::Null, Code::InvalidRequest));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":2,"method":5}"#), (json!(2), Code::InvalidRequest));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":2}"#), (json!(2), Code::InvalidRequest));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":2,"method":"x","params":3}"#), (json!(2), Code::InvalidRequest));
    }
}
