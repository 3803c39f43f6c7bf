//! The terminal multiplexer port: the one place `team` touches the panes its seats run in.
//!
//! The delivery code talks to the [`Mux`] trait; two adapters shell out to the multiplexer's
//! own CLI (never its private socket): [`herdr::Herdr`] (the default) and [`tmux::Tmux`].
//! A seat is found by name inside a session (herdr: the agent named `<seat>`; tmux: the pane
//! whose pane option `@team-seat` is `<seat>`), read (styled + plain visible rows, the title,
//! the size, recent rows), typed into (literal text, then Enter as its own call), and its
//! process tree is read from `/proc`.
//!
//! Invariants:
//! - typing is literal: `type_text` never presses Enter, and `press_enter` presses nothing else;
//! - every failure is a [`MuxError`] whose sentence names what is missing (the program, the
//!   server, the session, the seat), never a bare exit status;
//! - the caller's pane is the pane of the team's session whose shell is among this process's
//!   ancestors ([`Mux::pane_of_caller`]); `HERDR_PANE_ID` / `TMUX_PANE` only say whether to look
//!   and which pane to try first, and an environment variable alone never names a caller.
//!
//! - every call to the multiplexer's program is bounded ([`CALL_TIMEOUT`]): one that does not
//!   answer in time is killed and its call fails naming the program, so no run waits forever
//!   on a stopped or hung server;
//! - the program is found on a fixed search (`program`), never where the caller's environment
//!   points, since what it answers decides who the caller is.
//!
//! This module depends on nothing else in the crate but `test_env::test_hook` (std, serde_json,
//! nix otherwise).

pub mod frame;
pub mod herdr;
pub mod procfs;
pub mod program;
pub mod repair;
pub mod tmux;

use std::fmt;
use std::path::PathBuf;

pub use procfs::{descends_from, proc_info, process_tree_below};

/// What an adapter concludes about a pane the environment names but this process does not
/// descend from: hidden from it (a sandbox's pid namespace) or a claim.
pub(crate) fn not_inside(
    var: &str,
    id: &str,
    session: &str,
    shell: Option<u32>,
    visible: &dyn Fn(u32) -> bool,
) -> MuxError {
    match shell {
        Some(pid) if !visible(pid) => MuxError::Sandboxed(format!(
            "{var} names pane {id} of session \"{session}\", but its shell (pid {pid}) is hidden from this process: it runs in another pid namespace, as an agent's sandbox runs its commands"
        )),
        _ => MuxError::Unverified(format!(
            "{var} names pane {id}, but this process does not run inside it (it does not descend from that pane's shell{})",
            shell.map(|p| format!(", pid {p}")).unwrap_or_default()
        )),
    }
}

/// A seat's pane, as located in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneRef {
    /// The multiplexer's pane id (`w1:p2` for herdr, `%3` for tmux).
    pub id: String,
    pub session: String,
    pub seat: String,
    /// The pid of the pane's shell (its first process), when the multiplexer reports it.
    pub shell_pid: Option<u32>,
}

/// What [`Mux::pane_of_caller`] found: the caller's pane of the session, if any, and the pid of
/// the multiplexer's server where it is known (a process descending from the server but from
/// none of the session's panes runs inside the team's multiplexer without a seat).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Located {
    pub pane: Option<PaneRef>,
    pub server: Option<u32>,
}

/// What the multiplexer says about one pane of a session (`Mux::pane`, `Mux::named`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneInfo {
    pub id: String,
    pub session: String,
    /// The pid of the pane's shell (its first process), when the multiplexer reports it.
    pub shell_pid: Option<u32>,
    /// The seat name the multiplexer gives the pane: tmux's `@team-seat` mark, herdr's agent
    /// name; `""` when it gives none.
    pub name: String,
    /// herdr's agent label for the pane's process (`claude`, `codex`), where it reports one.
    pub label: Option<String>,
    /// herdr's workspace of the pane (`w1`); tmux has none.
    pub workspace: Option<String>,
    /// The agent session the multiplexer reports for the pane (herdr's `agent_session`).
    pub agent_session: Option<String>,
}

impl PaneInfo {
    /// The pane as the delivery code addresses it, for `seat`.
    pub fn pane_ref(&self, seat: &str) -> PaneRef {
        PaneRef { id: self.id.clone(), session: self.session.clone(), seat: seat.into(), shell_pid: self.shell_pid }
    }
}

