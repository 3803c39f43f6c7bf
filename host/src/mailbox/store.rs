//! One seat's inbox on disk, and the claim protocol that hands a message at most once.
//!
//! The folder: `<config>/<project>-<hash8>/inbox/<session>/<seat>/` (0700, built and checked
//! with `fsx`: no link, no FIFO, no folder another user could write into). In it:
//!
//! - `<key>.json` — a message waiting (`<key>` = `<20-digit ns>-<id>`: the names sort in the
//!   order the messages were queued);
//! - `<key>.claimed-<pid>-<start>` — a message a hook took, with the claimer's pid and start
//!   time (so a claimer that died is told from a live one whose pid was reused);
//! - `answering/<key>.json` — a claim's answer may have left: written before its first byte
//!   (see [`answering`]);
//! - `handed/<key>.json` — handed to the CLI: its answer left whole, then its receipt was
//!   written, then it moved here;
//! - `withdrawn/<key>.json` — taken back to go by another leg (it can never be handed);
//! - `sends/<id>` — a send is still waiting for this message's receipt (see [`Token`]).
//!
//! Invariants (each a single `rename(2)` or `unlink(2)`, so exactly one racer wins):
//! - claim = `<key>.json` → `<key>.claimed-…`; withdraw = `<key>.json` → `withdrawn/<key>.json`.
//!   Both start from the one waiting name, so a message is claimed at most once, and a
//!   withdrawn message is never claimed (and a claimed one never withdrawn);
//! - a claim whose claimer is dead and whose answer never began to leave (no note) goes back
//!   to `<key>.json` ([`SeatBox::recover`]): a hook killed mid-claim loses nothing; one whose
//!   handed receipt was written is never offered again (it was handed: that would hand it
//!   twice) — its recoverer completes it and moves it to `handed/`; one with a note and no
//!   receipt is left where it is, in doubt, for the evidence to settle (offered again blindly
//!   it could be handed twice; moved on blindly it could be lost);
//! - every waiting and claimed entry is a regular file in the folder itself, so "is anything
//!   for this seat?" is one directory read (the hook's fast path) — the sub-folders are not.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsx;

mod answering;
pub use answering::{Answering, ANSWERING};

const DIR_MODE: u32 = 0o700;
const FILE_MODE: u32 = 0o600;
/// A message file larger than this is no message of ours (the body inline is capped far below).
const MESSAGE_MAX: u64 = 64 * 1024;

pub const HANDED: &str = "handed";
pub const WITHDRAWN: &str = "withdrawn";
pub const SENDS: &str = "sends";

/// One message in a seat's inbox: what the hook needs to hand it without reading anything else.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Message {
    pub id: String,
    /// The history's `from`.
    pub from: String,
    /// The receiving team, session and seat (checked against the hook's caller before a claim).
    pub team: String,
    pub session: String,
    pub seat: String,
    /// The history key of the receiving project, and its checkout root.
    pub project: String,
    pub root: PathBuf,
    /// The admission rule's words (who admitted the sender).
    pub rule: String,
    /// The sender header as the drop file carries it.
    pub header: String,
    /// The drop file: the message whole.
    pub drop: PathBuf,
    /// The body, whole when it fits [`super::INLINE_MAX`], else empty (the drop has it).
    pub body: String,
    /// The whole body's size in bytes.
    pub bytes: usize,
    /// When it was queued (the run's clock, ISO-8601), and the send's start in ms since the epoch.
    pub queued_at: String,
    pub sent_ms: i64,
    /// A companion of a typed trigger (an idle seat): the typed leg wrote its history line,
    /// and a hook that hands it writes its receipt only.
    #[serde(default)]
    pub typed: bool,
    /// The receiving pane as the send found it holding the seat (absent when the multiplexer
    /// named no shell for it, and in messages of older builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pin: Option<Pin>,
    /// The message a reply answers (`team reply`): the hook's `delivered` line carries it, as
    /// the reply's own line does (absent for a send, and in messages of older builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// The receiving CLI's hook format, as its profile named it when the message was queued:
    /// the `delivered` line names the hook event by that CLI's own name (Gemini CLI's
    /// `AfterTool`, not Claude's `PostToolUse`). Absent: Claude's names (a companion, whose hook
    /// writes no line, and messages of older builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks: Option<crate::vocab::leg::HookFormat>,
}

