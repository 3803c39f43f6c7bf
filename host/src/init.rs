//! `team init`'s use-case: a minimal, commented `.agents/team.yaml` for a checkout, the
//! schema editors check it against beside it, and `.agents/.gitignore` keeping what `team`
//! writes there (message bodies in `send-drops/`, the daily log) out of git.
//!
//! A team file with seats names a lead (`leads: true` on the first seat, or the one `--lead`
//! names): a team's lead briefs every seat and every seat reaches its lead, so a first team's
//! agents can message each other through it (docs/admission.md). With `--agent-instructions`
//! it also writes the lines an agent reads about `team send` into the instructions file each
//! seat's CLI reads (`CLAUDE.md`, `AGENTS.md`; `instructions`). What the file leads to — who
//! reaches whom, the commands to run next — is `next`'s, and the words a run says `words`'.
//!
//! Invariants:
//! - everything is checked before anything is written: the run is rooted at the logical
//!   checkout (a folder entered through a symbolic link is a folder of the checkout it was
//!   entered from, never the link's target), and a link or FIFO at `.agents`, the team file,
//!   its schema copy, the `.gitignore` or an instructions file refuses the run with nothing
//!   written;
//! - an existing team file is never replaced: it is written with `fsx::write_new` (the whole
//!   file appears at once, or the run fails with nothing changed), and a team file already in
//!   the checkout refuses the run before anything is written;
//! - what it writes loads: the text is parsed back with `team_file::parse` before it is
//!   written, so `team init`'s file is never one the next command refuses;
//! - a `.gitignore` already there keeps its lines; the missing ones are added after them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::error::{self, At, TeamError};
use crate::fsx;
use crate::team_file::{self, valid_name};
use crate::vocab::names::{RESERVED_ALL, RESERVED_LEAD};

mod instructions;
mod next;
mod words;
pub use instructions::{Instructions, Wrote, INSTRUCTIONS_MARK};

/// The schema of the team file, as this build reads it (written beside the file).
pub const SCHEMA: &str = include_str!("../../schema/team-file.schema.json");
/// The schema copy's name in `.agents/`.
pub const SCHEMA_FILE: &str = "team-file.schema.json";
/// What `.agents/.gitignore` keeps out of git.
pub const IGNORED: &[&str] = &["send-drops/", "team.log", "team.state.json"];

/// One seat `--seat <name>:<cli>` fills in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatAsk {
    pub name: String,
    pub cli: String,
    /// The launch its profile declares (`claude`, `codex --no-daemon`), written commented out
    /// under the seat: the line `team up` runs until the person writes one of their own.
    pub launch: Option<String>,
}

/// What the run is asked, with what it found around it.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The checkout root (the folder holding `.git`, else the current folder).
    pub root: PathBuf,
    /// The folder the run stands in (paths are said relative to it).
    pub cwd: PathBuf,
    pub in_git: bool,
    pub project: String,
    pub session: String,
    /// The multiplexer the caller sits in, else the one the fixed search finds (`None`:
    /// neither, the key is left commented).
    pub multiplexer: Option<&'static str>,
    /// How the multiplexer was found (the file's comment and the run's closing line say it).
    pub multiplexer_from: MuxFrom,
    /// The session was taken from the tmux session the caller sits in.
    pub session_from_tmux: bool,
    pub seats: Vec<SeatAsk>,
    /// The seat that leads (one of `seats`; `None` when there is none).
    pub lead: Option<String>,
    /// Write the agents' instructions files too (`--agent-instructions`).
    pub instructions: bool,
    /// Every installed profile id, for the commented examples.
    pub installed: BTreeSet<String>,
}

/// How `team init` found the multiplexer it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MuxFrom {
    /// The run sits in one of its panes (`TMUX`, `HERDR_PANE_ID`) or names its server
    /// (`TEAM_TMUX_SOCKET`).
    SitsIn,
    /// Found on the fixed search (herdr first: the default multiplexer).
    Installed,
    /// Neither: the key is left commented.
    Neither,
    /// `--multiplexer` named it.
    Asked,
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Written {
    pub team_file: PathBuf,
    pub gitignore: PathBuf,
    /// The `.gitignore` lines this run added (all of them for a new file).
    pub ignored_added: Vec<String>,
    pub gitignore_existed: bool,
    /// The instructions files written or added to, and those that already held the lines.
    pub instructions: Vec<(PathBuf, instructions::Wrote)>,
}

