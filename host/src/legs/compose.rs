//! The compose leg: a seat whose CLI builds its own work item from its screens (a profile with
//! a compose module, such as `codex-cloud`) gets the drop file, and the brief is typed through
//! those screens by the module, one action at a time, against the multiplexer port
//! (docs/spec/team-send.md: "delivered there means the CLI printed the line that creates the item").
//!
//! The host executes each action the module asks for, reads the screen after it, and calls
//! again. Invariants that matter to a user:
//! - the host presses only the keys of `Key::ALLOWED` and types only printable text; a module
//!   that asks for anything else, runs past its steps or its time, or traps, is stopped there
//!   and nothing more is typed;
//! - after `refuse` or `failed` nothing more of the brief is typed; a refusal that came once
//!   keys were typed leads the pane back to where the compose found it with the profile's way
//!   back (`compose-back=esc`), one press per screen change, and says where it ended ([`back`]);
//! - `delivered` needs the module's evidence line on the screen the host last read, after an
//!   Enter that followed the typed brief;
//! - the brief is typed for one repo: the seat's folder's `git remote get-url origin`; a folder
//!   with none is refused before anything is typed.

pub mod back;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::clock::Clock;
use crate::error::TeamError;
use crate::mux::{self, Mux, MuxError, PaneRef};
use crate::profiles::{Action, Evidence, Key, Profile, Repo, Screen, Step};
use crate::vocab::outcome::{Ended, Note};

/// What a compose run may do.
#[derive(Debug, Clone)]
pub struct Bounds {
    /// Actions executed (waits included), at most.
    pub max_steps: u32,
    /// Typing actions (`type` and `press`), at most.
    pub max_keys: u32,
    /// Milliseconds from the first read, at most (before `TEAM_TIME_SCALE`).
    pub max_ms: u64,
    /// The longest single wait a module may ask for; longer ones are cut to it.
    pub max_wait_ms: u32,
    /// The most characters one `type` action may type.
    pub max_type_chars: usize,
}

/// The one table of the compose leg's bounds.
pub const BOUNDS: Bounds =
    Bounds { max_steps: 1_000, max_keys: 40, max_ms: 30_000, max_wait_ms: 2_000, max_type_chars: 4_096 };

/// A compose run: how it ended and every action the host executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Delivered (its note the item created, or `taken, not yet confirmed: <why>` when Enter
    /// was pressed on the brief and no line creating the item showed in the bounds: the item
    /// may exist, so the brief is never typed again); refused (nothing of the brief typed, on
    /// purpose); not-submitted (typed, not taken); unreachable (the pane could not be read or
    /// typed into, or the module asked for what the host does not do, ran past its bounds or
    /// failed: stopped there, nothing more typed).
    pub ended: Ended,
    /// The CLI's line that created the item, when the run ended delivered by it.
    pub created: Option<Evidence>,
    pub done: Vec<Action>,
    /// Whether any of the brief was typed.
    pub brief_typed: bool,
}

/// The seat's pane, as the runner drives it.
pub trait Pane {
    fn read(&mut self) -> Result<Screen, MuxError>;
    fn type_text(&mut self, text: &str) -> Result<(), MuxError>;
    /// Presses one key of `Key::ALLOWED`.
    fn press(&mut self, key: &Key) -> Result<(), MuxError>;
}

/// The compose module, as the runner asks it.
pub trait Module: back::Reader {
    fn next(&mut self, brief: &str, repo: &Repo, screen: &Screen, step: &Step) -> Result<Action, TeamError>;
    /// The CLI's way back one screen, from its description (`compose-back=esc`).
    fn back_key(&self) -> Option<back::BackKey>;
}

impl Module for Profile {
    fn next(&mut self, brief: &str, repo: &Repo, screen: &Screen, step: &Step) -> Result<Action, TeamError> {
        match self.compose_next(brief, repo, screen, step) {
            Some(r) => r,
            None => Err(TeamError::failed(format!("the {} profile has no compose module", self.describe().id))),
        }
    }
    fn back_key(&self) -> Option<back::BackKey> {
        back::BackKey::from_features(&self.describe().features)
    }
}

