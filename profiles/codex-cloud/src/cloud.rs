//! What a `codex cloud` (Codex 0.171.0) screen shows, parsed once: which page, its header's
//! environment, the environment chooser, the New Task composer, the task rows and the status
//! line. Specified by the real screens in `tests/data/screens/codex-cloud-0.171.0/` and
//! `docs/grok-and-compose.md` part B/C.
//!
//! - The page is a full-pane box whose top border carries the header:
//!   `┌Cloud Tasks • <env label|All>  • 0%──┐` (the task list) or
//!   `┌New Task  • <env label|Env: none (press ctrl-o to choose)>  • 1 attempt──┐`.
//! - The chooser is a rounded modal over either page: `╭Select Environment──╮`, then
//!   `Type to search, Enter select, Esc cancel`, `Search: <typed>`, and option rows
//!   `› All Environments (Global)` / `  <label>  [PINNED]  <id>  [<repo hint>]` (`›` = cursor).
//! - The New Task composer is the `│› ` row at the bottom of the box (continuation rows `│  `)
//!   above the `⏎ send · …` hint; `Compose new task` in dim is its placeholder.
//! - The status line is the last row under the box.

use profile_kit::View;

/// The page under any modal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    TaskList,
    NewTask,
}

/// One option row of the environment chooser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvRow {
    /// The environment's label (`acme/team-beta`); `All Environments (Global)` for the first row.
    pub label: String,
    pub pinned: bool,
    /// Its id (`env_team_beta`); empty for `All Environments (Global)`.
    pub id: String,
    /// The repo hint column (`acme/team-beta`), when the git-origin lookup found it.
    pub hint: Option<String>,
    /// The cursor (`›`) is on it.
    pub selected: bool,
}

/// The first row of every chooser: it selects no environment.
pub const ALL_ENVIRONMENTS: &str = "All Environments (Global)";

impl EnvRow {
    /// True for `All Environments (Global)`.
    pub fn is_all(&self) -> bool {
        self.label == ALL_ENVIRONMENTS
    }
}

/// The environment chooser, when it is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chooser {
    /// What the search field holds.
    pub search: String,
    /// Every option row, `All Environments (Global)` first.
    pub rows: Vec<EnvRow>,
}

impl Chooser {
    /// The rows that are environments (all but `All Environments (Global)`).
    pub fn envs(&self) -> impl Iterator<Item = &EnvRow> {
        self.rows.iter().filter(|r| !r.is_all())
    }

    /// The row the cursor is on.
    pub fn selected(&self) -> Option<&EnvRow> {
        self.rows.iter().find(|r| r.selected)
    }
}

/// The New Task composer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Box {
    /// Only the dim placeholder.
    Empty,
    /// This text, wrapped rows unwrapped into one line.
    Holds(String),
}

/// A task row of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// `READY`, `PENDING`, …
    pub status: String,
    /// The title as drawn (cut to the row).
    pub title: String,
    /// The environment label on the row under it (`acme/team-beta  •  56s ago`).
    pub env: Option<String>,
    /// The row's text (`[PENDING] Add a retry …`).
    pub line: String,
}

/// A parsed `codex cloud` screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cloud {
    pub page: Page,
    /// The header's environment label; `None` for `All` and `Env: none (…)`.
    pub env: Option<String>,
    pub chooser: Option<Chooser>,
    /// The New Task composer (page `NewTask` only).
    pub composer: Option<Box>,
    /// The task rows, top first (page `TaskList` only).
    pub tasks: Vec<Task>,
    /// The status line under the box (`Loaded tasks`, `Submitting new task…`, …).
    pub status: String,
}

/// The chars of a row from `from` (a char index) to `to` (exclusive), trimmed.
fn cols(text: &str, from: usize, to: usize) -> String {
    text.chars().skip(from).take(to.saturating_sub(from)).collect::<String>().trim().to_string()
}

/// Splits a row into its fields (runs separated by two or more spaces).
fn fields(s: &str) -> Vec<&str> {
    s.split("  ").map(str::trim).filter(|f| !f.is_empty()).collect()
}

fn header(text: &str) -> Option<(Page, Option<String>)> {
    let inner = text.strip_prefix('┌')?;
    let end = inner.find('─').unwrap_or(inner.len());
    let parts: Vec<&str> = inner[..end].split('•').map(str::trim).collect();
    let page = match *parts.first()? {
        "Cloud Tasks" => Page::TaskList,
        "New Task" => Page::NewTask,
        _ => return None,
    };
    let env =
        parts.get(1).filter(|e| !e.is_empty() && **e != "All" && !e.starts_with("Env: none")).map(|e| e.to_string());
    Some((page, env))
}

