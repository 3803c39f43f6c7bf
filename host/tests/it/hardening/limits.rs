//! Issue 17's limits, against the built `team` in a private world: a team of 10,000 seats and a
//! roster of 1 MiB are listed and their status read in linear time (a hang guard only: the
//! time and memory figures are `bench/big-team.sh`'s), and `team profile test` on a hostile
//! screens folder (a FIFO, a 3 GiB sparse screen, a link to `/dev/zero`) is refused naming the
//! file, before anything is read from it.
//!
//! The runs that would hang on the unfixed build are started detached and waited for with a
//! bound ([`bounded`]); past it, every process of the world is killed and the test fails.

use crate::common::{Run, World};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// The hang guard of every run here (a run that ends at all ends in a few seconds; the
/// suite's generous bound, so a loaded machine never reads as a hang).
pub const GUARD: Duration = crate::common::BOUND;

/// A process of a world: one whose environment carries the world's `WORLD=<base>`.
#[derive(Debug, Clone)]
pub struct Proc {
    pub pid: u32,
    pub comm: String,
    pub args: Vec<String>,
}

/// Every live process of `w` (every run and what it started: git, tmux clients, …).
pub fn procs_of(w: &World) -> Vec<Proc> {
    let mark = format!("WORLD={}", w.base().display());
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(env) = std::fs::read(e.path().join("environ")) else { continue };
        if !env.split(|b| *b == 0).any(|v| v == mark.as_bytes()) {
            continue;
        }
        let comm = std::fs::read_to_string(e.path().join("comm")).unwrap_or_default().trim().to_string();
        let args = std::fs::read(e.path().join("cmdline"))
            .unwrap_or_default()
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        out.push(Proc { pid, comm, args });
    }
    out
}

/// The `team` process of `w` run with exactly these arguments, when one is running.
pub fn team_pid(w: &World, args: &[&str]) -> Option<u32> {
    procs_of(w).into_iter().find(|p| p.comm == "team" && p.args.len() > 1 && p.args[1..] == *args).map(|p| p.pid)
}

/// Does process `pid` hold a descriptor open on a path starting with `prefix`?
pub fn holds_open(pid: u32, prefix: &Path) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|t| t.starts_with(prefix)))
}

/// Kills every process of the world (a run past its bound, and whatever it started).
pub fn kill_world(w: &World) {
    for p in procs_of(w) {
        let _ = std::process::Command::new("kill").args(["-KILL", &p.pid.to_string()]).status();
    }
}

/// Polls `cond` every 20 ms for up to `limit`.
pub fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if std::time::Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A bash line started in the checkout (with a terminal, detached as every run is): its output
/// and exit code once it ends.
pub struct Pending {
    started: crate::common::Started,
    out: std::path::PathBuf,
    err: std::path::PathBuf,
}

impl Pending {
    pub fn start(w: &World, line: &str) -> Pending {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let out = w.base().join(format!(".pending-{n}.out"));
        let err = w.base().join(format!(".pending-{n}.err"));
        let q = |p: &Path| crate::common::shell_quote(&p.display().to_string());
        let started = w.start(&format!("{line} >{} 2>{}", q(&out), q(&err)), Stdio::null(), Stdio::null());
        Pending { started, out, err }
    }
    /// The exit code, when the line has ended already.
    pub fn ended(&self) -> Option<i32> {
        self.started.code(Duration::ZERO)
    }
    /// Waits for the end up to `bound`; past it every process of the world is killed and the
    /// test fails naming the line's output so far.
    pub fn wait(self, w: &World, bound: Duration) -> Run {
        let code = self.started.code(bound);
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        let Some(code) = code else {
            kill_world(w);
            panic!(
                "still running after {bound:?} (killed): stdout {:?}, stderr {:?}",
                read(&self.out),
                read(&self.err)
            );
        };
        Run { stdout: read(&self.out), stderr: read(&self.err), code }
    }
}

/// Runs `team <args>` in the checkout, bounded by [`GUARD`].
pub fn bounded(w: &World, args: &[&str]) -> Run {
    let quoted: Vec<String> = args.iter().map(|a| crate::common::shell_quote(a)).collect();
    Pending::start(w, &format!("team {}", quoted.join(" "))).wait(w, GUARD)
}

// ------------------------------------------------------------------ item 4: big teams

/// A team file of `n` seats, each with a nickname and a role (10,000 seats: about 700 KB).
fn big_team(n: usize) -> String {
    let mut f = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for i in 0..n {
        f.push_str(&format!("  - name: seat-{i:05}\n    nickname: nick-{i:05}\n    role: worker\n    cli: codex\n"));
    }
    f
}

/// A world whose multiplexer is a tmux server that is not running (a private socket): every
/// seat is looked for, and none is found.
fn no_server(w: &mut World) {
    let sock = w.base().join("no-server.sock");
    w.extra_env.push(("TEAM_TMUX_SOCKET".into(), sock.display().to_string()));
}