impl back::Reader for Profile {
    fn read(&mut self, screen: &Screen) -> Option<crate::profiles::Reading> {
        self.classify(screen).ok()
    }
}

/// The bytes a terminal sends for a key other than Enter (which the port presses itself):
/// typed through the port as text.
pub fn key_bytes(key: &Key) -> Option<&'static str> {
    match key {
        Key::Down => Some("\x1b[B"),
        Key::Up => Some("\x1b[A"),
        Key::Backspace => Some("\x7f"),
        Key::CtrlO => Some("\x0f"),
        Key::Enter | Key::Unknown(_) => None,
    }
}

/// A pane of the multiplexer port.
pub struct MuxPane<'a> {
    pub mux: &'a dyn Mux,
    pub pane: PaneRef,
}

impl Pane for MuxPane<'_> {
    fn read(&mut self) -> Result<Screen, MuxError> {
        let c = self.mux.read_screen(&self.pane)?;
        Ok(Screen { styled: c.styled, plain: c.plain, title: c.title, cols: c.cols, rows: c.rows, recent: c.recent })
    }
    fn type_text(&mut self, text: &str) -> Result<(), MuxError> {
        self.mux.type_text(&self.pane, text)
    }
    fn press(&mut self, key: &Key) -> Result<(), MuxError> {
        match key {
            Key::Enter => self.mux.press_enter(&self.pane),
            other => {
                let bytes =
                    key_bytes(other).ok_or_else(|| MuxError::Failed(format!("the key {other} is not pressed")))?;
                self.mux.type_text(&self.pane, bytes)
            }
        }
    }
}

/// The first characters of the brief's first line, whitespace removed: a `type` action whose
/// text (whitespace removed) starts with them types the brief. A module may join the brief's
/// lines or space it differently; it does not reword it.
fn brief_key(brief: &str) -> String {
    let first = brief.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    first.chars().filter(|c| !c.is_whitespace()).take(16).collect()
}

