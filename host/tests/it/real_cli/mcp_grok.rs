//! The MCP face with the real grok-cli 0.0.34 (npm `@vibe-kit/grok-cli`), offline against the
//! mock's Chat Completions: `team mcp install <seat>` writes the server's entry as `mcpServers`
//! in the checkout's `.grok/settings.json` (the shape its own `grok mcp add` writes: `name` and
//! a stdio `transport`); grok-cli starts it in the background once it is up (its footer then
//! counts `⚒ mcps: 1`), and offers its tools as `mcp__team__<tool>`, run with no confirmation.
//! Its model — scripted by the mock — calls `mcp__team__team_send` to the lead, Claude Code,
//! which receives it. The sender is found from the server's process tree (a child of the
//! grok-cli in the seat's pane). Then, in the same world, the owner's send to grok-cli.

use super::checks::{id_of, model_read_the_drop, one_drop, one_history, CONTEXT};
use super::harness::RealWorld;
use super::mock::PORT;
use serde_json::{json, Value};
use team::profiles::ProfileHost;

const TEAM_FILE: &str = "format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: claude-keeper
    role: coordinator
    cli: claude-code
    leads: true
  - name: grok-coder
    role: coder
    cli: grok-cli
";

const SEAT: &str = "grok-coder";

#[test]
fn grok_cli_calls_team_send_and_claude_receives_it_then_the_owner_s_send_reaches_grok_cli() {
    let rw = RealWorld::start_with(TEAM_FILE);
    let r = rw.w.team(&["mcp", "install", SEAT]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("{SEAT}: missing → written")), "{}", r.stdout);
    let settings = rw.w.repo.join(".grok/settings.json");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let entry = &written["mcpServers"]["team"];
    assert_eq!((&entry["name"], &entry["transport"]["type"]), (&json!("team"), &json!("stdio")), "{written}");
    assert_eq!(entry["transport"]["args"], json!(["mcp"]), "{written}");
    assert!(entry["transport"]["command"].as_str().is_some_and(|c| c.ends_with("/team")), "{written}");
    let st = rw.w.team(&["mcp", "status", SEAT]);
    assert!(st.stdout.contains(&format!("{SEAT}: installed")), "{}", st.stdout);

    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let home = rw.top().join("seats").join(SEAT);
    let mut env = rw.seat_env(&home);
    env.push(("GROK_API_KEY".into(), "mock-key".into()));
    env.push(("GROK_BASE_URL".into(), format!("http://127.0.0.1:{PORT}/v1")));
    let pane = rw.window(SEAT, SEAT, &env, "grok");
    let seat = super::harness::Seat { name: SEAT.into(), pane, home };
    // The composer, and the footer once the server is connected and its tools listed.
    rw.wait_screen(&seat, "grok-cli's prompt with its MCP server connected", |s| {
        s.contains("Ask me anything...") && s.contains("⚒ mcps: 1")
    });
    // grok-cli wrote its model beside the entry, which it kept.
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(after["mcpServers"]["team"], *entry, "{after}");

    let body = "the refactor is done, through the tool";
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "lead-reads",
        "rules": [{ "when": "tell the lead", "steps": [
            { "tool": "mcp__team__team_send", "input": { "to": ["claude-keeper"], "message": body } },
            { "text": "Sent." },
        ] }],
    }));
    // grok-cli keeps text and Enter typed in one burst as a draft: Enter after its profile's pause.
    let host = ProfileHost::with_dirs(rw.top().join("pconfig"), rw.top().join("pcache"));
    let (desc, _) = host.description("grok-cli", &Default::default()).unwrap();
    rw.type_draft(&seat, "tell the lead");
    std::thread::sleep(std::time::Duration::from_millis(desc.enter_pause_ms as u64));
    assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
    let asked =
        rw.mock.wait_for("grok-cli's turn", |r| r.api == "chat" && r.kind == "main" && r.prompt == "tell the lead");
    let offered: Vec<&str> =
        asked.body["tools"].as_array().into_iter().flatten().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert!(offered.contains(&"mcp__team__team_send"), "the server's tools are offered: {offered:?}");
    let out = rw.mock.wait_result("chat", "tell the lead", 1);
    rw.mock.open("lead-reads");

    // The model got the server's text back: the recipient's outcome and the message's id.
    let drop = one_drop(&rw, "claude-keeper", SEAT, "own lead", body);
    assert!(out.contains("claude-keeper: delivered") && out.contains(&id_of(&drop)), "{out}");
    one_history(&rw, SEAT, "claude-keeper", "delivered", "own lead", body, &drop);
    model_read_the_drop(&rw, "anthropic", &drop, body);

    // The same world, the other way: once its turn is over, the owner's send to grok-cli is
    // delivered, its model reads the drop (`view_file`). grok-cli keeps no transcript: what
    // decided it is the screen.
    rw.wait_screen(&seat, "grok-cli idle after its turn", |s| s.contains("Sent.") && !s.contains("esc to interrupt"));
    let note = "the lead has it";
    let t = std::time::Instant::now();
    let run = rw.w.team(&["send", SEAT, note]);
    let took = t.elapsed();
    assert_eq!((run.stdout.as_str(), run.code), (format!("{CONTEXT}\n{SEAT}: delivered\n").as_str(), 0), "{run:?}");
    let mine = rw.drops(SEAT);
    let line = rw.history().into_iter().find(|l| l["to"] == SEAT).expect("the owner's line");
    assert_eq!((line["outcome"].as_str(), line["by"].as_str()), (Some("delivered"), Some("screen")), "{line}");
    model_read_the_drop(&rw, "chat", &mine[0], note);
    eprintln!("grok-cli: send → delivered in {} ms, by screen (typed in {} ms)", took.as_millis(), line["ms"]);
}
