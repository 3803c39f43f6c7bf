//! The hand-over itself, in the one order that never records success before it is complete:
//! the claims' notes (the answer may leave from now on), the answer written whole to the CLI,
//! then per message its receipt, the `delivered` line and the move to `handed/` ([`deliver`]).
//! An answer that could not be written gives every claim back. A claim a dead hook left in
//! doubt is settled here too, by the evidence ([`settle`]).
//!
//! A CLI that takes a hook's answer only from a hook that exits (its profile's `hook-answer=
//! on-exit`: Codex) gets no receipt from the hook that answered it — a hook killed between its
//! receipt and its exit would leave a receipt for an answer the CLI dropped. Its claim waits,
//! noted, for the evidence: the waiting send ([`confirm`]), a later hook or the watch
//! ([`settle`]) records it once the CLI's transcript shows the answer taken, and gives it back
//! once the CLI has gone on without it.
//!
//! Invariant: nothing here says a message was handed before its answer left whole — or, for a
//! claim in doubt or a CLI that takes answers on exit, before its CLI's transcript showed the
//! answer taken.

use std::path::Path;

use super::evidence::{self, Rule, Verdict};
use super::{answer, Claimed, Event, Found, Handed, HookInput, Item, SeatOf};
use crate::clock::Clock;
use crate::ctx::Ctx;
use crate::history::{self, LogLine, MessageLine, Receipt, ReceiptKind, Sign};
use crate::mailbox::store::{wall_ms, Answering, Claim, Claimer, Message, SeatBox, Where};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Decider, Outcome};

/// Where a hook's answer goes: the command line gives it (stdout); the use-case only asks.
pub trait AnswerOut {
    /// Why an answer written here could not reach the CLI, asked before anything is claimed:
    /// a place no CLI reads a hook's answer from (a terminal, `/dev/null` — where a closed
    /// stdout is reopened before the program starts —, `/dev/full`).
    fn unreachable(&mut self) -> Option<String>;
    /// Writes `bytes` whole and flushes them: any failure, a short write included, is an
    /// `Err` (the answer did not leave whole).
    fn write_whole(&mut self, bytes: &[u8]) -> std::io::Result<()>;
}

/// The largest drop file read back for the history line: a send's largest body (1 MiB) and
/// its header.
const DROP_MAX: u64 = (1 << 20) + 64 * 1024;

/// Hands `claimed` to the CLI through `out`: notes, the whole answer, then the record; or,
/// when the answer cannot be written, every claim given back.
pub fn deliver(ctx: &Ctx, event: Event, input: &HookInput, claimed: Claimed, out: &mut dyn AnswerOut) -> Handed {
    let mut handed = Handed { messages: Vec::new(), problems: claimed.problems };
    let items = claimed.items;
    let transcript = input.transcript.clone().or(claimed.transcript);
    if items.is_empty() {
        return handed;
    }
    let ids = || items.iter().map(|i| i.m.id.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(why) = out.unreachable() {
        handed.problems.push(format!("{} hook: {why}: no answer can reach its CLI", event.vendor()));
        give_back(&items, &format!("{} given back to the inbox", ids()), &mut handed.problems);
        return handed;
    }
    let note = noted(event, input, transcript);
    for i in &items {
        if let Err(e) = i.b.answering(&i.c, &Answering { on_exit: i.on_exit, ..note.clone() }) {
            handed.problems.push(format!("{}: the note before the answer could not be written ({e})", i.m.id));
            give_back(
                &items,
                &format!("nothing was answered; {} given back to the inbox", ids()),
                &mut handed.problems,
            );
            return handed;
        }
    }
    let messages: Vec<&Message> = items.iter().map(|i| &i.m).collect();
    let text = crate::mailbox::text::handed_text(messages.iter().copied());
    // (one seat's messages: its CLI's format, as its profile said when they were queued)
    let format = items.iter().find_map(|i| i.m.hooks);
    let mut bytes = serde_json::to_vec(&answer(event, format, &text)).expect("an answer always serialises");
    bytes.push(b'\n');
    if let Err(e) = out.write_whole(&bytes) {
        let why = format!(
            "{} hook: its answer could not be written whole ({e}); {} given back to the inbox",
            event.vendor(),
            ids()
        );
        give_back(&items, &why, &mut handed.problems);
        return handed;
    }
    let rec = Rec::of(ctx);
    for i in items {
        if i.on_exit {
            // its CLI takes the answer only once this hook has exited: the evidence records it
            let detail = format!("id {}, {} hook, {}; {AWAITS}", i.m.id, event.named_in(i.m.hooks), i.found.words());
            log(&rec, &i.m, "answered", detail);
        } else {
            let how = Recorded { event, session: input.session_id.clone(), found: Some(&i.found), settled: None };
            record(&rec, &i.b, &i.c, &i.m, &how, &mut handed.problems);
        }
        handed.messages.push(i.m);
    }
    handed
}

/// team.log's words for an answer left to the evidence.
pub const AWAITS: &str = "its CLI takes a hook's answer only once the hook has exited: it is recorded handed when its CLI's transcript shows it taken";

/// What a hand-over is recorded with: where the history is, and the clock.
pub struct Rec<'a> {
    pub config: &'a Path,
    pub clock: &'a Clock,
}

