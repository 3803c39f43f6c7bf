//! `team hooks install | status | remove`: team's hook commands (`<this team> hook <event>`)
//! where each seat's CLI reads its hooks, in the team's checkout, so that the CLI empties the
//! seat's inbox at its tool calls, turn ends and prompts (`crate::legs::inbox`).
//!
//! Which file a CLI reads is a vendor fact: its profile's description names its
//! [`HookFormat`] (`hooks=claude-settings`, `hooks=codex-hooks-json` among its `features`);
//! this module knows how to write each format of that closed set:
//! - `claude-settings`: `<checkout>/.claude/settings.local.json` (not committed);
//! - `codex-hooks-json`: `<checkout>/.codex/hooks.json`, and `[features] codex_hooks = true`
//!   in `<checkout>/.codex/config.toml` (the project configuration Codex reads for a trusted
//!   checkout, as `team mcp install` writes). Codex then asks the person to trust the new hooks
//!   once, on its `Hooks need review` screen, which the codex profile reads as a dialog;
//! - `gemini-settings`: `hooks` in `<checkout>/.gemini/settings.json` under Gemini CLI's names
//!   ([`event_name`]; project hooks load in a trusted folder);
//! - `qwen-settings`: `hooks` in `<checkout>/.qwen/settings.json`, Claude's shape and names;
//! - `copilot-settings`: `hooks` in `<checkout>/.github/copilot/settings.local.json` (the
//!   repository's settings Copilot keeps out of git) under Copilot's camelCase names, each event
//!   a list of commands, no groups (measured on 1.0.102: it loads there in a trusted folder,
//!   offline, after `.github/hooks/*.json` and `.github/copilot/settings.json`).
//!
//! Invariants: files are merged, never clobbered, and every byte of the user's stays as it was
//! (`edit`; `remove` after `install` gives a file back byte for byte); a file that cannot be
//! read as its format, or not edited keeping the rest of it, is refused with a sentence, never
//! rewritten; every write goes through `fsx` (no link
//! or FIFO on the ladder from the checkout down, whole-file rename); `remove` takes out exactly
//! what `install` put in.

pub mod doc;
pub mod edit;

use std::path::{Path, PathBuf};

use crate::error::TeamError;
use crate::project_files::{self, read, ConfigError};
pub use crate::project_files::{Action, Done};
use crate::team_file::Loaded;
use crate::vocab::hook_event::Event;
use crate::vocab::leg::{HookFormat, IgnoreFile};

/// The events team's hooks answer, in the order they are written.
pub const EVENTS: [Event; 3] = [Event::PostToolUse, Event::Stop, Event::UserPromptSubmit];

/// The hooks file of a format, relative to the checkout.
pub fn file_of(f: HookFormat) -> &'static str {
    match f {
        HookFormat::ClaudeSettings => ".claude/settings.local.json",
        HookFormat::CodexHooksJson => ".codex/hooks.json",
        HookFormat::GeminiSettings => ".gemini/settings.json",
        HookFormat::QwenSettings => ".qwen/settings.json",
        HookFormat::CopilotSettings => ".github/copilot/settings.local.json",
    }
}

/// The name a format gives `event` in its file ([`Event::named_in`]). The answer `team hook`
/// writes is the same for all: Gemini reads `hookSpecificOutput.additionalContext` and
/// `decision`/`reason` without looking at `hookEventName` (measured on 0.61.0, docs/inbox.md).
pub fn event_name(f: HookFormat, event: Event) -> &'static str {
    event.named_in(Some(f))
}

/// Codex's configuration file that carries the switch, relative to the checkout.
pub const CODEX_CONFIG: &str = ".codex/config.toml";

/// What a seat's checkout holds of team's hooks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Every event runs this team (and Codex's switch is on).
    Installed,
    /// None of team's hooks.
    Missing,
    /// Team's hooks run another team (the path they name).
    Stale { command: String },
    /// Some of team's hooks are there, not all (the events or the switch missing).
    Incomplete { missing: Vec<String> },
    /// The seat's CLI has no hooks team can install.
    Unsupported,
    /// A file cannot be read as its format (why).
    Unreadable { why: String },
}

crate::vocab::doc::words!(State = ["installed", "missing", "stale", "incomplete", "unsupported", "unreadable"]);