fn types_brief(text: &str, key: &str) -> bool {
    !key.is_empty() && text.chars().filter(|c| !c.is_whitespace()).collect::<String>().starts_with(key)
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// True when the screen shows `line` (whitespace squashed), visible or in the scrollback.
fn shows(screen: &Screen, line: &str) -> bool {
    let want = squash(line);
    !want.is_empty()
        && screen.plain.iter().chain(&screen.recent).any(|r| squash(&profile_reading::ansi::strip(r)).contains(&want))
}

/// Drives `module` against `pane` until it ends, refuses, fails or is stopped; waits run on
/// `clock` (scaled in tests).
pub fn run(
    pane: &mut dyn Pane,
    module: &mut dyn Module,
    brief: &str,
    repo: &Repo,
    bounds: &Bounds,
    clock: &Clock,
) -> Run {
    let start = Instant::now();
    let limit = clock.scaled(bounds.max_ms);
    let key = brief_key(brief);
    let mut p = Progress::default();
    // where the pane was when the compose began: a refusal leads it back there
    let mut found: Option<back::Place> = None;
    loop {
        if p.done.len() as u32 >= bounds.max_steps {
            let why = format!("the compose module took {} steps without finishing and was stopped", bounds.max_steps);
            return p.stopped(why);
        }
        if start.elapsed() > limit {
            let why = format!("the compose ran past its {} ms and was stopped", limit.as_millis());
            return p.stopped(why);
        }
        let screen = match pane.read() {
            Ok(s) => s,
            Err(e) => return p.end(Ended::unreachable(format!("the pane could not be read: {e}"))),
        };
        if p.done.is_empty() && found.is_none() {
            found = module.read(&screen).map(|r| back::Place::of(&r));
        }
        let step =
            Step { index: p.done.len() as u32, elapsed_ms: start.elapsed().as_millis() as u32, done: p.done.clone() };
        let action = match module.next(brief, repo, &screen, &step) {
            Ok(a) => a,
            Err(e) => return p.stopped(format!("the compose module failed: {e}")),
        };
        if let Some(why) = past_bounds(&action, &p.done, bounds) {
            return p.stopped(why);
        }
        if let Some((ended, created)) =
            p.ending(&action, &screen, |why, done| refused(pane, module, why, done, found.as_ref(), clock))
        {
            return Run { created, ..p.end(ended) };
        }
        let result = match &action {
            Action::Type(t) => {
                p.brief_typed |= types_brief(t, &key);
                pane.type_text(t)
            }
            Action::Press(k) => {
                p.submitted |= p.brief_typed && *k == Key::Enter;
                pane.press(k)
            }
            Action::Wait(ms) => {
                std::thread::sleep(clock.scaled(u64::from((*ms).min(bounds.max_wait_ms))));
                Ok(())
            }
            // (ended above)
            Action::Created(_) | Action::Refuse(_) | Action::Failed(_) => Ok(()),
        };
        if let Err(e) = result {
            return p.end(Ended::unreachable(format!("the pane would not take `{action}`: {e}")));
        }
        p.done.push(action);
    }
}

/// What a compose has done so far: its actions, whether any of the brief was typed, whether
/// Enter was pressed on it.
#[derive(Default)]
struct Progress {
    done: Vec<Action>,
    brief_typed: bool,
    submitted: bool,
}

impl Progress {
    /// The run ending in `outcome`.
    fn end(self, ended: Ended) -> Run {
        Run { ended, created: None, done: self.done, brief_typed: self.brief_typed }
    }

    /// The run stopped past a bound (`stop`).
    fn stopped(self, why: String) -> Run {
        let outcome = self.stop(why);
        self.end(outcome)
    }

    /// Past a bound, what was done decides what the stop means.
    fn stop(&self, why: String) -> Ended {
        if self.submitted {
            unconfirmed(format!("Enter was pressed on the brief, then {why}"))
        } else if self.brief_typed {
            Ended::not_submitted(format!("the brief was typed and not submitted: {why}"))
        } else {
            Ended::unreachable(format!("{STOPPED}{why}"))
        }
    }

    /// The outcome of an action that ends the compose (`Created`, `Refuse`, `Failed`; `None`
    /// for one that does not): a creation is believed only after the brief was submitted and
    /// while the screen shows it; a refusal before the brief leads the pane back (`refuse`).
    fn ending(
        &self,
        action: &Action,
        screen: &Screen,
        refuse: impl FnOnce(&str, &[Action]) -> String,
    ) -> Option<(Ended, Option<Evidence>)> {
        Some((
            match action {
                Action::Created(e) if !self.submitted => self.stop(format!(
                    "the compose module said the item was created (`{}`) before the brief was submitted",
                    e.line
                )),
                Action::Created(e) if !shows(screen, &e.line) => self.stop(format!(
                    "the compose module said the item was created, but the screen does not show `{}`",
                    e.line
                )),
                Action::Created(e) => {
                    return Some((Ended::delivered(e.task_id.clone().map(Note::Created)), Some(e.clone())))
                }
                Action::Refuse(why) if self.submitted => {
                    unconfirmed(format!("Enter was pressed on the brief, then the compose module refused: {why}"))
                }
                Action::Refuse(why) | Action::Failed(why) if self.brief_typed => Ended::not_submitted(why.clone()),
                Action::Refuse(why) | Action::Failed(why) => Ended::refused(refuse(why, &self.done)),
                Action::Type(_) | Action::Press(_) | Action::Wait(_) => return None,
            },
            None,
        ))
    }
}

/// The stop's prefix when nothing of the brief was typed: the module was stopped.
const STOPPED: &str = "the compose module was stopped: ";

/// Delivered, not yet confirmed: Enter was pressed on the brief and no line creating the item
/// showed (why).
fn unconfirmed(why: String) -> Ended {
    Ended::delivered(Some(Note::TakenUnconfirmed(why)))
}

/// Why the host does not take `action` (`None`: it does): more keys than the bound, a
/// control character, more characters at once than the bound, a key not allowed.
fn past_bounds(action: &Action, done: &[Action], bounds: &Bounds) -> Option<String> {
    let keys = done.iter().filter(|a| matches!(a, Action::Type(_) | Action::Press(_))).count() as u32;
    if matches!(action, Action::Type(_) | Action::Press(_)) && keys >= bounds.max_keys {
        return Some(format!(
            "the compose module asked to type more than {} times ({action}) and was stopped",
            bounds.max_keys
        ));
    }
    match action {
        Action::Type(t) => {
            if let Some(c) = t.chars().find(|c| c.is_control()) {
                return Some(format!(
                    "the compose module asked to type the control character U+{:04X}, which the host never types",
                    c as u32
                ));
            }
            let n = t.chars().count();
            if n > bounds.max_type_chars {
                return Some(format!(
                    "the compose module asked to type {n} characters at once; the host types at most {}",
                    bounds.max_type_chars
                ));
            }
        }
        Action::Press(k) if !Key::ALLOWED.contains(k) => {
            let allowed: Vec<&str> = Key::ALLOWED.iter().map(Key::name).collect();
            return Some(format!(
                "the compose module asked to press `{k}`; the host presses only {}",
                allowed.join(", ")
            ));
        }
        _ => {}
    }
    None
}

/// A refusal before the brief: `why`, and — when keys were typed — where the walk back left
/// the pane ([`back::lead_back`]).
fn refused(
    pane: &mut dyn Pane,
    module: &mut dyn Module,
    why: &str,
    done: &[Action],
    found: Option<&back::Place>,
    clock: &Clock,
) -> String {
    let typed = done.iter().any(|a| matches!(a, Action::Type(_) | Action::Press(_)));
    match found {
        Some(f) if typed => {
            let key = module.back_key();
            format!("{why}; {}", back::lead_back(pane, module, f, key, clock).sentence(key))
        }
        _ => why.to_string(),
    }
}

/// The repo a folder's brief is typed for: `git remote get-url origin` there, run as every
/// multiplexer call is run — the program from the fixed search (`mux::program`, never one the
/// caller's environment names: what it answers is typed into the seat), and bounded
/// (`mux::CALL_TIMEOUT`: a git that does not answer — a config including a FIFO, a hung
/// folder — is killed with what it started). The origin is one line with no control
/// character, or it is refused: a newline in it would be typed as Enter.
pub fn origin_of(folder: &Path) -> Result<Repo, String> {
    let Some(git) = mux::program::find("git") else {
        return Err(format!(
            "git is not installed (no `git` in {}), so the repo of the seat's folder {} is not known",
            mux::program::SEARCHED,
            folder.display()
        ));
    };
    let argv: Vec<String> = vec![
        git.display().to_string(),
        "-C".into(),
        folder.display().to_string(),
        "remote".into(),
        "get-url".into(),
        "origin".into(),
    ];
    let out = mux::SystemRunner::run_within(&argv, mux::CALL_TIMEOUT).map_err(|e| match e.kind() {
        std::io::ErrorKind::TimedOut => format!(
            "git did not answer within {} s in the seat's folder {}, so its repo is not known",
            mux::CALL_TIMEOUT.as_secs(),
            folder.display()
        ),
        _ => format!("git could not be run in {}: {e}", folder.display()),
    })?;
    if !out.ok() {
        let err = crate::vocab::text::one_line(out.stderr_str().trim()).into_owned();
        let err = if err.is_empty() { "no origin".to_string() } else { err };
        return Err(format!("the seat's folder {} has no git origin ({err})", folder.display()));
    }
    let text = out.stdout_str();
    let url = text.strip_suffix('\n').unwrap_or(&text).trim();
    if url.chars().any(char::is_control) {
        let what = if url.contains('\n') { "is more than one line" } else { "holds a control character" };
        return Err(format!(
            "the seat's folder {}'s origin {what} (\"{}\")",
            folder.display(),
            crate::vocab::text::one_line(url)
        ));
    }
    Repo::from_origin(url).ok_or_else(|| {
        format!("the seat's folder {}'s origin `{url}` names no owner/name repository", folder.display())
    })
}

/// What a compose send needs to know about its target, decided before it runs (its pane is
/// found in the session by its mark: the registry record is the typed leg's).
pub struct ComposeSend<'a> {
    pub at: crate::legs::SeatTarget<'a>,
    /// The drop file's whole text (the sender header, a blank line, the body): the brief.
    pub text: &'a str,
    /// The message id (the drop file's name).
    pub id: &'a str,
}

