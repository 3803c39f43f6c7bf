//! `team check`'s use-case: what a loaded team file says that this build would act on
//! differently from what its writer meant — each a note with the line it is on.
//!
//! The notes, in file order within each kind: keys this build does not know (with the nearest
//! known key); a seat whose `cli:` names no installed profile (with the installed ones and the
//! nearest); a legacy seat named `lead` (its repair); a pin nothing installed satisfies (or one
//! that is no pin); a session in which no pane is marked or named as any seat (or that the
//! multiplexer cannot show).
//!
//! Invariant: it reads and asks, never writes or types: the file loads as every command loads
//! it, the profiles are read from their descriptions (no component runs), and the multiplexer
//! is only asked where each seat's pane is.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Kind;
use crate::mux::{Mux, MuxError};
use crate::profiles::ProfileHost;
use crate::send::facts::FactsBook;
use crate::team_file::{Loaded, TeamFile};
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::names::{RESERVED_ALL, RESERVED_LEAD};

/// What a note is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    UnknownKey,
    UnknownCli,
    LegacyLead,
    /// A seat named `all`, the broadcast's word.
    LegacyAll,
    Pin,
    Session,
    /// The file declares no seat.
    NoSeat,
    /// A note the loader itself made (kept as it wrote it).
    File,
    /// A seat's CLI configuration names a `team` MCP server that is not this one's, or cannot
    /// be read (`crate::mcp::install`).
    Mcp,
    /// A seat's CLI does not run team's hooks while the team's other seats do, or its hooks
    /// are stale, incomplete or unreadable (`crate::hooks`).
    Hooks,
    /// A command the file makes team run (`notify:`'s), and whether the owner approved it for
    /// this checkout (`crate::trust`).
    Command,
    /// A seat's `host:` or an entry of `hosts:` that is not an ssh destination (its seat is
    /// never sent to).
    Host,
}

crate::vocab::doc::words!(NoteKind: UnknownKey, UnknownCli, LegacyLead, LegacyAll, Pin, Session, NoSeat, File, Mcp, Hooks, Command, Host);

impl NoteKind {
    /// The word `--json` carries.
    pub fn word(self) -> &'static str {
        match self {
            NoteKind::UnknownKey => "unknown-key",
            NoteKind::UnknownCli => "unknown-cli",
            NoteKind::LegacyLead => "legacy-lead",
            NoteKind::LegacyAll => "legacy-all",
            NoteKind::Pin => "pin",
            NoteKind::Session => "session",
            NoteKind::NoSeat => "no-seat",
            NoteKind::File => "file",
            NoteKind::Mcp => "mcp",
            NoteKind::Hooks => "hooks",
            NoteKind::Command => "command",
            NoteKind::Host => "host",
        }
    }
}

/// One note.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub kind: NoteKind,
    /// The 1-based line it is about, when one line is.
    pub line: Option<usize>,
    /// The sentence, starting `line <n>: ` when there is a line.
    pub message: String,
    pub repair: Option<String>,
}

/// The document `team check --json` prints: what the team file says that this build would act
/// on differently from what its writer meant, each a note with its line. A file that cannot be
/// read prints the team.error document instead (exit 2).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckDoc {
    pub schema: Named<CheckDoc>,
    pub format: FormatOne,
    #[schemars(length(min = 1))]
    pub project: String,
    #[schemars(length(min = 1))]
    pub session: String,
    /// The team file read: relative to the current folder when below it, else absolute.
    #[schemars(length(min = 1))]
    pub file: String,
    /// How many seats the file declares.
    pub seats: usize,
    pub notes: Vec<NoteDoc>,
    #[schemars(regex(pattern = r"^[0-9]+ seats?, [0-9]+ notes?$"))]
    pub summary: String,
}

impl Document for CheckDoc {
    const NAME: &'static str = "team.check";
    const FILE: &'static str = "check";
}

