//! The feed's words (its table, cells and `--stats` table) and its document, on entries built
//! in the test.

use super::cells::Cells;
use super::*;
use crate::feed::{Event, ReadMark};
use crate::history::{self, MessageLine};
use crate::vocab::outcome::Note;
use serde_json::json;
use std::path::Path;

use crate::feed::sample_message as msg;

/// The tests' now, in UTC: the day of their events.
fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-11-29T12:00:00Z").unwrap().with_timezone(&chrono::Utc)
}

fn team_scope() -> Scope {
    Scope { team: Some(("beacon".into(), "beacon".into())), ..Default::default() }
}

#[test]
fn table_matches_the_spec_example() {
    let e = msg(
        "2026-11-29T09:00:00Z",
        "owner",
        "gpt-reviewer",
        "from the owner — admitted by: the owner\n\nthe gate is green",
    );
    let (got, note) = plain(&team_scope(), &[e], Skipped::default(), now(), false);
    assert_eq!(
        got,
        "team beacon, session \"beacon\"\n\
         \x20 TIME      KIND                           SEAT                   DETAIL\n\
         \x20 09:00:00  delivered (via typed in 0 ms)  owner -> gpt-reviewer  from the owner — admitted by: the owner the gate is green\n\
         1 event\n"
    );
    assert!(note.is_none());
}

#[test]
fn on_a_terminal_the_sender_header_is_drawn_faint_apart_from_the_body() {
    let e = msg(
        "2026-11-29T09:00:00Z",
        "owner",
        "gpt-reviewer",
        "from the owner — admitted by: the owner\n\nthe gate \u{1b}[2J is green",
    );
    let (got, _) = plain(&team_scope(), std::slice::from_ref(&e), Skipped::default(), now(), true);
    assert!(
        got.contains("owner -> gpt-reviewer  \x1b[2mfrom the owner — admitted by: the owner\x1b[22m the gate \\x1b[2J is green\n"),
        "{got:?}"
    );
    // piped, the row is the spec's
    let (plain_text, _) = plain(&team_scope(), &[e], Skipped::default(), now(), false);
    assert!(plain_text.contains("admitted by: the owner the gate \\x1b[2J is green\n"), "{plain_text:?}");
    // a body that opens with no header has nothing faint
    let bare = msg("2026-11-29T09:00:00Z", "owner", "gpt-reviewer", "no header here");
    let (got, _) = plain(&team_scope(), &[bare], Skipped::default(), now(), true);
    assert!(!got.contains('\u{1b}'), "{got:?}");
}

#[test]
fn text_from_outside_is_shown_escaped() {
    let e = msg("2026-11-29T09:00:00Z", "owner\u{1b}]0;x\u{7}", "gpt-reviewer", "clear \u{1b}[2J the \u{9b}screen");
    let (got, _) = plain(&team_scope(), &[e], Skipped::default(), now(), false);
    assert!(!got.contains('\u{1b}') && !got.contains('\u{9b}') && !got.contains('\u{7}'), "{got:?}");
    assert!(got.contains("owner\\x1b]0;x\\x07 -> gpt-reviewer"), "{got}");
    assert!(got.contains("clear \\x1b[2J the \\u{9b}screen"), "{got}");
}

#[test]
fn empty_history_is_context_and_zero_events() {
    assert_eq!(
        plain(&team_scope(), &[], Skipped::default(), now(), false),
        ("team beacon, session \"beacon\"\n0 events\n".to_string(), None)
    );
    assert_eq!(
        plain(&Scope::default(), &[], Skipped { lines: 3, bad_ids: 0 }, now(), false),
        ("0 events\n".to_string(), Some("team feed: skipped 3 unreadable lines\n".to_string()))
    );
}

#[test]
fn kind_cell_shows_what_the_line_carries() {
    let Event::Message { mut line, .. } = msg("t", "a", "b", "x") else { unreachable!() };
    let cell =
        |l: &MessageLine| Event::Message { line: l.clone(), project: None, read: None, acked: None }.kind_cell(&now());
    assert_eq!(cell(&line), "delivered (via typed in 0 ms)");
    line.ms = None;
    assert_eq!(cell(&line), "delivered (via typed)");
    line.via = None;
    line.outcome = "held".into();
    assert_eq!(cell(&line), "held");
    line.ms = Some(812);
    assert_eq!(cell(&line), "held (in 812 ms)");
}

