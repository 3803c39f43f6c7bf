//! The fake seat's `codex cloud` (Codex 0.171.0's Cloud Tasks TUI): the task list, the
//! environment chooser, the New Task composer, submitting, created and the failures, drawn as
//! the real captures in `tests/data/screens/codex-cloud-0.171.0/` draw them (a test below
//! renders each captured state and compares it with the capture's text, row for row) and
//! reacting to keys as `docs/grok-and-compose.md` parts B and C describe.
//!
//! Facts it reproduces: the chooser searches by substring over the whole row (label, id, repo
//! hint), keeps `All Environments (Global)` first with the cursor on it, lists pinned rows
//! first and the rest by label, and takes space, `j` and `k` as search text (only the arrows
//! move); `n` starts New Task on the list's environment; Ctrl+O opens the chooser from the
//! composer and keeps the brief; Enter empties the composer at once, shows `Submitting new
//! task…` while the POST is out (`--delay-ms`), then `Submitted as <task id> — refreshing…`
//! for ~70 ms with the new `[PENDING] <brief cut to 60>` row on top; `No environment selected`
//! and `Submit failed: …` empty the composer; the environment whose label is the folder's
//! `git remote get-url origin` repo gets the repo-hint column and is selected at start.
//! Ctrl+C, `q` and Esc on the list quit to a shell.
//!
//! `--mode`: `takes-task` (default); `submit-fails` (the POST answers 500); `created-line-stays`
//! / `created-line-missed` (the `Submitted as` line stays until the next key / is never drawn,
//! so a test sees exactly one evidence form); `lookalike` (a pinned `<repo>-staging` beside
//! the repo's environment); `two-matches` (a second environment carries the repo's hint);
//! `never-collapses` (the search filters nothing); `header-stays` (the list was last set to
//! `acme/team-alpha`, and choosing an environment from the composer does not change its header).
//!
//! Invariant: every byte received is appended to `--log` before it is acted on.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::Args;

mod draw;
use draw::draw;

/// How the imitation misbehaves, if at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    TakesTask,
    SubmitFails,
    CreatedLineStays,
    CreatedLineMissed,
    Lookalike,
    TwoMatches,
    NeverCollapses,
    HeaderStays,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Ok(match s {
        "takes-task" | "takes-line" => Mode::TakesTask,
        "submit-fails" => Mode::SubmitFails,
        "created-line-stays" => Mode::CreatedLineStays,
        "created-line-missed" => Mode::CreatedLineMissed,
        "lookalike" => Mode::Lookalike,
        "two-matches" => Mode::TwoMatches,
        "never-collapses" => Mode::NeverCollapses,
        "header-stays" => Mode::HeaderStays,
        other => return Err(format!("unknown codex-cloud mode \"{other}\" (takes-task, submit-fails, created-line-stays, created-line-missed, lookalike, two-matches, never-collapses, header-stays)")),
    })
}

/// One environment of the chooser.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Env {
    label: String,
    id: String,
    pinned: bool,
    hint: Option<String>,
}

impl Env {
    fn new(label: &str, id: &str, pinned: bool) -> Env {
        Env { label: label.into(), id: id.into(), pinned, hint: None }
    }
    /// The row as the chooser draws (and searches) it.
    fn row(&self) -> String {
        let mut f = vec![self.label.as_str()];
        if self.pinned {
            f.push("PINNED");
        }
        f.push(&self.id);
        if let Some(h) = &self.hint {
            f.push(h);
        }
        f.join("  ")
    }
}

/// One task row of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Task {
    status: &'static str,
    title: String,
    env: Option<String>,
    age: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Page {
    List,
    NewTask,
    Exited,
}

/// Where a submit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Submit {
    None,
    InFlight(Instant),
    Created(Instant),
}

/// The whole state the screens are drawn from.
#[derive(Debug, Clone)]
struct Cloud {
    mode: Mode,
    envs: Vec<Env>,
    tasks: Vec<Task>,
    cursor: usize,
    list_env: Option<String>,
    page: Page,
    task_env: Option<String>,
    composer: String,
    /// The chooser, when open: (search, cursor row).
    chooser: Option<(String, usize)>,
    status: String,
    submit: Submit,
    brief: String,
    delay: Duration,
    serial: u32,
}

/// The environments of the captures (`env-chooser-full`), plus what a mode adds; the one
/// whose label is `repo` gets the repo-hint column.
fn environments(mode: Mode, repo: Option<&str>) -> Vec<Env> {
    let mut envs = vec![
        Env::new("acme/widgets", "env_widgets", true),
        Env::new("acme/docs-site", "env_docs", false),
        Env::new("acme/infra", "env_infra", false),
        Env::new("acme/team-alpha", "env_team_alpha", false),
        Env::new("acme/team-beta", "env_team_beta", false),
    ];
    if let Some(r) = repo {
        if mode == Mode::Lookalike {
            envs.push(Env::new(&format!("{r}-staging"), "env_staging", true));
        }
        if mode == Mode::TwoMatches {
            let mut e = Env::new(&format!("{} prod", r.rsplit('/').next().unwrap_or(r)), "env_prod", false);
            e.hint = Some(r.to_string());
            envs.push(e);
        }
        for e in envs.iter_mut().filter(|e| e.label == r) {
            e.hint = Some(r.to_string());
        }
    }
    // Pinned first, then by label.
    envs.sort_by(|a, b| b.pinned.cmp(&a.pinned).then_with(|| a.label.cmp(&b.label)));
    envs
}