impl<'a> Rec<'a> {
    pub fn of(ctx: &'a Ctx) -> Rec<'a> {
        Rec { config: &ctx.paths.config, clock: &ctx.clock }
    }
}

/// The note every claim of this answer gets before its first byte (`transcript`: the one the
/// hook's input named, else the one the seat's profile places).
fn noted(event: Event, input: &HookInput, transcript: Option<std::path::PathBuf>) -> Answering {
    let me = Claimer::me();
    Answering {
        pid: me.pid,
        start: me.start,
        event: event.word().to_string(),
        at_ms: crate::mailbox::store::wall_ms(),
        session: input.session_id.clone(),
        turn: input.turn.clone(),
        offset: transcript.as_deref().map_or(0, evidence::size_of),
        transcript,
        said: false,
        on_exit: false,
    }
}

/// Every claim of an answer that did not leave, waiting again (`why` is said once, with what
/// could not be given back).
fn give_back(items: &[Item], why: &str, problems: &mut Vec<String>) {
    problems.push(why.to_string());
    for i in items {
        if let Err(e) = i.b.unclaim(&i.c) {
            problems.push(format!("{}: could not be given back ({e}): a later hook settles it", i.m.id));
        }
    }
}

/// What a hook tells the send waiting on a message by taking its token: the event that handed
/// it, and what the hand-over rests on — the hook's own receipt, or (a claim the evidence
/// settled) the CLI's transcript. The token's word: `post-tool-use`, `post-tool-use.transcript`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    pub event: Event,
    pub by: Decider,
}

impl Told {
    const BY_TRANSCRIPT: &'static str = ".transcript";

    pub fn word(&self) -> String {
        match self.by {
            Decider::Transcript => format!("{}{}", self.event.word(), Self::BY_TRANSCRIPT),
            _ => self.event.word().to_string(),
        }
    }

    /// A token's word as a hook wrote it (an unknown event reads as PostToolUse, as before).
    pub fn parse(w: &str) -> Told {
        let (event, by) = match w.strip_suffix(Self::BY_TRANSCRIPT) {
            Some(e) => (e, Decider::Transcript),
            None => (w, Decider::HookReceipt),
        };
        Told { event: Event::from_word(event).unwrap_or(Event::PostToolUse), by }
    }
}

/// How a hand-over is recorded.
struct Recorded<'a> {
    event: Event,
    /// The receiving CLI's session, as its hook's input named it.
    session: Option<String>,
    /// How its hook was placed (none for a hand-over the evidence settled).
    found: Option<&'a Found>,
    /// Settled by the evidence (its receipt's note says how), or recorded by its own hook.
    settled: Option<&'static str>,
}

