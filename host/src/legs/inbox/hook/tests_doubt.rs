//! Claims in doubt (issue 29): a hook wrote its note, its answer may have left, and it died
//! before recording. The next hook settles each by the evidence — the CLI's transcript, its
//! later turn — and never by a guess.

use super::tests::{history_of, msg, queue, rev, world, Out, World};
use super::*;
use crate::history::ReceiptKind;
use crate::mailbox::store::Where;
use crate::mailbox::store::{Answering, Claimer, ANSWERING};
use std::io::Write;

const DEAD: Claimer = Claimer { pid: u32::MAX - 11, start: 5 };

fn rules() -> Vec<evidence::Rule> {
    evidence::Rule::from_features(&["hook-context=payload.type=message".to_string()])
}

/// A message of `rev` claimed by a hook that died after its note: its transcript `t` (its
/// size then is the note's offset), session `s-1`, turn `t-1`. The waiting send's token stands.
fn in_doubt(w: &World, t: &Path) -> (SeatBox, Message) {
    let m = msg(w, 1, "rev");
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    b.token(&m.id).make().unwrap();
    noted_by_the_dead(&b, &m, "stop", t);
    (b, m)
}

/// `m` queued in `b`, claimed by a hook that died after its note at `event` (session `s-1`,
/// turn `t-1`, transcript `t` from its size now).
fn noted_by_the_dead(b: &SeatBox, m: &Message, event: &str, t: &Path) {
    let k = b.queue(m).unwrap();
    let c = b.claim(&k, DEAD).unwrap().unwrap();
    let note = Answering {
        pid: DEAD.pid,
        start: DEAD.start,
        event: event.into(),
        at_ms: 0,
        session: Some("s-1".into()),
        turn: Some("t-1".into()),
        transcript: Some(t.to_path_buf()),
        offset: evidence::size_of(t),
        said: false,
        on_exit: false,
    };
    b.answering(&c, &note).unwrap();
}

/// What the CLI writes once its model was sent the text (Codex's shape).
fn row(m: &Message) -> String {
    let text = crate::mailbox::text::message_text(m);
    let v = serde_json::json!({"type": "response_item", "payload": {"type": "message", "role": "user",
        "content": [{"type": "input_text", "text": format!("<hook_prompt hook_run_id=\"stop:1:x\">{text}</hook_prompt>")}]}});
    format!("{v}\n")
}

fn input(turn: &str) -> HookInput {
    HookInput { session_id: Some("s-1".into()), turn: Some(turn.into()), ..Default::default() }
}

fn run(w: &World, b: &SeatBox, input: &HookInput) -> (Handed, Out) {
    let mut out = Out::default();
    let claimed = hand_as(&w.ctx, input, std::slice::from_ref(&b.dir), &rev(), Claimer::me(), &rules);
    (deliver(&w.ctx, Event::PostToolUse, input, claimed, &mut out), out)
}

#[test]
fn a_claim_in_doubt_is_recorded_once_the_transcript_shows_it_taken() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "{\"type\":\"session_meta\"}\n").unwrap();
    let (b, m) = in_doubt(&w, &t);
    std::fs::OpenOptions::new().append(true).open(&t).unwrap().write_all(row(&m).as_bytes()).unwrap();
    let (got, out) = run(&w, &b, &input("t-1"));
    assert!(got.messages.is_empty() && out.written.is_empty(), "not answered again: it was taken");
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
    let (_, receipts) = history_of(&w);
    assert_eq!(receipts.len(), 1);
    assert_eq!((receipts[0].receipt, receipts[0].event.as_deref()), (ReceiptKind::Handed, Some("stop")));
    assert_eq!(receipts[0].note.as_deref(), Some(SETTLED));
    // the waiting send says delivered now, by its CLI's transcript
    assert_eq!(b.token(&m.id).taken().as_deref(), Some("stop.transcript"));
    assert!(!b.dir.join(ANSWERING).read_dir().unwrap().any(|_| true), "the note is gone");
}

/// With no send waiting, the settler writes the `delivered` line: its `by` is the evidence it
/// rests on, the CLI's transcript — not a hook's receipt (`team feed`: `by transcript`).
#[test]
fn a_claim_settled_by_its_transcript_is_delivered_by_transcript() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "{\"type\":\"session_meta\"}\n").unwrap();
    let (b, m) = in_doubt(&w, &t);
    assert!(b.token(&m.id).end_wait(), "the send stopped waiting");
    std::fs::OpenOptions::new().append(true).open(&t).unwrap().write_all(row(&m).as_bytes()).unwrap();
    run(&w, &b, &input("t-1"));
    let (lines, _) = history_of(&w);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].by.as_ref().map(|d| d.word()), Some("transcript"), "{:?}", lines[0]);
}