impl Cloud {
    fn new(mode: Mode, repo: Option<&str>, delay: Duration) -> Cloud {
        let envs = environments(mode, repo);
        // The by-repo lookup selects the repo's environment at start (else `All`).
        let mut list_env =
            envs.iter().find(|e| e.hint.is_some() && Some(e.label.as_str()) == repo).map(|e| e.label.clone());
        if mode == Mode::HeaderStays {
            // The list was last set to another environment, and `n` starts New Task on it.
            list_env = Some("acme/team-alpha".into());
        }
        let tasks = vec![
            Task {
                status: "READY",
                title: "Fix flaky login test".into(),
                env: Some("acme/team-alpha".into()),
                age: "1h ago".into(),
            },
            Task {
                status: "PENDING",
                title: "Add pagination to /widgets".into(),
                env: Some("acme/widgets".into()),
                age: "2h ago".into(),
            },
        ];
        Cloud {
            mode,
            envs,
            tasks,
            cursor: 0,
            list_env,
            page: Page::List,
            task_env: None,
            composer: String::new(),
            chooser: None,
            status: "Loaded tasks".into(),
            submit: Submit::None,
            brief: String::new(),
            delay,
            serial: 0,
        }
    }

    /// The chooser's rows for its search: `All Environments (Global)` first, then every row
    /// holding the search (any case) — all of them when the chooser never collapses.
    fn matches(&self, search: &str) -> Vec<Option<&Env>> {
        let s = search.to_lowercase();
        let mut out = vec![None];
        out.extend(
            self.envs
                .iter()
                .filter(|e| self.mode == Mode::NeverCollapses || e.row().to_lowercase().contains(&s))
                .map(Some),
        );
        out
    }

    /// Applies one key; false when the CLI has quit.
    fn key(&mut self, k: Input) {
        if self.page == Page::Exited {
            return;
        }
        if self.mode == Mode::CreatedLineStays && self.status.starts_with("Submitted as ") {
            self.status = "Loaded tasks".into();
        }
        if k == Input::CtrlC {
            self.page = Page::Exited;
            return;
        }
        if let Some((search, cur)) = self.chooser.clone() {
            let n = self.matches(&search).len();
            match k {
                Input::Char(c) => self.chooser = Some((format!("{search}{c}"), 0)),
                Input::Backspace => {
                    let mut s = search;
                    s.pop();
                    self.chooser = Some((s, 0));
                }
                Input::Down => self.chooser = Some((search, (cur + 1).min(n - 1))),
                Input::Up => self.chooser = Some((search, cur.saturating_sub(1))),
                Input::Esc => self.chooser = None,
                Input::Enter => {
                    let chosen = self.matches(&search)[cur].map(|e| e.label.clone());
                    self.chooser = None;
                    match self.page {
                        Page::NewTask if self.mode != Mode::HeaderStays => self.task_env = chosen,
                        Page::NewTask => {}
                        _ => self.list_env = chosen,
                    }
                }
                _ => {}
            }
            return;
        }
        match self.page {
            Page::List => match k {
                Input::Char('n') => {
                    self.page = Page::NewTask;
                    self.task_env = self.list_env.clone();
                    self.composer.clear();
                    self.status = "New Task: Enter to submit; Esc to cancel".into();
                }
                Input::Char('o') => self.chooser = Some((String::new(), 0)),
                Input::Char('q') | Input::Esc => self.page = Page::Exited,
                Input::Down => self.cursor = (self.cursor + 1).min(self.tasks.len().saturating_sub(1)),
                Input::Up => self.cursor = self.cursor.saturating_sub(1),
                _ => {}
            },
            Page::NewTask => match k {
                _ if matches!(self.submit, Submit::InFlight(_)) => {}
                Input::Char(c) => self.composer.push(c),
                Input::Backspace => {
                    self.composer.pop();
                }
                Input::CtrlO => self.chooser = Some((String::new(), 0)),
                Input::Esc => {
                    self.page = Page::List;
                    self.status = "Canceled new task".into();
                }
                Input::Enter => {
                    let brief = std::mem::take(&mut self.composer);
                    if self.task_env.is_none() {
                        self.status = "No environment selected".into();
                    } else if !brief.trim().is_empty() {
                        self.brief = brief;
                        self.status = "Submitting new task…".into();
                        self.submit = Submit::InFlight(Instant::now());
                    }
                }
                _ => {}
            },
            Page::Exited => {}
        }
    }

