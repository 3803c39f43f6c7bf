//! `team hook <event>`: what a seat's CLI runs at its hook events. It hands the seat's waiting
//! messages to the CLI (the model has them in its next request), writes a `handed` receipt per
//! message and the history's `delivered` line, and answers the CLI ([`respond`], [`answer`]);
//! `cli::hook` prints the answer.
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
//! Invariants: a message is claimed before anything else is done with it, and its receipt is
//! written (fsync'd) before the hook answers; a message whose receipt cannot be written is
//! given back (waiting again), never answered with; the `delivered` line is the waiting send's
//! or the hook's, never both ([`crate::mailbox::store::Token`]); a companion of a typed trigger gets its
//! receipt only (the typed leg wrote its line).

use std::cell::OnceCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::caller::{self, Caller};
use crate::ctx::Ctx;
use crate::history::{self, LogLine, MessageLine, Receipt, ReceiptKind, Sign};
use crate::mux::procfs::{self, Ancestor};
use crate::vocab::hook_event::Event;
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Note, Outcome};
use crate::workspace::Workspace;

use crate::mailbox::bell;
use crate::mailbox::store::{Claim, Claimer, Message, SeatBox};

/// What the CLI's JSON on stdin says that the hook uses. Untrusted: the session id is kept
/// only when it is a short printable word.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookInput {
    pub session_id: Option<String>,
    pub event_name: Option<String>,
}

