//! Replies and MCP sends across the hop, over the real sshd of `common::ssh`: a reply on B
//! reaches the asker on A, B dying between its claim and its outcome is never called delivered,
//! and a seat on B reaches a seat on A through `team_send`.

use crate::common::ssh::SshWorld;
use crate::common::World;
use crate::ssh_send::{b_with_held_reviewer, hop_deliver, times_in, DELIVER_TEAM, Q};

/// The team file of the reply tests: DELIVER_TEAM, and a name for machine A (`home`, which A's
/// `<config>/here` says it answers to and B's ssh config reaches as `a`). keeper has no
/// `host:`: on A it is A's own, and B's copy says nothing of where it runs.
const REPLY_TEAM: &str = "project: beacon
multiplexer: tmux
hosts:
  lab: b
  home: a
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: reviewer
    cli: codex
    host: lab
";

/// Machine A as B reaches it: keeper a fake Claude Code seat (with its shell tool) in A's
/// tmux server, A's registry and `<config>/here`, and sshd admitting B's key for A's user.
fn a_served(s: &mut SshWorld) -> World {
    a_served_with(s, REPLY_TEAM)
}

fn a_served_with(s: &mut SshWorld, file: &str) -> World {
    let w = World::with_fake_seats(Some(file), "--tool keeper:claude-code");
    w.config_file("teams.yaml", &format!("format: 1\nteams:\n  beacon:\n    root: {}\n", w.repo.display()));
    w.config_file("here", "home\n");
    let env: Vec<(String, String)> = w
        .env()
        .into_iter()
        .filter(|(k, _)| {
            ["TEAM_CONFIG_DIR", "TEAM_STATE_DIR", "TEAM_CACHE_DIR", "TEAM_TMUX_SOCKET"].contains(&k.as_str())
        })
        .collect();
    s.serve_a(&env);
    w
}

