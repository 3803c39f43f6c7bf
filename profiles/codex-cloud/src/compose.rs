//! The compose module: a brief typed through `codex cloud`'s own screens for the seat's repo.
//!
//! From the task list: `n`, Ctrl+O for the environment chooser, a search that leaves exactly
//! one environment row for the repo, **Down once** (`All Environments (Global)` always stays
//! first and keeps the cursor: filtering never collapses the list to one row), check the `›`
//! row is that environment, Enter, check the New Task header names it, type the brief, check
//! the composer holds it, wait out the paste burst, Enter. Delivered is the line that creates
//! the task: `Submitted as <task id>` (it lives ~70 ms) or the new top `[PENDING] <brief…>` row
//! under that environment.
//!
//! The module is stateless: each call decides from the screen and the actions the host has
//! already executed (`step.done`), which are this module's own earlier answers. Invariants:
//! - nothing of the brief is typed before the header names the repo's environment; every
//!   refusal comes before it (the keys typed to look are `n`, Ctrl+O and the search);
//! - the brief is typed once; the only Enter after it is the submit;
//! - an environment is the repo's when its label or its repo hint is the repo's `owner/name`;
//!   the search is narrowed to the label and a space (which leaves one row where a label is a
//!   prefix of another: docs part C) before Down is pressed, so the label the header must
//!   name is the search the module typed.

use crate::cloud::{self, Box as Input, Chooser, Cloud, EnvRow, Page};
use profile_kit::{Action, Evidence, Key, Repo, Screen, Step, View};

/// The longest brief typed: the composer takes it in one burst of typed text (a guard, not a
/// measured limit of `codex cloud`).
pub const MAX_BRIEF: usize = 2000;

/// How long to wait before reading the screen again while the TUI redraws or submits.
const POLL_MS: u32 = 10;

/// How long a redraw is waited for, in the module's own waits, before it gives up on it: 5 s.
/// The TUI redraws in milliseconds, but a seat shares its machine with the agents' builds, and
/// a redraw that came after a shorter bound (0.5 s once, under a loaded test run) turned a
/// chooser search still being drawn into a refusal. It costs only a redraw that never comes.
pub(crate) const REDRAW_MS: u32 = 5_000;

/// The longest single poll of a redraw wait. The polls double from [`POLL_MS`] (a redraw
/// that comes at once is seen at once) up to this: a wait counted in polls of 10 ms took 200
/// screen reads, and at load 8 those reads alone ran the compose past the host's 30 s bound
/// (`compose_tmux::a_chooser_that_never_collapses_is_refused_before_the_brief`, 181 steps in
/// 36 s); this one reads the screen about 13 times in its 5 s.
const MAX_POLL_MS: u32 = 640;

/// The `k`-th poll (from 0) of a redraw wait: 10, 20, 40 … 640, 640 … ms.
fn redraw_poll(k: usize) -> u32 {
    (POLL_MS << k.min(6)).min(MAX_POLL_MS)
}

/// The pause between the typed brief and Enter (Codex's composer reads a faster Enter as part
/// of the paste).
const ENTER_PAUSE_MS: u32 = 60;

/// The one more look a new `[PENDING]` row gets before it is taken as the evidence: a read can
/// land on a frame drawn only down to the task list, before the `Submitted as <task id>` line
/// under it, and that line names the task. Its own length, so the module (which keeps no state
/// between calls) knows from its last action that it already looked once.
const PENDING_LOOK_MS: u32 = POLL_MS + 1;

/// The brief as the composer takes it: one line (every run of line breaks becomes ` / `, tabs
/// spaces, runs of spaces one), or why it cannot be typed.
pub fn brief_line(brief: &str) -> Result<String, String> {
    if let Some(c) = brief.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        return Err(format!(
            "the brief holds the control character U+{:04X}, which codex cloud's composer cannot take",
            c as u32
        ));
    }
    let line = brief.lines().map(profile_kit::text::squash).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" / ");
    let n = line.chars().count();
    if n == 0 {
        return Err("the brief is empty".into());
    }
    if n > MAX_BRIEF {
        return Err(format!(
            "the brief is {n} characters as one line and codex cloud's composer is typed at most {MAX_BRIEF}"
        ));
    }
    Ok(line)
}

