//! `team demo`'s use-case: a throwaway project and a private tmux server, two demo seats of
//! two vendors (Claude Code and Codex screens, drawn by the hidden `team demo-seat`:
//! [`super::seat`]), one message sent to each with the real `team send`, then `team feed`;
//! everything it made removed at the end unless it is kept. What happens is told to the
//! caller step by step ([`Step`]), which renders it: nothing here prints (the `team send` and
//! `team feed` it runs are child processes writing to the terminal they were given).
//!
//! Invariant: the demo never touches the user's own configuration, history, state or tmux
//! server: those paths and the tmux socket live in one temp folder it makes anew (0700, never
//! one that was there already), removed at the end (also on error). Only the
//! precompiled-profile cache is shared, so the demo compiles nothing twice. Its seats write
//! nothing but the byte logs it made for them. Its tmux is the port's (`mux::tmux`, the fixed
//! program search, every call bounded), on the demo's own socket only.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::error::{self, TeamError};
use crate::mux::tmux::{NewSession, Tmux};
use crate::mux::MuxError;

const TEAM_FILE: &str = "format: 1
project: demo
session: demo
multiplexer: tmux
seats:
  - name: keeper
    nickname: agamemnon
    role: coordinator
    cli: claude-code
    leads: true
  - name: reviewer
    role: reviewer
    cli: codex
";

/// The seats: name, cli, the message the demo sends it.
const SEATS: [(&str, &str, &str); 2] =
    [("keeper", "claude-code", "the gate is green"), ("reviewer", "codex", "please review the demo branch")];

/// What the demo is given by its caller.
pub struct Given {
    /// This `team` binary (the seats and the sends run it).
    pub me: PathBuf,
    /// The temp folder the demo's own folder is made in.
    pub tmp: PathBuf,
    /// The shared precompiled-profile cache.
    pub cache: PathBuf,
    /// Keep the folder and the tmux server at the end.
    pub keep: bool,
}

impl Given {
    /// What a run of `team demo` in `ctx` gives it. Refused at once, starting nothing, without
    /// a terminal: the demo sends as the owner, a person at one.
    pub fn here(ctx: &crate::ctx::Ctx, keep: bool) -> error::Result<Given> {
        if !crate::caller::has_terminal() {
            return Err(TeamError::failed("the demo sends as the owner, a person at a terminal, and this run has none (no terminal on stdin, stdout, stderr or /dev/tty); run team demo from a terminal"));
        }
        let me = std::env::current_exe().map_err(|e| TeamError::failed(format!("cannot find the team binary: {e}")))?;
        Ok(Given { me, tmp: std::env::temp_dir(), cache: ctx.paths.cache.clone(), keep })
    }
}

/// What the demo does, as it does it.
pub enum Step<'a> {
    /// The project and its two seats are up.
    Ready { project: &'a Path },
    /// `team send <seat> <message>` runs next (its own words follow).
    Sending { seat: &'a str, message: &'a str },
    /// The last line the seat's terminal received after the send.
    Received { seat: &'a str, line: Option<&'a str> },
    /// `team feed` runs next.
    Feed,
    /// The feed ran.
    FeedDone,
}

/// A demo kept for the user to drive: its folders and server.
pub struct Kept {
    pub dir: PathBuf,
    pub socket: PathBuf,
    pub project: PathBuf,
    pub config: PathBuf,
    pub state: PathBuf,
}

/// How the demo ended: the worst exit code of its sends, and what was kept.
pub struct Ended {
    pub worst: i32,
    pub kept: Option<Kept>,
}

/// The demo's folder and server, removed when dropped unless kept.
struct World {
    dir: PathBuf,
    socket: PathBuf,
    tmux: Tmux,
    keep: bool,
}

impl Drop for World {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        self.tmux.kill_server();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn failed(e: impl std::fmt::Display) -> TeamError {
    TeamError::failed(e.to_string())
}

fn step_failed(what: &str) -> impl Fn(MuxError) -> TeamError + '_ {
    move |e| TeamError::failed(format!("{what}: {e}"))
}

