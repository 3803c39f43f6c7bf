//! The typed leg: the drop file, the seat lock, the trigger line, the read-back before Enter,
//! the Enters, and the evidence that the seat took the line (spec/team-send.md "Outcomes",
//! DESIGN.md §7).
//!
//! Invariants that matter to a user:
//! - nothing is ever typed into a dialog or over text someone left in the box: the screen is
//!   read before typing, and Enter goes only to a box that holds exactly our trigger;
//! - the trigger is typed once; a second or third Enter is the only thing ever repeated;
//! - `delivered` needs the line to have left the box AND (a working/done/blocked status new
//!   against everything read before Enter (`evidence`),
//!   the screen showing the drop read, or the transcript showing it) — or, after the whole
//!   window, the box cleared with no sign yet: `delivered` with note `taken, not yet confirmed`.
//!
//! The decision core (`deliver`) talks to one seat through the `Seat` trait so its timing rules
//! are unit-tested here; `SeatPane` implements it over the real multiplexer and profile.

mod evidence;
mod pane;
mod run;
pub use evidence::BeforeEnter;
pub(crate) use pane::SeatPane;
pub use pane::{dialog_word, screen_of};
pub use run::{send_plain, Means, PlainSend, Report};

use std::time::{Duration, Instant};

/// Every wait of the typed leg, in milliseconds, before `TEAM_TIME_SCALE`.
pub struct Timings {
    /// How long the read-back waits for the typed trigger to show in the box.
    pub readback_ms: u64,
    /// How often the screen is re-read while waiting for evidence.
    pub poll_ms: u64,
    /// The wait after each Enter (at most three Enters).
    pub enter_waits_ms: [u64; 3],
    /// The whole window, from the first Enter, for a cleared box to show evidence.
    pub window_ms: u64,
}

/// The one table of the typed leg's timings (spec: 1, 3, 9 s; 20 s in all).
pub const TIMINGS: Timings =
    Timings { readback_ms: 2_000, poll_ms: 40, enter_waits_ms: [1_000, 3_000, 9_000], window_ms: 20_000 };

impl Timings {
    /// Every wait multiplied by `factor` (the run's clock scale; tests only shorten), at
    /// least 1 ms each.
    pub fn scaled(&self, factor: f64) -> Timings {
        let f = |ms: u64| ((ms as f64) * factor).round().max(1.0) as u64;
        Timings {
            readback_ms: f(self.readback_ms),
            poll_ms: f(self.poll_ms),
            enter_waits_ms: self.enter_waits_ms.map(f),
            window_ms: f(self.window_ms),
        }
    }
}

/// The multiplexer's status for a seat, where it has one (herdr); tmux has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Idle,
    Working,
    Blocked,
    Done,
    Unknown,
}

/// What the seat's screen shows, as its profile read it.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Idle,
    Working(String),
    Dialog { kind: String, title: String },
    Starting,
    Exited,
    Unknown(String),
}

/// What the seat's input box holds.
#[derive(Debug, Clone, PartialEq)]
pub enum BoxText {
    Empty,
    Holds(String),
    Unreadable,
}

/// One look at the seat: the profile's reading, the multiplexer's status, and whether the
/// screen shows the drop being read.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub seen: Seen,
    pub boxed: BoxText,
    /// The last turn ended in a rate limit (an idle prompt showing it).
    pub rate_limited: bool,
    pub status: Option<Status>,
    /// Which of the multiplexer's status changes `status` is, where it numbers them (herdr
    /// ≥ 0.7.5's `state_change_seq`): the same number read again is the same status.
    pub status_change: Option<u64>,
    pub read_shown: bool,
}

/// What the typed leg needs from one seat. Errors are sentences naming what failed.
pub trait Seat {
    /// Reads the pane, classifies it, reads the status, and asks whether a row shows the drop
    /// `id` read (not the echo of `trigger`).
    fn observe(&mut self, id: &str, trigger: &str) -> Result<Observation, String>;
    fn type_text(&mut self, text: &str) -> Result<(), String>;
    fn press_enter(&mut self) -> Result<(), String>;
    /// Whether rows appended to the seat's transcript since the send began prove the read.
    fn transcript_shows_read(&mut self, id: &str) -> bool;
}