/// One note of `team.check`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteDoc {
    /// unknown-key: a key this build does not know (kept and ignored); unknown-cli: a seat's
    /// cli: names no installed profile; legacy-lead: a seat named lead; legacy-all: a seat
    /// named all (the word of team send all); pin: a pin nothing installed satisfies, or no
    /// pin; session: no pane of the session is marked or named as a seat, or the multiplexer
    /// cannot show it; no-seat: the file declares none; file: a note the loader made; mcp: a
    /// seat's CLI configuration names a `team` MCP server that is not this team's (stale,
    /// foreign) or cannot be read (team mcp status); hooks: a seat's CLI does not run team's
    /// hooks while other seats' do, or its hooks are incomplete or unreadable (team hooks
    /// status); command: a command the file makes team run (notify's), approved for this
    /// checkout by its owner or not (team trust); host: a seat's host: or an entry of hosts:
    /// that is not an ssh destination (its seat is never sent to).
    pub kind: NoteKind,
    /// The line the note is about; null when no one line is.
    #[schemars(range(min = 1))]
    pub line: Option<usize>,
    /// The sentence; it starts `line <n>: ` when line is set.
    #[schemars(length(min = 1))]
    pub message: String,
    pub repair: Option<String>,
}

impl CheckReport {
    /// The `team.check` document; `shown` is the file as the run names it.
    pub fn document(&self, shown: &str) -> CheckDoc {
        CheckDoc {
            schema: Named::new(),
            format: FormatOne,
            project: self.project.clone(),
            session: self.session.clone(),
            file: shown.to_string(),
            seats: self.seats,
            notes: self
                .notes
                .iter()
                .map(|n| NoteDoc { kind: n.kind, line: n.line, message: n.message.clone(), repair: n.repair.clone() })
                .collect(),
            summary: self.summary(),
        }
    }
}

/// Everything `team check` found.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub project: String,
    pub session: String,
    pub path: PathBuf,
    pub seats: usize,
    pub notes: Vec<Note>,
}

fn note(kind: NoteKind, line: Option<usize>, text: String, repair: Option<String>) -> Note {
    let message = match line {
        Some(l) => format!("line {l}: {text}"),
        None => text,
    };
    Note { kind, line, message, repair }
}

/// `team check` from the working set: its team file (required), profiles and multiplexer.
pub fn check_here(ws: &crate::workspace::Workspace, exe: &str) -> crate::error::Result<CheckReport> {
    let loaded = ws.team()?;
    let mut r = check(loaded, ws.profiles(), ws.team_mux()?, exe);
    r.notes.extend(command_notes(loaded, &ws.ctx.paths.config));
    r.notes.sort_by_key(|n| n.line.unwrap_or(usize::MAX));
    Ok(r)
}

/// A note per command the file makes team run, saying whether its owner approved it here.
fn command_notes(loaded: &Loaded, config: &std::path::Path) -> Vec<Note> {
    let mut out = Vec::new();
    for (w, line) in crate::trust::wanted(loaded) {
        let at = line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let words = crate::trust::shown(&w.argv);
        let what = w.what.words();
        let (message, repair) = match crate::trust::stands(config, &w) {
            crate::trust::Stands::Approved { .. } => {
                (format!("{at}{what}: runs {words} — approved for this checkout"), None)
            }
            crate::trust::Stands::Other { argv } => (
                format!(
                    "{at}{what}: runs {words} — the approval is of other words ({}), so it does not run",
                    crate::trust::shown(&argv)
                ),
                Some(crate::trust::repair(&w)),
            ),
            crate::trust::Stands::None => (
                format!("{at}{what}: runs {words} — not approved for this checkout, so it does not run"),
                Some(crate::trust::repair(&w)),
            ),
        };
        out.push(Note { kind: NoteKind::Command, line, message, repair });
    }
    out
}

