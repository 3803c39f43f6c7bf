//! The multiplexer as an attacker would use it: a program the environment names, a pane that
//! marks itself as the lead, a server that never answers, a pane in copy mode — and what a
//! trigger must never carry or type over.

use super::{in_pane, scene, within};
use crate::common::tmux::SeatSpec;
use crate::common::World;
use std::time::Duration;

/// A script that answers tmux's pane queries as the lead's pane, and leaves a mark when run.
fn fake_tmux(w: &World) -> std::path::PathBuf {
    let bin = w.base().join("evil-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = bin.join("tmux");
    let ran = w.base().join("fake-tmux-ran");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\ntouch '{}'\n# every process of this tree is \"in\" pane %1, marked as the lead\nfor pid in $(ps -o pid= -e); do printf '%%%%1\\t%s\\tclaude-keeper\\n' \"$pid\"; done\n",
            ran.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    p
}

#[test]
fn a_tmux_the_environment_names_is_never_run() {
    let mut w = World::beacon();
    w.team_file(&crate::common::BEACON.replace("format: 1\n", "format: 1\nmultiplexer: tmux\n"));
    let fake = fake_tmux(&w);
    w.extra_env.push(("TEAM_TMUX_BIN".into(), fake.display().to_string()));
    w.extra_env.push(("TEAM_TMUX_SOCKET".into(), w.base().join("no-server.sock").display().to_string()));
    // first on PATH too: the program is found on the fixed search, never on PATH
    let path = w.env().into_iter().find(|(k, _)| k == "PATH").unwrap().1;
    w.extra_env.push(("PATH".into(), format!("{}:{path}", fake.parent().unwrap().display())));
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["plan"]["rule"], "the owner", "the caller is the owner at a terminal, never the lead");
    assert!(!w.base().join("fake-tmux-ran").exists(), "the program the environment named was run");
}

#[test]
fn a_pane_marking_itself_as_the_lead_vouches_for_no_one_and_the_lead_is_unreachable() {
    let lead = SeatSpec::new("claude-keeper", "claude-code", "takes-line");
    let rev = SeatSpec::new("gpt-reviewer", "codex", "takes-line");
    let s = scene(&[lead, rev], Some("claude-keeper"));
    let lead_pane = s.tw.seat("claude-keeper").pane.clone();
    // An agent's shell marks its own pane as the lead, spelled with the team.
    let (out, code) = in_pane(&s.tw, &s.w, "claude-keeper@beacon", "team send gpt-reviewer 'approve the deploy'");
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("team send: refused: unplaced (its tmux pane %"), "{out}");
    assert!(
        out.contains(&format!(
            "is marked claude-keeper@beacon, and pane {lead_pane} is marked claude-keeper: two panes claim seat claude-keeper of beacon, so neither vouches for it (mark one pane only))"
        )),
        "{out}"
    );
    assert!(s.tw.log("gpt-reviewer").is_empty(), "nothing was typed");
    // The owner's send to the lead reaches neither pane, naming both.
    let r = s.w.team(&["send", "claude-keeper", "status?"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(
            "claude-keeper: unreachable (2 panes of tmux session \"beacon\" are marked as seat \"claude-keeper\": "
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!("{lead_pane} (marked claude-keeper)"))
            && r.stdout.contains("(marked claude-keeper@beacon)"),
        "{}",
        r.stdout
    );
    assert!(s.tw.log("claude-keeper").is_empty(), "nothing was typed into either pane");
}

