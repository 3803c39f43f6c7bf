use super::*;

/// A 0.4 file with a legacy `lead` seat, whose name also stands in comments, in another
/// seat's values and in keys that are not seat names.
const LEGACY: &str = "\
# The team file. The lead seat (name: lead) keeps the plan.
format: 1
project: beacon
coordinator: lead   # the legacy lead key names it too
operator: lead

seats:
  - role: lead
    name: lead            # renamed by team rename lead <new-name>
    label: lead
    cli: claude-code
    launch: claude --name lead

  - name: \"gpt-reviewer\"
    nickname: leader
    cli: codex
    launch: codex --profile lead
delegates:
  up: [lead@beacon, lead@labs, 'lead', agt_00000000000000a1]
grant:
  seat: lead
  scope: [up]
";

fn edit(text: &str, seat: &str, new: &str) -> Result<String, EditError> {
    let s = sites(text, seat, "beacon")?;
    Ok(apply(text, &s, seat, new))
}

fn changed_lines(a: &str, b: &str) -> Vec<(usize, String)> {
    assert_eq!(a.lines().count(), b.lines().count(), "no line is added or removed");
    a.lines()
        .zip(b.lines())
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (_, y))| (i + 1, y.to_string()))
        .collect()
}

#[test]
fn only_the_values_that_name_the_seat_change() {
    let out = edit(LEGACY, "lead", "keeper2").unwrap();
    assert_eq!(
        changed_lines(LEGACY, &out),
        vec![
            (4, "coordinator: keeper2   # the legacy lead key names it too".to_string()),
            (5, "operator: keeper2".to_string()),
            (9, "    name: keeper2            # renamed by team rename lead <new-name>".to_string()),
            // another team's `lead@labs` and the agent id are other callers: kept
            (19, "  up: [keeper2@beacon, lead@labs, 'keeper2', agt_00000000000000a1]".to_string()),
            (21, "  seat: keeper2".to_string()),
        ]
    );
    // comments, the role, the label, the launch lines and the nickname keep the word
    assert!(out.starts_with("# The team file. The lead seat (name: lead) keeps the plan.\n"));
    assert!(out.contains("  - role: lead\n") && out.contains("    label: lead\n"));
    assert!(out.contains("launch: claude --name lead\n") && out.contains("nickname: leader\n"));
    let before = parse(LEGACY).unwrap();
    let after = verify(&out, &before, "lead", "keeper2").unwrap();
    assert!(after.seat("keeper2").unwrap().leads, "the legacy coordinator key still names the lead");
    assert_eq!(after.delegates.up.as_deref().unwrap()[0], "keeper2@beacon");
    assert_eq!(after.grant.as_ref().unwrap().seat, "keeper2");
    assert!(after.notes.is_empty(), "the legacy note goes with the name: {:?}", after.notes);
}

#[test]
fn the_sites_are_named_by_line_and_key() {
    let s = sites(LEGACY, "lead", "beacon").unwrap();
    let words: Vec<String> = s.iter().map(Site::words).collect();
    assert_eq!(
        words,
        vec![
            "line 4 (coordinator:)",
            "line 5 (operator:)",
            "line 9 (name:)",
            "line 19 (delegates.up:)",
            "line 19 (delegates.up:)",
            "line 21 (grant.seat:)"
        ]
    );
}

#[test]
fn a_quoted_name_keeps_its_quotes_and_another_seat_is_left_alone() {
    let out = edit(LEGACY, "gpt-reviewer", "rev").unwrap();
    assert_eq!(changed_lines(LEGACY, &out), vec![(14, "  - name: \"rev\"".to_string())]);
    let before = parse(LEGACY).unwrap();
    verify(&out, &before, "gpt-reviewer", "rev").unwrap();
}

#[test]
fn a_flow_seat_and_a_seat_whose_name_is_inside_another_word() {
    let text = "project: beacon\nseats: [{name: a, cli: codex}, {name: ab, cli: codex, launch: a}]\n";
    let out = edit(text, "a", "z").unwrap();
    assert_eq!(out, "project: beacon\nseats: [{name: z, cli: codex}, {name: ab, cli: codex, launch: a}]\n");
    let out = edit(text, "ab", "b").unwrap();
    assert_eq!(out, "project: beacon\nseats: [{name: a, cli: codex}, {name: b, cli: codex, launch: a}]\n");
}

#[test]
fn a_name_written_through_an_alias_is_not_edited() {
    let text = "project: beacon\ncoordinator: &k lead\nseats:\n  - name: *k\n    cli: codex\n";
    parse(text).unwrap();
    assert_eq!(
        sites(text, "lead", "beacon").unwrap_err(),
        EditError::Form { line: 4, key: "name".into(), written: "*k".into() }
    );
}

#[test]
fn a_seat_the_file_does_not_declare() {
    assert_eq!(sites(LEGACY, "lea", "beacon").unwrap_err(), EditError::NoSeat);
    // a value that spells it elsewhere does not declare it
    let text = "project: beacon\noperator: ghost\nseats:\n  - name: a\n    cli: codex\n";
    assert_eq!(sites(text, "ghost", "beacon").unwrap_err(), EditError::NoSeat);
}

#[test]
fn the_read_back_refuses_a_text_that_is_not_the_same_team() {
    let before = parse(LEGACY).unwrap();
    let good = edit(LEGACY, "lead", "keeper2").unwrap();
    // a text that lost the seat, one that still names the old seat, one that changed more
    let e = verify(&good.replace("name: keeper2", "name: other"), &before, "lead", "keeper2").unwrap_err().to_string();
    assert_eq!(e, "it would not load (line 4: coordinator: names no seat of this file (\"keeper2\"))");
    let small = parse("project: beacon\nseats:\n  - name: a\n    cli: codex\n").unwrap();
    let e = verify("project: beacon\nseats:\n  - name: b\n    cli: codex\n", &small, "a", "c").unwrap_err().to_string();
    assert_eq!(e, "it would not declare seat \"c\"");
    let e =
        verify("project: beacon\nseats:\n  - name: a\n    cli: codex\n  - name: c\n    cli: codex\n", &small, "a", "c")
            .unwrap_err()
            .to_string();
    assert_eq!(e, "it would still declare seat \"a\"");
    let e = verify(LEGACY, &before, "lead", "keeper2").unwrap_err().to_string();
    assert_eq!(e, "it would not declare seat \"keeper2\"");
    let e = verify(&good.replace("cli: codex", "cli: cursor"), &before, "lead", "keeper2").unwrap_err().to_string();
    assert_eq!(e, "it would read as another team than this file with the seat renamed");
    let e = verify(&good.replace("grant:\n  seat: keeper2", "grant:\n  seat: lead"), &before, "lead", "keeper2")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "it would read as another team than this file with the seat renamed");
    let e = verify("project: [\n", &before, "lead", "keeper2").unwrap_err().to_string();
    assert!(e.starts_with("it would not load (line "), "{e}");
}
