//! spec/team-feed.md's example "After a send", end to end and byte for byte: the spec's team
//! file, the real `team send` typing into a fake Codex seat in a private tmux server, then
//! `team feed` and `team feed --seat gpt-reviewer` reading the history line that send wrote.

mod common;
#[path = "common/tmux.rs"]
mod tmux_world;

use common::World;
use tmux_world::{SeatSpec, TmuxWorld};

/// The team file of spec/team-feed.md's examples.
const FEED_SPEC_FILE: &str = r#"format: 1
project: beacon
coordinator: claude-keeper
operator: claude-keeper

trust:
  - ~/.config/team/lobby
  - ~/Code/beacon

workspace:
  mode: shared

seats:
  - role: coordinator
    name: claude-keeper
    label: coordinator
    cli: claude-code
    vendor: anthropic
    model: Claude Opus
    version: "5.5"
    launch: claude --model claude-opus-5-5

  - role: reviewer
    name: gpt-reviewer
    label: reviewer
    cli: codex
    vendor: openai
    model: GPT Sol
    version: "6"
    launch: codex -m gpt-6-sol
"#;

#[test]
fn the_spec_example_after_a_send() {
    let tw = TmuxWorld::start(
        "beacon",
        &[
            SeatSpec::new("claude-keeper", "claude-code", "takes-line").delay(300),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line").delay(300),
        ],
    );
    let mut w = World::empty();
    w.team_file(FEED_SPEC_FILE);
    w.extra_env.extend(tw.env());
    w.extra_env.push(("TEAM_TIME_SCALE".into(), "0.05".into()));

    // Before any message has been sent.
    let run = |cmd: &str| w.run_pty_merged(cmd, &w.repo);
    assert_eq!(run("team feed ; echo \"exit $?\""), "team beacon, session \"beacon\"\n0 events\nexit 0\n");

    let transcript = [
        (
            "team send gpt-reviewer \"the gate is green\" ; echo \"exit $?\"",
            "team beacon, session \"beacon\"\ngpt-reviewer: delivered\nexit 0\n",
        ),
        (
            "team feed ; echo \"exit $?\"",
            "team beacon, session \"beacon\"\n\
             \x20 TIME      KIND                           SEAT                   DETAIL\n\
             \x20 09:00:00  delivered (via typed in 0 ms)  owner -> gpt-reviewer  from the owner — admitted by: the owner the gate is green\n\
             1 event\n\
             exit 0\n",
        ),
        (
            "team feed --seat gpt-reviewer ; echo \"exit $?\"",
            "team beacon, session \"beacon\"\n\
             \x20 TIME      KIND                           SEAT                   DETAIL\n\
             \x20 09:00:00  delivered (via typed in 0 ms)  owner -> gpt-reviewer  from the owner — admitted by: the owner the gate is green\n\
             1 event\n\
             exit 0\n",
        ),
    ];
    for (cmd, want) in transcript {
        assert_eq!(run(cmd), want, "$ {cmd}");
    }
    // The feed wrote nothing: the one history line is the send's.
    let json = run("team feed --json");
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["events"].as_array().unwrap().len(), 1);
    assert_eq!(doc["events"][0]["via"], "typed");
    assert_eq!(doc["events"][0]["outcome"], "delivered");
}
