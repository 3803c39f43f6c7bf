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