/// One read of a pane.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capture {
    /// The visible rows with their SGR styling kept (faint is `ESC[2m`, …).
    pub styled: Vec<String>,
    /// The same rows without styling, trailing spaces trimmed. Derived from the same snapshot
    /// as `styled`, so the two never disagree.
    pub plain: Vec<String>,
    /// The terminal title the CLI set (OSC 0/2); empty when none is known.
    pub title: String,
    pub cols: u32,
    pub rows: u32,
    /// Plain rows of the scrollback ending at the bottom of the screen (most recent last).
    pub recent: Vec<String>,
    /// The multiplexer's own mode the pane is in, when it is in one (tmux: `copy-mode`,
    /// `view-mode`, …): keys typed then go to the mode, not to the pane's program.
    pub mode: Option<String>,
}

impl Capture {
    /// The screen a profile reads, from this capture (the multiplexer's mode is the leg's to
    /// judge, not the profile's).
    pub fn into_screen(self) -> profile_reading::Screen {
        profile_reading::Screen {
            styled: self.styled,
            plain: self.plain,
            title: self.title,
            cols: self.cols,
            rows: self.rows,
            recent: self.recent,
        }
    }
}

/// The multiplexer's own view of an agent (herdr only; tmux has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentStatus {
    Idle,
    Working,
    Blocked,
    Done,
    Unknown,
}

impl AgentStatus {
    pub fn parse(s: &str) -> AgentStatus {
        match s {
            "idle" => AgentStatus::Idle,
            "working" => AgentStatus::Working,
            "blocked" => AgentStatus::Blocked,
            "done" => AgentStatus::Done,
            _ => AgentStatus::Unknown,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            AgentStatus::Idle => "idle",
            AgentStatus::Working => "working",
            AgentStatus::Blocked => "blocked",
            AgentStatus::Done => "done",
            AgentStatus::Unknown => "unknown",
        }
    }
}

crate::vocab::doc::words!(AgentStatus: Idle, Working, Blocked, Done, Unknown);

/// One reading of the multiplexer's status of a seat's agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusRead {
    pub status: AgentStatus,
    /// herdr ≥ 0.7.5 numbers the status changes of its agents (`state_change_seq`, one counter
    /// for the whole server): a reading whose number is greater than an earlier reading's is a
    /// status that changed since. `None` where the multiplexer does not count them.
    pub change: Option<u64>,
}

/// A process running in a pane (below its shell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proc {
    pub pid: u32,
    /// The process name (`/proc/<pid>/comm`).
    pub name: String,
    pub cwd: Option<PathBuf>,
    /// `HOME` from the process's environment, where readable.
    pub home: Option<PathBuf>,
}

/// Why the multiplexer could not answer. `Display` is one sentence naming what is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MuxError {
    /// The multiplexer's program is not installed (the message names it and where it was looked for).
    ProgramMissing(String),
    /// The multiplexer's server is not running.
    ServerStopped(String),
    /// The server runs, but has no session of that name.
    NoSession(String),
    /// The session has no pane for that seat (or the seat's pane went away).
    NoSeat(String),
    /// Two or more panes are marked as the one seat: a marked pane, which reaches neither.
    MarkedTwice(String),
    /// Anything else (an unexpected answer, a refused key, an I/O error).
    Failed(String),
    /// A pane named by `HERDR_PANE_ID` / `TMUX_PANE` that this process does not run inside:
    /// a claimed identity, refused.
    Unverified(String),
    /// The multiplexer program and the session's server are different versions that do not
    /// speak to each other (the message names both and the repair).
    Mismatch(String),
    /// The multiplexer's program was run and did not answer within [`CALL_TIMEOUT`]: its server
    /// is stopped (SIGSTOP) or hung. The seat is unreachable, and no caller is placed by it.
    NoAnswer(String),
    /// A sandbox stands between this process and the multiplexer: its socket refused the
    /// connection (EPERM/EACCES), or the pane the environment names is in session but its shell
    /// is hidden from this process (another pid namespace). Never "not running", never a claim.
    Sandboxed(String),
}

