//! Who is running this command (DESIGN §4): a seat found from its own pane, the owner at a
//! terminal, an unplaced caller (an agent outside the multiplexer, a pane no seat holds, a
//! claimed pane), a caller a sandbox or a shared agent daemon hides, or nobody at a terminal.
//!
//! Invariant: the caller is found, never claimed. No flag and no environment variable names
//! an identity. The pane is the one of the team's own session whose real shell is among this
//! process's ancestors (read from `/proc`; the multiplexer is always asked, and the environment
//! only says which pane to try first). A terminal is asked for only where the caller would be
//! the owner: an agent's own shell tool runs commands with no terminal, and its pane still
//! vouches for it. The owner is placed positively, never by the absence of an agent: a pane of
//! the team's session no seat holds, a command the team's server started, a terminal no
//! ancestor provides and a terminal program hanging off init are each *unplaced*
//! (`owner_placement`; docs/security.md).
//!
//! Vendor facts come from the profiles' descriptions ([`Vendors`]): the process names that
//! mark an agent CLI among the ancestors, and the ancestors a profile says break identity
//! (a daemon that runs several sessions' commands under one window's ancestry). Two lists are
//! data beside this file, read once: the agent CLIs no profile describes (`caller/agents.txt`)
//! and the programs a person types `team` at or through (`caller/shells.txt`) — the owner's
//! `team` has nothing else between it and its terminal's program ([`typed_at_a_shell`]), so an
//! agent CLI no list names is not taken for the owner either.

/// The sentence a send or a route with no terminal is refused with (spec "Who may send to whom").
pub const NO_TERMINAL: &str =
    "only the owner or a seat the send admission admits runs this, from a terminal outside herdr or its own pane";

use std::path::Path;

use crate::error::{Kind, TeamError};
use crate::mux::procfs::{self, Ancestor, Tty};
use crate::mux::{Mux, MuxError, PaneRef};
use crate::profiles::Description;
use crate::registry::{AgentRecord, Registry};
use crate::team_file::Loaded;

/// Interpreters whose script argument names the program (herdr reads them the same way).
const WRAPPERS: &[&str] = &["node", "nodejs", "bun", "deno", "python", "python3"];

/// File names that name no program by themselves: the folder above them does.
const GENERIC_SCRIPTS: &[&str] = &["index", "main", "cli", "dist", "bin", "lib", "src", "build", ".bin"];

/// The agent CLIs no bundled profile describes (data: one program name a line, `#` notes).
const UNPROFILED_AGENTS: &str = include_str!("caller/agents.txt");

/// The programs that may stand between the owner's `team` and its terminal's program: the
/// shells, and the commands that only run the command they are given (data, as above).
const TYPED_THROUGH: &str = include_str!("caller/shells.txt");

/// The names of a data list: one a line, blank lines and `#` notes left out.
fn names(list: &str) -> impl Iterator<Item = &str> {
    list.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The feature word a profile declares an identity-breaking ancestor with, in `team:profile`
/// 0.1's additive `features`: `unverifiable-ancestor=<program words>|<repair>`.
pub const UNVERIFIABLE_FEATURE: &str = "unverifiable-ancestor=";

/// The caller of this run.
// One value per run: the seat's record inline costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Caller {
    /// A person at a terminal, placed positively (DESIGN §4): a terminal provided by a process
    /// this one descends from that does not hang directly off init, outside the team's
    /// multiplexer server, with no agent CLI among this process's ancestors.
    Owner,
    /// A seat, found from its own pane.
    Seat {
        team: String,
        seat: String,
        /// The seat's registry record, when it has one.
        agent: Option<AgentRecord>,
        /// The pane it was found from (`%3`, `w1:p2`).
        pane: String,
    },
    /// A terminal that is neither the owner nor a seat; `why` completes `unplaced (<why>)`.
    Unplaced { why: String },
    /// Something between this process and its pane makes the pane unable to vouch for it: a
    /// sandbox that hides the ancestry or the multiplexer, or an ancestor a profile names as
    /// running several sessions' commands. Refused with `why` and the way out.
    Blocked { why: String, repair: Option<String> },
    /// No terminal and no verified pane.
    NoTerminal,
    /// The multiplexer's server does not answer (stopped or hung), so no pane can be verified
    /// and no seat reached: `why` names the server.
    Unreachable { why: String },
}

