//! The tmux port's unit tests: tmux's own words mapped to the port's errors, and a pane hint
//! judged against the server it names.

use super::*;

/// Answers every call with one exit code and stderr.
struct Answer(i32, &'static str);

impl Runner for Answer {
    fn run(&self, _argv: &[String]) -> std::io::Result<RunOutput> {
        Ok(RunOutput { code: Some(self.0), stdout: Vec::new(), stderr: self.1.as_bytes().to_vec() })
    }
}

#[test]
fn tmux_s_own_words_are_not_a_refusal_s() {
    let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "no current client\n")));
    let p = PaneRef { id: "%1".into(), session: "s".into(), seat: "a".into(), shell_pid: Some(1) };
    let e = t.press_enter(&p).unwrap_err().to_string();
    assert_eq!(e, "tmux send-keys failed: tmux found no pane to act on (no client is attached to name one)");
    assert!(!e.contains("no current client"));
    let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "unknown option -- z\n")));
    assert_eq!(t.press_enter(&p).unwrap_err().to_string(), "tmux send-keys failed: tmux said \"unknown option -- z\"");
}

/// A `TMUX_PANE` is one server's numbering: it claims a pane of the team's server only when
/// the caller's `$TMUX` names that server (by socket where both are paths, else by pid).
#[test]
fn a_pane_hint_names_a_pane_of_the_server_its_tmux_names() {
    let hint = |tmux: Option<&str>| {
        let hints =
            crate::mux::Hints { tmux: tmux.map(Into::into), tmux_pane: Some("%1".into()), ..Default::default() };
        PaneHint::of(&hints).unwrap()
    };
    let own = hint(Some("/tmp/tmux-1000/default,4242,0"));
    assert_eq!((own.socket.as_deref(), own.server), (Some("/tmp/tmux-1000/default"), Some(4242)));
    assert!(!own.names_a_pane_of(Some(77), Some("/tmp/team.sock")), "another socket");
    assert!(!own.names_a_pane_of(Some(77), None), "another server pid, the team's socket a -L name");
    assert!(own.names_a_pane_of(Some(4242), None));
    assert!(own.names_a_pane_of(Some(77), Some("/tmp/tmux-1000/default")), "the socket decides where it can");
    assert!(own.names_a_pane_of(None, None), "nothing to tell them apart: the claim stands");
    let bare = hint(None);
    assert!(bare.names_a_pane_of(Some(77), Some("/tmp/team.sock")), "TMUX_PANE alone: the claim stands");
}

/// tmux's client prints `error connecting to <path> (<strerror>)` (client.c); a sandbox
/// that blocks the socket (Codex's seccomp filter) makes the strerror EPERM's.
#[test]
fn a_socket_the_sandbox_blocks_is_a_sandbox_not_a_stopped_server() {
    let t = Tmux::with_runner(
        "/tmp/t.sock",
        Box::new(Answer(1, "error connecting to /tmp/t.sock (Operation not permitted)\n")),
    );
    assert_eq!(
        t.locate("beacon", "rev").unwrap_err(),
        MuxError::Sandboxed(
            "the tmux server at /tmp/t.sock refused this process's connection (operation not permitted)".into()
        )
    );
    let t =
        Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "error connecting to /tmp/t.sock (Permission denied)\n")));
    assert!(
        matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::Sandboxed(m) if m.ends_with("(permission denied)"))
    );
    let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "no server running on /tmp/t.sock\n")));
    assert!(matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::ServerStopped(_)));
    let t = Tmux::with_runner(
        "/tmp/t.sock",
        Box::new(Answer(1, "error connecting to /tmp/t.sock (No such file or directory)\n")),
    );
    assert!(matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::ServerStopped(_)));
}
