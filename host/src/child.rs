//! The one way `team` runs another program (a notify command, tmux, herdr, git): in a process
//! group of its own, its stdin written, its output read and its end waited for — all of it
//! within one bound, past which the whole group is killed.
//!
//! The demo's own `team` runs are the one exception: they share the person's terminal (their
//! output, their Ctrl-C), and that `team` bounds every program it runs itself.
//!
//! Invariant: no step can hold the run past the bound. Writing stdin and reading stdout and
//! stderr happen on threads of their own, so a program that reads nothing (a pipe's 64 KiB
//! buffer full) or never closes its output cannot stop the clock; what those threads still
//! hold once the group is killed ends with it (a descendant that left the group and keeps a
//! pipe open costs a parked thread, never the run).

use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a program that ended within its bound left.
#[derive(Debug)]
pub struct Ended {
    pub status: ExitStatus,
    /// Its stdout, when it was asked for ([`Output::Capture`]); else empty.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// What becomes of the program's stdout and stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Both read whole and returned.
    Capture,
    /// Both to /dev/null.
    Discard,
}

/// Why a program did not end within its bound.
#[derive(Debug, thiserror::Error)]
pub enum Unfinished {
    /// It could not be started (`NotFound`: no such program).
    #[error("{0}")]
    Start(io::Error),
    /// It was still running at the bound; its whole process group was killed.
    #[error("it did not end within {} s", .0.as_secs_f64())]
    TimedOut(Duration),
    /// Waiting for it failed.
    #[error("{0}")]
    Wait(io::Error),
}

/// Runs `cmd` in a process group of its own with `input` on its stdin (none: stdin closed),
/// and waits at most `limit` for all of it: the write, the output, the exit. Past the bound
/// the group is killed (SIGKILL) and reaped.
pub fn run(mut cmd: Command, input: Option<Vec<u8>>, output: Output, limit: Duration) -> Result<Ended, Unfinished> {
    let until = Instant::now() + limit;
    let (out, err) = match output {
        Output::Capture => (Stdio::piped(), Stdio::piped()),
        Output::Discard => (Stdio::null(), Stdio::null()),
    };
    cmd.stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() }).stdout(out).stderr(err).process_group(0);
    let mut child = cmd.spawn().map_err(Unfinished::Start)?;
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    if let (Some(mut stdin), Some(bytes)) = (child.stdin.take(), input) {
        // a program that reads nothing fills the pipe and the write would wait for ever; one
        // that closes its stdin early is no failure of ours
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        let (tx, rx) = mpsc::channel();
        match pipe {
            Some(mut p) => {
                std::thread::spawn(move || {
                    let mut buf = Vec::new();
                    let _ = p.read_to_end(&mut buf);
                    let _ = tx.send(buf);
                });
            }
            None => {
                let _ = tx.send(Vec::new());
            }
        }
        rx
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    // the exit is waited for on a thread, so it is seen the moment it comes (a tmux call ends
    // in a few ms; a poll would add its period to every one)
    let (tx, exited) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = match exited.recv_timeout(until.saturating_duration_since(Instant::now())) {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Err(Unfinished::Wait(e)),
        Err(_) => {
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            let _ = exited.recv();
            return Err(Unfinished::TimedOut(limit));
        }
    };
    // its output ends with it, unless something it started still holds the pipe: that waits
    // out the rest of the bound, then the group is ended and what was read so far kept
    let take = |rx: mpsc::Receiver<Vec<u8>>| rx.recv_timeout(until.saturating_duration_since(Instant::now()));
    let (o, e) = (take(stdout), take(stderr));
    if o.is_err() || e.is_err() {
        let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    }
    Ok(Ended { status, stdout: o.unwrap_or_default(), stderr: e.unwrap_or_default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn a_program_that_reads_nothing_is_stopped_at_the_bound_with_its_whole_group() {
        let d = tempfile::tempdir().unwrap();
        let pids = d.path().join("pids");
        // 1 MiB on stdin to a program that never reads it, and a descendant in its group
        let script = format!("sleep 60 & echo $! > {}; sleep 60", pids.display());
        let r = run(sh(&script), Some(vec![b'x'; 1 << 20]), Output::Discard, Duration::from_secs(1));
        assert!(matches!(r, Err(Unfinished::TimedOut(_))), "{r:?}");
        let grandchild: i32 = std::fs::read_to_string(&pids).unwrap().trim().parse().unwrap();
        // killed with the group (a zombie until its parent, init, reaps it, so read its state)
        let gone = || {
            std::fs::read_to_string(format!("/proc/{grandchild}/stat"))
                .map(|s| s.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')))
                .unwrap_or(true)
        };
        let t = Instant::now();
        while !gone() {
            assert!(t.elapsed() < Duration::from_secs(60), "the descendant {grandchild} outlived the bound");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_program_that_ends_gives_its_output_and_status() {
        let r = run(sh("cat; echo err >&2; exit 3"), Some(b"in\n".to_vec()), Output::Capture, Duration::from_secs(60))
            .unwrap();
        assert_eq!((r.status.code(), r.stdout.as_slice(), r.stderr.as_slice()), (Some(3), &b"in\n"[..], &b"err\n"[..]));
        let r = run(sh("echo $(cat)"), None, Output::Capture, Duration::from_secs(60)).unwrap();
        assert_eq!(r.stdout, b"\n", "stdin closed: read as empty");
    }

    #[test]
    fn a_missing_program_is_a_start_failure() {
        let r = run(Command::new("/nonexistent/program"), None, Output::Discard, Duration::from_secs(5));
        assert!(matches!(r, Err(Unfinished::Start(ref e)) if e.kind() == io::ErrorKind::NotFound), "{r:?}");
    }
}