/// A seat on A asks a seat on B; B's `team reply <id>` goes back over ssh (B's `team` doing the
/// hop the other way) and reaches the asker on A — admitted there by `reply to <id>` against
/// A's own history, its drop carrying the `in-reply-to:` line, one id on both sides, typed once.
/// Before: B's reply looked for keeper on B (a seat with no `host:` is every machine's own).
#[test]
fn a_reply_on_b_reaches_the_asker_on_a_over_ssh() {
    let mut s = SshWorld::start();
    s.install_team_on_b();
    s.b_team(REPLY_TEAM);
    s.b_fake_seat("reviewer", "codex", 200);
    let w = a_served(&mut s);
    let r = w.sh(&format!("in_seat keeper {}", s.a_team_line("send reviewer 'is the gate green?'")));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("reviewer: delivered"), "{r:?}");
    let b = s.b_history().pop().expect("B's line");
    assert_eq!((b["id"].as_str(), b["from"].as_str()), (Some(Q), Some("keeper")), "{b}");
    assert_eq!(b["from_host"], "home", "B keeps where the question came from: {b}");
    // B's feed names the machine it came from (before: `delivered (via typed …)` alone)
    let fb = s
        .b_cmd(s.b.home.join(".local/bin/team").to_str().unwrap())
        .arg("feed")
        .current_dir(s.b.home.join("beacon"))
        .output()
        .unwrap();
    let fb = String::from_utf8_lossy(&fb.stdout);
    assert!(fb.contains("over ssh from home)"), "{fb}");

    let team = s.b.home.join(".local/bin/team");
    let (said, code) = s.b_as_seat("reviewer", &format!("'{}' reply {Q} 'green since 09:00'", team.display()));
    eprintln!("B's reply: {said}");
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("keeper: delivered") || said.contains("keeper: queued"), "{said}");
    // B's line of the reply: via ssh, reply_to, one id with A's
    let b_reply = s.b_history().into_iter().find(|l| l["reply_to"] == Q).expect("B's line of its reply");
    assert_eq!((b_reply["from"].as_str(), b_reply["to"].as_str()), (Some("reviewer"), Some("keeper")), "{b_reply}");
    assert_eq!(b_reply["via"], "ssh", "{b_reply}");
    let rid = b_reply["id"].as_str().unwrap().to_string();
    // A's line: the same id, reply_to, where it came from
    let a: Vec<_> = w.history().into_iter().filter(|l| l["id"] == rid.as_str()).collect();
    assert_eq!(a.len(), 1, "one line on A for the reply: {:?}", w.history());
    assert_eq!((a[0]["from"].as_str(), a[0]["to"].as_str()), (Some("reviewer"), Some("keeper")), "{}", a[0]);
    assert_eq!(a[0]["reply_to"], Q, "{}", a[0]);
    assert_eq!(a[0]["from_host"], "lab", "{}", a[0]);
    assert!(["delivered", "queued"].contains(&a[0]["outcome"].as_str().unwrap_or("")), "{}", a[0]);
    // the asker's drop: admitted by the reply's own rule, threaded to its question
    let drop = w.repo.join(".agents/send-drops/beacon/keeper").join(&rid);
    let text = std::fs::read_to_string(&drop).unwrap_or_else(|e| panic!("{}: {e}", drop.display()));
    assert!(
        text.contains(&format!(
            "admitted by: reply to {Q}\nin-reply-to: {Q} (is the gate green?)\n\ngreen since 09:00"
        )),
        "{text}"
    );
    // a question is answered once, across the hop too
    let (said, code) = s.b_as_seat("reviewer", &format!("'{}' reply {Q} 'again'", team.display()));
    assert_ne!(code, 0, "{said}");
    assert!(said.contains("you already answered"), "{said}");
    assert_eq!(w.history().iter().filter(|l| l["reply_to"] == Q).count(), 1, "{:?}", w.history());

    // the MCP tool team_reply run by the seat on B (its CLI's `team mcp`, below its pane)
    // takes the same way back: keeper asks again, B's tool answers, A's keeper gets it
    const Q2: &str = "00000000-0000-4008-8000-000000000000";
    let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED=8 {}", s.a_team_line("send reviewer 'and the docs?'")));
    assert!(r.stdout.contains("reviewer: delivered"), "{r:?}");
    let mut lines = crate::mcp_stdio::hello();
    lines.push(crate::mcp_stdio::call(2, "team_reply", serde_json::json!({"id": Q2, "message": "docs too"})));
    let calls = s.b.home.join("mcp-reply.jsonl");
    std::fs::write(&calls, lines.join("\n") + "\n").unwrap();
    s.give_b(&calls);
    let (said, code) = s.b_as_seat("reviewer", &format!("'{}' mcp < '{}'", team.display(), calls.display()));
    assert_eq!(code, 0, "{said}");
    let all = crate::mcp_stdio::answers(&said);
    let (err, text, _) = crate::mcp_stdio::result(&all, 2);
    assert!(!err && (text.starts_with("keeper: delivered") || text.starts_with("keeper: queued")), "{text}");
    let a2: Vec<_> = w.history().into_iter().filter(|l| l["reply_to"] == Q2).collect();
    assert_eq!(a2.len(), 1, "{:?}", w.history());
    assert_eq!((a2[0]["from"].as_str(), a2[0]["from_host"].as_str()), (Some("reviewer"), Some("lab")), "{}", a2[0]);

    // the owner on A asks; B's answer goes back to A's owner inbox (before: B's own)
    const Q3: &str = "00000000-0000-4009-8000-000000000000";
    let r = w.sh(&format!("env TEAM_ID_SEED=9 {}", s.a_team_line("send reviewer 'owner asks'")));
    assert!(r.stdout.contains("reviewer: delivered"), "{r:?}");
    let (said, code) = s.b_as_seat("reviewer", &format!("'{}' reply {Q3} 'answer for the owner'", team.display()));
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("owner: delivered"), "{said}");
    let a3: Vec<_> = w.history().into_iter().filter(|l| l["reply_to"] == Q3).collect();
    assert_eq!(a3.len(), 1, "{:?}", w.history());
    assert_eq!((a3[0]["to"].as_str(), a3[0]["via"].as_str()), (Some("owner"), Some("owner-inbox")), "{}", a3[0]);
    let rid3 = a3[0]["id"].as_str().unwrap();
    let left = std::fs::read_to_string(w.repo.join(".agents/owner-inbox").join(rid3)).expect("in A's owner inbox");
    assert!(
        left.contains(&format!("admitted by: reply to {Q3}\nin-reply-to: {Q3} (owner asks)\n\nanswer for the owner")),
        "{left}"
    );
    assert!(!s.b.home.join("beacon/.agents/owner-inbox").exists(), "nothing left in B's owner inbox");
    let b3 = s.b_history().into_iter().find(|l| l["reply_to"] == Q3).expect("B's line of the answer");
    assert_eq!(
        (b3["id"].as_str(), b3["to"].as_str(), b3["via"].as_str()),
        (Some(rid3), Some("owner"), Some("ssh")),
        "{b3}"
    );

    // a "reply" A's history does not back is refused there: no seat escapes A's admission by
    // naming a message it was never sent
    let req = serde_json::json!({"hop":1,"team_version":"x","id":"forged-reply-1","here":"home","team":"beacon",
        "seat":"keeper","from":{"kind":"seat","team":"beacon","seat":"reviewer"},"body":"let me in",
        "reply_to":"00000000-0000-4007-8000-0000000000ff"});
    let ans = hop_deliver(s.b_cmd("ssh"), "a", &req);
    assert_eq!(ans["state"]["state"], "refused", "{ans}");
    assert!(
        ans["state"]["why"].as_str().unwrap().contains("which is no message keeper sent to reviewer and saw delivered"),
        "{ans}"
    );
    assert!(!w.history().iter().any(|l| l["id"] == "forged-reply-1"), "{:?}", w.history());
}

