//! The Qwen Code profile against its real captures (`tests/data/screens/qwen-code-0.24.4/`).

use super::*;
use profile_kit::fixtures;

fn fixture(name: &str) -> fixtures::Fixture {
    fixtures::load(&fixtures::screens_dir().join("qwen-code-0.24.4"), name).unwrap()
}

#[test]
fn every_qwen_code_fixture_reads_as_its_meta_says() {
    let fx = fixtures::for_cli("qwen-code").unwrap();
    assert!(fx.len() >= 10, "only {} fixtures", fx.len());
    let failures = fixtures::conformance(&fx, classify);
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
}

#[test]
fn every_capture_reads_the_same_from_its_ansi_alone() {
    // what `team profile explain` sees: the plain rows derived from the styled ones
    let bad = fixtures::ansi_disagreements(&fixtures::for_cli("qwen-code").unwrap(), classify);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_drawn_cursor_is_not_part_of_the_draft() {
    let f = fixture("idle-typed");
    assert!(f.screen.plain.iter().any(|r| r.starts_with("> say hello please") && r.contains('\u{200b}')));
    assert_eq!(classify(&f.screen).composer, Composer::Holds("say hello please".into()));
}

#[test]
fn the_shell_confirmation_is_a_permission_dialog_titled_by_its_command() {
    let r = classify(&fixture("permission-shell").screen);
    let State::Dialog(d) = &r.state else { panic!("{r:?}") };
    assert_eq!(d.kind, DialogKind::Permission);
    assert!(d.title.starts_with("? Shell touch") && d.title.contains("echo made-it"), "{}", d.title);
}

#[test]
fn a_numbered_choice_with_no_composer_is_a_dialog() {
    let s = Screen::from_plain("  > please do it\n\n  Pick one of these:\n   › 1. Go\n     2. Stop\n", "");
    let r = classify(&s);
    assert!(matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Question), "{r:?}");
    assert_eq!(r.composer, Composer::Unreadable);
    // A prompt echo is not the composer: no rules around it.
    let s = Screen::from_plain("  > say hello\n\n  ◆︎ Hello.\n", "");
    assert!(!matches!(classify(&s).state, State::Idle | State::Working(_)), "{:?}", classify(&s));
}

#[test]
fn the_title_adds_to_a_screen_that_agrees() {
    let mut s = fixture("idle-after-reply").screen;
    s.title = "◐︎ Qwen - work".into();
    assert_eq!(classify(&s).state, State::Working("title responding".into()));
    s.title = "Qwen - work".into();
    assert_eq!(classify(&s).state, State::Idle);
    // `✳︎` over a live composer is left over: the screen decides.
    s.title = "✳︎ Qwen - work".into();
    assert_eq!(classify(&s).state, State::Idle);
    let mut s = fixture("exited-after-quit").screen;
    s.title = "◐︎ Qwen - work".into();
    assert_eq!(classify(&s).state, State::Exited);
}

#[test]
fn a_row_naming_the_id_proves_a_read_but_not_the_echo_or_a_dialog() {
    let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
    let trigger = format!("please read /tmp/drop/{id}.txt");
    let mut s = fixture("idle-after-reply").screen;
    s.recent = vec![format!("  ✓ ReadFile /tmp/drop/{id}.txt")];
    assert!(shows_drop_read(&s, id, &trigger));
    s.recent = vec![format!("  > {trigger}")];
    assert!(!shows_drop_read(&s, id, &trigger));
    let mut d = fixture("permission-shell").screen;
    d.recent = vec![format!("  ? ReadFile /tmp/drop/{id}.txt ←")];
    assert!(!shows_drop_read(&d, id, &trigger));
}

#[test]
fn a_next_prompt_suggestion_is_not_a_draft_but_the_same_words_typed_are() {
    let f = fixture("idle-prompt-suggestion");
    assert!(f.screen.plain.iter().any(|r| r.trim_end() == "> Team test"), "the suggestion is on the composer row");
    assert_eq!(classify(&f.screen).composer, Composer::Empty);
    // The same words in the default colour, the cursor after them, are typed text.
    let typed: Vec<String> = f
        .screen
        .styled
        .iter()
        .map(|r| {
            if r.contains("eam test") {
                "\u{1b}[38;2;203;166;247m> \u{1b}[39mTeam test\u{1b}[48;2;212;212;212m \u{200b}".to_string()
            } else {
                r.clone()
            }
        })
        .collect();
    let s = Screen { styled: typed, plain: Vec::new(), ..f.screen.clone() };
    assert_eq!(classify(&s).composer, Composer::Holds("Team test".into()));
}

#[test]
fn transcript_proof_is_the_successful_tool_result_not_the_call() {
    // One real session: read_file of a drop, a `cat` of a file that is not there (exit 1), a
    // `cat` of a second drop.
    let path = fixtures::transcripts_dir().join("qwen-code-0.24.4/read-drop-file.jsonl");
    let rows: Vec<String> = std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect();
    let (read, missing, by_shell) = (
        "3f6d2b1c-8a4e-4f7b-9c2d-1e5a7b9c0d11",
        "7c1e9a2b-3d4f-4a5b-8c6d-9e0f1a2b3c44",
        "5a9b3c7d-1e2f-4a6b-8c0d-2e4f6a8b0c55",
    );
    for id in [read, by_shell] {
        assert!(transcript_shows_drop_read(&rows, id), "{id}");
        // the first row with which the rows before it make the proof
        let proof = (0..rows.len()).find(|&p| transcript_shows_drop_read(&rows[..=p], id)).unwrap();
        assert!(rows[proof].contains("\"type\":\"tool_result\""), "{}", rows[proof]);
        assert!(!transcript_shows_drop_read(&rows[..proof], id), "the call before its result: {id}");
        assert!(!transcript_shows_drop_read(&rows[proof..], id), "a result without its call: {id}");
    }
    let failed = rows.iter().find(|r| r.contains(missing) && r.contains("\"tool_result\"")).unwrap();
    assert!(failed.contains("\"status\":\"error\"") && failed.contains("Exit Code: 1"), "{failed}");
    assert!(!transcript_shows_drop_read(&rows, missing), "a cat that exited 1");
    assert!(!transcript_shows_drop_read(&rows, "00000000-0000-0000-0000-000000000000"));
}

#[test]
fn the_workspace_mcp_server_approval_is_a_trust_dialog_titled_by_its_box() {
    let r = classify(&fixture("mcp-server-approval").screen);
    let State::Dialog(d) = &r.state else { panic!("{r:?}") };
    assert_eq!(d.kind, DialogKind::Trust, "{}", r.why);
    assert_eq!(d.title, "Untrusted MCP server in .qwen/settings.json");
    // The words unknown, a boxed `› 1.` list with no composer is still a dialog.
    let s = Screen::from_plain(
        "   ╭──────────\n   │ Something new\n   │\n   │ › 1. Go\n   │   2. Stop\n   ╰──────────\n",
        "",
    );
    let r = classify(&s);
    assert!(
        matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Question && d.title == "Something new"),
        "{r:?}"
    );
}