/// The steps [`compose_next`] takes, for `--dry-run`.
pub fn plan(repo: &Repo) -> Vec<String> {
    let slug = &repo.slug;
    vec![
        "from the task list, n opens New Task (a New Task page with an empty composer is used as it is)".into(),
        "ctrl-o opens the environment chooser".into(),
        format!("type `{slug}` into its search; it must list exactly one environment for {slug} (label or repo hint), narrowed to its label and a space when a look-alike remains"),
        "down once: the cursor leaves All Environments (Global); check the `›` row is that environment".into(),
        "enter chooses it; check the New Task header names it".into(),
        "type the brief as one line and check the composer holds it".into(),
        format!("enter submits; delivered when `Submitted as <task id>` or a new top `[PENDING] <brief…>` row under {slug}'s environment shows"),
    ]
}

/// What the module's own earlier actions say about where it is.
#[derive(Debug, Default)]
struct Past<'a> {
    typed_n: bool,
    /// Ctrl+O was pressed (the chooser was opened by us).
    opened: bool,
    /// The search as typed since the chooser was opened (backspaces applied).
    search: String,
    /// The search the chooser held when Enter chose an environment.
    chosen: Option<String>,
    /// The brief was typed.
    typed_brief: bool,
    /// Enter was pressed after the brief.
    submitted: bool,
    /// Down was pressed since the search last changed.
    down: bool,
    last: Option<&'a Action>,
    /// Consecutive waits at the end.
    waits: usize,
    /// The milliseconds those waits asked for.
    waited_ms: u32,
}

fn past<'a>(done: &'a [Action], line: &str) -> Past<'a> {
    let mut p = Past { last: done.last(), ..Past::default() };
    for a in done {
        match a {
            Action::Type(t) if t == line && p.chosen.is_some() => p.typed_brief = true,
            Action::Type(t) if t == "n" && !p.opened && p.chosen.is_none() => p.typed_n = true,
            Action::Type(t) if p.chosen.is_none() => {
                p.search.push_str(t);
                p.down = false;
            }
            Action::Press(Key::CtrlO) => {
                p.opened = true;
                p.search.clear();
                p.down = false;
            }
            Action::Press(Key::Backspace) => {
                p.search.pop();
                p.down = false;
            }
            Action::Press(Key::Down) => p.down = true,
            Action::Press(Key::Enter) if p.typed_brief => p.submitted = true,
            Action::Press(Key::Enter) => p.chosen = Some(p.search.clone()),
            _ => {}
        }
    }
    let trailing = done.iter().rev().map_while(|a| match a {
        Action::Wait(ms) => Some(*ms),
        _ => None,
    });
    (p.waits, p.waited_ms) = trailing.fold((0, 0u32), |(n, ms), w| (n + 1, ms.saturating_add(w)));
    p
}

fn is_repos(r: &EnvRow, slug: &str) -> bool {
    r.label == slug || r.hint.as_deref() == Some(slug)
}

fn labels<'a>(rows: impl Iterator<Item = &'a EnvRow>) -> String {
    let l: Vec<&str> = rows.map(|r| r.label.as_str()).collect();
    if l.is_empty() {
        "no environment".into()
    } else {
        l.join(", ")
    }
}

/// Whitespace-insensitive: a composer that wrapped the brief mid-word still holds it.
fn holds(text: &str, line: &str) -> bool {
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    profile_kit::text::squash(text) == profile_kit::text::squash(line) || strip(text) == strip(line)
}

/// A redraw the module waits for, [`REDRAW_MS`] of polls at most, else `give_up`.
fn wait_for_redraw(p: &Past, give_up: impl FnOnce() -> Action) -> Action {
    if p.waited_ms < REDRAW_MS {
        Action::Wait(redraw_poll(p.waits))
    } else {
        give_up()
    }
}

