//! The tmux adapter: seats are panes marked with the pane option `@team-seat`.
//!
//! A user marks a pane as seat `<seat>` with
//!
//! ```text
//! tmux set -p -t <pane> @team-seat <seat>
//! ```
//!
//! (`<pane>` as tmux names it: `%3`, or `<session>:<window>.<pane>`). The seat is then the pane
//! of session `<session>` whose `@team-seat` is `<seat>`; two panes marked the same are refused
//! as ambiguous. tmux has no agent status, so [`Mux::status`] answers `None` and the profile's
//! reading of the screen decides. The title is `#{pane_title}`, the size `#{pane_width}` ×
//! `#{pane_height}`, the shell pid `#{pane_pid}`. The screen is `capture-pane -p -e` (styled);
//! the plain rows are derived from that same capture (so they never disagree); recent rows are
//! `capture-pane -p -S -<n>` — the size, title and both captures in ONE tmux call (commands
//! joined with `;`), so a read is one moment of the pane. Text goes in with `send-keys -l -t <pane> -- <text>` (a final `;` escaped, see
//! [`literal_arg`]), Enter with its
//! own `send-keys -t <pane> Enter`.
//!
//! The caller's pane is found by ancestry on the team's server (`pane_of_caller`); `TMUX_PANE`
//! only names a claim to refuse when it is false, and a pane id is one server's numbering, so
//! it is a claim on the team's server only when the caller's `$TMUX` names that server (its
//! socket, or its pid where a socket cannot be compared): a person's own tmux whose `%1` the
//! team's server also has is no claim.
//!
//! Which server (from `mux::Hints`, the run's environment read once): `$TEAM_TMUX_SOCKET` (a path → `-S <path>`, a bare name → `-L <name>`; tests
//! use it so they never touch the user's server), else the socket of the tmux the caller sits
//! in (the first field of `$TMUX`), else tmux's default. The program is the first `tmux` of the
//! fixed search (`program`: the system's folders, then the user's own), never one the
//! environment names: what it answers about panes decides who the caller is.
//!
//! A pane in one of tmux's modes (copy mode, where `send-keys -l` is read as copy-mode keys)
//! is said in the read (`Capture::mode`, `#{pane_mode}`), so nothing is typed into it.

use super::{
    plain_rows, procfs, split_rows, Capture, Located, Mux, MuxError, PaneInfo, PaneRef, Panes, Proc, RunOutput, Runner,
    StatusRead, SystemRunner,
};
use format::Field::{Fixed, Framed};

pub mod format;
mod launch;
mod look;
mod marks;
mod own;
pub use marks::MarkedPane;
pub use own::NewSession;

/// One pane of a session as `list-panes` answers it: its id, its shell, the shell's terminal,
/// the server's pid, and the mark (framed: anyone in a pane can set it).
const PANE_ROW: &[format::Field] =
    &[Fixed("pane_id"), Fixed("pane_pid"), Fixed("pane_tty"), Fixed("pid"), Framed("@team-seat")];

/// The size, mode and title of a pane, before its captures in one `read` (the title is the
/// program's own: framed).
const READ_ROW: &[format::Field] =
    &[Fixed("pane_width"), Fixed("pane_height"), Fixed("pane_mode"), Framed("pane_title")];

/// Every pane of a session, and the server's pid.
struct Listing {
    panes: Vec<PaneInfo>,
    server: Option<u32>,
}

/// How many scrollback rows above the screen `read` returns as `recent`.
pub const RECENT_ROWS: u32 = 200;

/// The tmux adapter.
pub struct Tmux {
    bin: String,
    /// `-S <path>` / `-L <name>`, or nothing for the default server.
    socket_args: Vec<String>,
    runner: Box<dyn Runner>,
    /// The pane the caller's environment names (`TMUX_PANE`): a claim to verify, never an identity.
    pane_hint: Option<PaneHint>,
    /// Each pane's last capture: a read hands on a whole frame (`frame`).
    frames: super::frame::Frames,
}

/// The pane the caller's environment names, and the server its `$TMUX` says that pane is on: a
/// pane id (`%1`) is one server's numbering, so a person's own tmux whose `%1` is also a pane of
/// the team's server claims nothing about the team's.
#[derive(Debug, Clone, PartialEq)]
struct PaneHint {
    id: String,
    /// `$TMUX`'s socket path and server pid (absent without `$TMUX`: the claim stands alone).
    socket: Option<String>,
    server: Option<u32>,
}

