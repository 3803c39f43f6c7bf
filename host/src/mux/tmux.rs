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
//! Which server: `$TEAM_TMUX_SOCKET` (a path → `-S <path>`, a bare name → `-L <name>`; tests
//! use it so they never touch the user's server), else the socket of the tmux the caller sits
//! in (the first field of `$TMUX`), else tmux's default. The program is the first `tmux` of the
//! fixed search (`program`: the system's folders, then the user's own), never one the
//! environment names: what it answers about panes decides who the caller is.
//!
//! A pane in one of tmux's modes (copy mode, where `send-keys -l` is read as copy-mode keys)
//! is said in the read (`Capture::mode`, `#{pane_mode}`), so nothing is typed into it.

use super::{
    plain_rows, procfs, split_rows, Capture, Mux, MuxError, PaneInfo, PaneRef, Panes, Proc, RunOutput, Runner,
    StatusRead, SystemRunner,
};

mod look;
mod marks;
pub use marks::MarkedPane;

/// How many scrollback rows above the screen `read` returns as `recent`.
pub const RECENT_ROWS: u32 = 200;

/// The tmux adapter.
pub struct Tmux {
    bin: String,
    /// `-S <path>` / `-L <name>`, or nothing for the default server.
    socket_args: Vec<String>,
    /// Whether this process was pointed at a tmux server (it sits in tmux, or the server is
    /// named): only then can it be in one of its panes.
    env_names_server: bool,
    runner: Box<dyn Runner>,
}