/// What the profile says about typing into its CLI.
#[derive(Debug, Clone)]
pub struct Traits {
    pub cli: String,
    pub max_trigger: usize,
    pub enter_pause_ms: u64,
    pub queues_while_working: bool,
    pub forbidden_starts: Vec<String>,
}

/// How one typed send ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The seat took the line; `note` qualifies it (`taken, not yet confirmed`, a dialog after Enter).
    Delivered { note: Option<String> },
    /// Nothing typed (or typed and not submitted because the read-back failed): the reason.
    Held(String),
    /// The trigger was typed and never taken: the reason names the Enters and the box.
    NotSubmitted(String),
    /// The seat was not reached: the reason.
    Unreachable(String),
    /// Nothing sent on purpose: the reason.
    Refused(String),
}

/// The verdict and what was done on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub verdict: Verdict,
    /// Whether the trigger was typed into the pane.
    pub typed: bool,
    pub enters: u32,
}

/// The trigger line for a drop path: one line, starting with a plain word no profile forbids.
pub fn trigger_line(drop_ref: &str) -> String {
    format!("Please read the team message at {drop_ref}")
}

/// Checks a trigger against the profile before anything is typed.
pub fn check_trigger(trigger: &str, traits: &Traits) -> Result<(), String> {
    let n = trigger.chars().count();
    if n > traits.max_trigger {
        return Err(format!(
            "the trigger line is {n} characters and {} takes at most {} whole",
            traits.cli, traits.max_trigger
        ));
    }
    let lower = trigger.to_lowercase();
    for f in &traits.forbidden_starts {
        let f = f.to_lowercase();
        let word_like = f.chars().all(|c| c.is_alphanumeric());
        let hit = if word_like { lower.split_whitespace().next() == Some(f.as_str()) } else { lower.starts_with(&f) };
        if hit {
            return Err(format!("the trigger line would begin with {f:?}, which {} runs itself", traits.cli));
        }
    }
    Ok(())
}

/// Whether the box holds exactly the trigger: equal once wrapping whitespace is folded.
pub fn holds_trigger(boxed: &BoxText, trigger: &str) -> bool {
    match boxed {
        BoxText::Holds(t) => {
            let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            fold(t) == fold(trigger) || squash(t) == squash(trigger)
        }
        _ => false,
    }
}

fn describe_box(boxed: &BoxText, trigger: &str) -> String {
    match boxed {
        // The box's wrapping can put a space where a row broke: name our line as typed.
        b if holds_trigger(b, trigger) => format!("the box holds {:?}", trigger),
        BoxText::Empty => "the box is empty".to_string(),
        BoxText::Holds(t) => format!("the box holds {:?}", t),
        BoxText::Unreadable => "the box could not be read".to_string(),
    }
}

fn enters_word(n: u32) -> String {
    match n {
        1 => "1 Enter pressed".to_string(),
        n => format!("{n} Enters pressed"),
    }
}