#[test]
fn a_tmux_server_that_never_answers_is_unreachable_within_a_bound() {
    let mut w = World::beacon();
    w.team_file(&crate::common::BEACON.replace("format: 1\n", "format: 1\nmultiplexer: tmux\nsession: beacon\n"));
    // the default server of a private TMUX_TMPDIR: the owner's environment names no server,
    // and the caller check asks it all the same (a caller that strips its environment is
    // still in its pane): the stopped server is met there, and nothing is written
    let tmpdir = w.base().join("tmux-tmp");
    std::fs::create_dir_all(&tmpdir).unwrap();
    w.extra_env.push(("TMUX_TMPDIR".into(), tmpdir.display().to_string()));
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux").args(args).env("TMUX_TMPDIR", &tmpdir).env_remove("TMUX").output().unwrap()
    };
    assert!(tmux(&["-f", "/dev/null", "new-session", "-d", "-s", "beacon", "sh"]).status.success());
    let pid = String::from_utf8_lossy(&tmux(&["display-message", "-p", "#{pid}"]).stdout).trim().to_string();
    let stop = |sig: &str| assert!(std::process::Command::new("kill").args([sig, &pid]).status().unwrap().success());
    stop("-STOP");
    let (r, took) = within(Duration::from_secs(30), || w.team(&["send", "gpt-reviewer", "hi"]));
    stop("-CONT");
    let _ = tmux(&["kill-server"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stderr,
        "team send: unreachable: tmux did not answer within 5 s: the default tmux server is not responding (stopped or hung); nothing was sent\n",
        "{r:?}"
    );
    assert!(!w.repo.join(".agents/send-drops").exists(), "no drop was written");
    assert!(took >= Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_pane_in_copy_mode_is_held_and_left_alone() {
    let s = scene(&[SeatSpec::new("rev", "codex", "takes-line")], None);
    let pane = s.tw.seat("rev").pane.clone();
    assert!(s.tw.tmux(&["copy-mode", "-t", &pane]).status.success());
    let r = s.w.team(&["send", "rev", "hello"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("rev: held (the pane is in copy mode; nothing was typed; the message is at "),
        "{}",
        r.stdout
    );
    assert!(s.tw.log("rev").is_empty());
    let mode = s.tw.tmux(&["display-message", "-p", "-t", &pane, "#{pane_mode}"]);
    assert_eq!(String::from_utf8_lossy(&mode.stdout).trim(), "copy-mode", "left as it was");
}

#[test]
fn a_checkout_folder_with_a_carriage_return_never_reaches_the_trigger() {
    let mut s = scene(&[SeatSpec::new("rev", "codex", "takes-line")], None);
    // the same checkout, moved to a folder whose name holds a CR (the seat works elsewhere,
    // so the trigger names the drop by its absolute path)
    let odd = s.w.base().join("be\rcon");
    std::fs::rename(&s.w.repo, &odd).unwrap();
    s.w.repo = odd.clone();
    let r = s.w.team(&["send", "rev", "hello"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.starts_with(
            "team send: refused: rev: the trigger line would hold a control character (\\r) from the drop's path \""
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("be\\rcon/.agents/send-drops/beacon/rev/"), "{}", r.stderr);
    assert!(s.tw.log("rev").is_empty(), "nothing typed: half a trigger never submitted");
}

#[test]
fn a_box_holding_an_earlier_trigger_of_ours_is_named_with_its_message() {
    let s = scene(&[SeatSpec::new("rev", "codex", "takes-line")], None);
    let pane = s.tw.seat("rev").pane.clone();
    // a sender killed between typing and Enter left its trigger in the box
    let id = "0f1e2d3c-4b5a-4968-8776-655443322110";
    let earlier = format!("Please read the team message at {}/.agents/send-drops/beacon/rev/{id}", s.w.repo.display());
    assert!(s.tw.tmux(&["send-keys", "-l", "-t", &pane, "--", &earlier]).status.success());
    assert!(s.tw.wait_for_text("rev", "Please read the team", crate::common::BOUND));
    let r = s.w.team(&["send", "rev", "hello"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains(&format!("rev: held (the composer holds the trigger of an earlier message, {id}, typed and never submitted; nothing was typed; clear the box (or press Enter to submit that one")), "{}", r.stdout);
}

#[test]
fn a_twenty_column_codex_pane_is_said_too_narrow_not_still_starting() {
    let s = scene(&[SeatSpec::new("rev", "codex", "takes-line").size(20, 30)], None);
    let r = s.w.team(&["send", "rev", "hello"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains("still starting"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "the pane is 20 columns wide, too narrow to read Codex's status line (widen it to at least 40 columns)"
        ),
        "{}",
        r.stdout
    );
    assert!(s.tw.log("rev").is_empty());
}
