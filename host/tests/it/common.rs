//! The test world every integration test builds: a temp dir holding a git checkout with
//! `.agents/team.yaml`, a registry under `TEAM_CONFIG_DIR`, state and cache dirs and a home,
//! and ways to run the real `team` binary in it — with stdin on a real pseudo-terminal (the
//! caller check needs a terminal), or with no terminal at all.
//!
//! Every run clears the environment to the world's own (no `TMUX`, `TMUX_PANE`,
//! `HERDR_*`), fixes the clock (`TEAM_NOW`) and the ids (`TEAM_ID_SEED`), and runs in a new
//! session as a child of the test process, which holds the master side of the run's
//! pseudo-terminal: as a terminal program is a person's shell's parent, so the run is placed
//! as the owner exactly when it has that terminal (DESIGN §4: the owner's terminal is provided
//! by a process it descends from, which does not hang off init). A suite run under an agent CLI
//! (a process named `claude` or `codex` above the test process) sees its runs unplaced: run it
//! from a plain shell, as CI does.
//!
//! The binaries under test are the test build's (`cargo test` turns the `test-fakes` feature
//! on, so cargo builds them): `team-hooked`, the `team` command line with the test hooks open,
//! copied as `team` ([`team_bin`]); the test double `fake-seat` copied beside it
//! ([`fake_seat_bin`]), so both are on every run's PATH; and the product binary `team` itself
//! ([`product_bin`]), which never honours a hook. `TEAM_TEST_BIN` may point at a copy of the
//! binary to test instead of `CARGO_BIN_EXE_team-hooked` (the shared target dir's binary can be
//! rebuilt by another worktree).

#![allow(dead_code)]

/// A private tmux server with a session of fake seats (`TmuxWorld`).
pub mod scene;
/// Two machines joined by a real OpenSSH server (`SshWorld`).
pub mod ssh;
pub mod tmux;
pub mod tool;

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The spec's example team file (docs/spec/team-send.md "Examples").
pub const BEACON: &str = "format: 1
project: beacon
coordinator: claude-keeper
operator: claude-keeper

trust:
  - ~/.config/team/lobby
  - ~/Code/beacon

workspace:
  mode: shared

seats:
  - role: coordinator
    name: claude-keeper
    nickname: agamemnon
    label: coordinator
    cli: claude-code
    vendor: anthropic
    model: Claude Opus
    version: \"5.5\"
    launch: claude --model claude-opus-5-5

  - role: reviewer
    name: gpt-reviewer
    label: reviewer
    cli: codex
    vendor: openai
    model: GPT Sol
    version: \"6\"
    launch: codex -m gpt-6-sol
";

/// The bound of every wait on a condition in this suite: generous, so a loaded machine only
/// makes a passing test slower; reached only when the condition never comes (a failure).
pub const BOUND: std::time::Duration = std::time::Duration::from_secs(120);

/// The instant every run sees (`TEAM_NOW`).
pub const NOW: &str = "2026-10-01T09:00:00Z";

/// The folder of this test process's private copies of the binaries (a rebuild of the shared
/// target dir cannot swap them under a running test, and exec'ing a copy is never "text file
/// busy"), made once; the copies of test processes that have ended are removed.
fn bin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // The copies of test processes that have ended: a 64 MB binary each, and a suite run
        // under a loop makes hundreds.
        if let Ok(rd) = std::fs::read_dir(std::env::temp_dir()) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(pid) = name.strip_prefix("team-test-bin-").and_then(|p| p.parse::<u32>().ok()) else {
                    continue;
                };
                if !Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let dir = std::env::temp_dir().join(format!("team-test-bin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// A private copy of the binary under test, `team` with the test hooks open (`team-hooked`,
/// or `$TEAM_TEST_BIN`), named `team`, made once per test process.
pub fn team_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let src = std::env::var_os("TEAM_TEST_BIN")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_team-hooked")));
        let dst = bin_dir().join("team");
        copy_executable(&src, &dst);
        dst
    })
}

/// A private copy of the test double, `fake-seat`, beside [`team_bin`]'s (on every run's PATH).
pub fn fake_seat_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let dst = bin_dir().join("fake-seat");
        copy_executable(Path::new(env!("CARGO_BIN_EXE_fake-seat")), &dst);
        // the runs' PATH is the copies' folder: team's copy is made with it
        let _ = team_bin();
        dst
    })
}

/// The product binary as `cargo install` builds it from `src/main.rs`: it never opens the test
/// hooks (this test build carries their code; `team` never turns it on).
pub fn product_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_team"))
}