/// What a compose send runs on, given by its caller (`send`'s compose leg): the same as a
/// plain send's — the receiving team's multiplexer, the profile host, the run's clock and its
/// `<state>` folder (the seat locks).
pub use crate::legs::typed::Means;

/// How a compose send ended, with what it left behind.
#[derive(Debug, Clone)]
pub struct Report {
    pub run: Run,
    /// The drop file, once written.
    pub drop: Option<PathBuf>,
    /// The repo the brief was typed for, once read.
    pub repo: Option<Repo>,
    /// Whole milliseconds from the start of the send to its outcome.
    pub ms: u64,
}

impl Report {
    /// How the send ended, every reason (and an unconfirmed note) naming where the message is,
    /// once the drop file is written.
    pub fn ended(&self) -> Ended {
        match &self.drop {
            Some(p) => self.run.ended.clone().reworded(|why| format!("{why}; the message is at {}", p.display())),
            None => self.run.ended.clone(),
        }
    }

    /// The created item's id, when the screen showed it.
    pub fn task_id(&self) -> Option<&str> {
        self.run.created.as_ref().and_then(|e| e.task_id.as_deref())
    }
}

/// The folder the seat works in: its CLI's process's (named in the description), else the
/// first process in front of the pane's shell, else the shell's. The send and its dry run read
/// the seat's repo from it.
pub fn seat_folder(mux: &dyn Mux, pane: &PaneRef, names: &[String]) -> Option<PathBuf> {
    let mut procs = mux.foreground_processes(pane).unwrap_or_default();
    if procs.is_empty() {
        procs.extend(pane.shell_pid.map(mux::proc_info));
    }
    let agent = procs.iter().find(|p| names.iter().any(|n| n == &p.name)).or_else(|| procs.first());
    agent.and_then(|p| p.cwd.clone())
}

