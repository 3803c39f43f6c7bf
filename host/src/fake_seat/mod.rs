//! `team fake-seat` (hidden): a small program that draws a vendor CLI's real screens in the
//! terminal it runs in and reacts to keys like that CLI, for tests and `team demo`.
//!
//! It draws the captures of `tests/data/screens/` (embedded; see `screens.rs`),
//! puts the terminal in raw mode, redraws the whole screen on every change (clear + rows), sets
//! the title with OSC 0 (Codex's and Claude's working spinner live there), and follows its
//! `--mode`:
//!
//! | mode | behaviour |
//! | --- | --- |
//! | `takes-line` | Enter: the box clears, the prompt is echoed, working shows (spinner row/hint and title spinner) for `--delay-ms`, then a row showing the drop being read (Codex `• Explored` / `└ Read <id>`; Claude `Read 1 file`, plus a transcript row with `--transcript`), then idle |
//! | `ignores-first-enter` | the first Enter does nothing; later ones as `takes-line` |
//! | `ignores-enter` | no Enter is ever taken: the typed text stays in the box |
//! | `clears-without-working` | Enter clears the box and echoes the prompt; it never works nor reads |
//! | `dialog:<kind>` | the captured dialog of that kind (permission, question, trust, vendor-notice, provider-error, rate-limit, held-message); keys change nothing |
//! | `draft` | starts with unsent text in the composer; otherwise `takes-line` |
//! | `placeholder` | an empty composer showing a faint (SGR 2) placeholder; otherwise `takes-line` |
//! | `exited` | the CLI has exited: a shell prompt; typed lines are echoed, never run |
//! | `narrow-cursor` | a Cursor-agent-like seat (synthesized: no capture exists) whose `ctrl+c to stop` hint wraps in a narrow pane; takes the line |
//! | `already-working` | working from the start; a line sent then is queued (Claude) or steered (Codex) and taken when the turn ends |
//!
//! Codex's paste-burst rule is reproduced: an Enter that arrives within 30 ms of typed text
//! (or in the same read) becomes a newline in the composer, as the real CLI does.
//!
//! Under herdr, the seat is watched as the CLI it draws: it runs with `HERDR_AGENT=<label>`
//! (re-executing itself once to set it), which herdr 0.7.1 reads from `/proc/<pid>/environ`.
//!
//! Invariant: with `--log <file>`, every byte received is appended to the file before it is
//! acted on (unbuffered, `O_APPEND`), so a test can assert exactly what was typed and that
//! nothing reached a dialog or a draft.

mod native;
mod screens;

