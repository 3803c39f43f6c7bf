use super::*;
use crate::history::{MessageLine, Receipt};
use crate::mailbox::store::{Pin, Where};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::Outcome;

pub(super) struct World {
    _d: tempfile::TempDir,
    pub(super) ctx: Ctx,
    pub(super) root: PathBuf,
}

pub(super) fn world() -> World {
    let d = tempfile::tempdir().unwrap();
    let ctx = Ctx::under(d.path());
    let root = d.path().join("repo");
    std::fs::create_dir_all(root.join(".agents")).unwrap();
    World { _d: d, ctx, root }
}

pub(super) fn msg(w: &World, n: usize, seat: &str) -> Message {
    let id = format!("00000000-0000-4000-8000-{n:012x}");
    Message {
        drop: w.root.join(format!(".agents/send-drops/beacon/{seat}/{id}")),
        id,
        from: "keeper".into(),
        team: "beacon".into(),
        session: "beacon".into(),
        seat: seat.into(),
        project: "beacon".into(),
        root: w.root.clone(),
        rule: "its lead".into(),
        header: "[from keeper]".into(),
        body: format!("body {n}"),
        bytes: 6,
        queued_at: String::new(),
        sent_ms: 0,
        typed: false,
        pin: None,
        reply_to: None,
        hooks: None,
    }
}

pub(super) fn rev() -> SeatOf {
    SeatOf { team: "beacon".into(), seat: "rev".into(), pane: "%1".into(), found: Found::Multiplexer }
}

/// A stdout as the hook writes its answer: a buffer, or one that fails.
#[derive(Default)]
pub(super) struct Out {
    pub(super) written: Vec<u8>,
    unreachable: Option<String>,
    fails: bool,
}

impl AnswerOut for Out {
    fn unreachable(&mut self) -> Option<String> {
        self.unreachable.clone()
    }
    fn write_whole(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if self.fails {
            return Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        }
        self.written.extend_from_slice(bytes);
        Ok(())
    }
}

fn no_rules() -> Vec<evidence::Rule> {
    Vec::new()
}

/// One hook run for `who` whose answer goes to `out`: claims, then the hand-over.
fn run_hook(w: &World, event: Event, input: &HookInput, dirs: &[PathBuf], who: &SeatOf, out: &mut Out) -> Handed {
    let claimed = hand_as(&w.ctx, input, dirs, who, Claimer::me(), &no_rules);
    deliver(&w.ctx, event, input, claimed, out)
}

fn hook(w: &World, event: Event, input: &HookInput, dirs: &[PathBuf]) -> Handed {
    run_hook(w, event, input, dirs, &rev(), &mut Out::default())
}

pub(super) fn queue(w: &World, m: &Message) -> SeatBox {
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", &m.seat).unwrap();
    b.queue(m).unwrap();
    b
}

pub(super) fn history_of(w: &World) -> (Vec<MessageLine>, Vec<Receipt>) {
    let dir = crate::history::project_dir(&w.ctx.paths.config, "beacon", &w.root);
    let lines = crate::history::read_messages(&w.ctx.paths.config, &dir).unwrap_or_default();
    let receipts = crate::history::read_receipts(&w.ctx.paths.config, &dir).map(|r| r.0).unwrap_or_default();
    (lines, receipts)
}

#[test]
fn event_words_round_trip() {
    for e in Event::ALL {
        assert_eq!(Event::from_word(e.word()), Some(e));
        assert_eq!(Event::from_vendor(e.vendor()), Some(e));
    }
    assert_eq!(Event::PostToolUse.word(), "post-tool-use");
    assert_eq!(note(Event::Stop, None).to_string(), "handed by its Stop hook");
}