/// The pane a send found holding the seat, by its shell: a pid and its start time name one
/// process for good, so a hook with that very shell among its ancestors runs in that pane
/// (`hook::pinned`), with no multiplexer asked.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The multiplexer's pane id.
    pub pane: String,
    pub shell_pid: u32,
    /// Its start time in clock ticks since boot (`/proc/<pid>/stat`).
    pub shell_start: u64,
    /// When the send found it, in ms since the epoch by the wall clock (never the test clock:
    /// the pin's freshness is the machine's time, whatever time a test pins).
    pub at_ms: i64,
}

impl Pin {
    /// The pin of `pane` as it runs now; `None` when its shell is unknown or gone.
    pub fn of(pane: &crate::mux::PaneRef) -> Option<Pin> {
        let pid = pane.shell_pid?;
        let start = crate::mux::procfs::start_time(pid)?;
        Some(Pin { pane: pane.id.clone(), shell_pid: pid, shell_start: start, at_ms: wall_ms() })
    }
}

/// The wall clock's ms since the epoch.
pub fn wall_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A waiting message's place in the queue: `<20-digit ns>-<id>`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key(String);

impl Key {
    /// A new key for `id`, ordered by the wall clock's nanoseconds (never the test clock: the
    /// order of two sends must hold whatever time a test pins).
    pub fn new(id: &str) -> Key {
        let ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        Key(format!("{ns:020}-{id}"))
    }

    /// The key a file name carries (`<key>.json` or `<key>.claimed-…`), when it is one.
    fn parse(stem: &str) -> Option<Key> {
        let (ns, id) = stem.split_once('-')?;
        (ns.len() == 20 && ns.bytes().all(|b| b.is_ascii_digit()) && crate::vocab::id::valid_id(id))
            .then(|| Key(stem.to_string()))
    }

    pub fn id(&self) -> &str {
        self.0.split_once('-').map(|(_, id)| id).unwrap_or("")
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn waiting(&self) -> String {
        format!("{}.json", self.0)
    }
}

/// Who claims: a process, named for good by its pid and start time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claimer {
    pub pid: u32,
    pub start: u64,
}

impl Claimer {
    /// This process.
    pub fn me() -> Claimer {
        let pid = std::process::id();
        Claimer { pid, start: crate::mux::procfs::start_time(pid).unwrap_or(0) }
    }

    /// Whether the claimer still runs (the same pid started at the same time).
    pub fn alive(self) -> bool {
        crate::mux::procfs::start_time(self.pid) == Some(self.start)
    }
}

/// A message a claimer holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub key: Key,
    pub by: Claimer,
}

impl Claim {
    fn name(&self) -> String {
        format!("{}.claimed-{}-{}", self.key.0, self.by.pid, self.by.start)
    }

    fn parse(name: &str) -> Option<Claim> {
        let (stem, who) = name.split_once(".claimed-")?;
        let (pid, start) = who.split_once('-')?;
        Some(Claim { key: Key::parse(stem)?, by: Claimer { pid: pid.parse().ok()?, start: start.parse().ok()? } })
    }
}

/// Where a message is, told from the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Where {
    Waiting(Key),
    Claimed(Claim),
    Handed(Key),
    Withdrawn(Key),
    /// No entry of this id (never queued here, or cleared).
    Nowhere,
}

/// What a withdraw found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdraw {
    /// Taken back: no hook can hand it now.
    Withdrawn(Key),
    /// Not waiting: a hook holds or handed it, or it was withdrawn already (where it is).
    NotWaiting(Where),
}

/// What recovery did with one claim whose claimer died.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovered {
    /// Back in the queue: it was never handed.
    Reoffered(Key),
    /// Its handed receipt was written: left for the caller to complete (its `delivered` line,
    /// which the dead claimer may not have written) and then move on to `handed/` — in that
    /// order, so a recoverer killed in between leaves it to the next.
    Receipted(Claim),
    /// Its answer may have left (its note stands) and no receipt says so: left where it is,
    /// for the evidence to settle.
    InDoubt(Claim),
}

/// One seat's inbox folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatBox {
    pub dir: PathBuf,
}