impl Caller {
    /// How refusals name this caller: `the owner`, `seat gpt-reviewer of beacon`,
    /// `unplaced (it is run by an agent (claude) outside herdr)`, `a run with no terminal`.
    pub fn describe(&self) -> String {
        match self {
            Caller::Owner => "the owner".into(),
            Caller::Seat { team, seat, .. } => format!("seat {seat} of {team}"),
            Caller::Unplaced { why } => format!("unplaced ({why})"),
            Caller::Blocked { why, .. } => format!("a caller whose pane cannot vouch for it ({why})"),
            Caller::NoTerminal => "a run with no terminal".into(),
            Caller::Unreachable { why } => format!("a caller whose multiplexer does not answer ({why})"),
        }
    }

    /// Whether a person at a terminal runs this: the owner. A send waits out its window for the
    /// seat's own receipt only for them, whose terminal shows the wait (docs/inbox.md); every
    /// other caller a send admits is an agent — a seat's shell tool or its MCP server, in the
    /// middle of its own turn — whose tool call a wait would hold open, and which is answered as
    /// soon as its message is safely queued.
    pub fn is_person(&self) -> bool {
        matches!(self, Caller::Owner)
    }

    /// The name history lines carry in `from`: `owner`, the seat, or `unplaced`.
    pub fn from_name(&self) -> String {
        match self {
            Caller::Owner => "owner".into(),
            Caller::Seat { seat, .. } => seat.clone(),
            Caller::Unplaced { .. } => "unplaced".into(),
            Caller::Blocked { .. } | Caller::NoTerminal | Caller::Unreachable { .. } => "none".into(),
        }
    }
}

/// Is any of stdin, stdout, stderr a terminal, or can `/dev/tty` be opened?
pub fn has_terminal() -> bool {
    use std::os::fd::AsFd;
    let tty = |fd: std::os::fd::BorrowedFd<'_>| nix::unistd::isatty(fd).unwrap_or(false);
    if tty(std::io::stdin().as_fd()) || tty(std::io::stdout().as_fd()) || tty(std::io::stderr().as_fd()) {
        return true;
    }
    std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").is_ok()
}

/// What the installed profiles say about recognising their CLIs among a caller's ancestors,
/// and the agent CLIs no profile describes (`caller/agents.txt`).
#[derive(Debug, Clone, Default)]
pub struct Vendors {
    /// (profile id, process names its CLI runs as); the unprofiled agents under an empty id.
    agents: Vec<(String, Vec<String>)>,
    /// Ancestors that break identity: (profile id, program words, repair).
    unverifiable: Vec<(String, Vec<String>, String)>,
}

impl Vendors {
    /// From the installed profiles' descriptions, and the agent CLIs no profile describes.
    pub fn from_descriptions<'a>(ds: impl IntoIterator<Item = &'a Description>) -> Vendors {
        let mut v = Vendors::default();
        v.agents.push((String::new(), names(UNPROFILED_AGENTS).map(String::from).collect()));
        for d in ds {
            v.agents.push((d.id.clone(), d.process_names.clone()));
            for f in &d.features {
                if let Some((words, repair)) = f.strip_prefix(UNVERIFIABLE_FEATURE).and_then(|r| r.split_once('|')) {
                    let words: Vec<String> = words.split_whitespace().map(String::from).collect();
                    if !words.is_empty() {
                        v.unverifiable.push((d.id.clone(), words, repair.trim().to_string()));
                    }
                }
            }
        }
        v
    }

    /// The process name an ancestor is known by, when it is an agent CLI's.
    fn agent_of(&self, a: &Ancestor) -> Option<String> {
        let names = program_words(a);
        let first = names.first().map(String::as_str).unwrap_or("");
        self.agents
            .iter()
            .flat_map(|(_, ps)| ps.iter())
            .find(|p| is_program(first, p) || is_program(&a.comm, p))
            .cloned()
    }

    /// The identity-breaking pattern an ancestor matches: (profile id, the words, the repair).
    fn unverifiable_of(&self, a: &Ancestor) -> Option<&(String, Vec<String>, String)> {
        let words = program_words(a);
        self.unverifiable.iter().find(|(_, pat, _)| {
            words.len() >= pat.len()
                && is_program(&words[0], &pat[0])
                && words[1..pat.len()].iter().zip(&pat[1..]).all(|(w, p)| w == p)
        })
    }
}