impl Tmux {
    /// The adapter for the server the environment names (see the module docs).
    pub fn from_env() -> Tmux {
        let found = super::program::find("tmux");
        let bin = found.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "tmux".into());
        let socket_args = match std::env::var("TEAM_TMUX_SOCKET").ok().filter(|s| !s.is_empty()) {
            Some(s) => socket_flag(&s),
            None => match std::env::var("TMUX").ok().filter(|s| !s.is_empty()) {
                Some(t) => vec!["-S".into(), t.split(',').next().unwrap_or_default().to_string()],
                None => Vec::new(),
            },
        };
        let env_names_server = ["TMUX", "TMUX_PANE", "TEAM_TMUX_SOCKET"]
            .iter()
            .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()));
        let runner: Box<dyn Runner> = if found.is_some() { Box::new(SystemRunner) } else { Box::new(super::Missing) };
        Tmux { bin, socket_args, env_names_server, runner }
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
            env_names_server: true,
            runner: Box::new(SystemRunner),
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
        argv.extend(args.iter().map(|s| s.to_string()));
        let out = self.runner.run(&argv).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => MuxError::ProgramMissing(super::program::missing("tmux", &self.bin)),
            std::io::ErrorKind::TimedOut => MuxError::Failed(format!(
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
                return Err(MuxError::ServerStopped(format!("{} is not running", self.server_name())));
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
        // `=<name>:` matches the session name exactly (`=<name>` alone also takes a prefix).
        let target = format!("={session}:");
        let out = self.tmux(&["list-panes", "-s", "-t", &target, "-F", "#{pane_id}\t#{pane_pid}\t#{@team-seat}"])?;
        if !out.ok() {
            let err = out.stderr_str();
            // `-s -t =<name>` answers "can't find window" on some versions for a missing session.
            if err.contains("can't find session") || err.contains("can't find window") {
                return Err(self.no_session(session));
            }
            return Err(self.failed("list-panes", &out));
        }
        Ok(split_rows(&out.stdout_str())
            .into_iter()
            .filter_map(|row| {
                let mut f = row.splitn(3, '\t');
                Some(PaneInfo {
                    id: f.next()?.to_string(),
                    session: session.into(),
                    shell_pid: f.next()?.parse().ok(),
                    name: f.next().unwrap_or("").to_string(),
                    label: None,
                    workspace: None,
                    agent_session: None,
                })
            })
            .collect())
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

    fn locate(&self, session: &str, seat: &str) -> Result<PaneRef, MuxError> {
        self.find_marked(session, seat, None)
    }

    fn locate_in(&self, session: &str, seat: &str, team: &str) -> Result<PaneRef, MuxError> {
        self.find_marked(session, seat, Some(team))
    }

    fn marks(&self, session: &str) -> Result<Vec<(String, String)>, MuxError> {
        Ok(self.panes(session)?.into_iter().filter(|p| !p.name.is_empty()).map(|p| (p.id, p.name)).collect())
    }

    fn read(&self, pane: &PaneRef) -> Result<Capture, MuxError> {
        // One tmux call (three commands): the server runs them back to back, so the size, the
        // title and the rows are one moment of the pane, and the read costs one process.
        let start = format!("-{RECENT_ROWS}");
        let id = pane.id.as_str();
        let out = self.pane_cmd(
            pane,
            "capture-pane",
            &[
                "display-message",
                "-p",
                "-t",
                id,
                "#{pane_width}\t#{pane_height}\t#{pane_mode}\t#{pane_title}",
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
        )?;
        let text = out.stdout_str();
        let (info, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let mut f = info.splitn(4, '\t');
        let cols: u32 = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let rows: u32 = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let mode = f.next().filter(|m| !m.is_empty()).map(str::to_string);
        let title = f.next().unwrap_or("").to_string();
        // capture-pane prints every row of the screen, blank ones included: `rows` rows.
        let mut all = split_rows(rest);
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

    fn pane_of_caller(&self, session: &str, ancestry: &[u32]) -> Result<Option<PaneRef>, MuxError> {
        // Looked for only when the caller sits in tmux or names a server: an environment
        // without either cannot be in a pane this adapter reaches.
        let named = std::env::var("TMUX_PANE").ok().filter(|s| !s.is_empty());
        if named.is_none() && !self.env_names_server {
            return Ok(None);
        }
        let panes = match self.panes(session) {
            Ok(p) => p,
            // No server, no tmux, no such session: no pane of it holds this process — unless
            // the environment names a pane, which then cannot be verified.
            Err(MuxError::NoSession(_)) => return Ok(None),
            Err(MuxError::ServerStopped(_) | MuxError::ProgramMissing(_)) if named.is_none() => return Ok(None),
            Err(e) => return Err(e),
        };
        if let Some(p) = panes.iter().find(|p| p.shell_pid.is_some_and(|pid| ancestry.contains(&pid))) {
            return Ok(Some(p.pane_ref(&p.name)));
        }
        match named.and_then(|n| panes.iter().find(|p| p.id == n).cloned()) {
            Some(p) => Err(super::not_inside("TMUX_PANE", &p.id, session, p.shell_pid, &procfs::visible)),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers every call with one exit code and stderr.
    struct Answer(i32, &'static str);

    impl Runner for Answer {
        fn run(&self, _argv: &[String]) -> std::io::Result<RunOutput> {
            Ok(RunOutput { code: Some(self.0), stdout: Vec::new(), stderr: self.1.as_bytes().to_vec() })
        }
    }

    #[test]
    fn tmux_s_own_words_are_not_a_refusal_s() {
        let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "no current client\n")));
        let p = PaneRef { id: "%1".into(), session: "s".into(), seat: "a".into(), shell_pid: Some(1) };
        let e = t.press_enter(&p).unwrap_err().to_string();
        assert_eq!(e, "tmux send-keys failed: tmux found no pane to act on (no client is attached to name one)");
        assert!(!e.contains("no current client"));
        let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "unknown option -- z\n")));
        assert_eq!(
            t.press_enter(&p).unwrap_err().to_string(),
            "tmux send-keys failed: tmux said \"unknown option -- z\""
        );
    }

    /// tmux's client prints `error connecting to <path> (<strerror>)` (client.c); a sandbox
    /// that blocks the socket (Codex's seccomp filter) makes the strerror EPERM's.
    #[test]
    fn a_socket_the_sandbox_blocks_is_a_sandbox_not_a_stopped_server() {
        let t = Tmux::with_runner(
            "/tmp/t.sock",
            Box::new(Answer(1, "error connecting to /tmp/t.sock (Operation not permitted)\n")),
        );
        assert_eq!(
            t.locate("beacon", "rev").unwrap_err(),
            MuxError::Sandboxed(
                "the tmux server at /tmp/t.sock refused this process's connection (operation not permitted)".into()
            )
        );
        let t = Tmux::with_runner(
            "/tmp/t.sock",
            Box::new(Answer(1, "error connecting to /tmp/t.sock (Permission denied)\n")),
        );
        assert!(
            matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::Sandboxed(m) if m.ends_with("(permission denied)"))
        );
        let t = Tmux::with_runner("/tmp/t.sock", Box::new(Answer(1, "no server running on /tmp/t.sock\n")));
        assert!(matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::ServerStopped(_)));
        let t = Tmux::with_runner(
            "/tmp/t.sock",
            Box::new(Answer(1, "error connecting to /tmp/t.sock (No such file or directory)\n")),
        );
        assert!(matches!(t.locate("beacon", "rev").unwrap_err(), MuxError::ServerStopped(_)));
    }
}
