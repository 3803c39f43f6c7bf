//! `team status` of seats on another machine (`host:`), over the real sshd of `common::ssh`:
//! each is read on its own machine by that machine's `team` (`team hop seats`, the
//! `team.status` document there) and shown with its reading and pane, marked as on its host; a
//! host that does not answer says so within the connect timeout; a far `team` of another
//! version says so.

use crate::common::ssh::SshWorld;
use crate::common::World;
use crate::ssh_send::{b_team_answering_as, b_with_reviewer, DELIVER_TEAM};

/// The `team.status` document's entry of `seat`.
fn seat_doc(r: &crate::common::Run, seat: &str) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    doc["seats"].as_array().unwrap().iter().find(|s| s["name"] == seat).cloned().unwrap_or_else(|| panic!("{doc}"))
}

/// B's fake seat idle, then holding a draft: A's `team status` shows each reading as B's own
/// team read it there, with B's pane, marked as on lab; `--json` carries it with the host.
/// Before: `reviewer  -  codex  unknown` and "this build does not read its screen over ssh".
#[test]
fn status_on_a_shows_the_reading_of_a_seat_on_b() {
    let s = SshWorld::start();
    b_with_reviewer(&s, 200);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let r = w.sh(&s.a_team_line("status"));
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.stdout.lines().find(|l| l.trim_start().starts_with("reviewer")).unwrap_or_else(|| panic!("{r:?}"));
    assert!(row.contains(" on lab") && row.contains("idle"), "{r:?}");
    assert!(!r.stdout.contains("does not read its screen"), "{r:?}");
    let j = w.sh(&s.a_team_line("status --json"));
    let d = seat_doc(&j, "reviewer");
    assert_eq!(d["reads"]["state"], "idle", "{d}");
    assert_eq!((d["host"]["name"].as_str(), d["host"]["destination"].as_str()), (Some("lab"), Some("b")), "{d}");
    let pane = d["pane"].as_str().unwrap_or_else(|| panic!("B's pane: {d}")).to_string();
    assert!(pane.starts_with('%'), "{d}");
    // keeper (A's own, no pane here) is read here as before
    assert_eq!(seat_doc(&j, "keeper")["host"], serde_json::Value::Null);

    // text in B's seat's box, never sent: a draft, read on B
    let acted = s.b.home.join("seats/reviewer.acted");
    let before: usize = std::fs::read_to_string(&acted).ok().and_then(|t| t.trim().parse().ok()).unwrap_or(0);
    let typed = "half a thought";
    assert!(s.b_tmux(&["send-keys", "-t", &pane, "-l", typed]).status.success());
    let t = std::time::Instant::now();
    while std::fs::read_to_string(&acted).ok().and_then(|t| t.trim().parse::<usize>().ok()).unwrap_or(0)
        < before + typed.len()
    {
        assert!(t.elapsed() < crate::common::BOUND, "B's seat never took the keys");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let r = w.sh(&s.a_team_line("status"));
    let row = r.stdout.lines().find(|l| l.trim_start().starts_with("reviewer")).unwrap_or_else(|| panic!("{r:?}"));
    assert!(row.contains(&format!("{pane} on lab")) && row.contains("draft: \"half a thought\""), "{r:?}");
    let d = seat_doc(&w.sh(&s.a_team_line("status --json")), "reviewer");
    assert_eq!((d["reads"]["state"].as_str(), d["reads"]["text"].as_str()), (Some("draft"), Some(typed)), "{d}");
    assert!(d["host"]["team_version"].is_string(), "{d}");

    // a far team of another version: still read, and said
    b_team_answering_as(&s, r#"s/"team_version":"[^"]*"/"team_version":"9.9.9"/"#);
    let r = w.sh(&s.a_team_line("status"));
    assert!(r.stdout.contains("lab: its team is 9.9.9, this one "), "{r:?}");
    assert!(r.stdout.lines().any(|l| l.trim_start().starts_with("reviewer") && l.contains("draft")), "{r:?}");
}

/// On the machine whose `<config>/here` names a seat's host, `team status` looks for the seat
/// as its own (no ssh: this test runs none, outside the ssh world).
#[test]
fn status_on_the_seats_own_machine_looks_for_it_here() {
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    w.config_file("here", "lab\n");
    let r = w.team(&["status"]);
    assert!(r.stdout.contains("reviewer"), "{r:?}");
    assert!(!r.stdout.contains("it runs on lab"), "{r:?}");
}

/// `team status` does not look for a seat of another machine in this machine's panes (before:
/// a false `not found`): it asks that machine over ssh — B up without the team: it says what
/// B's team said; sshd stopped: it says so, within the connect timeout.
#[test]
fn status_says_within_the_connect_timeout_whether_the_host_answers() {
    let mut s = SshWorld::start();
    s.install_team_on_b();
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let r = w.sh(&s.a_team_line("status"));
    // B answers, and its team has no team beacon in its registry: said, never `not found` here
    assert!(r.stdout.contains("it runs on lab (b), whose team could not read its seats"), "{r:?}");
    assert!(r.stdout.contains("has no team beacon in its registry"), "{r:?}");
    s.stop_sshd();
    let t = std::time::Instant::now();
    let r = w.sh(&s.a_team_line("status"));
    let took = t.elapsed();
    assert!(r.stdout.contains("which does not answer: ssh could not connect to b: Connection refused"), "{r:?}");
    assert!(took < std::time::Duration::from_secs(5 + 3 + 5), "took {took:?}");
}