impl fmt::Display for MuxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MuxError::ProgramMissing(s)
            | MuxError::ServerStopped(s)
            | MuxError::NoSession(s)
            | MuxError::NoSeat(s)
            | MuxError::MarkedTwice(s)
            | MuxError::Failed(s)
            | MuxError::Unverified(s)
            | MuxError::Mismatch(s)
            | MuxError::NoAnswer(s)
            | MuxError::Sandboxed(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for MuxError {}

/// The port every delivery path talks to.
pub trait Mux {
    /// `herdr` or `tmux`.
    fn name(&self) -> &'static str;
    /// The pane of `seat` in `session`.
    fn locate(&self, session: &str, seat: &str) -> Result<PaneRef, MuxError>;
    /// The pane of `seat` of `team` in `session`: as `locate`, where a multiplexer that marks
    /// panes (tmux) also counts a pane marked `<seat>@<team>`, and two panes claiming the seat
    /// in any spelling are refused naming both.
    fn locate_in(&self, session: &str, seat: &str, _team: &str) -> Result<PaneRef, MuxError> {
        self.locate(session, seat)
    }
    /// Every pane of `session` with the seat mark it carries (`(pane id, mark)`, marked ones
    /// only): the caller check reads it to find two panes claiming one seat. A multiplexer
    /// that names its agents itself (herdr, one agent per name) answers none.
    fn marks(&self, _session: &str) -> Result<Vec<(String, String)>, MuxError> {
        Ok(Vec::new())
    }
    /// Every pane of `session` with the seat name it carries (`""` unmarked), in pane order:
    /// `team status` lists the ones no seat holds. A multiplexer that names its agents itself
    /// (herdr) answers none.
    fn panes_of(&self, _session: &str) -> Result<Vec<PaneInfo>, MuxError> {
        Ok(Vec::new())
    }
    /// Styled + plain visible rows, title, size, recent rows.
    fn read(&self, pane: &PaneRef) -> Result<Capture, MuxError>;
    /// As [`Mux::read`] without the recent rows (`recent` empty): a look that only judges the
    /// screen (before typing, status, register, compose). Recent rows matter only for a
    /// drop-read that may have scrolled off, after a trigger was typed; on herdr they are a
    /// call of their own.
    fn read_screen(&self, pane: &PaneRef) -> Result<Capture, MuxError> {
        self.read(pane)
    }
    /// Takes one capture of `pane` as the first of a whole-frame read to come (`frame`), where
    /// reads are settled: a run that reads many panes looks at each once first, so every later
    /// read finds its pane's first capture already a quiet time old. Errors are the later
    /// read's to say.
    fn prime(&self, _pane: &PaneRef) {}
    /// The multiplexer's status of the seat's agent, read fresh on every call (never kept from
    /// an earlier read): herdr's `agent get`; tmux: `None`.
    fn status(&self, pane: &PaneRef) -> Result<Option<StatusRead>, MuxError>;
    /// Types `text` literally. Never presses Enter.
    fn type_text(&self, pane: &PaneRef, text: &str) -> Result<(), MuxError>;
    /// Presses Enter, as its own call.
    fn press_enter(&self, pane: &PaneRef) -> Result<(), MuxError>;
    /// The pane's process tree below its shell (from `/proc`), with cwd and HOME where readable.
    fn foreground_processes(&self, pane: &PaneRef) -> Result<Vec<Proc>, MuxError>;
    /// The pane of `session` this process runs in: the one whose shell — verified as that
    /// pane's real shell (`procfs::is_pane_shell`) — is in `ancestry` (this process and its
    /// ancestors, from [`procfs::ancestry`]), with its seat name as the multiplexer shows it
    /// (tmux: the `@team-seat` mark; herdr: the agent name; `""` if none), and the server's pid.
    /// The multiplexer is always asked (stripping `TMUX`/`HERDR_*` from the environment must not
    /// hide a pane): the environment only says which pane to try first. `pane: None`: no pane of
    /// `session` holds this process — a pane of another session or server is not the team's.
    /// `Err(Unverified)`: the environment names a pane of `session` whose shell this process can
    /// see but does not descend from (a claimed identity). `Err(Sandboxed)`: the pane is hidden
    /// from this process (another pid namespace) or the server refused the connection.
    /// `Err(NoAnswer)`: the server does not answer. A mark or name holding a control character
    /// is refused (`Err(Failed)`, naming the pane).
    fn pane_of_caller(&self, session: &str, ancestry: &[u32]) -> Result<Located, MuxError>;
    /// The pane `id` of `session`: its shell pid and the names the multiplexer gives it.
    /// `Err(NoSeat)`: the session has no such pane.
    fn pane(&self, session: &str, id: &str) -> Result<PaneInfo, MuxError>;
    /// Every pane of `session` the multiplexer names `seat` (tmux: marked `@team-seat <seat>`;
    /// herdr: the agent of that name). Empty when none is; two or more is the user's mistake,
    /// reported by the caller.
    fn named(&self, session: &str, seat: &str) -> Result<Vec<PaneInfo>, MuxError>;
    /// Names pane `id` as `seat` the way a launch names it (herdr: `agent rename`; tmux: the
    /// `@team-seat` mark), and reads the name back: `Ok(false)` when the multiplexer did not
    /// take it (herdr refuses a name its grammar does not allow, or a pane it sees no agent in).
    fn name_pane(&self, session: &str, id: &str, seat: &str) -> Result<bool, MuxError>;
    /// The server a pane of `session` lives on, as a process inside that pane can name it from
    /// its own environment: tmux's socket path (`TMUX`'s first field), herdr's session
    /// (`HERDR_SESSION`). Keys on disk that hold a pane id name it too (two servers each have a
    /// pane `%1`). `None` when it cannot be told.
    fn server(&self, _session: &str, _pane: &str) -> Option<String> {
        None
    }
    /// Writes a seat's two sidebar lines: its workspace's label and its pane's display line
    /// (herdr: `workspace rename`, `pane report-metadata --display-agent`). tmux shows neither,
    /// and the pane's title is the CLI's own: nothing is written there.
    fn sidebar(&self, _pane: &PaneInfo, _workspace_label: &str, _display: &str) -> Result<(), MuxError> {
        Ok(())
    }
    /// One look at every pane of `session`, when the multiplexer lists a session's panes whole
    /// in one call (tmux): what [`panes_of`] answers many seats from. `None`: it is asked per
    /// seat.
    fn look(&self, _session: &str) -> Option<Box<dyn Panes + '_>> {
        None
    }
    /// The command line that starts `session` on the server this adapter asks, when the
    /// adapter's server is one of several (tmux: the named server's, never the default one in
    /// its place). `None`: the multiplexer's own words say it.
    fn start_command(&self, _session: &str) -> Option<String> {
        None
    }
    /// Opens a pane for `seat` in `session` — the session started when it is not running — in
    /// `cwd`, running the user's shell, and names it as the seat before anything runs in it
    /// (tmux: `new-session` or `new-window`, then the `@team-seat` mark). `Err(Failed)` where
    /// this adapter starts no seats.
    fn open_seat(&self, _session: &str, _cwd: &std::path::Path, _seat: &str) -> Result<PaneInfo, MuxError> {
        Err(MuxError::Failed(format!("this build starts no seats on {}", self.name())))
    }
    /// Opens a pane for `seat` of `team` as [`Mux::open_seat`] does, where a multiplexer that
    /// holds several teams in one session (herdr: one workspace per team, labelled with the
    /// team's name) opens it in the team's own part of the session.
    fn open_team_seat(
        &self,
        session: &str,
        cwd: &std::path::Path,
        seat: &str,
        _team: &str,
    ) -> Result<PaneInfo, MuxError> {
        self.open_seat(session, cwd, seat)
    }
    /// The panes of `session` where `team`'s seats run, each with its seat name (`""` when it
    /// has none): tmux, every pane of the session (`panes_of`); herdr, the panes of the team's
    /// workspace. `team up` and `team down` judge the session by these.
    fn team_panes(&self, session: &str, _team: &str) -> Result<Vec<PaneInfo>, MuxError> {
        self.panes_of(session)
    }
    /// Runs a seat's launch `line` in its pane, opened by [`Mux::open_team_seat`]: typed into
    /// the pane's shell as a person types it, then Enter (herdr ≥ 0.7.5: `agent start`, which
    /// names the agent as the seat as it launches it, where herdr's kinds cover the line).
    fn launch(&self, pane: &PaneRef, line: &str) -> Result<(), MuxError> {
        self.type_text(pane, line)?;
        self.press_enter(pane)
    }
    /// Closes pane `id` of `session`; a session whose last pane it was ends with it.
    fn close_pane(&self, _session: &str, _id: &str) -> Result<(), MuxError> {
        Err(MuxError::Failed(format!("this build closes no panes on {}", self.name())))
    }
    /// Hands pane `id`'s raw output, as the program in it writes it, to the shell `command`
    /// (tmux: `pipe-pane -O`, which replaces a pipe the pane had): where a seat's own status
    /// reports are read (`legs::reports`). `Ok(false)`: this multiplexer pipes no pane.
    fn pipe_output(&self, _id: &str, _command: &str) -> Result<bool, MuxError> {
        Ok(false)
    }
    /// Presses one key by name (`vocab::key`), as its own call.
    fn press_key(&self, _pane: &PaneRef, key: crate::vocab::key::Key) -> Result<(), MuxError> {
        Err(MuxError::Failed(format!("this build presses no {} on {}", key.name(), self.name())))
    }
}

