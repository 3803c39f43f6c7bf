//! `team hook <event>`: what a seat's CLI runs at its hook events. It claims the seat's waiting
//! messages, writes its answer to the CLI whole ([`respond`], [`answer`]; the command line
//! gives the writer, [`AnswerOut`]), and only then writes a `handed` receipt per message and
//! the history's `delivered` line (`deliver`).
//!
//! Two paths. The fast one ([`waiting_dirs`]) runs on every tool call: the bell the pane hint
//! names, then one directory read per seat folder it lists; nothing found is the end (nothing
//! parsed, loaded or written). The slow one ([`hand`]) runs only when a folder holds a message
//! or a claim: it finds the caller from the process tree and claims only the messages whose own
//! team and seat that caller is. The tree is read against the pane a fresh message's send found
//! holding the seat first ([`pinned`]: that pane's shell, pid and start time, among the hook's
//! ancestors — no multiplexer asked, which is most of a hook's time on a busy machine), else
//! through the multiplexer as every caller is found (`caller::find`).
//!
//! Invariants — a hand-over is recorded only once it is complete:
//! - a message is claimed before anything else is done with it; before the first byte of the
//!   answer, each claim's note is written (`mailbox::store::Answering`: the answer may leave
//!   from now on); the answer is written whole and flushed; only then its receipt (fsync'd),
//!   the `delivered` line and the move to `handed/`. An answer that cannot be written — stdout
//!   closed, `/dev/full`, a terminal, a reader gone, a short write — gives every claim back
//!   (waiting again, for the next hook); nothing is said `delivered`;
//! - a hook killed between its answer and its record leaves a claim in doubt, which only
//!   evidence settles (`evidence`): taken (receipt and line then), not taken (waiting again),
//!   or left in doubt — never offered again blindly (that could hand it twice), never called
//!   delivered without evidence;
//! - the `delivered` line is the waiting send's or the hook's, never both
//!   ([`crate::mailbox::store::Token`]); a companion of a typed trigger gets its receipt only
//!   (the typed leg wrote its line).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::caller::{self, Caller};
use crate::ctx::Ctx;
use crate::history::{self, LogLine, ReceiptKind};
use crate::mux::procfs::{self, Ancestor};
use crate::vocab::hook_event::Event;
use crate::vocab::leg::HookFormat;
use crate::vocab::outcome::Note;
use crate::workspace::Workspace;

use crate::mailbox::bell;
use crate::mailbox::store::{Claim, Claimer, Message, Recovered, SeatBox};

mod deliver;
pub mod evidence;

pub use deliver::{
    complete, confirm, deliver, settle, AnswerOut, Confirmed, Rec, Settler, Told, AWAITS, CONFIRMED, SETTLED,
};

/// What the CLI's JSON on stdin says that the hook uses. Untrusted: a word is kept only when
/// it is a short printable word, the transcript only as an absolute path of printable text.
/// Measured (Claude Code 2.1.332, Codex 0.171.0; `tests/data/transcripts/*/hook-inputs.jsonl`):
/// both send `session_id` and `transcript_path`; the turn is Claude Code's `prompt_id` (one per
/// prompt, kept through a Stop hook's continuation) and Codex's `turn_id`. GitHub Copilot CLI
/// 1.0.102 sends camelCase `sessionId`, and `transcriptPath` at `agentStop` only; no event
/// name, no turn (`tests/data/transcripts/copilot-1.0.102/hook-inputs.jsonl`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookInput {
    pub session_id: Option<String>,
    pub event_name: Option<String>,
    /// The CLI's turn (`turn_id`, else `prompt_id`).
    pub turn: Option<String>,
    /// The CLI's session transcript (`transcript_path`).
    pub transcript: Option<PathBuf>,
}

/// The longest transcript path kept from a hook's input.
const PATH_MAX: usize = 4096;

impl HookInput {
    /// Reads what it can; anything it cannot read is left out.
    pub fn parse(bytes: &[u8]) -> HookInput {
        #[derive(serde::Deserialize)]
        struct Raw {
            #[serde(alias = "sessionId")]
            session_id: Option<String>,
            hook_event_name: Option<String>,
            turn_id: Option<String>,
            prompt_id: Option<String>,
            #[serde(alias = "transcriptPath")]
            transcript_path: Option<String>,
        }
        let Ok(raw) = serde_json::from_slice::<Raw>(bytes) else { return HookInput::default() };
        let word = |s: Option<String>| {
            s.filter(|s| {
                !s.is_empty()
                    && s.len() <= 128
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
            })
        };
        let transcript = raw
            .transcript_path
            .filter(|p| p.starts_with('/') && p.len() <= PATH_MAX && !p.chars().any(char::is_control))
            .map(PathBuf::from);
        HookInput {
            session_id: word(raw.session_id),
            event_name: word(raw.hook_event_name),
            turn: word(raw.turn_id).or(word(raw.prompt_id)),
            transcript,
        }
    }
}