    /// Moves a submit along; true when the screen changed.
    fn tick(&mut self, now: Instant) -> bool {
        match self.submit {
            Submit::InFlight(at) if now >= at + self.delay => {
                if self.mode == Mode::SubmitFails {
                    self.status = "Submit failed: http error: create_task failed: POST https://chatgpt.com/backend-api/wham/tasks failed: 500 Internal Serv".into();
                    self.submit = Submit::None;
                    return true;
                }
                self.serial += 1;
                let id = format!("task_e_{:012x}", 0xb9b4_2497_c872u64 + u64::from(self.serial));
                let title: String = self.brief.chars().take(60).collect();
                self.tasks
                    .insert(0, Task { status: "PENDING", title, env: self.task_env.clone(), age: "0s ago".into() });
                self.cursor = 0;
                self.page = Page::List;
                self.list_env = self.task_env.clone();
                self.status = match self.mode {
                    Mode::CreatedLineMissed => "Loaded tasks".into(),
                    _ => format!("Submitted as {id} — refreshing…"),
                };
                self.submit = Submit::Created(now);
                true
            }
            // The transient line lives ~70 ms (part B), unless the mode keeps it.
            Submit::Created(at) if now >= at + Duration::from_millis(70) => {
                self.submit = Submit::None;
                if self.mode != Mode::CreatedLineStays && self.status.starts_with("Submitted as ") {
                    self.status = "Loaded tasks".into();
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        match self.submit {
            Submit::InFlight(at) => Some(at + self.delay),
            Submit::Created(at) => Some(at + Duration::from_millis(70)),
            Submit::None => None,
        }
    }
}

/// A key as the TUI reads it from the terminal's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    Char(char),
    Enter,
    Backspace,
    Down,
    Up,
    Esc,
    CtrlO,
    CtrlC,
    Other,
}

/// Splits what the terminal sent into keys (`ESC [ A/B` are the arrows; a lone ESC is Esc).
fn keys(bytes: &[u8], pending: &mut Vec<u8>) -> Vec<Input> {
    pending.extend_from_slice(bytes);
    let mut out = Vec::new();
    let mut i = 0;
    let b = pending.clone();
    while i < b.len() {
        match b[i] {
            0x1b => match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'['), Some(b'A')) => (out.push(Input::Up), i += 3).1,
                (Some(b'['), Some(b'B')) => (out.push(Input::Down), i += 3).1,
                (Some(b'['), Some(_)) => (out.push(Input::Other), i += 3).1,
                (Some(b'['), None) => break,
                _ => (out.push(Input::Esc), i += 1).1,
            },
            b'\r' | b'\n' => (out.push(Input::Enter), i += 1).1,
            0x7f | 0x08 => (out.push(Input::Backspace), i += 1).1,
            0x0f => (out.push(Input::CtrlO), i += 1).1,
            0x03 => (out.push(Input::CtrlC), i += 1).1,
            c if c < 0x20 => (out.push(Input::Other), i += 1).1,
            _ => {
                let len = match b[i] {
                    0xf0..=0xff => 4,
                    0xe0..=0xef => 3,
                    0xc0..=0xdf => 2,
                    _ => 1,
                };
                if i + len > b.len() {
                    break;
                }
                let ch = std::str::from_utf8(&b[i..i + len]).ok().and_then(|s| s.chars().next()).unwrap_or('\u{fffd}');
                out.push(Input::Char(ch));
                i += len;
            }
        }
    }
    pending.drain(..i);
    out
}

/// Runs the imitation until its terminal closes (or it quits and the terminal closes).
pub fn run(args: &Args) -> Result<(), String> {
    let mode = parse_mode(&args.mode)?;
    let mut log = super::open_log(args.log.as_deref())?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| Path::new("/").to_path_buf());
    // The CLI's own lookup: the folder's GitHub remote (`vendor::repo_of`).
    let repo = crate::vendor::repo_of(&cwd);
    let mut cloud = Cloud::new(mode, repo.as_deref(), Duration::from_millis(args.delay_ms));
    let mut term = super::Term::enter(args.drawn.clone())?;
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = [0u8; 4096];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut pending = Vec::new();
    loop {
        // Painted through the seat's one terminal writer, so `--drawn` records each frame.
        let size = term.size();
        let rows = draw(&cloud, size.0.max(40), size.1.max(12)).styled();
        term.paint(&super::screens::Screen { rows, title: String::new(), cursor: None }, size, false);
        let wait = cloud
            .next_wake()
            .map(|t| t.saturating_duration_since(Instant::now()))
            .unwrap_or(Duration::from_millis(250));
        match rx.recv_timeout(wait) {
            Ok(bytes) => {
                if let Some(f) = &mut log {
                    let _ = f.write_all(&bytes);
                    let _ = f.flush();
                }
                for k in keys(&bytes, &mut pending) {
                    cloud.key(k);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
        cloud.tick(Instant::now());
    }
}

#[cfg(test)]
mod tests;
