//! The hooks a real CLI runs, as the double runs them (`--hooks <file>`): the file holds a
//! `{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}`
//! document, the shape Claude Code's settings and Codex's hooks.json share
//! (docs/inbox.md; measured on Claude Code 2.1.332 and Codex 0.171.0). Each command runs
//! through `sh -c` as a child of the double (so in the seat's pane's process tree), with the
//! pane's environment and one JSON object on stdin (`session_id`, `cwd`, `hook_event_name`,
//! `transcript_path` when it keeps a transcript, the turn — Claude Code's `prompt_id`, Codex's
//! `turn_id`, one per taken prompt —, and `tool_name` for PostToolUse, `prompt` for
//! UserPromptSubmit, `stop_hook_active` for Stop; measured: `tests/data/transcripts/*/hook-inputs.jsonl`).
//!
//! What the double does with an answer, as the CLIs do: a PostToolUse or UserPromptSubmit
//! `hookSpecificOutput.additionalContext` is handed to the model (recorded, nothing drawn); a
//! Stop `{"decision": "block", "reason": …}` keeps the turn going. An answer counts from a hook
//! that exited 0 — and, for Claude Code, from one killed by a signal after writing it too
//! (measured on 2.1.332: a SIGKILLed hook's written answer reached the model; Codex 0.171.0
//! dropped it). Every run is one JSON line in `--hook-log` (`event`, `exit`, `signal`, `stdout`,
//! `text`: what the model was handed, `ms`: how long the hook ran, wall clock, as the CLI waits
//! for it).
//!
//! The facts here are the vendors' (the captures and measurements), never `team`'s code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::vendor::Cli;

/// The hooks file and where runs are recorded.
pub(super) struct Hooks {
    cli: Cli,
    file: PathBuf,
    log: Option<std::fs::File>,
    cwd: PathBuf,
    session: String,
    /// The session transcript the CLI keeps (named in every hook's input).
    transcript: Option<PathBuf>,
    /// The current turn's id, and how many turns began.
    turn: String,
    turns: u32,
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
    pub(super) fn new(
        cli: Cli,
        file: PathBuf,
        log: Option<std::fs::File>,
        cwd: PathBuf,
        transcript: Option<PathBuf>,
    ) -> Hooks {
        let session = format!("fake-{}", std::process::id());
        Hooks { cli, file, log, cwd, turn: format!("{session}-turn-1"), session, transcript, turns: 1 }
    }

    /// The hooks file.
    pub(super) fn file(&self) -> &Path {
        &self.file
    }

    /// A prompt was taken: a new turn begins.
    pub(super) fn new_turn(&mut self) {
        self.turns += 1;
        self.turn = format!("{}-turn-{}", self.session, self.turns);
    }

    /// Whether the CLI takes the answer of a hook that ended so: one that exited 0; for Claude
    /// Code also one killed by a signal (its shell then reports 128 + the signal; measured:
    /// 137, a SIGKILL).
    fn takes(&self, exit: Exit) -> bool {
        match exit {
            Exit::Code(0) => true,
            Exit::Signal(_) => self.cli == Cli::Claude,
            Exit::Code(c) => self.cli == Cli::Claude && (129..=159).contains(&c),
            Exit::NotRun => false,
        }
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
        if let Some(o) = input.as_object_mut() {
            let turn_key = if self.cli == Cli::Codex { "turn_id" } else { "prompt_id" };
            o.insert(turn_key.into(), self.turn.clone().into());
            if let Some(t) = &self.transcript {
                o.insert("transcript_path".into(), t.display().to_string().into());
            }
        }
        if let (Some(o), Some(e)) = (input.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        let mut answer = Answer::default();
        for cmd in self.commands(event) {
            let started = std::time::Instant::now();
            let (exit, stdout) = run_one(&cmd, &input.to_string(), &self.cwd);
            let taken = self.takes(exit);
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
                let (code, signal) = match exit {
                    Exit::Code(c) => (Some(c), None),
                    Exit::Signal(n) => (None, Some(n)),
                    Exit::NotRun => (None, None),
                };
                let handed = if taken { text.clone() } else { None };
                let line = serde_json::json!({"event": event, "command": cmd, "exit": code, "signal": signal, "stdout": stdout, "text": handed, "ms": ms});
                let _ = f.write_all(format!("{line}\n").as_bytes());
            }
            if taken {
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

/// How a hook ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    Code(i32),
    Signal(i32),
    NotRun,
}

/// One command through `sh -c`, its stdin written whole then closed: how it ended, its stdout.
fn run_one(cmd: &str, input: &str, cwd: &Path) -> (Exit, String) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return (Exit::NotRun, String::new()) };
    if let Some(mut stdin) = child.stdin.take() {
        // a hook that does not read its input closes the pipe: the CLIs carry on
        let _ = stdin.write_all(input.as_bytes());
    }
    match child.wait_with_output() {
        Ok(o) => {
            use std::os::unix::process::ExitStatusExt;
            let exit = match (o.status.code(), o.status.signal()) {
                (Some(c), _) => Exit::Code(c),
                (None, Some(n)) => Exit::Signal(n),
                (None, None) => Exit::NotRun,
            };
            (exit, String::from_utf8_lossy(&o.stdout).into_owned())
        }
        Err(_) => (Exit::NotRun, String::new()),
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
        let mut h = Hooks::new(Cli::Claude, file, Some(f), d.path().to_path_buf(), Some("/t/s.jsonl".into()));
        assert_eq!(
            h.run("PostToolUse", serde_json::json!({"tool_name": "Bash"})),
            Answer { text: Some("hi".into()), block: false }
        );
        assert_eq!(h.run("Stop", serde_json::json!({})), Answer { text: Some("more".into()), block: true });
        assert_eq!(h.run("UserPromptSubmit", serde_json::json!({})), Answer::default());
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    }

    /// What each CLI does with the answer of a hook killed after writing it (measured: Claude
    /// Code 2.1.332 takes it, Codex 0.171.0 does not), and the input names the session's turn
    /// (`prompt_id`, `turn_id`) and transcript.
    #[test]
    fn a_killed_hook_s_answer_is_taken_by_claude_only_and_the_input_names_the_turn() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("hooks.json");
        let cmd = format!(
            "cat > {}/in.json; echo '{{\"decision\":\"block\",\"reason\":\"r\"}}'; kill -9 $$",
            d.path().display()
        );
        std::fs::write(
            &file,
            serde_json::json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": cmd}]}]}}).to_string(),
        )
        .unwrap();
        let mut claude = Hooks::new(Cli::Claude, file.clone(), None, d.path().to_path_buf(), Some("/t/s.jsonl".into()));
        assert_eq!(claude.run("Stop", serde_json::json!({})), Answer { text: Some("r".into()), block: true });
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join("in.json")).unwrap()).unwrap();
        assert_eq!(input["transcript_path"], "/t/s.jsonl");
        let turn = input["prompt_id"].as_str().unwrap().to_string();
        claude.new_turn();
        claude.run("Stop", serde_json::json!({}));
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join("in.json")).unwrap()).unwrap();
        assert_ne!(input["prompt_id"].as_str().unwrap(), turn, "a new turn");
        let mut codex = Hooks::new(Cli::Codex, file, None, d.path().to_path_buf(), None);
        assert_eq!(codex.run("Stop", serde_json::json!({})), Answer::default());
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join("in.json")).unwrap()).unwrap();
        assert!(input["turn_id"].is_string() && input.get("transcript_path").is_none(), "{input}");
    }
}
