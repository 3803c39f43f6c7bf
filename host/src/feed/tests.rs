//! The feed's use-cases on events built in the test: the limit, the seat a nickname names,
//! the follow's keys and the events' documents.

use super::follow::keys;
use super::*;
use serde_json::json;
use std::path::PathBuf;

use super::sample_message as msg;

#[test]
fn limit_keeps_the_last_events() {
    let ev: Vec<Event> = (0..5).map(|i| msg(&format!("2026-11-29T09:00:0{i}Z"), "a", "b", &i.to_string())).collect();
    let got = limited(ev.clone(), Some(2));
    assert_eq!(got, ev[3..].to_vec());
    assert_eq!(limited(ev.clone(), Some(9)), ev);
    assert!(limited(ev, Some(0)).is_empty());
}

#[test]
fn seat_filter_reads_a_nickname_of_the_file() {
    let s = Scope { nicknames: vec![("agamemnon".into(), "claude-keeper".into())], ..Default::default() };
    assert_eq!(s.seat_name("@agamemnon"), "claude-keeper");
    assert_eq!(s.seat_name("claude-keeper"), "claude-keeper");
    assert_eq!(s.seat_name("@nobody"), "@nobody");
}

#[test]
fn an_unknown_seat_is_a_usage_error_naming_the_nearest() {
    let s = Scope {
        team: Some(("beacon".into(), "beacon".into())),
        clis: vec![("claude-keeper".into(), "claude".into())],
        ..Default::default()
    };
    let events = vec![msg("2026-11-29T09:00:00Z", "owner", "claude-keeper", "hi")];
    assert_eq!(s.of_seat(events.clone(), Some("claude-keeper"), true).unwrap(), events);
    assert!(s.of_seat(events.clone(), Some("owner"), true).is_ok());
    let e = s.of_seat(events.clone(), Some("claude-keper"), true).unwrap_err();
    assert_eq!(e.kind, crate::error::Kind::Usage);
    assert!(e.message().contains("(did you mean claude-keeper?)"), "{}", e.message());
    // a later follow pass does not check again
    assert!(s.of_seat(events, Some("claude-keper"), false).unwrap().is_empty());
}

#[test]
fn follow_keys_tell_identical_lines_apart() {
    let a = msg("2026-11-29T09:00:00Z", "a", "b", "x");
    let k = keys(&[a.clone(), a]);
    assert_ne!(k[0], k[1]);
}

#[test]
fn an_event_s_document_is_its_line_and_what_the_feed_adds() {
    let Event::Message { line, .. } = msg("2026-11-29T09:00:00Z", "owner", "rev", "hi") else { unreachable!() };
    let plain = serde_json::to_value(Event::Message { line: line.clone(), project: None, read: None, acked: None });
    assert_eq!(plain.unwrap(), serde_json::to_value(&line).unwrap());
    let marked = Event::Message {
        line: line.clone(),
        project: Some("beacon".into()),
        read: Some(ReadMark::NotYet),
        acked: Some(AckMark { ts: "t".into(), note: Some("done".into()) }),
    };
    let text = serde_json::to_string(&marked).unwrap();
    let line_text = serde_json::to_string(&line).unwrap();
    assert_eq!(
        text,
        format!(
            "{},\"project\":\"beacon\",\"read\":{{\"state\":\"not-yet\"}},\"acked\":{{\"ts\":\"t\",\"note\":\"done\"}}}}",
            line_text.trim_end_matches('}')
        )
    );
    let brief = Event::Brief {
        ts: "t".into(),
        from: "a".into(),
        to: "b".into(),
        body: "text".into(),
        path: PathBuf::from("/b/a-to-b.md"),
    };
    assert_eq!(
        serde_json::to_string(&brief).unwrap(),
        r#"{"kind":"brief","ts":"t","from":"a","to":"b","body":"text","path":"/b/a-to-b.md"}"#
    );
    let audit = Event::Audit {
        ts: "t".into(),
        from: None,
        to: Some("rev".into()),
        action: Some("denied".into()),
        detail: None,
        path: PathBuf::from("/l/audit.jsonl"),
        record: json!({"ts": "t", "z": 1, "a": 2}),
    };
    assert_eq!(
        serde_json::to_string(&audit).unwrap(),
        r#"{"kind":"audit","ts":"t","from":null,"to":"rev","action":"denied","body":null,"path":"/l/audit.jsonl","record":{"ts":"t","z":1,"a":2}}"#
    );
}
