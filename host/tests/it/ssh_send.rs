//! Sends to a seat on another machine (`host:`), over the real sshd of `common::ssh`: every
//! way the hop can fail to reach the far side's `team` ends `unreachable (…; nothing was
//! sent)` with its repair, one history line on A under the send's id, and nothing run on B.

use crate::common::ssh::SshWorld;
use crate::common::World;

const TEAM: &str = "project: beacon
multiplexer: tmux
hosts:
  lab: b
seats:
  - name: keeper
    cli: claude-code
  - name: reviewer
    cli: codex
    host: lab
  - name: stranger
    cli: codex
    host: b-stranger
";

/// The last history line A wrote.
fn last(w: &World) -> serde_json::Value {
    w.history().pop().expect("a history line on A")
}

fn send(s: &SshWorld, w: &World, seat: &str) -> crate::common::Run {
    w.sh(&s.a_team_line(&format!("send {seat} 'hello from A'")))
}

#[test]
fn every_hop_that_does_not_reach_the_far_team_is_unreachable_and_sends_nothing() {
    let mut s = SshWorld::start();
    let w = World::empty();
    w.team_file(TEAM);

    // an unknown host key: refused by ssh under BatchMode, never asked (first: once A holds a
    // control connection to 127.0.0.1:2222 as B, b-stranger's %C is the same and reuses it)
    let r = send(&s, &w, "stranger");
    assert!(r.stdout.contains("the host key of b-stranger is not known to ssh; nothing was sent"), "{r:?}");
    assert!(r.stdout.contains("ssh b-stranger true"), "{r:?}");

    // no team on B: ssh reached B (its finder ran), and said so
    let r = send(&s, &w, "reviewer");
    assert!(r.stdout.contains("unreachable"), "{r:?}");
    assert!(r.stdout.contains("no team is installed on b; nothing was sent"), "{r:?}");
    assert!(r.stdout.contains("install team on b"), "{r:?}");
    let h = last(&w);
    assert_eq!(h["outcome"], "unreachable", "{h}");
    assert_eq!(h["to"], "reviewer");
    assert!(!h["id"].as_str().unwrap_or("").is_empty(), "{h}");

    // B's team, a build without the hop (624aaa7's words and exit for an unknown
    // subcommand, measured): reached, refused, nothing sent
    s.install_script_on_b(
        "team",
        "#!/bin/sh\nprintf \"error: unrecognized subcommand '%s'\\n\\nUsage: team <COMMAND>\\n\\nFor more information, try '--help'.\\n\" \"$1\" >&2\nexit 2\n",
    );
    let r = send(&s, &w, "reviewer");
    assert!(r.stdout.contains("the team on b does not carry seats on another machine"), "{r:?}");
    assert!(r.stdout.contains("nothing was sent"), "{r:?}");
    assert!(!s.b.home.join(".config/team").exists(), "B's team wrote nothing");

    // sshd stopped: cannot connect
    s.stop_sshd();
    let r = send(&s, &w, "reviewer");
    assert!(r.stdout.contains("ssh could not connect to b: Connection refused; nothing was sent"), "{r:?}");
    assert_eq!(last(&w)["outcome"], "unreachable");
    assert_eq!(w.history().len(), 4, "one line per send");
}

/// A seat whose `host:` ssh could read as an option is refused before ssh runs: the
/// `ProxyCommand` it carries never runs (its mark is never written), and nothing is sent.
#[test]
fn a_host_ssh_could_read_as_an_option_is_refused_and_ssh_never_runs() {
    let w = World::empty();
    let mark = w.base().join("proxy-ran");
    w.team_file(&format!(
        "project: beacon\nmultiplexer: tmux\nseats:\n  - name: keeper\n    cli: claude-code\n  - name: sneaky\n    cli: codex\n    host: \"-oProxyCommand=touch {}\"\n",
        mark.display()
    ));
    let r = w.team(&["send", "sneaky", "hi"]);
    assert!(r.stdout.contains("refused") || r.stderr.contains("refused"), "{r:?}");
    assert!(format!("{r:?}").contains("is not an ssh destination"), "{r:?}");
    assert!(format!("{r:?}").contains("nothing was sent"), "{r:?}");
    assert_ne!(r.code, 0, "{r:?}");
    assert!(!mark.exists(), "the ProxyCommand ran");
    assert!(w.history().is_empty(), "a refusal writes no history line");
}

/// The first id the world's seeded ids give on A (the question of the reply tests, the first send
/// of the cut tests).
pub(crate) const Q: &str = "00000000-0000-4007-8000-000000000000";

