//! The MCP face's seats, `team_add` and `team_stop`, over stdio on real tmux with fake seats
//! (real vendor screens; Codex leaving on Ctrl-C over an empty composer, as measured): the
//! server runs inside a pane marked as a seat of the team, so the caller is found from the
//! process tree as for every tool. The lead adds a seat the file declares (running, recorded)
//! and stops it (its CLI gone, its record stopped); a seat that is not the lead is refused
//! with nothing started or stopped, until the file's `delegates` names it; a seat the file does
//! not declare is never started.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

use crate::common::World;
use crate::mcp_stdio::{answer, answers, call, hello, input, request};

/// A checkout whose team file has the lead `keeper` (never launched here: the tools' caller)
/// and fake seats `rev` (Codex) and `scout` (Claude Code), their launch lines approved; the
/// team's tmux server is `<base>/seats.sock`, its session `beacon` already running with one
/// pane no seat holds (`lobby`), so a caller's pane (`as_seat`) is a pane of the team's own
/// session, as a lead's is.
struct Seats {
    w: World,
    sock: PathBuf,
    lobby: String,
}

impl Seats {
    fn new(extra: &str) -> Seats {
        let mut w = World::empty();
        let prelude = w.base().join("prelude.sh");
        std::fs::write(&prelude, crate::transcripts::PRELUDE).unwrap();
        w.extra_env.push(("BASH_ENV".into(), prelude.display().to_string()));
        w.tmux_pane();
        let sock = w.base().join("seats.sock");
        w.extra_env.push(("TEAM_TMUX_SOCKET".into(), sock.display().to_string()));
        let fake = crate::common::fake_seat_bin().display().to_string();
        let seat = |name: &str, cli: &str| {
            let log = w.base().join(format!("{name}.log"));
            format!(
                "  - name: {name}\n    cli: {cli}\n    launch: {fake} --cli {cli} --mode takes-line --native none --delay-ms 200 --log {}\n",
                log.display()
            )
        };
        let file = format!(
            "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: keeper\n    cli: claude-code\n    leads: true\n{}{}{extra}",
            seat("rev", "codex"),
            seat("scout", "claude-code"),
        );
        w.team_file(&file);
        for name in ["rev", "scout"] {
            let r = w.team(&["trust", "launch", name]);
            assert_eq!(r.code, 0, "team trust launch {name}: {r:?}");
        }
        let ok = Command::new("tmux")
            .arg("-S")
            .arg(&sock)
            .args(["-f", "/dev/null", "new-session", "-d", "-s", "beacon", "-x", "120", "-y", "40", "sleep 600"])
            .env("HOME", &w.home)
            .status()
            .unwrap();
        assert!(ok.success(), "tmux new-session");
        let out = Command::new("tmux").arg("-S").arg(&sock).args(["list-panes", "-a", "-F", "#{pane_id}"]).output();
        let lobby = String::from_utf8_lossy(&out.unwrap().stdout).trim().to_string();
        Seats { w, sock, lobby }
    }

    /// The answers of one `team mcp` run by `seat` from its own pane, fed `lines` after the
    /// handshake.
    fn mcp_as(&self, seat: &str, lines: &[String]) -> Vec<Value> {
        let mut all = hello();
        all.extend(lines.iter().cloned());
        let file = input(&self.w, &format!("{seat}.jsonl"), &all);
        let r = self.w.sh(&format!("as_seat {seat} sh -c \"team mcp < {file}\""));
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
        answers(&r.stdout)
    }

    fn seat_panes(&self) -> Vec<String> {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.sock)
            .args(["list-panes", "-a", "-F", "#{pane_id} #{@team-seat}"])
            .output()
            .unwrap();
        // the lobby and the callers' own panes (marked keeper or scout, gone once they return)
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with(&format!("{} ", self.lobby)))
            .map(str::to_string)
            .collect()
    }

    fn record(&self, seat: &str) -> Value {
        let p = self.w.repo.join(".agents/team.state.json");
        let st: Value = std::fs::read_to_string(p).map(|t| serde_json::from_str(&t).unwrap()).unwrap_or(Value::Null);
        st["sessions"]["beacon"]["seats"][seat].clone()
    }
}

