//! Issue 17 item 9: the test double (the fake seat) writes only into a test's own world. It
//! refuses a HOME that is the user's real one (the password database's) or lies outside the
//! temp folder, and it never follows a symbolic link: not through `--log`, `--drawn` (or the
//! temp file a frame is written through), the sessions-registry folder, nor the transcript
//! folders under HOME.
//!
//! Each case runs the double with its standard input a pipe and waits until it either ends or
//! draws its first frame (by then it has written everything it writes at start: the registry
//! entry, the transcript folder, the log opened). A refusal is exit 2 with its sentence on
//! stderr, no frame drawn, and nothing written where the link pointed.

use crate::common::World;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a run of the double went.
#[derive(Debug)]
struct Ran {
    code: i32,
    stderr: String,
    /// It drew a frame (it started serving its terminal).
    drew: bool,
}

/// The double's command: the fake seat test binary.
fn double() -> Command {
    Command::new(crate::common::fake_seat_bin())
}

/// Runs the double with `args` in `cwd` under exactly `env` (plus PATH), its stdin a pipe:
/// waits until it ends or draws, checks `followed` at that moment, then types `input`, closes
/// its stdin and waits for its end.
fn run(args: &[&str], env: &[(&str, &Path)], cwd: &Path, input: &[u8], followed: impl Fn() -> bool) -> (Ran, bool) {
    let mut c = double();
    c.args(args).current_dir(cwd).env_clear().env("PATH", "/usr/local/bin:/usr/bin:/bin");
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let drew = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let d = drew.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            d.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let until = Instant::now() + crate::common::BOUND;
    let mut ended = None;
    while ended.is_none() && !drew.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(Instant::now() < until, "the double neither ended nor drew within 30 s");
        ended = child.try_wait().unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    let was_followed = followed();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let drew = drew.load(std::sync::atomic::Ordering::SeqCst);
    (Ran { code: status.code().unwrap_or(-1), stderr, drew }, was_followed)
}

/// The user's home as the password database says.
fn passwd_home() -> PathBuf {
    nix::unistd::User::from_uid(nix::unistd::getuid()).unwrap().expect("this user's passwd entry").dir
}

fn assert_refused(r: &Ran, words: &str) {
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.drew, "a refused double drew a frame: {r:?}");
    assert!(r.stderr.starts_with("fake-seat: ") && r.stderr.contains(words), "{words:?} in {r:?}");
}

#[test]
fn the_double_refuses_a_real_home() {
    let w = World::empty();
    let cwd = w.base().join("proj");
    std::fs::create_dir_all(&cwd).unwrap();
    // the real home: a codex seat with no transcript, so that a double that ran anyway would
    // write nothing there (this test must be safe on a build that has the bug)
    let real = passwd_home();
    let (r, _) = run(&["--cli", "codex", "--native", "none"], &[("HOME", &real)], &cwd, b"", || false);
    assert_refused(&r, "the password database's home");
    // a HOME outside the temp folder (here: the world's `home`, with TMPDIR its sibling `tmp`)
    let (tmp, home) = (w.base().join("tmp"), w.base().join("home"));
    std::fs::create_dir_all(&tmp).unwrap();
    let env = [("HOME", home.as_path()), ("TMPDIR", tmp.as_path())];
    let touched = || std::fs::read_dir(&home).unwrap().next().is_some();
    let (r, wrote) = run(&["--cli", "claude-code", "--transcript", "auto"], &env, &cwd, b"", touched);
    assert!(!wrote, "the double wrote under a HOME outside the temp folder: {:?}", super::files(&home));
    assert_refused(&r, "is not inside the temp folder");
    // no HOME at all
    let (r, _) = run(&["--cli", "codex"], &[], &cwd, b"", || false);
    assert_refused(&r, "HOME is not set");
    // and the world's own home is taken: the double starts, draws, and ends with its terminal
    let (r, _) = run(&["--cli", "claude-code", "--transcript", "auto"], &[("HOME", &w.home)], &cwd, b"", || false);
    assert_eq!((r.code, r.drew), (0, true), "{r:?}");
}

#[test]
fn the_double_never_follows_a_link() {
    let w = World::empty();
    let base = w.base();
    let cwd = base.join("proj");
    std::fs::create_dir_all(&cwd).unwrap();
    let target = base.join("target");
    let keep = || std::fs::write(&target, "keep").unwrap();
    let kept = || std::fs::read_to_string(&target).unwrap() == "keep";
    let link = |at: &Path, to: &Path| {
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(to, at).unwrap();
    };
    let home = |name: &str| {
        let h = base.join(name);
        std::fs::create_dir_all(&h).unwrap();
        h
    };

    // --log, for a vendor seat and for codex cloud
    for cli in ["codex", "codex-cloud"] {
        keep();
        let log = base.join(format!("{cli}.log"));
        link(&log, &target);
        let h = home(&format!("home-log-{cli}"));
        let args = ["--cli", cli, "--native", "none", "--log", log.to_str().unwrap()];
        let (r, _) = run(&args, &[("HOME", &h)], &cwd, b"typed", || !kept());
        assert!(kept(), "{cli}: --log followed its link: {r:?}");
        assert_refused(&r, &format!("{} is a symbolic link; refusing to follow it", log.display()));
    }

    // --drawn, and the temp file a frame is written through before it is renamed into place
    for (name, planted) in [("drawn", "drawn"), ("drawn2", "drawn2.tmp")] {
        keep();
        let drawn = base.join(name);
        link(&base.join(planted), &target);
        let h = home(&format!("home-{name}"));
        let args = ["--cli", "codex", "--native", "none", "--drawn", drawn.to_str().unwrap()];
        let (r, followed) = run(&args, &[("HOME", &h)], &cwd, b"", || !kept());
        assert!(!followed && kept(), "--drawn wrote through {planted}: {r:?}");
        assert_refused(&r, &format!("{} is a symbolic link; refusing to follow it", base.join(planted).display()));
    }

    // the sessions registry, the Claude transcript folder, the Codex one: each a link to a
    // folder elsewhere, which must stay empty
    let cases: [(&str, &str, &[&str]); 3] = [
        ("sessions", ".claude/sessions", &["--cli", "claude-code"]),
        ("projects", ".claude/projects", &["--cli", "claude-code", "--native", "none", "--transcript", "auto"]),
        ("codex", ".codex", &["--cli", "codex", "--transcript", "auto"]),
    ];
    for (name, rel, args) in cases {
        let h = home(&format!("home-{name}"));
        let elsewhere = base.join(format!("elsewhere-{name}"));
        std::fs::create_dir_all(&elsewhere).unwrap();
        link(&h.join(rel), &elsewhere);
        let empty = || std::fs::read_dir(&elsewhere).unwrap().next().is_none();
        let (r, followed) = run(args, &[("HOME", &h)], &cwd, b"", || !empty());
        assert!(!followed && empty(), "{rel} was followed: {:?} {r:?}", super::files(&elsewhere));
        assert_refused(&r, &format!("{} is a symbolic link; refusing to follow it", h.join(rel).display()));
    }
}