impl PaneHint {
    fn of(hints: &super::Hints) -> Option<PaneHint> {
        let id = hints.tmux_pane.clone()?;
        let mut fields = hints.tmux.as_deref().map(|t| t.split(',')).into_iter().flatten();
        let socket = fields.next().filter(|s| !s.is_empty()).map(str::to_string);
        let server = fields.next().and_then(|p| p.parse().ok());
        Some(PaneHint { id, socket, server })
    }

    /// Whether the pane it names is one of the server this adapter asks: `server` is that
    /// server's pid (`None`: it did not answer), `socket` its `-S` path when named by path.
    /// A hint whose `$TMUX` names another server (another socket; where the socket cannot be
    /// compared, another server pid) is not.
    fn names_a_pane_of(&self, server: Option<u32>, socket: Option<&str>) -> bool {
        match ((self.socket.as_deref(), socket), (self.server, server)) {
            ((Some(mine), Some(theirs)), _) => same_path(mine, theirs),
            (_, (Some(mine), Some(theirs))) => mine == theirs,
            _ => true,
        }
    }
}

/// Two socket paths name one socket (resolved when they can be).
fn same_path(a: &str, b: &str) -> bool {
    let real = |p: &str| std::fs::canonicalize(p).unwrap_or_else(|_| std::path::PathBuf::from(p));
    a == b || real(a) == real(b)
}