#[test]
fn a_claim_in_doubt_is_handed_once_the_cli_moved_on_without_it() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, row(&msg(&w, 1, "rev"))).unwrap();
    // the row above was written before the answer began: it settles nothing
    let (b, m) = in_doubt(&w, &t);
    let (got, out) = run(&w, &b, &input("t-1"));
    assert!(got.messages.is_empty() && out.written.is_empty(), "same turn: left in doubt");
    let said =
        || std::fs::read_to_string(w.root.join(".agents/team.log")).unwrap_or_default().matches("in doubt").count();
    assert_eq!(said(), 1);
    assert_eq!(b.claims().unwrap().len(), 1);
    run(&w, &b, &input("t-1"));
    assert_eq!(said(), 1, "said once");
    // the CLI's next turn, and still no row: its answer was not taken — given back and handed
    // by this very hook
    let (got, out) = run(&w, &b, &input("t-2"));
    assert_eq!(got.messages.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), [m.id.as_str()]);
    assert!(String::from_utf8_lossy(&out.written).contains(&m.id));
    let (_, receipts) = history_of(&w);
    assert_eq!(receipts.len(), 1);
    assert_eq!(receipts[0].note, None);
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
    let log = std::fs::read_to_string(w.root.join(".agents/team.log")).unwrap();
    assert!(log.contains("its CLI has begun another turn of the same session"), "{log}");
}

/// A typed trigger's companion its CLI went on without is withdrawn, never handed again: the
/// trigger reached the model and points at the drop (a second hand-over would give the model
/// the message twice).
#[test]
fn a_typed_companion_the_cli_went_on_without_is_withdrawn_not_handed_again() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "").unwrap();
    let mut m = msg(&w, 1, "rev");
    m.typed = true;
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    noted_by_the_dead(&b, &m, "user-prompt-submit", &t);
    // the CLI's next turn, and no row: the companion's answer was not taken
    let (got, out) = run(&w, &b, &input("t-2"));
    assert!(got.messages.is_empty() && out.written.is_empty(), "not handed again: {:?}", got.messages);
    assert!(matches!(b.find(&m.id).unwrap(), Where::Withdrawn(_)), "{:?}", b.find(&m.id).unwrap());
    let log = std::fs::read_to_string(w.root.join(".agents/team.log")).unwrap();
    assert!(log.contains(deliver::COMPANION_GONE), "{log}");
    assert!(!b.dir.join(ANSWERING).read_dir().unwrap().any(|_| true), "the note is gone");
}

/// A claim whose claimer lives is never settled (it may be writing its answer now); one with
/// no note is offered again (its answer never began).
#[test]
fn only_a_dead_claimer_s_noted_claim_is_in_doubt() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "").unwrap();
    let m = msg(&w, 1, "rev");
    let b = queue(&w, &m);
    let k = b.waiting().unwrap().remove(0);
    let live = Claimer { pid: std::process::id(), start: crate::mux::procfs::start_time(std::process::id()).unwrap() };
    let c = b.claim(&k, live).unwrap().unwrap();
    let note = Answering {
        pid: live.pid,
        start: live.start,
        event: "stop".into(),
        at_ms: 0,
        session: Some("s-1".into()),
        turn: Some("t-1".into()),
        transcript: Some(t.clone()),
        offset: 0,
        said: false,
        on_exit: false,
    };
    b.answering(&c, &note).unwrap();
    let (got, _) = run(&w, &b, &input("t-9"));
    assert!(got.messages.is_empty() && got.problems.is_empty(), "{got:?}");
    assert_eq!(b.claims().unwrap(), vec![c]);
}

/// A hook that died after its receipt and before its `delivered` line: the next hook moves
/// the claim on (it was handed) and writes the line the dead hook did not.
#[test]
fn a_hook_dead_after_its_receipt_gets_its_line_written_by_the_next() {
    let w = world();
    let m = msg(&w, 1, "rev");
    let b = queue(&w, &m);
    let k = b.waiting().unwrap().remove(0);
    b.claim(&k, DEAD).unwrap().unwrap();
    let r = crate::history::Receipt {
        sign: Some(crate::history::Sign::Hook),
        ms: Some(1),
        event: Some("stop".into()),
        ..crate::history::Receipt::new(ReceiptKind::Handed, w.ctx.clock.now_ts(), &m.id, &m.seat)
    };
    crate::history::append_receipt_durably(&w.ctx.paths.config, "beacon", &w.root, &r).unwrap();
    let (got, out) = run(&w, &b, &input("t-1"));
    assert!(got.messages.is_empty() && out.written.is_empty(), "not handed again");
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
    let (lines, receipts) = history_of(&w);
    assert_eq!(receipts.len(), 1);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].note, Some(crate::vocab::outcome::Note::HandedBy("Stop".into())));
    // and once only
    run(&w, &b, &input("t-1"));
    assert_eq!(history_of(&w).0.len(), 1);
}

