//! The fake seat's session transcript: the JSON-lines rows its CLI writes, in the vendor's
//! format (see `tests/data/transcripts/`), in the folder that CLI writes them to.
//!
//! Invariant: with `auto`, the folder is where the real CLI puts it — the same spelling the
//! host's transcript watch expands its profile's pattern to — so a test that finds the
//! fake's transcript proves the host would find the real one.

use super::seat::file_name;
use super::Cli;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One session's transcript file.
pub struct Transcript {
    cli: Cli,
    file: PathBuf,
    session: String,
    cwd: PathBuf,
    last_uuid: Option<String>,
    n: u64,
}

impl Transcript {
    /// A transcript in `dir`, or with `auto` where the CLI writes it (under `$HOME`).
    pub fn new(cli: Cli, dir: &str, cwd: &Path) -> Transcript {
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(cwd.as_os_str().as_encoded_bytes());
        let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
        let session = format!("{}-{}-4{}-8{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], &hex[17..20], &hex[20..32]);
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/"));
        let now = chrono::Utc::now();
        let dir = if dir == "auto" {
            match cli {
                Cli::Codex => home.join(".codex/sessions").join(now.format("%Y/%m/%d").to_string()),
                _ => home.join(".claude/projects").join(crate::typed::cwd_dashed(cwd)),
            }
        } else {
            PathBuf::from(dir)
        };
        let file = match cli {
            Cli::Codex => dir.join(format!("rollout-{}-{session}.jsonl", now.format("%Y-%m-%dT%H-%M-%S"))),
            _ => dir.join(format!("{session}.jsonl")),
        };
        let _ = std::fs::create_dir_all(&dir);
        Transcript { cli, file, session, cwd: cwd.to_path_buf(), last_uuid: None, n: 0 }
    }

    fn uuid(&mut self) -> String {
        self.n += 1;
        format!("{}-{:012x}", &self.session[..23], self.n)
    }

    fn append(&self, v: serde_json::Value) {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&self.file) {
            let mut line = v.to_string();
            line.push('\n');
            let _ = f.write_all(line.as_bytes());
        }
    }

    /// The user's prompt row.
    pub fn prompt(&mut self, text: &str) {
        use serde_json::json;
        let ts = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        match self.cli {
            Cli::Codex => self.append(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})),
            _ => {
                let uuid = self.uuid();
                self.append(json!({"parentUuid": self.last_uuid, "isSidechain": false, "type": "user", "message": {"role": "user", "content": text}, "uuid": uuid, "timestamp": ts, "userType": "external", "entrypoint": "cli", "cwd": self.cwd, "sessionId": self.session, "version": "2.1.197"}));
                self.last_uuid = Some(uuid);
            }
        }
    }

    /// The rows of the CLI reading the file at `path` (the tool call and its result).
    pub fn read(&mut self, path: &Path) {
        use serde_json::json;
        let ts = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let content = std::fs::read_to_string(path).unwrap_or_default();
        let lines = content.lines().count();
        match self.cli {
            Cli::Codex => {
                let cmd = format!("cat {}", path.display());
                self.append(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "arguments": json!({"cmd": cmd}).to_string(), "call_id": "call_fake"}}));
                self.append(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "item_completed", "item": {"type": "CommandExecution", "command": cmd, "status": "completed", "exit_code": 0, "aggregated_output": content, "parsed_cmd": [{"type": "read", "cmd": cmd, "name": file_name(path), "path": path}]}}}));
            }
            _ => {
                let tool_id = format!("toolu_fake{:04}", self.n);
                let a = self.uuid();
                self.append(json!({"parentUuid": self.last_uuid, "isSidechain": false, "message": {"role": "assistant", "type": "message", "content": [{"type": "tool_use", "id": tool_id, "name": "Read", "input": {"file_path": path}}]}, "type": "assistant", "uuid": a, "timestamp": ts, "cwd": self.cwd, "sessionId": self.session, "version": "2.1.197"}));
                let u = self.uuid();
                self.append(json!({"parentUuid": a, "isSidechain": false, "type": "user", "message": {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": content}]}, "uuid": u, "timestamp": ts, "toolUseResult": {"type": "text", "file": {"filePath": path, "content": content, "numLines": lines, "startLine": 1, "totalLines": lines}}, "sourceToolAssistantUUID": a, "cwd": self.cwd, "sessionId": self.session, "version": "2.1.197"}));
                self.last_uuid = Some(u);
            }
        }
    }
}