/// A message whose answer left: its receipt (fsync'd), its history line (unless the waiting
/// send or the typed leg writes it), `handed/`, team.log's line. With no receipt written the
/// send is told nothing (it ends `held`): `delivered` is said only on a receipt — but the
/// message is still moved on, for its answer left and offering it again would hand it twice.
fn record(ctx: &Rec, b: &SeatBox, c: &Claim, m: &Message, how: &Recorded, problems: &mut Vec<String>) {
    let ms = ms_since(ctx, m.sent_ms);
    let receipt = Receipt {
        sign: Some(Sign::Hook),
        ms: Some(ms),
        event: Some(how.event.word().to_string()),
        session: how.session.clone(),
        note: how.settled.map(str::to_string),
        ..Receipt::new(ReceiptKind::Handed, ctx.clock.now_ts(), &m.id, &m.seat)
    };
    let receipted = history::append_receipt_durably(ctx.config, &m.project, &m.root, &receipt);
    if let Err(e) = &receipted {
        problems.push(format!(
            "{}: handed (its answer left), but its receipt could not be written ({e}): it is not said delivered",
            m.id
        ));
    }
    // (a hand-over the evidence settled rests on the CLI's transcript, not on a receipt its
    // own hook wrote: its line says so)
    let told =
        Told { event: how.event, by: if how.settled.is_some() { Decider::Transcript } else { Decider::HookReceipt } };
    let send_waits = receipted.is_ok() && !m.typed && b.token(&m.id).take_for_hook(&told.word());
    if receipted.is_ok() && !m.typed && !send_waits {
        write_line(ctx, m, &told, ms, problems);
    }
    if let Err(e) = b.handed(c) {
        problems.push(format!("{}: handed, but its claim could not be moved to handed/: {e}", m.id));
    }
    let detail = match how.found {
        Some(f) => format!("id {}, {} hook, {ms} ms from the send; {}", m.id, how.event.named_in(m.hooks), f.words()),
        None => format!("id {}, {} hook; {}", m.id, how.event.named_in(m.hooks), how.settled.unwrap_or(SETTLED)),
    };
    log(ctx, m, "handed", detail);
}

/// The `delivered` line a hook writes (the send stopped waiting).
fn write_line(ctx: &Rec, m: &Message, told: &Told, ms: u64, problems: &mut Vec<String>) {
    let event = told.event;
    let line = MessageLine {
        ts: ctx.clock.now_ts(),
        from: m.from.clone(),
        to: m.seat.clone(),
        body: whole_text(m),
        id: m.id.clone(),
        outcome: Outcome::Delivered,
        ms: Some(ms),
        via: Some(Leg::McpInbox.into()),
        note: Some(super::note(event, m.hooks)),
        reply_to: m.reply_to.clone(),
        by: Some(told.by.clone()),
        ..Default::default()
    };
    if let Err(e) = history::append_message(ctx.config, &m.project, &m.root, &line) {
        problems.push(format!("{}: the delivered line could not be written: {e}", m.id));
    }
}

/// A claim whose hook died after its receipt ([`crate::mailbox::store::Recovered::Receipted`]):
/// taken over, completed with the `delivered` line the hook may not have written — told to the
/// send still waiting, or written when the history has none for it (a typed trigger's
/// companion has the typed leg's) — and only then moved to `handed/`.
pub fn complete(ctx: &Ctx, b: &SeatBox, c: &Claim, event: Event, problems: &mut Vec<String>) {
    complete_with(&Rec::of(ctx), b, c, Told { event, by: Decider::HookReceipt }, problems)
}

fn complete_with(ctx: &Rec, b: &SeatBox, c: &Claim, told: Told, problems: &mut Vec<String>) {
    let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
    if let Ok(m) = b.read_claimed(&mine) {
        complete_line(ctx, b, &m, told, problems);
    }
    if let Err(e) = b.handed(&mine) {
        problems.push(format!("{}: handed, but its claim could not be moved to handed/: {e}", c.key.id()));
    }
}

