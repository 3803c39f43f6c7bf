//! The agent's own status reports (OSC 7501), a second witness beside the screen: the filter
//! a seat's pane pipes its raw output through (`team status-pipe <file>`, attached by `team up`
//! with tmux's `pipe-pane -O`), the bounded file it keeps, and the reader the typed leg asks.
//! docs/status-reports.md has the format as measured and what a report may decide.
//!
//! A report is `ESC ] 7501 ; <key=value pairs joined by :> ST` (ST: `ESC \` or BEL). Codex
//! 0.171.0 writes `state=idle|working|blocked:app=codex` whenever its stdout is a terminal;
//! tmux drops the sequence from the screen, so only a pipe on the pane sees it. Which CLIs
//! report is a vendor fact: the profile's `status-reports=osc7501` feature
//! (`profiles::launch::reports_status`).
//!
//! Invariants: the file is `<state>/status-reports/<mux>-<server tag>-<pane>` (the bells' key,
//! `mailbox::bell::key`: pane ids repeat between servers), written whole each time (temp file
//! and rename, 0600), at most [`KEEP`] reports, newest last, each numbered one past the last so
//! a reader tells a new report from one it has read; its first line names the filter's pid,
//! and a file whose filter is gone is read as no report at all (a pipe that died says
//! nothing, never an old state). The filter keeps no more than [`MAX_PAYLOAD`] bytes of one
//! sequence. A report only ever confirms: `blocked` stops a send with nothing pressed, and a
//! `working` numbered after Enter proves the line was submitted; no report changes nothing.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::legs::typed::Status;

/// The reports a file keeps, newest last.
pub const KEEP: usize = 16;
/// The longest payload the filter reads as one sequence (a longer one is dropped).
pub const MAX_PAYLOAD: usize = 512;
/// The reports' folder inside the state folder.
pub const FOLDER: &str = "status-reports";
const HEADER: &str = "team-status-reports 1 pid=";
const MAX_FILE: u64 = 4096;

/// One report as the file keeps it: its number and the state it said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub seq: u64,
    pub state: String,
    pub app: String,
}

impl Report {
    /// The status the typed leg reads it as (`clear`, `error` and an unknown word: unknown).
    pub fn status(&self) -> Status {
        match self.state.as_str() {
            "idle" => Status::Idle,
            "working" => Status::Working,
            "blocked" => Status::Blocked,
            "done" => Status::Done,
            _ => Status::Unknown,
        }
    }
}

/// The `(state, app)` an OSC 7501 payload (what stands between `7501;` and ST) says; `None` for
/// the handshake (`?`) and a payload with no state.
pub fn payload(p: &str) -> Option<(String, String)> {
    let word = |w: &str| w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let (mut state, mut app) = (None, String::new());
    for pair in p.split(':') {
        match pair.split_once('=') {
            Some(("state", v)) if !v.is_empty() && word(v) => state = Some(v.to_string()),
            Some(("app", v)) if word(v) => app = v.to_string(),
            _ => {}
        }
    }
    state.map(|s| (s, app))
}

/// The byte-stream scanner: fed raw pane output in pieces, it yields each OSC 7501 payload
/// whole, wherever the pieces cut it.
#[derive(Debug, Default)]
pub struct Scanner {
    /// Bytes matched of `ESC ] 7501 ;` so far (0: none).
    at: usize,
    /// Inside a payload: its bytes so far, and whether it ran past [`MAX_PAYLOAD`].
    body: Option<(Vec<u8>, bool)>,
    /// The last byte inside a payload was ESC (`ESC \` ends it).
    esc: bool,
}

const OPEN: &[u8] = b"\x1b]7501;";

impl Scanner {
    /// Scans `bytes`, calling `each` with every payload completed in them.
    pub fn feed(&mut self, bytes: &[u8], each: &mut dyn FnMut(&str)) {
        for &b in bytes {
            if let Some((body, over)) = self.body.as_mut() {
                let esc = std::mem::replace(&mut self.esc, false);
                if b == 0x07 || (esc && b == b'\\') {
                    if let (false, Ok(p)) = (*over, std::str::from_utf8(body)) {
                        each(p);
                    }
                    self.body = None;
                    continue;
                }
                if esc {
                    // ESC and then anything but `\`: the sequence was cut, and that ESC may open
                    // the next one
                    self.body = None;
                    self.at = 1;
                } else if b == 0x1b {
                    self.esc = true;
                    continue;
                } else {
                    body.push(b);
                    *over |= body.len() > MAX_PAYLOAD;
                    if *over {
                        body.clear();
                    }
                    continue;
                }
            }
            if b == OPEN[self.at] {
                self.at += 1;
                if self.at == OPEN.len() {
                    self.at = 0;
                    self.body = Some((Vec::new(), false));
                }
            } else {
                self.at = usize::from(b == OPEN[0]);
            }
        }
    }
}