/// The next action for `brief` to reach `repo`'s environment, given the screen now.
pub fn compose_next(brief: &str, repo: &Repo, screen: &Screen, step: &Step) -> Action {
    let line = match brief_line(brief) {
        Ok(l) => l,
        Err(why) => return Action::Refuse(why),
    };
    if repo.slug.is_empty() {
        return Action::Refuse("the seat's folder names no repository (no `owner/name` in its origin)".into());
    }
    let p = past(&step.done, &line);
    let v = View::new(screen);
    let Some(c) = cloud::parse(&v) else {
        if p.submitted {
            return wait_for_redraw(&p, || Action::Failed("after Enter the pane no longer shows codex cloud".into()));
        }
        let what = if profile_kit::shell_prompt_last(&v) { "a shell prompt" } else { "something else" };
        return Action::Refuse(format!("the pane shows {what}, not codex cloud's task list or New Task page"));
    };
    if p.submitted {
        return after_submit(&c, &p, &line);
    }
    if let Some(ch) = &c.chooser {
        return in_chooser(ch, &p, &repo.slug);
    }
    match c.page {
        Page::TaskList if !p.typed_n => Action::Type("n".into()),
        Page::TaskList => wait_for_redraw(&p, || Action::Refuse("the task list did not open New Task on `n`".into())),
        Page::NewTask => on_new_task(&c, &p, &line),
    }
}

fn in_chooser(ch: &Chooser, p: &Past, slug: &str) -> Action {
    if p.chosen.is_some() {
        // Enter was pressed on the chosen row: the chooser closes on the next redraw.
        return wait_for_redraw(p, || Action::Refuse("the environment chooser did not close after Enter".into()));
    }
    let typed = p.search.trim_end();
    if ch.search != typed {
        if !p.search.is_empty()
            && matches!(p.last, Some(Action::Type(_) | Action::Press(Key::Backspace) | Action::Wait(_)))
        {
            return wait_for_redraw(p, || {
                Action::Refuse(format!("the chooser's search shows `{}`, not the `{typed}` typed into it", ch.search))
            });
        }
        // A search someone left (or a chooser left open by an earlier compose): clear it.
        return Action::Press(Key::Backspace);
    }
    if ch.search.is_empty() {
        return Action::Type(slug.to_string());
    }
    let envs: Vec<&EnvRow> = ch.envs().collect();
    let mine: Vec<&EnvRow> = envs.iter().copied().filter(|r| is_repos(r, slug)).collect();
    let cand = match mine.as_slice() {
        [] => {
            return Action::Refuse(format!(
                "codex cloud's environment chooser holds no environment for {slug} (searching `{typed}` lists {})",
                labels(envs.into_iter())
            ))
        }
        [one] => *one,
        many => {
            return Action::Refuse(format!(
                "codex cloud's environment chooser holds more than one environment for {slug}: {}",
                labels(many.iter().copied())
            ))
        }
    };
    // Narrow the search to the label and a space: the header must then name what was typed.
    let want = format!("{} ", cand.label);
    if envs.len() > 1 || p.search.trim_end() != cand.label {
        if p.search == want {
            // A typed space does not show in the field: give the list its redraw first.
            return wait_for_redraw(p, || {
                Action::Refuse(format!(
                    "the chooser never collapses on {slug}: searching `{want}` still lists {}",
                    labels(envs.into_iter())
                ))
            });
        }
        return match want.strip_prefix(p.search.as_str()) {
            Some(rest) if !rest.is_empty() => Action::Type(rest.to_string()),
            _ => Action::Press(Key::Backspace),
        };
    }
    match ch.selected() {
        // Down was pressed and the cursor did not move yet: a redraw, or a chooser that keeps it.
        Some(r) if r.is_all() && p.down => wait_for_redraw(p, || {
            Action::Refuse("the chooser's cursor stays on All Environments (Global) after Down".into())
        }),
        Some(r) if r.is_all() => Action::Press(Key::Down),
        Some(r) if r == cand => Action::Press(Key::Enter),
        Some(r) => Action::Refuse(format!("the chooser's cursor is on {}, not {slug}'s environment", r.label)),
        None => wait_for_redraw(p, || Action::Refuse("the chooser shows no cursor".into())),
    }
}