impl HookInput {
    /// Reads what it can; anything it cannot read is left out.
    pub fn parse(bytes: &[u8]) -> HookInput {
        #[derive(serde::Deserialize)]
        struct Raw {
            session_id: Option<String>,
            hook_event_name: Option<String>,
        }
        let Ok(raw) = serde_json::from_slice::<Raw>(bytes) else { return HookInput::default() };
        let word = |s: Option<String>| {
            s.filter(|s| {
                !s.is_empty()
                    && s.len() <= 128
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
            })
        };
        HookInput { session_id: word(raw.session_id), event_name: word(raw.hook_event_name) }
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

/// What one hook handed, in queue order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Handed {
    pub messages: Vec<Message>,
    /// What went wrong on the way (a receipt, a history line, a message file): said in
    /// team.log, never to the CLI.
    pub problems: Vec<String>,
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
/// checkout's team file, then claims and hands the messages that are its own. `Err` (nothing
/// claimed) when the caller is a seat of none of them.
pub fn hand(ctx: &Ctx, event: Event, input: &HookInput, dirs: &[PathBuf]) -> Result<Handed, NotHanded> {
    let mut roots: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for d in dirs {
        let Some(root) = first_root(std::slice::from_ref(d)) else { continue };
        match roots.iter_mut().find(|(r, _)| *r == root) {
            Some((_, ds)) => ds.push(d.clone()),
            None => roots.push((root, vec![d.clone()])),
        }
    }
    let mut out: Option<Handed> = None;
    let mut why = NotHanded::NoCheckout;
    for (root, its) in &roots {
        match hand_in(ctx, event, input, root, its) {
            Ok(h) => {
                let all = out.get_or_insert_with(Handed::default);
                all.messages.extend(h.messages);
                all.problems.extend(h.problems);
            }
            Err(e) => why = e,
        }
    }
    out.ok_or(why)
}

/// [`hand`] for the seat folders of the checkout at `root`.
fn hand_in(ctx: &Ctx, event: Event, input: &HookInput, root: &Path, dirs: &[PathBuf]) -> Result<Handed, NotHanded> {
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
    Ok(hand_as(ctx, event, input, dirs, &who, Claimer::me()))
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

/// Writes a hook's problem where a maintainer finds it: the team.log of the checkout the
/// inbox's first readable message names ([`first_root`]). `false` when no message names one or
/// the line cannot be written (the command then says it on stderr).
pub fn log_problem(ctx: &Ctx, dirs: &[PathBuf], why: &str) -> bool {
    let root = first_root(dirs);
    let line = LogLine {
        command: "hook".into(),
        caller: "a hook".into(),
        seat: None,
        outcome: "failed".into(),
        bytes: None,
        detail: Some(why.to_string()),
    };
    root.is_some_and(|r| history::append_log(&r, &ctx.clock.now_iso(), &line).is_ok())
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

/// [`hand`] for a caller already found.
pub fn hand_as(ctx: &Ctx, event: Event, input: &HookInput, dirs: &[PathBuf], who: &SeatOf, by: Claimer) -> Handed {
    let (team, seat) = (&who.team, &who.seat);
    let mut out = Handed::default();
    for dir in dirs {
        let b = SeatBox::at(dir.clone());
        recover(ctx, &b, &mut out);
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
                Ok(Some(c)) => {
                    if let Some(m) = finish(ctx, &b, &c, m, (event, input, &who.found), &mut out) {
                        out.messages.push(m);
                    }
                }
                Ok(None) => {}
                Err(e) => out.problems.push(format!("{}: the claim failed: {e}", k.id())),
            }
        }
    }
    out
}

/// Claims whose claimer died: offered again, or moved on when their receipt was written.
fn recover(ctx: &Ctx, b: &SeatBox, out: &mut Handed) {
    let handed: OnceCell<HashSet<String>> = OnceCell::new();
    let was_handed = |id: &str| {
        handed
            .get_or_init(|| {
                let Some(project_dir) = b.dir.parent().and_then(Path::parent).and_then(Path::parent) else {
                    return HashSet::new();
                };
                history::read_receipts(&ctx.paths.config, project_dir)
                    .map(|(rs, _)| rs.into_iter().filter(|r| r.receipt == ReceiptKind::Handed).map(|r| r.id).collect())
                    .unwrap_or_default()
            })
            .contains(id)
    };
    if let Err(e) = b.recover(Claimer::alive, was_handed) {
        out.problems.push(format!("{}: recovery failed: {e}", b.dir.display()));
    }
}

/// A claimed message: its receipt, its history line (unless the waiting send or the typed leg
/// writes it), then `handed/`. `None` (given back, waiting again) when the receipt cannot be
/// written.
fn finish(
    ctx: &Ctx,
    b: &SeatBox,
    c: &Claim,
    m: Message,
    (event, input, found): (Event, &HookInput, &Found),
    out: &mut Handed,
) -> Option<Message> {
    let ms = ms_since(ctx, m.sent_ms);
    let receipt = Receipt {
        sign: Some(Sign::Hook),
        ms: Some(ms),
        event: Some(event.word().to_string()),
        session: input.session_id.clone(),
        ..Receipt::new(ReceiptKind::Handed, ctx.clock.now_ts(), &m.id, &m.seat)
    };
    if let Err(e) = history::append_receipt_durably(&ctx.paths.config, &m.project, &m.root, &receipt) {
        out.problems.push(format!("{}: the receipt could not be written ({e}); given back to the inbox", m.id));
        if let Err(e) = b.unclaim(c) {
            out.problems.push(format!("{}: and could not be given back: {e}", m.id));
        }
        return None;
    }
    let send_waits = !m.typed && b.token(&m.id).take_for_hook(event.word());
    if !m.typed && !send_waits {
        let line = MessageLine {
            ts: ctx.clock.now_ts(),
            from: m.from.clone(),
            to: m.seat.clone(),
            body: whole_text(&m),
            id: m.id.clone(),
            outcome: Outcome::Delivered,
            ms: Some(ms),
            via: Some(Leg::McpInbox.into()),
            note: Some(note(event)),
            ..Default::default()
        };
        if let Err(e) = history::append_message(&ctx.paths.config, &m.project, &m.root, &line) {
            out.problems.push(format!("{}: the delivered line could not be written: {e}", m.id));
        }
    }
    if let Err(e) = b.handed(c) {
        out.problems.push(format!("{}: handed, but its claim could not be moved to handed/: {e}", m.id));
    }
    let log = LogLine {
        command: "hook".into(),
        caller: format!("seat {} of {}", m.seat, m.team),
        seat: Some(m.seat.clone()),
        outcome: "handed".into(),
        bytes: Some(m.bytes),
        detail: Some(format!("id {}, {} hook, {ms} ms from the send; {}", m.id, event.vendor(), found.words())),
    };
    let _ = history::append_log(&m.root, &ctx.clock.now_iso(), &log);
    Some(m)
}

/// The largest drop file read back for the history line: a send's largest body (1 MiB) and
/// its header.
const DROP_MAX: u64 = (1 << 20) + 64 * 1024;

/// The note of a delivery the hook made: `handed by its PostToolUse hook`.
pub fn note(event: Event) -> Note {
    Note::HandedBy(event.vendor().to_string())
}

/// Whole milliseconds from the send's start (ms since the epoch) to now.
fn ms_since(ctx: &Ctx, sent_ms: i64) -> u64 {
    (ctx.clock.now().timestamp_millis() - sent_ms).max(0) as u64
}

/// The history body: the drop file's text (header and body, whole), or the header and the
/// inline body when the drop cannot be read.
fn whole_text(m: &Message) -> String {
    match crate::fsx::read_capped(&m.drop, DROP_MAX) {
        Ok(Some(t)) => t,
        _ => crate::admission::with_header(&m.header, &m.body),
    }
}

/// What `team hook <event>` ends with: its answer to the CLI (`None`: nothing was handed, and
/// nothing is printed) and the problems no checkout's team.log took (said on stderr).
pub struct Hooked {
    pub answer: Option<serde_json::Value>,
    pub unlogged: Vec<String>,
}

/// `team hook <event>` whole: the seat folders the pane's hints name, looked at before
/// anything else (nothing waiting: nothing more is read, `read_input` included), then the
/// hook's input, the hand-over and the answer. Every problem is logged in the team.log of the
/// checkout the inbox's first message names ([`log_problem`]), else returned unlogged.
pub fn respond(event: Event, read_input: impl FnOnce() -> Vec<u8>) -> Hooked {
    let paths = crate::paths::Paths::resolve(|k| std::env::var_os(k));
    let dirs = waiting_for(&paths.config, |k| std::env::var(k).ok());
    let mut unlogged = Vec::new();
    if dirs.is_empty() {
        return Hooked { answer: None, unlogged };
    }
    let input = HookInput::parse(&read_input());
    let ctx = Ctx::from_env();
    let mut say = |why: &str| {
        if !log_problem(&ctx, &dirs, why) {
            unlogged.push(why.to_string());
        }
    };
    let answer = match hand(&ctx, event, &input, &dirs) {
        Err(why) => {
            say(&format!("{} hook: {why}", event.vendor()));
            None
        }
        Ok(handed) => {
            for p in &handed.problems {
                say(p);
            }
            (!handed.messages.is_empty()).then(|| answer(event, &crate::mailbox::text::handed_text(&handed.messages)))
        }
    };
    Hooked { answer, unlogged }
}

/// The hook's answer to its CLI, one JSON object on stdout: a `Stop` hook blocks the stop with
/// the messages as its reason (the model reads them and goes on); every other event adds them
/// as context to the model's next request (the vendors' hook protocol).
pub fn answer(event: Event, text: &str) -> serde_json::Value {
    match event {
        Event::Stop => serde_json::json!({"decision": "block", "reason": text}),
        e => serde_json::json!({"hookSpecificOutput": {"hookEventName": e.vendor(), "additionalContext": text}}),
    }
}

#[cfg(test)]
mod tests;