impl State {
    pub fn word(&self) -> &'static str {
        match self {
            State::Installed => "installed",
            State::Missing => "missing",
            State::Stale { .. } => "stale",
            State::Incomplete { .. } => "incomplete",
            State::Unsupported => "unsupported",
            State::Unreadable { .. } => "unreadable",
        }
    }

    /// Whether the seat's CLI runs a team hook at every event (a stale path still does).
    pub fn runs(&self) -> bool {
        matches!(self, State::Installed | State::Stale { .. })
    }

    /// The sentence after `<seat>: <word>`.
    pub fn detail(&self, format: Option<HookFormat>) -> String {
        let file = format.map(file_of).unwrap_or("-");
        let name = |e| format.map_or(Event::vendor(e), |f| event_name(f, e));
        let events = EVENTS.map(name).join(", ");
        match self {
            State::Installed => format!("{file} runs this team at {events}"),
            State::Missing => format!("{file} has no team hooks (team hooks install adds them)"),
            State::Stale { command } => {
                format!("{file} runs `{command} hook …`, not this team (team hooks install points it here)")
            }
            State::Incomplete { missing } => {
                format!("{file} lacks {} (team hooks install completes it)", missing.join(", "))
            }
            State::Unsupported => "its CLI has no hooks team can install".into(),
            State::Unreadable { why } => why.clone(),
        }
    }
}

/// One seat's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub seat: String,
    pub cli: String,
    pub format: Option<HookFormat>,
    /// The hooks file (absolute), when the CLI has a format.
    pub path: Option<PathBuf>,
    /// Before install/remove acted (status: now).
    pub state: State,
    pub done: Option<Done>,
}

/// The state of a format's files in `root` for the team at `exe`.
pub fn state(root: &Path, f: HookFormat, exe: &str) -> State {
    match read_state(root, f, exe) {
        Ok(s) => s,
        Err(why) => State::Unreadable { why: why.to_string() },
    }
}

/// Whether the checkout's CLI of format `f` runs team's hooks (the walk's one question): any
/// team's, this one or another.
pub fn installed(root: &Path, f: HookFormat) -> bool {
    state(root, f, "").runs()
}

fn read_state(root: &Path, f: HookFormat, exe: &str) -> Result<State, ConfigError> {
    let file = file_of(f);
    let text = read(root, file)?;
    let found = edit::found(&edit::json_root(text.as_deref(), file)?, f, file)?;
    let mut missing: Vec<String> =
        EVENTS.iter().filter(|e| !found.iter().any(|(g, _)| g == *e)).map(|e| event_name(f, *e).to_string()).collect();
    if f == HookFormat::CodexHooksJson && edit::codex_switch(read(root, CODEX_CONFIG)?.as_deref())? != Some(true) {
        missing.push("[features] codex_hooks = true in .codex/config.toml".into());
    }
    if found.is_empty() {
        return Ok(State::Missing);
    }
    if !missing.is_empty() {
        return Ok(State::Incomplete { missing });
    }
    Ok(match found.iter().find(|(_, p)| p != exe) {
        Some((_, other)) => State::Stale { command: other.clone() },
        None => State::Installed,
    })
}

/// Runs `action` for the seats `named` (all when empty) of the cwd's team file, for the `team`
/// this program is, each CLI's hook format as its profile says it.
pub fn run_here<'w>(
    ws: &'w crate::workspace::Workspace,
    named: &[String],
    action: Action,
) -> Result<(&'w Loaded, Vec<Row>, Vec<Ignored>), TeamError> {
    let l = ws.team()?;
    let exe = ws.own_exe()?;
    let rows = run(l, named, &exe, action, |cli| format_of(ws.profiles(), cli, &l.file.profiles))?;
    let description = |cli: &str| ws.profiles().description(cli, &l.file.profiles).ok().map(|(d, _)| d.features);
    let ignored = ignore_files(l, named, action, |cli| description(cli).and_then(|f| IgnoreFile::from_features(&f)))?;
    Ok((l, rows, ignored))
}

/// What install or remove did to one CLI's own ignore file: the `!.agents/send-drops/` line
/// its file tools need to read the message drops (`project_files::ignore`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    pub file: IgnoreFile,
    /// The seats whose CLI's profile names it.
    pub seats: Vec<String>,
    pub done: Done,
}

/// The hooks run's second part: the ignore file each CLI's profile names (`ignore_of(cli)`,
/// `ignore-file=<name>` of the closed set) gets the line on install and loses it on remove,
/// once per file however many seats name it; status reads nothing. The checkout's
/// hooks are where a seat's CLI is set up to take the inbox's messages, and a hook's answer
/// names a message's drop: so the line goes and comes with them.
pub fn ignore_files(
    l: &Loaded,
    named: &[String],
    action: Action,
    ignore_of: impl Fn(&str) -> Option<IgnoreFile>,
) -> Result<Vec<Ignored>, TeamError> {
    if action == Action::Status {
        return Ok(Vec::new());
    }
    let mut by_file: std::collections::BTreeMap<IgnoreFile, Vec<String>> = Default::default();
    for s in l.file.seats.iter().filter(|s| named.is_empty() || named.contains(&s.name)) {
        if let Some(f) = ignore_of(&s.cli) {
            by_file.entry(f).or_default().push(s.name.clone());
        }
    }
    let mut out = Vec::new();
    for (file, seats) in by_file {
        let done = project_files::ignore::act(&l.root, file, action)
            .map_err(|why| TeamError::refused(format!("{why}; {} was not written", file.word())))?
            .unwrap_or(Done::Unchanged);
        out.push(Ignored { file, seats, done });
    }
    Ok(out)
}

