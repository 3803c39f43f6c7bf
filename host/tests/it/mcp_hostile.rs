//! Text from outside in `team mcp`'s answers (issue 29): an address, an argument's name, a
//! method or tool name the client sent, a team file's words, another seat's message — each
//! with ESC, OSC 52 (the clipboard), BEL, a C1 control or a bidirectional override. A client
//! decodes the JSON and draws its strings (Codex draws a tool's result), so the answer escapes
//! them as the command line's output does (`vocab::text`): no decoded string of any answer —
//! text, structured content or error — holds a raw control character but a newline, and the
//! hostile text is still shown, escaped. One test per kind of answer.

use serde_json::{json, Value};

use crate::common::World;
use crate::mcp_stdio::{answer, answers, call, hello, input, request, result, serve_in_seat};

/// OSC 52 (set the clipboard), a CSI clear, a C1 CSI and a right-to-left override.
const HOSTILE: &str = "x\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{9b}31m\u{202e}y";

/// The hostile text's printable part: an answer that holds it shows the text (escaped).
const PRINTABLE: &str = "]52;c;aGk=";

/// Every decoded string of `v` (keys included) that holds a character no terminal may get
/// raw: a control but the newline, or a bidirectional control.
fn raw(v: &Value) -> Vec<String> {
    let bad = |s: &str| {
        s.chars().any(|c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
    };
    let mut out = Vec::new();
    match v {
        Value::String(s) if bad(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| out.extend(raw(x))),
        Value::Object(o) => {
            for (k, x) in o {
                if bad(k) {
                    out.push(k.clone());
                }
                out.extend(raw(x));
            }
        }
        _ => {}
    }
    out
}

/// Serves `lines` as the owner (a terminal outside any pane) in `w`; every answer.
fn serve(w: &World, lines: &[String]) -> Vec<Value> {
    let r = w.sh(&format!("team mcp < {}", input(w, "in.jsonl", lines)));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    answers(&r.stdout)
}

/// The answer to request `id` shows the hostile text (it was reached) and holds no raw
/// control anywhere.
fn escaped(all: &[Value], id: u64) -> &Value {
    let a = answer(all, id);
    assert!(a.to_string().contains(PRINTABLE), "the answer to {id} never shows the hostile text: {a}");
    assert_eq!(raw(a), Vec::<String>::new(), "raw controls in the answer to {id}: {a}");
    a
}

#[test]
fn team_send_s_answer_escapes_the_address_it_was_given() {
    let w = World::beacon();
    let mut lines = hello();
    lines.push(call(2, "team_send", json!({"to": [HOSTILE], "message": "hi"})));
    let all = serve(&w, &lines);
    let a = escaped(&all, 2);
    assert_eq!(a["result"]["structuredContent"]["recipients"][0]["outcome"], "refused", "{a}");
    assert!(w.history().is_empty());
}

#[test]
fn a_refused_call_escapes_the_argument_it_names() {
    let w = World::beacon();
    let mut lines = hello();
    let mut args = json!({"to": ["gpt-reviewer"], "message": "hi"});
    args[HOSTILE] = json!(1);
    lines.push(call(2, "team_send", args));
    let all = serve(&w, &lines);
    let a = escaped(&all, 2);
    assert_eq!(a["result"]["isError"], true, "{a}");
}

#[test]
fn protocol_errors_escape_the_method_and_the_tool_they_name() {
    let w = World::beacon();
    let mut lines = hello();
    lines.push(request(2, HOSTILE, json!({})));
    lines.push(call(3, HOSTILE, json!({})));
    let all = serve(&w, &lines);
    for id in [2, 3] {
        assert!(escaped(&all, id)["error"]["message"].is_string());
    }
}

#[test]
fn team_list_escapes_the_team_file_s_words() {
    let w = World::beacon();
    let file = std::fs::read_to_string(w.repo.join(".agents/team.yaml")).unwrap();
    // (YAML's double-quoted escapes: the same characters)
    let quoted = "\"x\\e]52;c;aGk=\\a\\e[2J\\x9b31m\\u202ey\"";
    let file = file.replace("role: reviewer", &format!("role: {quoted}"));
    assert!(file.contains(quoted), "the fixture's reviewer has a role to replace: {file}");
    w.team_file(&file);
    let mut lines = hello();
    lines.push(call(2, "team_list", json!({})));
    let all = serve(&w, &lines);
    escaped(&all, 2);
}

/// A world whose lead sent the reviewer a message whose first line is hostile: the reviewer's
/// answers to `calls` (the message's id is `@q` in them).
fn reviewer_answers(calls: &[(&str, Value)]) -> (World, Vec<Value>) {
    let w = World::with_fake_seats(None, "--tool claude-keeper:claude-code gpt-reviewer:codex");
    let body = w.base().join("hostile-body");
    std::fs::write(&body, HOSTILE).unwrap();
    let r = w.sh(&format!("in_seat claude-keeper team send gpt-reviewer --file '{}'", body.display()));
    assert_eq!(r.code, 0, "{r:?}");
    let q = w.history()[0]["id"].as_str().unwrap().to_string();
    assert!(w.history()[0]["body"].as_str().unwrap().contains(HOSTILE), "the body went whole: {:?}", w.history());
    let mut lines = hello();
    for (n, (tool, args)) in calls.iter().enumerate() {
        let args: Value = serde_json::from_str(&args.to_string().replace("@q", &q)).unwrap();
        lines.push(call(n as u64 + 2, tool, args));
    }
    let all = serve_in_seat(&w, "gpt-reviewer", 8, &lines);
    (w, all)
}

#[test]
fn team_inbox_escapes_another_seat_s_message() {
    let (_w, all) = reviewer_answers(&[("team_inbox", json!({}))]);
    let (err, _, doc) = result(&all, 2);
    assert!(!err, "{doc}");
    escaped(&all, 2);
}

#[test]
fn team_reply_escapes_the_question_it_answers() {
    let (_w, all) = reviewer_answers(&[("team_reply", json!({"id": "@q", "message": "green"}))]);
    let (err, text, _) = result(&all, 2);
    assert!(!err, "{text}");
    escaped(&all, 2);
}

#[test]
fn team_ack_escapes_the_message_it_acks_and_the_note() {
    let (_w, all) = reviewer_answers(&[("team_ack", json!({"id": "@q", "note": HOSTILE}))]);
    let (err, text, _) = result(&all, 2);
    assert!(!err, "{text}");
    escaped(&all, 2);
}
