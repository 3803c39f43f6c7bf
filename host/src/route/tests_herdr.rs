//! `team route` on herdr, against herdr 0.8.2's and 0.7.1's recorded outputs (the real Claude
//! Code in `real/`), through the Runner seam: live resolution, the CLI check, and the socket
//! states from the pane's processes. The recorded pids are another machine's, so the listening
//! sockets each holds are given here (the `/proc` reading itself is `native`'s, tested there).
//! Dry runs only: a real run appends to `<config>`, which the integration tests own.

use super::*;
use crate::mux::herdr::replay::{herdr, FixtureRunner, V071, V082};
use crate::mux::Mux;
use crate::profiles::ProfileHost;
use crate::registry::{AgentRecord, Registry};
use std::sync::OnceLock;

const FILE: &str = "format: 1\nproject: beacon\nsession: teamrh\ncoordinator: lead\nseats:\n  - name: lead\n    cli: claude-code\n  - name: rev\n    cli: codex\n";

fn cache() -> &'static Path {
    static D: OnceLock<tempfile::TempDir> = OnceLock::new();
    D.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// The socket the recorded Claude (pid 27322 on 0.8.2, 21268 on 0.7.1) is taken to hold.
const SOCK: &str = "/tmp/cc-socks/27322.sock";

fn route(
    set: &str,
    state: &str,
    socket: Option<&str>,
    listeners: fn(u32) -> Option<Vec<PathBuf>>,
) -> Result<Report, TeamError> {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("beacon");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(root.join(".agents")).unwrap();
    std::fs::write(root.join(".agents/team.yaml"), FILE).unwrap();
    let file = crate::team_file::find(&root).unwrap().unwrap();
    let mut reg = Registry { dir: tmp.path().join("config"), ..Default::default() };
    reg.agents.push(AgentRecord {
        id: "agt_00000000000000a1".into(),
        seat: "lead".into(),
        team: "beacon".into(),
        session: Some("teamrh".into()),
        cli: Some("claude-code".into()),
        root: Some(file.root.clone()),
        pane: Some("w1:p2".into()),
        socket: socket.map(str::to_string),
        native_session: Some("proj-claude-3e".into()),
        ..Default::default()
    });
    let cli = if set == V082 { "claude-code-2.1.332" } else { "claude-code-2.1.197" };
    let rec = FixtureRunner::running(set, &["teamrh"]).real_state(cli, state, "lead", "w1:p2", None);
    let rec = std::sync::Arc::new(std::sync::Mutex::new(Some(rec)));
    let profiles = ProfileHost::with_dirs(tmp.path().join("config"), cache().to_path_buf());
    let mux = move |_: Option<&str>| -> Box<dyn Mux> { Box::new(herdr(rec.lock().unwrap().take().unwrap()).0) };
    let ctx = crate::ctx::Ctx::under(tmp.path());
    let sm = send::Means { ctx: &ctx, profiles: &profiles, mux: &mux };
    let m = Means { send: &sm, listeners, identity: |_| None, exists: |p| p == Path::new(SOCK) };
    run(&m, send::Loadout { file: Some(file), reg }, Caller::Owner, "lead", true)
}

fn holds(pid: u32) -> Option<Vec<PathBuf>> {
    Some(if pid == 27322 || pid == 21268 { vec![PathBuf::from(SOCK)] } else { vec![] })
}

#[test]
fn a_live_socket_on_both_versions() {
    for set in [V082, V071] {
        let r = route(set, "idle-empty", Some(SOCK), holds).unwrap();
        assert_eq!((r.state, r.address.as_deref(), r.pane.as_str()), (SocketState::Live, Some(SOCK), "w1:p2"), "{set}");
        assert!(r.native && r.rule == "the owner");
        assert_eq!(r.closing(), format!("lead: routed at {SOCK} (live)"));
        // no identity readable for a recorded pid: the recorded session name
        assert_eq!(r.recipient_session.as_deref(), Some("proj-claude-3e"));
        assert_eq!(r.agent, "agt_00000000000000a1");
    }
}

#[test]
fn stale_pane_none_and_unread() {
    let r = route(V082, "working", Some(SOCK), |_| Some(vec![])).unwrap();
    assert_eq!((r.state, r.address.as_deref()), (SocketState::Stale, Some(SOCK)));
    let r = route(V082, "idle-empty", None, holds).unwrap();
    assert_eq!((r.state, r.address.as_deref()), (SocketState::Pane, Some(SOCK)));
    let r = route(V082, "idle-empty", None, |_| Some(vec![])).unwrap();
    assert_eq!(
        (r.state, r.address.as_deref(), r.closing().as_str()),
        (SocketState::None, None, "lead: routed at no socket (none)")
    );
    // the pane's processes (another pid namespace, another user) cannot be read
    let r = route(V082, "idle-empty", Some(SOCK), |_| None).unwrap();
    assert_eq!((r.state, r.address.as_deref()), (SocketState::Unread, Some(SOCK)));
    assert_eq!(r.unread_why.as_deref(), Some("the open files of pane w1:p2's processes cannot be read"));
}

#[test]
fn a_seat_herdr_does_not_name_or_names_on_another_cli_is_refused() {
    // 0.8 clears the name of an exited CLI
    let e = route(V082, "after-exit", Some(SOCK), holds).unwrap_err();
    assert_eq!(e.id, "route.unresolved");
    assert_eq!(e.message(), "lead: herdr names no pane lead in session \"teamrh\"; no address was answered");
    // 0.7.1 keeps the name over the shell the CLI left: no claude runs there
    let e = route(V071, "after-exit", Some(SOCK), holds).unwrap_err();
    assert_eq!(
        e.message(),
        "lead: pane w1:p2 runs no `claude`, the CLI its record names (claude-code); no address was answered"
    );
}