/// Reads `<name>:<cli>`; the name must be a seat name other than `lead`, the cli an
/// installed profile.
pub fn seat_ask(word: &str, installed: &BTreeSet<String>) -> error::Result<SeatAsk> {
    let Some((name, cli)) = word.split_once(':') else {
        return Err(TeamError::usage(format!("--seat takes <name>:<cli> (claude-1:claude-code), not {word:?}")));
    };
    if !valid_name(name) {
        return Err(TeamError::usage(format!(
            "--seat {word:?}: {name:?} is not a seat name (lower-case letters, digits, '.', '_' or '-', at most 63)"
        )));
    }
    if name == RESERVED_LEAD {
        return Err(TeamError::usage(format!(
            "--seat {word:?}: \"lead\" is reserved for the lead@<team> address; name the seat otherwise and give it leads: true"
        )));
    }
    if name == RESERVED_ALL {
        return Err(TeamError::usage(format!(
            "--seat {word:?}: \"all\" is reserved for team send all (every seat you may reach); name the seat otherwise"
        )));
    }
    if !installed.contains(cli) {
        let hint = crate::nearest::nearest(cli, installed.iter().map(String::as_str))
            .map(|n| format!(" (did you mean {n}?)"))
            .unwrap_or_default();
        let list = installed.iter().cloned().collect::<Vec<_>>().join(", ");
        return Err(TeamError::usage(format!(
            "--seat {word:?}: {cli:?} names no installed profile{hint}; the installed profiles are {list}"
        )));
    }
    Ok(SeatAsk { name: name.into(), cli: cli.into(), launch: None })
}

/// The checkout root for `cwd`: the first folder up from it holding `.git`, else `cwd` —
/// walked up the logical path (`ctx.cwd`, `fsx::logical_dir`), so a subfolder that is a link to elsewhere
/// is rooted at the checkout it was entered from.
pub fn root_of(cwd: &Path) -> (PathBuf, bool) {
    let start = crate::fsx::walk_start(cwd);
    let mut d = Some(start.as_path());
    // the root found on the logical path, then made canonical: what is written goes to the
    // real folder, never through a link
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    while let Some(x) = d {
        if crate::fsx::is_checkout_root(x) {
            return (real(x), true);
        }
        d = x.parent();
    }
    (real(&start), false)
}

/// A folder's name as a project or session name: lower case, every other character `-`.
pub fn name_of(folder: &Path) -> String {
    let raw = folder.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let mut s: String = raw
        .chars()
        .map(|c| if c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c) { c } else { '-' })
        .collect();
    s = s.trim_start_matches(['-', '.', '_']).chars().take(63).collect();
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "project".into()
    } else {
        s
    }
}

