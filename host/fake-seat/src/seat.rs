//! The fake seat's CLI state and how it answers keys: the composer, Enter (taken, ignored,
//! a paste-burst newline, queued while working), the turn and what it leaves in the history.
//!
//! Invariant: bytes are logged (when `--log` is given) before they are acted on, and a
//! dialog or an exited CLI never runs what is typed into it.

use super::screens;
use super::transcript::Transcript;
use super::{Cli, Mode};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The draft a `draft` seat starts with (the captured `idle-typed` composer).
const DRAFT: &str = "please summarize the README in two lines";

/// Codex treats an Enter this close after typed text as part of a paste (a newline).
const PASTE_BURST: Duration = Duration::from_millis(30);

#[derive(Debug, Clone)]
pub(super) enum Phase {
    Idle,
    /// Working on `line`; ends at `until` (`None`: until a line is queued).
    Working {
        line: Option<String>,
        started: Instant,
        until: Option<Instant>,
    },
    Dialog(String),
    Exited,
}

/// One imitated CLI: what it shows and what it has been sent.
pub(super) struct Seat {
    pub(super) cli: Cli,
    pub(super) mode: Mode,
    delay: Duration,
    log: Option<std::fs::File>,
    transcript: Option<Transcript>,
    cwd: PathBuf,
    pub(super) phase: Phase,
    pub(super) composer: String,
    pub(super) show_placeholder: bool,
    /// Transcript blocks above the composer (each a list of styled rows).
    pub(super) history: Vec<Vec<String>>,
    /// Lines sent while working, taken when the turn ends.
    pub(super) queued: Vec<String>,
    enters_ignored: u32,
    pub(super) thread: Option<String>,
    last_typed: Option<Instant>,
    pub(super) spin: usize,
    /// The exited seat's shell rows.
    pub(super) shell: Vec<String>,
    /// Bytes of a UTF-8 sequence not yet complete.
    pending: Vec<u8>,
    /// A `reads-late` seat's taken line, and when its turn shows.
    late: Option<(Instant, String)>,
    /// The hooks the CLI runs (`--hooks`), and how often a working seat calls a tool.
    pub(super) hooks: Option<super::hooks::Hooks>,
    pub(super) tool_every: Option<Duration>,
    last_tool: Option<Instant>,
    /// The file whose existence ends an open-ended turn (`--turn-ends-when`).
    pub(super) turn_ends_when: Option<PathBuf>,
    /// The file whose existence shows a turn a line started (`--turn-shows-when`), and the
    /// line taken meanwhile.
    pub(super) turn_shows_when: Option<PathBuf>,
    pub(super) unshown: Option<String>,
    /// The file without which no turn ends (`--turn-held-until`).
    pub(super) turn_held_until: Option<PathBuf>,
    /// While a turn is unshown, draw an empty screen (`--blank-while-unshown`).
    pub(super) blank_while_unshown: bool,
    /// The CLI was asked to leave its own way and has: the process ends (Claude Code 2.1.332:
    /// `/exit` submitted at the prompt; Codex 0.171.0: Ctrl-C at an empty composer — measured,
    /// docs/launch.md).
    pub(super) left: bool,
}

impl Seat {
    pub(super) fn new(
        cli: Cli,
        mode: Mode,
        delay_ms: u64,
        log: Option<std::fs::File>,
        transcript: Option<Transcript>,
        cwd: PathBuf,
    ) -> Seat {
        let now = Instant::now();
        let phase = match &mode {
            Mode::Dialog(k) => Phase::Dialog(k.clone()),
            Mode::Exited => Phase::Exited,
            Mode::AlreadyWorking => Phase::Working { line: None, started: now, until: None },
            _ => Phase::Idle,
        };
        let mut s = Seat {
            cli,
            delay: Duration::from_millis(delay_ms),
            log,
            transcript,
            cwd,
            phase,
            composer: String::new(),
            show_placeholder: mode == Mode::Placeholder,
            history: Vec::new(),
            queued: Vec::new(),
            enters_ignored: 0,
            thread: None,
            last_typed: None,
            spin: 0,
            shell: Vec::new(),
            pending: Vec::new(),
            late: None,
            hooks: None,
            tool_every: None,
            last_tool: None,
            turn_ends_when: None,
            turn_shows_when: None,
            unshown: None,
            turn_held_until: None,
            blank_while_unshown: false,
            left: false,
            mode,
        };
        if s.mode == Mode::Draft {
            s.composer = DRAFT.to_string();
        }
        if s.mode == Mode::AlreadyWorking {
            // The turn it is busy with: a prompt sent before we arrived.
            s.push_echo("think hard about it");
            s.thread = Some("think hard about it".into());
        }
        if s.mode == Mode::Exited {
            s.shell = match cli {
                Cli::Claude => vec![
                    String::new(),
                    "\x1b[2mResume this session with:\x1b[0m".into(),
                    "\x1b[2mclaude --resume 80ef8f72-9c86-45aa-bfd7-487ebccdd8f4\x1b[0m".into(),
                ],
                Cli::Codex => vec![
                    String::new(),
                    "To continue this session, run codex resume 019a4e7c-5d1f-7c30-9a5e-2f6b8d4c1e07".into(),
                ],
                Cli::Cursor => vec![String::new()],
            };
            s.shell.push(shell_prompt());
        }
        s
    }

