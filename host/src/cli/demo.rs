//! `team demo`: the first thing a newcomer runs. It builds a throwaway project and a private
//! tmux session, starts two demo seats of two vendors (Claude Code and Codex screens, drawn
//! by the hidden `team demo-seat` from real captures: `crate::demo`), sends a message to each
//! with the real `team send`, shows the outcomes and `team feed`, and removes everything it
//! made.
//!
//! It sends as the owner, who is a person at a terminal: without one it says so at once and
//! starts nothing. It ends with what to do next; `--keep` leaves its folder and tmux server and
//! prints the exact commands that drive them and that remove them.
//!
//! Invariant: the demo never touches the user's own configuration, history, state or tmux
//! server: those paths and the tmux socket live in one temp folder it makes anew (0700, never
//! one that was there already), removed at the end (also on error). Only the
//! precompiled-profile cache is shared, so the demo compiles nothing twice. Its seats write
//! nothing but the byte logs it made for them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::output::Output;

/// Arguments of `team demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Keep the throwaway folder and tmux session (prints the commands that drive and remove them).
    #[arg(long)]
    pub keep: bool,
}

/// Arguments of `team demo-seat` (hidden): one of the demo's seats, run by `team demo` in its
/// own tmux panes.
#[derive(clap::Args, Debug)]
pub struct SeatArgs {
    /// The CLI whose screens it draws: `claude-code` or `codex`.
    #[arg(long)]
    pub cli: String,
    /// The byte log `team demo` made for it (appended to; never created).
    #[arg(long)]
    pub log: std::path::PathBuf,
}

/// `team demo-seat`: draws the seat until its terminal closes.
pub fn run_seat(args: SeatArgs, out: &mut Output) -> i32 {
    let Some(vendor) = crate::demo::seat::Vendor::from_id(&args.cli) else {
        let e = format!("the demo draws claude-code and codex seats, not \"{}\"", args.cli);
        return super::report_error("demo-seat", false, &crate::outcome::TeamError::usage(e), out);
    };
    match crate::demo::seat::run(vendor, &args.log) {
        Ok(()) => 0,
        Err(e) => {
            out.err(&format!("team demo-seat: {e}\n"));
            1
        }
    }
}

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

struct World {
    dir: PathBuf,
    socket: PathBuf,
    keep: bool,
}

impl Drop for World {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn run(args: Args, ctx: &crate::ctx::Ctx, out: &mut Output) -> i32 {
    if !crate::caller::has_terminal() {
        out.err("team demo: the demo sends as the owner, a person at a terminal, and this run has none (no terminal on stdin, stdout, stderr or /dev/tty); run team demo from a terminal\n");
        return 1;
    }
    match demo(args.keep, &ctx.paths.cache, out) {
        Ok(code) => code,
        Err(e) => {
            out.err(&format!("team demo: {e}\n"));
            1
        }
    }
}

fn tmux(w: &World) -> Command {
    let mut c = Command::new("tmux");
    c.arg("-S").arg(&w.socket);
    c
}

fn check(c: &mut Command, what: &str) -> Result<String, String> {
    let out = c.output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what}: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn demo(keep: bool, cache: &Path, out: &mut Output) -> Result<i32, String> {
    if Command::new("tmux").arg("-V").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
        return Err("the demo runs its seats in tmux, and tmux is not installed; install it (apt-get install tmux) and run team demo again".into());
    }
    let me = std::env::current_exe().map_err(|e| format!("cannot find the team binary: {e}"))?;
    let base = fresh_folder()?;
    let w = World { dir: base.clone(), socket: base.join("tmux.sock"), keep };
    let project = base.join("demo");
    for d in ["config", "state", "cache", "home", "demo/.agents"] {
        std::fs::create_dir_all(base.join(d)).map_err(|e| e.to_string())?;
    }
    check(Command::new("git").args(["init", "-q"]).current_dir(&project), "git init")?;
    std::fs::write(project.join(".agents/team.yaml"), TEAM_FILE).map_err(|e| e.to_string())?;

    let env = demo_env(&w, cache);
    // Two demo seats, each a tmux pane marked with the seat it is, each with a byte log made
    // here (a seat appends to its log, never makes one).
    for cli in ["claude-code", "codex"] {
        crate::fsx::write_new(&base.join(format!("{cli}.bytes")), b"", 0o600).map_err(|e| e.to_string())?;
    }
    let seat_cmd = |cli: &str| {
        format!(
            "{} demo-seat --cli {cli} --log {}",
            shell_quote(&me.display().to_string()),
            shell_quote(&base.join(format!("{cli}.bytes")).display().to_string())
        )
    };
    let mut new = tmux(&w);
    new.args(["-f", "/dev/null", "new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", "-c"])
        .arg(&project)
        .arg(seat_cmd("claude-code"));
    for (k, v) in &env {
        new.env(k, v);
    }
    check(&mut new, "starting the demo's tmux session")?;
    check(tmux(&w).args(["set", "-p", "-t", "demo:0.0", "@team-seat", "keeper"]), "marking the first seat")?;
    let mut split = tmux(&w);
    split.args(["new-window", "-t", "demo", "-c"]).arg(&project).arg(seat_cmd("codex"));
    check(&mut split, "starting the second seat")?;
    check(tmux(&w).args(["set", "-p", "-t", "demo:1.0", "@team-seat", "reviewer"]), "marking the second seat")?;
    wait_drawn(&w, "demo:0.0")?;
    wait_drawn(&w, "demo:1.0")?;