fn sleep_ms(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// Judges the screen read before typing: `Some(verdict)` stops the send with nothing typed.
pub fn judge_before(o: &Observation, traits: &Traits, drop_path: &str) -> Option<Verdict> {
    match &o.seen {
        Seen::Dialog { kind, title } => {
            let what =
                if kind == "held-message" { "the held-message dialog".to_string() } else { format!("a {kind} dialog") };
            let title = if title.is_empty() { String::new() } else { format!(" ({title})") };
            return Some(Verdict::Unreachable(format!(
                "the pane shows {what}{title}; nothing was pressed; the message is at {drop_path}"
            )));
        }
        Seen::Starting => {
            return Some(Verdict::Unreachable(format!(
                "{} is still starting; nothing was typed; the message is at {drop_path}",
                traits.cli
            )))
        }
        Seen::Exited => {
            return Some(Verdict::Unreachable(format!(
                "{} has exited in that pane; nothing was typed; the message is at {drop_path}",
                traits.cli
            )))
        }
        Seen::Unknown(why) => {
            return Some(Verdict::Unreachable(format!(
                "the pane could not be read as {} ({why}); nothing was typed; the message is at {drop_path}",
                traits.cli
            )))
        }
        Seen::Idle | Seen::Working(_) => {}
    }
    // herdr's `blocked` is a dialog it recognised (0.8 also names Claude's trust and "Enter to
    // confirm" dialogs so) even where the profile reads none: nothing is typed into it.
    if o.status == Some(Status::Blocked) {
        return Some(Verdict::Unreachable(format!(
            "herdr reports the seat blocked on a dialog; nothing was pressed; the message is at {drop_path}"
        )));
    }
    if o.rate_limited {
        return Some(Verdict::Unreachable(format!(
            "its last turn hit a rate limit (rate limit), so a line would be taken and not acted on; nothing was typed; the message is at {drop_path}"
        )));
    }
    if let BoxText::Holds(_) = o.boxed {
        return Some(Verdict::Held(format!(
            "the composer already holds unsent text; nothing was typed; the message is at {drop_path}"
        )));
    }
    if matches!(o.seen, Seen::Working(_)) && !traits.queues_while_working {
        return Some(Verdict::Held(format!(
            "the seat is working and {} does not queue a line sent meanwhile; nothing was typed; the message is at {drop_path}",
            traits.cli
        )));
    }
    None
}

/// Types the trigger into one seat and proves it was taken, or says why not.
///
/// `drop_path` is for the report; `id` is the drop's id the screen and transcript are asked
/// about. The caller holds the seat lock and has written the drop file.
pub fn deliver(seat: &mut dyn Seat, traits: &Traits, trigger: &str, id: &str, drop_path: &str, t: &Timings) -> Run {
    let not_typed = |verdict| Run { verdict, typed: false, enters: 0 };
    if let Err(why) = check_trigger(trigger, traits) {
        return not_typed(Verdict::Refused(format!("{why}; nothing was typed; the message is at {drop_path}")));
    }
    let before = match seat.observe(id, trigger) {
        Ok(o) => o,
        Err(e) => return not_typed(Verdict::Unreachable(format!("{e}; the message is at {drop_path}"))),
    };
    if let Some(v) = judge_before(&before, traits, drop_path) {
        return not_typed(v);
    }
    let readable = before.boxed != BoxText::Unreadable;
    // Every look until Enter: none of it can be evidence that the seat took the line.
    let mut seen_before = BeforeEnter::default();
    seen_before.note(&before);

    if let Err(e) = seat.type_text(trigger) {
        return Run {
            verdict: Verdict::Unreachable(format!(
                "the pane would not take the trigger ({e}); the message is at {drop_path}"
            )),
            typed: false,
            enters: 0,
        };
    }
    let typed = |verdict, enters| Run { verdict, typed: true, enters };

    // Read back: the box must hold exactly the trigger before any Enter.
    if readable {
        let until = Instant::now() + Duration::from_millis(t.readback_ms);
        let mut last: BoxText;
        loop {
            match seat.observe(id, trigger) {
                Ok(o) => {
                    seen_before.note(&o);
                    if matches!(o.seen, Seen::Dialog { .. }) || o.status == Some(Status::Blocked) {
                        return typed(
                            Verdict::Held(format!(
                                "a dialog opened while the trigger was typed (the composer read-back did not match the trigger); no Enter was pressed; the message is at {drop_path}"
                            )),
                            0,
                        );
                    }
                    if holds_trigger(&o.boxed, trigger) {
                        break;
                    }
                    last = o.boxed;
                }
                Err(e) => last = BoxText::Holds(format!("<{e}>")),
            }
            if Instant::now() >= until {
                return typed(
                    Verdict::Held(format!(
                        "the composer read-back did not match the trigger ({}); no Enter was pressed; the message is at {drop_path}",
                        describe_box(&last, trigger)
                    )),
                    0,
                );
            }
            sleep_ms(t.poll_ms);
        }
    }
    // The profile's pause is a property of its CLI (Codex turns an Enter in the same burst as
    // the text into a newline), not a wait to shorten: never scaled.
    std::thread::sleep(Duration::from_millis(traits.enter_pause_ms));

    let start = Instant::now();
    let window = Duration::from_millis(t.window_ms);
    let mut enters = 0u32;
    let mut last_box = BoxText::Holds(trigger.to_string());
    let mut left_box = false;
    for (i, wait) in t.enter_waits_ms.iter().enumerate() {
        if let Err(e) = seat.press_enter() {
            if enters == 0 {
                return typed(
                    Verdict::Unreachable(format!("the pane would not take Enter ({e}); the message is at {drop_path}")),
                    0,
                );
            }
            break;
        }
        enters += 1;
        let last_try = i + 1 == t.enter_waits_ms.len() || !readable;
        let until = Instant::now() + Duration::from_millis(*wait);
        loop {
            sleep_ms(t.poll_ms);
            if let Ok(o) = seat.observe(id, trigger) {
                let gone = if readable { !holds_trigger(&o.boxed, trigger) } else { true };
                if gone {
                    left_box = left_box || readable;
                    if let Seen::Dialog { kind, .. } = &o.seen {
                        // The seat asks about what our line asked it to do: it is acting on it
                        // — unless it was already working, when the dialog is its turn's.
                        if readable && !seen_before.was_working() {
                            return typed(
                                Verdict::Delivered {
                                    note: Some(format!("the seat opened a {kind} dialog after taking the line")),
                                },
                                enters,
                            );
                        }
                    }
                    if evidence::evidence(&o, &seen_before).is_some() || seat.transcript_shows_read(id) {
                        return typed(Verdict::Delivered { note: None }, enters);
                    }
                }
                last_box = o.boxed;
            } else if seat.transcript_shows_read(id) && (left_box || !readable) {
                return typed(Verdict::Delivered { note: None }, enters);
            }
            let now = Instant::now();
            if left_box || !readable {
                // A cleared box, or one that cannot be read (judged by status alone), is waited
                // on for the whole window; no more Enters.
                if now >= start + window {
                    break;
                }
            } else if now >= until {
                break;
            }
        }
        if left_box || last_try {
            break;
        }
        if !holds_trigger(&last_box, trigger) {
            // Another Enter goes only to a box holding exactly the trigger.
            break;
        }
    }
    if left_box {
        return typed(Verdict::Delivered { note: Some("taken, not yet confirmed".to_string()) }, enters);
    }
    let what = if readable { describe_box(&last_box, trigger) } else { describe_box(&BoxText::Unreadable, trigger) };
    typed(Verdict::NotSubmitted(format!("{}; {what}; the message is at {drop_path}", enters_word(enters))), enters)
}

/// The seat lock: `<state>/seat-locks/<session>/<seat>`, an flock held for the whole typed
/// send so two sends never type into one pane at once. The file names its holder (kind, pid)
/// so a waiter can say who holds it; a lock held by another kind of command is refused at once.
pub struct SeatLock {
    _lock: nix::fcntl::Flock<std::fs::File>,
}

/// How long a send waits for another send to the same seat before it refuses.
pub const LOCK_WAIT_MS: u64 = 120_000;

/// Takes the seat lock under `state` (`<state>`) for `kind` (`send`), waiting up to `wait`
/// behind another send.
pub fn lock_seat(
    state: &std::path::Path,
    session: &str,
    seat: &str,
    kind: &str,
    wait: Duration,
) -> Result<SeatLock, String> {
    use nix::fcntl::{Flock, FlockArg};
    use std::io::{Read, Seek, Write};
    use std::os::unix::fs::OpenOptionsExt;
    let dir = crate::fsx::ensure_dirs(state, &std::path::Path::new("seat-locks").join(session), 0o700)
        .map_err(|e| format!("the seat lock folder could not be made: {e}"))?;
    let path = dir.join(seat);
    crate::fsx::check_entry(&path).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + wait;
    loop {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(mut lock) => {
                let _ = lock.set_len(0);
                let _ = lock.rewind();
                let _ = write!(lock, "{kind} {}\n", std::process::id());
                return Ok(SeatLock { _lock: lock });
            }
            Err((mut file, _)) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim().to_string();
                let mut parts = holder.split_whitespace();
                let (hkind, hpid) = (parts.next().unwrap_or("another command"), parts.next().unwrap_or("?"));
                if hkind != kind && !hkind.is_empty() && holder != "" {
                    return Err(format!("the seat's lock is held by team {hkind} (pid {hpid}); nothing was sent"));
                }
                if Instant::now() >= deadline {
                    return Err(format!(
                        "another team send (pid {hpid}) has held the seat's lock for {} s; nothing was sent",
                        wait.as_secs()
                    ));
                }
                std::thread::sleep(Duration::from_millis(15));
            }
        }
    }
}