/// The team file's text for `plan`.
pub fn text(plan: &Plan) -> String {
    let mut t = String::new();
    t.push_str(&format!("# yaml-language-server: $schema=./{SCHEMA_FILE}\n"));
    t.push_str("# The team file: which agent seats this project has, and where they run.\n");
    t.push_str("# Every key, its default and its meaning: docs/team-file.md; `team check` reads it back.\n");
    t.push_str("format: 1\n");
    t.push_str(&format!("project: {}   # the project's name; the message history is kept under it\n", plan.project));
    let from = if plan.session_from_tmux {
        "the tmux session team init ran in"
    } else {
        "the multiplexer session the seats run in"
    };
    t.push_str(&format!("session: {}   # {from}\n", plan.session));
    match (plan.multiplexer, plan.multiplexer_from) {
        (Some(m), MuxFrom::Installed) => {
            t.push_str(&format!("multiplexer: {m}   # herdr or tmux (team init found {m} installed)\n"))
        }
        (Some(m), _) => t.push_str(&format!("multiplexer: {m}   # herdr or tmux\n")),
        (None, _) => {
            t.push_str("# multiplexer: tmux   # herdr or tmux; without the key, the one team runs inside, else herdr\n")
        }
    }
    t.push_str("seats:\n");
    for s in &plan.seats {
        t.push_str(&format!("  - name: {}\n    cli: {}\n", s.name, s.cli));
        if plan.lead.as_deref() == Some(s.name.as_str()) {
            t.push_str(
                "    leads: true   # the lead briefs every seat, and every seat reaches it (docs/admission.md)\n",
            );
        }
        if let Some(l) = &s.launch {
            t.push_str(&format!(
                "    # launch: {l}   # what team up types to start it (its profile's own); a line of yours runs once approved: team trust launch {}\n",
                s.name
            ));
        }
    }
    let examples: Vec<&String> = plan.installed.iter().filter(|id| !plan.seats.iter().any(|s| &s.cli == *id)).collect();
    if !examples.is_empty() {
        t.push_str("  # One entry per agent. Uncomment one, name it, then mark its pane: team mark <name>.\n");
        for (i, id) in examples.iter().enumerate() {
            t.push_str(&format!("  # - name: {id}-1\n  #   cli: {id}\n"));
            if i == 0 {
                t.push_str("  #   nickname: ada      # optional: a human name; @ada addresses the seat\n");
                t.push_str("  #   role: reviewer     # optional: a word, shown; it admits nothing\n");
                t.push_str(if plan.lead.is_some() {
                    "  #   leads: true        # optional: another seat that leads the team\n"
                } else {
                    "  #   leads: true        # the seat that leads: it briefs every seat, every seat reaches it\n"
                });
            }
        }
    }
    t
}

/// Writes the team file, its schema copy and the `.gitignore`. Refuses when the checkout
/// already has a team file; nothing is written then.
pub fn write(plan: &Plan) -> error::Result<Written> {
    let text = text(plan);
    // what is written loads (a --seat word the grammar refuses never reaches the disk)
    team_file::parse(&text)
        .map_err(|e| TeamError::failed(format!("the team file init would write does not load: {e}")))?;
    let agents = plan.root.join(".agents");
    let team_file = agents.join("team.yaml");
    let shown = team_file::shown(&team_file, &plan.cwd);
    let refuse_existing = || {
        TeamError::refused(format!("{shown} already exists; nothing was written"))
            .with_repair("team check reads it; to start over, move it away and run team init again")
    };
    // every path this run writes is checked before the first write: a link or FIFO at any
    // of them (or at `.agents`) refuses the run with nothing written
    let refuse_entry = |e: std::io::Error| TeamError::refused(format!("{e}; nothing was written"));
    let schema = agents.join(SCHEMA_FILE);
    let gitignore = agents.join(".gitignore");
    for p in [&team_file, &schema, &gitignore] {
        fsx::check_ladder(&plan.root, p).map_err(refuse_entry)?;
    }
    if agents.exists() && !agents.is_dir() {
        return Err(TeamError::refused(format!(
            "{} is not a folder; nothing was written",
            team_file::shown(&agents, &plan.cwd)
        )));
    }
    if team_file.exists() {
        return Err(refuse_existing());
    }
    let old = fsx::read_to_string(&gitignore).map_err(|e| TeamError::refused(format!("{e}; nothing was written")))?;
    let instructions = if plan.instructions { Instructions::plan(plan)? } else { Instructions::default() };
    let agents = fsx::ensure_dirs(&plan.root, Path::new(".agents"), 0o755)
        .map_err(|e| TeamError::failed(format!("{e}; nothing was written")))?;
    match fsx::write_new(&team_file, text.as_bytes(), 0o644) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(refuse_existing()),
        Err(e) => return Err(TeamError::failed(format!("{e}; nothing was written"))),
    }
    fsx::write_atomic(&schema, SCHEMA.as_bytes(), 0o644).at(&schema)?;
    let _ = &agents;
    let existed = old.is_some();
    let old = old.unwrap_or_default();
    let have: BTreeSet<&str> = old.lines().map(str::trim).collect();
    let added: Vec<String> = IGNORED.iter().filter(|l| !have.contains(*l)).map(|l| l.to_string()).collect();
    if !added.is_empty() {
        let mut text = old.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if !existed {
            text.push_str("# What team writes here and git must not carry: message bodies and the daily log.\n");
        }
        for l in &added {
            text.push_str(l);
            text.push('\n');
        }
        fsx::write_atomic(&gitignore, text.as_bytes(), 0o644).at(&gitignore)?;
    }
    let instructions = instructions.write()?;
    Ok(Written { team_file, gitignore, ignored_added: added, gitignore_existed: existed, instructions })
}