/// One compose send: the seat lock (the one the typed leg takes), then [`deliver_locked`].
/// Every outcome past the drop leaves the drop file.
pub fn deliver(req: &ComposeSend, means: &Means) -> Report {
    let watch = means.clock.stopwatch();
    let wait = std::time::Duration::from_millis(crate::legs::typed::LOCK_WAIT_MS);
    let _lock = match crate::legs::typed::lock_seat(means.state, req.at.session, req.at.seat, "send", wait) {
        Ok(l) => l,
        Err(why) => {
            let run = Run {
                ended: Ended::refused(format!("{why}; nothing was sent")),
                created: None,
                done: Vec::new(),
                brief_typed: false,
            };
            return Report { run, drop: None, repo: None, ms: watch.ms() };
        }
    };
    deliver_locked(req, means)
}

/// A compose send under a lock the caller holds: the drop file, the pane, the profile, the
/// seat's repo (nothing is typed into a seat whose folder has no origin), and the run.
pub fn deliver_locked(req: &ComposeSend, means: &Means) -> Report {
    let (mux, host) = (means.mux, means.profiles);
    let watch = means.clock.stopwatch();
    let not_run = |ended, drop: Option<PathBuf>, repo: Option<Repo>| Report {
        run: Run { ended, created: None, done: Vec::new(), brief_typed: false },
        drop,
        repo,
        ms: watch.ms(),
    };
    let drop = match crate::legs::typed::write_drop(req.at.root, req.at.session, req.at.seat, req.id, req.text) {
        Ok(p) => p,
        Err(why) => return not_run(Ended::refused(format!("{why}; nothing was sent")), None, None),
    };
    // The drop's place is added to every reason once, by `Report::ended`, not here.
    let at = |why: String| why;
    let pane = match mux.locate_in(req.at.session, req.at.seat, req.at.team) {
        Ok(p) => p,
        Err(e) => return not_run(Ended::unreachable(at(e.to_string())), Some(drop), None),
    };
    let mut profile = match host.load(req.at.cli, req.at.pins) {
        Ok(p) => p,
        Err(e) => return not_run(Ended::refused(at(e.message())), Some(drop), None),
    };
    if !profile.describe().has_compose {
        let why = format!("the {} profile has no compose module", req.at.cli);
        return not_run(Ended::refused(at(why)), Some(drop), None);
    }
    let names = profile.describe().process_names.clone();
    let Some(folder) = seat_folder(mux, &pane, &names) else {
        let why = "the seat's folder could not be read, so its repo is not known; nothing was typed".to_string();
        return not_run(Ended::refused(at(why)), Some(drop), None);
    };
    let repo = match origin_of(&folder) {
        Ok(r) => r,
        Err(why) => return not_run(Ended::refused(at(format!("{why}; nothing was typed"))), Some(drop), None),
    };
    let mut port = MuxPane { mux, pane };
    let run = run(&mut port, &mut profile, req.text, &repo, &BOUNDS, means.clock);
    Report { run, drop: Some(drop), repo: Some(repo), ms: watch.ms() }
}