/// `name` is the program `p`: the same name, or `p` built for a target (`codex-x86_64-…`,
/// whose comm the kernel cuts at 15 bytes).
fn is_program(name: &str, p: &str) -> bool {
    name == p
        || name.strip_prefix(p).and_then(|r| r.strip_prefix('-')).is_some_and(|t| {
            ["x86_64", "aarch64", "arm64", "armv7", "i686", "riscv64"].iter().any(|arch| t.starts_with(arch))
        })
}

fn base_name(s: &str) -> String {
    let base = Path::new(s).file_name().map(|b| b.to_string_lossy().into_owned()).unwrap_or_default();
    for ext in [".js", ".mjs", ".cjs", ".py", ".exe"] {
        if let Some(b) = base.strip_suffix(ext) {
            return b.to_string();
        }
    }
    base
}

/// The program an ancestor runs and its arguments: argv[0]'s base name, or for an interpreter
/// running a script the script's name (a generic `dist/index.js` is named by its package
/// folder), then the remaining arguments.
fn program_words(a: &Ancestor) -> Vec<String> {
    let Some(argv0) = a.argv.first() else { return vec![a.comm.clone()] };
    let prog = base_name(argv0);
    let is_wrapper = WRAPPERS.iter().any(|w| prog == *w) || prog.starts_with("python3.");
    if !is_wrapper {
        return std::iter::once(prog).chain(a.argv[1..].iter().cloned()).collect();
    }
    let Some(i) = a.argv.iter().skip(1).position(|x| !x.starts_with('-')).map(|i| i + 1) else {
        return vec![prog];
    };
    let path = Path::new(&a.argv[i]);
    let named = path
        .ancestors()
        .filter_map(|p| p.file_name())
        .map(|n| base_name(&n.to_string_lossy()))
        .find(|n| !GENERIC_SCRIPTS.contains(&n.as_str()))
        .unwrap_or_else(|| base_name(&a.argv[i]));
    std::iter::once(named).chain(a.argv[i + 1..].iter().cloned()).collect()
}

/// One terminal the caller has (its controlling terminal, or the one on stdin, stdout or
/// stderr), with the ancestor that provides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminal {
    pub tty: Tty,
    /// The nearest ancestor (this process included) holding the pseudo-terminal's master side:
    /// the terminal program. `None` for a pty no ancestor holds; unused for a console.
    pub holder: Option<Ancestor>,
}

/// What `find` gathered: the facts the caller is judged from (recorded in tests).
#[derive(Debug, Clone)]
pub struct Facts {
    /// The terminals this process has (empty: none).
    pub terminals: Vec<Terminal>,
    /// This process and its ancestors, itself first.
    pub ancestry: Vec<Ancestor>,
    /// The pane of a team session whose shell is among the ancestors (the multiplexer's answer).
    pub pane: Result<Option<PaneRef>, MuxError>,
    /// The pid of the team's multiplexer server, where the multiplexer told it.
    pub server: Option<u32>,
    /// `herdr` or `tmux`.
    pub mux: &'static str,
    /// Every marked pane of the caller's session with its mark (`Mux::marks`; empty under
    /// herdr), so two panes claiming one seat are told apart from one.
    pub marks: Vec<(String, String)>,
}

/// Finds the caller of this process. `file` is the team file of the cwd (if any); the pane is
/// looked for in its session and in the sessions of the registry's teams.
pub fn find(reg: &Registry, file: Option<&Loaded>, mux: &dyn Mux, vendors: &Vendors) -> Caller {
    let ancestry = procfs::ancestry();
    let pids: Vec<u32> = ancestry.iter().map(|a| a.pid).collect();
    let mut sessions: Vec<String> = file.map(|l| l.file.session.clone()).into_iter().collect();
    for t in reg.teams.teams.values() {
        if let Some(s) = &t.session {
            if !sessions.contains(s) {
                sessions.push(s.clone());
            }
        }
    }
    let mut pane = Ok(None);
    let mut server = None;
    for s in &sessions {
        match mux.pane_of_caller(s, &pids) {
            Ok(l) => {
                server = server.or(l.server);
                pane = Ok(l.pane);
            }
            Err(e) => pane = Err(e),
        }
        if !matches!(pane, Ok(None)) {
            break;
        }
    }
    // A pane that claims a seat by its mark is checked against the other marks of its session.
    let marks = match &pane {
        Ok(Some(p)) if !p.seat.is_empty() => mux.marks(&p.session).unwrap_or_default(),
        _ => Vec::new(),
    };
    let terminals = terminals(&ancestry);
    judge(&Facts { terminals, ancestry, pane, server, mux: mux.name(), marks }, vendors, reg, file)
}