/// Where a drop file goes: `<root>/.agents/send-drops/<session>/<seat>/<id>`, each folder 0700.
pub fn write_drop(
    root: &std::path::Path,
    session: &str,
    seat: &str,
    id: &str,
    text: &str,
) -> Result<std::path::PathBuf, String> {
    let rel = std::path::Path::new(".agents").join("send-drops").join(session).join(seat);
    let dir =
        crate::fsx::ensure_dirs(root, &rel, 0o700).map_err(|e| format!("the drop folder could not be made: {e}"))?;
    let path = dir.join(id);
    crate::fsx::write_new(&path, text.as_bytes(), 0o600)
        .map_err(|e| format!("the drop file could not be written: {e}"))?;
    Ok(path)
}

/// How the trigger names the drop: relative to the seat's folder when the seat works inside
/// the team's checkout, absolute otherwise.
pub fn drop_ref(drop: &std::path::Path, root: &std::path::Path, seat_cwd: Option<&std::path::Path>) -> String {
    let (Some(cwd), Ok(rel)) = (seat_cwd, drop.strip_prefix(root)) else {
        return drop.display().to_string();
    };
    let Ok(inner) = cwd.strip_prefix(root) else {
        return drop.display().to_string();
    };
    let ups = inner.components().count();
    let mut p = std::path::PathBuf::new();
    for _ in 0..ups {
        p.push("..");
    }
    p.push(rel);
    p.display().to_string()
}

