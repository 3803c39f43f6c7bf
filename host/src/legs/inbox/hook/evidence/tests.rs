//! The evidence against what the real CLIs wrote: `tests/data/transcripts/<cli>/hook-context.jsonl`
//! holds every row of Claude Code 2.1.332's and Codex 0.171.0's transcripts that names one of
//! six answers in team's words, each handed by a hook of the real CLI
//! (`real_cli::handover` measures it again): ids `…01` and `…02` by UserPromptSubmit hooks,
//! `…03` and `…04` by PostToolUse hooks, `…05` and `…06` by Stop hooks (a block); each odd
//! one by a hook that wrote its answer and was then killed (SIGKILL), each even one by a hook
//! that ended well. Claude Code gave its model all six, Codex only the even three — and each
//! transcript shows exactly what its model got.

use super::*;
use crate::mailbox::store::Answering;
use crate::profiles::ProfileHost;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/transcripts").join(rel)
}

fn id(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// The rules the bundled profile of `cli` names.
fn rules_of(cli: &str) -> Vec<Rule> {
    Rule::from_features(&features_of(cli))
}

/// The features of the bundled profile of `cli`.
fn features_of(cli: &str) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    let host = ProfileHost::with_dirs(d.path().join("config"), d.path().join("cache"));
    let p = host.load(cli, &Default::default()).unwrap_or_else(|e| panic!("{}", e.message()));
    p.describe().features.clone()
}

/// GitHub Copilot CLI 1.0.102 names its transcript only in `agentStop`'s input; its profile
/// places it from the session every input names and the CLI's HOME — exactly the path
/// `agentStop` named (the real inputs: the seat's HOME is `<world>/seats/pilot`), and it takes
/// answers only on exit. A profile with no pattern places nothing; a session id that is not a
/// word cannot be placed.
#[test]
fn copilot_s_transcript_is_placed_from_its_session_as_agent_stop_names_it() {
    let features = features_of("copilot");
    assert!(on_exit(&features));
    let text = std::fs::read_to_string(fixture("copilot-1.0.102/hook-inputs.jsonl")).unwrap();
    let inputs: Vec<HookInput> = text.lines().map(|l| HookInput::parse(l.as_bytes())).collect();
    let named: Vec<&HookInput> = inputs.iter().filter(|i| i.transcript.is_some()).collect();
    assert!(!named.is_empty() && named.len() < inputs.len(), "only agentStop's input names it");
    for i in named {
        let t = i.transcript.as_ref().unwrap();
        let home = t.ancestors().find(|a| a.ends_with("seats/pilot")).expect("the seat's HOME");
        assert_eq!(transcript_of(&features, i.session_id.as_deref().unwrap(), home).as_ref(), Some(t));
    }
    assert!(inputs.iter().all(|i| i.session_id.is_some()), "every input names the session");
    assert_eq!(transcript_of(&features_of("codex"), "s-1", Path::new("/home/u")), None);
    assert_eq!(transcript_of(&features, "..", Path::new("/home/u")), None);
    assert_eq!(transcript_of(&features, "s-1", Path::new("relative")), None);
}

fn note(transcript: Option<PathBuf>, offset: u64, turn: &str) -> Answering {
    Answering {
        pid: 1,
        start: 1,
        event: "post-tool-use".into(),
        at_ms: 0,
        session: Some("s-1".into()),
        turn: Some(turn.into()),
        transcript,
        offset,
        said: false,
        on_exit: false,
    }
}

fn input(session: &str, turn: &str) -> HookInput {
    HookInput { session_id: Some(session.into()), turn: Some(turn.into()), ..Default::default() }
}

#[test]
fn the_transcripts_show_exactly_what_each_model_was_sent() {
    for (cli, dir, taken) in [
        ("claude-code", "claude-code-2.1.332", vec![1, 2, 3, 4, 5, 6]),
        ("codex", "codex-0.171.0", vec![2, 4, 6]),
        ("copilot", "copilot-1.0.102", vec![2, 4, 6]),
    ] {
        let rules = rules_of(cli);
        assert!(!rules.is_empty(), "{cli} names its rows");
        let n = note(Some(fixture(&format!("{dir}/hook-context.jsonl"))), 0, "t-1");
        let got: Vec<u32> = (1..=6).filter(|k| judge(&n, &id(*k), &rules, None) == Verdict::Taken).collect();
        assert_eq!(got, taken, "{cli}");
    }
}

/// A row that echoes a hook's stdout is no evidence the model got it: Claude Code's
/// `hook_success` row of the killed hook of `…03` alone (its stdout, exit 137) shows nothing.
#[test]
fn an_echo_of_a_hook_s_stdout_is_no_evidence() {
    let text = std::fs::read_to_string(fixture("claude-code-2.1.332/hook-context.jsonl")).unwrap();
    let echo = text.lines().find(|l| l.contains("\"hook_success\"") && l.contains(&id(3))).expect("the echo row");
    assert!(echo.contains("\"exitCode\":137"), "{echo}");
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.jsonl");
    std::fs::write(&t, format!("{echo}\n")).unwrap();
    let rules = rules_of("claude-code");
    assert!(matches!(judge(&note(Some(t), 0, "t-1"), &id(3), &rules, None), Verdict::Unknown(_)));
}