/// The claim a hook of a CLI that takes answers on exit (Codex) leaves: its note says so, no
/// receipt, its hook gone (`token`: a send still waits).
fn answered_on_exit(w: &World, t: &Path, token: bool) -> (SeatBox, Message) {
    let m = msg(w, 1, "rev");
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    if token {
        b.token(&m.id).make().unwrap();
    }
    let k = b.queue(&m).unwrap();
    let c = b.claim(&k, DEAD).unwrap().unwrap();
    let note = Answering {
        pid: DEAD.pid,
        start: DEAD.start,
        event: "post-tool-use".into(),
        at_ms: crate::mailbox::store::wall_ms(),
        session: Some("s-1".into()),
        turn: Some("t-1".into()),
        transcript: Some(t.to_path_buf()),
        offset: evidence::size_of(t),
        said: false,
        on_exit: true,
    };
    b.answering(&c, &note).unwrap();
    (b, m)
}

fn rec(w: &World) -> Rec<'_> {
    Rec::of(&w.ctx)
}

/// The waiting send confirms a Codex hand-over by its transcript: in doubt (nothing recorded)
/// until the row holding the message's mark is there, then recorded once — the receipt saying
/// how, the send's token taken — and never again.
#[test]
fn a_waiting_send_confirms_an_on_exit_hand_over_only_by_its_transcript() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "{\"type\":\"session_meta\"}\n").unwrap();
    let (b, m) = answered_on_exit(&w, &t, true);
    let mut problems = Vec::new();
    assert_eq!(confirm(&rec(&w), &b, &m.id, &rules(), &mut problems), Confirmed::InDoubt);
    assert!(history_of(&w).1.is_empty() && b.token(&m.id).taken().is_none(), "nothing said before the evidence");
    assert!(matches!(b.find(&m.id).unwrap(), Where::Claimed(_)));
    std::fs::OpenOptions::new().append(true).open(&t).unwrap().write_all(row(&m).as_bytes()).unwrap();
    assert_eq!(confirm(&rec(&w), &b, &m.id, &rules(), &mut problems), Confirmed::Taken);
    let (lines, receipts) = history_of(&w);
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert_eq!(receipts[0].note.as_deref(), Some(CONFIRMED));
    assert!(lines.is_empty(), "the waiting send writes the line");
    assert_eq!(b.token(&m.id).taken().as_deref(), Some("post-tool-use.transcript"));
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
    assert_eq!(confirm(&rec(&w), &b, &m.id, &rules(), &mut problems), Confirmed::Nothing, "once");
    assert!(problems.is_empty(), "{problems:?}");
}

/// A claim of a CLI that takes the answer of a killed hook (no `on_exit`: Claude Code) is the
/// hooks' and the watch's alone: the send's confirmation leaves it.
#[test]
fn a_waiting_send_leaves_a_claim_whose_cli_takes_a_killed_hook_s_answer() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "").unwrap();
    let (b, m) = in_doubt(&w, &t);
    std::fs::OpenOptions::new().append(true).open(&t).unwrap().write_all(row(&m).as_bytes()).unwrap();
    assert_eq!(confirm(&rec(&w), &b, &m.id, &rules(), &mut Vec::new()), Confirmed::Nothing);
    assert!(history_of(&w).1.is_empty());
}

/// An agent's send (no token: it said `queued`) to Codex: the hook that answered recorded
/// nothing; the next hook finds the row and records it — the receipt and the `delivered` line.
/// Within the moment Codex takes to write the row, a hook says nothing of doubt.
#[test]
fn the_next_hook_records_an_on_exit_hand_over_with_its_line() {
    let w = world();
    let t = w.root.join("t.jsonl");
    std::fs::write(&t, "").unwrap();
    let (b, m) = answered_on_exit(&w, &t, false);
    let (got, _) = run(&w, &b, &input("t-1"));
    assert!(got.messages.is_empty(), "not answered again");
    assert!(!std::fs::read_to_string(w.root.join(".agents/team.log")).unwrap_or_default().contains("in doubt"));
    assert!(history_of(&w).1.is_empty());
    std::fs::OpenOptions::new().append(true).open(&t).unwrap().write_all(row(&m).as_bytes()).unwrap();
    let (got, _) = run(&w, &b, &input("t-1"));
    assert!(got.messages.is_empty());
    let (lines, receipts) = history_of(&w);
    assert_eq!((receipts.len(), receipts[0].note.as_deref()), (1, Some(CONFIRMED)));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].outcome, crate::vocab::outcome::Outcome::Delivered);
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
}