/// `inbox/<session>/<seat>` below a project folder.
pub fn seat_rel(session: &str, seat: &str) -> Option<PathBuf> {
    (crate::vocab::names::valid_word(session) && crate::vocab::names::valid_name(seat))
        .then(|| Path::new("inbox").join(session).join(seat))
}

fn not_word(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{what} is no session or seat word; no inbox is made for it"))
}

impl SeatBox {
    /// The inbox of `session`/`seat` in the project folder `<config>/<project_dir>`, made
    /// (0700, private) when missing.
    pub fn make(config: &Path, project_dir: &str, session: &str, seat: &str) -> io::Result<SeatBox> {
        let rel = seat_rel(session, seat).ok_or_else(|| not_word(&format!("{session}/{seat}")))?;
        let dir = fsx::ensure_private_dirs(config, &Path::new(project_dir).join(rel), DIR_MODE)?;
        for sub in [HANDED, WITHDRAWN, SENDS, ANSWERING] {
            fsx::ensure_dirs(&dir, Path::new(sub), DIR_MODE)?;
        }
        Ok(SeatBox { dir })
    }

    /// The inbox at `dir`, as it stands (nothing is made; a missing folder holds nothing).
    pub fn at(dir: PathBuf) -> SeatBox {
        SeatBox { dir }
    }

    /// Queues `m` under a new key: its file appears whole (a complete temp file linked in).
    pub fn queue(&self, m: &Message) -> io::Result<Key> {
        let key = Key::new(&m.id);
        let bytes = serde_json::to_vec(m).map_err(io::Error::other)?;
        fsx::write_new(&self.dir.join(key.waiting()), &bytes, FILE_MODE)?;
        Ok(key)
    }