/// The refusal a caller meets before anything is read or sent (spec "Who may send to whom"):
/// no terminal, a multiplexer that does not answer, a pane that cannot vouch. `None` for the
/// owner, a seat, and an unplaced caller (whom admission judges). `team send` (`--list`
/// included), `team reply`, `team ack`, `team inbox` and every MCP tool call give the same one.
pub fn refusal(c: &Caller) -> Option<TeamError> {
    match c {
        Caller::NoTerminal => Some(TeamError::new(Kind::Refused, NO_TERMINAL)),
        Caller::Unreachable { why } => {
            Some(TeamError::new(Kind::Unreachable, format!("unreachable: {why}; nothing was sent")))
        }
        Caller::Blocked { why, repair } => {
            let e = TeamError::refused(format!("{why}; nothing was sent"));
            Some(match repair {
                Some(r) => e.with_repair(r.clone()),
                None => e,
            })
        }
        Caller::Owner | Caller::Seat { .. } | Caller::Unplaced { .. } => None,
    }
}

/// This process's terminals, each with the ancestor that provides it.
fn terminals(ancestry: &[Ancestor]) -> Vec<Terminal> {
    procfs::own_terminals()
        .into_iter()
        .map(|tty| {
            let holder = match tty {
                Tty::Pts(n) => ancestry.iter().find(|a| procfs::holds_pty(a.pid, n)).cloned(),
                Tty::Other { .. } => None,
            };
            Terminal { tty, holder }
        })
        .collect()
}

/// The caller the facts make (DESIGN §4, in its order).
pub fn judge(facts: &Facts, vendors: &Vendors, reg: &Registry, file: Option<&Loaded>) -> Caller {
    if let Some(blocked) = unvouched(&facts.ancestry, vendors) {
        return blocked;
    }
    match &facts.pane {
        Ok(Some(p)) => return seat_of_pane(p, facts.mux, &facts.marks, reg, file),
        Ok(None) => {}
        Err(MuxError::Sandboxed(why)) => {
            return Caller::Blocked {
                why: format!("a sandbox is in the way: {why}"),
                repair: Some(
                    "run `team send` outside the agent's sandbox (docs/agents.md shows how for each agent)".into(),
                ),
            }
        }
        Err(MuxError::Unverified(s)) => return Caller::Unplaced { why: format!("a claimed identity: {s}") },
        Err(MuxError::NoAnswer(s)) => return Caller::Unreachable { why: s.clone() },
        Err(e) => return Caller::Unplaced { why: format!("its pane could not be verified: {e}") },
    }
    if facts.terminals.is_empty() {
        return Caller::NoTerminal;
    }
    if let Some(agent) = facts.ancestry.iter().skip(1).find_map(|a| vendors.agent_of(a)) {
        return Caller::Unplaced { why: format!("it is run by an agent ({agent}) outside {}", facts.mux) };
    }
    match owner_placement(facts).or_else(|| typed_at_a_shell(facts)) {
        Some(why) => Caller::Unplaced { why },
        None => Caller::Owner,
    }
}

/// Why a caller with a terminal and no agent CLI a list names among its ancestors is still not
/// the owner because of what stands between it and the program that provides its terminal
/// (`None`: nothing does). The owner types `team` at a shell in that terminal: every process
/// between is a shell or a command a person types that only runs the one it is given
/// (`caller/shells.txt`), or this very program (`team demo` runs its sends). Anything else
/// there runs commands for its own purposes — an agent CLI no profile names above all (aider,
/// a vendor's new CLI), and as much an editor or a build tool — and no person typed this.
/// A console has no such program (a person at the machine), and a terminal no ancestor
/// provides is [`owner_placement`]'s.
fn typed_at_a_shell(facts: &Facts) -> Option<String> {
    let me = facts.ancestry.first().map(program_name);
    for t in &facts.terminals {
        let Some(holder) = &t.holder else { continue };
        let Some(at) = facts.ancestry.iter().position(|a| a.pid == holder.pid) else { continue };
        for a in facts.ancestry.iter().take(at).skip(1) {
            let name = program_name(a);
            if names(TYPED_THROUGH).any(|p| p == name) || me.as_ref() == Some(&name) {
                continue;
            }
            return Some(format!(
                "it is run by {name} (pid {}), which is no shell a person types team at and no command that only runs the one it is given: an agent CLI no profile names is not the owner (the owner runs team from a shell in a terminal; an agent sends as a seat, from its own pane of the team's session: team mark, team register)",
                a.pid
            ));
        }
    }
    None
}