/// A tool call's result: its text and its structured document, checked against its schema.
fn result(all: &[Value], id: u64) -> (bool, String, Value) {
    let res = &answer(all, id)["result"];
    let doc = res["structuredContent"].clone();
    crate::common::validate(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
    (res["isError"] == json!(true), res["content"][0]["text"].as_str().unwrap().to_string(), doc)
}

fn pid_alive(pid: u64) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn the_lead_adds_a_declared_seat_and_stops_it_and_never_an_undeclared_one() {
    let s = Seats::new("");
    let all = s.mcp_as(
        "keeper",
        &[
            request(2, "tools/list", json!({})),
            call(3, "team_add", json!({"seat": "ghost"})),
            call(4, "team_add", json!({"seat": "rev"})),
        ],
    );
    // listed to every caller, judged on each call
    let tools = answer(&all, 2)["result"]["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names[5..], ["team_add", "team_stop"]);

    // a seat the file does not declare: refused in `team add`'s words, nothing opened
    let (err, text, doc) = result(&all, 3);
    assert!(err, "{text}");
    assert_eq!(text, "the file has no seat \"ghost\"");
    assert_eq!(doc["error"]["id"], "add.no-seat", "{doc}");

    // the declared seat: started into the session, at its prompt, recorded
    let (err, text, doc) = result(&all, 4);
    assert!(!err, "{text}");
    let rec = s.record("rev");
    let pane = rec["pane"].as_str().unwrap_or_else(|| panic!("rev not recorded: {rec}")).to_string();
    assert_eq!(rec["stage"], "ready", "{rec}");
    assert!(rec["launch_line"].as_str().unwrap().contains("fake-seat --cli codex"), "{rec}");
    // a fake seat's program is in no installed package: no version is made up
    assert_eq!(text, format!("rev: up (codex in {pane}, idle; version unknown)\n"));
    assert!(rec.get("cli_version").is_none(), "{rec}");
    assert_eq!((doc["schema"]["name"].as_str(), doc["ready"].as_bool()), (Some("team.up"), Some(true)));
    assert_eq!(doc["seats"][0]["status"], "up", "{doc}");
    assert_eq!(s.seat_panes(), vec![format!("{pane} rev")], "one pane, rev's, and no other");
    // `team add` installs the seat's hooks and MCP entry before its CLI starts, as it does
    assert!(s.w.repo.join(".codex/config.toml").exists(), "team_add installed no MCP entry");

    // team_stop: rev is idle with an empty composer, so it is asked to leave its own way
    let pid = rec["process"]["pid"].as_u64().unwrap();
    assert!(pid_alive(pid));
    let all = s.mcp_as("keeper", &[call(2, "team_stop", json!({"seats": ["rev"]}))]);
    let (err, text, doc) = result(&all, 2);
    assert!(!err, "{text}");
    assert_eq!(text, format!("rev: down (asked with Ctrl-C; pane {pane} closed)\n"));
    assert_eq!((doc["schema"]["name"].as_str(), doc["seats"][0]["status"].as_str()), (Some("team.down"), Some("down")));
    assert!(!pid_alive(pid), "rev's CLI still runs");
    assert_eq!(s.record("rev")["stage"], "stopped");
    assert!(s.seat_panes().is_empty(), "rev's pane is still open: {:?}", s.seat_panes());
}

#[test]
fn a_seat_that_is_not_the_lead_starts_and_stops_nothing_until_the_delegates_name_it() {
    let s = Seats::new("");
    let all = s.mcp_as(
        "scout",
        &[
            call(2, "team_list", json!({})),
            call(3, "team_add", json!({"seat": "rev"})),
            call(4, "team_stop", json!({"seats": ["keeper"]})),
        ],
    );
    // the call was reached as scout's: its caller is found as for every tool
    let (_, _, list) = (false, String::new(), answer(&all, 2)["result"]["structuredContent"].clone());
    assert_eq!(list["caller"], "seat scout of beacon", "{list}");
    for (id, verb) in [(3, "add"), (4, "down")] {
        let (err, text, doc) = result(&all, id);
        assert!(err, "{text}");
        assert_eq!(
            text,
            "only the owner, the team's lead or a delegate for `up` starts or stops the team's seats; this call is seat scout of beacon, which the file does not mark as its lead"
        );
        assert_eq!(doc["error"]["id"], format!("{verb}.lead"), "{doc}");
    }
    assert!(s.seat_panes().is_empty(), "a refused caller opened panes: {:?}", s.seat_panes());
    assert_eq!(s.record("rev"), Value::Null, "a refused caller wrote a record");
    assert!(!s.w.repo.join(".codex").exists(), "a refused caller installed files");

    // the file's delegates for `up` name scout: now it may
    let s = Seats::new("delegates:\n  up: [scout]\n");
    let all = s.mcp_as("scout", &[call(2, "team_add", json!({"seat": "rev"}))]);
    let (err, text, _) = result(&all, 2);
    assert!(!err && text.starts_with("rev: up (codex in %"), "{text}");
    assert_eq!(s.record("rev")["stage"], "ready");
    let all = s.mcp_as("scout", &[call(2, "team_stop", json!({"seats": ["rev"]}))]);
    let (err, text, _) = result(&all, 2);
    assert!(!err && text.starts_with("rev: down (asked with Ctrl-C"), "{text}");
}