    /// How long the loop may wait for keys before the screen changes on its own.
    pub(super) fn next_timeout(&self) -> Option<Duration> {
        match &self.phase {
            Phase::Working { until, .. } => {
                let spin = self.tool_every.unwrap_or(Duration::from_millis(100)).min(Duration::from_millis(100));
                let held = self.turn_held_until.as_ref().is_some_and(|f| !f.exists());
                Some(match until {
                    Some(u) if !held => u.saturating_duration_since(Instant::now()).min(spin),
                    _ => spin,
                })
            }
            // Redraw now and then: a resized pane gets a fresh screen.
            _ => Some(Duration::from_millis(250)),
        }
    }

    /// Time passes: a turn ends when due, the spinner turns.
    pub(super) fn tick(&mut self) {
        if self.unshown.is_some() && self.turn_shows_when.as_ref().is_some_and(|f| f.exists()) {
            let line = self.unshown.take();
            let now = Instant::now();
            // an open-ended turn, with `--turn-ends-when`: it ends when told
            let until = self.turn_ends_when.is_none().then(|| now + self.delay);
            self.phase = Phase::Working { line, started: now, until };
        }
        if self.late.as_ref().is_some_and(|(due, _)| Instant::now() >= *due) && matches!(self.phase, Phase::Idle) {
            let (_, line) = self.late.take().expect("checked");
            let now = Instant::now();
            self.phase = Phase::Working { line: Some(line), started: now, until: Some(now) };
            self.finish_turn();
        }
        if let (Phase::Working { started, .. }, Some(every)) = (&self.phase, self.tool_every) {
            let since = self.last_tool.filter(|t| t >= started).unwrap_or(*started);
            if since.elapsed() >= every {
                self.last_tool = Some(Instant::now());
                self.tool_call();
            }
        }
        if let (Phase::Working { until: until @ None, .. }, Some(f)) = (&mut self.phase, &self.turn_ends_when) {
            if f.exists() {
                *until = Some(Instant::now());
            }
        }
        if let Phase::Working { until: Some(u), .. } = &self.phase {
            let held = self.turn_held_until.as_ref().is_some_and(|f| !f.exists());
            if Instant::now() >= *u && !held && !self.stop_blocks() {
                self.finish_turn();
            }
        }
        if matches!(self.phase, Phase::Working { .. }) {
            self.spin = self.spin.wrapping_add(1);
        }
    }

    /// Runs the hooks of `event`; what they hand the model goes into the transcript too.
    fn hook(&mut self, event: &str, extra: serde_json::Value) -> super::hooks::Answer {
        let Some(h) = &mut self.hooks else { return Default::default() };
        let answer = h.run(event, extra);
        if let (Some(t), Some(text)) = (&mut self.transcript, &answer.text) {
            t.hook_text(event, text, h.file());
        }
        answer
    }

