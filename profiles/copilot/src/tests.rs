//! The Copilot CLI profile against its real captures (`tests/data/screens/copilot-1.0.102/`).

use super::*;
use profile_kit::fixtures;

fn fixture(name: &str) -> fixtures::Fixture {
    fixtures::load(&fixtures::screens_dir().join("copilot-1.0.102"), name).unwrap()
}

#[test]
fn every_copilot_fixture_reads_as_its_meta_says() {
    let fx = fixtures::for_cli("copilot").unwrap();
    assert!(fx.len() >= 10, "only {} fixtures", fx.len());
    let failures = fixtures::conformance(&fx, classify);
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
}

#[test]
fn every_capture_reads_the_same_from_its_ansi_alone() {
    // what `team profile explain` sees: the plain rows derived from the styled ones
    let bad = fixtures::ansi_disagreements(&fixtures::for_cli("copilot").unwrap(), classify);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn echoed_prompts_are_history_not_the_composer() {
    let f = fixture("working");
    assert!(f.screen.plain.iter().any(|r| r.starts_with(" ❯ do the slow thing")));
    let r = classify(&f.screen);
    assert_eq!((r.state, r.composer), (State::Working("esc esc edit prompt".into()), Composer::Empty));
}

#[test]
fn the_dialogs_are_titled_by_their_first_sentence() {
    let r = classify(&fixture("permission-shell").screen);
    assert!(
        matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Permission && d.title == "Make a file outside the workspace"),
        "{r:?}"
    );
    let r = classify(&fixture("trust-dialog").screen);
    assert!(matches!(&r.state, State::Dialog(d) if d.title == "Confirm folder trust"), "{r:?}");
}

#[test]
fn a_numbered_choice_with_no_composer_is_a_dialog() {
    let s = Screen::from_plain("╭──────────╮\n│ Pick one of these │\n│ ❯ 1. Go │\n│   2. Stop │\n╰──────────╯\n", "");
    let r = classify(&s);
    assert!(matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Question), "{r:?}");
    assert_eq!(r.composer, Composer::Unreadable);
}

#[test]
fn the_streaming_footer_is_working_too() {
    // Once bytes stream the footer reads `· 23 B esc esc interrupt` (seen in the raw pane log).
    let mut s = fixture("working").screen;
    let at = s.plain.iter().position(|r| r.contains("Working esc esc edit prompt")).unwrap();
    s.plain[at] = s.plain[at].replace("◎ Working esc esc edit prompt", "· 23 B esc esc interrupt   ");
    s.styled.clear();
    assert_eq!(classify(&s).state, State::Working("esc esc interrupt".into()));
}

#[test]
fn a_row_naming_the_id_proves_a_read_but_not_the_echo_or_a_dialog() {
    let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
    let trigger = format!("please read /tmp/drop/{id}.txt");
    let mut s = fixture("idle-after-reply").screen;
    s.recent = vec![format!(" ● Read /tmp/drop/{id}.txt")];
    assert!(shows_drop_read(&s, id, &trigger));
    s.recent = vec![format!(" ❯ {trigger}")];
    assert!(!shows_drop_read(&s, id, &trigger));
    let mut d = fixture("permission-shell").screen;
    d.recent = vec![format!("│ │ cat /tmp/drop/{id}.txt │ │")];
    assert!(!shows_drop_read(&d, id, &trigger));
}

#[test]
fn transcript_proof_is_the_completed_read_not_the_request() {
    // One real session: `view` of a drop, `cat` of it, a `cat` of a file that is not there.
    let path = fixtures::transcripts_dir().join("copilot-1.0.102/read-drop-file.jsonl");
    let rows: Vec<String> = std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect();
    let (read, missing) = ("3f6d2b1c-8a4e-4f7b-9c2d-1e5a7b9c0d11", "7c1e9a2b-3d4f-4a5b-8c6d-9e0f1a2b3c44");
    assert!(transcript_shows_drop_read(&rows, read));
    let proof = (0..rows.len()).find(|&p| transcript_shows_drop_read(&rows[..=p], read)).unwrap();
    assert!(rows[proof].contains("\"type\":\"tool.execution_complete\""), "{}", rows[proof]);
    assert!(
        rows[..proof].iter().any(|r| r.contains("\"assistant.message\"") && r.contains(read)),
        "the request came first"
    );
    assert!(!transcript_shows_drop_read(std::slice::from_ref(&rows[proof]), read), "a completion without its start");
    // the `cat` alone (the view's rows left out) proves it too
    let shell: Vec<String> = rows.iter().filter(|r| !r.contains("call_mock_1\"")).cloned().collect();
    assert!(transcript_shows_drop_read(&shell, read));
    let failed = rows.iter().find(|r| r.contains("tool.execution_complete") && r.contains(missing)).unwrap();
    assert!(failed.contains("\"success\":true") && failed.contains("\"exitCode\":1"), "{failed}");
    assert!(!transcript_shows_drop_read(&rows, missing), "a cat that exited 1");
    assert!(!transcript_shows_drop_read(&rows, ""));
}