impl Tmux {
    /// The adapter for the server the environment's hints name (see the module docs).
    pub fn from_hints(hints: &super::Hints) -> Tmux {
        let found = super::program::find("tmux");
        let bin = found.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "tmux".into());
        let socket_args = match (&hints.team_tmux_socket, &hints.tmux) {
            (Some(s), _) => socket_flag(s),
            (None, Some(t)) => vec!["-S".into(), t.split(',').next().unwrap_or_default().to_string()],
            (None, None) => Vec::new(),
        };
        let runner: Box<dyn Runner> = if found.is_some() { Box::new(SystemRunner) } else { Box::new(super::Missing) };
        Tmux { bin, socket_args, runner, pane_hint: PaneHint::of(hints), frames: Default::default() }
    }

    /// The adapter for one server: `socket` is a path (`-S`) or a bare name (`-L`); the program
    /// is the fixed search's.
    pub fn with_socket(socket: &str) -> Tmux {
        match super::program::find("tmux") {
            Some(p) => Tmux::new(&p.display().to_string(), socket),
            None => Tmux { runner: Box::new(super::Missing), ..Tmux::new("tmux", socket) },
        }
    }

    /// The adapter running program `bin` against server `socket` (a path or a bare name).
    pub fn new(bin: &str, socket: &str) -> Tmux {
        Tmux {
            bin: bin.into(),
            socket_args: socket_flag(socket),
            runner: Box::new(SystemRunner),
            pane_hint: None,
            frames: Default::default(),
        }
    }

    /// The adapter for server `socket`, running its program through `runner` (tests answer
    /// with recorded tmux outputs).
    pub fn with_runner(socket: &str, runner: Box<dyn Runner>) -> Tmux {
        Tmux { runner, ..Tmux::new("tmux", socket) }
    }

    /// The argv prefix every call starts with (program and socket flag).
    pub fn base_argv(&self) -> Vec<String> {
        let mut v = vec![self.bin.clone()];
        v.extend(self.socket_args.iter().cloned());
        v
    }

    /// What a miss on the default server adds: seats on a server of their own are reached by
    /// naming it. Nothing when a server is named already.
    fn private_hint(&self) -> &'static str {
        if self.socket_args.is_empty() {
            "; seats on a tmux server of their own (tmux -L <name>, tmux -S <path>) are reached with TEAM_TMUX_SOCKET=<name or path> set"
        } else {
            ""
        }
    }

    /// The command that starts `session` on this adapter's server — the named one, never the
    /// default server in its place.
    pub fn start_line(&self, session: &str) -> String {
        let mut words = vec!["tmux".to_string()];
        words.extend(self.socket_args.iter().map(|a| if a.contains(' ') { format!("'{a}'") } else { a.clone() }));
        words.extend(["new".into(), "-s".into(), session.to_string()]);
        words.join(" ")
    }

    fn server_name(&self) -> String {
        match self.socket_args.as_slice() {
            [flag, s] if flag == "-S" => format!("the tmux server at {s}"),
            [_, s] => format!("the tmux server \"{s}\""),
            _ => "the default tmux server".into(),
        }
    }

    /// Runs `tmux <socket> <args…>`; maps a missing program and a stopped server.
    fn tmux(&self, args: &[&str]) -> Result<RunOutput, MuxError> {
        let mut argv = self.base_argv();
        // `-u`: a tmux client in a locale that is not UTF-8 (a run over ssh with no LANG, cron)
        // prints a format's tab as `_`, and no answer would read (measured, tmux 3.3a)
        argv.insert(1, "-u".into());
        argv.extend(args.iter().map(|s| s.to_string()));
        let out = self.runner.run(&argv).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => MuxError::ProgramMissing(super::program::missing("tmux", &self.bin)),
            std::io::ErrorKind::TimedOut => MuxError::NoAnswer(format!(
                "tmux did not answer within {} s: {} is not responding (stopped or hung)",
                super::CALL_TIMEOUT.as_secs(),
                self.server_name()
            )),
            _ => MuxError::Failed(format!("could not run {}: {e}", self.bin)),
        })?;
        if !out.ok() {
            let err = out.stderr_str();
            if err.contains("error connecting to")
                && (err.contains("Operation not permitted") || err.contains("Permission denied"))
            {
                return Err(MuxError::Sandboxed(format!(
                    "{} refused this process's connection ({})",
                    self.server_name(),
                    if err.contains("Permission denied") { "permission denied" } else { "operation not permitted" }
                )));
            }
            if err.contains("no server running") || err.contains("error connecting to") {
                return Err(MuxError::ServerStopped(format!(
                    "{} is not running{}",
                    self.server_name(),
                    self.private_hint()
                )));
            }
        }
        Ok(out)
    }

    fn failed(&self, what: &str, out: &RunOutput) -> MuxError {
        MuxError::Failed(format!("tmux {what} failed: {}", tmux_words(&one_line(&out.stderr_str()))))
    }

    /// Runs a pane-targeted command; a vanished pane is `NoSeat`.
    fn pane_cmd(&self, pane: &PaneRef, what: &str, args: &[&str]) -> Result<RunOutput, MuxError> {
        let out = self.tmux(args)?;
        if out.ok() {
            return Ok(out);
        }
        let err = out.stderr_str();
        if err.contains("can't find pane") || err.contains("can't find window") || err.contains("can't find session") {
            return Err(MuxError::NoSeat(format!(
                "the pane {} of seat \"{}\" in tmux session \"{}\" is gone",
                pane.id, pane.seat, pane.session
            )));
        }
        Err(self.failed(what, &out))
    }

    /// One capture of `pane`: the size, mode and title, the styled rows and the recent rows,
    /// as tmux prints them.
    fn capture(&self, pane: &PaneRef) -> Result<Vec<u8>, MuxError> {
        // One tmux call (three commands): the server runs them back to back, so the size, the
        // title and the rows are one moment of the pane, and a capture costs one process (`read`
        // settles captures into a whole frame: `frame`).
        let start = format!("-{RECENT_ROWS}");
        let id = pane.id.as_str();
        let read_format = format::format(READ_ROW);
        self.pane_cmd(
            pane,
            "capture-pane",
            &[
                "display-message",
                "-p",
                "-t",
                id,
                &read_format,
                ";",
                "capture-pane",
                "-p",
                "-e",
                "-t",
                id,
                ";",
                "capture-pane",
                "-p",
                "-t",
                id,
                "-S",
                &start,
            ],
        )
        .map(|out| out.stdout)
    }

    /// The key of a pane's frames: the server (its socket) and the pane id.
    fn frame_key(&self, pane: &PaneRef) -> String {
        format!("{} {}", self.socket_args.join(" "), pane.id)
    }

    fn shell_pid(&self, pane: &PaneRef) -> Result<u32, MuxError> {
        if let Some(p) = pane.shell_pid {
            return Ok(p);
        }
        let out = self.pane_cmd(pane, "display-message", &["display-message", "-p", "-t", &pane.id, "#{pane_pid}"])?;
        out.stdout_str()
            .trim()
            .parse()
            .map_err(|_| MuxError::Failed(format!("tmux did not report the shell pid of pane {}", pane.id)))
    }
}

