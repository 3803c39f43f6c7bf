//! The owner's approval `team mcp install` writes beside the server's entry is the CLI's own
//! (its profile's `mcp-owner-approval=`), not the file's: GitHub Copilot CLI reads the same
//! `.mcp.json` as Claude Code, and a checkout whose seats run only Copilot gets no Claude
//! settings written into it.

use crate::common::World;
use serde_json::Value;

fn team(seats: &[(&str, &str)]) -> String {
    let mut t = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for (i, (name, cli)) in seats.iter().enumerate() {
        t.push_str(&format!("  - name: {name}\n    cli: {cli}\n"));
        if i == 0 {
            t.push_str("    leads: true\n");
        }
    }
    t
}

#[test]
fn a_copilot_seat_s_mcp_json_gets_no_claude_approval_and_reads_installed() {
    let w = World::empty();
    w.team_file(&team(&[("pilot", "copilot"), ("rev", "codex")]));
    let r = w.team(&["mcp", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("pilot: missing → written"), "{}", r.stdout);
    assert!(w.repo.join(".mcp.json").exists());
    assert!(!w.repo.join(".claude").exists(), "Claude Code's settings written for a Copilot seat: {}", r.stdout);
    let st: Value = serde_json::from_str(&w.team(&["mcp", "status", "--json"]).stdout).unwrap();
    assert_eq!(st["seats"][0]["state"], "installed", "{st}");
    assert_eq!(w.team(&["mcp", "remove"]).code, 0);
    assert!(
        !w.repo.join(".mcp.json").exists()
            || !std::fs::read_to_string(w.repo.join(".mcp.json")).unwrap().contains("\"team\"")
    );
}

#[test]
fn beside_a_claude_seat_the_shared_mcp_json_is_approved_for_claude() {
    let w = World::empty();
    w.team_file(&team(&[("keeper", "claude-code"), ("pilot", "copilot")]));
    // only the Copilot seat named: nothing of Claude's is written, and keeper's entry is not approved
    let r = w.team(&["mcp", "install", "pilot"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!w.repo.join(".claude/settings.local.json").exists(), "{}", r.stdout);
    let st = w.team(&["mcp", "status"]).stdout;
    assert!(st.contains("keeper: incomplete"), "{st}");
    // the whole team: the approval is written once for keeper's CLI, and both read installed
    let r = w.team(&["mcp", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(w.repo.join(".claude/settings.local.json")).unwrap()).unwrap();
    assert_eq!(s["enabledMcpjsonServers"][0], "team", "{s}");
    let st = w.team(&["mcp", "status"]).stdout;
    assert!(st.contains("keeper: installed") && st.contains("pilot: installed"), "{st}");
}