/// The event is named as the receiving CLI names it: Gemini CLI's hooks are `AfterTool`,
/// `AfterAgent`, `BeforeAgent` (what `team hooks install` writes in its settings), Claude's
/// names elsewhere (Codex and Qwen Code share them).
#[test]
fn the_note_names_the_event_as_the_receiving_cli_does() {
    let said = |e, f| note(e, f).to_string();
    assert_eq!(said(Event::PostToolUse, Some(HookFormat::GeminiSettings)), "handed by its AfterTool hook");
    assert_eq!(said(Event::Stop, Some(HookFormat::GeminiSettings)), "handed by its AfterAgent hook");
    assert_eq!(said(Event::UserPromptSubmit, Some(HookFormat::GeminiSettings)), "handed by its BeforeAgent hook");
    let copilot = Some(HookFormat::CopilotSettings);
    assert_eq!(said(Event::PostToolUse, copilot), "handed by its postToolUse hook");
    assert_eq!(said(Event::Stop, copilot), "handed by its agentStop hook");
    assert_eq!(said(Event::UserPromptSubmit, copilot), "handed by its userPromptSubmitted hook");
    for f in [None, Some(HookFormat::ClaudeSettings), Some(HookFormat::CodexHooksJson), Some(HookFormat::QwenSettings)]
    {
        assert_eq!(said(Event::PostToolUse, f), "handed by its PostToolUse hook", "{f:?}");
    }
    // the words `team hooks install` writes are the same names; a queued message keeps the
    // format under its word
    for &f in HookFormat::ALL {
        assert_eq!(serde_json::to_value(f).unwrap(), f.word());
        assert_eq!(serde_json::from_value::<HookFormat>(f.word().into()).unwrap(), f);
        for e in crate::hooks::EVENTS {
            assert_eq!(crate::hooks::event_name(f, e), e.named_in(Some(f)));
        }
    }
}

/// A message queued for a Gemini CLI seat: the line its hook writes says Gemini's event.
#[test]
fn a_gemini_seat_s_delivered_line_names_its_aftertool_hook() {
    let w = world();
    let m = Message { hooks: Some(HookFormat::GeminiSettings), ..msg(&w, 1, "rev") };
    let b = queue(&w, &m);
    let input = HookInput { session_id: Some("s-1".into()), ..Default::default() };
    let mut out = Out::default();
    let got = run_hook(&w, Event::PostToolUse, &input, std::slice::from_ref(&b.dir), &rev(), &mut out);
    assert!(got.problems.is_empty(), "{:?}", got.problems);
    assert_eq!(got.messages.len(), 1);
    let (lines, receipts) = history_of(&w);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].note, Some(Note::HandedBy("AfterTool".into())));
    // the receipt keeps team's own word (it is read back by team, not shown)
    assert_eq!(receipts[0].event.as_deref(), Some("post-tool-use"));
}

