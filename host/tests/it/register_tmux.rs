//! `team register` end to end under tmux: the real binary against fake seats (real vendor
//! screens, the CLI's process name, a fake Claude's sessions-registry entry and listening
//! socket) in a private tmux server. One test per path of the spec: a first registration of a
//! Claude Code and a Codex pane, each refusal a running pane can earn, `--pane` adoption, and
//! the repair. Each asserts the closing line and exit code, what was written (and with which
//! modes), and that nothing was typed into the pane.

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A beacon checkout whose team file names the seats, and a private tmux session `beacon`
/// where they run in the checkout, each with its own HOME and its sockets under the world.
pub use crate::common::scene::Scene;

/// The file's seats: `(name, cli)`.
pub fn scene(file_seats: &[(&str, &str)], seats: &[SeatSpec]) -> Scene {
    let w = World::empty();
    std::fs::create_dir_all(w.base().join("run")).unwrap();
    let seats: Vec<SeatSpec> = seats.iter().map(|s| in_world(&w, s.clone())).collect();
    let tw = TmuxWorld::start("beacon", &seats);
    let mut file = String::from(
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\ncoordinator: claude-keeper\nseats:\n",
    );
    for (name, cli) in file_seats {
        file.push_str(&format!("  - name: {name}\n    label: worker\n    cli: {cli}\n"));
    }
    w.team_file(&file);
    Scene::of(w, tw, None)
}

/// A seat that works in the world's checkout and keeps its Claude socket under the world.
pub fn in_world(w: &World, s: SeatSpec) -> SeatSpec {
    let socks = w.base().join("run");
    s.cwd(&w.repo).env("CLAUDE_CODE_TMPDIR", socks.to_str().unwrap()).delay(200)
}

pub const SEATS: &[(&str, &str)] = &[("claude-keeper", "claude-code"), ("gpt-reviewer", "codex")];