/// Only what was written after the answer began counts, and the absence of a row settles
/// nothing until the CLI has gone past the hook: a later turn, or another session.
#[test]
fn nothing_shown_is_not_taken_only_once_the_cli_moved_on() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.jsonl");
    let row = serde_json::json!({"type": "response_item", "payload": {"type": "message", "role": "developer",
        "content": [{"type": "input_text", "text": format!("A message for you from owner (admitted by the owner; id {}) — read it", id(7))}]}});
    std::fs::write(&t, format!("{row}\n")).unwrap();
    let rules = Rule::from_features(&["hook-context=payload.type=message".to_string()]);
    // the row was there before the answer began: it says nothing of this answer
    let size = size_of(&t);
    let n = note(Some(t.clone()), size, "t-1");
    assert!(matches!(judge(&n, &id(7), &rules, Some(&input("s-1", "t-1"))), Verdict::Unknown(_)), "same turn");
    assert!(matches!(judge(&n, &id(7), &rules, Some(&input("s-1", "t-2"))), Verdict::NotTaken(_)), "later turn");
    assert!(matches!(judge(&n, &id(7), &rules, Some(&input("s-2", "t-9"))), Verdict::NotTaken(_)), "new session");
    assert!(matches!(judge(&n, &id(7), &rules, None), Verdict::Unknown(_)), "no hook input: no turn to compare");
    // written after: taken, whatever the turn
    let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
    std::io::Write::write_all(&mut f, format!("{row}\n").as_bytes()).unwrap();
    assert_eq!(judge(&n, &id(7), &rules, Some(&input("s-1", "t-2"))), Verdict::Taken);
    // a row cut off mid-write (no whole JSON value) is nothing yet
    let cut = row.to_string();
    let n2 = note(Some(t.clone()), size_of(&t), "t-1");
    std::io::Write::write_all(&mut f, &cut.as_bytes()[..cut.len() - 3]).unwrap();
    assert!(matches!(judge(&n2, &id(7), &rules, None), Verdict::Unknown(_)));
}

/// No transcript to read, or no rows named by the profile: nothing can settle it.
#[test]
fn with_nothing_to_read_it_stays_unknown() {
    let rules = Rule::from_features(&["hook-context=payload.type=message".to_string()]);
    let later = input("s-1", "t-2");
    assert!(matches!(judge(&note(None, 0, "t-1"), &id(1), &rules, Some(&later)), Verdict::Unknown(_)));
    let gone = note(Some(PathBuf::from("/nonexistent/t.jsonl")), 0, "t-1");
    assert!(matches!(judge(&gone, &id(1), &rules, Some(&later)), Verdict::Unknown(_)));
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.jsonl");
    std::fs::write(&t, "").unwrap();
    assert!(matches!(judge(&note(Some(t), 0, "t-1"), &id(1), &[], Some(&later)), Verdict::Unknown(_)));
}

#[test]
fn feature_words_read_as_rules() {
    let rules = Rule::from_features(&[
        "hooks=claude-settings".into(),
        "hook-context=attachment.type=hook_additional_context".into(),
        "hook-context=a..b=x".into(),
        "hook-context=a.b=".into(),
        "hook-context=hook=true".into(),
    ]);
    assert_eq!(rules.len(), 2);
    assert!(rules[1].matches(&serde_json::json!({"hook": true})));
    assert!(!rules[0].matches(&serde_json::json!({"attachment": {"type": "hook_success"}})));
    assert!(rules[0].matches(&serde_json::json!({"attachment": {"type": "hook_additional_context"}})));
}

/// The hook inputs the real CLIs sent: the session, the turn and the transcript are read.
#[test]
fn the_real_hook_inputs_name_session_turn_and_transcript() {
    for dir in ["claude-code-2.1.332", "codex-0.171.0"] {
        let text = std::fs::read_to_string(fixture(&format!("{dir}/hook-inputs.jsonl"))).unwrap();
        let inputs: Vec<HookInput> = text.lines().map(|l| HookInput::parse(l.as_bytes())).collect();
        assert!(inputs.len() >= 6, "{dir}");
        for i in &inputs {
            assert!(i.session_id.is_some() && i.turn.is_some(), "{dir}: {i:?}");
            assert!(i.transcript.as_ref().is_some_and(|p| p.is_absolute()), "{dir}: {i:?}");
        }
        // two prompts: two turns, one session
        let turns: std::collections::BTreeSet<_> = inputs.iter().map(|i| i.turn.clone()).collect();
        let sessions: std::collections::BTreeSet<_> = inputs.iter().map(|i| i.session_id.clone()).collect();
        assert_eq!((turns.len(), sessions.len()), (2, 1), "{dir}");
    }
}