/// Runs `action` for the seats `named` (all when empty) of `l`; `format_of(cli)` is what the
/// CLI's profile says; `exe` is the team the hooks run. One read and at most one write per
/// format, however many seats share it (`project_files::run`). A file that cannot be written
/// is refused (the rows before it stand: each file is written whole or not at all).
pub fn run(
    l: &Loaded,
    named: &[String],
    exe: &str,
    action: Action,
    format_of: impl Fn(&str) -> Option<HookFormat>,
) -> Result<Vec<Row>, TeamError> {
    let rows = project_files::run(l, named, action, format_of, State::Unsupported, |f| act(&l.root, f, exe, action))?;
    Ok(rows
        .into_iter()
        .map(|r| Row {
            path: r.place.map(|f| l.root.join(file_of(f))),
            seat: r.seat,
            cli: r.cli,
            format: r.place,
            state: r.state,
            done: r.done,
        })
        .collect())
}

fn act(root: &Path, f: HookFormat, exe: &str, action: Action) -> Result<(State, Option<Done>), TeamError> {
    let file = file_of(f);
    let refused = |why: ConfigError| TeamError::refused(format!("{why}; nothing was written"));
    let state = state(root, f, exe);
    let done = match (action, &state) {
        (Action::Status, _) => return Ok((state, None)),
        (_, State::Unsupported) => Done::LeftAlone,
        (_, State::Unreadable { why }) => return Err(TeamError::refused(format!("{why}; nothing was written"))),
        (Action::Install, State::Installed) | (Action::Remove, State::Missing) if !codex_left(root, f, action) => {
            Done::Unchanged
        }
        (Action::Install, _) => {
            let text = read(root, file).map_err(refused)?;
            let json = edit::installed(text.as_deref(), f, &EVENTS, exe, file).map_err(refused)?;
            codex_switch(root, f, true).map_err(refused)?;
            write(root, file, &json).map_err(refused)?;
            Done::Written
        }
        (Action::Remove, _) => {
            if let Some(json) = edit::removed(read(root, file).map_err(refused)?.as_deref(), file).map_err(refused)? {
                write(root, file, &json).map_err(refused)?;
            }
            codex_switch(root, f, false).map_err(refused)?;
            Done::Removed
        }
    };
    Ok((state, Some(done)))
}

/// Sets Codex's switch (`on`) or takes team's out, when the format is Codex's and it is not
/// already so.
fn codex_switch(root: &Path, f: HookFormat, on: bool) -> Result<(), ConfigError> {
    if f != HookFormat::CodexHooksJson {
        return Ok(());
    }
    if let Some(t) = edit::codex_switched(read(root, CODEX_CONFIG)?.as_deref(), on)? {
        write(root, CODEX_CONFIG, &t)?;
    }
    Ok(())
}

/// Whether Codex's switch still has work to do when the hooks file is already as asked (a
/// remove after the hooks were taken out by hand still takes out team's switch).
fn codex_left(root: &Path, f: HookFormat, action: Action) -> bool {
    if f != HookFormat::CodexHooksJson || action != Action::Remove {
        return false;
    }
    let cfg = read(root, CODEX_CONFIG).ok().flatten();
    edit::codex_switched(cfg.as_deref(), false).ok().flatten().is_some()
}

/// The hook format a CLI's profile names (`None`: no usable profile, or no hooks).
pub fn format_of(
    profiles: &crate::profiles::ProfileHost,
    cli: &str,
    pins: &std::collections::BTreeMap<String, String>,
) -> Option<HookFormat> {
    profiles.description(cli, pins).ok().and_then(|(d, _)| HookFormat::from_features(&d.features))
}

/// When a seat's hooks were last seen running: the newest `handed` receipt for it, or `None`.
pub fn last_seen(config: &Path, project: &str, root: &Path, seat: &str) -> Option<String> {
    let dir = crate::history::project_dir(config, project, root);
    let (rs, _) = crate::history::read_receipts(config, &dir).ok()?;
    rs.into_iter()
        .rev()
        .find(|r| r.receipt == crate::history::ReceiptKind::Handed && r.to == seat)
        .map(|r| r.ts.to_string())
}

/// Hook files are the owner's alone: a new one is made 0600 (an existing one keeps its mode).
fn write(root: &Path, rel: &str, text: &str) -> Result<(), ConfigError> {
    crate::project_files::write(root, rel, text, 0o600)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_keep;