/// The file of pane `pane` of the `mux` server `server` under `state` (`None`: no key can be
/// made for it — a multiplexer or pane the bells' key does not take).
pub fn file_of(state: &Path, mux: &str, server: &str, pane: &str) -> Option<PathBuf> {
    crate::mailbox::bell::key(mux, server, pane).map(|k| state.join(FOLDER).join(k))
}

/// The reports a file holds, when the filter that writes it still runs (its pid alive): else
/// none. Lines that do not read are passed over.
pub fn read(path: &Path) -> Vec<Report> {
    let Ok(Some(text)) = crate::fsx::read_capped(path, MAX_FILE) else { return Vec::new() };
    let mut lines = text.lines();
    let alive = lines
        .next()
        .and_then(|h| h.strip_prefix(HEADER))
        .and_then(|p| p.parse::<u32>().ok())
        .is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if !alive {
        return Vec::new();
    }
    lines.filter_map(line).collect()
}

fn line(l: &str) -> Option<Report> {
    let mut w = l.split(' ');
    let (seq, state, app) = (w.next()?.parse().ok()?, w.next()?.to_string(), w.next().unwrap_or("").to_string());
    payload(&format!("state={state}:app={app}")).map(|_| Report { seq, state, app })
}

fn render(pid: u32, reports: &[Report]) -> String {
    let mut s = format!("{HEADER}{pid}\n");
    for r in reports {
        s.push_str(&format!("{} {} {}\n", r.seq, r.state, r.app));
    }
    s
}

/// The filter: reads the pane's raw output from `input` until it ends, and keeps the last
/// [`KEEP`] reports in `path` (numbered on from the reports a file there already holds).
pub fn pipe(path: &Path, input: &mut dyn Read) -> std::io::Result<()> {
    let dir = path.parent().ok_or_else(|| std::io::Error::other("the reports file has no folder"))?;
    std::fs::create_dir_all(dir)?;
    let pid = std::process::id();
    let old = crate::fsx::read_capped(path, MAX_FILE).ok().flatten().unwrap_or_default();
    let mut kept: Vec<Report> = old.lines().skip(1).filter_map(line).collect();
    let mut next = kept.last().map_or(1, |r| r.seq + 1);
    crate::fsx::write_atomic(path, render(pid, &kept).as_bytes(), 0o600)?;
    let mut scanner = Scanner::default();
    let mut buf = [0u8; 8192];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let mut fresh = Vec::new();
        scanner.feed(&buf[..n], &mut |p| fresh.extend(payload(p)));
        if fresh.is_empty() {
            continue;
        }
        for (state, app) in fresh {
            kept.push(Report { seq: next, state, app });
            next += 1;
        }
        let over = kept.len().saturating_sub(KEEP);
        kept.drain(..over);
        crate::fsx::write_atomic(path, render(pid, &kept).as_bytes(), 0o600)?;
    }
}

/// The shell command `pipe-pane` runs for the file: this build's own binary as the filter.
pub fn pipe_command(exe: &Path, path: &Path) -> String {
    let q = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    format!("exec {} status-pipe {}", q(&exe.display().to_string()), q(&path.display().to_string()))
}

/// Pipes pane `pane` of `session` through this build's filter into its reports file under
/// `state`: `Ok(false)` where the multiplexer pipes no pane or the file cannot be keyed (the
/// seat simply has no second witness).
pub fn attach(mux: &dyn crate::mux::Mux, state: &Path, session: &str, pane: &str) -> Result<bool, String> {
    let Some(file) = mux.server(session, pane).and_then(|server| file_of(state, mux.name(), &server, pane)) else {
        return Ok(false);
    };
    let exe = std::env::current_exe().map_err(|e| format!("this program's path cannot be told ({e})"))?;
    crate::fsx::ensure_private_dirs(state, Path::new(FOLDER), 0o700).map_err(|e| e.to_string())?;
    mux.pipe_output(pane, &pipe_command(&exe, &file)).map_err(|e| e.to_string())
}

/// The typed leg's reader of one seat's reports over a send: each look says the status the
/// reports give and the number of the report it rests on.
#[derive(Debug)]
pub struct Witness {
    path: PathBuf,
    /// The greatest number a look has returned or passed over.
    seen: Option<u64>,
}

impl Witness {
    pub fn new(path: PathBuf) -> Witness {
        Witness { path, seen: None }
    }

    /// The reports' status now, with its number: the newest report — except that a `working`
    /// among the reports new since the last look is said even when the turn it began has
    /// already ended (an Enter's short turn between two looks), unless the newest says
    /// `blocked`. `None`: no report (none yet, or no filter running).
    pub fn look(&mut self) -> Option<(Status, u64)> {
        let reports = read(&self.path);
        let newest = reports.last()?;
        let fresh = |r: &&Report| self.seen.is_none_or(|s| r.seq > s);
        let working = reports.iter().filter(fresh).find(|r| r.status() == Status::Working);
        let pick = match working {
            Some(w) if self.seen.is_some() && newest.status() != Status::Blocked => w,
            _ => newest,
        };
        self.seen = Some(newest.seq);
        Some((pick.status(), pick.seq))
    }
}

#[cfg(test)]
mod tests;