/// The team file of A and B for the delivery tests: keeper (A) leads; reviewer is on `lab`
/// (B); `intruder`, in A's copy only, leads too — B's copy does not have it.
pub(crate) const DELIVER_TEAM: &str = "project: beacon
multiplexer: tmux
hosts:
  lab: b
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: reviewer
    cli: codex
    host: lab
";

/// B's world for a delivery: team installed there, its checkout and registry, and a fake
/// codex seat `reviewer` in B's own tmux server.
/// B's world for a cut: as [`b_with_reviewer`], the seat's turn held open until the file this
/// returns exists (the test writes it after its cut: no time window, whatever the load).
pub(crate) fn b_with_held_reviewer(s: &SshWorld) -> std::path::PathBuf {
    s.install_team_on_b();
    s.b_team(DELIVER_TEAM);
    let held = s.b.home.join("turn-may-end");
    s.b_fake_seat_as("reviewer", "codex", "takes-line", 200, &["--turn-held-until", held.to_str().unwrap()]);
    held
}

pub(crate) fn b_with_reviewer(s: &SshWorld, delay_ms: u64) {
    s.install_team_on_b();
    s.b_team(DELIVER_TEAM);
    s.b_fake_seat("reviewer", "codex", delay_ms);
}

pub(crate) fn times_in(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn the_owner_on_a_reaches_a_fake_seat_on_b_delivered_with_one_id_on_both_sides() {
    let s = SshWorld::start();
    b_with_reviewer(&s, 200);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let r = w.sh(&s.a_team_line("send reviewer 'hello from A'"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("delivered"), "{r:?}");
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "one trigger typed on B: {got:?}");
    let a = w.history().pop().expect("A's line");
    let b = s.b_history().pop().expect("B's line");
    assert_eq!(a["id"], b["id"], "one id on both sides: {a} / {b}");
    assert_eq!(a["outcome"], "delivered", "{a}");
    assert_eq!(a["via"], "ssh", "{a}");
    assert_eq!(b["outcome"], "delivered", "{b}");
    assert_eq!(b["via"], "typed", "{b}");
    assert_eq!(b["from"], "owner", "{b}");
    // the feed on A names the hop, the machine and the far side's leg; B's names where it came
    // from (before: `delivered (via ssh)` on A, `delivered (via typed)` on B)
    let f = w.sh(&s.a_team_line("feed"));
    assert!(f.stdout.contains("delivered (via ssh to lab, typed there"), "{f:?}");
    assert_eq!((a["to_host"].as_str(), a["far_via"].as_str()), (Some("lab"), Some("typed")), "{a}");
    assert_eq!(b["over_ssh"], true, "{b}");
    let team = s.b.home.join(".local/bin/team");
    let fb = s.b_cmd(team.to_str().unwrap()).arg("feed").current_dir(s.b.home.join("beacon")).output().unwrap();
    let fb = String::from_utf8_lossy(&fb.stdout).to_string() + &String::from_utf8_lossy(&fb.stderr);
    assert!(fb.contains("delivered (via typed") && fb.contains(", over ssh"), "{fb}");

    // the same request handed to B again never types again: it answers what became of it
    let id = a["id"].as_str().unwrap();
    let req = serde_json::json!({"hop":1,"team_version":"x","id":id,"here":"lab","team":"beacon","seat":"reviewer",
        "from":{"kind":"owner"},"body":"hello again"});
    let again = s
        .a_cmd("ssh")
        .args(["-o", "BatchMode=yes", "b", ".local/bin/team hop deliver"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(req.to_string().as_bytes()).unwrap();
            c.wait_with_output().unwrap()
        })
        .unwrap();
    let ans: serde_json::Value = serde_json::from_slice(&again.stdout).expect("an answer document");
    assert_eq!(ans["state"]["state"], "ended", "{ans}");
    assert_eq!(ans["state"]["outcome"], "delivered", "{ans}");
    assert_eq!(ans["state"]["already"], true, "{ans}");
    let st = w.sh(&s.a_team_line(&format!("hop status {id} --host lab")));
    assert!(st.stdout.contains("\"already\":true"), "{st:?}");
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "never typed twice: {got:?}");
    assert_eq!(s.b_history().len(), 1, "one line on B");
}