fn chooser(v: &View) -> Option<Chooser> {
    let top = v.rows.iter().position(|r| r.text.contains("╭Select Environment"))?;
    let left = v.rows[top].text.chars().position(|c| c == '╭')?;
    let right = v.rows[top].text.chars().position(|c| c == '╮')?;
    let mut search = String::new();
    let mut rows = Vec::new();
    for r in &v.rows[top + 1..] {
        if r.text.chars().nth(left) == Some('╰') {
            break;
        }
        let inner = cols(&r.text, left + 1, right);
        if let Some(s) = inner.strip_prefix("Search:") {
            // The field is drawn padded: a typed trailing space cannot be told from padding.
            search = s.trim().to_string();
            continue;
        }
        if inner.is_empty() || inner.starts_with("Type to search") {
            continue;
        }
        let (selected, rest) = match inner.strip_prefix("› ") {
            Some(r) => (true, r),
            None => (false, inner.as_str()),
        };
        let f = fields(rest);
        let Some(label) = f.first() else { continue };
        if *label == ALL_ENVIRONMENTS {
            rows.push(EnvRow { label: label.to_string(), pinned: false, id: String::new(), hint: None, selected });
            continue;
        }
        let pinned = f.get(1) == Some(&"PINNED");
        let rest = &f[if pinned { 2 } else { 1 }..];
        rows.push(EnvRow {
            label: label.to_string(),
            pinned,
            id: rest.first().map(|s| s.to_string()).unwrap_or_default(),
            hint: rest.get(1).map(|s| s.to_string()),
            selected,
        });
    }
    Some(Chooser { search, rows })
}

/// The row's text inside the page box (`│…│`), trimmed at the right border.
fn in_box(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('│')?;
    Some(inner.strip_suffix('│').unwrap_or(inner))
}

fn composer(v: &View, bottom: usize) -> Option<Box> {
    let hint = (0..bottom).rev().find(|&i| in_box(&v.rows[i].text).map(|t| t.contains("⏎ send")).unwrap_or(false))?;
    let first =
        (0..hint).rev().find(|&i| in_box(&v.rows[i].text).map(|t| t.starts_with("› ") || t == "›").unwrap_or(false))?;
    // The placeholder is dim; with no styling given, its words say it. The right border is
    // not part of the text.
    let row = &v.rows[first];
    let border = row.text.chars().count().saturating_sub(usize::from(row.text.ends_with('│')));
    let head = row.span(3, border);
    if head.faint_only || (!v.styled && head.text == "Compose new task") {
        return Some(Box::Empty);
    }
    let mut parts = vec![head.text];
    for r in &v.rows[first + 1..hint] {
        let Some(t) = in_box(&r.text) else { break };
        let t = t.trim();
        if !t.is_empty() {
            parts.push(t.to_string());
        }
    }
    let text = profile_kit::text::unwrap_rows(parts.iter().map(String::as_str));
    Some(if text.is_empty() { Box::Empty } else { Box::Holds(text) })
}

fn tasks(v: &View, bottom: usize) -> Vec<Task> {
    let mut out = Vec::new();
    for i in 1..bottom {
        let Some(t) = in_box(&v.rows[i].text) else { continue };
        let t = t.trim_start_matches('›').trim();
        let Some(rest) = t.strip_prefix('[') else { continue };
        let Some((status, title)) = rest.split_once(']') else { continue };
        if status.is_empty() || !status.chars().all(|c| c.is_ascii_uppercase()) {
            continue;
        }
        let env = v.rows.get(i + 1).and_then(|r| in_box(&r.text)).and_then(|n| {
            let f: Vec<&str> = n.split('•').map(str::trim).collect();
            (f.len() >= 2 && !f[0].is_empty() && !f[0].ends_with("ago")).then(|| f[0].to_string())
        });
        // A chooser drawn over the list cuts the rows it covers: only whole rows count.
        let title = title.split('│').next().unwrap_or("").trim().to_string();
        out.push(Task { status: status.to_string(), line: format!("[{status}] {title}"), title, env });
    }
    out
}

/// Parses a screen; `None` when it is not a `codex cloud` page.
pub fn parse(v: &View) -> Option<Cloud> {
    let top = v.rows.iter().position(|r| !r.is_blank())?;
    let (page, env) = header(v.rows[top].trimmed())?;
    let bottom = (top + 1..v.rows.len()).find(|&i| v.rows[i].text.starts_with('└')).unwrap_or(v.rows.len());
    let status = (bottom + 1..v.rows.len()).rev().map(|i| v.rows[i].trimmed()).find(|t| !t.is_empty()).unwrap_or("");
    let chooser = chooser(v);
    let composer = if page == Page::NewTask && chooser.is_none() { composer(v, bottom) } else { None };
    let tasks = if page == Page::TaskList { tasks(v, bottom) } else { Vec::new() };
    // The hint row under the box is not the status line.
    let status = if status.starts_with("↑/↓") { String::new() } else { status.to_string() };
    Some(Cloud { page, env, chooser, composer, tasks, status })
}
