//! A stand-in for the herdr program in tests (herdr cannot be installed where they run): it
//! answers each argv the adapter runs with the stdout/stderr/exit code herdr recorded for
//! exactly that argv (`tests/data/herdr-0.7.1/`, `tests/data/herdr-0.8.2/`), and fails the
//! test on any argv it was not given. The adapter under test is the production one.
//!
//! A recording can be split in phases (before typing, after `pane send-text`, after
//! `pane send-keys … enter`): the answers of the current phase win over the common ones, so a
//! test replays a recorded sequence of states around a send.
//!
//! Two answers are not a recording of that very argv, and say so where they are made:
//! - the real/ sets recorded no `status`; a session there is answered with the fake set's
//!   `status-running.txt` of the same herdr build (client and server are one version);
//! - 0.8.2's real/ set recorded `pane read --source recent --lines 200 --format ansi` once, in the
//!   `idle-after-reply` state, byte for byte equal to that state's `visible.ansi` (both CLIs run
//!   on the alternate screen, which keeps no rows above it unless the server scrolls the app);
//!   the other states answer that argv with their own `visible.ansi`.

use super::super::{RunOutput, Runner};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The recorded sets.
pub const V071: &str = "herdr-0.7.1";
pub const V082: &str = "herdr-0.8.2";

pub fn data(set: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(set)
}

type Answer = (i32, Vec<u8>, Vec<u8>, f64);
type Answers = HashMap<Vec<String>, Answer>;

/// Answers argv from recorded files; remembers every argv it was asked.
#[derive(Default)]
pub struct FixtureRunner {
    set: String,
    common: Answers,
    /// Phase 0: before typing; 1: after `pane send-text`; 2: after `pane send-keys`.
    phases: [Answers; 3],
    phase: Mutex<usize>,
    /// Benchmarks: how long a call takes, from its argv and the duration recorded with its
    /// answer (the ANSI recent read of a real state keeps the recorded *text* read's duration,
    /// for the benchmark's counterfactual). `None`: at once.
    pub cost: Option<fn(&[String], f64) -> f64>,
    calls: Mutex<Vec<Vec<String>>>,
    /// The answers that win once something was started (`Runner::start`: herdr's server).
    after_start: Answers,
    started: Mutex<Vec<Vec<String>>>,
}

pub fn argv(args: &[&str]) -> Vec<String> {
    std::iter::once("herdr").chain(args.iter().copied()).map(String::from).collect()
}

impl FixtureRunner {
    /// A runner over one recorded set: `herdr --version` answered from it, nothing else.
    pub fn of(set: &str) -> Self {
        let r = FixtureRunner { set: set.into(), ..Default::default() };
        r.on(&["--version"], 0, "version.txt")
    }

    /// `of(set)` with `status` answered "running, compatible" for `sessions`.
    pub fn running(set: &str, sessions: &[&str]) -> Self {
        let mut r = Self::of(set);
        for s in sessions {
            r = r.on(&["--session", s, "status"], 0, "status-running.txt");
        }
        r
    }

    fn load(&self, file: &str) -> (Vec<u8>, Vec<u8>) {
        let bytes = std::fs::read(data(&self.set).join(file)).unwrap_or_else(|e| panic!("{}/{file}: {e}", self.set));
        if file.contains(".stderr.") {
            (Vec::new(), bytes)
        } else {
            (bytes, Vec::new())
        }
    }

    /// `args` exits `code` printing `file` (stdout, or stderr when its name says `.stderr.`).
    pub fn on(mut self, args: &[&str], code: i32, file: &str) -> Self {
        let (out, err) = self.load(file);
        self.common.insert(argv(args), (code, out, err, 0.0));
        self
    }

    /// `args` exits `code` printing `stderr`: a form no recording holds, made by what prints it
    /// (see [`printed_by_main`]).
    pub fn on_stderr(mut self, args: &[&str], code: i32, stderr: &str) -> Self {
        self.common.insert(argv(args), (code, Vec::new(), stderr.as_bytes().to_vec(), 0.0));
        self
    }

    /// `on`, with the file from another recorded set (a cross-version case).
    pub fn on_from(mut self, set: &str, args: &[&str], code: i32, file: &str) -> Self {
        let own = std::mem::replace(&mut self.set, set.into());
        self = self.on(args, code, file);
        self.set = own;
        self
    }

    /// Like `on`, once `Runner::start` was called (the server it started answers).
    pub fn on_after_start(mut self, args: &[&str], code: i32, file: &str) -> Self {
        let (out, err) = self.load(file);
        self.after_start.insert(argv(args), (code, out, err, 0.0));
        self
    }

    /// Every argv `Runner::start` was given.
    pub fn started(&self) -> Vec<Vec<String>> {
        self.started.lock().unwrap().clone()
    }

    /// Like `on`, in `phase` only.
    pub fn in_phase(mut self, phase: usize, args: &[&str], code: i32, file: &str, ms: f64) -> Self {
        let (out, err) = self.load(file);
        self.phases[phase].insert(argv(args), (code, out, err, ms));
        self
    }

    /// Every file of one recorded state of `real/<cli>/index.json`, placeholders filled in, in
    /// `phase` (`None`: common to all phases).
    pub fn real_state(self, cli: &str, state: &str, name: &str, pane: &str, phase: Option<usize>) -> Self {
        self.real_state_only(cli, state, name, pane, phase, |_| true)
    }