#[test]
fn input_keeps_only_a_plain_session_word() {
    let i = HookInput::parse(br#"{"session_id":"abc-123","hook_event_name":"PostToolUse","tool_response":{"x":1}}"#);
    assert_eq!(i.session_id.as_deref(), Some("abc-123"));
    assert_eq!(i.event_name.as_deref(), Some("PostToolUse"));
    assert_eq!(HookInput::parse(br#"{"session_id":"a\nb"}"#).session_id, None);
    assert_eq!(HookInput::parse(b"not json"), HookInput::default());
    // the turn: Codex's turn_id first, else Claude Code's prompt_id; the transcript absolute
    let i = HookInput::parse(br#"{"prompt_id":"p-1","transcript_path":"/h/t.jsonl"}"#);
    assert_eq!((i.turn.as_deref(), i.transcript.as_deref()), (Some("p-1"), Some(Path::new("/h/t.jsonl"))));
    let i = HookInput::parse(br#"{"turn_id":"t-1","prompt_id":"p-1","transcript_path":"t.jsonl"}"#);
    assert_eq!((i.turn.as_deref(), i.transcript), (Some("t-1"), None));
}

#[test]
fn hands_its_own_messages_in_order_once_with_receipts_and_lines() {
    let w = world();
    let b = queue(&w, &msg(&w, 1, "rev"));
    queue(&w, &msg(&w, 2, "rev"));
    let other = queue(&w, &msg(&w, 3, "keeper"));
    let dirs = vec![b.dir.clone(), other.dir.clone()];
    let input = HookInput { session_id: Some("s-1".into()), ..Default::default() };
    let mut out = Out::default();
    let got = run_hook(&w, Event::PostToolUse, &input, &dirs, &rev(), &mut out);
    assert!(got.problems.is_empty(), "{:?}", got.problems);
    let ids: Vec<&str> = got.messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, [msg(&w, 1, "rev").id, msg(&w, 2, "rev").id]);
    // the answer: one JSON line, both messages in order
    let answer: serde_json::Value = serde_json::from_slice(&out.written).unwrap();
    let text = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(text.find("body 1").unwrap() < text.find("body 2").unwrap(), "{text}");
    assert!(out.written.ends_with(b"}\n"));
    let again = hook(&w, Event::Stop, &input, &dirs);
    assert!(again.messages.is_empty(), "never twice");
    assert_eq!(other.waiting().unwrap().len(), 1, "another seat's message is left alone");
    let (lines, receipts) = history_of(&w);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.outcome == Outcome::Delivered
        && l.went_by(Leg::McpInbox)
        && l.note == Some(Note::HandedBy("PostToolUse".into()))));
    assert_eq!(receipts.len(), 2);
    assert_eq!(receipts[0].receipt, ReceiptKind::Handed);
    assert_eq!((receipts[0].event.as_deref(), receipts[0].session.as_deref()), (Some("post-tool-use"), Some("s-1")));
    assert!(matches!(b.find(&msg(&w, 1, "rev").id).unwrap(), Where::Handed(_)));
}

#[test]
fn a_waiting_send_writes_the_line_and_a_typed_companion_gets_a_receipt_only() {
    let w = world();
    let m1 = msg(&w, 1, "rev");
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    b.token(&m1.id).make().unwrap();
    b.queue(&m1).unwrap();
    b.queue(&Message { typed: true, ..msg(&w, 2, "rev") }).unwrap();
    let got = hook(&w, Event::UserPromptSubmit, &HookInput::default(), std::slice::from_ref(&b.dir));
    assert_eq!(got.messages.len(), 2);
    assert_eq!(b.token(&m1.id).taken().as_deref(), Some("user-prompt-submit"), "the waiting send is told");
    let (lines, receipts) = history_of(&w);
    assert!(lines.is_empty(), "neither writes a line: the send and the typed leg do");
    assert_eq!(receipts.len(), 2);
}

/// The receipt comes after the answer: one that cannot be written no longer gives the message
/// back (its answer left: offering it again would hand it twice). The send is told nothing
/// (no receipt, no `delivered`), and the message is not offered again.
#[test]
fn a_receipt_that_cannot_be_written_after_the_answer_left_is_said_and_nothing_is_offered_again() {
    let w = world();
    let m = msg(&w, 1, "rev");
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    b.token(&m.id).make().unwrap();
    b.queue(&m).unwrap();
    let dir = crate::history::project_dir(&w.ctx.paths.config, "beacon", &w.root);
    std::os::unix::fs::symlink("/nonexistent", dir.join(crate::history::RECEIPTS)).unwrap();
    let mut out = Out::default();
    let got = run_hook(&w, Event::PostToolUse, &HookInput::default(), std::slice::from_ref(&b.dir), &rev(), &mut out);
    assert_eq!(got.messages.len(), 1, "it was handed: the answer left");
    assert!(!out.written.is_empty());
    assert!(got.problems[0].contains("not said delivered"), "{:?}", got.problems);
    assert_eq!(b.token(&m.id).taken(), None, "the waiting send is not told delivered");
    assert!(b.waiting().unwrap().is_empty() && b.claims().unwrap().is_empty(), "not offered again");
    assert!(matches!(b.find(&m.id).unwrap(), Where::Handed(_)));
}

/// issue 29: an answer that cannot be written whole gives every claim back: waiting again,
/// no receipt, no line, the waiting send told nothing; the next hook that can answer hands it.
#[test]
fn an_answer_that_cannot_be_written_gives_every_claim_back() {
    let w = world();
    let (m1, m2) = (msg(&w, 1, "rev"), msg(&w, 2, "rev"));
    let b = crate::mailbox::seat_box(&w.ctx.paths.config, "beacon", &w.root, "beacon", "rev").unwrap();
    b.token(&m1.id).make().unwrap();
    b.queue(&m1).unwrap();
    b.queue(&m2).unwrap();
    let dirs = [b.dir.clone()];
    for mut out in [
        Out { fails: true, ..Out::default() },
        Out { unreachable: Some("its stdout is /dev/full".into()), ..Out::default() },
    ] {
        let got = run_hook(&w, Event::PostToolUse, &HookInput::default(), &dirs, &rev(), &mut out);
        assert!(got.messages.is_empty(), "nothing handed");
        assert!(got.problems.iter().any(|p| p.contains("given back")), "{:?}", got.problems);
        assert!(out.written.is_empty());
        assert_eq!(b.waiting().unwrap().len(), 2, "both wait again");
        assert!(b.claims().unwrap().is_empty());
        assert!(!b.dir.join(crate::mailbox::store::ANSWERING).read_dir().unwrap().any(|_| true), "no note left");
        assert_eq!(b.token(&m1.id).taken(), None, "the send is told nothing");
        assert_eq!(history_of(&w), (vec![], vec![]), "no receipt, no line");
    }
    let got = hook(&w, Event::PostToolUse, &HookInput::default(), &dirs);
    assert_eq!(got.messages.len(), 2, "the next hook hands them");
    assert_eq!(history_of(&w).1.len(), 2);
}

#[test]
fn a_dead_hook_s_claim_is_handed_by_the_next_hook() {
    let w = world();
    let b = queue(&w, &msg(&w, 1, "rev"));
    let k = b.waiting().unwrap().remove(0);
    b.claim(&k, Claimer { pid: u32::MAX - 3, start: 9 }).unwrap().unwrap();
    assert!(!waiting_dirs(&w.ctx.paths.config, "tmux-1").contains(&b.dir), "no bell rung");
    crate::mailbox::bell::ring(
        &w.ctx.paths.config,
        "tmux-1",
        &bell::line(&crate::history::project_dir_name("beacon", &w.root), "beacon", "rev"),
    )
    .unwrap();
    assert_eq!(waiting_dirs(&w.ctx.paths.config, "tmux-1"), vec![b.dir.clone()], "a claim alone wakes the hook");
    let got = hook(&w, Event::PostToolUse, &HookInput::default(), std::slice::from_ref(&b.dir));
    assert_eq!(got.messages.len(), 1, "its answer never began to leave (no note): offered again");
    assert!(waiting_dirs(&w.ctx.paths.config, "tmux-1").is_empty(), "the fast path finds nothing now");
}

fn ancestor(pid: u32) -> Ancestor {
    Ancestor { pid, ppid: 0, comm: String::new(), argv: Vec::new() }
}

/// The pane a send found vouches for a hook only while the send is fresh, only through that
/// very shell (pid and start time) among the hook's ancestors, never through the hook itself.
#[test]
fn a_fresh_message_s_pinned_shell_among_the_ancestors_places_the_hook_in_its_pane() {
    let w = world();
    let now = 1_800_000_000_000_i64;
    let mut m = msg(&w, 1, "rev");
    m.pin = Some(Pin { pane: "%7".into(), shell_pid: 4242, shell_start: 77, at_ms: now - 3_000 });
    let b = queue(&w, &m);
    let dirs = [b.dir.clone()];
    let me = ancestor(std::process::id());
    let tree = [me.clone(), ancestor(4300), ancestor(4242), ancestor(1)];
    let start = |pid| (pid == 4242).then_some(77);
    let got = pinned(&dirs, &tree, now, start).expect("the pinned shell is an ancestor");
    assert_eq!(
        got,
        SeatOf {
            team: "beacon".into(),
            seat: "rev".into(),
            pane: "%7".into(),
            found: Found::Pinned(vec![m.id.clone()])
        }
    );
    // another process with that pid (another start time): not the pane's shell
    assert_eq!(pinned(&dirs, &tree, now, |pid| (pid == 4242).then_some(78)), None);
    // the shell gone
    assert_eq!(pinned(&dirs, &tree, now, |_| None), None);
    // the shell not among the ancestors (a process elsewhere naming the pane)
    assert_eq!(pinned(&dirs, &[me.clone(), ancestor(4300), ancestor(1)], now, start), None);
    // the hook itself is no ancestor of itself
    assert_eq!(pinned(&dirs, &[ancestor(4242), ancestor(1)], now, start), None);
    // a send older than the window: the multiplexer is asked
    assert_eq!(pinned(&dirs, &tree, now + PIN_FRESH.as_millis() as i64, start), None);
    assert!(pinned(&dirs, &tree, now + PIN_FRESH.as_millis() as i64 - 3_000, start).is_some());
}

#[test]
fn a_message_with_no_pin_vouches_for_no_one() {
    let w = world();
    let m = msg(&w, 1, "rev");
    let b = queue(&w, &m);
    let tree = [ancestor(std::process::id()), ancestor(4242)];
    assert_eq!(pinned(std::slice::from_ref(&b.dir), &tree, 0, |_| Some(77)), None);
    // and a message of an older build (no `pin` field) still reads
    let old = serde_json::json!({
        "id": m.id, "from": "keeper", "team": "beacon", "session": "beacon", "seat": "rev",
        "project": "beacon", "root": "/r", "rule": "its lead", "header": "", "drop": "/r/x",
        "body": "b", "bytes": 1, "queued_at": "", "sent_ms": 0
    });
    let back: Message = serde_json::from_value(old).unwrap();
    assert_eq!(back.pin, None);
}

/// A message file is input: one whose pin names the hook's own shell places the hook for that
/// message only. A real message of the seat pinned to another pane's shell, or queued with no
/// pin, leaves the placing to the multiplexer; and a message queued after the pinned look is
/// never claimed on the pin's word.
#[test]
fn a_pin_places_the_hook_for_its_own_messages_only() {
    let w = world();
    let now = 1_800_000_000_000_i64;
    let mine = |n: usize, shell: u32| {
        let mut m = msg(&w, n, "rev");
        m.pin = Some(Pin { pane: "%7".into(), shell_pid: shell, shell_start: 77, at_ms: now });
        m
    };
    let tree = [ancestor(std::process::id()), ancestor(4242), ancestor(1)];
    let start = |_| Some(77);
    // a forged message pinned to this hook's shell beside the seat's real one (pinned to the
    // seat's own pane's shell, not among this hook's ancestors): the multiplexer decides
    let b = queue(&w, &mine(1, 4242));
    queue(&w, &mine(2, 5555));
    let dirs = [b.dir.clone()];
    assert_eq!(pinned(&dirs, &tree, now, start), None);
    // … and beside a message with no pin (an older build's): the same
    let w2 = world();
    let mut forged = msg(&w2, 1, "rev");
    forged.pin = Some(Pin { pane: "%7".into(), shell_pid: 4242, shell_start: 77, at_ms: now });
    let b2 = queue(&w2, &forged);
    queue(&w2, &msg(&w2, 2, "rev"));
    assert_eq!(pinned(std::slice::from_ref(&b2.dir), &tree, now, start), None);
    // two pinned messages of one seat: placed for both
    let w3 = world();
    let mut a = msg(&w3, 1, "rev");
    a.pin = Some(Pin { pane: "%7".into(), shell_pid: 4242, shell_start: 77, at_ms: now });
    let mut c = msg(&w3, 2, "rev");
    c.pin = a.pin.clone();
    let b3 = queue(&w3, &a);
    queue(&w3, &c);
    let who = pinned(std::slice::from_ref(&b3.dir), &tree, now, start).expect("both pinned here");
    assert_eq!(who.found, Found::Pinned(vec![a.id.clone(), c.id.clone()]));
    // a message queued after the look: not claimed on the pin's word, still waiting
    let late = msg(&w3, 3, "rev");
    queue(&w3, &late);
    let got = run_hook(
        &w3,
        Event::PostToolUse,
        &HookInput::default(),
        std::slice::from_ref(&b3.dir),
        &who,
        &mut Out::default(),
    );
    let ids: Vec<&str> = got.messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, [a.id.as_str(), c.id.as_str()]);
    assert_eq!(b3.waiting().unwrap().len(), 1, "the late message waits for the next hook");
}

#[test]
fn answers_in_the_cli_s_shapes() {
    use serde_json::json;
    for f in [None, Some(HookFormat::ClaudeSettings), Some(HookFormat::GeminiSettings)] {
        assert_eq!(
            answer(Event::PostToolUse, f, "hi"),
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "hi"}})
        );
        assert_eq!(answer(Event::Stop, f, "hi"), json!({"decision": "block", "reason": "hi"}));
        assert_eq!(answer(Event::UserPromptSubmit, f, "x")["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    }
    // GitHub Copilot CLI 1.0.102 reads a bare additionalContext (measured: a hookSpecificOutput
    // answer reached its model neither after a tool nor at a prompt), and blocks a stop as Claude
    let copilot = Some(HookFormat::CopilotSettings);
    assert_eq!(answer(Event::PostToolUse, copilot, "hi"), json!({"additionalContext": "hi"}));
    assert_eq!(answer(Event::UserPromptSubmit, copilot, "hi"), json!({"additionalContext": "hi"}));
    assert_eq!(answer(Event::Stop, copilot, "hi"), json!({"decision": "block", "reason": "hi"}));
}

/// What GitHub Copilot CLI 1.0.102 sent its hooks, captured live (`real_cli`, the hooks in
/// `.github/copilot/settings.local.json`): camelCase, the session at every event, the
/// transcript at `agentStop` only, no event name and no turn.
#[test]
fn copilot_s_real_hook_inputs_name_its_session_and_at_its_stop_the_transcript() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/transcripts/copilot-1.0.102/hook-inputs.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let rows: Vec<(serde_json::Value, HookInput)> =
        text.lines().map(|l| (serde_json::from_str(l).unwrap(), HookInput::parse(l.as_bytes()))).collect();
    assert_eq!(rows.len(), 6);
    for (raw, i) in &rows {
        assert_eq!(i.session_id.as_deref(), raw["sessionId"].as_str(), "{raw}");
        assert!(i.session_id.is_some() && i.turn.is_none() && i.event_name.is_none(), "{raw}: {i:?}");
        let stop = raw.get("stopReason").is_some();
        assert_eq!(i.transcript.is_some(), stop, "{raw}: {i:?}");
        if stop {
            assert!(i.transcript.as_ref().unwrap().ends_with("events.jsonl"), "{i:?}");
        }
    }
}