/// Checks `loaded` against the installed profiles, the multiplexer's panes and the MCP entries
/// (which should start `exe`, this `team`).
pub fn check(loaded: &Loaded, profiles: &ProfileHost, mux: &dyn Mux, exe: &str) -> CheckReport {
    let f = &loaded.file;
    let mut notes: Vec<Note> = Vec::new();
    for u in &f.unknown {
        notes.push(Note { kind: NoteKind::UnknownKey, line: Some(u.line), message: u.sentence(), repair: None });
    }
    notes.extend(cli_notes(f, profiles));
    notes.extend(reserved_name_notes(f));
    for n in &f.notes {
        match n {
            // noted above, with its repair, for every seat named `lead` or `all`
            crate::team_file::FileNote::LegacyLead { .. } | crate::team_file::FileNote::LegacyAll { .. } => {}
        }
    }
    notes.extend(pin_notes(f, profiles));
    notes.extend(host_notes(f));
    if f.seats.is_empty() {
        notes.push(note(
            NoteKind::NoSeat,
            f.lines.line("seats"),
            "seats: the file declares no seat yet".into(),
            Some("declare one per agent under seats: (name: and cli:), or write the file with team init --seat <name>:<cli>".into()),
        ));
    }
    if let Some(n) = session_note(loaded, mux) {
        notes.push(n);
    }
    notes.extend(mcp_notes(loaded, profiles, exe));
    notes.extend(hooks_notes(loaded, profiles));
    // in file order; a note about no one line last (the sort is stable)
    notes.sort_by_key(|n| n.line.unwrap_or(usize::MAX));
    CheckReport {
        project: f.project.clone(),
        session: f.session.clone(),
        path: loaded.path.clone(),
        seats: f.seats.len(),
        notes,
    }
}

/// A seat whose cli is no installed profile; the pins are judged once each ([`pin_notes`]).
fn cli_notes(f: &TeamFile, profiles: &ProfileHost) -> Vec<Note> {
    let book = FactsBook::new(profiles);
    let installed = profiles.installed_ids();
    let none = std::collections::BTreeMap::new();
    let mut notes = Vec::new();
    for (i, s) in f.seats.iter().enumerate() {
        if installed.contains(&s.cli) {
            continue;
        }
        if let Err(n) = book.of(&s.cli, &none) {
            let line = f.lines.line(&format!("seats.{i}.cli")).unwrap_or(s.line);
            notes.push(note(NoteKind::UnknownCli, Some(line), format!("seat {:?} {}", s.name, n.why), n.repair));
        }
    }
    notes
}

/// Every seat named `lead` or `all`, the words an address reserves, with the rename that frees it.
fn reserved_name_notes(f: &TeamFile) -> Vec<Note> {
    let mut notes = Vec::new();
    for s in f.seats.iter().filter(|s| s.name == RESERVED_LEAD) {
        let line = f.lines.line(&format!("seats.{}.name", f.seats.iter().position(|x| x == s).unwrap_or(0)));
        notes.push(note(
            NoteKind::LegacyLead,
            line.or(Some(s.line)),
            "seat \"lead\" takes the word reserved for lead@<team>: it answers its bare name in this team, and lead@<team> reaches the seat the file names as lead".into(),
            Some("team rename lead <new-name> (the file, its pane and its records follow; --dry-run names each step)".into()),
        ));
    }
    for s in f.seats.iter().filter(|s| s.name == RESERVED_ALL) {
        let line = f.lines.line(&format!("seats.{}.name", f.seats.iter().position(|x| x == s).unwrap_or(0)));
        notes.push(note(
            NoteKind::LegacyAll,
            line.or(Some(s.line)),
            "seat \"all\" takes the word reserved for team send all: team send all reaches every seat you may reach, and this seat answers only as all@<team>".into(),
            Some("team rename all <new-name> (the file, its pane and its records follow; --dry-run names each step)".into()),
        ));
    }
    notes
}