#[test]
fn ten_thousand_seats_are_listed_and_their_status_read() {
    let mut w = World::empty();
    let n = 10_000;
    w.team_file(&big_team(n));
    no_server(&mut w);
    let rows = |out: &str| out.lines().filter(|l| l.starts_with("  seat-")).count();

    let r = bounded(&w, &["send", "--list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(rows(&r.stdout), n);
    assert!(r.stdout.ends_with(&format!("\n{n} seats\n")), "{}", &r.stdout[r.stdout.len() - 200..]);
    assert!(r.stdout.contains("\n  seat-09999  @nick-09999  worker  beacon   typed\n"), "the last seat's row");

    let r = bounded(&w, &["send", "--list", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    assert_eq!(doc["seats"].as_array().unwrap().len(), n);
    assert_eq!(doc["seats"][n - 1]["name"], "seat-09999");

    let r = bounded(&w, &["status"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(rows(&r.stdout), n);
    assert!(r.stdout.contains(&format!("\n{n} seats: {n} not found\n")), "{}", &r.stdout[..300]);
    assert!(
        r.stdout.ends_with(&format!(
            "seat-09999: the tmux server at {} is not running\n",
            w.base().join("no-server.sock").display()
        )),
        "{}",
        &r.stdout[r.stdout.len() - 300..]
    );
}

#[test]
fn a_one_mib_roster_and_two_thousand_agent_records_are_listed() {
    let mut w = World::beacon();
    no_server(&mut w);
    // another team of the same (default) entity, whose roster fills teams.yaml to just under
    // the 1 MiB a registry file may be, and 2,000 agent records of a third team
    let mut teams = String::from("format: 1\nteams:\n  api:\n    session: api\n    roster:\n");
    let mut roster = 0;
    while teams.len() < (1 << 20) - 64 {
        teams.push_str(&format!("      - seat: r-{roster:05}\n"));
        roster += 1;
    }
    teams.push_str("  web:\n    session: web\n");
    assert!(teams.len() <= 1 << 20, "{}", teams.len());
    w.config_file("teams.yaml", &teams);
    let agents = 2_000;
    for i in 0..agents {
        w.agent(&format!("agt_{i:016x}"), "web", &format!("w-{i:05}"), "codex", None);
    }
    let r = bounded(&w, &["send", "--list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed = |prefix: &str| r.stdout.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(listed("  r-"), roster, "every roster line, as <seat>@api");
    assert_eq!(listed("  w-"), agents, "every record, as <seat>@web");
    assert!(r.stdout.contains(&format!("  r-{:05}@api ", roster - 1)), "the last roster line's row");
    assert!(r.stdout.ends_with(&format!("\n{} seats\n", 2 + roster + agents)), "{}", &r.stdout[r.stdout.len() - 200..]);

    let r = bounded(&w, &["status", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    assert_eq!(doc["seats"].as_array().unwrap().len(), 2 + roster + agents);
}

// ------------------------------------------------------------------ item 8: profile test

/// A folder holding one good codex screen (copied from the repository's), for the hostile
/// files to sit beside.
fn screens_beside(w: &World) -> std::path::PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/screens/codex-0.171.0");
    let dir = w.base().join("vendor-screens");
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["ansi", "txt", "title", "meta.json"] {
        let f = format!("idle-after-file-read.{ext}");
        if src.join(&f).exists() {
            std::fs::copy(src.join(&f), dir.join(&f)).unwrap();
        }
    }
    dir
}

fn codex_wasm(w: &World) -> std::path::PathBuf {
    let b = profile_artifacts::BUNDLED.iter().find(|b| b.id == "codex").unwrap();
    let p = w.base().join("codex.wasm");
    std::fs::write(&p, b.bytes).unwrap();
    p
}

/// `team profile test` on `dir` is refused (exit 2) naming `bad` and why, within the guard.
fn refused(w: &World, dir: &Path, bad: &Path, why: &str) {
    let wasm = codex_wasm(w);
    let r = bounded(w, &["profile", "test", wasm.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    let want = format!("team profile: {}: the screens cannot be read: {} {why}", dir.display(), bad.display());
    assert!(r.stderr.starts_with(&want), "{}\nwanted: {want}", r.stderr);
    assert_eq!(r.stdout, "");
}

#[test]
fn profile_test_refuses_a_fifo_named_as_a_screen_s_meta() {
    let w = World::empty();
    let dir = screens_beside(&w);
    // the good screen alone passes: the folder is read and tested
    let wasm = codex_wasm(&w);
    let r = bounded(&w, &["profile", "test", wasm.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let fifo = dir.join("x.meta.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    refused(&w, &dir, &fifo, "is a FIFO; refusing to follow it");
}

#[test]
fn profile_test_refuses_a_3_gib_sparse_screen_without_reading_it() {
    let w = World::empty();
    let dir = screens_beside(&w);
    std::fs::write(dir.join("big.meta.json"), r#"{"cli":"codex","expect":{"state":"idle"}}"#).unwrap();
    let big = dir.join("big.ansi");
    std::fs::File::create(&big).unwrap().set_len(3 << 30).unwrap();
    refused(
        &w,
        &dir,
        &big,
        "is 3221225472 bytes, more than team reads from a file of its kind (1 MiB); refusing to read it",
    );
}

#[test]
fn profile_test_refuses_links_in_the_folder() {
    let w = World::empty();
    let dir = screens_beside(&w);
    std::fs::write(dir.join("z.meta.json"), r#"{"cli":"codex","expect":{"state":"idle"}}"#).unwrap();
    let zero = dir.join("z.ansi");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    refused(&w, &dir, &zero, "is a symbolic link; refusing to follow it");
    // a linked meta, and a linked folder of screens, the same
    std::fs::remove_file(&zero).unwrap();
    std::fs::remove_file(dir.join("z.meta.json")).unwrap();
    let meta = dir.join("y.meta.json");
    std::os::unix::fs::symlink(dir.join("idle-after-file-read.meta.json"), &meta).unwrap();
    refused(&w, &dir, &meta, "is a symbolic link; refusing to follow it");
    std::fs::remove_file(&meta).unwrap();
    let sub = dir.join("elsewhere");
    std::os::unix::fs::symlink("/proc/self", &sub).unwrap();
    refused(&w, &dir, &sub, "is a symbolic link; refusing to follow it");
}