/// The multiplexer to write: the one asked for, else the one the run sits in (or whose server
/// it names), else the one installed on the fixed search — herdr first, the default — else none.
fn multiplexer(asked: Option<&str>, hints: &crate::mux::Hints) -> (Option<&'static str>, MuxFrom) {
    let named_tmux = hints.team_tmux_socket.is_some();
    match asked {
        Some("herdr") => return (Some("herdr"), MuxFrom::Asked),
        Some(_) => return (Some("tmux"), MuxFrom::Asked),
        None => {}
    }
    match crate::mux::sits_in(hints) {
        Some(m) => (Some(m), MuxFrom::SitsIn),
        None if named_tmux => (Some("tmux"), MuxFrom::SitsIn),
        None if crate::mux::program::herdr().is_some() => (Some("herdr"), MuxFrom::Installed),
        None if crate::mux::program::find("tmux").is_some() => (Some("tmux"), MuxFrom::Installed),
        None => (None, MuxFrom::Neither),
    }
}

/// What `team init` asks for, its words read.
pub struct Asked<'a> {
    /// `--seat <name>:<cli>`, each.
    pub seats: &'a [String],
    pub lead: Option<&'a str>,
    pub multiplexer: Option<&'a str>,
    pub agent_instructions: bool,
}

/// What `team init` will write for `a`, from the run's surroundings: the folder, the installed
/// profiles, the multiplexer the run sits in (else the one installed) and its tmux session.
pub fn plan(ws: &crate::workspace::Workspace, a: &Asked) -> error::Result<Plan> {
    let ctx = ws.ctx;
    let cwd = ctx.cwd()?;
    let installed = ws.profiles().installed_ids();
    let mut seats: Vec<SeatAsk> = Vec::new();
    for w in a.seats {
        let mut s = seat_ask(w, &installed)?;
        s.launch = ws
            .profiles()
            .load(&s.cli, &std::collections::BTreeMap::new())
            .ok()
            .and_then(|p| crate::profiles::launch::launch_line(p.describe()));
        if seats.iter().any(|x| x.name == s.name) {
            return Err(TeamError::usage(format!("--seat {:?} is given twice", s.name)));
        }
        seats.push(s);
    }
    let lead = match a.lead {
        None => seats.first().map(|s| s.name.clone()),
        Some(l) if seats.iter().any(|s| s.name == l) => Some(l.to_string()),
        Some(l) if seats.is_empty() => {
            return Err(TeamError::usage(format!(
                "--lead {l:?} names no seat: give the seats with --seat <name>:<cli> (the first one leads unless --lead names another)"
            )))
        }
        Some(l) => {
            let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
            return Err(TeamError::usage(format!(
                "--lead {l:?} names no --seat; the seats are {}",
                names.join(", ")
            )));
        }
    };
    let (root, in_git) = root_of(&cwd);
    let project = name_of(&root);
    let (multiplexer, multiplexer_from) = multiplexer(a.multiplexer, &ctx.mux);
    // Inside tmux, the seats' panes are marked in the session the caller sits in.
    let tmux_session = (multiplexer == Some("tmux") && crate::mux::sits_in(&ctx.mux) == Some("tmux"))
        .then(|| ctx.mux.tmux_pane.clone())
        .flatten()
        .and_then(|p| crate::mux::tmux::Tmux::from_hints(&ctx.mux).pane_marked(&p).ok())
        .map(|p| p.session)
        .filter(|s| !s.trim().is_empty() && !s.contains(['\n', '#', ':']));
    let session_from_tmux = tmux_session.is_some();
    let session = tmux_session.unwrap_or_else(|| project.clone());
    Ok(Plan {
        root,
        cwd: cwd.clone(),
        in_git,
        project,
        session,
        multiplexer,
        multiplexer_from,
        session_from_tmux,
        seats,
        lead,
        instructions: a.agent_instructions,
        installed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn plan(root: &Path, seats: Vec<SeatAsk>) -> Plan {
        Plan {
            root: root.to_path_buf(),
            cwd: root.to_path_buf(),
            in_git: true,
            project: "my-app".into(),
            session: "my-app".into(),
            multiplexer: Some("tmux"),
            multiplexer_from: MuxFrom::SitsIn,
            session_from_tmux: false,
            lead: seats.first().map(|s: &SeatAsk| s.name.clone()),
            seats,
            instructions: false,
            installed: ids(&["claude-code", "codex"]),
        }
    }

    #[test]
    fn folder_names_become_names() {
        assert_eq!(name_of(Path::new("/x/My App")), "my-app");
        assert_eq!(name_of(Path::new("/x/.hidden")), "hidden");
        assert_eq!(name_of(Path::new("/x/ünï")), "n");
        assert_eq!(name_of(Path::new("/")), "project");
        assert!(valid_name(&name_of(Path::new("/x/A_b.c-1"))));
    }

    #[test]
    fn seat_words_are_checked() {
        let installed = ids(&["claude-code", "codex"]);
        assert_eq!(
            seat_ask("rev:codex", &installed).unwrap(),
            SeatAsk { name: "rev".into(), cli: "codex".into(), launch: None }
        );
        assert!(seat_ask("rev", &installed).unwrap_err().message().contains("<name>:<cli>"));
        assert!(seat_ask("Rev:codex", &installed).unwrap_err().message().contains("is not a seat name"));
        assert!(seat_ask("lead:codex", &installed).unwrap_err().message().contains("reserved"));
        let e = seat_ask("rev:codx", &installed).unwrap_err().message();
        assert!(e.contains("(did you mean codex?)") && e.contains("claude-code, codex"), "{e}");
    }

    #[test]
    fn the_file_loads_with_its_examples_commented_out() {
        let d = tempfile::tempdir().unwrap();
        let f = team_file::parse(&text(&plan(d.path(), vec![]))).unwrap();
        assert_eq!(
            (f.project.as_str(), f.session.as_str(), f.multiplexer.as_deref()),
            ("my-app", "my-app", Some("tmux"))
        );
        assert!(f.seats.is_empty() && f.unknown.is_empty());
        let seats = vec![SeatAsk { name: "rev".into(), cli: "codex".into(), launch: None }];
        let t = text(&plan(d.path(), seats));
        assert!(t.contains("  # - name: claude-code-1\n") && !t.contains("# - name: codex-1"), "{t}");
        assert_eq!(team_file::parse(&t).unwrap().seat_names(), vec!["rev"]);
    }

    #[test]
    fn write_refuses_an_existing_file_and_keeps_a_gitignore() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".agents")).unwrap();
        std::fs::write(d.path().join(".agents/.gitignore"), "mine\nteam.log").unwrap();
        let w = write(&plan(d.path(), vec![])).unwrap();
        assert_eq!(w.ignored_added, vec!["send-drops/", "team.state.json"]);
        assert_eq!(std::fs::read_to_string(&w.gitignore).unwrap(), "mine\nteam.log\nsend-drops/\nteam.state.json\n");
        let before = std::fs::read_to_string(&w.team_file).unwrap();
        let e =
            write(&plan(d.path(), vec![SeatAsk { name: "x".into(), cli: "codex".into(), launch: None }])).unwrap_err();
        assert_eq!(e.kind, error::Kind::Refused);
        assert_eq!(e.message(), "refused: .agents/team.yaml already exists; nothing was written");
        assert_eq!(std::fs::read_to_string(&w.team_file).unwrap(), before);
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join(".agents").join(SCHEMA_FILE)).unwrap())
                .unwrap();
        assert_eq!(schema["title"], "team file");
    }
}