/// issue 29 item 4: a pane's bell names the seat folders of two projects (the pane held a seat
/// of one, then of the other), and the first project's checkout has since been deleted. Its
/// folder is passed over — no team file is loaded from a folder that is no checkout, nothing is
/// written under it — and the other project's message is handed to its seat, the problems of
/// the hook logged in that project's own team.log.
#[test]
fn a_bell_naming_a_deleted_checkout_s_folder_first_still_hands_the_other_project_s_message() {
    let w = world();
    let team = |project: &str| {
        format!("format: 1\nproject: {project}\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: rev\n    role: worker\n    cli: codex\n")
    };
    let gone = w.root.parent().unwrap().join("gone");
    for (root, project) in [(&gone, "alpha"), (&w.root, "beacon")] {
        std::fs::create_dir_all(root.join(".agents")).unwrap();
        std::fs::write(root.join(".git"), "gitdir: /nowhere\n").unwrap();
        std::fs::write(root.join(".agents/team.yaml"), team(project)).unwrap();
    }
    // both sends found this process's parent holding the seat: the pin places the hook
    let parent = std::os::unix::process::parent_id();
    let pin = Pin {
        pane: "%1".into(),
        shell_pid: parent,
        shell_start: crate::mux::procfs::start_time(parent).unwrap(),
        at_ms: crate::mailbox::store::wall_ms(),
    };
    let config = &w.ctx.paths.config;
    let mut queued = Vec::new();
    for (n, root, project) in [(1, &gone, "alpha"), (2, &w.root, "beacon")] {
        let mut m = msg(&w, n, "rev");
        m.team = project.into();
        m.project = project.into();
        m.root = root.clone();
        m.drop = root.join(format!(".agents/send-drops/beacon/rev/{}", m.id));
        m.pin = Some(pin.clone());
        let b = crate::mailbox::seat_box(config, project, root, "beacon", "rev").unwrap();
        b.queue(&m).unwrap();
        bell::ring(config, "tmux-1", &bell::line(&crate::history::project_dir_name(project, root), "beacon", "rev"))
            .unwrap();
        queued.push((b, m));
    }
    std::fs::remove_dir_all(&gone).unwrap();
    let dirs = waiting_dirs(config, "tmux-1");
    assert_eq!(dirs, vec![queued[0].0.dir.clone(), queued[1].0.dir.clone()], "the deleted checkout's folder first");
    // (where the hook logs its problems is found before it moves anything, as `respond` does)
    let root = log_root(&dirs);
    let claimed = match hand(&w.ctx, &HookInput::default(), &dirs) {
        Ok(c) => c,
        Err(e) => panic!("the hook handed nothing: {e}"),
    };
    let ids: Vec<&str> = claimed.items.iter().map(|i| i.m.id.as_str()).collect();
    assert_eq!(ids, vec![queued[1].1.id.as_str()], "the live project's message, to its seat");
    let mut out = Out::default();
    let handed = deliver(&w.ctx, Event::PostToolUse, &HookInput::default(), claimed, &mut out);
    assert_eq!(handed.messages.len(), 1);
    assert!(String::from_utf8_lossy(&out.written).contains("body 2"));
    assert!(log_problem(&w.ctx, root.as_deref(), "a problem"), "logged in the live project's team.log");
    assert!(w.root.join(".agents/team.log").is_file());
    assert!(!gone.exists(), "nothing was written under the deleted checkout");
    // the deleted project's message still waits, unclaimed, in its own folder
    assert_eq!(queued[0].0.waiting().unwrap().len(), 1);
}
