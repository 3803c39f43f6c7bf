//! A private tmux server with a session of fake seats, for scenario tests.
//!
//! `TmuxWorld::start(session, &[SeatSpec…])` makes a temp dir (the world), pins a copy of the
//! test double `fake-seat` (`common::fake_seat_bin`: the shared target dir's binary can be
//! rebuilt under a running test), starts a tmux server on a socket inside it (`tmux -S
//! <dir>/tmux.sock`: never the user's server; started without the test's `XDG_RUNTIME_DIR`, so
//! a seat's socket is never put in the user's runtime folder), and opens one window per seat: a
//! `sh` running `fake-seat …` (so the pane's shell is the fake's parent, as with a real CLI),
//! in the seat's own folder with its own `HOME` (inside the world: the double runs only under a
//! temp HOME), the pane marked `@team-seat <name>`. Every seat logs the bytes it receives to
//! `<dir>/<seat>.log`, and, once it has acted on them and drawn the result, their count to
//! `<dir>/<seat>.acted` (`acted_on`: what a "nothing happened" assertion waits for). The server is killed when the world drops.
//!
//! Point the `team` binary (or `mux::tmux::Tmux`) at it with `TEAM_TMUX_SOCKET=<socket>`
//! (`world.env()` gives the variables to set).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// One fake seat to start.
#[derive(Debug, Clone)]
pub struct SeatSpec {
    pub name: String,
    /// `claude-code` | `codex` | `cursor`
    pub cli: String,
    /// a `fake-seat --mode` value
    pub mode: String,
    pub delay_ms: u64,
    /// write the vendor transcript (`--transcript auto`, under the seat's HOME)
    pub transcript: bool,
    pub cols: u32,
    pub rows: u32,
    /// the seat's working folder (default: `<world>/proj/<name>`), e.g. the team's checkout
    pub cwd: Option<PathBuf>,
    /// the seat's HOME (default: `<world>/home/<name>`)
    pub home: Option<PathBuf>,
    /// more environment for the fake seat's process
    pub env: Vec<(String, String)>,
    /// the pane's `@team-seat` mark (default: the name; `""`: leave the pane unmarked)
    pub mark: Option<String>,
    /// a shell line the pane's shell starts in the background before the fake seat: a process
    /// that descends from the pane's shell, as a command an agent's shell tool runs does
    pub beside: Option<String>,
    /// more `fake-seat` arguments (`--hooks <file>`, …)
    pub args: Vec<String>,
}

impl SeatSpec {
    pub fn new(name: &str, cli: &str, mode: &str) -> SeatSpec {
        SeatSpec {
            name: name.into(),
            cli: cli.into(),
            mode: mode.into(),
            delay_ms: 600,
            transcript: false,
            cols: 120,
            rows: 40,
            cwd: None,
            home: None,
            env: Vec::new(),
            mark: None,
            beside: None,
            args: Vec::new(),
        }
    }
    /// One more `fake-seat` flag and its value.
    pub fn arg(mut self, flag: &str, value: &str) -> Self {
        self.args.push(flag.into());
        self.args.push(value.into());
        self
    }
    /// Runs `line` in the background from the pane's shell, beside the fake seat (see `beside`).
    pub fn beside(mut self, line: &str) -> Self {
        self.beside = Some(line.into());
        self
    }
    pub fn cwd(mut self, dir: &Path) -> Self {
        self.cwd = Some(dir.to_path_buf());
        self
    }
    pub fn home(mut self, dir: &Path) -> Self {
        self.home = Some(dir.to_path_buf());
        self
    }
    pub fn env(mut self, k: &str, v: &str) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }
    /// Marks the pane `@team-seat <mark>` (`<seat>@<team>` works too); `""` leaves it unmarked.
    pub fn mark(mut self, mark: &str) -> Self {
        self.mark = Some(mark.into());
        self
    }
    pub fn delay(mut self, ms: u64) -> Self {
        self.delay_ms = ms;
        self
    }
    pub fn transcript(mut self) -> Self {
        self.transcript = true;
        self
    }
    pub fn size(mut self, cols: u32, rows: u32) -> Self {
        self.cols = cols;
        self.rows = rows;
        self
    }
}