    /// The folder's own entries (waiting and claimed), in queue order. A missing folder is
    /// empty. Names that are none of ours are passed over.
    fn entries(&self) -> io::Result<(Vec<Key>, Vec<Claim>)> {
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
            Err(e) => return Err(e),
        };
        let (mut waiting, mut claimed) = (Vec::new(), Vec::new());
        for e in rd {
            let e = e?;
            if !e.file_type()?.is_file() {
                continue;
            }
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(stem) = name.strip_suffix(".json") {
                waiting.extend(Key::parse(stem));
            } else if let Some(c) = Claim::parse(name) {
                claimed.push(c);
            }
        }
        waiting.sort();
        claimed.sort_by(|a, b| a.key.cmp(&b.key));
        Ok((waiting, claimed))
    }

    /// The waiting messages' keys, oldest first.
    pub fn waiting(&self) -> io::Result<Vec<Key>> {
        self.entries().map(|(w, _)| w)
    }

    /// The claims standing now (live or dead claimers).
    pub fn claims(&self) -> io::Result<Vec<Claim>> {
        self.entries().map(|(_, c)| c)
    }

    /// Whether the folder holds anything a hook would act on (a waiting or claimed entry):
    /// one directory read, nothing parsed, nothing opened.
    pub fn anything(dir: &Path) -> bool {
        let Ok(rd) = fs::read_dir(dir) else { return false };
        rd.flatten().any(|e| e.file_type().is_ok_and(|t| t.is_file()))
    }

    /// Reads a waiting message.
    pub fn read(&self, key: &Key) -> io::Result<Message> {
        self.read_name(&key.waiting())
    }

    /// Reads a claimed message.
    pub fn read_claimed(&self, c: &Claim) -> io::Result<Message> {
        self.read_name(&c.name())
    }

    fn read_name(&self, name: &str) -> io::Result<Message> {
        let path = self.dir.join(name);
        let text = fsx::read_capped(&path, MESSAGE_MAX)?
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{}: gone", path.display())))?;
        let m: Message = serde_json::from_str(&text)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))?;
        match self.misplaced(name, &m) {
            None => Ok(m),
            Some(why) => Err(io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()))),
        }
    }

    /// Why a message read from the file `name` of this box is not one a send queued here, if
    /// it is not: a message file is input (a same-user process can write one), so what it says
    /// must agree with where it lies — its id with its file's name, its session and seat with
    /// the box's folders, its project and checkout root with the project folder's name (which
    /// hashes the root), and its drop with the one place a send writes it. A message that does
    /// not is never handed, and names no folder a line is written to.
    fn misplaced(&self, name: &str, m: &Message) -> Option<&'static str> {
        let part = |p: Option<&Path>| p.and_then(Path::file_name).and_then(|n| n.to_str()).map(str::to_string);
        let seat = part(Some(&self.dir));
        let session = part(self.dir.parent());
        let project_dir = part(self.dir.parent().and_then(Path::parent).and_then(Path::parent));
        let id_ok =
            name.split_once('-').is_some_and(|(_, rest)| rest.starts_with(&m.id) && crate::vocab::id::valid_id(&m.id));
        if !id_ok {
            return Some("its id is not its file's");
        }
        if seat.as_deref() != Some(m.seat.as_str()) || session.as_deref() != Some(m.session.as_str()) {
            return Some("its session and seat are not its folder's");
        }
        if !m.root.is_absolute() || project_dir != Some(crate::history::project_dir_name(&m.project, &m.root)) {
            return Some("its project and checkout are not its project folder's");
        }
        let drop = m.root.join(".agents").join("send-drops").join(&m.session).join(&m.seat).join(&m.id);
        if m.drop != drop {
            return Some("its drop file is not where a send writes it");
        }
        None
    }

    /// Claims `key` for `by`: `None` when it is no longer waiting (another claimer or a
    /// withdraw won the rename).
    pub fn claim(&self, key: &Key, by: Claimer) -> io::Result<Option<Claim>> {
        let c = Claim { key: key.clone(), by };
        match fs::rename(self.dir.join(key.waiting()), self.dir.join(c.name())) {
            Ok(()) => Ok(Some(c)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A claim handed (its answer left whole): it moves to `handed/`, then its note goes.
    pub fn handed(&self, c: &Claim) -> io::Result<()> {
        fs::rename(self.dir.join(c.name()), self.dir.join(HANDED).join(c.key.waiting()))?;
        // a note left behind names a claim that no longer stands: it vouches for nothing
        let _ = self.unnote(c);
        Ok(())
    }

    /// A claim given back by its own live claimer, whose answer did not leave (it could not be
    /// written, or the note before it could not): its note goes first, then it waits again.
    pub fn unclaim(&self, c: &Claim) -> io::Result<()> {
        self.unnote(c)?;
        fs::rename(self.dir.join(c.name()), self.dir.join(c.key.waiting()))
    }

    /// Withdraws a claim whose answer was not taken and that must not be offered again (a
    /// typed trigger's companion: the trigger reached the CLI and its drop carries the message):
    /// its note goes first, then it moves to `withdrawn/`, never waiting in between.
    pub fn withdraw_claim(&self, c: &Claim) -> io::Result<()> {
        self.unnote(c)?;
        fs::rename(self.dir.join(c.name()), self.dir.join(WITHDRAWN).join(c.key.waiting()))
    }

    /// Withdraws `key` so it goes by another leg: it can never be handed after this answers
    /// `Withdrawn`.
    pub fn withdraw(&self, key: &Key) -> io::Result<Withdraw> {
        match fs::rename(self.dir.join(key.waiting()), self.dir.join(WITHDRAWN).join(key.waiting())) {
            Ok(()) => Ok(Withdraw::Withdrawn(key.clone())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Withdraw::NotWaiting(self.find(key.id())?)),
            Err(e) => Err(e),
        }
    }

    /// Withdraws the message `id` wherever it waits (`NotWaiting` says where it is instead).
    pub fn withdraw_id(&self, id: &str) -> io::Result<Withdraw> {
        match self.find(id)? {
            Where::Waiting(k) => self.withdraw(&k),
            other => Ok(Withdraw::NotWaiting(other)),
        }
    }

    /// Where the message `id` is now.
    pub fn find(&self, id: &str) -> io::Result<Where> {
        let (waiting, claimed) = self.entries()?;
        if let Some(k) = waiting.into_iter().find(|k| k.id() == id) {
            return Ok(Where::Waiting(k));
        }
        if let Some(c) = claimed.into_iter().find(|c| c.key.id() == id) {
            return Ok(Where::Claimed(c));
        }
        for (sub, make) in [(HANDED, Where::Handed as fn(Key) -> Where), (WITHDRAWN, Where::Withdrawn)] {
            if let Ok(rd) = fs::read_dir(self.dir.join(sub)) {
                for e in rd.flatten() {
                    let name = e.file_name();
                    let key = name.to_str().and_then(|n| n.strip_suffix(".json")).and_then(Key::parse);
                    if let Some(k) = key.filter(|k| k.id() == id) {
                        return Ok(make(k));
                    }
                }
            }
        }
        Ok(Where::Nowhere)
    }

    /// Every claim whose claimer is dead (`alive` says no): left for the caller to complete
    /// when `was_handed(id)` (its receipt exists: [`Recovered::Receipted`]); left in doubt
    /// when its note stands (its answer may have left: [`Recovered::InDoubt`]); else back in
    /// the queue. A rename another recoverer won is passed over.
    pub fn recover(
        &self,
        alive: impl Fn(Claimer) -> bool,
        was_handed: impl Fn(&str) -> bool,
    ) -> io::Result<Vec<Recovered>> {
        let mut out = Vec::new();
        for c in self.claims()? {
            if alive(c.by) {
                continue;
            }
            if was_handed(c.key.id()) {
                out.push(Recovered::Receipted(c));
                continue;
            }
            if self.noted(&c) {
                out.push(Recovered::InDoubt(c));
                continue;
            }
            match fs::rename(self.dir.join(c.name()), self.dir.join(c.key.waiting())) {
                Ok(()) => out.push(Recovered::Reoffered(c.key)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        if !out.is_empty() {
            // a claimer killed while writing its note left a temp file beside the notes
            fsx::sweep_stale_temps(&self.dir.join(ANSWERING));
        }
        Ok(out)
    }

    /// The token of a send waiting for `id`'s receipt.
    pub fn token(&self, id: &str) -> Token {
        Token { dir: self.dir.join(SENDS), id: id.to_string() }
    }
}

/// The one decision of who writes a message's `delivered` history line: the send still
/// waiting for the receipt, or (once it stopped waiting and said `held`) the hook.
///
/// The send makes `sends/<id>` before it queues the message. A hook that handed the message
/// renames it to `sends/<id>.<event>` ([`Token::take_for_hook`]); a send that stops waiting
/// removes it ([`Token::end_wait`]). Both act on the one name, so exactly one wins: the hook
/// that wins leaves the line to the waiting send (which sees the renamed token and says
/// `delivered`), a hook that loses writes the line itself (the send said `held`).
#[derive(Debug, Clone)]
pub struct Token {
    dir: PathBuf,
    id: String,
}

impl Token {
    /// Made by the send before it queues the message; it names the send's process.
    pub fn make(&self) -> io::Result<()> {
        let me = Claimer::me();
        fsx::write_new(&self.dir.join(&self.id), format!("{} {}", me.pid, me.start).as_bytes(), FILE_MODE)
    }

    /// The hook that handed the message: `true` when the send is still waiting (it writes the
    /// line; `event` tells it how the message went). A token whose send died is taken away
    /// instead (`false`: the hook writes the line, or none would be).
    pub fn take_for_hook(&self, event: &str) -> bool {
        let path = self.dir.join(&self.id);
        let sender = fsx::read_capped(&path, 64).ok().flatten().and_then(|t| {
            let (pid, start) = t.trim().split_once(' ')?;
            Some(Claimer { pid: pid.parse().ok()?, start: start.parse().ok()? })
        });
        if sender.is_some_and(|s| !s.alive()) {
            let _ = fs::remove_file(&path);
            return false;
        }
        fs::rename(path, self.dir.join(format!("{}.{event}", self.id))).is_ok()
    }

    /// The waiting send, polling: `Some(event)` once a hook took the token.
    pub fn taken(&self) -> Option<String> {
        let prefix = format!("{}.", self.id);
        let rd = fs::read_dir(&self.dir).ok()?;
        rd.flatten().find_map(|e| e.file_name().to_str().and_then(|n| n.strip_prefix(&prefix)).map(str::to_string))
    }

    /// The send stops waiting: `true` when it removed the token first (no hook took it: the
    /// send says `held`, and the hook will write the line); `false` when a hook took it (the
    /// send says `delivered`).
    pub fn end_wait(&self) -> bool {
        fs::remove_file(self.dir.join(&self.id)).is_ok()
    }

    /// Clears a token a hook took (the send read it).
    pub fn clear(&self, event: &str) {
        let _ = fs::remove_file(self.dir.join(format!("{}.{event}", self.id)));
    }
}

#[cfg(test)]
mod tests;