/// A's world with a tmux pane a seat's run stands in (`as_seat`), and `file` as its team file.
fn a_with_panes(file: &str) -> World {
    let mut w = World::empty();
    w.team_file(file);
    let prelude = w.base().join("prelude.sh");
    std::fs::write(&prelude, crate::transcripts::PRELUDE).unwrap();
    w.extra_env.push(("BASH_ENV".into(), prelude.display().to_string()));
    w.tmux_pane();
    w
}

#[test]
fn a_seat_on_a_reaches_a_seat_on_b_and_b_judges_the_sender_again() {
    let s = SshWorld::start();
    b_with_reviewer(&s, 200);
    // A's copy has a second lead B's copy does not have
    let a_file = DELIVER_TEAM.replace(
        "  - name: reviewer\n",
        "  - name: intruder\n    cli: claude-code\n    leads: true\n  - name: reviewer\n",
    );
    let w = a_with_panes(&a_file);
    let r = w.sh(&format!("as_seat keeper {}", s.a_team_line("send reviewer 'from keeper on A'")));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("delivered"), "{r:?}");
    let b = s.b_history().pop().expect("B's line");
    assert_eq!(b["from"], "keeper", "{b}");
    assert_eq!(b["outcome"], "delivered", "{b}");
    assert_eq!(w.history().pop().unwrap()["id"], b["id"]);

    // intruder: admitted on A (a lead of A's copy), refused on B, whose file does not have it
    // (a fresh id: the world's ids are seeded, and B would answer the first send's id `already`)
    let r = w.sh(&format!("as_seat intruder env TEAM_ID_SEED=8 {}", s.a_team_line("send reviewer 'let me in'")));
    assert_ne!(r.code, 0, "{r:?}");
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(
        said.contains("the team on b refused it: intruder@beacon is no seat of the team file on the machine lab"),
        "{r:?}"
    );
    assert!(said.contains("nothing was sent"), "{r:?}");
    assert_eq!(s.b_history().len(), 1, "no line on B for a refused sender");
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "only keeper's was typed: {got:?}");
    assert!(!got.contains("let me in"));
}

/// The connection cut after B typed: A's send reads B's outcome back by the message id (B
/// never types it again), and a second hand-over of the same id answers `already`.
#[test]
fn a_cut_after_b_typed_is_read_back_by_id_and_never_retyped() {
    let s = SshWorld::start();
    // the seat's turn is held open until the test lets it end (after the cut): B's leg is still
    // running when A cuts, whatever the load (before: a 15 s window, once too short at 4 s)
    let held = b_with_held_reviewer(&s);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let out_file = w.base().join("send.out");
    let started = w.start(
        &format!("{} 2>&1", s.a_team_line("send reviewer 'cut me off'")),
        std::process::Stdio::from(std::fs::File::create(&out_file).unwrap()),
        std::process::Stdio::null(),
    );
    let log = s.b_seat_log("reviewer");
    let t = std::time::Instant::now();
    while !std::fs::read_to_string(&log).unwrap_or_default().contains("Please read the team message at") {
        assert!(t.elapsed() < crate::common::BOUND * 2, "B's seat never got the line");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    kill_master(&s, &w);
    // A's send is in its read-back now (B's claim stands, its leg not ended): the turn may end
    assert!(s.b_history().is_empty(), "B's leg ended before the cut: {:?}", s.b_history());
    std::fs::write(&held, "").unwrap();
    let code = started.code(crate::common::BOUND * 12).expect("the send ended");
    let out = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("delivered"), "{out}");
    let a = w.history().pop().expect("A's line");
    assert_eq!(a["outcome"], "delivered", "{a}");
    let log_a = std::fs::read_to_string(w.repo.join(".agents/team.log")).unwrap_or_default();
    assert!(log_a.contains("its outcome read back by id"), "{log_a}");
    let b = s.b_history();
    assert_eq!(b.len(), 1, "{b:?}");
    assert_eq!(b[0]["id"], a["id"]);
    let got = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "typed once: {got:?}");
}

