//! The opencode profile against its real captures (`tests/data/screens/opencode-1.18.33/`).

use super::*;
use profile_kit::fixtures;

fn fixture(name: &str) -> fixtures::Fixture {
    fixtures::load(&fixtures::screens_dir().join("opencode-1.18.33"), name).unwrap()
}

#[test]
fn every_opencode_fixture_reads_as_its_meta_says() {
    let fx = fixtures::for_cli("opencode").unwrap();
    assert!(fx.len() >= 10, "only {} fixtures", fx.len());
    let failures = fixtures::conformance(&fx, classify);
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
}

#[test]
fn every_capture_reads_the_same_from_its_ansi_alone() {
    // what `team profile explain` sees: the plain rows derived from the styled ones
    let bad = fixtures::ansi_disagreements(&fixtures::for_cli("opencode").unwrap(), classify);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_sidebar_beside_the_composer_is_not_its_text() {
    // The session view draws `<work>:master` right of the mode row; a draft there would have
    // the sidebar's rows beside it too.
    let f = fixture("idle-after-reply");
    let r = classify(&f.screen);
    assert_eq!(r.composer, Composer::Empty, "{}", r.why);
    let mut s = f.screen.clone();
    let mode = s.plain.iter().rposition(|r| r.contains("┃  Build · Mock Model Mock")).unwrap();
    let row = &s.plain[mode - 1];
    assert_eq!(row.trim(), "┃");
    s.plain[mode - 1] = format!("{row}  say hello again{}sidebar words", " ".repeat(90));
    s.styled.clear();
    assert_eq!(classify(&s).composer, Composer::Holds("say hello again".into()));
}

#[test]
fn the_home_screen_example_is_a_placeholder_and_a_draft_is_not() {
    assert_eq!(classify(&fixture("idle-empty-welcome").screen).composer, Composer::Empty);
    assert_eq!(classify(&fixture("idle-typed").screen).composer, Composer::Holds("say hello please".into()));
}

#[test]
fn the_permission_is_titled_by_its_heading() {
    let r = classify(&fixture("permission-shell").screen);
    assert!(
        matches!(&r.state, State::Dialog(d) if d.kind == DialogKind::Permission && d.title == "△ Permission required"),
        "{r:?}"
    );
}

#[test]
fn a_row_naming_the_id_proves_a_read_but_not_the_echo_or_a_dialog() {
    let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
    let trigger = format!("please read /tmp/drop/{id}.txt");
    let mut s = fixture("idle-after-reply").screen;
    s.recent = vec![format!("     → Read /tmp/drop/{id}.txt")];
    assert!(shows_drop_read(&s, id, &trigger));
    s.recent = vec![format!("  ┃  {trigger}")];
    assert!(!shows_drop_read(&s, id, &trigger));
    let mut d = fixture("permission-shell").screen;
    d.recent = vec![format!("  ┃  $ cat /tmp/drop/{id}.txt")];
    assert!(!shows_drop_read(&d, id, &trigger));
}

/// The trigger as opencode 1.18.33 drew it live (real_cli::owner_vendors, the home screen's
/// composer, 80 columns wide): wrapped, the id alone on the second `┃` row — and the same in the
/// session view's history block once submitted. Neither is opencode reading the drop.
#[test]
fn the_trigger_wrapped_in_a_bar_block_is_its_echo_not_a_read() {
    let id = "ecfa863d-38fe-41a1-96c7-cd53af56962c";
    let trigger = format!("Please read the team message at .agents/send-drops/beacon/open-coder/{id}");
    let mut s = fixture("idle-typed").screen;
    let at = s.plain.iter().position(|r| r.contains("┃  say hello please")).unwrap();
    let pad = " ".repeat(38);
    s.plain[at] = format!("{pad}┃  Please read the team message at .agents/send-drops/beacon/open-coder/");
    s.plain.insert(at + 1, format!("{pad}┃  {id}"));
    s.plain.pop();
    s.styled.clear();
    // (read as the live run read it: the row break kept as a space, which the host's read-back
    // folds)
    let wrapped = format!("Please read the team message at .agents/send-drops/beacon/open-coder/ {id}");
    assert_eq!(classify(&s).composer, Composer::Holds(wrapped));
    assert!(!shows_drop_read(&s, id, &trigger), "the composer's wrapped trigger read as the drop read");
    let mut h = fixture("idle-after-reply").screen;
    h.recent = vec![
        "  ┃".into(),
        "  ┃  Please read the team message at .agents/send-drops/beacon/open-coder/".into(),
        format!("  ┃  {id}                                                  Session title"),
        "  ┃".into(),
    ];
    assert!(!shows_drop_read(&h, id, &trigger), "the history's wrapped prompt read as the drop read");
    h.recent.push(format!("     → Read .agents/send-drops/beacon/open-coder/{id}"));
    assert!(shows_drop_read(&h, id, &trigger), "opencode's own read row");
}