/// The fast path: the seat folders the pane's bell names that hold anything a hook acts on.
/// One small file and one directory read per folder; nothing else.
pub fn waiting_dirs(config: &Path, bell_key: &str) -> Vec<PathBuf> {
    bell::read(config, bell_key).into_iter().filter(|d| SeatBox::anything(d)).collect()
}

/// The fast path: the inbox folders with something waiting for the pane the hints `var` names
/// (its environment's; for a CLI that starts its hooks with a bare environment, the nearest
/// ancestor's, `procfs::pane_env_from_ancestors`). None without a pane hint. One small file
/// and one directory read when nothing waits; nothing else is looked at.
pub fn waiting_for(config: &Path, var: impl Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    let key = bell::hinted(&var).or_else(|| {
        let adopted = procfs::pane_env_from_ancestors(&var);
        bell::hinted(|k| adopted.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    });
    match key {
        Some(key) => waiting_dirs(config, &key),
        None => Vec::new(),
    }
}

/// What one hook handed, in queue order (its answer left whole), and what it found on the way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Handed {
    pub messages: Vec<Message>,
    /// What went wrong on the way (a receipt, a history line, a message file, an answer that
    /// could not be written): said in team.log, never to the CLI.
    pub problems: Vec<String>,
}

/// One claimed message: its inbox, its claim, what it says, and how its hook was placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub b: SeatBox,
    pub c: Claim,
    pub m: Message,
    pub found: Found,
    /// Its CLI takes a hook's answer only from a hook that exits (its profile's
    /// [`evidence::ON_EXIT`]): the hook records nothing, the CLI's transcript settles it.
    pub on_exit: bool,
}

/// What one hook claimed, in queue order, before anything was written to the CLI.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Claimed {
    pub items: Vec<Item>,
    /// What went wrong, or was settled, on the way (said in team.log).
    pub problems: Vec<String>,
    /// The session's transcript as the seat's profile places it ([`evidence::TRANSCRIPT_AT`])
    /// when the hook's input named none (GitHub Copilot CLI's inputs but `agentStop`'s).
    pub transcript: Option<PathBuf>,
}

/// Who the hook's process is, when it is a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatOf {
    pub team: String,
    pub seat: String,
    pub pane: String,
    pub found: Found,
}

/// How a hook's seat was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Its ancestry holds the shell of the pane the sends of these messages (ids) found
    /// holding the seat: it is placed for those messages only — a message file is input, and
    /// one naming this hook's own shell vouches for nothing else in the seat's inbox.
    Pinned(Vec<String>),
    /// Through the multiplexer, as every caller is found (`caller::find`).
    Multiplexer,
}

impl Found {
    /// How the team.log line says it.
    pub fn words(&self) -> &'static str {
        match self {
            Found::Pinned(_) => "its pane's shell among its ancestors, the pane the send found",
            Found::Multiplexer => "its pane found through the multiplexer",
        }
    }
}

/// How long a send's pin vouches for its pane: the spec's window, the time the send itself
/// waits on that very pane. Past it a pane may have changed seats (re-marked, registered
/// elsewhere), so an older message's hook asks the multiplexer like any caller.
pub const PIN_FRESH: std::time::Duration = std::time::Duration::from_secs(20);

