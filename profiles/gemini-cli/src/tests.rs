//! The Gemini CLI profile against its real captures (`tests/data/screens/gemini-cli-0.61.0/`).

use super::*;
use profile_kit::fixtures;

fn fixture(name: &str) -> fixtures::Fixture {
    fixtures::load(&fixtures::screens_dir().join("gemini-cli-0.61.0"), name).unwrap()
}

#[test]
fn every_gemini_cli_fixture_reads_as_its_meta_says() {
    let fx = fixtures::for_cli("gemini-cli").unwrap();
    assert!(fx.len() >= 11, "only {} fixtures", fx.len());
    let failures = fixtures::conformance(&fx, classify);
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
}

#[test]
fn every_capture_reads_the_same_from_its_ansi_alone() {
    // what `team profile explain` sees: the plain rows derived from the styled ones
    let bad = fixtures::ansi_disagreements(&fixtures::for_cli("gemini-cli").unwrap(), classify);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_trust_box_scrolled_above_a_live_composer_is_history() {
    for name in ["idle-after-reply", "working", "idle-typed"] {
        let f = fixture(name);
        assert!(f.screen.plain.iter().any(|r| r.contains("Trust folder (work)")), "{name}");
        let r = classify(&f.screen);
        assert!(!matches!(r.state, State::Dialog(_)), "{name}: {:?} ({})", r.state, r.why);
    }
}

#[test]
fn the_shell_confirmation_is_a_permission_dialog_titled_by_its_command() {
    let r = classify(&fixture("permission-shell").screen);
    let State::Dialog(d) = &r.state else { panic!("{r:?}") };
    assert_eq!(d.kind, DialogKind::Permission);
    assert!(d.title.starts_with("? Shell touch") && d.title.ends_with("echo made-it"), "{}", d.title);
    let r = classify(&fixture("trust-dialog").screen);
    assert!(matches!(&r.state, State::Dialog(d) if d.title == "Do you trust the files in this folder?"), "{r:?}");
}

#[test]
fn a_boxed_numbered_choice_with_no_composer_is_a_dialog() {
    let s = Screen::from_plain(
        " > please do it\n\n╭────────────╮\n│ Pick one of these: │\n│ ● 1. Go │\n│   2. Stop │\n╰────────────╯\n",
        "",
    );
    let r = classify(&s);
    assert!(matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Question), "{r:?}");
    assert_eq!(r.composer, Composer::Unreadable);
    // The same words as a reply, with the live composer and its footer under them, are not.
    let s = Screen::from_plain(
        "✦ ● 1. Go\n\n >   Type your message or @path/to/file\n\n workspace (/directory)   sandbox   /model\n",
        "",
    );
    assert_eq!(classify(&s).state, State::Idle);
}

#[test]
fn the_title_adds_working_to_a_screen_that_agrees() {
    let mut s = fixture("idle-empty-welcome").screen;
    s.title = format!("{:<80}", "✦  Working… (work)");
    assert_eq!(classify(&s).state, State::Working("title working".into()));
    s.title = format!("{:<80}", "◇  Ready (work)");
    assert_eq!(classify(&s).state, State::Idle);
    // An exited CLI's screen decides over any title.
    let mut s = fixture("exited-after-quit").screen;
    s.title = "✋  Action Required (work)".into();
    assert_eq!(classify(&s).state, State::Exited);
}

#[test]
fn a_burst_leaves_a_draft_so_enter_goes_after_a_pause() {
    // The capture: text and Enter in one tmux command left the text in the composer.
    let r = classify(&fixture("idle-typed-burst").screen);
    assert_eq!(r.composer, Composer::Holds("say hello burst".into()));
    assert!(describe().enter_pause_ms >= 300, "Enter must come after the measured pause");
}

#[test]
fn a_row_naming_the_id_proves_a_read_but_not_the_echo_or_a_dialog() {
    let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
    let trigger = format!("please read /tmp/drop/{id}.txt");
    let mut s = fixture("idle-after-reply").screen;
    s.recent = vec![format!("│ ✓  ReadFile /tmp/drop/{id}.txt │")];
    assert!(shows_drop_read(&s, id, &trigger));
    s.recent = vec![format!(" > {trigger}")];
    assert!(!shows_drop_read(&s, id, &trigger));
    let mut d = fixture("permission-shell").screen;
    d.recent = vec![format!("│ ? ReadFile /tmp/drop/{id}.txt │")];
    assert!(!shows_drop_read(&d, id, &trigger));
}

/// The rows of one real session's transcript (`tests/data/transcripts/gemini-cli-0.61.0/`).
fn transcript(name: &str) -> Vec<String> {
    let path = fixtures::transcripts_dir().join("gemini-cli-0.61.0").join(name);
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn transcript_proof_is_the_finished_read_file_call_not_the_request() {
    // read_file of a drop no ignore file names (a `.geminiignore` that unignores send-drops/)
    let rows = transcript("read-drop-file.jsonl");
    let id = "5a9b3c7d-1e2f-4a6b-8c0d-2e4f6a8b0c55";
    assert!(transcript_shows_drop_read(&rows, id));
    let proof = rows.iter().position(|r| transcript_shows_drop_read(std::slice::from_ref(r), id)).unwrap();
    // before it: the prompt, and the `gemini` row written without its call
    assert!(rows[..proof].iter().any(|r| r.contains(id) && r.contains("\"type\":\"user\"")));
    assert!(!transcript_shows_drop_read(&rows[..proof], id));
    assert!(!transcript_shows_drop_read(&rows, "00000000-0000-0000-0000-000000000000"));
    assert!(!transcript_shows_drop_read(&rows, ""));
}

#[test]
fn a_read_the_ignore_files_refused_is_no_proof_and_the_shell_read_after_it_is() {
    // `.agents/.gitignore` names send-drops/ (as `team init` writes it): read_file refuses the
    // drop, the model reads it with `cat`; then a `cat` of a file that is not there exits 1.
    let rows = transcript("read-refused-then-shell.jsonl");
    let (read, missing) = ("3f6d2b1c-8a4e-4f7b-9c2d-1e5a7b9c0d11", "7c1e9a2b-3d4f-4a5b-8c6d-9e0f1a2b3c44");
    let refused = rows.iter().position(|r| r.contains("is ignored by configured ignore patterns")).unwrap();
    assert!(rows[refused].contains("\"status\":\"error\""), "{}", rows[refused]);
    assert!(!transcript_shows_drop_read(&rows[..=refused], read), "the refused read_file");
    assert!(transcript_shows_drop_read(&rows, read), "the cat after it");
    let failed = rows.iter().find(|r| r.contains(missing) && r.contains("\"toolCalls\"")).unwrap();
    assert!(failed.contains("\"status\":\"success\"") && failed.contains("Exit Code: 1"), "{failed}");
    assert!(!transcript_shows_drop_read(&rows, missing), "a cat that exited 1");
    // the summary row written at the next start names the path and read_file in prose
    let memo = rows.iter().find(|r| r.contains("memoryScratchpad")).unwrap();
    assert!(memo.contains(read) && memo.contains("read_file"));
    assert!(!transcript_shows_drop_read(std::slice::from_ref(memo), read));
}
