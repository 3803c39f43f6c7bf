//! The hand-over itself, in the one order that never records success before it is complete:
//! the claims' notes (the answer may leave from now on), the answer written whole to the CLI,
//! then per message its receipt, the `delivered` line and the move to `handed/` ([`deliver`]).
//! An answer that could not be written gives every claim back. A claim a dead hook left in
//! doubt is settled here too, by the evidence ([`settle`]).
//!
//! Invariant: nothing here says a message was handed before its answer left whole — or, for a
//! claim in doubt, before its CLI's transcript showed the answer taken.

use super::evidence::{self, Rule, Verdict};
use super::{answer, Claimed, Event, Found, Handed, HookInput, Item, SeatOf};
use crate::ctx::Ctx;
use crate::history::{self, LogLine, MessageLine, Receipt, ReceiptKind, Sign};
use crate::mailbox::store::{Answering, Claim, Claimer, Message, SeatBox};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::Outcome;

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
    if items.is_empty() {
        return handed;
    }
    let ids = || items.iter().map(|i| i.m.id.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(why) = out.unreachable() {
        handed.problems.push(format!("{} hook: {why}: no answer can reach its CLI", event.vendor()));
        give_back(&items, &format!("{} given back to the inbox", ids()), &mut handed.problems);
        return handed;
    }
    let note = noted(event, input);
    for i in &items {
        if let Err(e) = i.b.answering(&i.c, &note) {
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
    for i in items {
        let how = Recorded { event, session: input.session_id.clone(), found: Some(&i.found), settled: false };
        record(ctx, &i.b, &i.c, &i.m, &how, &mut handed.problems);
        handed.messages.push(i.m);
    }
    handed
}

/// The note every claim of this answer gets before its first byte.
fn noted(event: Event, input: &HookInput) -> Answering {
    let me = Claimer::me();
    Answering {
        pid: me.pid,
        start: me.start,
        event: event.word().to_string(),
        at_ms: crate::mailbox::store::wall_ms(),
        session: input.session_id.clone(),
        turn: input.turn.clone(),
        offset: input.transcript.as_deref().map_or(0, evidence::size_of),
        transcript: input.transcript.clone(),
        said: false,
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

/// How a hand-over is recorded.
struct Recorded<'a> {
    event: Event,
    /// The receiving CLI's session, as its hook's input named it.
    session: Option<String>,
    /// How its hook was placed (none for a hand-over the evidence settled).
    found: Option<&'a Found>,
    /// Settled by the evidence: its hook was cut off after its answer.
    settled: bool,
}

/// A message whose answer left: its receipt (fsync'd), its history line (unless the waiting
/// send or the typed leg writes it), `handed/`, team.log's line. With no receipt written the
/// send is told nothing (it ends `held`): `delivered` is said only on a receipt — but the
/// message is still moved on, for its answer left and offering it again would hand it twice.
fn record(ctx: &Ctx, b: &SeatBox, c: &Claim, m: &Message, how: &Recorded, problems: &mut Vec<String>) {
    let ms = ms_since(ctx, m.sent_ms);
    let receipt = Receipt {
        sign: Some(Sign::Hook),
        ms: Some(ms),
        event: Some(how.event.word().to_string()),
        session: how.session.clone(),
        note: how.settled.then(|| SETTLED.to_string()),
        ..Receipt::new(ReceiptKind::Handed, ctx.clock.now_ts(), &m.id, &m.seat)
    };
    let receipted = history::append_receipt_durably(&ctx.paths.config, &m.project, &m.root, &receipt);
    if let Err(e) = &receipted {
        problems.push(format!(
            "{}: handed (its answer left), but its receipt could not be written ({e}): it is not said delivered",
            m.id
        ));
    }
    let send_waits = receipted.is_ok() && !m.typed && b.token(&m.id).take_for_hook(how.event.word());
    if receipted.is_ok() && !m.typed && !send_waits {
        write_line(ctx, m, how.event, ms, problems);
    }
    if let Err(e) = b.handed(c) {
        problems.push(format!("{}: handed, but its claim could not be moved to handed/: {e}", m.id));
    }
    let detail = match how.found {
        Some(f) => format!("id {}, {} hook, {ms} ms from the send; {}", m.id, how.event.named_in(m.hooks), f.words()),
        None => format!("id {}, {} hook; {SETTLED}", m.id, how.event.named_in(m.hooks)),
    };
    log(ctx, m, "handed", detail);
}

/// The `delivered` line a hook writes (the send stopped waiting).
fn write_line(ctx: &Ctx, m: &Message, event: Event, ms: u64, problems: &mut Vec<String>) {
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
        by: Some(crate::vocab::outcome::Decider::HookReceipt),
        ..Default::default()
    };
    if let Err(e) = history::append_message(&ctx.paths.config, &m.project, &m.root, &line) {
        problems.push(format!("{}: the delivered line could not be written: {e}", m.id));
    }
}

/// A claim whose hook died after its receipt ([`crate::mailbox::store::Recovered::Receipted`]):
/// taken over, completed with the `delivered` line the hook may not have written — told to the
/// send still waiting, or written when the history has none for it (a typed trigger's
/// companion has the typed leg's) — and only then moved to `handed/`.
pub fn complete(ctx: &Ctx, b: &SeatBox, c: &Claim, event: Event, problems: &mut Vec<String>) {
    let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
    if let Ok(m) = b.read_claimed(&mine) {
        complete_line(ctx, b, &m, event, problems);
    }
    if let Err(e) = b.handed(&mine) {
        problems.push(format!("{}: handed, but its claim could not be moved to handed/: {e}", c.key.id()));
    }
}

fn complete_line(ctx: &Ctx, b: &SeatBox, m: &Message, event: Event, problems: &mut Vec<String>) {
    let token = b.token(&m.id);
    if m.typed || token.taken().is_some() || token.take_for_hook(event.word()) {
        return;
    }
    let dir = history::project_dir(&ctx.paths.config, &m.project, &m.root);
    let lines = match history::read_messages(&ctx.paths.config, &dir) {
        Ok(l) => l,
        Err(e) => {
            problems.push(format!("{}: handed, and its history could not be read to complete it ({e})", m.id));
            return;
        }
    };
    if !lines.iter().any(|l| l.id == m.id && l.outcome == Outcome::Delivered) {
        write_line(ctx, m, event, ms_since(ctx, m.sent_ms), problems);
    }
}

/// The receipt's note, and team.log's words, for a hand-over the evidence settled.
pub const SETTLED: &str =
    "its hook was cut off between its answer and its record; its CLI's transcript shows the answer taken";

fn log(ctx: &Ctx, m: &Message, outcome: &str, detail: String) {
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
    match evidence::judge(&note, &m.id, &(by.rules)(), by.input) {
        Verdict::Taken => {
            let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
            let event = Event::from_word(&note.event).unwrap_or(Event::PostToolUse);
            let how = Recorded { event, session: note.session.clone(), found: None, settled: true };
            record(ctx, b, &mine, &m, &how, problems);
        }
        Verdict::NotTaken(why) => {
            let Ok(Some(mine)) = b.take_over(c, Claimer::me()) else { return };
            match b.unclaim(&mine) {
                Ok(()) => {
                    log(ctx, &m, "given back", format!("id {}: its hook was cut off after its answer; {why}", m.id))
                }
                Err(e) => problems.push(format!("{}: not taken, but could not be given back ({e})", m.id)),
            }
        }
        Verdict::Unknown(why) if !note.said => {
            // said where the message's checkout keeps its log, before the note says it was
            let detail = format!(
                "id {}: its hook was cut off after its answer may have left, and {why}; it is neither offered again nor said delivered until its CLI's transcript or later turn settles it",
                m.id
            );
            log(ctx, &m, "in doubt", detail);
            let _ = b.renote(c, &Answering { said: true, ..note });
        }
        Verdict::Unknown(_) => {}
    }
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