/// The cut: A's control connection killed (its master's pid, as `ssh -O check` names it).
fn kill_master(s: &SshWorld, w: &World) {
    let control = w.state.join("ssh/%C");
    let check = s
        .a_cmd("ssh")
        .args(["-o", &format!("ControlPath={}", control.display()), "-O", "check", "b"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stderr).to_string();
    let pid: i32 = said
        .split("pid=")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no master: {said}"));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGKILL).unwrap();
}

/// B's `team` as another build would answer: the real one, its answers rewritten by `sed`.
pub(crate) fn b_team_answering_as(s: &SshWorld, sed: &str) {
    let bin = s.b.home.join(".local/bin");
    std::fs::rename(bin.join("team"), bin.join("team-real")).unwrap();
    s.install_script_on_b("team", &format!("#!/bin/sh\n\"$HOME/.local/bin/team-real\" \"$@\" | sed '{sed}'\n"));
}

/// A far side whose `team` is another version says so; one of another hop protocol is
/// unreachable with the repair, and nothing is typed there; the real far side refuses a
/// request of another protocol without running a leg.
#[test]
fn a_far_team_of_another_version_says_so_and_another_protocol_sends_nothing() {
    let s = SshWorld::start();
    b_with_reviewer(&s, 200);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);

    // the real far side, a request of hop protocol 2: refused, nothing run
    let req = serde_json::json!({"hop":2,"team_version":"9.9.9","id":"future-1","here":"lab","team":"beacon",
        "seat":"reviewer","from":{"kind":"owner"},"body":"from the future","extra":{"new":"field"}});
    let ans = hop_deliver(s.a_cmd("ssh"), "b", &req);
    assert_eq!(ans["hop"], 1, "{ans}");
    assert_eq!(ans["state"]["state"], "refused", "{ans}");
    assert!(ans["state"]["why"].as_str().unwrap().contains("speaks hop protocol 1, the request 2"), "{ans}");

    // same protocol, another version: delivered, and said
    b_team_answering_as(&s, r#"s/"team_version":"[^"]*"/"team_version":"9.9.9"/"#);
    let r = w.sh(&s.a_team_line("send reviewer 'hello, other version'"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("reviewer: delivered; the team on lab is 9.9.9, this one"), "{r:?}");

    // another protocol: unreachable, its repair, nothing typed (reached: B answered)
    s.install_script_on_b(
        "team",
        "#!/bin/sh\ncat >/dev/null\necho '{\"hop\":2,\"team_version\":\"9.9.9\",\"id\":\"x\",\"state\":{\"state\":\"refused\",\"why\":\"this team speaks hop protocol 2, the request 1\"}}'\n",
    );
    let r = w.sh(&format!("env TEAM_ID_SEED=9 {}", s.a_team_line("send reviewer 'hello, other protocol'")));
    assert_ne!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("the team on b is 9.9.9 and speaks hop protocol 2, this one is")
            && r.stdout.contains("nothing was sent — install the same team on both machines"),
        "{r:?}"
    );
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "only the first was typed: {got:?}");
}

