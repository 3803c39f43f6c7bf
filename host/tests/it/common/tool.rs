//! A seat's shell tool in the test world: a loop started beside a fake seat (`SeatSpec::beside`),
//! below its pane's shell as an agent's shell tool runs a command, that runs each command put
//! in its folder with no terminal and hands back its output and exit code. The caller `team`
//! finds is the seat of that pane: found, never claimed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::World;

/// One seat's shell tool.
pub struct Tool {
    dir: PathBuf,
    n: AtomicU32,
}

/// What one command of the tool did.
#[derive(Debug)]
pub struct Ran {
    pub out: String,
    pub err: String,
    pub code: i32,
    /// From the command's file written to its exit code read.
    pub took: Duration,
}

impl Tool {
    /// A tool whose commands go through `dir` (made here).
    pub fn new(dir: PathBuf) -> Tool {
        std::fs::create_dir_all(&dir).unwrap();
        Tool { dir, n: AtomicU32::new(0) }
    }

    /// The line the seat's pane starts beside its fake seat: runs `<n>.cmd` files one at a time.
    pub fn beside(&self) -> String {
        format!(
            "d={}; while :; do for f in \"$d\"/*.cmd; do [ -e \"$f\" ] || continue; b=\"${{f%.cmd}}\"; mv \"$f\" \"$b.run\"; bash \"$b.run\" > \"$b.out\" 2> \"$b.err\" </dev/null; echo $? > \"$b.rc.part\"; mv \"$b.rc.part\" \"$b.rc\"; done; sleep 0.05; done",
            super::shell_quote(&self.dir.display().to_string())
        )
    }

    /// Runs `line` through the tool, in the world's checkout with the world's environment (not
    /// TMUX/TMUX_PANE: the pane's own), and waits for it to end.
    pub fn run(&self, w: &World, line: &str) -> Ran {
        let n = self.n.fetch_add(1, Ordering::Relaxed);
        let b = self.dir.join(n.to_string());
        let mut script = String::new();
        for (k, v) in w.env() {
            script.push_str(&format!("export {k}={}\n", super::shell_quote(&v)));
        }
        script.push_str(&format!("cd {}\n{line}\n", super::shell_quote(&w.repo.display().to_string())));
        let tmp = b.with_extension("tmp");
        std::fs::write(&tmp, script).unwrap();
        let t = Instant::now();
        std::fs::rename(&tmp, b.with_extension("cmd")).unwrap();
        let rc = b.with_extension("rc");
        super::scene::wait("the tool's command to end", || rc.exists());
        let took = t.elapsed();
        let code = std::fs::read_to_string(&rc).unwrap().trim().parse().unwrap();
        let read = |e: &str| std::fs::read_to_string(b.with_extension(e)).unwrap();
        Ran { out: read("out"), err: read("err"), code, took }
    }
}