use screens::Screen;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a fake seat is asked to be (the `team fake-seat` flags; see `cli/fake_seat.rs`).
#[derive(Debug, Clone)]
pub struct Options {
    /// The CLI to imitate: `claude-code`, `codex` (and `cursor`, implied by `narrow-cursor`).
    pub cli: String,
    /// How it behaves (see the module docs).
    pub mode: String,
    /// Append every byte received to this file.
    pub log: Option<PathBuf>,
    /// Write the session transcript rows into this directory; `auto`: where the CLI writes them.
    pub transcript: Option<String>,
    /// How long a turn works, in milliseconds.
    pub delay_ms: u64,
    /// How much of the native channel to show: `full`, `socket-only`, `none` (`native.rs`).
    pub native: String,
    /// The run's folders (its profile host reads the CLI's description).
    pub paths: crate::paths::Paths,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    TakesLine,
    IgnoresFirstEnter,
    /// Never takes a line: every Enter is swallowed and the text stays in the box.
    IgnoresEnter,
    ClearsWithoutWorking,
    Dialog(String),
    Draft,
    Placeholder,
    Exited,
    NarrowCursor,
    AlreadyWorking,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Ok(match s {
        "takes-line" => Mode::TakesLine,
        "ignores-first-enter" => Mode::IgnoresFirstEnter,
        "ignores-enter" => Mode::IgnoresEnter,
        "clears-without-working" => Mode::ClearsWithoutWorking,
        "draft" => Mode::Draft,
        "placeholder" => Mode::Placeholder,
        "exited" => Mode::Exited,
        "narrow-cursor" => Mode::NarrowCursor,
        "already-working" => Mode::AlreadyWorking,
        _ => match s.strip_prefix("dialog:") {
            Some(k) if screens::DIALOG_KINDS.contains(&k) => Mode::Dialog(k.to_string()),
            Some(k) => {
                return Err(format!("unknown dialog kind \"{k}\" (kinds: {})", screens::DIALOG_KINDS.join(", ")))
            }
            None => return Err(format!("unknown mode \"{s}\"")),
        },
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cli {
    Claude,
    Codex,
    Cursor,
}

/// The draft a `draft` seat starts with (the captured `idle-typed` composer).
const DRAFT: &str = "please summarize the README in two lines";

/// Codex treats an Enter this close after typed text as part of a paste (a newline).
const PASTE_BURST: Duration = Duration::from_millis(30);

/// Runs the fake seat until its terminal closes; an `Err` is a usage error in its flags.
pub fn run(args: Options) -> Result<(), String> {
    run_inner(args)
}

fn run_inner(args: Options) -> Result<(), String> {
    let mode = parse_mode(&args.mode)?;
    let cli = match (args.cli.as_str(), &mode) {
        (_, Mode::NarrowCursor) | ("cursor", _) => Cli::Cursor,
        ("claude-code" | "claude", _) => Cli::Claude,
        ("codex", _) => Cli::Codex,
        (other, _) => return Err(format!("unknown CLI \"{other}\" (claude-code, codex, cursor)")),
    };
    let cli_id = match cli {
        Cli::Claude => "claude-code",
        Cli::Codex => "codex",
        Cli::Cursor => "cursor",
    };
    // herdr names an agent from its process (or from `HERDR_AGENT` in its environment, read
    // from /proc): a fake seat runs as `team`, so it re-executes itself once with the label
    // of the CLI it draws, and herdr then watches it as that CLI.
    let label = match cli {
        Cli::Claude => "claude",
        Cli::Codex => "codex",
        Cli::Cursor => "cursor",
    };
    if std::env::var("HERDR_AGENT").ok().as_deref() != Some(label) {
        if let Ok(exe) = std::env::current_exe() {
            use std::os::unix::process::CommandExt;
            let err =
                std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("HERDR_AGENT", label).exec();
            return Err(format!("cannot re-execute the fake seat: {err}"));
        }
    }
    if let Mode::Dialog(k) = &mode {
        if screens::dialog(cli_id, k).is_none() {
            return Err(format!("{cli_id} has no captured {k} dialog"));
        }
    }
    // the CLI's process name and, for a native-channel CLI, its registry entry and socket
    let _shown = native::show(cli_id, mode == Mode::Exited, native::Native::parse(&args.native)?, &args.paths)?;
    let log = match &args.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open the log {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let transcript = args.transcript.as_deref().map(|t| Transcript::new(cli, t, &cwd));
    let term = Term::enter()?;
    let mut seat = Seat::new(cli, mode, args.delay_ms, log, transcript, cwd);
    let r = seat.run(&term);
    drop(term);
    r
}

/// The terminal in raw mode; restored on drop.
struct Term {
    saved: Option<nix::sys::termios::Termios>,
}

impl Term {
    fn enter() -> Result<Term, String> {
        use nix::sys::termios;
        let stdin = std::io::stdin();
        let saved = termios::tcgetattr(&stdin).ok();
        if let Some(s) = &saved {
            let mut raw = s.clone();
            termios::cfmakeraw(&mut raw);
            termios::tcsetattr(&stdin, termios::SetArg::TCSANOW, &raw)
                .map_err(|e| format!("cannot set raw mode: {e}"))?;
        }
        Ok(Term { saved })
    }

    fn size(&self) -> (usize, usize) {
        let mut ws: nix::libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ fills `ws`.
        let r = unsafe { nix::libc::ioctl(1, nix::libc::TIOCGWINSZ, &mut ws) };
        if r != 0 || ws.ws_col == 0 {
            (120, 40)
        } else {
            (ws.ws_col as usize, ws.ws_row as usize)
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if let Some(s) = &self.saved {
            let _ = nix::sys::termios::tcsetattr(std::io::stdin(), nix::sys::termios::SetArg::TCSANOW, s);
        }
        let mut out = std::io::stdout();
        let _ = out.write_all(b"\x1b[0m\x1b[?25h");
        let _ = out.flush();
    }
}

#[derive(Debug, Clone)]
enum Phase {
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

struct Seat {
    cli: Cli,
    mode: Mode,
    delay: Duration,
    log: Option<std::fs::File>,
    transcript: Option<Transcript>,
    cwd: PathBuf,
    phase: Phase,
    composer: String,
    show_placeholder: bool,
    /// Transcript blocks above the composer (each a list of styled rows).
    history: Vec<Vec<String>>,
    /// Lines sent while working, taken when the turn ends.
    queued: Vec<String>,
    enters_ignored: u32,
    thread: Option<String>,
    last_typed: Option<Instant>,
    spin: usize,
    /// The exited seat's shell rows.
    shell: Vec<String>,
    last_drawn: Option<(Screen, (usize, usize))>,
    /// Bytes of a UTF-8 sequence not yet complete.
    pending: Vec<u8>,
}

impl Seat {
    fn new(
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
            last_drawn: None,
            pending: Vec::new(),
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

    fn run(&mut self, term: &Term) -> Result<(), String> {
        self.draw(term, true);
        let mut buf = [0u8; 4096];
        loop {
            let timeout = self.next_timeout();
            let mut pfd = nix::libc::pollfd { fd: 0, events: nix::libc::POLLIN, revents: 0 };
            let ms = timeout.map(|d| d.as_millis().min(i32::MAX as u128) as i32).unwrap_or(-1);
            // SAFETY: one valid pollfd.
            let r = unsafe { nix::libc::poll(&mut pfd, 1, ms) };
            if r < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    self.draw(term, false);
                    continue;
                }
                return Err("poll failed".into());
            }
            if r > 0 {
                // SAFETY: reads into our buffer.
                let n = unsafe { nix::libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
                if n <= 0 {
                    if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                        continue;
                    }
                    return Ok(()); // the terminal went away
                }
                let bytes = &buf[..n as usize];
                if let Some(f) = &mut self.log {
                    let _ = f.write_all(bytes);
                }
                self.input(bytes);
            }
            self.tick();
            self.draw(term, false);
        }
    }

    fn next_timeout(&self) -> Option<Duration> {
        match &self.phase {
            Phase::Working { until, .. } => {
                let spin = Duration::from_millis(100);
                Some(match until {
                    Some(u) => u.saturating_duration_since(Instant::now()).min(spin),
                    None => spin,
                })
            }
            // Redraw now and then: a resized pane gets a fresh screen.
            _ => Some(Duration::from_millis(250)),
        }
    }

    fn tick(&mut self) {
        if let Phase::Working { until: Some(u), .. } = &self.phase {
            if Instant::now() >= *u {
                self.finish_turn();
            }
        }
        if matches!(self.phase, Phase::Working { .. }) {
            self.spin = self.spin.wrapping_add(1);
        }
    }

    // ---- input ----

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
                '\x1b' => {
                    // An escape sequence: bracketed paste content is typed text, the rest is
                    // ignored (arrows, focus events, …).
                    if chars.get(i) == Some(&'[') {
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
                '\x03' | '\x15' => {
                    if self.accepts_typing() {
                        self.composer.clear();
                    }
                }
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
                if self.mode == Mode::IgnoresEnter || (self.mode == Mode::IgnoresFirstEnter && self.enters_ignored == 0)
                {
                    self.enters_ignored += 1;
                    return;
                }
                self.composer.clear();
                self.show_placeholder = false;
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
                let now = Instant::now();
                self.phase = Phase::Working { line: Some(line), started: now, until: Some(now + self.delay) };
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
                t.read(l, p);
            }
        }
        if self.cli == Cli::Claude {
            self.history.push(vec![screens::claude_done_row(self.delay.as_secs())]);
        }
    }

    // ---- drawing ----

    fn screen(&self, cols: usize, rows: usize) -> Screen {
        match &self.phase {
            Phase::Dialog(kind) => {
                let cli = match self.cli {
                    Cli::Claude => "claude-code",
                    Cli::Codex => "codex",
                    Cli::Cursor => "cursor",
                };
                let (ansi, title) = screens::dialog(cli, kind).expect("checked at start");
                // A capture whose title is the capture host's name (`vm`, tmux's default) shows a
                // CLI that had set none: set none either.
                let title = screens::title_of(title);
                let title = if title == "vm" { String::new() } else { title };
                Screen { rows: screens::rows_of(ansi), title, cursor: None }
            }
            Phase::Exited => {
                let mut r = self.shell.clone();
                if r.len() > rows {
                    r.drain(..r.len() - rows);
                }
                let last = r.len() - 1;
                let col = screens::width(&r[last]);
                Screen { rows: r, title: String::new(), cursor: Some((last, col)) }
            }
            _ => match self.cli {
                Cli::Claude => self.claude_screen(cols, rows),
                Cli::Codex => self.codex_screen(cols, rows),
                Cli::Cursor => self.cursor_screen(cols, rows),
            },
        }
    }

    fn working(&self) -> Option<u64> {
        match &self.phase {
            Phase::Working { started, .. } => Some(started.elapsed().as_secs()),
            _ => None,
        }
    }

    fn claude_screen(&self, cols: usize, rows: usize) -> Screen {
        let idle = screens::rows_of(screens::CLAUDE_IDLE.0);
        let mut top: Vec<String> = idle[..11].to_vec();
        top.push(String::new());
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        if let Some(secs) = self.working() {
            top.push(String::new());
            let g = screens::CLAUDE_SPINNER[self.spin / 2 % screens::CLAUDE_SPINNER.len()];
            top.push(screens::claude_spinner_row(g, secs));
            for q in &self.queued {
                top.push(screens::claude_queued_row(q));
            }
        }
        top.push(String::new());
        let composer = if !self.composer.is_empty() {
            wrap_composer(&self.composer, cols)
                .iter()
                .enumerate()
                .map(|(i, l)| if i == 0 { screens::claude_composer(l) } else { format!("  {l}") })
                .collect()
        } else if self.show_placeholder {
            vec![screens::claude_placeholder()]
        } else if !self.queued.is_empty() {
            vec![screens::claude_queued_placeholder()]
        } else {
            vec![screens::claude_composer("")]
        };
        let footer = match (self.working().is_some(), self.composer.is_empty()) {
            (_, false) => String::new(),
            (true, true) => screens::claude_footer_working(),
            (false, true) => screens::claude_footer_idle(),
        };
        let mut bottom = vec![screens::claude_rule(cols)];
        bottom.extend(composer);
        bottom.push(screens::claude_rule(cols));
        bottom.push(footer);
        let (all, _) = stack(top, Vec::new(), bottom, rows, false);
        let title = match self.working() {
            Some(_) => format!("{} Claude Code", if self.spin % 2 == 0 { '⠂' } else { '⠐' }),
            None => "✳ Claude Code".to_string(),
        };
        // Claude hides the terminal cursor and draws its own (the reverse-video cell).
        Screen { rows: all, title, cursor: None }
    }

    fn codex_screen(&self, cols: usize, rows: usize) -> Screen {
        let idle = screens::rows_of(screens::CODEX_IDLE.0);
        let mut top: Vec<String> = idle[..11].to_vec();
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        let mut bottom = Vec::new();
        if let Some(secs) = self.working() {
            bottom.push(screens::codex_working_row(secs));
            bottom.push(String::new());
        }
        bottom.push(String::new());
        let wrapped = wrap_composer(&self.composer, cols).join("\n");
        let composer = screens::codex_composer(&wrapped);
        let composer_at = bottom.len() + composer.len() - 1;
        let cursor_col = 2 + wrapped.rsplit('\n').next().unwrap_or("").chars().count();
        bottom.extend(composer);
        bottom.push(String::new());
        bottom
            .push(screens::codex_status_line(self.thread.as_deref().map(|t| screens::codex_thread(t, "…")).as_deref()));
        bottom.push(if !self.composer.is_empty() {
            if self.working().is_some() {
                "  \x1b[2mtab to queue message\x1b[0m".into()
            } else {
                String::new()
            }
        } else {
            idle[39].clone()
        });
        let bottom_len = bottom.len();
        let (all, _) = stack(top, Vec::new(), bottom, rows, true);
        let composer_row = all.len() - bottom_len + composer_at;
        let base = match &self.thread {
            Some(t) => format!("{} | cproj2", screens::codex_thread(t, "...")),
            None => "cproj2".to_string(),
        };
        let title = match self.working() {
            Some(_) => format!("{} {base}", screens::BRAILLE[self.spin % screens::BRAILLE.len()]),
            None => base,
        };
        Screen { rows: all, title, cursor: Some((composer_row, cursor_col)) }
    }

    /// A Cursor-agent screen as `tests/data/screens/cursor-synthetic/` draws it (no real
    /// Cursor capture exists; those screens are built from documented phrases): transcript
    /// rows, `⬢ Reading…` while working, the input box `│ → <text or placeholder> │`, and under
    /// it the `ctrl+c to stop` hint, which word-wraps in a pane narrower than 32 columns.
    fn cursor_screen(&self, cols: usize, rows: usize) -> Screen {
        let mut top: Vec<String> = Vec::new();
        for b in &self.history {
            top.extend(b.iter().cloned());
        }
        let mut bottom = Vec::new();
        if self.working().is_some() {
            bottom.push(String::new());
            bottom.push("  ⬢ Reading…".to_string());
            bottom.push(String::new());
        }
        // The input box wraps a long line inside its borders (`│ → …│`, then `│   …│`); the
        // placeholder is drawn faint (SGR 2), so a reader takes it for an empty box however
        // narrow the pane; typed text is plain.
        let inner = cols.saturating_sub(6).max(1);
        bottom.push(format!("┌{}┐", "─".repeat(cols.saturating_sub(2))));
        if self.composer.is_empty() {
            let ph: String = "Plan, search, build anything".chars().take(inner).collect();
            let pad = " ".repeat(inner.saturating_sub(ph.chars().count()));
            bottom.push(format!("│ → \x1b[2m{ph}\x1b[0m{pad} │"));
        } else {
            let chars: Vec<char> = self.composer.replace('\n', " ").chars().collect();
            for (i, chunk) in chars.chunks(inner).enumerate() {
                let text: String = chunk.iter().collect();
                let pad = " ".repeat(inner - chunk.len());
                bottom.push(format!("│ {} {text}{pad} │", if i == 0 { "→" } else { " " }));
            }
        }
        bottom.push(format!("└{}┘", "─".repeat(cols.saturating_sub(2))));
        if self.working().is_some() {
            if cols < 32 {
                bottom.push("  ctrl+c to".to_string());
                bottom.push("  stop".to_string());
            } else {
                bottom.push("  ctrl+c to stop".to_string());
            }
        }
        let top: Vec<String> = top.iter().flat_map(|r| soft_wrap(r, cols)).collect();
        let (all, _) = stack(top, Vec::new(), bottom, rows, false);
        Screen { rows: all, title: String::new(), cursor: None }
    }

    fn draw(&mut self, term: &Term, force: bool) {
        let (cols, rows) = term.size();
        let screen = self.screen(cols, rows);
        if !force && self.last_drawn.as_ref() == Some(&(screen.clone(), (cols, rows))) {
            return;
        }
        let mut out = String::new();
        let title_changed = force || self.last_drawn.as_ref().map(|(s, _)| &s.title) != Some(&screen.title);
        let rows_changed = force
            || self.last_drawn.as_ref().map(|(s, sz)| (&s.rows, &s.cursor, *sz))
                != Some((&screen.rows, &screen.cursor, (cols, rows)));
        if title_changed && !(screen.title.is_empty() && self.last_drawn.is_none()) {
            out.push_str(&format!("\x1b]0;{}\x07", screen.title));
        }
        if rows_changed {
            out.push_str("\x1b[?25l\x1b[0m\x1b[H\x1b[2J");
            for (i, r) in screen.rows.iter().take(rows).enumerate() {
                out.push_str(&format!("\x1b[{};1H\x1b[0m", i + 1));
                out.push_str(&screens::truncate(r, cols));
            }
            if let Some((r, c)) = screen.cursor {
                out.push_str(&format!("\x1b[{};{}H\x1b[?25h", r + 1, c.min(cols.saturating_sub(1)) + 1));
            }
        }
        let mut o = std::io::stdout();
        let _ = o.write_all(out.as_bytes());
        let _ = o.flush();
        self.last_drawn = Some((screen, (cols, rows)));
    }
}

/// Lays `top` (anchored at the top), padding, and `bottom` (anchored at the bottom when
/// `pin_bottom`, else right after `top`) into `rows` rows; overflow drops the oldest top rows.
/// Returns the rows and the index where `bottom` starts.
fn stack(
    mut top: Vec<String>,
    _mid: Vec<String>,
    bottom: Vec<String>,
    rows: usize,
    pin_bottom: bool,
) -> (Vec<String>, usize) {
    let room = rows.saturating_sub(bottom.len());
    if top.len() > room {
        top.drain(..top.len() - room);
    }
    if pin_bottom {
        while top.len() < room {
            top.push(String::new());
        }
    }
    let at = top.len();
    top.extend(bottom);
    (top, at)
}

/// Splits a styled row into rows of at most `cols` cells (a terminal's soft wrap).
/// The composer's text as the CLIs draw it: each logical line cut into rows that fit after the
/// two-column prompt (`❯ ` / `› `), continuation rows indented by two spaces by the caller.
fn wrap_composer(text: &str, cols: usize) -> Vec<String> {
    let width = cols.saturating_sub(3).max(8);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let chars: Vec<char> = line.chars().collect();
        if chars.is_empty() {
            out.push(String::new());
            continue;
        }
        for chunk in chars.chunks(width) {
            out.push(chunk.iter().collect());
        }
    }
    out
}

fn soft_wrap(row: &str, cols: usize) -> Vec<String> {
    let plain_w = screens::width(row);
    if plain_w <= cols || cols == 0 {
        return vec![row.to_string()];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut n = 0;
    let mut it = row.chars().peekable();
    let mut sgr = String::new();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            let mut seq = String::from(c);
            if it.peek() == Some(&'[') {
                for c in it.by_ref() {
                    seq.push(c);
                    if ('@'..='~').contains(&c) && c != '[' {
                        break;
                    }
                }
            }
            if seq.ends_with('m') {
                sgr.push_str(&seq);
            }
            cur.push_str(&seq);
            continue;
        }
        if n == cols {
            out.push(std::mem::take(&mut cur) + "\x1b[0m");
            cur.push_str(&sgr);
            n = 0;
        }
        cur.push(c);
        n += 1;
    }
    out.push(cur);
    out
}

fn shell_prompt() -> String {
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

fn file_name(p: &Path) -> String {
    p.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Session transcript rows in the vendor's format (see `tests/data/transcripts/`).
struct Transcript {
    cli: Cli,
    file: PathBuf,
    session: String,
    cwd: PathBuf,
    last_uuid: Option<String>,
    n: u64,
}

impl Transcript {
    fn new(cli: Cli, dir: &str, cwd: &Path) -> Transcript {
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(cwd.as_os_str().as_encoded_bytes());
        let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
        let session = format!("{}-{}-4{}-8{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], &hex[17..20], &hex[20..32]);
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/"));
        let now = chrono::Utc::now();
        let dir = if dir == "auto" {
            match cli {
                Cli::Codex => home.join(".codex/sessions").join(now.format("%Y/%m/%d").to_string()),
                _ => home.join(".claude/projects").join(cwd.to_string_lossy().replace('/', "-")),
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

    fn prompt(&mut self, text: &str) {
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

    fn read(&mut self, _line: &str, path: &Path) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(parse_mode("dialog:trust"), Ok(Mode::Dialog("trust".into())));
        assert!(parse_mode("dialog:nope").is_err());
        assert!(parse_mode("sleepy").is_err());
    }

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
    fn long_composer_text_wraps_instead_of_being_cut() {
        let rows = wrap_composer(&"x".repeat(250), 120);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.concat(), "x".repeat(250));
        assert_eq!(wrap_composer("a\nb", 120), vec!["a", "b"]);
    }

    #[test]
    fn soft_wrap_splits_long_rows() {
        let r = soft_wrap("  > Read \x1b[2m.agents/send-drops\x1b[0m", 12);
        let plain: Vec<String> = r.iter().map(|s| crate::mux::strip_ansi(s)).collect();
        assert_eq!(plain, vec!["  > Read .ag", "ents/send-dr", "ops"]);
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