impl Scene {
    pub fn pane(&self, seat: &str) -> String {
        self.tw.seat(seat).pane.clone()
    }
    /// The pid of the fake seat's own process (the CLI in front of the pane's shell).
    pub fn cli_pid(&self, seat: &str) -> u32 {
        let shell = self.tw.tmux(&["display-message", "-p", "-t", &self.pane(seat), "#{pane_pid}"]);
        let shell: u32 = String::from_utf8_lossy(&shell.stdout).trim().parse().unwrap();
        let kids = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap();
        kids.split_whitespace().next().expect("a process in front of the shell").parse().unwrap()
    }
    pub fn state(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.w.repo.join(".agents/team.state.json")).unwrap()).unwrap()
    }
    pub fn agent(&self, seat: &str) -> String {
        let dir = self.w.config.join("agents");
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let t = std::fs::read_to_string(e.path()).unwrap_or_default();
            if t.lines().any(|l| l == format!("seat: {seat}")) {
                return t;
            }
        }
        panic!("no agent record for {seat}")
    }
    pub fn register(&self, args: &[&str]) -> common::Run {
        let mut a = vec!["register"];
        a.extend_from_slice(args);
        self.w.team(&a)
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_running_claude_and_codex_are_registered_with_their_process_and_socket() {
    let s = scene(
        SEATS,
        &[
            SeatSpec::new("claude-keeper", "claude-code", "takes-line"),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line"),
        ],
    );
    let keeper = s.pane("claude-keeper");
    let r = s.register(&["claude-keeper", "--dry-run"]);
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (format!("claude-keeper: would register — pane {keeper}; nothing would be launched\n").as_str(), 0),
        "{r:?}"
    );
    assert!(!s.w.repo.join(".agents/team.state.json").exists() && !s.w.config.exists(), "a dry run writes nothing");
    let r = s.register(&["claude-keeper"]);
    assert_eq!(r.stdout, format!("claude-keeper: registered — pane {keeper}; nothing was launched\n"), "{r:?}");
    assert_eq!((r.stderr.as_str(), r.code), ("", 0));

    // the state: stage ready, the CLI, the pane, the process identity read from the pane
    let pid = s.cli_pid("claude-keeper");
    let st = s.state();
    let rec = &st["sessions"]["beacon"]["seats"]["claude-keeper"];
    assert_eq!(
        (rec["stage"].as_str(), rec["cli"].as_str(), rec["pane"].as_str()),
        (Some("ready"), Some("claude-code"), Some(keeper.as_str()))
    );
    assert_eq!(rec["process"]["pid"].as_u64(), Some(pid as u64));
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let start = stat[stat.rfind(')').unwrap() + 1..].split_whitespace().nth(19).unwrap();
    assert_eq!(rec["process"]["start"].to_string(), start);
    assert_eq!(
        st["sessions"]["beacon"]["launched"].as_str(),
        Some(s.w.repo.join(".agents/team.yaml").to_str().unwrap())
    );
    // the registry: the agent record with the live socket and the session's name, the roster
    let agent = s.agent("claude-keeper");
    let sock = s.w.base().join("run/cc-socks").join(format!("{pid}.sock"));
    assert!(agent.contains(&format!("socket: {}\n", sock.display())), "{agent}");
    let repo_name = s.w.repo.file_name().unwrap().to_string_lossy().into_owned();
    assert!(agent.contains(&format!("native_session: {repo_name}-{:02x}\n", pid % 256)), "{agent}");
    assert!(agent.contains(&format!("pane: \"{keeper}\"\n")), "{agent}");
    assert!(agent.contains(&format!("id: {}\n", rec["id"].as_str().unwrap())), "{agent}");
    let teams = std::fs::read_to_string(s.w.config.join("teams.yaml")).unwrap();
    assert!(teams.contains("- seat: claude-keeper") && teams.contains("leads: true"), "{teams}");
    // modes: the state, the records, the launched pointer
    assert_eq!(mode(&s.w.repo.join(".agents/team.state.json")), 0o600);
    assert_eq!(mode(&s.w.config.join("teams.yaml")), 0o600);
    for e in std::fs::read_dir(s.w.config.join("agents")).unwrap().flatten() {
        assert_eq!(mode(&e.path()), 0o600, "{}", e.path().display());
    }
    assert_eq!(mode(&s.w.state.join("launched/beacon.json")), 0o600);
    assert_eq!(mode(&s.w.state.join("launched")), 0o700);

    // the Codex pane: no native channel, no socket
    let reviewer = s.pane("gpt-reviewer");
    let r = s.register(&["gpt-reviewer", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["status"], "ready");
    assert_eq!(doc["action_summary"], format!("gpt-reviewer: registered — pane {reviewer}; nothing was launched"));
    assert!(!s.agent("gpt-reviewer").contains("socket: /"), "{}", s.agent("gpt-reviewer"));
    // nothing was typed into either pane
    assert!(s.tw.log("claude-keeper").is_empty() && s.tw.log("gpt-reviewer").is_empty());
    let log = s.log();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(log.lines().all(|l| l.contains("\"outcome\":\"registered\"")), "{log}");
}

#[test]
fn a_dialog_a_bare_shell_another_cli_and_an_exited_cli_are_refused() {
    let mut s = scene(
        &[("claude-keeper", "claude-code"), ("gpt-reviewer", "claude-code"), ("ada", "claude-code"), ("bob", "codex")],
        &[
            SeatSpec::new("claude-keeper", "claude-code", "dialog:permission"),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line"),
            SeatSpec::new("bob", "codex", "takes-line"),
        ],
    );
    let r = s.register(&["claude-keeper"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .starts_with("team register: claude-keeper: its pane is not the seat at its prompt (a permission dialog"),
        "{r:?}"
    );
    assert!(r.stderr.ends_with("; nothing was registered\n"), "{r:?}");
    // another CLI in front: a Codex pane marked as a claude-code seat
    let r = s.register(&["gpt-reviewer"]);
    let p = s.pane("gpt-reviewer");
    assert_eq!(
        r.stderr,
        format!("team register: gpt-reviewer: pane {p} holds no `claude` process; nothing was registered\n")
    );
    // a bare shell marked as the seat
    let out = s.tw.tmux(&["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=beacon:", "sh"]);
    let bare = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(s.tw.tmux(&["set", "-p", "-t", &bare, "@team-seat", "ada"]).status.success());
    let r = s.register(&["ada"]);
    assert_eq!(
        r.stderr,
        format!("team register: ada: pane {bare} holds no process in front of its shell; nothing was registered\n")
    );
    // a CLI that exited: its pane is back at its shell
    let pid = s.cli_pid("bob");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    let bobs = s.pane("bob");
    assert!(s.tw.wait_until(crate::common::BOUND, || {
        let shell = s.tw.tmux(&["display-message", "-p", "-t", &bobs, "#{pane_pid}"]);
        let shell = String::from_utf8_lossy(&shell.stdout).trim().to_string();
        std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).is_ok_and(|k| k.trim().is_empty())
    }));
    let r = s.register(&["bob"]);
    assert_eq!(
        r.stderr,
        format!("team register: bob: pane {bobs} holds no process in front of its shell; nothing was registered\n")
    );
    // two panes marked the same: registering one would guess
    let spec = in_world(&s.w, SeatSpec::new("bob-2", "codex", "takes-line").mark("bob"));
    s.tw.add_seat(spec);
    let r = s.register(&["bob"]);
    assert_eq!(r.stderr, "team register: session \"beacon\" has 2 agents named bob; registering one would guess\n");
    // none of it wrote a record, and nothing was typed anywhere
    assert!(!s.w.repo.join(".agents/team.state.json").exists() && !s.w.config.join("agents").exists());
    assert!(s.tw.log("claude-keeper").is_empty() && s.tw.log("gpt-reviewer").is_empty());
    let log = s.log();
    assert_eq!(log.lines().count(), 5, "each refusal writes its own line: {log}");
}

#[test]
fn a_pane_another_seat_holds_and_a_record_on_another_pane_are_never_overwritten() {
    let s = scene(
        SEATS,
        &[
            SeatSpec::new("claude-keeper", "claude-code", "takes-line"),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line"),
        ],
    );
    let (keeper, reviewer) = (s.pane("claude-keeper"), s.pane("gpt-reviewer"));
    assert_eq!(s.register(&["gpt-reviewer"]).code, 0);
    // the reviewer's pane now marked as the keeper: it is the reviewer's
    assert!(s.tw.tmux(&["set", "-p", "-t", &keeper, "@team-seat", "nobody"]).status.success());
    assert!(s.tw.tmux(&["set", "-p", "-t", &reviewer, "@team-seat", "claude-keeper"]).status.success());
    let r = s.register(&["claude-keeper"]);
    assert_eq!(
        r.stderr,
        format!("team register: pane {reviewer} is gpt-reviewer's in session \"beacon\"; nothing was registered\n")
    );
    // the keeper registered on its pane; then its mark moved elsewhere: the record stands
    assert!(s.tw.tmux(&["set", "-p", "-t", &reviewer, "@team-seat", "gpt-reviewer"]).status.success());
    assert!(s.tw.tmux(&["set", "-p", "-t", &keeper, "@team-seat", "claude-keeper"]).status.success());
    assert_eq!(s.register(&["claude-keeper"]).code, 0);
    let before = std::fs::read(s.w.repo.join(".agents/team.state.json")).unwrap();
    let mut tw = s.tw;
    let other = tw.add_seat(in_world(&s.w, SeatSpec::new("keeper-2", "claude-code", "takes-line").mark(""))).pane;
    assert!(tw.tmux(&["set", "-p", "-t", &keeper, "@team-seat", "nobody"]).status.success());
    assert!(tw.tmux(&["set", "-p", "-t", &other, "@team-seat", "claude-keeper"]).status.success());
    let r = s.w.team(&["register", "claude-keeper"]);
    assert_eq!(
        r.stderr,
        format!("team register: claude-keeper is already recorded on pane {keeper}, not on {other}; a lead stops the team and starts it again (`team down`, then `team up`); the seat's own team registers it\n")
    );
    assert_eq!(std::fs::read(s.w.repo.join(".agents/team.state.json")).unwrap(), before);
}

#[test]
fn pane_adopts_an_unmarked_pane_and_names_it() {
    let s = scene(SEATS, &[SeatSpec::new("claude-keeper", "claude-code", "takes-line").mark("")]);
    let p = s.pane("claude-keeper");
    let r = s.register(&["claude-keeper"]);
    assert_eq!(
        r.stderr,
        "team register: no agent named claude-keeper is running in session \"beacon\"; nothing was registered\nmark its pane (tmux set -p -t <pane> @team-seat claude-keeper), or let this run name it: team register claude-keeper --pane <pane>\n"
    );
    let r = s.register(&["claude-keeper", "--pane", &p, "--dry-run"]);
    assert_eq!(r.stdout, format!("claude-keeper: would register — pane {p}; the pane would be named claude-keeper and recorded, nothing would be launched\n"));
    let mark =
        || String::from_utf8_lossy(&s.tw.tmux(&["show", "-p", "-v", "-t", &p, "@team-seat"]).stdout).trim().to_string();
    assert_eq!(mark(), "", "a dry run names nothing");
    let r = s.register(&["claude-keeper", "--pane", &p]);
    assert_eq!(
        (r.stdout.as_str(), r.code),
        (
            format!("claude-keeper: registered — pane {p}; the pane was named claude-keeper, nothing was launched\n")
                .as_str(),
            0
        ),
        "{r:?}"
    );
    assert_eq!(mark(), "claude-keeper");
    // a pane the multiplexer names as another seat is not one --pane adopts
    assert!(s.tw.tmux(&["set", "-p", "-t", &p, "@team-seat", "gpt-reviewer"]).status.success());
    let r = s.register(&["claude-keeper", "--pane", &p]);
    assert_eq!(r.stderr, format!("team register: pane {p} is named gpt-reviewer in session \"beacon\"; --pane names a pane tmux never named, nothing was registered\n"));
    let r = s.register(&["claude-keeper", "--pane", "%999"]);
    assert_eq!(r.stderr, "team register: no pane %999 in session \"beacon\"; nothing was registered\n");
    assert!(s.tw.log("claude-keeper").is_empty(), "nothing typed");
}

#[test]
fn the_repair_refreshes_the_registry_and_completes_a_short_record() {
    let s = scene(SEATS, &[SeatSpec::new("claude-keeper", "claude-code", "takes-line")]);
    let p = s.pane("claude-keeper");
    assert_eq!(s.register(&["claude-keeper"]).code, 0);
    let id = s.state()["sessions"]["beacon"]["seats"]["claude-keeper"]["id"].as_str().unwrap().to_string();
    let r = s.register(&["claude-keeper"]);
    assert_eq!(r.stdout, format!("claude-keeper: already registered — pane {p}; the record was refreshed from the file, nothing relaunched\n"));
    // the roster lost the seat: written again, and said
    std::fs::write(
        s.w.config.join("teams.yaml"),
        "format: 1\nteams:\n  beacon:\n    project: beacon\n    roster: []\n",
    )
    .unwrap();
    let r = s.register(&["claude-keeper", "--dry-run"]);
    assert_eq!(
        r.stdout,
        format!("claude-keeper: already registered — pane {p}; the team registry's roster would be written\n")
    );
    let r = s.register(&["claude-keeper"]);
    assert_eq!(r.stdout, format!("claude-keeper: already registered — pane {p}; the team registry's roster did not list it, and was written\n"));
    // the team gone from the registry: written, and said
    std::fs::remove_file(s.w.config.join("teams.yaml")).unwrap();
    let r = s.register(&["claude-keeper", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["status"], "already");
    assert_eq!(doc["notes"][0], "claude-keeper: the team registry held no record of team beacon; the team record, the seat's agent record and its roster line were written");
    // a launch's short record: the id and the process identity completed, its own keys kept
    let path = s.w.repo.join(".agents/team.state.json");
    let mut st = s.state();
    let rec = st["sessions"]["beacon"]["seats"]["claude-keeper"].as_object_mut().unwrap();
    rec.remove("id");
    rec.remove("process");
    rec.insert("launch_line".into(), "claude --model claude-opus-5-5".into());
    std::fs::write(&path, serde_json::to_string(&st).unwrap()).unwrap();
    let r = s.register(&["claude-keeper"]);
    assert!(r.stdout.starts_with("claude-keeper: its record lacked an id and a process identity"), "{r:?}");
    let rec = &s.state()["sessions"]["beacon"]["seats"]["claude-keeper"];
    assert_eq!(rec["id"].as_str(), Some(id.as_str()), "the registry's id is the one completed");
    assert_eq!(rec["process"]["pid"].as_u64(), Some(s.cli_pid("claude-keeper") as u64));
    assert_eq!(rec["launch_line"], "claude --model claude-opus-5-5");
    // the CLI replaced by another run of it in the same pane: refused, never re-recorded
    let old = s.cli_pid("claude-keeper");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(old as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    restart_in_pane(&s, "claude-keeper", "full");
    let r = s.register(&["claude-keeper"]);
    assert!(r.stderr.contains(&format!("is not the one recorded (pid {old}); nothing was registered")), "{r:?}");
}

/// Starts the fake Claude again in `seat`'s pane (whose shell is back at its prompt), with
/// `--native <native>`, and waits for it to draw.
pub fn restart_in_pane(s: &Scene, seat: &str, native: &str) {
    let p = s.pane(seat);
    let children = || {
        let shell = s.tw.tmux(&["display-message", "-p", "-t", &p, "#{pane_pid}"]);
        let shell = String::from_utf8_lossy(&shell.stdout).trim().to_string();
        let kids = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap_or_default();
        kids.split_whitespace()
            .map(|k| std::fs::read_to_string(format!("/proc/{k}/comm")).unwrap_or_default().trim().to_string())
            .collect::<Vec<_>>()
    };
    assert!(s.tw.wait_until(crate::common::BOUND, || children().is_empty()), "the pane never came back to its shell");
    // the killed CLI left the terminal raw (as a killed real one does): a line feed ends the line
    let cmd = format!("stty sane; '{}' --cli claude-code --native {native} --delay-ms 200", s.tw.fake_seat.display());
    assert!(s.tw.tmux(&["send-keys", "-t", &p, "-l", &cmd]).status.success());
    assert!(s.tw.tmux(&["send-keys", "-t", &p, "C-j"]).status.success());
    // the new CLI runs under its own name, and has drawn its prompt
    assert!(s.tw.wait_until(crate::common::BOUND, || children() == ["claude"]), "{:?}", children());
    assert!(s.tw.wait_for_text(seat, "? for shortcuts", crate::common::BOUND), "{}", s.tw.screen(seat));
}

/// Once registered, the seat is the pane its record names while the recorded CLI runs there,
/// whatever the marks say (DESIGN §4): a send goes to the recorded pane, never to another pane
/// marked as the seat; once the recorded CLI is gone, a pane marked as the seat but not its
/// recorded one is not that seat.
#[test]
fn a_registered_seat_is_its_recorded_pane_whatever_the_marks_say() {
    let mut s = scene(SEATS, &[SeatSpec::new("claude-keeper", "claude-code", "takes-line")]);
    // two sends in one world: real ids, each its own drop
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let keeper = s.pane("claude-keeper");
    assert_eq!(s.register(&["claude-keeper"]).code, 0);
    let mut tw = s.tw;
    let other = tw.add_seat(in_world(&s.w, SeatSpec::new("impostor", "claude-code", "takes-line").mark(""))).pane;
    assert!(tw.tmux(&["set", "-p", "-u", "-t", &keeper, "@team-seat"]).status.success());
    assert!(tw.tmux(&["set", "-p", "-t", &other, "@team-seat", "claude-keeper"]).status.success());
    let r = s.w.team(&["send", "claude-keeper", "the gate is green"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.ends_with("claude-keeper: delivered\n"), "{r:?}");
    assert!(!tw.log("claude-keeper").is_empty(), "the recorded pane took the line");
    assert!(tw.log("impostor").is_empty(), "the marked pane got nothing");
    // the recorded CLI gone: the other marked pane is still not the seat
    let pid = String::from_utf8_lossy(&tw.tmux(&["display-message", "-p", "-t", &keeper, "#{pane_pid}"]).stdout)
        .trim()
        .to_string();
    let cli: i32 = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(cli), nix::sys::signal::Signal::SIGKILL).unwrap();
    assert!(tw.wait_until(crate::common::BOUND, || !Path::new(&format!("/proc/{cli}")).exists()));
    let r = s.w.team(&["send", "claude-keeper", "are you there"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(&format!(
            "tmux names claude-keeper on pane {other} of session \"beacon\", but claude-keeper is registered on pane {keeper}"
        )),
        "{r:?}"
    );
    assert!(tw.log("impostor").is_empty(), "nothing was typed into the marked pane");
}

/// At a terminal, `team register` opens with the context line like every other command; its
/// lines piped (the spec's transcripts) stay as the spec shows them, with none.
#[test]
fn at_a_terminal_register_opens_with_the_context_line() {
    let s = scene(SEATS, &[SeatSpec::new("claude-keeper", "claude-code", "takes-line")]);
    let p = s.pane("claude-keeper");
    let line = format!("claude-keeper: would register — pane {p}; nothing would be launched");
    assert_eq!(s.register(&["claude-keeper", "--dry-run"]).stdout, format!("{line}\n"));
    // stdout on a pseudo-terminal (script's), as a person at one sees it
    let r = s.w.sh("script -qec 'team register claude-keeper --dry-run' /dev/null");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.replace("\r\n", "\n"), format!("team beacon, session \"beacon\"\n{line}\n"), "{r:?}");
}