    /// The state Codex 0.171.0 reports now (OSC 7501, docs/status-reports.md): `blocked` at a
    /// dialog, `working` while a turn runs (a `reads-late` seat's too: its turn runs before
    /// its screen shows it), else `idle`; an exited CLI reports nothing.
    pub(super) fn reported(&self) -> Option<&'static str> {
        match self.phase {
            Phase::Exited => None,
            Phase::Dialog(_) => Some("blocked"),
            Phase::Working { .. } => Some("working"),
            Phase::Idle if self.late.is_some() => Some("working"),
            Phase::Idle => Some("idle"),
        }
    }

    /// A simulated tool call: its PostToolUse hooks run (what they answer goes to the model).
    fn tool_call(&mut self) {
        self.hook("PostToolUse", serde_json::json!({"tool_name": "Bash", "tool_input": {"command": "true"}}));
    }

    /// The turn is due to end: its Stop hooks run; one that blocks keeps it working one more
    /// delay (the CLI hands the model its reason and goes on).
    fn stop_blocks(&mut self) -> bool {
        if self.hooks.is_none() || !self.hook("Stop", serde_json::json!({"stop_hook_active": false})).block {
            return false;
        }
        if let Phase::Working { until, .. } = &mut self.phase {
            *until = Some(Instant::now() + self.delay);
        }
        true
    }

    /// Seconds into the current turn, while working.
    pub(super) fn working(&self) -> Option<u64> {
        match &self.phase {
            Phase::Working { started, .. } => Some(started.elapsed().as_secs()),
            _ => None,
        }
    }

    /// Bytes from the terminal: logged first, then acted on.
    pub(super) fn received(&mut self, bytes: &[u8]) {
        if let Some(f) = &mut self.log {
            let _ = f.write_all(bytes);
        }
        self.input(bytes);
    }

    fn input(&mut self, bytes: &[u8]) {
        // Keep a UTF-8 sequence split across two reads for the next one.
        self.pending.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        let chunk: Vec<u8> = self.pending.drain(..valid).collect();
        let chars: Vec<char> = String::from_utf8_lossy(&chunk).chars().collect();
        let mut typed_in_chunk = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            match c {
                // An escape sequence: bracketed paste content is typed text, the rest is
                // ignored (arrows, focus events, …).
                '\x1b' if chars.get(i) == Some(&'[') => {
                    i += 1;
                    let mut seq = String::new();
                    while i < chars.len() {
                        let c = chars[i];
                        i += 1;
                        seq.push(c);
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                    if seq == "200~" {
                        let rest: String = chars[i..].iter().collect();
                        let (pasted, consumed) = match rest.find("\x1b[201~") {
                            Some(k) => (rest[..k].to_string(), rest[..k].chars().count() + 6),
                            None => (rest.clone(), rest.chars().count()),
                        };
                        self.type_str(&pasted);
                        typed_in_chunk = true;
                        i += consumed;
                    }
                }
                // Esc alone cancels a dialog (`Esc to cancel`), back to the idle prompt.
                '\x1b' if chars.get(i).is_none() && matches!(self.phase, Phase::Dialog(_)) => {
                    self.phase = Phase::Idle;
                }
                '\r' => {
                    let burst = typed_in_chunk || self.last_typed.is_some_and(|t| t.elapsed() < PASTE_BURST);
                    self.enter(burst);
                }
                '\x7f' | '\x08' => {
                    if self.accepts_typing() {
                        self.composer.pop();
                    } else if let Phase::Exited = self.phase {
                        self.shell_backspace();
                    }
                }
                // Codex quits at one Ctrl-C over an empty composer; over a draft it clears it.
                '\x03' if self.cli == Cli::Codex && matches!(self.phase, Phase::Idle) && self.composer.is_empty() => {
                    self.left = true;
                }
                '\x03' | '\x15' if self.accepts_typing() => self.composer.clear(),
                c if !c.is_control() => {
                    self.type_str(&c.to_string());
                    typed_in_chunk = true;
                }
                _ => {}
            }
        }
    }

    fn accepts_typing(&self) -> bool {
        matches!(self.phase, Phase::Idle | Phase::Working { .. })
    }

    fn type_str(&mut self, s: &str) {
        match self.phase {
            Phase::Idle | Phase::Working { .. } => {
                self.composer.push_str(s);
                self.show_placeholder = false;
                self.last_typed = Some(Instant::now());
            }
            Phase::Exited => {
                if let Some(last) = self.shell.last_mut() {
                    last.push_str(s);
                }
            }
            Phase::Dialog(_) => {}
        }
    }

    fn shell_backspace(&mut self) {
        if let Some(last) = self.shell.last_mut() {
            if last.len() > shell_prompt().len() {
                last.pop();
            }
        }
    }

    fn enter(&mut self, burst: bool) {
        match self.phase.clone() {
            Phase::Dialog(_) => {}
            Phase::Exited => {
                let line = self.shell.last().cloned().unwrap_or_default();
                let cmd = line.strip_prefix(&shell_prompt()).unwrap_or("").trim().to_string();
                if !cmd.is_empty() {
                    let word = cmd.split_whitespace().next().unwrap_or("").to_string();
                    self.shell.push(format!("bash: {word}: command not found"));
                }
                self.shell.push(shell_prompt());
            }
            Phase::Idle | Phase::Working { .. } if self.cli == Cli::Codex && burst && !self.composer.is_empty() => {
                // Codex's paste-burst detection: this Enter is part of the paste.
                self.composer.push('\n');
            }
            Phase::Idle => {
                let line = self.composer.trim_end_matches('\n').to_string();
                if line.trim().is_empty() {
                    return;
                }
                let ignored = match self.mode {
                    Mode::IgnoresEnter => true,
                    Mode::IgnoresFirstEnter => self.enters_ignored == 0,
                    Mode::IgnoresEnters(n) => self.enters_ignored < n,
                    _ => false,
                };
                if ignored {
                    self.enters_ignored += 1;
                    return;
                }
                if self.cli == Cli::Claude && line.trim() == "/exit" {
                    self.left = true;
                    return;
                }
                self.composer.clear();
                self.show_placeholder = false;
                if let Some(h) = &mut self.hooks {
                    h.new_turn();
                }
                self.hook("UserPromptSubmit", serde_json::json!({"prompt": line}));
                self.push_echo(&line);
                if self.thread.is_none() {
                    self.thread = Some(line.clone());
                }
                if let Some(t) = &mut self.transcript {
                    t.prompt(&line);
                }
                if self.mode == Mode::ClearsWithoutWorking {
                    return;
                }
                self.start_turn(line);
            }
            Phase::Working { line, started, until } => {
                let text = self.composer.trim_end_matches('\n').to_string();
                if text.trim().is_empty() {
                    return;
                }
                self.composer.clear();
                if self.cli == Cli::Codex {
                    // A steer: shown in the history at once.
                    self.push_echo(&text);
                }
                if let Some(t) = &mut self.transcript {
                    t.prompt(&text);
                }
                self.queued.push(text);
                let until = until.or_else(|| Some(Instant::now() + self.delay));
                self.phase = Phase::Working { line, started, until };
            }
        }
    }

    /// A line taken at the prompt starts its turn: at once, after `--delay-ms` (`reads-late`),
    /// or running unseen until told (`--turn-shows-when`).
    fn start_turn(&mut self, line: String) {
        if self.mode == Mode::ReadsLate {
            self.late = Some((Instant::now() + self.delay, line));
            return;
        }
        if self.turn_shows_when.is_some() {
            // the turn runs, its screen still idle until told
            self.unshown = Some(line);
            return;
        }
        let now = Instant::now();
        self.phase = Phase::Working { line: Some(line), started: now, until: Some(now + self.delay) };
    }

    fn push_echo(&mut self, line: &str) {
        let block = match self.cli {
            Cli::Claude => vec![screens::claude_echo(line)],
            Cli::Codex => screens::codex_echo(line, 120),
            Cli::Cursor => vec![format!("  > {line}")],
        };
        self.history.push(block);
    }

    /// The turn ends: the rows that show the drop being read, then idle (or the next queued line).
    fn finish_turn(&mut self) {
        let Phase::Working { line, .. } = std::mem::replace(&mut self.phase, Phase::Idle) else { return };
        let echoed = usize::from(line.is_some());
        let mut lines: Vec<String> = line.into_iter().collect();
        lines.append(&mut self.queued);
        if self.cli == Cli::Claude {
            // Claude takes the queued lines when the turn ends: echo them now.
            for l in &lines[echoed..] {
                self.history.push(vec![screens::claude_echo(l)]);
            }
        }
        for l in &lines {
            let drop = drop_path(l, &self.cwd);
            match self.cli {
                Cli::Claude => {
                    self.history.push(vec![screens::claude_bullet("Let me read that file.")]);
                    if drop.is_some() {
                        self.history.push(vec![screens::claude_read_row()]);
                    }
                    self.history.push(vec![screens::claude_bullet("Done. The tool finished.")]);
                }
                Cli::Codex => {
                    if let Some(p) = &drop {
                        self.history.push(screens::codex_explored(&file_name(p)));
                    }
                    self.history.push(screens::codex_done());
                }
                Cli::Cursor => {
                    if let Some(p) = &drop {
                        self.history.push(vec![format!("  ⬢ Read {}", file_name(p))]);
                    }
                    self.history.push(vec!["  Done.".to_string()]);
                }
            }
            if let (Some(t), Some(p)) = (&mut self.transcript, &drop) {
                t.read(p);
            }
        }
        if self.cli == Cli::Claude {
            self.history.push(vec![screens::claude_done_row(self.delay.as_secs())]);
        }
    }
}

