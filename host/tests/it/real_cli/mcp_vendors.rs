//! The MCP face with the real Gemini CLI 0.61.0 and Qwen Code 0.24.4: `team mcp` named in the
//! checkout's settings the way each CLI reads MCP servers (`mcpServers` in `.gemini/settings.json`
//! and `.qwen/settings.json`, trusted so no confirmation is asked; written here by hand until
//! `team mcp install` writes them), each CLI starts it, and its model — scripted by the mock —
//! calls `team_send` to the lead, Claude Code: Gemini as the tool `mcp_team_team_send` it
//! offers, Qwen through its `tool_call` bridge to the deferred `mcp__team__team_send`. The
//! sender is found from the server's process tree (a child of the CLI in the seat's pane).

use super::checks::{id_of, model_read_the_drop, one_drop, one_history};
use super::harness::{RealWorld, Seat};
use super::vendors::Vendor;
use crate::common;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use team::profiles::{DialogKind, ProfileHost, Reading, Screen, State};

/// Names `team mcp` in the checkout's settings of `v`'s CLI, trusted.
fn configure(rw: &RealWorld, v: Vendor) {
    let dir = match v {
        Vendor::Gemini => ".gemini",
        Vendor::Qwen => ".qwen",
        _ => unreachable!("{v:?}: no MCP scenario yet"),
    };
    let team = common::team_bin().display().to_string();
    let settings = json!({ "mcpServers": { "team": { "command": team, "args": ["mcp"], "trust": true } } });
    rw.w.write(&rw.w.repo.join(dir).join("settings.json"), &settings.to_string());
}

/// The pane's screen as `team` reads it (the ANSI capture and the title), read by the bundled
/// profile of `v`.
fn read(rw: &RealWorld, v: Vendor, seat: &Seat) -> Reading {
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
fn qwen_calls_team_send_through_its_tool_bridge_and_claude_receives_it() {
    let step = json!({ "tool": "tool_call", "input": {
        "name": "mcp__team__team_send", "arguments": { "to": ["claude-keeper"], "message": "@body" },
    } });
    sends_to_the_lead_through_team_send(Vendor::Qwen, step);
}