fn on_new_task(c: &Cloud, p: &Past, line: &str) -> Action {
    let Some(label) = p.chosen.as_deref().map(str::trim_end) else {
        return match &c.composer {
            Some(Input::Holds(t)) => {
                Action::Refuse(format!("the New Task composer already holds text someone left there: \"{t}\""))
            }
            Some(Input::Empty) if p.opened => {
                wait_for_redraw(p, || Action::Refuse("the environment chooser did not open on Ctrl+O".into()))
            }
            Some(Input::Empty) => Action::Press(Key::CtrlO),
            None => wait_for_redraw(p, || Action::Refuse("the New Task page shows no composer".into())),
        };
    };
    if c.env.as_deref() != Some(label) {
        return wait_for_redraw(p, || {
            Action::Refuse(format!(
                "after choosing {label} the New Task header names {}",
                c.env.as_deref().map(|e| e.to_string()).unwrap_or_else(|| "no environment".into())
            ))
        });
    }
    match (&c.composer, p.typed_brief) {
        (Some(Input::Empty), false) => Action::Type(line.to_string()),
        (Some(Input::Holds(t)), false) => {
            Action::Refuse(format!("the New Task composer holds text someone else typed: \"{t}\""))
        }
        (Some(Input::Holds(t)), true) if holds(t, line) => match p.last {
            Some(Action::Wait(ms)) if *ms >= ENTER_PAUSE_MS => Action::Press(Key::Enter),
            _ => Action::Wait(ENTER_PAUSE_MS),
        },
        (Some(Input::Holds(t)), true) => wait_for_redraw(p, || {
            Action::Failed(format!("the composer does not hold the brief after it was typed (it holds \"{t}\")"))
        }),
        (Some(Input::Empty), true) | (None, true) => {
            wait_for_redraw(p, || Action::Failed("the composer shows nothing after the brief was typed".into()))
        }
        (None, false) => wait_for_redraw(p, || Action::Refuse("the New Task page shows no composer".into())),
    }
}

fn after_submit(c: &Cloud, p: &Past, line: &str) -> Action {
    if let Some(rest) = c.status.strip_prefix("Submitted as ") {
        let id = rest.split_whitespace().next().unwrap_or("").to_string();
        return Action::Created(Evidence { line: c.status.clone(), task_id: (!id.is_empty()).then_some(id) });
    }
    let label = p.chosen.as_deref().map(str::trim_end);
    match c.page {
        Page::TaskList if c.chooser.is_none() => {
            let top = c.tasks.first();
            match top {
                Some(t)
                    if t.status == "PENDING"
                        && !t.title.is_empty()
                        && line.starts_with(t.title.as_str())
                        && t.env.as_deref() == label =>
                {
                    match p.last {
                        Some(Action::Wait(ms)) if *ms == PENDING_LOOK_MS => {
                            Action::Created(Evidence { line: t.line.clone(), task_id: None })
                        }
                        _ => Action::Wait(PENDING_LOOK_MS),
                    }
                }
                _ => Action::Wait(POLL_MS),
            }
        }
        Page::NewTask if c.status.starts_with("Submit failed") || c.status.starts_with("No environment selected") => {
            Action::Failed(format!("codex cloud said: {}", c.status))
        }
        // Enter did not submit (the composer took it as part of the typed text).
        Page::NewTask
            if matches!(&c.composer, Some(Input::Holds(t)) if holds(t, line))
                && !c.status.starts_with("Submitting") =>
        {
            wait_for_redraw(p, || Action::Failed("the composer still holds the brief after Enter".into()))
        }
        _ => Action::Wait(POLL_MS),
    }
}
