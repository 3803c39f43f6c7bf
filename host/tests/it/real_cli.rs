//! The real-CLI tier: `team send` against the real Claude Code 2.1.332 and Codex 0.171.0, and
//! the owner's sends to the real Gemini CLI 0.61.0 and Qwen Code 0.24.4 (`owner_vendors`; `team
//! up` reaching them, Copilot, opencode and grok-cli: `up_vendors`; all installed from
//! `tests/real/package-lock.json` by `tests/real/install.sh`), offline.
//!
//! Every scenario builds its own world (`harness::RealWorld`): a temp dir under `/var/tmp`
//! holding a git checkout whose path has `_` and a space, a team file, a registry, state and
//! cache dirs, one HOME per seat; a private network namespace with only loopback up, where the
//! project's mock model server (`tests/real/mock/model-server.js`, `mock::Mock`), the
//! scenario's private tmux server and so every CLI run — nothing can leave the machine. The
//! owner's `team` runs outside it (the tmux socket is a file); agents' own `team` runs inside,
//! through their own shell tools.
//!
//! `ssh` runs the real Claude Code on machine B of the ssh world (`common::ssh::SshWorld`), as
//! B's user, against a mock started in that world's namespace: the owner on A sends over ssh,
//! and Claude's answers come back (`team reply`, the MCP tool `team_reply`).
//!
//! `first_team` runs `docs/first-team.md` itself: its blocks read from the page and run in
//! order, from an empty folder to the two CLIs messaging each other.
//!
//! Each scenario asserts the outcome line, the history line (`from`, admitted by), the drop
//! file, and what the receiving model was sent (the mock's request log). A CLI that is not
//! installed fails the test with the command that installs it; nothing skips. No timed
//! assertions: every wait is for a condition, with a generous bound.

mod checks;
mod harness;
mod mock;
mod vendors;

mod agent_sender;
mod agents;
mod conversations;
mod first_team;
mod handover;
mod handover_vendors;
mod inbox;
mod inbox_vendors;
mod mcp;
mod mcp_converse;
mod mcp_grok;
mod mcp_vendors;
mod opencode_phases;
mod owner;
mod owner_vendors;
mod register;
mod screens;
mod ssh;
mod status_reports;
mod trust_vendors;
mod up;
mod up_vendors;