fn complete_line(ctx: &Rec, b: &SeatBox, m: &Message, told: Told, problems: &mut Vec<String>) {
    let token = b.token(&m.id);
    if m.typed || token.taken().is_some() || token.take_for_hook(&told.word()) {
        return;
    }
    let dir = history::project_dir(ctx.config, &m.project, &m.root);
    let lines = match history::read_messages(ctx.config, &dir) {
        Ok(l) => l,
        Err(e) => {
            problems.push(format!("{}: handed, and its history could not be read to complete it ({e})", m.id));
            return;
        }
    };
    if !lines.iter().any(|l| l.id == m.id && l.outcome == Outcome::Delivered) {
        write_line(ctx, m, &told, ms_since(ctx, m.sent_ms), problems);
    }
}

/// The receipt's note, and team.log's words, for a hand-over the evidence settled.
pub const SETTLED: &str =
    "its hook was cut off between its answer and its record; its CLI's transcript shows the answer taken";

/// team.log's words for a typed trigger's companion its CLI went on without.
pub const COMPANION_GONE: &str =
    "it was the companion of a typed trigger, which its CLI took and which points at the drop: not offered again";

/// The same for a CLI that takes a hook's answer only from a hook that exits.
pub const CONFIRMED: &str =
    "its CLI takes a hook's answer only once the hook has exited; its CLI's transcript shows the answer taken";

/// How long after its answer began a claim of a CLI that takes answers on exit is said in doubt
/// at the earliest: the CLI writes the answer it took into its transcript as it takes it, a
/// moment after the hook exits, and a settler looking within that moment has nothing to say.
const DOUBT_AFTER_MS: i64 = 2_000;

fn log(ctx: &Rec, m: &Message, outcome: &str, detail: String) {
    let line = LogLine {
        command: "hook".into(),
        caller: format!("seat {} of {}", m.seat, m.team),
        seat: Some(m.seat.clone()),
        outcome: outcome.into(),
        bytes: Some(m.bytes),
        detail: Some(detail),
    };
    let _ = history::append_log(&m.root, &ctx.clock.now_iso(), &line);
}

/// Who settles a claim in doubt: the seat whose messages it may settle (a hook's caller;
/// `None`: the box is the seat's own, as the watch reads it), the hook input of the hook that
/// asks (`None`: the watch), and the rules of the seat's profile (asked only when needed).
pub struct Settler<'a> {
    pub seat: Option<&'a SeatOf>,
    pub input: Option<&'a HookInput>,
    pub rules: &'a dyn Fn() -> Vec<Rule>,
}

/// A claim a dead hook left in doubt (its note stands, no receipt): the evidence settles it
/// — taken (recorded now), not taken (waiting again), or left in doubt (said once). The claim
/// is taken over first, so one settler alone acts on it.
pub fn settle(ctx: &Ctx, b: &SeatBox, c: &Claim, by: &Settler, problems: &mut Vec<String>) {
    let Ok(m) = b.read_claimed(c) else { return };
    if by.seat.is_some_and(|w| m.team != w.team || m.seat != w.seat) {
        return;
    }
    let note = match b.note(c) {
        Ok(Some(n)) => n,
        Ok(None) => return,
        Err(e) => {
            problems.push(format!("{}: in doubt, and its note cannot be read ({e}); left in doubt", m.id));
            return;
        }
    };
    let ctx = &Rec::of(ctx);
    // how the hook left it: cut off, or (a CLI that takes answers on exit) answered and gone
    let how = if note.on_exit {
        "its hook answered, and its CLI takes a hook's answer only from a hook that exits"
    } else {
        "its hook was cut off after its answer may have left"
    };
    match evidence::judge(&note, &m.id, &(by.rules)(), by.input) {
        Verdict::Taken => taken(ctx, b, c, &m, &note, problems),
        // a typed trigger's companion is not offered again: its trigger reached the CLI (a
        // prompt hook ran for it) and points the model at the drop, so a second hand-over of
        // the body would give the model the message twice
        Verdict::NotTaken(why) if m.typed => {
            let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
            match b.withdraw_claim(&mine) {
                Ok(()) => log(ctx, &m, "withdrawn", format!("id {}: {how}; {why}; {COMPANION_GONE}", m.id)),
                Err(e) => problems.push(format!("{}: not taken, but could not be withdrawn ({e})", m.id)),
            }
        }
        Verdict::NotTaken(why) => {
            let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
            match b.unclaim(&mine) {
                Ok(()) => log(ctx, &m, "given back", format!("id {}: {how}; {why}", m.id)),
                Err(e) => problems.push(format!("{}: not taken, but could not be given back ({e})", m.id)),
            }
        }
        // (a CLI that takes answers on exit writes what it took a moment after the hook's exit)
        Verdict::Unknown(_) if note.on_exit && wall_ms() - note.at_ms < DOUBT_AFTER_MS => {}
        Verdict::Unknown(why) if !note.said => {
            // said where the message's checkout keeps its log, before the note says it was
            let detail = format!(
                "id {}: {how}, and {why}; it is neither offered again nor said delivered until its CLI's transcript or later turn settles it",
                m.id
            );
            log(ctx, &m, "in doubt", detail);
            let _ = b.renote(c, &Answering { said: true, ..note });
        }
        Verdict::Unknown(_) => {}
    }
}