/// The panes of one session, for finding many seats in it (`team status`, `team check`): the
/// answers [`Mux::locate_in`] and [`Mux::pane`] give, from one look where the multiplexer
/// lists a session's panes whole, so a roster of n seats costs one call and not n.
pub trait Panes {
    /// As [`Mux::locate_in`] for this session.
    fn locate_in(&self, seat: &str, team: &str) -> Result<PaneRef, MuxError>;
    /// As [`Mux::pane`] for this session.
    fn pane(&self, id: &str) -> Result<PaneInfo, MuxError>;
}

/// [`Panes`] asked live: every question is the adapter's own call.
pub struct Live<'m> {
    pub mux: &'m dyn Mux,
    pub session: String,
}

impl Panes for Live<'_> {
    fn locate_in(&self, seat: &str, team: &str) -> Result<PaneRef, MuxError> {
        self.mux.locate_in(&self.session, seat, team)
    }
    fn pane(&self, id: &str) -> Result<PaneInfo, MuxError> {
        self.mux.pane(&self.session, id)
    }
}

/// The panes of `session`: one look when `mux` lists them whole, else asked live.
pub fn panes_of<'m>(mux: &'m dyn Mux, session: &str) -> Box<dyn Panes + 'm> {
    mux.look(session).unwrap_or_else(|| Box::new(Live { mux, session: session.to_string() }))
}