/// A cut A could not read back (B's listener gone too) leaves A's line in doubt; `team watch`
/// on A then asks B by the id before anything else and writes B's answer down under the same
/// id — the message is never typed twice, and a second pass asks and writes nothing more.
#[test]
fn a_hop_left_in_doubt_is_read_back_by_the_watch_and_never_retyped() {
    let mut s = SshWorld::start();
    let held = b_with_held_reviewer(&s);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let out_file = w.base().join("send.out");
    let started = w.start(
        &format!("{} 2>&1", s.a_team_line("send reviewer 'cut me off'")),
        std::process::Stdio::from(std::fs::File::create(&out_file).unwrap()),
        std::process::Stdio::null(),
    );
    let log = s.b_seat_log("reviewer");
    let t = std::time::Instant::now();
    while !std::fs::read_to_string(&log).unwrap_or_default().contains("Please read the team message at") {
        assert!(t.elapsed() < crate::common::BOUND * 2, "B's seat never got the line");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // no new connection is taken (the read-back cannot ask), then the connection is cut
    s.stop_listener();
    kill_master(&s, &w);
    assert!(s.b_history().is_empty(), "B's leg ended before the cut: {:?}", s.b_history());
    std::fs::write(&held, "").unwrap();
    started.code(crate::common::BOUND * 12).expect("the send ended");
    let out = std::fs::read_to_string(&out_file).unwrap();
    let a = w.history().pop().expect("A's line");
    assert_eq!(a["outcome"], "not-submitted", "{a}\n{out}");
    assert!(a["note"].as_str().unwrap_or("").starts_with("in doubt"), "{a}\n{out}");
    // the line names the leg it was left in doubt on (before: no via at all)
    assert_eq!(a["via"], "ssh", "{a}");
    // and says what ended (before: `ssh to b failed: , and asking again: …`)
    assert!(!a["note"].as_str().unwrap_or("").contains("failed: ,"), "{a}");
    // B's leg ends on its own
    let t = std::time::Instant::now();
    while s.b_history().first().map(|b| b["outcome"] != "delivered").unwrap_or(true) {
        assert!(t.elapsed() < crate::common::BOUND * 2, "B never wrote its line: {:?}", s.b_history());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // B cannot be asked yet: the watch says so, writes nothing and carries nothing
    let doubt = w.sh(&s.a_team_line("watch --once"));
    assert!(format!("{}{}", doubt.stdout, doubt.stderr).contains("is still in doubt"), "{doubt:?}");
    assert_eq!(w.history().len(), 1, "{:?}", w.history());
    s.start_sshd();
    let r = w.sh(&s.a_team_line("watch --once"));
    assert_eq!(r.code, 0, "{r:?}");
    let h = w.history();
    let last = h.last().expect("A's lines");
    assert_eq!(h.len(), 2, "one line more on A, B's answer: {h:?}\n{r:?}");
    assert_eq!(last["id"], a["id"], "{last}");
    assert_eq!(last["outcome"], "delivered", "{last}");
    assert_eq!(last["via"], "ssh", "{last}");
    assert!(r.stdout.contains("read back from lab by its id: delivered"), "{r:?}");
    eprintln!("still in doubt: {doubt:?}\nread back: {r:?}");
    let got = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "typed once: {got:?}");
    assert_eq!(s.b_history().len(), 1, "one line on B: {:?}", s.b_history());
    // the answer is on A's disk: the next pass asks nothing and says nothing
    let again = w.sh(&s.a_team_line("watch --once"));
    assert_eq!(again.code, 0, "{again:?}");
    assert!(!again.stdout.contains("read back"), "{again:?}");
    assert_eq!(w.history().len(), 2, "{:?}", w.history());
}

/// A hop cut before B took the id (B's `team hop deliver` never got to claim it) and left in
/// doubt: the watch asks B, B never took it — nothing was sent under the id — so the watch
/// carries it again under the same id (B's once-only key), as its try 1 of 3: delivered, typed
/// once on B, one id on both sides. Before: A's line ended `unreachable (… never took …;
/// nothing was sent)` and the message was never sent.
#[test]
fn a_hop_left_in_doubt_that_b_never_took_is_sent_again_under_the_same_id() {
    let mut s = SshWorld::start();
    b_with_reviewer(&s, 200);
    let bin = s.b.home.join(".local/bin");
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let (started, started_file, out_file) = send_to_a_hung_deliver(&s, &w, "never taken");
    s.stop_listener();
    kill_master(&s, &w);
    started.code(crate::common::BOUND * 12).expect("the send ended");
    // the hung deliver (its pid, the script's, kept by exec) ends with the test
    let hung: i32 = std::fs::read_to_string(&started_file).unwrap().trim().parse().unwrap();
    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(hung), nix::sys::signal::SIGKILL);
    let out = std::fs::read_to_string(&out_file).unwrap();
    let a = w.history().pop().expect("A's line");
    assert!(a["note"].as_str().unwrap_or("").starts_with("in doubt"), "{a}\n{out}");
    assert!(!s.b.home.join(format!(".local/state/team/hop/{Q}.claim")).exists(), "B never claimed it");
    // B's own team again (the hang was a test double's), B reachable again
    std::fs::rename(bin.join("team-real"), bin.join("team")).unwrap();
    s.start_sshd();
    let r = w.sh(&s.a_team_line("watch --once"));
    assert_eq!(r.code, 0, "{r:?}");
    let h = w.history();
    let last = h.last().expect("A's lines");
    assert_eq!((h.len(), &last["id"]), (2, &a["id"]), "{h:?}\n{r:?}");
    assert_eq!(last["outcome"], "delivered", "{last}\n{r:?}");
    assert_eq!((last["via"].as_str(), last["retry"].as_u64()), (Some("ssh"), Some(1)), "{last}");
    assert!(r.stdout.contains("was never taken on lab: sent again under its id (try 1 of 3): delivered"), "{r:?}");
    assert!(r.stdout.contains("one pass: 1 retried"), "{r:?}");
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "typed once on B: {got:?}");
    let b = s.b_history();
    assert_eq!((b.len(), &b[0]["id"], &b[0]["outcome"]), (1, &a["id"], &"delivered".into()), "{b:?}");
    assert!(b[0]["body"].as_str().unwrap_or("").ends_with("\n\nnever taken"), "the message as it was sent: {b:?}");
    // the answer is on A's disk: the next pass asks nothing and sends nothing
    let again = w.sh(&s.a_team_line("watch --once"));
    assert!(!again.stdout.contains("sent again") && !again.stdout.contains("read back"), "{again:?}");
    assert_eq!(w.history().len(), 2, "{:?}", w.history());
}

