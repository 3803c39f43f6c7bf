//! The ssh test world itself (`common::ssh::SshWorld`): before any test of seats on another
//! host leans on it, it is shown to be what it says — A reaches B only over the world's
//! sshd, with B's identity and home; an unknown host key is refused under BatchMode; B runs a
//! tmux server of its own; with sshd stopped, A cannot connect.

use crate::common::ssh::SshWorld;

#[test]
fn a_reaches_b_over_the_worlds_sshd_and_nothing_else() {
    let mut w = SshWorld::start();
    // A's ssh lands as B, in B's home
    let out = w.ssh_a(&["b", "id -un; echo $HOME"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text, format!("{}\n{}\n", w.b.user, w.b.home.display()));
    // the real home of the test user was never read: A's known_hosts is the world's
    assert!(w.a_home.join(".ssh/known_hosts").exists());
    // the host key is checked: a known_hosts without it is refused, not prompted
    let out = w.ssh_a(&["b-stranger", "true"]);
    assert_eq!(out.status.code(), Some(255));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Host key verification failed"), "{err}");
    // B's own tmux server, as B
    let out = w.b_tmux(&["new-session", "-d", "-s", "beacon", "sh"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = w.b_tmux(&["display-message", "-p", "-t", "beacon", "#{pid}"]);
    let pid: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().expect("tmux server pid");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let uid = status.lines().find_map(|l| l.strip_prefix("Uid:")).unwrap().split_whitespace().next().unwrap();
    assert_eq!(uid, w.b.uid.to_string(), "B's tmux server runs as B");
    // sshd stopped: A cannot connect (reached: the same command succeeded above)
    w.stop_sshd();
    let out = w.ssh_a(&["b", "true"]);
    assert_eq!(out.status.code(), Some(255));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Connection refused"), "{err}");
    // and again, started a second time
    w.start_sshd();
    assert!(w.ssh_a(&["b", "true"]).status.success());
}
