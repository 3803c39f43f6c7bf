//! `team mcp` over stdio, the way an agent CLI drives it: JSON-RPC lines in, one answer a
//! request out. The protocol (initialize, tools/list serving the spec's `parameters` byte for
//! byte, ping, malformed lines answered with JSON-RPC errors and no crash, a 10 MiB message
//! refused) and the caller, found from the process tree on real tmux: a seat's pane (the send
//! delivered and written down `from` that seat), an unmarked pane, no pane and no terminal, a
//! terminal outside any pane (the owner), and a server under Codex's shared `codex
//! app-server` daemon (refused with the repair, as a shell command under it is).

use serde_json::{json, Value};

use crate::common::{self, World};

pub(crate) fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

pub(crate) fn hello() -> Vec<String> {
    vec![
        request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

pub(crate) fn call(id: u64, tool: &str, args: Value) -> String {
    request(id, "tools/call", json!({"name": tool, "arguments": args}))
}

/// Writes the lines to a file in the world and returns its path, shell-quoted.
pub(crate) fn input(w: &World, name: &str, lines: &[String]) -> String {
    let p = w.base().join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    common::shell_quote(&p.display().to_string())
}

/// Every answer the server wrote, one JSON document a line.
pub(crate) fn answers(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}"))).collect()
}

pub(crate) fn answer(all: &[Value], id: u64) -> &Value {
    let found: Vec<&Value> = all.iter().filter(|a| a["id"] == json!(id)).collect();
    assert_eq!(found.len(), 1, "one answer to request {id}: {all:#?}");
    found[0]
}

/// The spec's harness tool definition (docs/spec/harness-team_send-tool.txt: a page whose JSON
/// starts at a line holding only `{`).
fn spec_tool() -> Value {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/spec/harness-team_send-tool.txt");
    let text = std::fs::read_to_string(p).unwrap();
    let at = text.find("\n{\n").expect("the spec file holds the tool's JSON") + 1;
    serde_json::from_str(&text[at..]).unwrap()
}

#[test]
fn initialize_tools_list_and_ping_serve_the_spec_schema() {
    let w = World::beacon();
    let mut lines = hello();
    lines.push(request(2, "tools/list", json!({})));
    lines.push(request(3, "ping", Value::Null));
    let r = w.sh(&format!("team mcp < {}", input(&w, "in.jsonl", &lines)));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let all = answers(&r.stdout);
    assert_eq!(all.len(), 3, "the notification is not answered: {all:#?}");
    let init = &answer(&all, 1)["result"];
    assert_eq!(init["protocolVersion"], "2025-06-18", "the version the client asked for");
    assert_eq!(init["serverInfo"]["name"], "team");
    assert_eq!(init["capabilities"]["tools"], json!({"listChanged": false}));
    let tools = answer(&all, 2)["result"]["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["team_send", "team_list", "team_inbox", "team_reply", "team_ack", "team_add", "team_stop"]);
    for t in &tools {
        // every other tool's input schema is a schema that takes its arguments and nothing else
        jsonschema::validator_for(&t["inputSchema"]).unwrap_or_else(|e| panic!("{}: {e}", t["name"]));
        assert!(t["description"].as_str().is_some_and(|d| d.len() > 80), "{t}");
    }
    // byte for byte: the compact text of the spec's parameters, key order and all
    let spec = serde_json::to_string(&spec_tool()["parameters"]).unwrap();
    let served = serde_json::to_string(&tools[0]["inputSchema"]).unwrap();
    assert_eq!(served, spec);
    assert!(tools[0]["description"].as_str().unwrap().contains("team send <to>"));
    assert_eq!(answer(&all, 3)["result"], json!({}));

    // a client asking for a revision this server does not speak gets its newest
    let lines = [request(
        1,
        "initialize",
        json!({"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    )];
    let r = w.sh(&format!("team mcp < {}", input(&w, "old.jsonl", &lines)));
    assert_eq!(answers(&r.stdout)[0]["result"]["protocolVersion"], "2025-11-25", "{r:?}");
}

#[test]
fn malformed_lines_get_json_rpc_errors_and_the_server_goes_on() {
    let w = World::beacon();
    let mut lines = hello();
    lines.extend([
        "this is not json".to_string(),
        "[]".to_string(),
        r#"{"jsonrpc":"2.0","id":5}"#.to_string(),
        r#"{"jsonrpc":"1.0","id":6,"method":"ping"}"#.to_string(),
        request(7, "resources/list", json!({})),
        call(8, "team_nope", json!({})),
        request(9, "tools/call", json!({"arguments": {}})),
        call(10, "team_send", json!({"to": "gpt-reviewer", "message": "hi"})),
        call(11, "team_send", json!({"to": ["all", "gpt-reviewer"], "message": "hi"})),
        call(12, "team_send", json!({"to": ["gpt-reviewer"], "message": "hi", "from": "claude-keeper"})),
        String::new(),
        request(13, "ping", json!({})),
    ]);
    let r = w.sh(&format!("team mcp < {}", input(&w, "in.jsonl", &lines)));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let all = answers(&r.stdout);
    let code = |a: &Value| a["error"]["code"].as_i64().unwrap_or(0);
    let nulls: Vec<&Value> = all.iter().filter(|a| a["id"].is_null()).collect();
    assert_eq!(nulls.iter().map(|a| code(a)).collect::<Vec<_>>(), [-32700, -32600], "{all:#?}");
    assert!(nulls[1]["error"]["message"].as_str().unwrap().contains("batch"));
    assert_eq!(code(answer(&all, 5)), -32600);
    assert_eq!(code(answer(&all, 6)), -32600);
    assert_eq!(code(answer(&all, 7)), -32601);
    assert_eq!(code(answer(&all, 8)), -32602);
    assert_eq!(code(answer(&all, 9)), -32602);
    // argument problems are tool results the model can act on, never protocol errors
    for (id, says) in [
        (10, "`to` is an array of seat addresses"),
        (11, "\"all\" is the broadcast to every seat you may reach, and stands alone"),
        (12, "not `from`; the sender is never an argument"),
    ] {
        let res = &answer(&all, id)["result"];
        assert_eq!(res["isError"], true, "{res}");
        let text = res["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(says), "{id}: {text}");
    }
    assert_eq!(answer(&all, 13)["result"], json!({}), "still serving after every bad line");
    assert_eq!(all.len(), 12, "one answer a request, none for the notification or the blank line: {all:#?}");
}

#[test]
fn a_ten_mebibyte_message_is_refused_unread() {
    let w = World::beacon();
    let big = "x".repeat(10 << 20);
    let mut lines = hello();
    lines.push(call(2, "team_send", json!({"to": ["gpt-reviewer"], "message": big})));
    lines.push(request(3, "ping", json!({})));
    let r = w.sh(&format!("team mcp < {}", input(&w, "big.jsonl", &lines)));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = answers(&r.stdout);
    let refused = all.iter().find(|a| a["id"].is_null()).expect("the long line is answered");
    assert_eq!(refused["error"]["code"], -32600);
    let m = refused["error"]["message"].as_str().unwrap();
    assert!(m.contains("larger than a message to this server may be (8 MiB)"), "{m}");
    assert_eq!(answer(&all, 3)["result"], json!({}));
    assert!(!w.repo.join(".agents/send-drops").exists(), "nothing was written");
}

/// A world whose seat gpt-reviewer is a fake Codex in a private tmux server, and whose
/// `as_seat` panes are of that server.
fn seat_world() -> World {
    World::with_fake_seats(None, "gpt-reviewer:codex")
}

#[test]
fn from_a_seats_pane_the_sender_is_that_seat_and_the_send_is_written_down() {
    let w = seat_world();
    let mut lines = hello();
    lines.push(call(2, "team_list", json!({})));
    lines.push(call(3, "team_send", json!({"to": ["gpt-reviewer", "nobody"], "message": "the gate is green"})));
    // (the input is redirected inside the pane: `as_seat` carries the command, not its stdin)
    let r = w.sh(&format!("as_seat claude-keeper sh -c \"team mcp < {}\"", input(&w, "in.jsonl", &lines)));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let all = answers(&r.stdout);
    let list = &answer(&all, 2)["result"];
    assert_eq!(list["structuredContent"]["caller"], "seat claude-keeper of beacon", "{list}");
    let seats = list["structuredContent"]["seats"].as_array().unwrap();
    let reviewer = seats.iter().find(|s| s["name"] == "gpt-reviewer").unwrap();
    assert!(reviewer["admitted_by"].is_string(), "the lead may send to its reviewer: {reviewer}");

    let sent = &answer(&all, 3)["result"];
    assert_eq!(sent["isError"], false, "{sent}");
    let rows = sent["structuredContent"]["recipients"].as_array().unwrap();
    assert_eq!(sent["structuredContent"]["from"], "claude-keeper");
    assert_eq!(rows[0]["outcome"], "delivered", "{sent}");
    assert_eq!(rows[0]["sentence"], "gpt-reviewer: delivered");
    let id = rows[0]["id"].as_str().unwrap().to_string();
    assert_eq!(rows[1]["outcome"], "refused", "an unknown seat is refused on its own: {sent}");
    assert!(rows[1]["id"].is_null());
    let text = sent["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("gpt-reviewer: delivered [id {id}]\nrefused: ")), "{text}");

    let h = w.history();
    assert_eq!(h.len(), 1, "{h:#?}");
    assert_eq!((h[0]["from"].as_str(), h[0]["to"].as_str()), (Some("claude-keeper"), Some("gpt-reviewer")));
    assert_eq!(h[0]["id"], json!(id));
    assert_eq!(h[0]["outcome"], "delivered");
    assert!(h[0]["body"].as_str().unwrap().contains("the gate is green"));
}

#[test]
fn to_all_is_the_broadcast_one_recipient_per_seat_the_caller_may_reach() {
    let w = seat_world();
    let mut lines = hello();
    lines.push(call(2, "team_send", json!({"to": ["all"], "message": "the gate is green"})));
    let r = w.sh(&format!("as_seat claude-keeper sh -c \"team mcp < {}\"", input(&w, "in.jsonl", &lines)));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let all = answers(&r.stdout);
    let sent = &answer(&all, 2)["result"];
    assert_eq!(sent["isError"], false, "{sent}");
    // the lead reaches its reviewer, never itself
    let rows = sent["structuredContent"]["recipients"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{sent}");
    assert_eq!(
        (rows[0]["to"].as_str(), rows[0]["outcome"].as_str()),
        (Some("gpt-reviewer"), Some("delivered")),
        "{sent}"
    );
    let h = w.history();
    assert_eq!(h.len(), 1, "{h:#?}");
    assert_eq!((h[0]["from"].as_str(), h[0]["to"].as_str()), (Some("claude-keeper"), Some("gpt-reviewer")));
}

#[test]
fn an_unmarked_pane_and_no_terminal_send_nothing() {
    let w = seat_world();
    let mut lines = hello();
    lines.push(call(2, "team_send", json!({"to": ["gpt-reviewer"], "message": "hi"})));
    lines.push(call(3, "team_list", json!({})));
    let file = input(&w, "in.jsonl", &lines);

    // a pane of the team's session that no seat holds: unplaced, and admission refuses it
    let r = w.sh(&format!("as_seat '' sh -c \"team mcp < {file}\""));
    let all = answers(&r.stdout);
    let list = &answer(&all, 3)["result"]["structuredContent"];
    assert!(list["caller"].as_str().unwrap().contains("holds no seat"), "{list}");
    let sent = &answer(&all, 2)["result"];
    assert_eq!(sent["isError"], true, "{sent}");
    assert_eq!(sent["structuredContent"]["recipients"][0]["outcome"], "refused", "{sent}");

    // no pane and no terminal at all: the spec's sentence, for every tool
    let r = w.sh_no_tty(&format!("team mcp < {file}"));
    let all = answers(&r.stdout);
    for id in [2, 3] {
        let res = &answer(&all, id)["result"];
        assert_eq!(res["isError"], true);
        assert_eq!(
            res["content"][0]["text"],
            "only the owner or a seat the send admission admits runs this, from a terminal outside herdr or its own pane"
        );
    }
    assert!(w.history().is_empty(), "nothing was written down");
}

#[test]
fn at_a_terminal_outside_any_pane_the_caller_is_the_owner() {
    let w = World::beacon();
    let mut lines = hello();
    lines.push(call(2, "team_list", json!({})));
    // stdin is the JSON-RPC input; the terminal is on stderr, as a person's shell gives it
    let r = w.sh(&format!("team mcp 2>&0 < {}", input(&w, "in.jsonl", &lines)));
    let all = answers(&r.stdout);
    assert_eq!(answer(&all, 2)["result"]["structuredContent"]["caller"], "the owner", "{all:#?}");
}

#[test]
fn under_the_shared_codex_app_server_every_call_is_refused_with_the_repair() {
    let w = World::beacon();
    let mut lines = hello();
    lines.push(call(2, "team_send", json!({"to": ["gpt-reviewer"], "message": "hi"})));
    let file = input(&w, "in.jsonl", &lines);
    // a copy of bash named codex reading a script named app-server (as the transcripts'
    // `as_daemon`): the process tree Codex 0.171's shared daemon gives what it runs
    let d = w.base().join("daemon");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy("/bin/bash", d.join("codex")).unwrap();
    std::fs::write(
        d.join("app-server"),
        format!("cd {}\nteam mcp < {file}\n", common::shell_quote(&w.repo.display().to_string())),
    )
    .unwrap();
    let r =
        w.sh(&format!("cd {} && ./codex app-server --listen unix://", common::shell_quote(&d.display().to_string())));
    let all = answers(&r.stdout);
    let res = &answer(&all, 2)["result"];
    assert_eq!(res["isError"], true, "{res}");
    let text = res["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("codex app-server"), "{text}");
    assert!(text.contains("--no-daemon"), "the repair: {text}");
}

#[test]
fn a_pane_that_changes_seat_under_a_running_server_sends_nothing() {
    let w = seat_world();
    let mut first = hello();
    first.push(call(2, "team_list", json!({})));
    let first = input(&w, "first.jsonl", &first);
    let second = input(&w, "second.jsonl", &[call(3, "team_send", json!({"to": ["gpt-reviewer"], "message": "hi"}))]);
    let dir = common::shell_quote(&w.base().join("rechecked").display().to_string());
    // In the pane: the server answers the first lines as claude-keeper; then the pane is
    // re-marked (waited for by the answers, not by time) and the send comes.
    let script = format!(
        "mkdir -p {dir}\ncd {dir}\nmkfifo in\n(cd {repo}; exec team mcp < {dir}/in > {dir}/out) &\n\
         exec 3> {dir}/in\ncat {first} >&3\n\
         until [ \"$(wc -l < {dir}/out)\" -ge 2 ]; do sleep 0.02; done\n\
         tmux -S \"$TEAM_TMUX_SOCKET\" set -p -t \"$TMUX_PANE\" @team-seat codex-2\n\
         cat {second} >&3\nexec 3>&-\nwait\ncat {dir}/out\n",
        repo = common::shell_quote(&w.repo.display().to_string()),
    );
    let r = w.sh(&format!("as_seat claude-keeper bash -c {}", common::shell_quote(&script)));
    let all = answers(&r.stdout);
    assert_eq!(answer(&all, 2)["result"]["structuredContent"]["caller"], "seat claude-keeper of beacon", "{r:?}");
    let res = &answer(&all, 3)["result"];
    assert_eq!(res["isError"], true, "{res}");
    let text = res["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("refused: this server was started by seat claude-keeper of beacon, and its caller is now "),
        "{text}"
    );
    assert!(w.history().is_empty(), "nothing was written down");
}

/// The tool result of request `id`: (isError, text, structuredContent).
pub(crate) fn result(all: &[Value], id: u64) -> (bool, String, Value) {
    let r = &answer(all, id)["result"];
    let text = r["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {r}")).to_string();
    (r["isError"].as_bool().unwrap(), text, r["structuredContent"].clone())
}

/// The lines `team mcp` answered, run through `seat`'s shell tool (below its pane's shell, no
/// terminal, as the agent's CLI starts its servers).
pub(crate) fn serve_in_seat(w: &World, seat: &str, seed: u32, lines: &[String]) -> Vec<Value> {
    let file = input(w, &format!("{seat}-{seed}.jsonl"), lines);
    let r = w.sh(&format!("in_seat {seat} env TEAM_ID_SEED={seed} sh -c \"team mcp < {file}\""));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    answers(&r.stdout)
}

#[test]
fn a_seat_reads_answers_and_acks_through_the_conversation_tools() {
    let w = World::with_fake_seats(None, "--tool claude-keeper:claude-code gpt-reviewer:codex");
    let r = w.sh("in_seat claude-keeper team send gpt-reviewer \"is the gate green?\"");
    assert_eq!((r.code, r.stdout.lines().last()), (0, Some("gpt-reviewer: delivered")), "{r:?}");
    let q = w.history()[0]["id"].as_str().unwrap().to_string();

    // the worker: its inbox, its reply, an ack the reply made needless, its inbox again, ids
    // that are not its own
    let mut lines = hello();
    lines.push(call(2, "team_inbox", json!({})));
    lines.push(call(3, "team_reply", json!({"id": q, "message": "green since 09:00"})));
    lines.push(call(4, "team_ack", json!({"id": q})));
    lines.push(call(5, "team_inbox", json!({})));
    lines.push(call(6, "team_reply", json!({"id": "../../etc/passwd", "message": "x"})));
    lines.push(call(7, "team_ack", json!({"id": "00000000-0000-4000-8000-00000000dead"})));
    let all = serve_in_seat(&w, "gpt-reviewer", 8, &lines);

    let (err, text, doc) = result(&all, 2);
    assert!(!err, "{text}");
    common::validate(&doc).unwrap();
    assert_eq!(
        (doc["who"].as_str(), doc["items"][0]["id"].as_str()),
        (Some("gpt-reviewer"), Some(q.as_str())),
        "{doc}"
    );
    assert!(
        text.contains(&q) && text.contains("is the gate green?") && text.ends_with("1 waiting for gpt-reviewer\n"),
        "{text}"
    );

    let (err, text, doc) = result(&all, 3);
    assert!(!err, "{text}");
    common::validate(&doc).unwrap();
    assert_eq!((doc["seat"].as_str(), doc["status"].as_str()), (Some("claude-keeper"), Some("delivered")), "{doc}");
    assert_eq!(doc["reply_to"], json!(q));
    let a = doc["ids"]["sent"].as_str().unwrap().to_string();
    assert!(
        text.starts_with(&format!("claude-keeper: delivered (reply to {q}: is the gate green?)"))
            && text.ends_with(&format!("[id {a}]")),
        "{text}"
    );

    let (err, text, _) = result(&all, 4);
    assert!(err && text.contains(&format!("message {q} was acked already")), "the reply acked it: {text}");
    let (err, text, doc) = result(&all, 5);
    assert!(!err && doc["items"] == json!([]) && text == "0 waiting for gpt-reviewer\n", "{text} {doc}");
    let (err, text, doc) = result(&all, 6);
    assert!(err && text.contains("team inbox lists the ids"), "{text}");
    common::validate(&doc).unwrap();
    let (err, text, _) = result(&all, 7);
    assert!(err && text.contains("no message 00000000-0000-4000-8000-00000000dead in the history of beacon"), "{text}");

    // the lead: the reply waits in its inbox; it acks it once; it may not answer its own question
    let mut lines = hello();
    lines.push(call(2, "team_inbox", json!({})));
    lines.push(call(3, "team_ack", json!({"id": a, "note": "thanks, merging"})));
    lines.push(call(4, "team_ack", json!({"id": a})));
    lines.push(call(5, "team_reply", json!({"id": q, "message": "answering myself"})));
    let all = serve_in_seat(&w, "claude-keeper", 9, &lines);
    let (err, text, doc) = result(&all, 2);
    assert!(!err, "{text}");
    assert_eq!(
        (doc["items"][0]["what"].as_str(), doc["items"][0]["reply_to"].as_str(), doc["items"][0]["id"].as_str()),
        (Some("reply"), Some(q.as_str()), Some(a.as_str())),
        "{doc}"
    );
    let (err, text, doc) = result(&all, 3);
    assert!(!err, "{text}");
    common::validate(&doc).unwrap();
    assert_eq!(
        (doc["status"].as_str(), doc["by"].as_str(), doc["note"].as_str()),
        (Some("acked"), Some("claude-keeper"), Some("thanks, merging"))
    );
    assert_eq!(text, format!("{a}: acked (from gpt-reviewer: green since 09:00, note: thanks, merging)"));
    let (err, text, _) = result(&all, 4);
    assert!(err && text.contains("was acked already"), "{text}");
    let (err, text, _) = result(&all, 5);
    assert!(err && text.contains(&format!("message {q} went to gpt-reviewer, not to claude-keeper")), "{text}");

    // written down as the shell commands write it: the pair threaded, each acked once
    let h = w.history();
    assert_eq!(h.len(), 2, "{h:#?}");
    assert_eq!(
        (h[1]["from"].as_str(), h[1]["to"].as_str(), h[1]["reply_to"].as_str()),
        (Some("gpt-reviewer"), Some("claude-keeper"), Some(q.as_str()))
    );
    let r = w.sh("team feed --json");
    let feed: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    let acked: Vec<&str> = feed["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["acked"]["ts"].is_string())
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(acked, [q.as_str(), a.as_str()], "{feed:#}");
}

#[test]
fn a_reply_the_asker_cannot_take_is_a_call_that_says_held() {
    // the lead's box holds a draft: the reply is held, said as the call's result, not an error
    let w = World::with_fake_seats(None, "--tool claude-keeper:claude-code:draft gpt-reviewer:codex");
    let r = w.sh("in_seat claude-keeper team send gpt-reviewer \"is the gate green?\"");
    assert_eq!(r.code, 0, "{r:?}");
    let q = w.history()[0]["id"].as_str().unwrap().to_string();
    let mut lines = hello();
    lines.push(call(2, "team_reply", json!({"id": q, "message": "green"})));
    let all = serve_in_seat(&w, "gpt-reviewer", 8, &lines);
    let (err, text, doc) = result(&all, 2);
    assert!(!err, "a held reply is no tool error: {text}");
    common::validate(&doc).unwrap();
    assert_eq!((doc["status"].as_str(), doc["seat"].as_str()), (Some("held"), Some("claude-keeper")), "{doc}");
    assert!(text.starts_with("claude-keeper: held ("), "{text}");
    let a = doc["ids"]["sent"].as_str().unwrap();
    assert!(text.contains(&format!("[id {a}]")), "{text}");
    let h = w.history();
    assert_eq!(
        (h.len(), h[1]["outcome"].as_str(), h[1]["reply_to"].as_str()),
        (2, Some("held"), Some(q.as_str())),
        "{h:#?}"
    );
}

/// issue 29: outside a checkout every conversation tool says the one "no team file" sentence
/// every command says (`team_reply` had a wording of its own).
#[test]
fn outside_a_checkout_every_conversation_tool_says_no_team_file_alike() {
    let w = World::beacon();
    let q = "00000000-0000-4007-8000-000000000000";
    let mut lines = hello();
    lines.push(call(2, "team_inbox", json!({})));
    lines.push(call(3, "team_reply", json!({"id": q, "message": "green"})));
    lines.push(call(4, "team_ack", json!({"id": q})));
    let r = w.sh(&format!("cd / && team mcp 2>&0 < {}", input(&w, "in.jsonl", &lines)));
    let all = answers(&r.stdout);
    for id in [2, 3, 4] {
        let (error, text, _) = result(&all, id);
        assert!(error, "{all:#?}");
        assert!(
            text.contains(
                "no team file: / is in no git checkout, and neither it nor a folder above it holds .agents/team.yaml"
            ),
            "request {id}: {text}"
        );
    }
}
