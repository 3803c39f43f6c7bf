//! The attacks of issue 9, one test each, reproduced against the built `team` in a private
//! world (temp HOME, config, state and cache dirs; private tmux servers) and asserting the fix:
//! nothing outside its folders touched, no hang past a bound, no panic, no silent loss, the
//! refusal's words. `docs/security.md` is the threat model they test.
//!
//! - `names`: hostile names in the team file, `teams.yaml`, agent records; planted locks;
//!   folders others can write;
//! - `mux`: the program the environment names, two panes claiming one seat, a server that
//!   never answers, copy mode, control characters and earlier triggers, narrow panes;
//! - `input`: `--file` that is no regular file, bodies and files past their bounds, library
//!   words in refusals;
//! - `profiles`: a dropped-in component's pause, patterns and size;
//! - `shown`: terminal escapes in bodies and team-file words;
//! - `leftovers`: history lines that cannot be written, a killed sender's temp files;
//! - `hooks`: the test hooks and the test double stay out of the product binary;
//! - `double`: the test double refuses a real home and never follows a link (issue 17 item 9);
//! - `identity`: a forged pane row, a reparented agent, a command the team's server started, an
//!   unmarked pane, a stopped server, pane words naming no pane (issue 17);
//! - `init`: `team init` through a link or over a `.gitignore` that is a link or a FIFO;
//! - `retry`: the watch's retry typed twice (killed after Enter, records failing), ids that are
//!   paths in the history and the receipts (issue 17).
//! - `limits` (issue 17): 10,000 seats and a 1 MiB roster in linear time, `team profile test`
//!   on a hostile screens folder;
//! - `edits` (issue 17): a rename never writes over an edit, two renames both land, a rename
//!   waits for a send's lock; a compose seat's git found, bounded and its origin one line.

mod double;
mod edits;
mod hooks;
mod identity;
mod init;
mod input;
mod leftovers;
mod limits;
mod mux;
mod names;
mod profiles;
mod retry;
mod shown;

use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use crate::common::scene::Scene;

/// `seats` as fake seats, declared in the team file (`name: cli` each), waits scaled 20-fold.
pub fn scene(seats: &[SeatSpec], leads: Option<&str>) -> Scene {
    Scene::start(seats, &team_file(seats, leads), Some("0.05"))
}

pub fn team_file(seats: &[SeatSpec], leads: Option<&str>) -> String {
    let mut file = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for s in seats {
        file.push_str(&format!("  - name: {}\n    cli: {}\n", s.name, s.cli));
        if leads == Some(s.name.as_str()) {
            file.push_str("    leads: true\n");
        }
    }
    file
}

/// Every file under `dir`, relative, sorted (links and FIFOs included, not followed).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                walk(base, &p, out);
            } else {
                out.push(p.strip_prefix(base).unwrap().to_path_buf());
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// Runs a bash line inside a new pane of `tw`'s session `beacon`, marked `@team-seat <mark>`
/// before the line starts, with the world's environment (and the pane's own TMUX/TMUX_PANE):
/// a process of that pane, as an agent's shell tool is. Its merged output and exit code.
pub fn in_pane(tw: &TmuxWorld, w: &World, mark: &str, line: &str) -> (String, i32) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = tw.path().join(format!("in-pane-{n}"));
    std::fs::create_dir_all(&d).unwrap();
    let wait = format!("tmux -S '{}' wait-for go-{n}\n", tw.socket.display());
    let script = crate::common::pane_script(w, &d, &wait, line);
    std::fs::write(d.join("run.sh"), script).unwrap();
    let run = format!("bash '{}'", d.join("run.sh").display());
    let pane = crate::common::tmux::new_pane(|a| tw.tmux(a), "=beacon:", &[], &run);
    assert!(tw.tmux(&["set", "-p", "-t", &pane, "@team-seat", mark]).status.success());
    assert!(tw.tmux(&["wait-for", "-S", &format!("go-{n}")]).status.success());
    let rc = d.join("rc");
    assert!(tw.wait_until(crate::common::BOUND, || rc.exists()), "the line in pane {pane} never ended");
    crate::common::pane_said(&d)
}

/// Runs `f`, which must end within `bound`: the time it took.
pub fn within<T>(bound: Duration, f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let v = f();
    let took = t.elapsed();
    assert!(took < bound, "took {took:?}, past the bound {bound:?}");
    (v, took)
}