/// Copies an executable by running `cp`, so the file is open for writing only in that child:
/// written here, its descriptor would be inherited by any process another test thread forks in
/// the meantime, and exec'ing the copy would fail with "text file busy" (ETXTBSY).
pub fn copy_executable(src: &Path, dst: &Path) {
    let st = Command::new("cp").arg(src).arg(dst).status().expect("run cp");
    assert!(st.success(), "cp {} {}", src.display(), dst.display());
}

/// What one run printed and how it ended.
#[derive(Debug, Clone)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// A pseudo-terminal whose two ends close on exec from the moment they exist.
///
/// `openpty(3)` leaves both ends inheritable, and tests spawn in parallel threads: a tmux
/// server another test starts in between inherits our master, so closing ours no longer hangs
/// the terminal up (a `status --watch` test then waited for a hang-up that never came).
pub struct Pty {
    pub master: OwnedFd,
    pub slave: OwnedFd,
}

/// Opens a [`Pty`] with `O_CLOEXEC` on both ends (the child's stdio gets the slave through
/// dup2, which clears the flag on the copy only).
pub fn pty() -> Pty {
    use nix::fcntl::OFlag;
    let master = nix::pty::posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC).unwrap();
    nix::pty::grantpt(&master).unwrap();
    nix::pty::unlockpt(&master).unwrap();
    let name = nix::pty::ptsname_r(&master).unwrap();
    let slave: OwnedFd = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags((OFlag::O_NOCTTY | OFlag::O_CLOEXEC).bits())
        .open(name)
        .unwrap()
        .into();
    Pty { master: master.into(), slave }
}

/// A run started with [`World::start`].
pub struct Started {
    _pty: Pty,
    code_file: PathBuf,
    child: std::process::Child,
}

impl Drop for Started {
    fn drop(&mut self) {
        // reaped if it has ended; one still running is left to end on its own
        let _ = self.child.try_wait();
    }
}