/// The program an ancestor is, as the lists name it: its program word ([`program_words`]),
/// a login shell's leading `-` dropped.
fn program_name(a: &Ancestor) -> String {
    let first = program_words(a).into_iter().next().unwrap_or_default();
    first.strip_prefix('-').map(str::to_string).unwrap_or(first)
}

/// The refusal of a caller whose ancestry runs through a process that runs several sessions'
/// commands under one window (a profile's `unverifiable` fact): no pane vouches for it, whatever
/// pane its ancestry reaches. `None`: nothing in the way.
pub fn unvouched(ancestry: &[Ancestor], vendors: &Vendors) -> Option<Caller> {
    let (a, (id, words, repair)) = ancestry.iter().skip(1).find_map(|a| vendors.unverifiable_of(a).map(|u| (a, u)))?;
    Some(Caller::Blocked {
        why: format!(
            "this call runs under `{}` (pid {}), which the {id} profile says runs the commands of more than one session under the window that started it, so no pane can vouch for it",
            words.join(" "),
            a.pid
        ),
        repair: Some(repair.clone()),
    })
}

/// Why a caller with a terminal, no pane and no agent among its ancestors is still not the
/// owner (`None`: it is). The owner is placed positively, never by the absence of an agent: it
/// runs outside the team's multiplexer server, and each of its terminals is provided by a
/// process it descends from (a terminal opened by name proves nothing) that does not hang
/// directly off init (a process started detached — `setsid -f`, a double fork — has left
/// whatever started it, an agent included). A console (not a pseudo-terminal) is a person at
/// the machine.
fn owner_placement(facts: &Facts) -> Option<String> {
    let mux = facts.mux;
    if let Some(server) = facts.server.filter(|s| facts.ancestry.iter().skip(1).any(|a| a.pid == *s)) {
        return Some(format!(
            "it runs inside the team's {mux} server (pid {server}) but in no seat's pane: a command {mux} started (run-shell, a hook) or a pane of another session is not the owner, who runs team from a terminal outside that server"
        ));
    }
    for t in &facts.terminals {
        let Tty::Pts(_) = t.tty else { continue };
        let path = t.tty.path();
        match &t.holder {
            None => {
                return Some(format!(
                    "its terminal {path} is provided by no process it descends from: a terminal opened by name, or one whose provider is hidden from it, places no one"
                ))
            }
            Some(h) if h.ppid == 1 => {
                return Some(format!(
                    "its terminal {path} is provided by {} (pid {}), which hangs directly off init: a process started detached (setsid -f, a double fork) is not the owner, whatever started it",
                    if h.comm.is_empty() { "a process" } else { h.comm.as_str() },
                    h.pid
                ))
            }
            Some(_) => {}
        }
    }
    None
}

/// The seat a verified pane holds (DESIGN §4, registry first): the registry's record of that
/// pane — a record whose CLI process (pid and start time) no longer runs in the pane vouches
/// for nobody — else the pane's mark (tmux: `<seat>` or `<seat>@<team>`) or herdr's agent
/// name, unless another pane of the session claims the same seat in any spelling (`marks`:
/// then neither vouches) or that seat is registered on another pane (a pane marked as a
/// registered seat but not its pane is not that seat). A pane no seat holds is *unplaced*, on
/// tmux as on herdr: a pane of the team's session is a seat's or no one's, never the owner's.
fn seat_of_pane(p: &PaneRef, mux: &str, marks: &[(String, String)], reg: &Registry, file: Option<&Loaded>) -> Caller {
    seat_or_none(p, mux, marks, reg, file)
        .unwrap_or_else(|| Caller::Unplaced { why: format!("its {mux} pane {} holds no seat", p.id) })
}