impl Tmux {
    /// Every pane of `session` with its shell pid and mark (`""` unmarked).
    fn panes(&self, session: &str) -> Result<Vec<PaneInfo>, MuxError> {
        self.listing(session).map(|l| l.panes)
    }

    /// Every pane of `session`, read so that no value adds a row or a field (`format`), each
    /// shell checked as that pane's real shell; and the server's pid. A mark holding a control
    /// character refuses the whole listing, naming its pane: it is no seat's, and whichever
    /// seat it was written to look like, no pane of the session is read as that seat while it
    /// stands.
    fn listing(&self, session: &str) -> Result<Listing, MuxError> {
        // `=<name>:` matches the session name exactly (`=<name>` alone also takes a prefix).
        let target = format!("={session}:");
        let out = self.tmux(&["list-panes", "-s", "-t", &target, "-F", &format::format(PANE_ROW)])?;
        if !out.ok() {
            let err = out.stderr_str();
            // `-s -t =<name>` answers "can't find window" on some versions for a missing session.
            if err.contains("can't find session") || err.contains("can't find window") {
                return Err(self.no_session(session));
            }
            return Err(self.failed("list-panes", &out));
        }
        let rows = format::parse(&out.stdout, PANE_ROW).map_err(|m| self.malformed("list-panes", &m))?;
        let mut listing = Listing { panes: Vec::with_capacity(rows.len()), server: None };
        for row in rows {
            let [id, pid, tty, server, mark] = <[String; 5]>::try_from(row).map_err(|_| {
                self.malformed("list-panes", &format::Malformed("a row without its five fields".into()))
            })?;
            if !crate::vocab::names::valid_pane(&id) || !id.starts_with('%') {
                return Err(self.malformed("list-panes", &format::Malformed(format!("\"{id}\" is no pane id"))));
            }
            if format::has_control(&mark) {
                return Err(MuxError::Failed(format!(
                    "pane {id} of tmux session \"{session}\" is marked \"{}\": a mark holding a control character marks no seat, and team reads no pane of the session while it stands (repair: tmux set -p -t {id} -u @team-seat, then team mark <seat> --pane {id})",
                    format::shown(&mark)
                )));
            }
            let server: Option<u32> = server.parse().ok();
            listing.server = listing.server.or(server);
            let shell = pid.parse::<u32>().ok().filter(|&p| {
                // A shell hidden from this process (another pid namespace) is kept: it matches
                // no ancestor here, and says why the pane cannot vouch (`not_inside`).
                !procfs::visible(p) || procfs::is_pane_shell(p, procfs::tty_of_path(std::path::Path::new(&tty)), server)
            });
            listing.panes.push(PaneInfo {
                id,
                session: session.into(),
                shell_pid: shell,
                name: mark,
                label: None,
                workspace: None,
                agent_session: None,
            });
        }
        Ok(listing)
    }

    /// An answer `format` could not read, in the project's words.
    fn malformed(&self, what: &str, m: &format::Malformed) -> MuxError {
        MuxError::Failed(format!(
            "tmux answered {what} in a form team does not read ({}), so nothing was taken from it; {} may be a tmux older than 3.1",
            m.0,
            self.server_name()
        ))
    }

    /// The server's pid when the team's session is not on it (a caller may still run inside
    /// the server: another session's pane, a command tmux started).
    fn server_pid(&self) -> Option<u32> {
        let out = self.tmux(&["display-message", "-p", "#{pid}"]).ok()?;
        out.stdout_str().trim().parse().ok().filter(|_| out.ok())
    }

    /// The one pane of `session` marked as `seat`: `<seat>`, or also `<seat>@<team>` when the
    /// team is known. Two or more are refused, each named with its mark.
    fn find_marked(&self, session: &str, seat: &str, team: Option<&str>) -> Result<PaneRef, MuxError> {
        let spelled = team.map(|t| format!("{seat}@{t}"));
        let panes = self.panes(session)?;
        look::pick(
            session,
            seat,
            panes.iter().filter(|p| p.name == seat || spelled.as_deref() == Some(p.name.as_str())),
        )
    }
}