/// Every `hosts:` entry and seat `host:` that is not an ssh destination, at its line: the
/// seat's sends are refused, never handed to ssh (`team_file::host`).
fn host_notes(f: &TeamFile) -> Vec<Note> {
    let repair = || {
        Some("write [user@]host or ssh://[user@]host[:port] (letters, digits, '.', '_', '-'), or a name of hosts: (docs/team-file.md)".to_string())
    };
    let mut notes = Vec::new();
    for (name, (dest, line)) in &f.hosts.named {
        if let Err(why) = dest {
            notes.push(note(
                NoteKind::Host,
                Some(*line),
                format!("hosts: {name:?} is not an ssh destination: {why}"),
                repair(),
            ));
        }
    }
    for s in &f.seats {
        let Some(h) = &s.host else { continue };
        if f.hosts.named.contains_key(&h.word) {
            continue; // the entry's own note says it
        }
        if let Err(why) = &h.dest {
            let text = format!(
                "seat {:?}: host {:?} is neither a name of hosts: nor an ssh destination: {why}",
                s.name, h.word
            );
            notes.push(note(NoteKind::Host, Some(h.line), text, repair()));
        }
    }
    notes
}

/// A profile pin this build cannot honour, at its line.
fn pin_notes(f: &TeamFile, profiles: &ProfileHost) -> Vec<Note> {
    let mut notes = Vec::new();
    for (cli, pin) in &f.profiles {
        if let Err(e) = profiles.description(cli, &f.profiles) {
            let line = f.lines.line(&format!("profiles.{cli}")).or_else(|| f.lines.line("profiles"));
            let why = &e.sentence;
            let text =
                if e.kind == Kind::BadFile { why.to_string() } else { format!("profiles: {cli}: \"{pin}\": {why}") };
            let repair = e.repair().or_else(|| {
                Some(
                    "pin a version installed here, or drop the pin (`team profile list` shows what is installed)"
                        .into(),
                )
            });
            notes.push(note(NoteKind::Pin, line, text, repair));
        }
    }
    notes
}

/// The MCP entries that would not serve this team (stale, foreign, unreadable), one note a
/// file naming the seats that read it; an entry simply missing is no note (installing is a
/// choice, `team mcp status` lists it). `exe`: the `team` an entry should start.
fn mcp_notes(loaded: &Loaded, profiles: &ProfileHost, exe: &str) -> Vec<Note> {
    use crate::mcp::install::{self, Action, State};
    let place_of = |cli: &str| install::place_of(profiles, cli, &loaded.file.profiles);
    let Ok(rows) = install::run(loaded, &[], exe, Action::Status, place_of) else { return Vec::new() };
    let mut out: Vec<(Option<install::Place>, &State, Vec<&str>)> = Vec::new();
    for r in &rows {
        if matches!(r.state, State::Installed | State::Missing | State::Unsupported) {
            continue;
        }
        match out.iter_mut().find(|(p, _, _)| *p == r.place) {
            Some((_, _, seats)) => seats.push(&r.seat),
            None => out.push((r.place, &r.state, vec![&r.seat])),
        }
    }
    out.into_iter()
        .map(|(place, state, seats)| {
            let repair = match state {
                State::Stale { .. } | State::Incomplete { .. } => Some(format!("team mcp install {}", seats.join(" "))),
                _ => None,
            };
            note(NoteKind::Mcp, None, format!("mcp ({}): {}", seats.join(", "), state.detail(place)), repair)
        })
        .collect()
}