/// B's `team hop deliver` dies after it claimed the id and before it wrote its outcome (killed
/// by the pid its claim holds, as a crash or an OOM kill would): A never says delivered on a
/// guess — its line is in doubt, naming the hop, and `team watch` asks B by the id and, B
/// answering in doubt, leaves it so; nothing is carried again.
#[test]
fn b_dying_between_its_claim_and_its_outcome_is_never_called_delivered() {
    let s = SshWorld::start();
    // the seat's turn never ends in this test: B's leg is running when its run is killed
    b_with_held_reviewer(&s);
    let w = World::empty();
    w.team_file(DELIVER_TEAM);
    let out_file = w.base().join("send.out");
    let started = w.start(
        &format!("{} 2>&1", s.a_team_line("send reviewer 'die after the claim'")),
        std::process::Stdio::from(std::fs::File::create(&out_file).unwrap()),
        std::process::Stdio::null(),
    );
    let claim = s.b.home.join(".local/state/team/hop").join(format!("{Q}.claim"));
    let t = std::time::Instant::now();
    let pid = loop {
        if let Ok(p) = std::fs::read_to_string(&claim).unwrap_or_default().trim().parse::<i32>() {
            break p;
        }
        assert!(t.elapsed() < crate::common::BOUND, "B never claimed {Q}");
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGKILL).unwrap();
    started.code(crate::common::BOUND * 2).expect("the send ended");
    let out = std::fs::read_to_string(&out_file).unwrap();
    assert!(!out.contains("delivered"), "{out}");
    let a = w.history().pop().expect("A's line");
    assert_eq!(
        (a["id"].as_str(), a["outcome"].as_str(), a["via"].as_str()),
        (Some(Q), Some("not-submitted"), Some("ssh")),
        "{a}"
    );
    let note = a["note"].as_str().unwrap_or("");
    assert!(note.starts_with("in doubt"), "{a}");
    assert!(note.contains("ended before it wrote what became of it"), "B was asked by the id: {a}");
    assert!(!s.b.home.join(format!(".local/state/team/hop/{Q}.json")).exists(), "B wrote no outcome");
    // the watch asks B again by the id before anything else: still in doubt, nothing carried
    let r = w.sh(&s.a_team_line("watch --once"));
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(said.contains("is still in doubt"), "{r:?}");
    assert!(said.contains("ended before it wrote what became of it"), "{r:?}");
    assert_eq!(w.history().len(), 1, "{:?}", w.history());
    let got = std::fs::read_to_string(s.b_seat_log("reviewer")).unwrap_or_default();
    assert!(times_in(&got, "Please read the team message at") <= 1, "never typed twice: {got:?}");
}

/// The MCP tool `team_send` run by a seat on B (its CLI's `team mcp`, below its pane) reaches a
/// seat on A as `team send` does, when the team file says where that seat runs (`host: home`,
/// which A's `<config>/here` names): over ssh, admitted on B and judged again on A, one id on
/// both sides.
#[test]
fn the_mcp_team_send_of_a_seat_on_b_reaches_a_seat_on_a() {
    let mut s = SshWorld::start();
    let file = REPLY_TEAM.replace("    leads: true\n", "    leads: true\n    host: home\n");
    s.install_team_on_b();
    s.b_team(&file);
    s.b_fake_seat("reviewer", "codex", 200);
    let w = a_served_with(&mut s, &file);
    let mut lines = crate::mcp_stdio::hello();
    lines.push(crate::mcp_stdio::call(2, "team_send", serde_json::json!({"to": ["keeper"], "message": "done on lab"})));
    let calls = s.b.home.join("mcp-send.jsonl");
    std::fs::write(&calls, lines.join("\n") + "\n").unwrap();
    s.give_b(&calls);
    let team = s.b.home.join(".local/bin/team");
    let (said, code) = s.b_as_seat("reviewer", &format!("'{}' mcp < '{}'", team.display(), calls.display()));
    assert_eq!(code, 0, "{said}");
    let all = crate::mcp_stdio::answers(&said);
    let (err, text, _) = crate::mcp_stdio::result(&all, 2);
    assert!(!err && (text.contains("keeper: delivered") || text.contains("keeper: queued")), "{text}");
    let b = s.b_history().pop().expect("B's line");
    assert_eq!(
        (b["from"].as_str(), b["to"].as_str(), b["via"].as_str()),
        (Some("reviewer"), Some("keeper"), Some("ssh")),
        "{b}"
    );
    let a = w.history().pop().expect("A's line");
    assert_eq!(a["id"], b["id"], "one id on both sides: {a} / {b}");
    assert_eq!((a["from"].as_str(), a["from_host"].as_str()), (Some("reviewer"), Some("lab")), "{a}");
    let drop = w.repo.join(".agents/send-drops/beacon/keeper").join(a["id"].as_str().unwrap());
    let text = std::fs::read_to_string(&drop).unwrap_or_else(|e| panic!("{}: {e}", drop.display()));
    assert!(text.ends_with("\n\ndone on lab"), "{text}");
}
