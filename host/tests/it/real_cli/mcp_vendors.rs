//! The MCP face with the real Gemini CLI 0.61.0, Qwen Code 0.24.4, Copilot CLI 1.0.102 and
//! opencode 1.18.33: `team mcp install <seat>` writes the server's entry where the seat's
//! profile says its CLI reads it (`mcpServers` in `.gemini/settings.json` and
//! `.qwen/settings.json`, trusted; `.mcp.json` for Copilot; `mcp` in `opencode.json`), each CLI
//! starts it, and its model — scripted by the mock — calls `team_send` to the lead, Claude Code:
//! Gemini as the tool `mcp_team_team_send` it offers, Qwen through its `tool_call` bridge to the
//! deferred `mcp__team__team_send`, Copilot and opencode as the tool they offer for it. The
//! sender is found from the server's process tree (a child of the CLI in the seat's pane).

use super::checks::{id_of, model_read_the_drop, one_drop, one_history};
use super::harness::{RealWorld, Seat};
use super::vendors::Vendor;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use team::profiles::{DialogKind, ProfileHost, Reading, Screen, State};

/// `team mcp install <seat>` as the owner, and `team mcp status` after it. Copilot's entry is
/// in `.mcp.json`, which Claude Code reads too: the person approves the project's server for
/// Claude once (`enabledMcpjsonServers`), as `real_cli::mcp` does.
fn configure(rw: &RealWorld, v: Vendor) {
    let r = rw.w.team(&["mcp", "install", v.seat()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("{}: missing → written", v.seat())), "{}", r.stdout);
    let asks = r.stdout.contains("qwen-code: Qwen Code asks once, on its `Untrusted MCP server` screen");
    assert_eq!(asks, v == Vendor::Qwen, "{}", r.stdout);
    let st = rw.w.team(&["mcp", "status", v.seat()]);
    assert!(st.stdout.contains(&format!("{}: installed", v.seat())), "{}", st.stdout);
    if v == Vendor::Copilot {
        let approved = json!({ "enabledMcpjsonServers": ["team"] });
        rw.w.write(&rw.w.repo.join(".claude/settings.local.json"), &approved.to_string());
    }
}

/// The pane's screen as `team` reads it (the ANSI capture and the title), read by the bundled
/// profile of `v`.
pub(super) fn read(rw: &RealWorld, v: Vendor, seat: &Seat) -> Reading {
    let ansi = rw.tmux(&["capture-pane", "-p", "-e", "-t", &seat.pane]);
    let title = rw.tmux(&["display-message", "-p", "-t", &seat.pane, "#{pane_title}"]);
    let screen =
        Screen::from_ansi(&String::from_utf8_lossy(&ansi.stdout), String::from_utf8_lossy(&title.stdout).trim_end());
    let host = ProfileHost::with_dirs(rw.top().join("profiles-config"), rw.top().join("profiles-cache"));
    host.load(v.profile(), &BTreeMap::new()).unwrap().classify(&screen).unwrap()
}

/// Starts the seat of `v` and takes it to its prompt. Qwen first asks whether to approve the
/// MCP server the checkout's settings name (approval is bound to that configuration, kept in
/// `~/.qwen/mcpApprovals.json`; `trust` does not skip it): the profile reads a trust dialog, and
/// the person approves it once, with Enter on `› 1. Approve this server`.
fn at_prompt(rw: &RealWorld, v: Vendor) -> Seat {
    let seat = rw.vendor_started(v);
    if v == Vendor::Qwen {
        rw.wait_screen(&seat, "the MCP server approval", |s| s.contains("› 1. Approve this server"));
        let r = read(rw, v, &seat);
        let State::Dialog(d) = &r.state else { panic!("{:?} ({})", r.state, r.why) };
        assert_eq!((&d.kind, d.title.as_str()), (&DialogKind::Trust, "Untrusted MCP server in .qwen/settings.json"));
        assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
    }
    rw.wait_screen(&seat, &format!("{}'s prompt", v.profile()), |s| v.at_prompt(s));
    seat
}

fn sends_to_the_lead_through_team_send(v: Vendor, step: Value) {
    let rw = RealWorld::start_vendors();
    configure(&rw, v);
    let _claude = rw.claude("claude-keeper", "claude-keeper");
    let seat = at_prompt(&rw, v);
    let body = "the scouting is done, through the tool";
    let step = serde_json::from_str::<Value>(&step.to_string().replace("@body", body)).unwrap();
    rw.mock.script(json!({
        "root": rw.w.repo,
        "drop_hold": "lead-reads",
        "rules": [{ "when": "tell the lead", "steps": [step, { "text": "Sent." }] }],
    }));
    rw.prompt(&seat, v.api(), "tell the lead");
    if v == Vendor::Copilot {
        // Copilot asks before each MCP tool's first call (measured on 1.0.102; its approval is
        // the person's, kept in their home): the profile reads a dialog, the person says yes.
        rw.wait_screen(&seat, "Copilot's tool approval", |s| s.contains("Do you want to use this tool?"));
        let r = read(&rw, v, &seat);
        assert!(matches!(r.state, State::Dialog(_)), "{:?} ({})", r.state, r.why);
        assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
    }
    let out = rw.mock.wait_result(v.api(), "tell the lead", 1);
    rw.mock.open("lead-reads");

    // The model got the server's text back: the recipient's outcome and the message's id.
    let drop = one_drop(&rw, "claude-keeper", v.seat(), "own lead", body);
    assert!(out.contains("claude-keeper: delivered") && out.contains(&id_of(&drop)), "{out}");
    one_history(&rw, v.seat(), "claude-keeper", "delivered", "own lead", body, &drop);
    model_read_the_drop(&rw, "anthropic", &drop, body);
}

#[test]
fn gemini_calls_team_send_and_claude_receives_it() {
    let step = json!({ "tool": "mcp_team_team_send", "input": { "to": ["claude-keeper"], "message": "@body" } });
    sends_to_the_lead_through_team_send(Vendor::Gemini, step);
}

#[test]
fn copilot_calls_team_send_and_claude_receives_it() {
    let step = json!({ "tool": "team-team_send", "input": { "to": ["claude-keeper"], "message": "@body" } });
    sends_to_the_lead_through_team_send(Vendor::Copilot, step);
}

#[test]
fn opencode_calls_team_send_and_claude_receives_it() {
    let step = json!({ "tool": "team_team_send", "input": { "to": ["claude-keeper"], "message": "@body" } });
    sends_to_the_lead_through_team_send(Vendor::Opencode, step);
}

#[test]
fn qwen_calls_team_send_through_its_tool_bridge_and_claude_receives_it() {
    let step = json!({ "tool": "tool_call", "input": {
        "name": "mcp__team__team_send", "arguments": { "to": ["claude-keeper"], "message": "@body" },
    } });
    sends_to_the_lead_through_team_send(Vendor::Qwen, step);
}