    out.out(&format!("A throwaway project in {} with two fake seats in a private tmux session:\n", project.display()));
    out.out("  keeper    draws real Claude Code screens\n");
    out.out("  reviewer  draws real Codex screens\n");
    out.out("\n");
    let mut worst = 0;
    for (seat, cli, msg) in
        [("keeper", "claude-code", "the gate is green"), ("reviewer", "codex", "please review the demo branch")]
    {
        out.out(&format!("$ team send {seat} \"{msg}\"\n"));
        let code = run_team(&me, &project, &env, &["send", seat, msg])?;
        worst = worst.max(code);
        // What the seat's terminal received: the one trigger line and Enter, never the body.
        let got = std::fs::read(base.join(format!("{cli}.bytes"))).unwrap_or_default();
        let got = String::from_utf8_lossy(&got);
        if let Some(line) = got.split_terminator('\r').next_back() {
            out.out(&format!("  ({seat}'s terminal received one line: {line})\n"));
        }
        out.out("\n");
    }
    out.out("$ team feed\n");
    run_team(&me, &project, &env, &["feed"])?;
    out.out("\n");
    if keep {
        out.out(&kept(&w, &project, &me));
    }
    out.out(NEXT);
    Ok(worst)
}

/// What to do after the demo, with one's own agents.
const NEXT: &str = "Next, with your own agents (each in a tmux or herdr pane):
  team init                  in your project: writes .agents/team.yaml; declare a seat per agent there
  team mark <seat>           inside each seat's tmux pane (herdr: herdr agent rename <pane> <seat>)
  team status                what each seat's screen shows now
  team send <seat> \"hello\"   one message, proven taken; team feed shows what happened
";

/// The commands that drive the kept demo and the ones that remove it.
fn kept(w: &World, project: &Path, me: &Path) -> String {
    let q = |p: &Path| shell_word(&p.display().to_string());
    let team = on_path(me).unwrap_or_else(|| q(me));
    let sock = q(&w.socket);
    format!(
        "Kept the demo: its folder {base} and its tmux server {sock}. To drive it:
  cd {project}
  export TEAM_CONFIG_DIR={config} TEAM_STATE_DIR={state} TEAM_TMUX_SOCKET={sock}
  {team} status
  {team} send reviewer \"one more\"
  {team} feed
  tmux -S {sock} attach -t demo     (the seats themselves; ctrl-b d detaches)
To remove it:
  tmux -S {sock} kill-server; rm -rf {base}

",
        base = q(&w.dir),
        project = q(project),
        config = q(&w.dir.join("config")),
        state = q(&w.dir.join("state")),
    )
}

/// `team` when the `team` first on PATH is this binary, else `None`.
fn on_path(me: &Path) -> Option<String> {
    let me = me.canonicalize().ok()?;
    let path = std::env::var_os("PATH")?;
    let first = std::env::split_paths(&path).map(|d| d.join("team")).find(|p| p.is_file())?;
    (first.canonicalize().ok()? == me).then(|| "team".to_string())
}

/// A word as a shell reads it back: as it is when it holds nothing special, else quoted.
fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,%@".contains(c)) {
        s.to_string()
    } else {
        shell_quote(s)
    }
}

fn demo_env(w: &World, cache: &Path) -> Vec<(String, String)> {
    let b = &w.dir;
    vec![
        ("TEAM_CONFIG_DIR".into(), b.join("config").display().to_string()),
        ("TEAM_STATE_DIR".into(), b.join("state").display().to_string()),
        ("TEAM_CACHE_DIR".into(), cache.display().to_string()),
        ("TEAM_TMUX_SOCKET".into(), w.socket.display().to_string()),
    ]
}

fn run_team(me: &Path, cwd: &Path, env: &[(String, String)], args: &[&str]) -> Result<i32, String> {
    let mut c = Command::new(me);
    c.args(args).current_dir(cwd);
    for k in ["TMUX", "TMUX_PANE", "HERDR_PANE_ID", "HERDR_SESSION", "HERDR_SOCKET_PATH"] {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let st = c.status().map_err(|e| format!("running team {}: {e}", args.join(" ")))?;
    Ok(st.code().unwrap_or(1))
}

fn wait_drawn(w: &World, target: &str) -> Result<(), String> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let out = check(tmux(w).args(["capture-pane", "-p", "-t", target]), "reading a seat")?;
        if out.lines().filter(|l| !l.trim().is_empty()).count() > 3 {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(format!("the demo seat in {target} did not draw its screen within 10 s"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A folder of the demo's own under the temp folder: made anew, mode 0700 (a name already
/// taken, by anything, is passed over, never reused or followed).
fn fresh_folder() -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    let tmp = std::env::temp_dir();
    let mut last = None;
    for n in 0..100u32 {
        let p = tmp.join(format!("team-demo-{}-{n}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(format!("cannot make the demo's folder {}: {e}", p.display())),
        }
    }
    Err(format!(
        "cannot make a folder of the demo's own in {}: {}",
        tmp.display(),
        last.map(|e| e.to_string()).unwrap_or_default()
    ))
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}