pub(super) fn shell_prompt() -> String {
    "seat@team:~/project$ ".to_string()
}

/// The drop file a trigger names: its first token holding a `/`, trailing punctuation and
/// quotes removed, made absolute against the seat's folder.
fn drop_path(line: &str, cwd: &Path) -> Option<PathBuf> {
    let tok = line
        .split_whitespace()
        .map(|t| {
            let q = |c: char| matches!(c, '"' | '\'' | '`' | '(' | ')' | ',' | ';' | ':' | '<' | '>');
            t.trim_start_matches(q).trim_end_matches(|c: char| q(c) || c == '.')
        })
        .find(|t| t.contains('/') && !t.ends_with('/'))?;
    let p = PathBuf::from(tok);
    Some(if p.is_absolute() { p } else { cwd.join(p) })
}

pub(super) fn file_name(p: &Path) -> String {
    p.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_path_from_a_trigger() {
        let cwd = Path::new("/w/proj");
        assert_eq!(
            drop_path("Read .agents/send-drops/s/rev/abc123 and follow it.", cwd),
            Some(PathBuf::from("/w/proj/.agents/send-drops/s/rev/abc123"))
        );
        assert_eq!(drop_path("read \"/tmp/x/id9\".", cwd), Some(PathBuf::from("/tmp/x/id9")));
        assert_eq!(drop_path("hello there", cwd), None);
    }

    #[test]
    fn esc_cancels_a_dialog_and_nothing_else_reaches_it() {
        let mut s = Seat::new(Cli::Claude, Mode::Dialog("permission".into()), 10, None, None, PathBuf::from("/"));
        s.input(b"hello\r");
        assert!(matches!(s.phase, Phase::Dialog(_)) && s.composer.is_empty());
        s.input(b"\x1b");
        assert!(matches!(s.phase, Phase::Idle));
    }

    #[test]
    fn a_held_turn_ends_only_once_its_file_exists() {
        let dir = std::env::temp_dir().join(format!("fake-seat-held-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let mut s = Seat::new(Cli::Codex, Mode::TakesLine, 0, None, None, PathBuf::from("/w"));
        s.turn_held_until = Some(dir.clone());
        s.input(b"read /w/x/id7");
        std::thread::sleep(Duration::from_millis(40));
        s.input(b"\r");
        s.tick();
        assert!(matches!(s.phase, Phase::Working { .. }), "held past its delay");
        assert_eq!(s.next_timeout(), Some(Duration::from_millis(100)), "no busy loop while held");
        std::fs::write(&dir, "").unwrap();
        s.tick();
        assert!(matches!(s.phase, Phase::Idle), "ended once the file exists");
        let _ = std::fs::remove_file(&dir);
    }

    #[test]
    fn a_late_reader_shows_its_turn_only_after_its_delay() {
        let mut s = Seat::new(Cli::Codex, Mode::ReadsLate, 0, None, None, PathBuf::from("/w"));
        s.input(b"read /w/x/id7");
        std::thread::sleep(Duration::from_millis(40));
        s.input(b"\r");
        assert!(s.composer.is_empty() && matches!(s.phase, Phase::Idle));
        let rows = s.history.len();
        s.tick();
        assert!(s.history.len() > rows, "the read rows after the delay");
        let mut s = Seat::new(Cli::Codex, Mode::IgnoresEnters(2), 0, None, None, PathBuf::from("/w"));
        s.input(b"hello");
        std::thread::sleep(Duration::from_millis(40));
        for _ in 0..2 {
            s.input(b"\r");
            assert_eq!(s.composer, "hello");
        }
        s.input(b"\r");
        assert!(s.composer.is_empty());
    }

    #[test]
    fn codex_enter_in_a_burst_is_a_newline() {
        let mut s = Seat::new(Cli::Codex, Mode::TakesLine, 10, None, None, PathBuf::from("/"));
        s.input(b"hello\r");
        assert_eq!(s.composer, "hello\n");
        assert!(matches!(s.phase, Phase::Idle));
        let mut s = Seat::new(Cli::Claude, Mode::TakesLine, 10, None, None, PathBuf::from("/"));
        s.input(b"hello\r");
        assert_eq!(s.composer, "");
        assert!(matches!(s.phase, Phase::Working { .. }));
    }
}
