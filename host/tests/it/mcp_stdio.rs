//! `team mcp` over stdio, the way an agent CLI drives it: JSON-RPC lines in, one answer a
//! request out. The protocol (initialize, tools/list serving the spec's `parameters` byte for
//! byte, ping, malformed lines answered with JSON-RPC errors and no crash, a 10 MiB message
//! refused) and the caller, found from the process tree on real tmux: a seat's pane (the send
//! delivered and written down `from` that seat), an unmarked pane, no pane and no terminal, a
//! terminal outside any pane (the owner), and a server under Codex's shared `codex
//! app-server` daemon (refused with the repair, as a shell command under it is).

use serde_json::{json, Value};

use crate::common::{self, World};

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn hello() -> Vec<String> {
    vec![
        request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

fn call(id: u64, tool: &str, args: Value) -> String {
    request(id, "tools/call", json!({"name": tool, "arguments": args}))
}

/// Writes the lines to a file in the world and returns its path, shell-quoted.
fn input(w: &World, name: &str, lines: &[String]) -> String {
    let p = w.base().join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    common::shell_quote(&p.display().to_string())
}

/// Every answer the server wrote, one JSON document a line.
fn answers(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}"))).collect()
}

fn answer(all: &[Value], id: u64) -> &Value {
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
    assert_eq!(names, ["team_send", "team_list"]);
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

/// A world whose seats run in a private tmux server (`fake_seats`, the transcripts' prelude)
/// and whose `as_seat` panes are of that server.
fn seat_world() -> World {
    let mut w = World::beacon();
    let prelude = w.base().join("prelude.sh");
    std::fs::write(&prelude, crate::transcripts::PRELUDE).unwrap();
    w.extra_env.push(("BASH_ENV".into(), prelude.display().to_string()));
    w.tmux_pane();
    w.extra_env.push(("TEAM_TMUX_SOCKET".into(), w.base().join("seats.sock").display().to_string()));
    let r = w.sh("fake_seats gpt-reviewer:codex");
    assert_eq!(r.code, 0, "{r:?}");
    w
}

fn history(w: &World) -> Vec<Value> {
    let mut out = vec![];
    for e in std::fs::read_dir(&w.config).into_iter().flatten().flatten() {
        if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
            out.extend(t.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()));
        }
    }
    out
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

    let h = history(&w);
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
    let h = history(&w);
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
    assert!(history(&w).is_empty(), "nothing was written down");
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
    assert!(history(&w).is_empty(), "nothing was written down");
}