/// What the caller's environment says about multiplexers, read once (`Ctx::mux`) and passed
/// down: which tmux server to ask (`TEAM_TMUX_SOCKET`, else the one `TMUX` names) and which
/// pane the caller claims to sit in (`TMUX_PANE`, `HERDR_PANE_ID`).
///
/// Invariant: these are hints. They choose which server to ask and which pane a claim names;
/// who the caller is comes only from the process tree reaching a pane's real shell
/// (`pane_of_caller`), and a pane named here that this process does not descend from is
/// refused as a claim (`MuxError::Unverified`) — a tmux pane only when `TMUX` names the
/// server asked (a pane id is one server's numbering).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// `TMUX`: `<socket>,<server pid>,<session index>` of the tmux the caller sits in.
    pub tmux: Option<String>,
    /// `TMUX_PANE`: the tmux pane the caller claims to sit in.
    pub tmux_pane: Option<String>,
    /// `HERDR_PANE_ID`: the herdr pane the caller claims to sit in.
    pub herdr_pane_id: Option<String>,
    /// `TEAM_TMUX_SOCKET`: the tmux server to ask (a path, or a bare `-L` name).
    pub team_tmux_socket: Option<String>,
}

impl Hints {
    /// The hints a set of variables gives (an empty or non-UTF-8 value is none).
    pub fn read(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Hints {
        let text = |k: &str| var(k).and_then(|v| v.into_string().ok()).filter(|v| !v.is_empty());
        Hints {
            tmux: text("TMUX"),
            tmux_pane: text("TMUX_PANE"),
            herdr_pane_id: text("HERDR_PANE_ID"),
            team_tmux_socket: text("TEAM_TMUX_SOCKET"),
        }
    }

    /// Inside tmux, or naming a tmux server: a choice of tmux as much as sitting in it.
    fn tmux_named(&self) -> bool {
        self.tmux.is_some() || self.team_tmux_socket.is_some()
    }
}

/// Chooses the adapter: the team file's `multiplexer:` key (`herdr` | `tmux`); else the
/// environment the caller sits in (inside tmux — `TMUX` set and no `HERDR_PANE_ID` — → tmux;
/// any `HERDR_*` → herdr); else herdr. An unknown key value is the team file's error to
/// report; here it falls through to the environment.
pub fn choose(hints: &Hints, file_choice: Option<&str>) -> Box<dyn Mux> {
    choose_with(hints, file_choice, Box::new(|_, _| None))
}

/// The word `choose` picks for `file_choice` with these hints (`herdr` | `tmux`).
pub fn chosen(hints: &Hints, file_choice: Option<&str>) -> &'static str {
    choice(file_choice, hints.tmux_named(), hints.herdr_pane_id.is_some())
}