/// A first send cut before B claimed the id, B still answering: A cannot know whether B's
/// `team hop deliver` holds the request (it may claim it yet), so B's "not taken" is no proof
/// that nothing was sent — A's line is in doubt, never `unreachable`; `team watch` then asks B
/// again and, B still not having taken it, sends it again under the same id: delivered, typed
/// once. Before: `unreachable (… the team on b never took <id>; nothing was sent)`, never resent.
#[test]
fn a_first_send_cut_before_b_took_it_is_in_doubt_and_the_watch_sends_it_again() {
    let s = SshWorld::start();
    b_with_reviewer(&s, 200);
    let bin = s.b.home.join(".local/bin");
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let (r, started_file, out_file) = send_to_a_hung_deliver(&s, &w, "not yet taken");
    // the cut, B's listener up: A's read-back reaches B, which has not taken the id
    kill_master(&s, &w);
    r.code(crate::common::BOUND * 12).expect("the send ended");
    let hung: i32 = std::fs::read_to_string(&started_file).unwrap().trim().parse().unwrap();
    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(hung), nix::sys::signal::SIGKILL);
    let out = std::fs::read_to_string(&out_file).unwrap();
    let a = w.history().pop().expect("A's line");
    let note = a["note"].as_str().unwrap_or("");
    assert_eq!((a["outcome"].as_str(), a["via"].as_str()), (Some("not-submitted"), Some("ssh")), "{a}\n{out}");
    assert!(note.starts_with("in doubt") && note.contains(&format!("b had not taken {Q} when asked")), "{a}");
    assert!(!note.contains("nothing was sent"), "{a}");
    std::fs::rename(bin.join("team-real"), bin.join("team")).unwrap();
    let r = w.sh(&s.a_team_line("watch --once"));
    assert!(r.stdout.contains("was never taken on lab: sent again under its id (try 1 of 3): delivered"), "{r:?}");
    let last = w.history().pop().expect("A's lines");
    assert_eq!((last["id"].as_str(), last["outcome"].as_str()), (Some(Q), Some("delivered")), "{last}");
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert_eq!(times_in(&got, "Please read the team message at"), 1, "typed once on B: {got:?}");
    assert_eq!(s.b_history().len(), 1, "{:?}", s.b_history());
}

/// The far `team hop deliver` at `dest`, run by `ssh` (one machine's client) with `req` on its
/// stdin, as the near side runs it; answers its answer document.
pub(crate) fn hop_deliver(mut ssh: std::process::Command, dest: &str, req: &serde_json::Value) -> serde_json::Value {
    let mut c = ssh
        .args(["-o", "BatchMode=yes", dest, ".local/bin/team hop deliver"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut c.stdin.take().unwrap(), req.to_string().as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).expect("an answer document")
}

/// A's send of `body` to reviewer, started in the background, with B's `team hop deliver`
/// hanging before it reads its request (so it never claims the id; B's real `team`, kept as
/// `team-real`, runs every other command); answers once B's deliver has started: the running
/// send, the file B's deliver wrote its pid to, and the send's output file.
fn send_to_a_hung_deliver(
    s: &SshWorld,
    w: &World,
    body: &str,
) -> (crate::common::Started, std::path::PathBuf, std::path::PathBuf) {
    let bin = s.b.home.join(".local/bin");
    std::fs::rename(bin.join("team"), bin.join("team-real")).unwrap();
    let started_file = s.b.home.join("deliver-started");
    s.install_script_on_b(
        "team",
        "#!/bin/sh\nif [ \"$1 $2\" = 'hop deliver' ]; then echo $$ > \"$HOME/deliver-started.tmp\"; mv \"$HOME/deliver-started.tmp\" \"$HOME/deliver-started\"; exec sleep 600; fi\nexec \"$HOME/.local/bin/team-real\" \"$@\"\n",
    );
    let out_file = w.base().join("send.out");
    let started = w.start(
        &format!("{} 2>&1", s.a_team_line(&format!("send reviewer '{body}'"))),
        std::process::Stdio::from(std::fs::File::create(&out_file).unwrap()),
        std::process::Stdio::null(),
    );
    let t = std::time::Instant::now();
    while !started_file.exists() {
        assert!(t.elapsed() < crate::common::BOUND * 2, "B's deliver never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (started, started_file, out_file)
}
