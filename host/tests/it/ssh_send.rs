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

    // B's team, a version without the hop: reached, refused, nothing sent
    s.install_team_on_b();
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
