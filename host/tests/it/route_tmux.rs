//! `team route` end to end under tmux: the real binary against fake Claude seats that write a
//! sessions-registry entry and listen on `cc-socks/<pid>.sock` the way the real CLI does, one
//! test per socket state (live, stale, pane, none; unread needs a pane whose processes this
//! machine cannot read, and is `route`'s own unit test), and the record: one line appended to
//! the receiving project's `routes.jsonl` (0600, its folder 0700), the team.log line, nothing
//! on a dry run.

use crate::common;
use crate::common::tmux::SeatSpec;
use crate::register_tmux::{in_world, restart_in_pane, scene, Scene, SEATS};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

impl Scene {
    fn route(&self, args: &[&str]) -> common::Run {
        let mut a = vec!["route"];
        a.extend_from_slice(args);
        self.w.team(&a)
    }
    fn routes_file(&self) -> Option<PathBuf> {
        std::fs::read_dir(&self.w.config).ok()?.flatten().map(|e| e.path().join("routes.jsonl")).find(|p| p.exists())
    }
    fn routes(&self) -> Vec<Value> {
        let Some(p) = self.routes_file() else { return Vec::new() };
        std::fs::read_to_string(p).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

/// The seat's fake Claude, started with `--native <native>`, registered.
fn registered(native: &str) -> Scene {
    let s = scene(SEATS, &[]);
    let mut tw = s.tw;
    let spec = in_world(&s.w, SeatSpec::new("claude-keeper", "claude-code", "takes-line"));
    tw.add_seat(native_spec(spec, native));
    let s = Scene { w: s.w, tw };
    let r = s.register(&["claude-keeper"]);
    assert_eq!(r.code, 0, "{r:?}");
    s
}

/// A fake seat spec whose command line carries `--native <native>` (TmuxWorld builds the seat's
/// command as `fake-seat --cli … --mode <mode> …`, a shell line: the flag rides with the mode).
fn native_spec(spec: SeatSpec, native: &str) -> SeatSpec {
    let mode = format!("{} --native {native}", spec.mode);
    SeatSpec { mode, ..spec }
}

#[test]
fn a_live_socket_is_routed_and_recorded() {
    let s = registered("full");
    let pid = s.cli_pid("claude-keeper");
    let pane = s.pane("claude-keeper");
    let sock = s.w.base().join("run/cc-socks").join(format!("{pid}.sock"));
    let repo = s.w.repo.file_name().unwrap().to_string_lossy().into_owned();
    let name = format!("{repo}-{:02x}", pid % 256);
    let agent = s.state()["sessions"]["beacon"]["seats"]["claude-keeper"]["id"].as_str().unwrap().to_string();

    // a dry run answers the same and writes nothing
    let r = s.route(&["claude-keeper", "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    let routes = s.w.config.join(team::history::project_dir_name("beacon", &s.w.repo)).join("routes.jsonl");
    let expect = |tail: &str| {
        format!(
            "team beacon, session \"beacon\"\nclaude-keeper: agent {agent}, session {name}, cli claude-code, pane {pane}\nclaude-keeper: socket live: the recorded address, held by its own process in the pane\nclaude-keeper: native yes, admitted by: the owner\nclaude-keeper: routed at {} (live)\n{tail}",
            sock.display()
        )
    };
    assert_eq!(
        r.stdout,
        expect(&format!(
            "+ record: claude-keeper: append the route to {}\ndry run: nothing was run\n",
            routes.display()
        ))
    );
    assert!(s.routes_file().is_none(), "a dry run writes nothing");
    let log_before = s.log();

    let r = s.route(&["claude-keeper"]);
    assert_eq!((r.stdout.as_str(), r.stderr.as_str(), r.code), (expect("").as_str(), "", 0));
    let lines = s.routes();
    assert_eq!(lines.len(), 1);
    let l = &lines[0];
    assert_eq!(l["from"], "owner");
    assert_eq!(l["to"], "claude-keeper");
    assert_eq!(l["agent"], agent.as_str());
    assert_eq!(l["rule"], "the owner");
    assert_eq!(l["pane"], pane.as_str());
    assert_eq!(l["address"], sock.to_str().unwrap());
    assert_eq!(l["state"], "live");
    assert_eq!(l["native"], true);
    assert_eq!(l["recipient_session"], name.as_str());
    assert_eq!(l["ts"], common::NOW);
    let file = s.routes_file().unwrap();
    assert_eq!(file, routes);
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::metadata(file.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    // the team.log line: a lookup, never a delivery word
    let log = s.log();
    let new: Vec<&str> = log.lines().skip(log_before.lines().count()).collect();
    assert_eq!(new.len(), 1, "{log}");
    let line: Value = serde_json::from_str(new[0]).unwrap();
    assert_eq!(line["command"], "route");
    assert_eq!(line["detail"], "looked up claude-keeper: live, native yes");
    assert!(!new[0].contains("delivered"));
    // --json: the answer as one document, its schema's
    let r = s.route(&["claude-keeper", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!((doc["socket_state"].as_str(), doc["recipient_session"].as_str()), (Some("live"), Some(name.as_str())));
    assert_eq!(s.routes().len(), 2, "every route is one record");
    // nothing was ever typed into the pane, and the socket was never dialed
    assert!(s.tw.log("claude-keeper").is_empty());
}

#[test]
fn a_killed_claude_leaves_a_stale_socket_and_a_restarted_one_is_not_the_recorded_address() {
    let s = registered("full");
    let old = s.cli_pid("claude-keeper");
    let sock = s.w.base().join("run/cc-socks").join(format!("{old}.sock"));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(old as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    // the CLI gone from its pane: no address is answered at all
    assert!(s.tw.wait_until(crate::common::BOUND, || !std::path::Path::new(&format!("/proc/{old}")).exists()));
    let r = s.route(&["claude-keeper"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stderr,
        format!("team route: claude-keeper: pane {} runs no `claude`, the CLI its record names (claude-code); no address was answered\n", s.pane("claude-keeper"))
    );
    assert!(sock.exists(), "a killed process leaves its socket behind");
    // the CLI started again in the same pane: the recorded address is stale, never swapped
    restart_in_pane(&s, "claude-keeper", "full");
    let r = s.route(&["claude-keeper"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("claude-keeper: socket stale: the recorded address, and its process is gone from the pane; do not dial it\n"), "{}", r.stdout);
    assert!(r.stdout.ends_with(&format!("claude-keeper: routed at {} (stale)\n", sock.display())), "{}", r.stdout);
    assert_eq!(s.routes().last().unwrap()["state"], "stale");
}

#[test]
fn a_socket_no_record_names_is_the_panes_and_none_is_none() {
    // no sessions-registry entry: register records no address; the pane's one socket is answered
    let s = registered("socket-only");
    let pid = s.cli_pid("claude-keeper");
    assert!(!s.agent("claude-keeper").contains("socket: /"), "{}", s.agent("claude-keeper"));
    let r = s.route(&["claude-keeper"]);
    assert_eq!(r.code, 0, "{r:?}");
    let sock = s.w.base().join("run/cc-socks").join(format!("{pid}.sock"));
    assert!(
        r.stdout.contains(
            "claude-keeper: socket found on the pane: none was recorded, and one process of the pane listens on it\n"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.ends_with(&format!("claude-keeper: routed at {} (pane)\n", sock.display())), "{}", r.stdout);
    // no entry: no name the session answers to
    assert!(r.stdout.contains(", session -, cli claude-code,"), "{}", r.stdout);

    let s = registered("none");
    let r = s.route(&["claude-keeper", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(
        (doc["socket_state"].as_str(), doc["address"].as_str(), doc["native"].as_bool()),
        (Some("none"), None, Some(true))
    );
    assert_eq!(doc["action_summary"], "claude-keeper: routed at no socket (none)");
    assert_eq!(s.routes()[0]["state"], "none");
}

#[test]
fn a_codex_seat_is_routed_native_no_and_a_seat_with_no_record_is_refused() {
    let s = scene(SEATS, &[SeatSpec::new("gpt-reviewer", "codex", "takes-line")]);
    let r = s.route(&["gpt-reviewer"]);
    assert_eq!(
        r.stderr,
        "team route: gpt-reviewer: the registry holds no record of it; a route hands out a recorded address, and team up or team register writes the record\n"
    );
    assert!(s.routes_file().is_none(), "a refusal records nothing");
    assert_eq!(s.register(&["gpt-reviewer"]).code, 0);
    let r = s.route(&["gpt-reviewer", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(
        (doc["native"].as_bool(), doc["recipient_session"].as_str(), doc["socket_state"].as_str()),
        (Some(false), None, Some("none"))
    );
    // admission exactly as a send's: a spec send refuses, route refuses in the same words
    let sent = s.w.team(&["send", "nobody", "hi"]);
    let routed = s.route(&["nobody"]);
    assert_eq!(routed.stderr, sent.stderr.replace("team send:", "team route:"));
    // a run with no terminal and no pane of its own: refused before anything is read
    let r = s.w.team_no_tty(&["route", "gpt-reviewer"]);
    assert_eq!(r.stderr, "team route: only the owner or a seat the send admission admits runs this, from a terminal outside herdr or its own pane\n");
}

/// A route that cannot be written down is not answered: a link standing at `routes.jsonl` is
/// refused, never followed, and no address is printed; a seat marked on two panes is refused.
#[test]
fn a_route_that_cannot_be_recorded_is_refused_and_two_marked_panes_are_not_guessed() {
    let s = registered("full");
    let routes = s.w.config.join(team::history::project_dir_name("beacon", &s.w.repo)).join("routes.jsonl");
    std::fs::create_dir_all(routes.parent().unwrap()).unwrap();
    let elsewhere = s.w.base().join("elsewhere.jsonl");
    std::os::unix::fs::symlink(&elsewhere, &routes).unwrap();
    let log_before = s.log().lines().count();
    let r = s.route(&["claude-keeper"]);
    assert_eq!((r.stdout.as_str(), r.code), ("", 1), "{r:?}");
    assert!(r.stderr.starts_with("team route: claude-keeper: the route could not be written down ("), "{r:?}");
    assert!(r.stderr.ends_with("); no address was answered\n"), "{r:?}");
    assert!(!elsewhere.exists(), "the link was not followed");
    assert_eq!(s.log().lines().count(), log_before, "no lookup was logged");
    std::fs::remove_file(&routes).unwrap();
    // a second pane marked as the seat: herdr or tmux naming it twice is no answer
    let mut tw = s.tw;
    tw.add_seat(in_world(&s.w, SeatSpec::new("twin", "claude-code", "takes-line").mark("claude-keeper")));
    let s = Scene { w: s.w, tw };
    let r = s.route(&["claude-keeper"]);
    assert_eq!(
        r.stderr,
        "team route: claude-keeper: tmux names 2 panes claude-keeper in session \"beacon\"; no address was answered\n"
    );
}