/// Why a hook handed nothing (and claimed nothing).
#[derive(Debug, thiserror::Error)]
pub enum NotHanded {
    #[error("no message in the inbox names its checkout")]
    NoCheckout,
    /// The team file or the registry could not be read.
    #[error("{}", .0.message())]
    Unread(#[from] crate::error::TeamError),
    /// The caller is no seat (how it was found instead).
    #[error("its caller is {0}, not a seat: nothing was handed")]
    NotASeat(String),
}

/// The slow path: for each checkout the waiting messages name (a bell can name seat folders of
/// two projects: a pane marked for one, then the other), finds the caller against that
/// checkout's team file, settles its claims in doubt, then claims the messages that are its
/// own. `Err` (nothing claimed) when the caller is a seat of none of them.
pub fn hand(ctx: &Ctx, input: &HookInput, dirs: &[PathBuf]) -> Result<Claimed, NotHanded> {
    let mut roots: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for d in dirs {
        let Some(root) = first_root(std::slice::from_ref(d)) else { continue };
        match roots.iter_mut().find(|(r, _)| *r == root) {
            Some((_, ds)) => ds.push(d.clone()),
            None => roots.push((root, vec![d.clone()])),
        }
    }
    let mut out: Option<Claimed> = None;
    let mut why = NotHanded::NoCheckout;
    for (root, its) in &roots {
        match hand_in(ctx, input, root, its) {
            Ok(h) => {
                let all = out.get_or_insert_with(Claimed::default);
                all.items.extend(h.items);
                all.problems.extend(h.problems);
                all.transcript = all.transcript.take().or(h.transcript);
            }
            Err(e) => why = e,
        }
    }
    out.ok_or(why)
}

/// [`hand`] for the seat folders of the checkout at `root`.
fn hand_in(ctx: &Ctx, input: &HookInput, root: &Path, dirs: &[PathBuf]) -> Result<Claimed, NotHanded> {
    let file = crate::team_file::load(&root.join(".agents").join("team.yaml"))?;
    let ws = Workspace::with_file(ctx, Some(file));
    let ancestry = procfs::ancestry();
    if let Some(blocked) = caller::unvouched(&ancestry, ws.vendors()?) {
        return Err(NotHanded::NotASeat(blocked.describe()));
    }
    let who = match pinned(dirs, &ancestry, crate::mailbox::store::wall_ms(), procfs::start_time) {
        Some(who) => who,
        None => match ws.caller()? {
            Caller::Seat { team, seat, pane, .. } => {
                SeatOf { team: team.clone(), seat: seat.clone(), pane: pane.clone(), found: Found::Multiplexer }
            }
            other => return Err(NotHanded::NotASeat(other.describe())),
        },
    };
    // the seat's CLI's profile features: the rows of its transcript that show what its model
    // was sent, and whether it takes a hook's answer only from a hook that exits
    let features = OnceCell::new();
    let features_of = || -> &Vec<String> {
        features.get_or_init(|| {
            let Ok(Some(f)) = ws.file() else { return Vec::new() };
            let Some(seat) = f.file.seats.iter().find(|s| s.name == who.seat) else { return Vec::new() };
            // (the description alone: a bundled profile's is read with nothing loaded)
            ws.profiles().description(&seat.cli, &f.file.profiles).map(|(d, _)| d.features).unwrap_or_default()
        })
    };
    let rules_of = || evidence::Rule::from_features(features_of());
    let mut claimed = hand_as(ctx, input, dirs, &who, Claimer::me(), &rules_of);
    if !claimed.items.is_empty() {
        let on_exit = evidence::on_exit(features_of());
        claimed.items.iter_mut().for_each(|i| i.on_exit = on_exit);
        // (the CLI's HOME, which its hooks inherit: where its transcripts are)
        let home = std::env::var_os("HOME").map(PathBuf::from);
        claimed.transcript = match (&input.transcript, &input.session_id, home) {
            (None, Some(session), Some(home)) => evidence::transcript_of(features_of(), session, &home),
            _ => None,
        };
    }
    Ok(claimed)
}

/// The seat whose waiting messages were all pinned within [`PIN_FRESH`] of `now_ms` to one
/// shell among `ancestry` — that pid, started at that time (`start_of`): the hook runs in the
/// pane their sends found holding the seat, and is placed for those messages. `None` (the
/// multiplexer is asked) when no message places it, when messages place it in two seats, or
/// when a message of its seat is not pinned to it (older, or from an older build: the
/// multiplexer places the hook for all of them).
pub fn pinned(
    dirs: &[PathBuf],
    ancestry: &[Ancestor],
    now_ms: i64,
    start_of: impl Fn(u32) -> Option<u64>,
) -> Option<SeatOf> {
    let places = |p: &crate::mailbox::store::Pin| {
        (now_ms - p.at_ms).unsigned_abs() <= PIN_FRESH.as_millis() as u64
            && ancestry.iter().skip(1).any(|a| a.pid == p.shell_pid)
            && start_of(p.shell_pid) == Some(p.shell_start)
    };
    let mut who: Option<(String, String, String)> = None;
    let mut ids = Vec::new();
    let mut others: Vec<(String, String)> = Vec::new();
    for d in dirs {
        let b = SeatBox::at(d.clone());
        let Ok(keys) = b.waiting() else { continue };
        for m in keys.iter().filter_map(|k| b.read(k).ok()) {
            let Some(pin) = m.pin.as_ref().filter(|p| places(p)) else {
                others.push((m.team, m.seat));
                continue;
            };
            let seat = (m.team.clone(), m.seat.clone(), pin.pane.clone());
            match &who {
                None => who = Some(seat),
                Some(w) if *w == seat => {}
                Some(_) => return None,
            }
            ids.push(m.id);
        }
    }
    let (team, seat, pane) = who?;
    if others.iter().any(|(t, s)| *t == team && *s == seat) {
        return None;
    }
    Some(SeatOf { team, seat, pane, found: Found::Pinned(ids) })
}

/// Where a hook's problems are logged: the checkout the inbox's first readable message names
/// ([`first_root`]), found before the hook moves anything (a message handed is no longer
/// waiting, and one left behind may name a checkout since deleted).
pub fn log_root(dirs: &[PathBuf]) -> Option<PathBuf> {
    first_root(dirs)
}

/// Writes a hook's problem where a maintainer finds it: the team.log of `root` ([`log_root`]).
/// `false` when there is none or the line cannot be written (the command then says it on
/// stderr).
pub fn log_problem(ctx: &Ctx, root: Option<&Path>, why: &str) -> bool {
    let line = LogLine {
        command: "hook".into(),
        caller: "a hook".into(),
        seat: None,
        outcome: "failed".into(),
        bytes: None,
        detail: Some(why.to_string()),
    };
    root.is_some_and(|r| history::append_log(r, &ctx.clock.now_iso(), &line).is_ok())
}

/// The checkout root the first readable message names (a message that cannot be read, or
/// does not belong where it lies, is passed over and blocks none after it), when that root is
/// a checkout with a team file: nothing is read from, or written under, a folder that is not.
fn first_root(dirs: &[PathBuf]) -> Option<PathBuf> {
    let checkout = |r: &PathBuf| crate::fsx::is_checkout_root(r) && r.join(".agents").join("team.yaml").is_file();
    dirs.iter().find_map(|d| {
        let b = SeatBox::at(d.clone());
        let waiting = b.waiting().ok().into_iter().flatten().filter_map(|k| b.read(&k).ok());
        let claimed = b.claims().ok().into_iter().flatten().filter_map(|c| b.read_claimed(&c).ok());
        waiting.chain(claimed).map(|m| m.root).find(checkout)
    })
}

/// [`hand`] for a caller already found: its claims in doubt settled (`rules`: the seat's
/// profile's transcript rows, asked only when one needs them), then its waiting messages
/// claimed for `by`. Nothing is written to the CLI here.
pub fn hand_as(
    ctx: &Ctx,
    input: &HookInput,
    dirs: &[PathBuf],
    who: &SeatOf,
    by: Claimer,
    rules: &dyn Fn() -> Vec<evidence::Rule>,
) -> Claimed {
    let (team, seat) = (&who.team, &who.seat);
    let mut out = Claimed::default();
    for dir in dirs {
        let b = SeatBox::at(dir.clone());
        recover(ctx, &b, (who, input, rules), &mut out.problems);
        let Ok(keys) = b.waiting() else { continue };
        for k in keys {
            // read before the claim: a message for another seat (a bell shared by two
            // servers' panes) is never taken
            let Ok(m) = b.read(&k) else { continue };
            if m.team != *team || m.seat != *seat || m.id != k.id() {
                continue;
            }
            if let Found::Pinned(ids) = &who.found {
                // placed for these messages only: one queued since is the multiplexer's to place
                if !ids.contains(&m.id) {
                    continue;
                }
            }
            match b.claim(&k, by) {
                Ok(Some(c)) => out.items.push(Item { b: b.clone(), c, m, found: who.found.clone(), on_exit: false }),
                Ok(None) => {}
                Err(e) => out.problems.push(format!("{}: the claim failed: {e}", k.id())),
            }
        }
    }
    out
}

/// Claims whose claimer died: offered again when their answer never began to leave, moved on
/// when their receipt was written (and their `delivered` line written if the hook died before
/// it: `deliver::complete`), and settled by the evidence when their answer may have left
/// (`deliver::settle`).
fn recover(
    ctx: &Ctx,
    b: &SeatBox,
    (who, input, rules): (&SeatOf, &HookInput, &dyn Fn() -> Vec<evidence::Rule>),
    problems: &mut Vec<String>,
) {
    // the handed receipts of the seat's project: id -> the event that handed it
    let handed: OnceCell<HashMap<String, Option<String>>> = OnceCell::new();
    let was_handed = |id: &str| {
        handed
            .get_or_init(|| {
                let Some(project_dir) = b.dir.parent().and_then(Path::parent).and_then(Path::parent) else {
                    return HashMap::new();
                };
                history::read_receipts(&ctx.paths.config, project_dir)
                    .map(|(rs, _)| {
                        rs.into_iter().filter(|r| r.receipt == ReceiptKind::Handed).map(|r| (r.id, r.event)).collect()
                    })
                    .unwrap_or_default()
            })
            .get(id)
            .cloned()
    };
    match b.recover(Claimer::alive, |id| was_handed(id).is_some()) {
        Ok(got) => {
            for r in got {
                match r {
                    Recovered::InDoubt(c) => {
                        let by = Settler { seat: Some(who), input: Some(input), rules };
                        settle(ctx, b, &c, &by, problems)
                    }
                    // its hook died after its receipt: the line it may not have written
                    Recovered::Receipted(c) => {
                        let event = was_handed(c.key.id()).flatten().and_then(|w| Event::from_word(&w));
                        complete(ctx, b, &c, event.unwrap_or(Event::PostToolUse), problems);
                    }
                    Recovered::Reoffered(_) => {}
                }
            }
        }
        Err(e) => problems.push(format!("{}: recovery failed: {e}", b.dir.display())),
    }
}

/// The note of a delivery the hook made, the event under the name the receiving CLI gives it
/// (its hook format `f`): `handed by its PostToolUse hook`, `handed by its AfterTool hook`.
pub fn note(event: Event, f: Option<HookFormat>) -> Note {
    Note::HandedBy(event.named_in(f).to_string())
}

/// What `team hook <event>` ends with: the problems no checkout's team.log took (said on
/// stderr). Its answer, if any, was written through the [`AnswerOut`] it was given.
pub struct Hooked {
    pub unlogged: Vec<String>,
}

/// `team hook <event>` whole: the seat folders the pane's hints name, looked at before
/// anything else (nothing waiting: nothing more is read, `read_input` included), then the
/// hook's input, the claims, the answer written whole to `out` and the record. Every problem
/// is logged in the team.log of the checkout the inbox's first message names
/// ([`log_problem`]), else returned unlogged.
pub fn respond(event: Event, read_input: impl FnOnce() -> Vec<u8>, out: &mut dyn AnswerOut) -> Hooked {
    let paths = crate::paths::Paths::resolve(|k| std::env::var_os(k));
    let dirs = waiting_for(&paths.config, |k| std::env::var(k).ok());
    let mut unlogged = Vec::new();
    if dirs.is_empty() {
        return Hooked { unlogged };
    }
    let input = HookInput::parse(&read_input());
    let ctx = Ctx::from_env();
    let root = log_root(&dirs);
    let mut say = |why: &str| {
        if !log_problem(&ctx, root.as_deref(), why) {
            unlogged.push(why.to_string());
        }
    };
    match hand(&ctx, &input, &dirs) {
        Err(why) => say(&format!("{} hook: {why}", event.vendor())),
        Ok(claimed) => {
            let handed = deliver(&ctx, event, &input, claimed, out);
            for p in &handed.problems {
                say(p);
            }
        }
    }
    Hooked { unlogged }
}

/// The hook's answer to its CLI of hook format `f` (`None`: Claude's), one JSON object on
/// stdout: a `Stop` hook blocks the stop with the messages as its reason (the model reads them
/// and goes on); every other event adds them as context to the model's next request — in
/// `hookSpecificOutput` (Claude Code, Codex, Gemini CLI, Qwen Code), or bare
/// (`{"additionalContext": …}`: GitHub Copilot CLI, which does not read `hookSpecificOutput`,
/// measured on 1.0.102).
pub fn answer(event: Event, f: Option<HookFormat>, text: &str) -> serde_json::Value {
    match (event, f) {
        (Event::Stop, _) => serde_json::json!({"decision": "block", "reason": text}),
        (_, Some(HookFormat::CopilotSettings)) => serde_json::json!({"additionalContext": text}),
        (e, _) => serde_json::json!({"hookSpecificOutput": {"hookEventName": e.vendor(), "additionalContext": text}}),
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_doubt;