/// A started seat.
#[derive(Debug, Clone)]
pub struct Seat {
    pub spec: SeatSpec,
    /// tmux pane id (`%3`)
    pub pane: String,
    /// the seat's working folder
    pub cwd: PathBuf,
    /// the seat's HOME
    pub home: PathBuf,
    /// where the fake logs every byte it receives
    pub log: PathBuf,
    /// where the fake writes the plain rows of the last frame it drew (`--drawn`)
    pub drawn: PathBuf,
    /// where the fake writes how many bytes it has acted on and drawn (`--acted`)
    pub acted: PathBuf,
}

pub struct TmuxWorld {
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
    pub session: String,
    /// the pinned test double the seats run (`fake-seat`)
    pub fake_seat: PathBuf,
    pub seats: Vec<Seat>,
}

impl TmuxWorld {
    /// A private tmux server with `session` holding one window per seat. Waits until every
    /// fake seat has drawn its first screen.
    pub fn start(session: &str, seats: &[SeatSpec]) -> TmuxWorld {
        let dir = tempfile::Builder::new().prefix("team-tmux-").tempdir().expect("temp dir");
        let socket = dir.path().join("tmux.sock");
        let fake_seat = super::fake_seat_bin().to_path_buf();
        let mut w = TmuxWorld { dir, socket, session: session.into(), fake_seat, seats: Vec::new() };
        // An empty first window keeps the session alive whatever the seats do.
        let out = w.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "120",
            "-y",
            "40",
            "-n",
            "keep",
            "sh",
        ]);
        assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
        for s in seats {
            w.add_seat(s.clone());
        }
        w
    }

    /// Starts one more seat in the session.
    pub fn add_seat(&mut self, spec: SeatSpec) -> Seat {
        let cwd = spec.cwd.clone().unwrap_or_else(|| self.dir.path().join("proj").join(&spec.name));
        let home = spec.home.clone().unwrap_or_else(|| self.dir.path().join("home").join(&spec.name));
        std::fs::create_dir_all(&cwd).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let log = self.dir.path().join(format!("{}.log", spec.name));
        let drawn = self.dir.path().join(format!("{}.drawn", spec.name));
        let acted = self.dir.path().join(format!("{}.acted", spec.name));
        let mut cmd = format!(
            "'{}' --cli {} --mode {} --log '{}' --drawn '{}' --acted '{}' --delay-ms {}",
            self.fake_seat.display(),
            spec.cli,
            spec.mode,
            log.display(),
            drawn.display(),
            acted.display(),
            spec.delay_ms
        );
        if spec.transcript {
            cmd.push_str(" --transcript auto");
        }
        for a in &spec.args {
            cmd.push_str(&format!(" {}", super::shell_quote(a)));
        }
        // `; exec sh` keeps sh the fake's parent (and the pane open after it exits).
        let cmd = match &spec.beside {
            Some(line) => format!("( {line} ) & {cmd}; exec sh"),
            None => format!("{cmd}; exec sh"),
        };
        let target = format!("={}:", self.session);
        let home_env = format!("HOME={}", home.display());
        let extra: Vec<String> = spec.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut opts: Vec<&str> = vec!["-n", &spec.name, "-c", cwd.to_str().unwrap(), "-e", &home_env];
        for e in &extra {
            opts.extend(["-e", e.as_str()]);
        }
        let pane = new_pane(|a| self.tmux(a), &target, &opts, &cmd);
        let out =
            self.tmux(&["resize-window", "-t", &pane, "-x", &spec.cols.to_string(), "-y", &spec.rows.to_string()]);
        assert!(out.status.success(), "tmux resize-window: {}", String::from_utf8_lossy(&out.stderr));
        let mark = spec.mark.clone().unwrap_or_else(|| spec.name.clone());
        if !mark.is_empty() {
            let out = self.tmux(&["set", "-p", "-t", &pane, "@team-seat", &mark]);
            assert!(out.status.success(), "tmux set @team-seat: {}", String::from_utf8_lossy(&out.stderr));
        }
        let seat = Seat { spec, pane, cwd, home, log, drawn, acted };
        // Not just any text: the window was resized after the seat may have drawn at the old
        // size, and a read before its redraw sees the old frame cut and reflowed by tmux.
        let shown = self.wait_until(super::BOUND, || self.shows_whole_frame(&seat));
        assert!(
            shown,
            "seat {} never showed a whole frame at {}x{}: the pane shows\n{}\nand the seat drew\n{}",
            seat.spec.name,
            seat.spec.cols,
            seat.spec.rows,
            self.capture_plain(&seat.pane),
            std::fs::read_to_string(&seat.drawn).unwrap_or_default()
        );
        self.seats.push(seat.clone());
        seat
    }

    /// Whether the pane shows, row for row, the last frame its fake seat drew, and that frame
    /// was drawn at the pane's own size.
    pub fn shows_whole_frame(&self, seat: &Seat) -> bool {
        let Ok(frame) = std::fs::read_to_string(&seat.drawn) else { return false };
        let mut rows = frame.lines();
        let size = self.tmux(&["display-message", "-p", "-t", &seat.pane, "#{pane_width}x#{pane_height}"]);
        if rows.next() != Some(String::from_utf8_lossy(&size.stdout).trim()) {
            return false;
        }
        let want: Vec<&str> = rows.collect();
        let shown = self.capture_plain(&seat.pane);
        let mut got: Vec<&str> = shown.lines().map(str::trim_end).collect();
        while got.last() == Some(&"") {
            got.pop();
        }
        got == want
    }

    /// Runs `tmux -S <socket> <args…>` (TMUX/TMUX_PANE removed).
    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .env_remove("TMUX_PANE")
            // (the server started here keeps the environment: no seat of it may put its socket
            // in the user's own runtime folder)
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .expect("run tmux")
    }

    pub fn seat(&self, name: &str) -> &Seat {
        self.seats.iter().find(|s| s.spec.name == name).unwrap_or_else(|| panic!("no seat {name}"))
    }

    /// Every byte seat `name` has received so far.
    pub fn log(&self, name: &str) -> Vec<u8> {
        std::fs::read(&self.seat(name).log).unwrap_or_default()
    }

    pub fn capture_plain(&self, pane: &str) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", pane]).stdout).into_owned()
    }

    pub fn screen(&self, name: &str) -> String {
        self.capture_plain(&self.seat(name).pane)
    }

    pub fn title(&self, name: &str) -> String {
        let out = self.tmux(&["display-message", "-p", "-t", &self.seat(name).pane, "#{pane_title}"]);
        String::from_utf8_lossy(&out.stdout).trim_end_matches('\n').to_string()
    }

    /// Waits until seat `name` has received exactly `sent`, acted on every byte of it, and its
    /// pane shows the frame it drew after them, whole; returns that screen. What a "nothing
    /// happened" assertion reads: the keys under test were reached, and the answer to them, if
    /// any, is on the screen.
    pub fn acted_on(&self, name: &str, sent: &[u8]) -> String {
        let seat = self.seat(name);
        let acted = || std::fs::read_to_string(&seat.acted).ok().and_then(|t| t.trim().parse::<usize>().ok());
        let done = self.wait_until(super::BOUND, || {
            self.log(name) == sent && acted() == Some(sent.len()) && self.shows_whole_frame(seat)
        });
        assert!(
            done,
            "seat {name} never acted on {:?}: it received {:?}, acted on {:?} bytes; it shows\n{}",
            String::from_utf8_lossy(sent),
            String::from_utf8_lossy(&self.log(name)),
            acted(),
            self.screen(name)
        );
        self.screen(name)
    }

    /// Polls `cond` every 20 ms until it holds or `limit` passes.
    pub fn wait_until(&self, limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
        let t = Instant::now();
        loop {
            if cond() {
                return true;
            }
            if t.elapsed() > limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until seat `name`'s plain screen contains `text`.
    pub fn wait_for_text(&self, name: &str, text: &str, limit: Duration) -> bool {
        self.wait_until(limit, || self.screen(name).contains(text))
    }

    /// The environment a `team` run needs to reach this server.
    pub fn env(&self) -> Vec<(String, String)> {
        vec![("TEAM_TMUX_SOCKET".into(), self.socket.display().to_string())]
    }

    pub fn socket_str(&self) -> &str {
        self.socket.to_str().unwrap()
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for TmuxWorld {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// Opens a detached window in `target` (`=<session>:`) running `cmd`, with the window options
/// `opts` (`-n`, `-c`, `-e` …), through `tmux` (one server's client); answers its pane id.
pub fn new_pane(tmux: impl Fn(&[&str]) -> Output, target: &str, opts: &[&str], cmd: &str) -> String {
    let mut args = vec!["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", target];
    args.extend_from_slice(opts);
    args.push(cmd);
    let out = tmux(&args);
    assert!(out.status.success(), "tmux new-window: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