fn seat_or_none(
    p: &PaneRef,
    mux: &str,
    marks: &[(String, String)],
    reg: &Registry,
    file: Option<&Loaded>,
) -> Option<Caller> {
    if let Some(c) = by_record(p, mux, reg) {
        return Some(c);
    }
    if p.seat.is_empty() {
        return None;
    }
    let (seat, team) = match p.seat.split_once('@') {
        Some((s, t)) => (s.to_string(), Some(t.to_string())),
        None => (p.seat.clone(), None),
    };
    let team = team.or_else(|| team_of_session(&p.session, reg, file));
    Some(match team {
        Some(team) => by_mark(p, mux, marks, reg, file, seat, team),
        None => Caller::Unplaced {
            why: format!("its {mux} pane {} is marked {}, and no team file names the team", p.id, p.seat),
        },
    })
}

/// Whether an agent record is of the pane's session (a record naming none is of any).
fn of_session(a: &AgentRecord, p: &PaneRef) -> bool {
    a.session.as_deref().is_none_or(|s| s == p.session)
}

/// The seat the registry records on this pane, its process still running there; `None`
/// when no record holds the pane.
fn by_record(p: &PaneRef, mux: &str, reg: &Registry) -> Option<Caller> {
    let holders: Vec<&AgentRecord> = reg
        .agents
        .iter()
        .filter(|a| a.pane.as_deref() == Some(p.id.as_str()) && of_session(a, p))
        // the recorded process must run under the pane's real shell (verified by the adapter)
        .filter(|a| a.process.is_none_or(|who| p.shell_pid.is_some() && who.runs_in(p.shell_pid)))
        .collect();
    match holders.as_slice() {
        [a] => Some(Caller::Seat {
            team: a.team.clone(),
            seat: a.seat.clone(),
            agent: Some((*a).clone()),
            pane: p.id.clone(),
        }),
        [_, _, ..] => {
            Some(Caller::Unplaced { why: format!("its {mux} pane {} is recorded for more than one seat", p.id) })
        }
        [] => None,
    }
}

/// The seat the pane's mark (or herdr name) claims in `team`, unless another pane claims it
/// too or the seat is registered on another pane.
fn by_mark(
    p: &PaneRef,
    mux: &str,
    marks: &[(String, String)],
    reg: &Registry,
    file: Option<&Loaded>,
    seat: String,
    team: String,
) -> Caller {
    let session_team = || team_of_session(&p.session, reg, file);
    let claims = |mark: &str| match mark.split_once('@') {
        Some((s, t)) => s == seat && t == team,
        None => mark == seat && session_team().as_deref() == Some(team.as_str()),
    };
    let rivals: Vec<String> = marks
        .iter()
        .filter(|(id, m)| *id != p.id && claims(m))
        .map(|(id, m)| format!("pane {id} is marked {m}"))
        .collect();
    if !rivals.is_empty() {
        return Caller::Unplaced {
            why: format!(
                "its {mux} pane {} is marked {}, and {}: two panes claim seat {seat} of {team}, so neither vouches for it (mark one pane only)",
                p.id,
                p.seat,
                rivals.join(", ")
            ),
        };
    }
    let agent = reg.agent_for(&team, &seat).cloned();
    if let Some(other) = agent.as_ref().filter(|a| of_session(a, p)).and_then(|a| a.pane.as_deref()) {
        if other != p.id {
            let word = if mux == "herdr" { "named" } else { "marked" };
            return Caller::Unplaced {
                why: format!("its {mux} pane {} is {word} {}, but {seat} is registered on pane {other}", p.id, p.seat),
            };
        }
    }
    Caller::Seat { team, seat, agent, pane: p.id.clone() }
}

/// The team whose session `session` is: the cwd's file's, else the one registry team with it.
fn team_of_session(session: &str, reg: &Registry, file: Option<&Loaded>) -> Option<String> {
    if let Some(l) = file.filter(|l| l.file.session == session) {
        return Some(l.file.team.clone());
    }
    let mut teams = reg.teams.teams.iter().filter(|(_, t)| t.session.as_deref() == Some(session));
    match (teams.next(), teams.next()) {
        (Some((name, _)), None) => Some(name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
