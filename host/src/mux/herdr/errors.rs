//! herdr's failure outputs, read by their own form (recorded in `tests/data/herdr-0.7.1/` and
//! `tests/data/herdr-0.8.2/`): the same reading serves both versions, because the forms never
//! overlap.
//!
//! - an API error: one JSON line on stderr, `{"error":{code,message},"id"}` (the server's, keys
//!   sorted) or `{"id",…,"error":{…}}` (0.8's client-made ones: `server_not_running`,
//!   `protocol_mismatch`), or 0.7.1 `pane read`'s bare `{code,message}`;
//! - 0.7.1's connection failure: a Rust Debug string, `Error: Os { code: 2, kind: NotFound, … }`
//!   (0.8 says `server_not_running` in JSON instead — but only for NotFound and
//!   ConnectionRefused: any other I/O error of a socket command is returned from herdr's `main`
//!   and printed by Rust in that same Debug form on every version, herdr 0.8.2 `src/main.rs`);
//! - of those, a connection a sandbox refused: `kind: PermissionDenied` (EPERM, EACCES);
//! - anything else (a usage error, exit 2 on 0.8): its first line.

use serde_json::Value;

/// What a failed herdr call printed, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// herdr's own error code and message.
    Api { code: Code, message: String },
    /// herdr 0.7.1 could not reach the server (no socket, or nobody listening).
    NotConnected,
    /// The connection to the server's socket was refused to this process (a sandbox: EPERM or
    /// EACCES, on any version); the words say which.
    Denied(&'static str),
    /// Neither: the first line printed (or the exit status when nothing was).
    Other(String),
}

/// The error codes the adapter acts on; every other code is kept as its word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    /// 0.8: no server at the session's socket (stopped, or a session that does not exist).
    ServerNotRunning,
    /// 0.8: the server is shutting down.
    ServerUnavailable,
    /// 0.8 client, older server: the two speak different protocols.
    ProtocolMismatch,
    AgentNotFound,
    /// 0.7.1 only: a target that names several agents (a label).
    AgentTargetAmbiguous,
    /// 0.7.1: no detected agent to explain (an exited CLI).
    AgentExplainUnavailable,
    PaneNotFound,
    Other(String),
}

impl Code {
    fn of(word: &str) -> Code {
        match word {
            "server_not_running" => Code::ServerNotRunning,
            "server_unavailable" => Code::ServerUnavailable,
            "protocol_mismatch" => Code::ProtocolMismatch,
            "agent_not_found" => Code::AgentNotFound,
            "agent_target_ambiguous" => Code::AgentTargetAmbiguous,
            "agent_explain_unavailable" => Code::AgentExplainUnavailable,
            // 0.8's `agent start` says agent_pane_not_found for the same absence
            "pane_not_found" | "agent_pane_not_found" => Code::PaneNotFound,
            w => Code::Other(w.to_string()),
        }
    }

    /// herdr's own word for the code.
    pub fn word(&self) -> &str {
        match self {
            Code::ServerNotRunning => "server_not_running",
            Code::ServerUnavailable => "server_unavailable",
            Code::ProtocolMismatch => "protocol_mismatch",
            Code::AgentNotFound => "agent_not_found",
            Code::AgentTargetAmbiguous => "agent_target_ambiguous",
            Code::AgentExplainUnavailable => "agent_explain_unavailable",
            Code::PaneNotFound => "pane_not_found",
            Code::Other(w) => w,
        }
    }
}