/// Session transcripts the profile says its CLI writes, watched from the start of a send:
/// only rows appended after `begin` are ever handed to the profile.
pub struct TranscriptWatch {
    patterns: Vec<String>,
    home: Option<std::path::PathBuf>,
    cwd: Option<std::path::PathBuf>,
    sizes: std::collections::BTreeMap<std::path::PathBuf, u64>,
    last_check: Option<Instant>,
}

impl TranscriptWatch {
    /// Notes every matching file's size now.
    pub fn begin(patterns: &[String], home: Option<std::path::PathBuf>, cwd: Option<std::path::PathBuf>) -> Self {
        let mut w =
            TranscriptWatch { patterns: patterns.to_vec(), home, cwd, sizes: Default::default(), last_check: None };
        for p in w.files() {
            if let Ok(m) = std::fs::metadata(&p) {
                w.sizes.insert(p, m.len());
            }
        }
        w
    }

    /// The files the patterns match now. `{yyyy}`, `{mm}`, `{dd}` match any folder (a long
    /// session keeps writing the file of the day it started); `*` works in the last segment.
    pub fn files(&self) -> Vec<std::path::PathBuf> {
        let mut out = vec![];
        for pat in &self.patterns {
            let Some(expanded) = self.expand(pat) else { continue };
            let mut dirs = vec![std::path::PathBuf::from("/")];
            let segs: Vec<&str> = expanded.trim_start_matches('/').split('/').collect();
            for (i, seg) in segs.iter().enumerate() {
                let last = i + 1 == segs.len();
                let mut next = vec![];
                for d in &dirs {
                    if seg.contains('*') {
                        let Ok(rd) = std::fs::read_dir(d) else { continue };
                        for e in rd.flatten() {
                            let name = e.file_name().to_string_lossy().into_owned();
                            if glob_match(seg, &name) {
                                next.push(d.join(name));
                            }
                        }
                    } else {
                        next.push(d.join(seg));
                    }
                }
                dirs = next;
                if last {
                    out.extend(dirs.iter().filter(|p| p.is_file()).cloned());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn expand(&self, pat: &str) -> Option<String> {
        let mut s = pat.to_string();
        if s.contains("{home}") {
            s = s.replace("{home}", &self.home.as_ref()?.display().to_string());
        }
        if s.contains("{cwd-dashed}") {
            let c = self.cwd.as_ref()?.display().to_string();
            s = s.replace("{cwd-dashed}", &c.replace(['/', '.'], "-"));
        }
        if s.contains("{cwd}") {
            s = s.replace("{cwd}", &self.cwd.as_ref()?.display().to_string());
        }
        for d in ["{yyyy}", "{mm}", "{dd}"] {
            s = s.replace(d, "*");
        }
        Some(s)
    }

    /// Rows appended since `begin` (new files whole), at most every 200 ms.
    pub fn new_rows(&mut self) -> Option<Vec<String>> {
        if self.patterns.is_empty() {
            return None;
        }
        if let Some(t) = self.last_check {
            if t.elapsed() < Duration::from_millis(200) {
                return None;
            }
        }
        self.last_check = Some(Instant::now());
        let mut rows = vec![];
        for f in self.files() {
            let from = self.sizes.get(&f).copied().unwrap_or(0);
            let Ok(Some(text)) = read_from(&f, from) else { continue };
            rows.extend(text.lines().map(str::to_string));
        }
        Some(rows)
    }
}

fn read_from(path: &std::path::Path, from: u64) -> std::io::Result<Option<String>> {
    use std::io::{Read, Seek, SeekFrom};
    use std::os::unix::fs::OpenOptionsExt;
    crate::fsx::check_entry(path)?;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Ok(None);
    }
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::new();
    f.take(8 << 20).read_to_end(&mut buf)?;
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

/// `*` matches any run of characters; everything else is literal.
fn glob_match(pat: &str, name: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    if parts.len() == 1 {
        return pat == name;
    }
    let mut rest = name;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else { return false };
            rest = r;
        } else if i + 1 == parts.len() {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else { return false };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A seat scripted by what it shows after each action; it records what was pressed.
    struct Scripted {
        idle_box: BoxText,
        seen: Seen,
        status: Option<Status>,
        typed: Vec<String>,
        enters: u32,
        /// How many Enters it ignores before taking the line.
        ignore_enters: u32,
        /// What it shows once it takes the line.
        after_take: VecDeque<Observation>,
        current: Option<Observation>,
        transcript: bool,
    }

    impl Scripted {
        fn idle() -> Self {
            Scripted {
                idle_box: BoxText::Empty,
                seen: Seen::Idle,
                status: Some(Status::Idle),
                typed: vec![],
                enters: 0,
                ignore_enters: 0,
                after_take: VecDeque::new(),
                current: None,
                transcript: false,
            }
        }
        fn obs(seen: Seen, boxed: BoxText, status: Option<Status>, read_shown: bool) -> Observation {
            Observation { seen, boxed, rate_limited: false, status, status_change: None, read_shown }
        }
    }

    impl Seat for Scripted {
        fn observe(&mut self, _id: &str, _trigger: &str) -> Result<Observation, String> {
            if let Some(o) = &self.current {
                let o = o.clone();
                if let Some(next) = self.after_take.pop_front() {
                    self.current = Some(next);
                }
                return Ok(o);
            }
            let boxed = if let Some(t) = self.typed.last() { BoxText::Holds(t.clone()) } else { self.idle_box.clone() };
            Ok(Scripted::obs(self.seen.clone(), boxed, self.status, false))
        }
        fn type_text(&mut self, text: &str) -> Result<(), String> {
            self.typed.push(text.to_string());
            Ok(())
        }
        fn press_enter(&mut self) -> Result<(), String> {
            self.enters += 1;
            if self.enters > self.ignore_enters {
                if let Some(first) = self.after_take.pop_front() {
                    self.current = Some(first);
                }
            }
            Ok(())
        }
        fn transcript_shows_read(&mut self, _id: &str) -> bool {
            self.transcript && self.current.is_some()
        }
    }

    fn traits() -> Traits {
        Traits {
            cli: "codex".into(),
            max_trigger: 400,
            enter_pause_ms: 0,
            queues_while_working: true,
            forbidden_starts: vec!["!".into(), "/".into(), "cat".into()],
        }
    }

    const FAST: Timings = Timings { readback_ms: 50, poll_ms: 1, enter_waits_ms: [20, 30, 40], window_ms: 120 };
    const TRIG: &str = "Please read the team message at x/1";

    #[test]
    fn a_seat_that_works_after_enter_is_delivered_with_one_enter() {
        let mut s = Scripted::idle();
        s.after_take.push_back(Scripted::obs(
            Seen::Working("esc to interrupt".into()),
            BoxText::Empty,
            Some(Status::Working),
            false,
        ));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(r.verdict, Verdict::Delivered { note: None });
        assert_eq!((s.typed.len(), s.enters), (1, 1));
    }

    #[test]
    fn an_ignored_enter_gets_a_second_one_only_while_the_box_holds_the_trigger() {
        let mut s = Scripted::idle();
        s.ignore_enters = 1;
        s.after_take.push_back(Scripted::obs(Seen::Idle, BoxText::Empty, Some(Status::Working), false));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(r.verdict, Verdict::Delivered { note: None });
        assert_eq!((s.typed.len(), s.enters), (1, 2));
    }

    #[test]
    fn a_box_that_never_clears_is_not_submitted_after_three_enters() {
        let mut s = Scripted::idle();
        s.ignore_enters = 99;
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(s.enters, 3);
        match r.verdict {
            Verdict::NotSubmitted(m) => {
                assert!(m.starts_with("3 Enters pressed; the box holds \"Please read"), "{m}");
            }
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn a_box_that_clears_without_evidence_is_taken_not_yet_confirmed() {
        let mut s = Scripted::idle();
        s.after_take.push_back(Scripted::obs(Seen::Idle, BoxText::Empty, Some(Status::Idle), false));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(r.verdict, Verdict::Delivered { note: Some("taken, not yet confirmed".into()) });
        assert_eq!(s.enters, 1, "a cleared box never gets another Enter");
    }

    #[test]
    fn a_dialog_before_typing_is_unreachable_and_nothing_is_typed() {
        let mut s = Scripted::idle();
        s.seen = Seen::Dialog { kind: "permission".into(), title: "Bash command".into() };
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert!(
            matches!(r.verdict, Verdict::Unreachable(ref m) if m.contains("permission dialog") && m.contains("x/1"))
        );
        assert!(s.typed.is_empty());
        assert_eq!(s.enters, 0);
    }

    #[test]
    fn a_draft_is_held_and_nothing_is_typed() {
        let mut s = Scripted::idle();
        s.idle_box = BoxText::Holds("half a thought".into());
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert!(matches!(r.verdict, Verdict::Held(ref m) if m.starts_with("the composer already holds unsent text")));
        assert!(s.typed.is_empty());
    }

    #[test]
    fn a_working_seat_whose_cli_does_not_queue_is_held() {
        let mut s = Scripted::idle();
        s.seen = Seen::Working("esc to interrupt".into());
        let mut t = traits();
        t.queues_while_working = false;
        let r = deliver(&mut s, &t, TRIG, "1", "x/1", &FAST);
        assert!(matches!(r.verdict, Verdict::Held(_)));
        assert!(s.typed.is_empty());
    }

    #[test]
    fn an_already_working_seat_needs_more_than_its_status() {
        let mut s = Scripted::idle();
        s.seen = Seen::Working("esc to interrupt".into());
        s.status = Some(Status::Working);
        s.after_take.push_back(Scripted::obs(Seen::Working("x".into()), BoxText::Empty, Some(Status::Working), false));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(r.verdict, Verdict::Delivered { note: Some("taken, not yet confirmed".into()) });
        let mut s = Scripted::idle();
        s.seen = Seen::Working("esc to interrupt".into());
        s.status = Some(Status::Working);
        s.transcript = true;
        s.after_take.push_back(Scripted::obs(Seen::Working("x".into()), BoxText::Empty, Some(Status::Working), false));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(r.verdict, Verdict::Delivered { note: None });
    }

    #[test]
    fn an_unreadable_box_gets_one_enter_and_is_judged_by_status() {
        let mut s = Scripted::idle();
        s.idle_box = BoxText::Unreadable;
        s.current = None;
        // It never shows the typed text: observe keeps answering Unreadable.
        struct Blind(Scripted);
        impl Seat for Blind {
            fn observe(&mut self, id: &str, t: &str) -> Result<Observation, String> {
                let mut o = self.0.observe(id, t)?;
                o.boxed = BoxText::Unreadable;
                Ok(o)
            }
            fn type_text(&mut self, x: &str) -> Result<(), String> {
                self.0.type_text(x)
            }
            fn press_enter(&mut self) -> Result<(), String> {
                self.0.press_enter()
            }
            fn transcript_shows_read(&mut self, id: &str) -> bool {
                self.0.transcript_shows_read(id)
            }
        }
        let mut b = Blind(s);
        let r = deliver(&mut b, &traits(), TRIG, "1", "x/1", &FAST);
        assert_eq!(b.0.enters, 1);
        assert!(matches!(r.verdict, Verdict::NotSubmitted(ref m) if m.contains("the box could not be read")), "{r:?}");
    }

    #[test]
    fn a_dialog_after_the_line_left_is_delivered_naming_it() {
        let mut s = Scripted::idle();
        s.after_take.push_back(Scripted::obs(
            Seen::Dialog { kind: "permission".into(), title: "Bash".into() },
            BoxText::Unreadable,
            Some(Status::Blocked),
            false,
        ));
        let r = deliver(&mut s, &traits(), TRIG, "1", "x/1", &FAST);
        assert!(matches!(r.verdict, Verdict::Delivered { note: Some(ref n) } if n.contains("permission")));
    }

    #[test]
    fn triggers_respect_length_and_forbidden_starts() {
        let t = traits();
        assert!(check_trigger(TRIG, &t).is_ok());
        assert!(check_trigger("cat the drop", &t).is_err());
        assert!(check_trigger("/clear", &t).is_err());
        let mut short = traits();
        short.max_trigger = 10;
        assert!(check_trigger(TRIG, &short).unwrap_err().contains("at most 10"));
    }

    #[test]
    fn drop_refs_are_relative_inside_the_checkout_only() {
        use std::path::Path;
        let root = Path::new("/r");
        let drop = Path::new("/r/.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(root)), ".agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(Path::new("/r/sub"))), "../.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(Path::new("/elsewhere"))), "/r/.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, None), "/r/.agents/send-drops/s/a/1");
    }

    #[test]
    fn transcripts_hand_over_only_rows_appended_after_begin() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        let day = home.join(".codex/sessions/2026/11/29");
        std::fs::create_dir_all(&day).unwrap();
        let f = day.join("rollout-a.jsonl");
        std::fs::write(&f, "old row\n").unwrap();
        let mut w = TranscriptWatch::begin(
            &["{home}/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl".to_string()],
            Some(home.clone()),
            None,
        );
        assert_eq!(w.files(), vec![f.clone()]);
        use std::io::Write;
        std::fs::OpenOptions::new().append(true).open(&f).unwrap().write_all(b"new row\n").unwrap();
        std::fs::write(day.join("rollout-b.jsonl"), "fresh\n").unwrap();
        std::fs::write(day.join("other.jsonl"), "no\n").unwrap();
        assert_eq!(w.new_rows().unwrap(), vec!["new row".to_string(), "fresh".to_string()]);
    }

    #[test]
    fn a_second_lock_waits_and_names_its_holder() {
        let d = tempfile::tempdir().unwrap();
        let st = d.path();
        let held = lock_seat(st, "s", "a", "send", Duration::from_millis(10)).unwrap();
        let e = lock_seat(st, "s", "a", "send", Duration::from_millis(50)).err().unwrap();
        assert!(e.contains("another team send") && e.contains(&std::process::id().to_string()), "{e}");
        drop(held);
        let _l = lock_seat(st, "s", "a", "launch", Duration::from_millis(10)).unwrap();
        let e = lock_seat(st, "s", "a", "send", Duration::from_millis(500)).err().unwrap();
        assert!(e.starts_with("the seat's lock is held by team launch"), "{e}");
    }

    #[test]
    fn wrapped_box_text_still_counts_as_the_trigger() {
        let wrapped = BoxText::Holds("Please read the team message at   x/1".into());
        assert!(holds_trigger(&wrapped, TRIG));
        assert!(!holds_trigger(&BoxText::Holds("Please read".into()), TRIG));
        assert!(!holds_trigger(&BoxText::Empty, TRIG));
    }
}