#[test]
fn a_delivered_line_waiting_for_its_sign_says_where_it_stands() {
    let Event::Message { mut line, .. } = msg("2026-11-29T09:00:00Z", "a", "b", "x") else { unreachable!() };
    line.ms = Some(20_031);
    line.note = Some("taken, not yet confirmed".into());
    let cell = |read: Option<ReadMark>, l: &MessageLine| {
        Event::Message { line: l.clone(), project: None, read, acked: None }.kind_cell(&now())
    };
    assert_eq!(cell(Some(ReadMark::NotYet), &line), "delivered (via typed in 20031 ms, not yet read)");
    let at = |sign| Some(ReadMark::At { ts: "2026-11-29T09:00:41Z".into(), sign, ms: Some(41_000) });
    assert_eq!(cell(at(crate::history::Sign::Transcript), &line), "delivered (via typed in 20031 ms, read 09:00:41)");
    assert_eq!(cell(at(crate::history::Sign::Status), &line), "delivered (via typed in 20031 ms, acted on 09:00:41)");
    let never = Some(ReadMark::NeverActed { ts: "2026-11-29T09:01:00Z".into() });
    assert_eq!(cell(never.clone(), &line), "delivered (via typed in 20031 ms, never acted on)");
    let v = Event::Message { line: line.clone(), project: None, read: at(crate::history::Sign::Screen), acked: None }
        .to_json();
    assert_eq!(v["read"], json!({"state": "read", "ts": "2026-11-29T09:00:41Z", "sign": "screen", "ms": 41_000}));
    // The watch's own lines.
    let mut retry = line.clone();
    retry.retry = Some(2);
    retry.outcome = "held".into();
    retry.via = None;
    retry.ms = Some(30);
    assert_eq!(cell(None, &retry), "held (retry 2, in 30 ms)");
    let mut n = line;
    n.note = Some(Note::NeverActed);
    n.via = None;
    n.ms = None;
    assert_eq!(cell(None, &n), "delivered (taken but never acted on)");
}

#[test]
fn columns_pad_to_the_widest_cell() {
    let a = msg("2026-11-29T09:00:00Z", "owner", "x", "one");
    let mut b = msg("2026-11-29T10:11:12+02:00", "claude-keeper", "gpt-reviewer", "  two\t\tthree \n");
    if let Event::Message { line, .. } = &mut b {
        line.via = None;
        line.ms = None;
        line.outcome = "not-submitted".into();
    }
    let t = table(&[a, b], &now(), false, false);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "  TIME      KIND                           SEAT                           DETAIL");
    assert_eq!(lines[1], "  09:00:00  delivered (via typed in 0 ms)  owner -> x                     one");
    assert_eq!(lines[2], "  08:11:12  not-submitted                  claude-keeper -> gpt-reviewer  two three");
}

#[test]
fn time_is_in_the_zone_of_now_and_dated_when_not_today() {
    let e = msg("2026-11-29T23:30:00Z", "owner", "x", "late");
    let utc = now();
    assert_eq!(e.time_cell(&utc), "23:30:00");
    // in Berlin (UTC+1 in November) it is already the next day: dated
    let berlin = utc.with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap());
    assert_eq!(e.time_cell(&berlin), "2026-11-30 00:30:00");
    let older = msg("2026-11-27T08:00:00Z", "owner", "x", "old");
    assert_eq!(older.time_cell(&utc), "2026-11-27 08:00:00");
    assert_eq!(
        Event::Brief {
            ts: "soon".into(),
            from: "a".into(),
            to: "b".into(),
            body: String::new(),
            path: "a-to-b.md".into()
        }
        .time_cell(&utc),
        "soon"
    );
}

#[test]
fn all_projects_add_a_project_column_and_unreachable_says_why() {
    let Event::Message { mut line, .. } = msg("2026-11-29T09:00:00Z", "owner", "rev", "hello") else { unreachable!() };
    line.outcome = "unreachable".into();
    line.note = Some("the pane shows a permission dialog; nothing was pressed".into());
    let events = [Event::Message { line, project: Some("beacon".into()), read: None, acked: None }];
    let t = table(&events, &now(), true, false);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "  TIME      PROJECT  KIND                             SEAT          DETAIL");
    assert_eq!(
        lines[1],
        "  09:00:00  beacon   unreachable (via typed in 0 ms)  owner -> rev  (the pane shows a permission dialog; nothing was pressed) hello"
    );
}

