//! `team init`'s use-case: a minimal, commented `.agents/team.yaml` for a checkout, the
//! schema editors check it against beside it, and `.agents/.gitignore` keeping what `team`
//! writes there (message bodies in `send-drops/`, the daily log) out of git.
//!
//! Invariants:
//! - an existing team file is never replaced: it is written with `fsx::write_new` (the whole
//!   file appears at once, or the run fails with nothing changed), and a team file already in
//!   the checkout refuses the run before anything is written;
//! - what it writes loads: the text is parsed back with `team_file::parse` before it is
//!   written, so `team init`'s file is never one the next command refuses;
//! - a `.gitignore` already there keeps its lines; the missing ones are added after them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::fsx;
use crate::outcome::{self, TeamError};
use crate::team_file::{self, valid_name, RESERVED_LEAD};

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
    /// The multiplexer the caller sits in (`None`: neither, the key is left commented).
    pub multiplexer: Option<&'static str>,
    /// The session was taken from the tmux session the caller sits in.
    pub session_from_tmux: bool,
    pub seats: Vec<SeatAsk>,
    /// Every installed profile id, for the commented examples.
    pub installed: BTreeSet<String>,
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Written {
    pub team_file: PathBuf,
    pub gitignore: PathBuf,
    /// The `.gitignore` lines this run added (all of them for a new file).
    pub ignored_added: Vec<String>,
    pub gitignore_existed: bool,
}

/// Reads `<name>:<cli>`; the name must be a seat name other than `lead`, the cli an
/// installed profile.
pub fn seat_ask(word: &str, installed: &BTreeSet<String>) -> outcome::Result<SeatAsk> {
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
    if !installed.contains(cli) {
        let hint = crate::nearest::nearest(cli, installed.iter().map(String::as_str))
            .map(|n| format!(" (did you mean {n}?)"))
            .unwrap_or_default();
        let list = installed.iter().cloned().collect::<Vec<_>>().join(", ");
        return Err(TeamError::usage(format!(
            "--seat {word:?}: {cli:?} names no installed profile{hint}; the installed profiles are {list}"
        )));
    }
    Ok(SeatAsk { name: name.into(), cli: cli.into() })
}

/// The checkout root for `cwd`: the first folder up from it holding `.git`, else `cwd`.
pub fn root_of(cwd: &Path) -> (PathBuf, bool) {
    let start = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let mut d = Some(start.as_path());
    while let Some(x) = d {
        if x.join(".git").exists() {
            return (x.to_path_buf(), true);
        }
        d = x.parent();
    }
    (start, false)
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
    match plan.multiplexer {
        Some(m) => t.push_str(&format!("multiplexer: {m}   # herdr or tmux\n")),
        None => {
            t.push_str("# multiplexer: tmux   # herdr or tmux; without the key, the one team runs inside, else herdr\n")
        }
    }
    t.push_str("seats:\n");
    for s in &plan.seats {
        t.push_str(&format!("  - name: {}\n    cli: {}\n", s.name, s.cli));
    }
    let examples: Vec<&String> = plan.installed.iter().filter(|id| !plan.seats.iter().any(|s| &s.cli == *id)).collect();
    if !examples.is_empty() {
        t.push_str("  # One entry per agent. Uncomment one, name it, then mark its pane: team mark <name>.\n");
        for (i, id) in examples.iter().enumerate() {
            t.push_str(&format!("  # - name: {id}-1\n  #   cli: {id}\n"));
            if i == 0 {
                t.push_str("  #   nickname: ada      # optional: a human name; @ada addresses the seat\n");
                t.push_str("  #   role: reviewer     # optional: a word, shown; it admits nothing\n");
                t.push_str("  #   leads: true        # optional: the seat that leads the team\n");
            }
        }
    }
    t
}

/// Writes the team file, its schema copy and the `.gitignore`. Refuses when the checkout
/// already has a team file; nothing is written then.
pub fn write(plan: &Plan) -> outcome::Result<Written> {
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
    fsx::check_ladder(&plan.root, &team_file).map_err(|e| TeamError::refused(format!("{e}; nothing was written")))?;
    if team_file.exists() {
        return Err(refuse_existing());
    }
    let agents = fsx::ensure_dirs(&plan.root, Path::new(".agents"), 0o755)
        .map_err(|e| TeamError::failed(format!("{e}; nothing was written")))?;
    match fsx::write_new(&team_file, text.as_bytes(), 0o644) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(refuse_existing()),
        Err(e) => return Err(TeamError::failed(format!("{e}; nothing was written"))),
    }
    let schema = agents.join(SCHEMA_FILE);
    fsx::write_atomic(&schema, SCHEMA.as_bytes(), 0o644).map_err(|e| TeamError::failed(e.to_string()))?;
    let gitignore = agents.join(".gitignore");
    let old = fsx::read_to_string(&gitignore).map_err(|e| TeamError::failed(e.to_string()))?;
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
        fsx::write_atomic(&gitignore, text.as_bytes(), 0o644).map_err(|e| TeamError::failed(e.to_string()))?;
    }
    Ok(Written { team_file, gitignore, ignored_added: added, gitignore_existed: existed })
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
            session_from_tmux: false,
            seats,
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
        assert_eq!(seat_ask("rev:codex", &installed).unwrap(), SeatAsk { name: "rev".into(), cli: "codex".into() });
        assert!(seat_ask("rev", &installed).unwrap_err().message.contains("<name>:<cli>"));
        assert!(seat_ask("Rev:codex", &installed).unwrap_err().message.contains("is not a seat name"));
        assert!(seat_ask("lead:codex", &installed).unwrap_err().message.contains("reserved"));
        let e = seat_ask("rev:codx", &installed).unwrap_err().message;
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
        let seats = vec![SeatAsk { name: "rev".into(), cli: "codex".into() }];
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
        let e = write(&plan(d.path(), vec![SeatAsk { name: "x".into(), cli: "codex".into() }])).unwrap_err();
        assert_eq!(e.kind, outcome::Kind::Refused);
        assert_eq!(e.message, "refused: .agents/team.yaml already exists; nothing was written");
        assert_eq!(std::fs::read_to_string(&w.team_file).unwrap(), before);
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.path().join(".agents").join(SCHEMA_FILE)).unwrap())
                .unwrap();
        assert_eq!(schema["title"], "team file");
    }
}