/// The compose plan for `--dry-run`: the module's own steps for the seat's repo, or why none.
pub fn plan(profile: &mut Profile, repo: &Repo) -> Result<Vec<String>, String> {
    match profile.compose_plan(repo) {
        Some(r) => r.map_err(|e| e.message()),
        None => Err(format!("the {} profile has no compose module", profile.describe().id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brief_is_known_by_its_first_line_however_it_is_spaced() {
        let key = brief_key("from lead — admitted by: own lead\n\nfix the parser");
        assert_eq!(key, "fromlead—admitte");
        assert!(types_brief("from lead — admitted by: own lead / fix the parser", &key));
        assert!(types_brief("from  lead —\u{a0}admitted by: own lead", &key));
        assert!(!types_brief("acme/team-beta ", &key));
        assert!(!types_brief("n", &key));
        assert!(!types_brief("anything", &brief_key("")));
    }

    #[test]
    fn every_allowed_key_but_enter_has_its_terminal_bytes() {
        for k in Key::ALLOWED {
            assert_eq!(key_bytes(&k).is_none(), k == Key::Enter, "{k}");
        }
        assert_eq!(key_bytes(&Key::Unknown("escape".into())), None);
        assert_eq!(key_bytes(&Key::Down), Some("\x1b[B"));
    }

    #[test]
    fn evidence_is_looked_for_on_the_screen_squashed() {
        let s = Screen::from_ansi("x\n\x1b[2mSubmitted as  task_e_1 — refreshing…\x1b[0m\n", "");
        assert!(shows(&s, "Submitted as task_e_1 — refreshing…"));
        assert!(!shows(&s, "Submitted as task_e_2"));
        assert!(!shows(&s, "  "));
    }

    #[test]
    fn a_folder_without_an_origin_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        let e = origin_of(dir.path()).unwrap_err();
        assert!(e.contains("has no git origin"), "{e}");
        let git = |args: &[&str]| {
            assert!(std::process::Command::new("git")
                .arg("-C")
                .arg(dir.path())
                .args(args)
                .output()
                .unwrap()
                .status
                .success())
        };
        git(&["init", "-q"]);
        assert!(origin_of(dir.path()).unwrap_err().contains("has no git origin"));
        git(&["remote", "add", "origin", "git@github.com:acme/team-beta.git"]);
        assert_eq!(origin_of(dir.path()).unwrap().slug, "acme/team-beta");
    }
}