impl Started {
    /// The run's exit code once it has ended, waiting up to `bound` for it.
    pub fn code(&self, bound: std::time::Duration) -> Option<i32> {
        let until = std::time::Instant::now() + bound;
        loop {
            if let Ok(t) = std::fs::read_to_string(&self.code_file) {
                if let Ok(c) = t.trim().parse() {
                    return Some(c);
                }
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// A pipe whose ends close on exec (see `pipe` below): (read, write).
pub fn os_pipe() -> (std::fs::File, std::fs::File) {
    pipe()
}

/// One fixture world in a temp dir.
pub struct World {
    pub tmp: tempfile::TempDir,
    /// The git checkout holding `.agents/team.yaml`.
    pub repo: PathBuf,
    pub home: PathBuf,
    pub config: PathBuf,
    pub state: PathBuf,
    pub cache: PathBuf,
    /// Extra env the runs see (a tmux pane for a seat caller, …).
    pub extra_env: Vec<(String, String)>,
}

impl World {
    /// An empty world: the dirs and a git checkout with no team file.
    pub fn empty() -> World {
        let tmp = tempfile::Builder::new().prefix("team-world-").tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let repo = base.join("beacon");
        let home = base.join("home");
        let config = base.join("config");
        let state = base.join("state");
        let cache = base.join("cache");
        for d in [&repo, &home, &state, &cache] {
            std::fs::create_dir_all(d).unwrap();
        }
        let ok = Command::new("git").args(["init", "-q"]).current_dir(&repo).env("HOME", &home).status().unwrap();
        assert!(ok.success(), "git init");
        World { tmp, repo, home, config, state, cache, extra_env: Vec::new() }
    }

    /// The spec's example world: the beacon team file, no registry.
    pub fn beacon() -> World {
        let w = World::empty();
        w.team_file(BEACON);
        w
    }

    pub fn base(&self) -> PathBuf {
        self.repo.parent().unwrap().to_path_buf()
    }

    /// Writes `<repo>/.agents/team.yaml`.
    pub fn team_file(&self, text: &str) {
        self.write(&self.repo.join(".agents/team.yaml"), text);
    }

    /// Writes a file under `<config>` (the registry), making its folders.
    pub fn config_file(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.config.join(rel);
        self.write(&p, text);
        p
    }

    /// Writes an agent record `<config>/agents/<id>.yaml`.
    pub fn agent(&self, id: &str, team: &str, seat: &str, cli: &str, root: Option<&Path>) -> PathBuf {
        let mut t = format!("id: {id}\nseat: {seat}\nteam: {team}\ncli: {cli}\n");
        if let Some(r) = root {
            t.push_str(&format!("root: {}\n", r.display()));
        }
        self.config_file(&format!("agents/{id}.yaml"), &t)
    }

    pub fn write(&self, p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Approves, as the owner, the `notify:` command the world's team file names now (a team
    /// file's command runs only once its owner has: `team trust`).
    pub fn trust_notify(&self) {
        let r = self.team(&["trust", "notify"]);
        assert_eq!(r.code, 0, "team trust notify: {r:?}");
    }

    /// The environment every run gets (and nothing else).
    pub fn env(&self) -> Vec<(String, String)> {
        let bin = fake_seat_bin().parent().unwrap().display().to_string();
        let mut v = vec![
            ("PATH".to_string(), format!("{bin}:/usr/local/bin:/usr/bin:/bin")),
            ("HOME".into(), self.home.display().to_string()),
            ("TEAM_CONFIG_DIR".into(), self.config.display().to_string()),
            ("TEAM_STATE_DIR".into(), self.state.display().to_string()),
            ("TEAM_CACHE_DIR".into(), self.cache.display().to_string()),
            ("TEAM_NOW".into(), NOW.into()),
            ("TEAM_ID_SEED".into(), "7".into()),
            ("LANG".into(), "C.UTF-8".into()),
            // the feed's TIME is local time: the world's zone is UTC unless a test sets TZ
            ("TZ".into(), "UTC".into()),
            ("WORLD".into(), self.base().display().to_string()),
        ];
        v.extend(self.extra_env.iter().cloned());
        v
    }

    fn command(&self, script: &str, cwd: &Path) -> Command {
        // `setsid` gives the run no controlling terminal, so only the descriptors below decide
        // whether it has one; the test process stays its parent and holds the terminal.
        let mut c = Command::new("bash");
        c.arg("-c").arg(script);
        c.env_clear().envs(self.env()).current_dir(cwd);
        unsafe {
            c.pre_exec(|| {
                nix::unistd::setsid().map_err(|e| std::io::Error::from_raw_os_error(e as i32))?;
                Ok(())
            });
        }
        c
    }

    /// Runs `script` under bash in `cwd` with stdin on a real pseudo-terminal and stdout and
    /// stderr on ONE pipe (their order kept, as the spec's transcripts show them).
    pub fn run_pty_merged(&self, script: &str, cwd: &Path) -> String {
        let pty = pty();
        let (mut r, w) = pipe();
        let w2 = w.try_clone().unwrap();
        let mut c = self.command(script, cwd);
        c.stdin(Stdio::from(pty.slave)).stdout(Stdio::from(w)).stderr(Stdio::from(w2));
        let mut child = c.spawn().unwrap();
        drop(c);
        // read while it runs: a full pipe would stop it
        let mut out = String::new();
        r.read_to_string(&mut out).unwrap();
        child.wait().unwrap();
        drop(pty.master);
        out
    }

    /// Runs `team <args>` in `cwd` with stdin on a pseudo-terminal; stdout and stderr apart.
    pub fn run(&self, args: &[&str], cwd: &Path) -> Run {
        self.run_with(args, cwd, true)
    }

    /// Runs `team <args>` in the checkout with a terminal.
    pub fn team(&self, args: &[&str]) -> Run {
        self.run_with(args, &self.repo, true)
    }

    /// Runs `team <args>` with no terminal at all (stdin /dev/null, pipes, no controlling tty).
    pub fn team_no_tty(&self, args: &[&str]) -> Run {
        self.run_with(args, &self.repo, false)
    }

    fn run_with(&self, args: &[&str], cwd: &Path, tty: bool) -> Run {
        let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
        self.sh_with(&format!("team {}", quoted.join(" ")), cwd, tty)
    }

    /// Runs a bash command line (`team send x $'\xff'`, `printf … | team …`) in the checkout
    /// with stdin on a pseudo-terminal; stdout and stderr apart; the line's exit code.
    pub fn sh(&self, line: &str) -> Run {
        self.sh_with(line, &self.repo, true)
    }

    /// Runs a bash command line in `cwd` with stdin on a pseudo-terminal, as [`World::sh`].
    pub fn sh_in(&self, line: &str, cwd: &Path) -> Run {
        self.sh_with(line, cwd, true)
    }

    /// `sh` with no terminal at all (stdin /dev/null unless the line redirects it, pipes, no
    /// controlling terminal).
    pub fn sh_no_tty(&self, line: &str) -> Run {
        self.sh_with(line, &self.repo, false)
    }

    /// Starts a bash command line in the checkout, detached as every run is, with stdin on a
    /// pseudo-terminal and stdout and stderr where the caller says. Its exit code is read with
    /// [`Started::code`]; keep the `Started` until then (it holds the terminal).
    pub fn start(&self, line: &str, stdout: Stdio, stderr: Stdio) -> Started {
        let code_file = self.base().join(format!(".code-{}", rand_suffix()));
        let script = format!("{line}; echo $? > {}", shell_quote(&code_file.display().to_string()));
        let pty = pty();
        let mut c = self.command(&script, &self.repo);
        c.stdin(Stdio::from(pty.slave.try_clone().unwrap())).stdout(stdout).stderr(stderr);
        let child = c.spawn().unwrap();
        drop(c);
        Started { _pty: pty, code_file, child }
    }

    fn sh_with(&self, line: &str, cwd: &Path, tty: bool) -> Run {
        let code_file = self.base().join(format!(".code-{}", rand_suffix()));
        let script = format!("{line}; echo $? > {}", shell_quote(&code_file.display().to_string()));
        let pty = if tty { Some(pty()) } else { None };
        let (mut ro, wo) = pipe();
        let (mut re, we) = pipe();
        let mut c = self.command(&script, cwd);
        match &pty {
            Some(p) => c.stdin(Stdio::from(p.slave.try_clone().unwrap())),
            None => c.stdin(Stdio::null()),
        };
        c.stdout(Stdio::from(wo)).stderr(Stdio::from(we));
        let mut child = c.spawn().unwrap();
        drop(c);
        let t = std::thread::spawn(move || {
            let mut s = String::new();
            re.read_to_string(&mut s).unwrap();
            s
        });
        let mut stdout = String::new();
        ro.read_to_string(&mut stdout).unwrap();
        let stderr = t.join().unwrap();
        child.wait().unwrap();
        drop(pty);
        let code = std::fs::read_to_string(&code_file).unwrap_or_default().trim().parse().unwrap_or(-1);
        let _ = std::fs::remove_file(&code_file);
        Run { stdout, stderr, code }
    }

    /// Starts a private tmux server with one pane; runs then see `TEAM_TEST_TMUX` (its socket)
    /// and `TEAM_TEST_TMUX_PANE` (the pane). A caller is a seat only from inside a marked pane
    /// (see `as_seat` in transcripts.rs). Returns the pane id.
    pub fn tmux_pane(&mut self) -> String {
        let sock = self.base().join("tmux.sock");
        let s = sock.display().to_string();
        let ok = Command::new("tmux")
            .args([
                "-S",
                &s,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "beacon",
                "-x",
                "80",
                "-y",
                "24",
                "sleep 600",
            ])
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.home)
            .status()
            .unwrap();
        assert!(ok.success(), "tmux new-session");
        let out = Command::new("tmux")
            .args(["-S", &s, "display-message", "-p", "-t", "beacon", "#{pane_id}"])
            .output()
            .unwrap();
        let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
        // Runs do not inherit TMUX/TMUX_PANE: a pane is believed only from inside it, so
        // `as_seat` (transcripts.rs) runs its command in a marked pane of this server.
        self.extra_env.push(("TEAM_TEST_TMUX".into(), s.clone()));
        self.extra_env.push(("TEAM_TEST_TMUX_PANE".into(), pane.clone()));
        pane
    }

    /// A world whose seats `seats` (`[--tool] <seat>:<cli>[:<mode>]…`, the transcripts'
    /// `fake_seats`) run in a private tmux server, and whose `as_seat` panes are of that server;
    /// its team file first (`file`, or the spec's).
    pub fn with_fake_seats(file: Option<&str>, seats: &str) -> World {
        let mut w = World::beacon();
        if let Some(f) = file {
            w.team_file(f);
        }
        let prelude = w.base().join("prelude.sh");
        std::fs::write(&prelude, crate::transcripts::PRELUDE).unwrap();
        w.extra_env.push(("BASH_ENV".into(), prelude.display().to_string()));
        w.tmux_pane();
        w.extra_env.push(("TEAM_TMUX_SOCKET".into(), w.base().join("seats.sock").display().to_string()));
        let r = w.sh(&format!("fake_seats {seats}"));
        assert_eq!(r.code, 0, "{r:?}");
        w
    }

    /// Every history line of every project under the world's config, in file order.
    pub fn history(&self) -> Vec<Value> {
        let mut out = vec![];
        for e in std::fs::read_dir(&self.config).into_iter().flatten().flatten() {
            if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
                out.extend(t.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()));
            }
        }
        out
    }

    /// Marks the tmux pane as `seat` (`<seat>` or `<seat>@<team>`); empty clears it.
    pub fn mark_pane(&self, seat: &str) {
        let s = self.base().join("tmux.sock").display().to_string();
        let pane = self
            .extra_env
            .iter()
            .find(|(k, _)| k == "TEAM_TEST_TMUX_PANE")
            .map(|(_, v)| v.clone())
            .expect("tmux_pane first");
        let mut a = vec!["-S", s.as_str(), "set-option", "-p", "-t", pane.as_str()];
        if seat.is_empty() {
            a.extend(["-u", "@team-seat"]);
        } else {
            a.extend(["@team-seat", seat]);
        }
        assert!(Command::new("tmux").args(&a).status().unwrap().success());
    }
}

impl Drop for World {
    fn drop(&mut self) {
        // every private tmux server the world stood up (`tmux.sock`, the transcripts' and the
        // scenario tests' `seats.sock`, …): one left running outlives the temp dir and its seats
        // poll for ever, loading every later test
        let socks = std::fs::read_dir(self.base()).into_iter().flatten().flatten().map(|e| e.path());
        for sock in socks.filter(|p| p.extension().is_some_and(|x| x == "sock")) {
            let _ = Command::new("tmux").arg("-S").arg(&sock).arg("kill-server").output();
        }
    }
}

fn pipe() -> (std::fs::File, std::fs::File) {
    // close-on-exec: a daemon a run starts (a tmux server) must not inherit the write end and
    // keep the reader waiting for an end of file that never comes
    let (r, w): (OwnedFd, OwnedFd) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).unwrap();
    let _ = r.as_raw_fd();
    (std::fs::File::from(r), std::fs::File::from(w))
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// The shell words that write the last command's exit code to `rc` whole: into a temp file,
/// then renamed. A test waits for `rc` to exist, and `echo $? > rc` makes it exist empty
/// before it writes the code: a loaded machine preempts the shell in between (measured: 5 of
/// 300 reads of a just-made file found it empty), and the test read "" for the exit code.
/// The script a test pane runs `line` with (as a process of that pane): `first` (a wait, or
/// nothing), the world's environment exported, the checkout as its folder, the line's merged
/// output to `<d>/out` and its exit code to `<d>/rc` (written last), then a sleep that keeps
/// the pane open. [`pane_said`] reads it back.
pub fn pane_script(w: &World, d: &Path, first: &str, line: &str) -> String {
    let mut script = String::from(first);
    for (k, v) in w.env() {
        script.push_str(&format!("export {k}={}\n", shell_quote(&v)));
    }
    script.push_str(&format!(
        "cd {}\n{line} > '{d}/out' 2>&1\n{}\nexec sleep 600\n",
        shell_quote(&w.repo.display().to_string()),
        write_rc(&d.join("rc")),
        d = d.display()
    ));
    script
}

/// What a [`pane_script`] in `d` that has ended said: its output and exit code.
pub fn pane_said(d: &Path) -> (String, i32) {
    let code = std::fs::read_to_string(d.join("rc")).unwrap().trim().parse().unwrap();
    (std::fs::read_to_string(d.join("out")).unwrap(), code)
}

pub fn write_rc(rc: &Path) -> String {
    let part = shell_quote(&format!("{}.part", rc.display()));
    format!("echo $? > {part} && mv {part} {}", shell_quote(&rc.display().to_string()))
}

pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The repository's `schema/` folder.
pub fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("schema")
}

/// Validates a `--json` document against the schema its `schema.name` names
/// (`team.send` → `schema/send.schema.json`, `team.send.list` → `send-list`, …).
pub fn validate(doc: &Value) -> Result<(), String> {
    let name = doc["schema"]["name"].as_str().ok_or("the document has no schema.name")?;
    let file = match name {
        "team.send" => "send",
        "team.send.list" => "send-list",
        "team.error" => "error",
        "team.feed" => "feed",
        "team.route" => "route",
        "team.register" => "register",
        other => other.trim_start_matches("team.").split('.').collect::<Vec<_>>().join("-").leak(),
    };
    let p = schema_dir().join(format!("{file}.schema.json"));
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?)
            .map_err(|e| format!("{}: {e}", p.display()))?;
    let v = jsonschema::draft202012::new(&schema).map_err(|e| format!("{}: {e}", p.display()))?;
    let errs: Vec<String> = v.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!("{name} document does not match {}: {}", p.display(), errs.join("; ")))
    }
}
