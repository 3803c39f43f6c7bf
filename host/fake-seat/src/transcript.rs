//! The fake seat's session transcript: the JSON-lines rows its CLI writes, in the vendor's
//! format (see `tests/data/transcripts/`), in the folder that CLI writes them to.
//!
//! Invariant: with `auto`, the folder is where the real CLI puts it under the seat's checked
//! HOME, spelled by this crate's own encoding of the vendor's rule (`vendor.rs`), never by the
//! host's: a test that finds the fake's transcript where the host looks proves the host looks
//! where the real CLI writes. The folders are made at start without following a link; the file
//! is made at the first row, `O_EXCL | O_NOFOLLOW` (a restarted seat appends to its own).

use super::seat::file_name;
use crate::vendor::{self, Cli};
use crate::world;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One session's transcript file.
pub struct Transcript {
    cli: Cli,
    file: PathBuf,
    out: Option<std::fs::File>,
    session: String,
    cwd: PathBuf,
    last_uuid: Option<String>,
    n: u64,
}

impl Transcript {
    /// A transcript in `dir`, or with `auto` where the CLI writes it under `home`; its folder
    /// is made now (an `Err` names a link or a non-folder on the way).
    pub fn new(cli: Cli, dir: &str, cwd: &Path, home: &Path) -> Result<Transcript, String> {
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(cwd.as_os_str().as_encoded_bytes());
        let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
        let session = format!("{}-{}-4{}-8{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], &hex[17..20], &hex[20..32]);
        let now = chrono::Utc::now();
        let dir = if dir == "auto" {
            let rel = match cli {
                Cli::Codex => vendor::codex_sessions(now),
                _ => vendor::claude_projects(cwd),
            };
            world::ensure_dirs(home, &rel)?
        } else {
            let dir = PathBuf::from(dir);
            let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
                return Err(format!("--transcript {} names no folder", dir.display()));
            };
            world::ensure_dirs(parent, Path::new(name))?
        };
        let file = match cli {
            Cli::Codex => dir.join(vendor::codex_rollout(now, &session)),
            _ => dir.join(format!("{session}.jsonl")),
        };
        Ok(Transcript { cli, file, out: None, session, cwd: cwd.to_path_buf(), last_uuid: None, n: 0 })
    }

    fn uuid(&mut self) -> String {
        self.n += 1;
        format!("{}-{:012x}", &self.session[..23], self.n)
    }

    /// Appends one row; the file is made at the first (a leftover of an earlier run of the
    /// same seat is appended to, never followed if it is a link).
    fn append(&mut self, v: serde_json::Value) {
        if self.out.is_none() {
            self.out = world::create_new(&self.file, 0o600).or_else(|_| world::open_append(&self.file, 0o600)).ok();
        }
        if let Some(f) = &mut self.out {
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

    /// The path of the session's file (named in every hook's input).
    pub fn path(&self) -> &Path {
        &self.file
    }

    /// The rows the CLI writes as it hands its model a hook's `text` for `event`
    /// (`tests/data/transcripts/<cli>/hook-context.jsonl` holds the real ones): Claude Code a
    /// `hook_additional_context` attachment (a Stop hook's reason: a meta user row and a
    /// `hook_blocking_error` attachment); Codex a `developer` message (a Stop hook's reason: a
    /// `user` message wrapped in `<hook_prompt>`).
    pub fn hook_text(&mut self, event: &str, text: &str, hooks_file: &Path) {
        use serde_json::json;
        let ts = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        match (self.cli, event) {
            (Cli::Codex, "Stop") => {
                let wrapped =
                    format!("<hook_prompt hook_run_id=\"stop:1:{}\">{text}</hook_prompt>", hooks_file.display());
                self.append(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": wrapped}]}}));
            }
            (Cli::Codex, _) => {
                self.append(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": text}]}}));
            }
            (_, "Stop") => {
                let u = self.uuid();
                self.append(json!({"parentUuid": self.last_uuid, "isSidechain": false, "type": "user", "message": {"role": "user", "content": format!("Stop hook feedback:\n{text}")}, "isMeta": true, "rowSource": "hook", "uuid": u, "timestamp": ts, "sessionId": self.session, "version": "2.1.332"}));
                let a = self.uuid();
                self.append(json!({"parentUuid": u, "isSidechain": false, "attachment": {"type": "hook_blocking_error", "hookName": "Stop", "hookEvent": "Stop", "blockingError": {"blockingError": text, "command": "hook"}}, "type": "attachment", "uuid": a, "timestamp": ts, "sessionId": self.session, "version": "2.1.332"}));
                self.last_uuid = Some(a);
            }
            (_, _) => {
                let a = self.uuid();
                let name = if event == "PostToolUse" { "PostToolUse:Bash" } else { event };
                self.append(json!({"parentUuid": self.last_uuid, "isSidechain": false, "attachment": {"type": "hook_additional_context", "content": [text], "hookName": name, "hookEvent": event}, "type": "attachment", "uuid": a, "timestamp": ts, "sessionId": self.session, "version": "2.1.332"}));
                self.last_uuid = Some(a);
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