/// The seats whose CLI does not take its inbox through team's hooks, one note a state: stale,
/// incomplete or unreadable hooks always; hooks simply missing once another seat of the team
/// has them (installing is the team's choice, as for MCP: a team that never did reads as
/// before; `team hooks status` lists every seat).
fn hooks_notes(loaded: &Loaded, profiles: &ProfileHost) -> Vec<Note> {
    use crate::hooks::{self, Action, State};
    let format_of = |cli: &str| crate::hooks::format_of(profiles, cli, &loaded.file.profiles);
    let Ok(rows) = hooks::run(loaded, &[], "", Action::Status, format_of) else { return Vec::new() };
    let some_run = rows.iter().any(|r| r.state.runs());
    let mut out: Vec<(&State, Option<crate::vocab::leg::HookFormat>, Vec<&str>)> = Vec::new();
    for r in &rows {
        let noted = match &r.state {
            State::Installed | State::Unsupported => false,
            // a stale path still runs a team: `team hooks status` says which
            State::Stale { .. } => false,
            State::Missing => some_run,
            State::Incomplete { .. } | State::Unreadable { .. } => true,
        };
        if !noted {
            continue;
        }
        match out.iter_mut().find(|(s, f, _)| *s == &r.state && *f == r.format) {
            Some((_, _, seats)) => seats.push(&r.seat),
            None => out.push((&r.state, r.format, vec![&r.seat])),
        }
    }
    out.into_iter()
        .map(|(state, format, seats)| {
            let repair = match state {
                State::Unreadable { .. } => None,
                _ => Some(format!("team hooks install {}", seats.join(" "))),
            };
            let text = match state {
                State::Missing => format!(
                    "hooks ({}): its CLI does not run team's hooks, so a message reaches it only by a typed trigger ({})",
                    seats.join(", "),
                    state.detail(format)
                ),
                _ => format!("hooks ({}): {}", seats.join(", "), state.detail(format)),
            };
            note(NoteKind::Hooks, None, text, repair)
        })
        .collect()
}

/// The session note: no pane of the session is any seat's, or the multiplexer cannot say.
fn session_note(loaded: &Loaded, mux: &dyn Mux) -> Option<Note> {
    let f = &loaded.file;
    if f.seats.is_empty() {
        return None;
    }
    let line = f.lines.line("session").or_else(|| f.lines.line("project"));
    let mut found = 0;
    // one look at the session's panes for every seat (one call on tmux, not one a seat)
    let panes = crate::mux::panes_of(mux, &f.session);
    for s in &f.seats {
        match panes.locate_in(&s.name, &f.team) {
            Ok(_) => found += 1,
            Err(MuxError::NoSeat(_)) => {}
            // two panes marked one seat is still a marked pane (`team status` names them)
            Err(MuxError::MarkedTwice(_)) => found += 1,
            Err(e) => {
                // (a missing program's sentence says what to do itself)
                let repair = match &e {
                    MuxError::ProgramMissing(_) => None,
                    MuxError::ServerStopped(_) | MuxError::NoSession(_) => {
                        Some(crate::mux::repair::start_repair(mux, &f.session))
                    }
                    _ => Some(crate::mux::repair::find_repair(mux.name(), &f.session)),
                };
                return Some(note(NoteKind::Session, line, format!("session {:?}: {e}", f.session), repair));
            }
        }
    }
    (found == 0).then(|| {
        note(
            NoteKind::Session,
            line,
            format!(
                "session {:?}: no {} pane there is {} as any of the file's seats ({})",
                f.session,
                mux.name(),
                if mux.name() == "tmux" { "marked" } else { "named" },
                f.seat_names().join(", ")
            ),
            Some(crate::mux::repair::find_repair(mux.name(), &f.session)),
        )
    })
}

impl CheckReport {
    /// The plain words: the context line, each note (and its repair) on its lines, then the
    /// file as `shown` with the count.
    pub fn said(&self, shown: &str) -> String {
        use crate::vocab::text::one_line;
        let mut text = crate::error::context_line(&self.project, &self.session);
        for n in &self.notes {
            text.push_str(&format!("{}\n", one_line(&n.message)));
            if let Some(rep) = &n.repair {
                text.push_str(&format!("  {}\n", one_line(rep)));
            }
        }
        text.push_str(&format!("{}: {}\n", one_line(shown), self.summary()));
        text
    }

    /// `<n> seat(s), <m> note(s)`.
    pub fn summary(&self) -> String {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        format!("{}, {}", plural(self.seats, "seat"), plural(self.notes.len(), "note"))
    }
}
