//! The hooks a real CLI runs, as the double runs them (`--hooks <file>`): the file holds a
//! `{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}`
//! document, the shape Claude Code's settings and Codex's hooks.json share
//! (docs/inbox.md; measured on Claude Code 2.1.332 and Codex 0.171.0). Each command runs
//! through `sh -c` as a child of the double (so in the seat's pane's process tree), with the
//! pane's environment and one JSON object on stdin (`session_id`, `cwd`, `hook_event_name`, and
//! `tool_name` for PostToolUse, `prompt` for UserPromptSubmit, `stop_hook_active` for Stop).
//!
//! What the double does with an answer, as the CLIs do: a PostToolUse or UserPromptSubmit
//! `hookSpecificOutput.additionalContext` is handed to the model (recorded, nothing drawn); a
//! Stop `{"decision": "block", "reason": …}` keeps the turn going. Every run is one JSON line
//! in `--hook-log` (`event`, `exit`, `stdout`, `text`: what the model would have been handed,
//! `ms`: how long the hook ran, wall clock, as the CLI waits for it).
//!
//! The facts here are the vendors' (the captures and measurements), never `team`'s code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The hooks file and where runs are recorded.
pub(super) struct Hooks {
    file: PathBuf,
    log: Option<std::fs::File>,
    cwd: PathBuf,
    session: String,
}

/// What one event's hooks answered.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Answer {
    /// The text handed to the model (additionalContext, or a Stop block's reason).
    pub text: Option<String>,
    /// A Stop hook asked the turn to go on.
    pub block: bool,
}

impl Hooks {
    pub(super) fn new(file: PathBuf, log: Option<std::fs::File>, cwd: PathBuf) -> Hooks {
        Hooks { file, log, cwd, session: format!("fake-{}", std::process::id()) }
    }

    /// The commands the file lists for `event` (read again on every run, as the CLIs reload).
    fn commands(&self, event: &str) -> Vec<String> {
        let Ok(text) = std::fs::read_to_string(&self.file) else { return Vec::new() };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { return Vec::new() };
        let groups = v["hooks"][event].as_array().cloned().unwrap_or_default();
        groups
            .iter()
            .filter(|g| g["matcher"].as_str().is_none_or(|m| m == "*" || m == "Bash" || m.is_empty()))
            .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
            .filter_map(|h| h["command"].as_str().map(str::to_string))
            .collect()
    }

    /// Runs every hook of `event` (`extra`: the event's own stdin fields) and folds the answers.
    pub(super) fn run(&mut self, event: &str, extra: serde_json::Value) -> Answer {
        let mut input = serde_json::json!({
            "session_id": self.session,
            "cwd": self.cwd,
            "hook_event_name": event,
        });
        if let (Some(o), Some(e)) = (input.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        let mut answer = Answer::default();
        for cmd in self.commands(event) {
            let started = std::time::Instant::now();
            let (exit, stdout) = run_one(&cmd, &input.to_string(), &self.cwd);
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let v: Option<serde_json::Value> = serde_json::from_str(stdout.trim()).ok();
            let text = v.as_ref().and_then(|v| {
                v["hookSpecificOutput"]["additionalContext"]
                    .as_str()
                    .or_else(|| v["reason"].as_str())
                    .map(str::to_string)
            });
            let block = event == "Stop" && v.as_ref().is_some_and(|v| v["decision"] == "block");
            if let Some(f) = &mut self.log {
                let line = serde_json::json!({"event": event, "command": cmd, "exit": exit, "stdout": stdout, "text": text, "ms": ms});
                let _ = f.write_all(format!("{line}\n").as_bytes());
            }
            if exit == Some(0) {
                answer.block |= block;
                if let Some(t) = text {
                    answer.text = Some(match answer.text.take() {
                        Some(prev) => format!("{prev}\n{t}"),
                        None => t,
                    });
                }
            }
        }
        answer
    }
}

/// One command through `sh -c`, its stdin written whole then closed: (exit code, stdout).
fn run_one(cmd: &str, input: &str, cwd: &Path) -> (Option<i32>, String) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return (None, String::new()) };
    if let Some(mut stdin) = child.stdin.take() {
        // a hook that does not read its input closes the pipe: the CLIs carry on
        let _ = stdin.write_all(input.as_bytes());
    }
    match child.wait_with_output() {
        Ok(o) => (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned()),
        Err(_) => (None, String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_the_file_s_commands_and_reads_their_answers() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("settings.json");
        std::fs::write(
            &file,
            r#"{"hooks": {
                "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"hi\"}}'"}]},
                                {"matcher": "Edit", "hooks": [{"type": "command", "command": "echo never"}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"more\"}'"}]}]
            }}"#,
        )
        .unwrap();
        let log = d.path().join("hooks.log");
        let f = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        let mut h = Hooks::new(file, Some(f), d.path().to_path_buf());
        assert_eq!(
            h.run("PostToolUse", serde_json::json!({"tool_name": "Bash"})),
            Answer { text: Some("hi".into()), block: false }
        );
        assert_eq!(h.run("Stop", serde_json::json!({})), Answer { text: Some("more".into()), block: true });
        assert_eq!(h.run("UserPromptSubmit", serde_json::json!({})), Answer::default());
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    }
}