/// Runs the demo, telling `show` each step.
pub fn run(given: &Given, show: &mut dyn FnMut(Step)) -> error::Result<Ended> {
    let probe = Tmux::with_socket(&given.tmp.join("team-demo-probe.sock").display().to_string());
    if !probe.answers() {
        return Err(failed("the demo runs its seats in tmux, and tmux is not installed; install it (apt-get install tmux) and run team demo again"));
    }
    let base = fresh_folder(&given.tmp)?;
    let socket = base.join("tmux.sock");
    let w =
        World { dir: base.clone(), tmux: Tmux::with_socket(&socket.display().to_string()), socket, keep: given.keep };
    let project = base.join("demo");
    for d in ["config", "state", "cache", "home", "demo/.agents"] {
        std::fs::create_dir_all(base.join(d)).map_err(failed)?;
    }
    git_init(&project)?;
    std::fs::write(project.join(".agents/team.yaml"), TEAM_FILE).map_err(failed)?;

    let env = demo_env(&w, &given.cache);
    // Two demo seats, each a tmux pane marked with the seat it is, each with a byte log made
    // here (a seat appends to its log, never makes one).
    for (_, cli, _) in SEATS {
        crate::fsx::write_new(&base.join(format!("{cli}.bytes")), b"", 0o600).map_err(failed)?;
    }
    let seat_cmd = |cli: &str| {
        format!(
            "{} demo-seat --cli {cli} --log {}",
            shell_quote(&given.me.display().to_string()),
            shell_quote(&base.join(format!("{cli}.bytes")).display().to_string())
        )
    };
    let first =
        NewSession { name: "demo", cols: 120, rows: 40, cwd: &project, env: &env, command: &seat_cmd("claude-code") };
    w.tmux.start_session(&first).map_err(step_failed("starting the demo's tmux session"))?;
    w.tmux.set_mark("demo:0.0", "keeper").map_err(step_failed("marking the first seat"))?;
    w.tmux.new_window("demo", &project, &seat_cmd("codex")).map_err(step_failed("starting the second seat"))?;
    w.tmux.set_mark("demo:1.0", "reviewer").map_err(step_failed("marking the second seat"))?;
    wait_drawn(&w, "demo:0.0")?;
    wait_drawn(&w, "demo:1.0")?;

    show(Step::Ready { project: &project });
    let mut worst = 0;
    for (seat, cli, message) in SEATS {
        show(Step::Sending { seat, message });
        let code = run_team(&given.me, &project, &env, &["send", seat, message])?;
        worst = worst.max(code);
        // What the seat's terminal received: the one trigger line and Enter, never the body.
        let got = std::fs::read(base.join(format!("{cli}.bytes"))).unwrap_or_default();
        let got = String::from_utf8_lossy(&got);
        show(Step::Received { seat, line: got.split_terminator('\r').next_back() });
    }
    show(Step::Feed);
    run_team(&given.me, &project, &env, &["feed"])?;
    show(Step::FeedDone);
    let kept = given.keep.then(|| Kept {
        dir: w.dir.clone(),
        socket: w.socket.clone(),
        project: project.clone(),
        config: w.dir.join("config"),
        state: w.dir.join("state"),
    });
    Ok(Ended { worst, kept })
}

fn git_init(project: &Path) -> error::Result<()> {
    let mut git = Command::new("git");
    git.args(["init", "-q"]).current_dir(project);
    let out = crate::child::run(git, None, crate::child::Output::Capture, Duration::from_secs(30))
        .map_err(|e| failed(format!("git init: {e}")))?;
    if !out.status.success() {
        return Err(failed(format!("git init: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(())
}

/// The variables every `team` the demo runs is given: its own folders and tmux server.
fn demo_env(w: &World, cache: &Path) -> Vec<(String, String)> {
    let b = &w.dir;
    vec![
        ("TEAM_CONFIG_DIR".into(), b.join("config").display().to_string()),
        ("TEAM_STATE_DIR".into(), b.join("state").display().to_string()),
        ("TEAM_CACHE_DIR".into(), cache.display().to_string()),
        ("TEAM_TMUX_SOCKET".into(), w.socket.display().to_string()),
    ]
}

/// Runs this `team` with `args` in `cwd`, outside any pane (the variables naming one removed).
fn run_team(me: &Path, cwd: &Path, env: &[(String, String)], args: &[&str]) -> error::Result<i32> {
    let mut c = Command::new(me);
    c.args(args).current_dir(cwd);
    for k in ["TMUX", "TMUX_PANE", "HERDR_PANE_ID", "HERDR_SESSION", "HERDR_SOCKET_PATH"] {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let st = c.status().map_err(|e| failed(format!("running team {}: {e}", args.join(" "))))?;
    Ok(st.code().unwrap_or(1))
}

/// Waits (at most 10 s) until the seat in `target` has drawn its screen.
fn wait_drawn(w: &World, target: &str) -> error::Result<()> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let out = w.tmux.capture_plain(target).map_err(step_failed("reading a seat"))?;
        if out.lines().filter(|l| !l.trim().is_empty()).count() > 3 {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(failed(format!("the demo seat in {target} did not draw its screen within 10 s")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A folder of the demo's own under `tmp`: made anew, mode 0700 (a name already taken, by
/// anything, is passed over, never reused or followed).
fn fresh_folder(tmp: &Path) -> error::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let mut last = None;
    for n in 0..100u32 {
        let p = tmp.join(format!("team-demo-{}-{n}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(failed(format!("cannot make the demo's folder {}: {e}", p.display()))),
        }
    }
    Err(failed(format!(
        "cannot make a folder of the demo's own in {}: {}",
        tmp.display(),
        last.map(|e| e.to_string()).unwrap_or_default()
    )))
}

/// A word quoted for a shell.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `team` when the `team` first on PATH is this binary, else `None`.
pub fn on_path(me: &Path) -> Option<String> {
    let me = me.canonicalize().ok()?;
    let path = std::env::var_os("PATH")?;
    let first = std::env::split_paths(&path).map(|d| d.join("team")).find(|p| p.is_file())?;
    (first.canonicalize().ok()? == me).then(|| "team".to_string())
}

/// A word as a shell reads it back: as it is when it holds nothing special, else quoted.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,%@".contains(c)) {
        s.to_string()
    } else {
        shell_quote(s)
    }
}