fn socket_flag(s: &str) -> Vec<String> {
    if s.contains('/') {
        vec!["-S".into(), s.into()]
    } else {
        vec!["-L".into(), s.into()]
    }
}

/// `text` as one tmux argument that tmux passes on unchanged. tmux reads an argument ending in
/// `;` as a command separator (the `;` dropped) and one ending in `\;` as a literal `;` (the
/// backslash dropped), so a final `;` gets a backslash in front: `a;` → `a\;`, `a\;` → `a\\;`.
pub fn literal_arg(text: &str) -> String {
    match text.strip_suffix(';') {
        Some(head) => format!("{head}\\;"),
        None => text.to_string(),
    }
}

/// tmux's own error line in the project's words where it is one this adapter knows (tmux's
/// `no current client` names a tmux internal, not the problem); any other is quoted as tmux's.
fn tmux_words(line: &str) -> String {
    if line.contains("no current client") {
        "tmux found no pane to act on (no client is attached to name one)".into()
    } else if let Some(p) = line.strip_prefix("can't find pane: ") {
        format!("tmux has no pane {p}")
    } else if line.is_empty() {
        "tmux said nothing".into()
    } else {
        format!("tmux said \"{line}\"")
    }
}

fn one_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

impl Mux for Tmux {
    fn name(&self) -> &'static str {
        "tmux"
    }

    fn server(&self, _session: &str, pane: &str) -> Option<String> {
        // a server named by its path is that path (no call); a named or default one is asked
        if let [flag, path] = self.socket_args.as_slice() {
            if flag == "-S" {
                return Some(path.clone());
            }
        }
        let out = self.tmux(&["display-message", "-p", "-t", pane, "#{socket_path}"]).ok()?;
        let path = out.stdout_str().trim().to_string();
        (!path.is_empty() && !path.contains('\n')).then_some(path)
    }

    fn locate(&self, session: &str, seat: &str) -> Result<PaneRef, MuxError> {
        self.find_marked(session, seat, None)
    }

    fn locate_in(&self, session: &str, seat: &str, team: &str) -> Result<PaneRef, MuxError> {
        self.find_marked(session, seat, Some(team))
    }

    fn panes_of(&self, session: &str) -> Result<Vec<PaneInfo>, MuxError> {
        self.panes(session)
    }

    fn marks(&self, session: &str) -> Result<Vec<(String, String)>, MuxError> {
        Ok(self.panes(session)?.into_iter().filter(|p| !p.name.is_empty()).map(|p| (p.id, p.name)).collect())
    }

    fn prime(&self, pane: &PaneRef) {
        if let Ok(bytes) = self.capture(pane) {
            self.frames.keep(&self.frame_key(pane), bytes);
        }
    }

    fn read(&self, pane: &PaneRef) -> Result<Capture, MuxError> {
        let stdout = self.frames.settled(&self.frame_key(pane), || self.capture(pane), std::thread::sleep)?;
        let (info, rest) = format::parse_row(&stdout, READ_ROW).map_err(|m| self.malformed("a pane read", &m))?;
        let rest = String::from_utf8_lossy(rest).into_owned();
        let cols: u32 = info[0].parse().unwrap_or(0);
        let rows: u32 = info[1].parse().unwrap_or(0);
        let mode = Some(info[2].clone()).filter(|m| !m.is_empty());
        let title = info[3].clone();
        // capture-pane prints every row of the screen, blank ones included: `rows` rows.
        let mut all = split_rows(&rest);
        let n = (rows as usize).min(all.len());
        let recent = all.split_off(n);
        let styled = all;
        let plain = plain_rows(&styled);
        Ok(Capture { styled, plain, title, cols, rows, recent, mode })
    }

    fn status(&self, _pane: &PaneRef) -> Result<Option<StatusRead>, MuxError> {
        Ok(None)
    }

    fn type_text(&self, pane: &PaneRef, text: &str) -> Result<(), MuxError> {
        if text.is_empty() {
            return Ok(());
        }
        let arg = literal_arg(text);
        self.pane_cmd(pane, "send-keys", &["send-keys", "-l", "-t", &pane.id, "--", &arg]).map(|_| ())
    }

    fn press_enter(&self, pane: &PaneRef) -> Result<(), MuxError> {
        self.pane_cmd(pane, "send-keys", &["send-keys", "-t", &pane.id, "Enter"]).map(|_| ())
    }

    fn foreground_processes(&self, pane: &PaneRef) -> Result<Vec<Proc>, MuxError> {
        let pid = self.shell_pid(pane)?;
        Ok(procfs::process_tree_below(pid))
    }

    fn pane(&self, session: &str, id: &str) -> Result<PaneInfo, MuxError> {
        self.panes(session)?.into_iter().find(|p| p.id == id).ok_or_else(|| look::no_pane(session, id))
    }

    fn start_command(&self, session: &str) -> Option<String> {
        Some(self.start_line(session))
    }

    fn open_seat(&self, session: &str, cwd: &std::path::Path, seat: &str) -> Result<PaneInfo, MuxError> {
        self.open_seat_pane(session, cwd, seat)
    }

    fn close_pane(&self, _session: &str, id: &str) -> Result<(), MuxError> {
        self.close(id)
    }

    fn press_key(&self, pane: &PaneRef, key: crate::vocab::key::Key) -> Result<(), MuxError> {
        self.key(pane, key)
    }

    fn pipe_output(&self, id: &str, command: &str) -> Result<bool, MuxError> {
        // tmux expands formats in the command: a `#` of ours is doubled to stay itself
        let out = self.tmux(&["pipe-pane", "-O", "-t", id, &command.replace('#', "##")])?;
        if out.ok() {
            Ok(true)
        } else {
            Err(MuxError::Failed(format!("tmux would not pipe pane {id}: {}", tmux_words(&out.stderr_str()))))
        }
    }

    fn look(&self, session: &str) -> Option<Box<dyn Panes + '_>> {
        Some(Box::new(look::Look::new(session, self.panes(session))))
    }

    fn named(&self, session: &str, seat: &str) -> Result<Vec<PaneInfo>, MuxError> {
        Ok(self.panes(session)?.into_iter().filter(|p| p.name == seat).collect())
    }

    fn name_pane(&self, session: &str, id: &str, seat: &str) -> Result<bool, MuxError> {
        let out = self.tmux(&["set-option", "-p", "-t", id, "@team-seat", seat])?;
        if !out.ok() {
            return Ok(false);
        }
        Ok(self.pane(session, id)?.name == seat)
    }

    fn pane_of_caller(&self, session: &str, ancestry: &[u32]) -> Result<Located, MuxError> {
        // Always asked: a caller that strips TMUX and TMUX_PANE from its environment is still
        // in its pane. The variable only says which pane a claim names.
        // A pane id is one server's numbering: the claim is about this server only when the
        // caller's `$TMUX` names it (or names none).
        let socket = match self.socket_args.as_slice() {
            [flag, path] if flag == "-S" => Some(path.as_str()),
            _ => None,
        };
        let named = self.pane_hint.clone().filter(|h| h.names_a_pane_of(None, socket));
        let listing = match self.listing(session) {
            Ok(l) => l,
            // No such session: no pane of it holds this process; the server may still be an
            // ancestor (another session's pane, a command tmux started).
            Err(MuxError::NoSession(_)) => return Ok(Located { pane: None, server: self.server_pid() }),
            // No server, no tmux: no pane of it holds this process — unless the environment
            // names a pane, which then cannot be verified.
            Err(MuxError::ServerStopped(_) | MuxError::ProgramMissing(_)) if named.is_none() => {
                return Ok(Located::default())
            }
            Err(e) => return Err(e),
        };
        let server = listing.server;
        if let Some(p) = listing.panes.iter().find(|p| p.shell_pid.is_some_and(|pid| ancestry.contains(&pid))) {
            return Ok(Located { pane: Some(p.pane_ref(&p.name)), server });
        }
        let named = named.filter(|h| h.names_a_pane_of(server, socket)).map(|h| h.id);
        match named.and_then(|n| listing.panes.iter().find(|p| p.id == n).cloned()) {
            Some(p) => Err(super::not_inside("TMUX_PANE", &p.id, session, p.shell_pid, &procfs::visible)),
            None => Ok(Located { pane: None, server }),
        }
    }
}

#[cfg(test)]
mod tests;