#[test]
fn audit_lines_are_read_by_their_aliases() {
    let text = r#"{"time":"2026-11-29T09:00:01Z","actor":"guard","target":"gpt-reviewer","decision":"denied","reason":"not  granted"}
not json
{"no":"time"}
{"ts":"2026-11-29T09:00:02Z","project":"other","action":"x"}
{"ts":"2026-11-29T09:00:03Z","project":"beacon","event":"bridged"}
"#;
    let (lines, skipped) = history::parse_audit(text, Path::new("/l/audit.jsonl"), Some("beacon"));
    let out: Vec<Event> = lines.into_iter().map(Event::from).collect();
    assert_eq!(skipped, 2);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].kind_cell(&now()), "audit (denied)");
    assert_eq!(out[0].seat_cell(), "guard -> gpt-reviewer");
    assert_eq!(out[0].detail_cell(), "not granted");
    assert_eq!(out[1].kind_cell(&now()), "audit (bridged)");
    assert_eq!(out[1].seat_cell(), "-");
    assert!(out[0].involves("gpt-reviewer") && !out[1].involves("gpt-reviewer"));
    let v = out[0].to_json();
    assert_eq!(v["kind"], "audit");
    assert_eq!(v["record"]["reason"], "not  granted");
}

#[test]
fn briefs_are_read_from_their_names() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("claude-keeper-to-gpt-reviewer.md"), "\n# Review the gate\n\nDetails.\n").unwrap();
    std::fs::write(d.path().join("notes.md"), "not a brief").unwrap();
    std::fs::write(d.path().join("-to-x.md"), "no sender").unwrap();
    let f = std::fs::File::options().write(true).open(d.path().join("claude-keeper-to-gpt-reviewer.md")).unwrap();
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000);
    f.set_modified(t).unwrap();
    let got: Vec<Event> = history::read_briefs(d.path()).unwrap().into_iter().map(Event::from).collect();
    assert_eq!(got.len(), 1);
    let e = &got[0];
    assert_eq!(e.ts(), "2026-11-18T11:06:40Z");
    assert_eq!(e.kind_cell(&now()), "brief");
    assert_eq!(e.seat_cell(), "claude-keeper -> gpt-reviewer");
    assert_eq!(e.detail_cell(), "claude-keeper-to-gpt-reviewer.md: # Review the gate");
    assert_eq!(e.to_json()["body"], "\n# Review the gate\n\nDetails.\n");
}

#[test]
fn document_shape() {
    let e = msg("2026-11-29T09:00:00Z", "owner", "gpt-reviewer", "hi");
    let document = |scope: &Scope, events: &[Event], lines: usize| {
        let r = crate::feed::Report { events: events.to_vec(), skipped: crate::feed::Skipped { lines, bad_ids: 0 } };
        serde_json::to_value(r.document(scope)).unwrap()
    };
    let doc = document(&team_scope(), std::slice::from_ref(&e), 0);
    assert_eq!(doc["schema"]["name"], "team.feed");
    assert_eq!(doc["project"], "beacon");
    assert_eq!(doc["events"][0]["via"], "typed");
    assert!(doc["events"][0].get("failed").is_none() && doc.get("skipped").is_none());
    let Event::Message { line, .. } = e else { unreachable!() };
    let all = document(
        &Scope::default(),
        &[Event::Message { line, project: Some("beacon".into()), read: None, acked: None }],
        1,
    );
    assert!(all["project"].is_null() && all["session"].is_null());
    assert_eq!(all["events"][0]["project"], "beacon");
    assert_eq!(all["skipped"], 1);
}

trait ToJson {
    fn to_json(&self) -> serde_json::Value;
}

/// An event as the document carries it.
impl ToJson for Event {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap()
    }
}

#[test]
fn the_table_pads_and_says_dash_for_no_figure() {
    let row = Row {
        cli: "codex".into(),
        profile: "0.1.0".into(),
        sends: 3,
        delivered: 2,
        read: 1,
        taken_not_confirmed: 1,
        held: 1,
        ms_to_delivered: Spread { median: Some(130), p90: Some(20_031), n: 2 },
        ..Row::default()
    };
    let t = stats_table(&[row], None);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[0],
        "  CLI    PROFILE  SENDS  DELIVERED  READ  TAKEN  ACKED  HELD  NOT-SUBMITTED  UNREACHABLE  TO DELIVERED (MEDIAN / P90)  TO READ (MEDIAN / P90)"
    );
    assert_eq!(
        lines[1],
        "  codex  0.1.0    3      2          1     1      0      1     0              0            130 / 20031 ms               -"
    );
    let inbox = Row { cli: "codex".into(), profile: "0.1.0".into(), sends: 1, inbox: 1, ..Row::default() };
    let t = stats_table(std::slice::from_ref(&inbox), None);
    assert!(t.lines().next().unwrap().contains("UNREACHABLE  MCP-INBOX  TO DELIVERED"), "{t}");
    assert_eq!(serde_json::to_value(&inbox).unwrap()["inbox"], 1);
    assert!(serde_json::to_value(Row::default()).unwrap().get("inbox").is_none());
}