/// Reads what a failed call printed on stderr (`code` is its exit code, for an empty stderr).
pub fn read(stderr: &str, code: Option<i32>) -> Failure {
    let first = stderr.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if let Ok(v) = serde_json::from_str::<Value>(first) {
        let e = v.get("error").unwrap_or(&v);
        if let Some(word) = e.get("code").and_then(Value::as_str) {
            let message = e.get("message").and_then(Value::as_str).unwrap_or("").to_string();
            return Failure::Api { code: Code::of(word), message };
        }
    }
    if first.starts_with("Error: Os {") {
        if first.contains("kind: PermissionDenied") {
            let eperm = first.contains("code: 1,");
            return Failure::Denied(if eperm { "operation not permitted" } else { "permission denied" });
        }
        return Failure::NotConnected;
    }
    if first.is_empty() {
        return Failure::Other(match code {
            Some(c) => format!("exit {c}"),
            None => "killed by a signal".to_string(),
        });
    }
    Failure::Other(first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mux::herdr::replay::printed_by_main;
    use std::path::PathBuf;

    fn recorded(set: &str, file: &str) -> String {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(set).join(file);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    fn code_of(set: &str, file: &str) -> Code {
        match read(&recorded(set, file), Some(1)) {
            Failure::Api { code, .. } => code,
            f => panic!("{set}/{file}: {f:?}"),
        }
    }

    #[test]
    fn every_recorded_shape_of_both_versions_reads() {
        let v071 = "herdr-0.7.1";
        let v082 = "herdr-0.8.2";
        // connection failures: 0.7.1's Debug text, 0.8's JSON code
        assert_eq!(
            read(&recorded(v071, "error-server-not-running-pane-read.stderr.txt"), Some(1)),
            Failure::NotConnected
        );
        assert_eq!(read(&recorded(v071, "error-session-unknown.stderr.txt"), Some(1)), Failure::NotConnected);
        for f in [
            "error-server-not-running-agent-get.stderr.json",
            "error-server-not-running-pane-read.stderr.json",
            "error-server-stopped-pane-list.stderr.json",
            "error-session-unknown.stderr.json",
            "error-default-session-not-running.stderr.json",
        ] {
            assert_eq!(code_of(v082, f), Code::ServerNotRunning, "{f}");
        }
        for f in ["cross-server071-agent-get.stderr.json", "cross-server071-pane-read.stderr.json"] {
            assert_eq!(code_of(v082, f), Code::ProtocolMismatch, "{f}");
        }
        // API errors: the server's envelope, and 0.7.1 pane read's bare object
        assert_eq!(code_of(v071, "error-pane-read-unknown.stderr.json"), Code::PaneNotFound);
        assert_eq!(code_of(v082, "error-pane-read-unknown.stderr.json"), Code::PaneNotFound);
        assert_eq!(code_of(v082, "error-agent-get-exited-name.stderr.json"), Code::AgentNotFound);
        assert_eq!(code_of(v071, "error-agent-get-ambiguous-label.stderr.json"), Code::AgentTargetAmbiguous);
        assert_eq!(code_of(v082, "error-agent-start-unknown-pane.stderr.json").word(), "pane_not_found");
        match read(&recorded(v082, "error-pane-send-keys-invalid-key.stderr.json"), Some(1)) {
            Failure::Api { code, message } => {
                assert_eq!((code.word(), message.as_str()), ("invalid_key", "unsupported key notakey"))
            }
            f => panic!("{f:?}"),
        }
        // 0.8's usage errors are plain text (exit 2); 0.7.1's a Debug string
        assert_eq!(
            read(&recorded(v082, "error-read-invalid-source.stderr.txt"), Some(2)),
            Failure::Other("invalid read source: bogus".into())
        );
        assert_eq!(read("", Some(3)), Failure::Other("exit 3".into()));
    }

    #[test]
    fn a_connection_a_sandbox_refused_reads_as_denied_on_both_versions() {
        assert_eq!(read(&printed_by_main(13), Some(1)), Failure::Denied("permission denied"));
        assert_eq!(read(&printed_by_main(1), Some(1)), Failure::Denied("operation not permitted"));
        // the recorded forms of a server that is not there stay what they were
        assert_eq!(read(&printed_by_main(2), Some(1)), Failure::NotConnected);
        assert_eq!(read(&printed_by_main(111), Some(1)), Failure::NotConnected);
        assert_eq!(
            printed_by_main(2).trim_end(),
            recorded("herdr-0.7.1", "error-server-not-running-pane-read.stderr.txt").trim_end(),
            "std's form is the recorded one"
        );
    }
}