/// The multiplexer the environment says this process sits in: a herdr pane, else tmux, else
/// neither. It says where to look (what `team init` writes), never who the caller is.
pub fn sits_in(hints: &Hints) -> Option<&'static str> {
    if hints.herdr_pane_id.is_some() {
        Some("herdr")
    } else if hints.tmux.is_some() {
        Some("tmux")
    } else {
        None
    }
}

/// `choose`, with the herdr adapter told where each seat was last seen (`last_seen`: the
/// records `team register` and a launch keep).
pub fn choose_with(hints: &Hints, file_choice: Option<&str>, last_seen: herdr::LastSeen) -> Box<dyn Mux> {
    let in_tmux = hints.tmux_named();
    match choice(file_choice, in_tmux, hints.herdr_pane_id.is_some()) {
        "tmux" => Box::new(tmux::Tmux::from_hints(hints)),
        _ => {
            let mut h = herdr::Herdr::from_env();
            h.last_seen = last_seen;
            h.pane_hint = hints.herdr_pane_id.clone();
            // herdr for want of any other choice: a missing herdr then says how to use tmux
            h.by_default = file_choice.is_none() && !in_tmux && hints.herdr_pane_id.is_none();
            Box::new(h)
        }
    }
}

/// The adapter `choose` picks: the file's word, else tmux when the caller sits in tmux (or
/// names a tmux server) and not in a herdr pane, else herdr.
fn choice(file_choice: Option<&str>, in_tmux: bool, in_herdr_pane: bool) -> &'static str {
    match file_choice {
        Some("tmux") => "tmux",
        Some("herdr") => "herdr",
        _ if in_tmux && !in_herdr_pane => "tmux",
        _ => "herdr",
    }
}

/// What a program run answered.
#[derive(Debug, Clone, Default)]
pub struct RunOutput {
    /// The exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl RunOutput {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).trim_end().to_string()
    }
}

/// The seam through which adapters run their multiplexer's program: argv in, status and
/// output back. Production uses [`SystemRunner`]; herdr's tests answer from recorded outputs
/// (herdr cannot be installed where the tests run).
pub trait Runner: Send + Sync {
    /// Runs `argv[0]` with `argv[1..]`. An `Err` of kind `NotFound` means the program is missing.
    fn run(&self, argv: &[String]) -> std::io::Result<RunOutput>;
    /// As `run`, for a call that may take up to `limit` (herdr's `agent start` answers once the
    /// agent is ready): production waits that long instead of [`CALL_TIMEOUT`].
    fn run_for(&self, argv: &[String], _limit: std::time::Duration) -> std::io::Result<RunOutput> {
        self.run(argv)
    }
    /// Starts `argv[0]` with `argv[1..]` and leaves it running on its own (herdr's server runs
    /// in the foreground): stdin and output closed, in a process group of its own, not waited
    /// for. A runner that starts nothing says `Unsupported`.
    fn start(&self, argv: &[String]) -> std::io::Result<()> {
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, format!("this runner starts no {}", argv[0])))
    }
}

/// How long one call to the multiplexer's program may take: a tmux or herdr call answers in
/// milliseconds (one tmux call costs about 4 ms), so one that has not answered in this long
/// is stuck (a stopped server, a hung socket) and is given up on.
pub const CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the program for real, stdin closed, output captured, for at most [`CALL_TIMEOUT`].
pub struct SystemRunner;

