//! The integration suite, one test binary so it links once: every module drives the built
//! `team` binary (or the library's adapters) in a world it builds in a temp dir. The binaries
//! are the test build's: `team-hooked` run as `team` (the test hooks open), the test double
//! `fake-seat` beside it, and the product's `team` itself where a test needs it without hooks
//! (`common`).

mod common;

mod compose_tmux;
mod conversations_tmux;
mod demo;
mod docs_refs;
mod fake_seat_tmux;
mod feed_cli;
mod feed_stats;
mod first_contact;
mod geminiignore;
mod handover_tmux;
mod hardening;
mod history_concurrency;
mod inbox_agents;
mod inbox_race;
mod inbox_tmux;
mod install_hostile;
mod layers;
mod mcp_approval;
mod mcp_hostile;
mod mcp_seats;
mod mcp_stdio;
mod mux_caller;
mod output_cli;
mod profile_cli;
mod profile_test_cli;
mod real_cli;
mod register_tmux;
mod rename_tmux;
mod route_tmux;
mod schemas;
mod send_cli;
mod send_writes;
mod ssh_reply;
mod ssh_send;
mod ssh_status;
mod ssh_world;
mod status_reports_tmux;
mod status_tmux;
mod transcripts;
mod typed_tmux;
mod up_herdr;
mod up_tmux;
mod vendor_configs;
mod watch_tmux;
mod watch_vendors;