/// A claim in doubt whose CLI's transcript shows the answer taken: taken over, then recorded
/// (its receipt's note says how it was settled).
fn taken(ctx: &Rec, b: &SeatBox, c: &Claim, m: &Message, note: &Answering, problems: &mut Vec<String>) {
    let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
    let event = Event::from_word(&note.event).unwrap_or(Event::PostToolUse);
    let settled = Some(if note.on_exit { CONFIRMED } else { SETTLED });
    let how = Recorded { event, session: note.session.clone(), found: None, settled };
    record(ctx, b, &mine, m, &how, problems);
}

/// What a waiting send found of its message ([`confirm`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmed {
    /// Its CLI's transcript shows the answer taken: recorded now (the send's token taken).
    Taken,
    /// Answered by a hook that has exited (its CLI takes answers on exit), and its transcript
    /// does not show it taken yet.
    InDoubt,
    /// Anything else (waiting, claimed by a hook still running, handed, gone): the hooks'.
    Nothing,
}

/// For a send waiting on a CLI that takes a hook's answer only from a hook that exits: when
/// its message's claim was answered by a hook that has since exited, the CLI's transcript
/// (read with the profile's `rules`) settles it now — taken: recorded, the send's token taken
/// (it says `delivered`), or completed when a settler died after its receipt; else left in
/// doubt for the hooks and the watch (never given back here: the send sees no later turn).
pub fn confirm(ctx: &Rec, b: &SeatBox, id: &str, rules: &[Rule], problems: &mut Vec<String>) -> Confirmed {
    let Ok(Where::Claimed(c)) = b.find(id) else { return Confirmed::Nothing };
    if c.by.alive() {
        return Confirmed::Nothing;
    }
    let (Ok(Some(note)), Ok(m)) = (b.note(&c), b.read_claimed(&c)) else { return Confirmed::Nothing };
    if !note.on_exit {
        return Confirmed::Nothing;
    }
    if evidence::judge(&note, id, rules, None) != Verdict::Taken {
        return Confirmed::InDoubt;
    }
    let event = Event::from_word(&note.event).unwrap_or(Event::PostToolUse);
    let dir = history::project_dir(ctx.config, &m.project, &m.root);
    let Ok((receipts, _)) = history::read_receipts(ctx.config, &dir) else { return Confirmed::InDoubt };
    if receipts.iter().any(|r| r.id == id && r.receipt == ReceiptKind::Handed) {
        // a settler died after its receipt: its line, then handed/
        complete_with(ctx, b, &c, Told { event, by: Decider::Transcript }, problems);
    } else {
        taken(ctx, b, &c, &m, &note, problems);
    }
    Confirmed::Taken
}

/// Whole milliseconds from the send's start (ms since the epoch) to now.
fn ms_since(ctx: &Rec, sent_ms: i64) -> u64 {
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