    /// `real_state`, keeping only the recorded files whose kind (`agent-get`, `visible`, …) `keep` says.
    pub fn real_state_only(
        mut self,
        cli: &str,
        state: &str,
        name: &str,
        pane: &str,
        phase: Option<usize>,
        keep: impl Fn(&str) -> bool,
    ) -> Self {
        let index: Value =
            serde_json::from_slice(&std::fs::read(data(&self.set).join("real").join(cli).join("index.json")).unwrap())
                .unwrap();
        let st = index["states"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["state"] == state)
            .unwrap_or_else(|| panic!("{cli} {state}"));
        let fill = |a: &Value| {
            a.as_str().unwrap().replace("<session>", "teamrh").replace("<name>", name).replace("<pane>", pane)
        };
        for (what, f) in st["files"].as_object().unwrap() {
            if !keep(what) {
                continue;
            }
            let args: Vec<String> = f["argv"].as_array().unwrap().iter().skip(1).map(fill).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let file = format!("real/{cli}/{}", f["file"].as_str().unwrap());
            let (code, ms) = (f["exit"].as_i64().unwrap() as i32, f["duration_ms"].as_f64().unwrap_or(0.0));
            self = self.put(phase, &args, code, &file, ms);
            if what == "visible" && self.set == V082 {
                // see the module doc: 0.8.2's recent rows of these CLIs, read as ANSI
                let mut recent =
                    vec!["--session", "teamrh", "pane", "read", pane, "--source", "recent", "--lines", "200"];
                recent.extend(["--format", "ansi"]);
                let text_ms = st["files"]["recent"]["duration_ms"].as_f64().unwrap_or(ms);
                self = self.put(phase, &recent, code, &file, text_ms);
            }
        }
        self
    }

    fn put(mut self, phase: Option<usize>, args: &[&str], code: i32, file: &str, ms: f64) -> Self {
        match phase {
            Some(p) => self.in_phase(p, args, code, file, ms),
            None => {
                let (out, err) = self.load(file);
                self.common.insert(argv(args), (code, out, err, ms));
                self
            }
        }
    }

    pub fn calls(&self) -> Vec<Vec<String>> {
        self.calls.lock().unwrap().clone()
    }
}

impl Runner for FixtureRunner {
    fn run(&self, argv: &[String]) -> std::io::Result<RunOutput> {
        self.calls.lock().unwrap().push(argv.to_vec());
        let phase = *self.phase.lock().unwrap();
        let started = !self.started.lock().unwrap().is_empty();
        let (code, stdout, stderr, ms) = (started.then(|| self.after_start.get(argv)).flatten())
            .or_else(|| self.phases[phase].get(argv))
            .or_else(|| self.common.get(argv))
            .unwrap_or_else(|| panic!("herdr was run with an argv no recording answers (phase {phase}): {argv:?}"))
            .clone();
        if let Some(cost) = self.cost {
            std::thread::sleep(Duration::from_secs_f64(cost(argv, ms) / 1000.0));
        }
        let verb = argv.iter().map(String::as_str).find(|a| a.starts_with("send-"));
        let next = match verb {
            Some("send-text") => 1,
            Some("send-keys") => 2,
            _ => phase,
        };
        *self.phase.lock().unwrap() = phase.max(next);
        Ok(RunOutput { code: Some(code), stdout, stderr })
    }
    fn start(&self, argv: &[String]) -> std::io::Result<()> {
        self.started.lock().unwrap().push(argv.to_vec());
        Ok(())
    }
}

/// Shares the runner with the adapter so the test can read the calls afterwards.
pub struct Shared(pub Arc<FixtureRunner>);
impl Runner for Shared {
    fn run(&self, argv: &[String]) -> std::io::Result<RunOutput> {
        self.0.run(argv)
    }
    fn start(&self, argv: &[String]) -> std::io::Result<()> {
        self.0.start(argv)
    }
}

/// The adapter over `r`, with /proc of this machine kept out (it knows nothing of the
/// recorded pids).
pub fn herdr(r: FixtureRunner) -> (super::Herdr, Arc<FixtureRunner>) {
    let r = Arc::new(r);
    let mut h = super::Herdr::with_runner("herdr", Box::new(Shared(r.clone())));
    h.tree = |_| Vec::new();
    (h, r)
}

/// Whether an argv would make herdr ≥ 0.7.5 collect an alternate-screen CLI's history by
/// scrolling it (src/server/headless.rs `alt_screen_read_spec`): a `pane read`/`agent read`
/// of `recent`/`recent-unwrapped` (the default source) in text format asking more rows than a
/// screen has (`--lines`, default 80; the real panes had 40).
pub fn starts_alt_screen_collection(argv: &[String]) -> bool {
    let a: Vec<&str> = argv.iter().map(String::as_str).collect();
    let Some(i) = a.windows(2).position(|w| w == ["pane", "read"] || w == ["agent", "read"]) else { return false };
    let rest = &a[i + 2..];
    let opt = |name: &str| rest.windows(2).find(|w| w[0] == name).map(|w| w[1]);
    let source = opt("--source").unwrap_or("recent");
    let ansi = opt("--format") == Some("ansi") || rest.contains(&"--ansi") || rest.contains(&"--raw");
    let lines: u32 = opt("--lines").and_then(|n| n.parse().ok()).unwrap_or(80);
    matches!(source, "recent" | "recent-unwrapped") && !ansi && lines > 40
}

/// What Rust prints for an I/O error returned from `main` — herdr's `main() -> io::Result<()>`
/// returns every socket error it does not report itself (herdr 0.8.2 `src/main.rs`; all of
/// them on 0.7.1): `Error: ` and the error's Debug form, produced here by std itself.
pub fn printed_by_main(errno: i32) -> String {
    format!("Error: {:?}\n", std::io::Error::from_raw_os_error(errno))
}