impl Runner for SystemRunner {
    fn run(&self, argv: &[String]) -> std::io::Result<RunOutput> {
        SystemRunner::run_within(argv, CALL_TIMEOUT)
    }
    fn run_for(&self, argv: &[String], limit: std::time::Duration) -> std::io::Result<RunOutput> {
        SystemRunner::run_within(argv, limit.max(CALL_TIMEOUT))
    }
    fn start(&self, argv: &[String]) -> std::io::Result<()> {
        use std::os::unix::process::CommandExt;
        use std::process::Stdio;
        let mut cmd = std::process::Command::new(&argv[0]);
        cmd.args(&argv[1..]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).process_group(0);
        // left running: it outlives this run (the orphan is reaped by init)
        cmd.spawn().map(drop)
    }
}

impl SystemRunner {
    /// Runs `argv` and waits at most `limit` for it: past that its whole process group is
    /// killed and the call fails with `TimedOut`, naming the program.
    pub fn run_within(argv: &[String], limit: std::time::Duration) -> std::io::Result<RunOutput> {
        use crate::child::{self, Unfinished};
        let mut cmd = std::process::Command::new(&argv[0]);
        cmd.args(&argv[1..]);
        match child::run(cmd, None, child::Output::Capture, limit) {
            Ok(out) => Ok(RunOutput { code: out.status.code(), stdout: out.stdout, stderr: out.stderr }),
            Err(Unfinished::Start(e) | Unfinished::Wait(e)) => Err(e),
            Err(Unfinished::TimedOut(_)) => {
                let name = std::path::Path::new(&argv[0]).file_name().map(|n| n.to_string_lossy().into_owned());
                Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "{} did not answer within {} s",
                        name.unwrap_or_else(|| argv[0].clone()),
                        limit.as_secs_f64()
                    ),
                ))
            }
        }
    }
}

/// The runner of a program the search did not find: every call is `NotFound`, and nothing is
/// run (never a same-named program from `PATH`).
pub struct Missing;

impl Runner for Missing {
    fn run(&self, _argv: &[String]) -> std::io::Result<RunOutput> {
        Err(std::io::Error::from(std::io::ErrorKind::NotFound))
    }
}

/// Removes terminal escape sequences and control characters (tab kept) from one row: the
/// tree's one stripper, `profile_reading::ansi::strip`.
pub use profile_reading::ansi::strip as strip_ansi;

/// Splits a multiplexer's text output into rows (`\n` or `\r\n` line ends); a final line end
/// does not make an extra empty row (`profile_reading::split_rows`).
pub use profile_reading::split_rows;

/// Plain rows from styled rows: escapes removed, trailing ASCII spaces trimmed
/// (`profile_reading::plain_rows`, which `Screen::from_ansi` uses too).
pub use profile_reading::plain_rows;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_chooses_else_the_caller_s_multiplexer_else_herdr() {
        assert_eq!(choice(Some("tmux"), false, true), "tmux");
        assert_eq!(choice(Some("herdr"), true, false), "herdr");
        assert_eq!(choice(None, true, false), "tmux");
        assert_eq!(choice(None, true, true), "herdr");
        assert_eq!(choice(None, false, false), "herdr");
        assert_eq!(choice(Some("screen"), false, false), "herdr");
        assert_eq!(choose(&Hints::default(), Some("tmux")).name(), "tmux");
        assert_eq!(choose(&Hints::default(), Some("herdr")).name(), "herdr");
    }

    #[test]
    fn a_program_that_never_answers_is_killed_at_the_bound() {
        let t = std::time::Instant::now();
        let argv: Vec<String> = ["sh", "-c", "sleep 30; echo late"].iter().map(|s| s.to_string()).collect();
        let e = SystemRunner::run_within(&argv, std::time::Duration::from_millis(300)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
        assert_eq!(e.to_string(), "sh did not answer within 0.3 s");
        assert!(t.elapsed() < std::time::Duration::from_secs(10), "{:?}", t.elapsed());
        let ok = SystemRunner::run_within(&["echo".into(), "hi".into()], CALL_TIMEOUT).unwrap();
        assert_eq!((ok.code, ok.stdout_str()), (Some(0), "hi\n".to_string()));
        assert_eq!(Missing.run(&argv).unwrap_err().kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn display_is_the_sentence() {
        let e = MuxError::NoSeat("no pane of tmux session \"s\" is marked as seat \"x\"".into());
        assert_eq!(e.to_string(), "no pane of tmux session \"s\" is marked as seat \"x\"");
    }
}
