//! `.agents/team.yaml`: find it (walk up from the cwd to the git root), parse it with
//! serde-saphyr, validate it (every error names its line), and expose the seat model.
//!
//! Invariant: a file that loads is valid — every word that becomes a path component or an
//! address (project, team, session, entity, seat, nickname) follows its grammar (`names`),
//! delivery orders checked; unknown keys are kept and ignored so files written by newer
//! versions still load (`keys` finds them, with their lines, for `team check`). A file that is
//! not YAML is refused naming the file and showing its line with a caret under the place.

pub mod edit;
pub mod host;
mod keys;
pub mod lock;
mod mistakes;
pub mod notify;
mod place;
mod seats;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::error::{self, At, IoAt, TeamError};
use crate::fsx;
use crate::vocab::names;

mod who;
pub use keys::{KeyLines, UnknownKey};
pub use notify::Notify;
use place::located;
pub use place::shown;
pub use who::{valid_seat_spelling, Delegates, FileGrant};

/// One seat as the file declares it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seat {
    pub name: String,
    pub nickname: Option<String>,
    pub role: Option<String>,
    /// The profile id that reads this seat's screen (`claude-code`, `codex`, …).
    pub cli: String,
    /// The `leads: true` mark (or the legacy `coordinator:` key naming this seat).
    pub leads: bool,
    pub assistant: bool,
    pub stopped: bool,
    pub delivery_order: Option<Vec<String>>,
    /// Carried and shown, never judged.
    pub label: Option<String>,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub version: Option<String>,
    pub launch: Option<String>,
    pub effort: Option<String>,
    /// `host:`: the machine the seat runs on, reached over ssh (`None`: this machine's own).
    pub host: Option<host::SeatHost>,
    /// The 1-based line the seat starts on, for messages.
    pub line: usize,
}

/// A loaded, validated team file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TeamFile {
    pub format: u32,
    pub project: String,
    /// Team name; defaults to `project`.
    pub team: String,
    /// Entity; `None` means the registry's default entity.
    pub entity: Option<String>,
    /// Multiplexer session; defaults to `project`.
    pub session: String,
    /// `herdr` | `tmux` when the file chooses.
    pub multiplexer: Option<String>,
    pub delivery_order: Option<Vec<String>>,
    /// Profile pins: cli id -> version requirement (`"1.4"`).
    pub profiles: BTreeMap<String, String>,
    pub seats: Vec<Seat>,
    /// Who besides the owner and the team's own seats may run a command, per command.
    pub delegates: Delegates,
    /// The owner's grant to one seat (verified only by an approval in the owner's grants folder).
    pub grant: Option<FileGrant>,
    /// `notify:`: the owner's notification command and its events (docs/conversations.md).
    pub notify: Option<Notify>,
    /// `hosts:`: names for ssh destinations, which a seat's `host:` may use.
    pub hosts: host::Hosts,
    /// Notes for `team check` (a legacy seat named `lead`, …); never errors.
    pub notes: Vec<FileNote>,
    /// Keys this build does not know (kept and ignored), for `team check`.
    pub unknown: Vec<UnknownKey>,
    /// The line of every key the file writes.
    pub lines: KeyLines,
}

/// A team file together with where it was found.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: TeamFile,
    /// `<checkout>/.agents/team.yaml`.
    pub path: PathBuf,
    /// The checkout root: the folder holding `.agents/` (canonical).
    pub root: PathBuf,
}

/// The seat-name grammar: `[a-z0-9][a-z0-9._-]{0,62}` (nicknames and teams use the same one;
/// sessions, projects and entities the word grammar, `names`).
pub use crate::vocab::names::valid_name;

impl TeamFile {
    /// The seat the file declares under `name`.
    pub fn seat(&self, name: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.name == name)
    }
    /// The seats the file marks as its lead (the `leads` mark, or the legacy `coordinator:` key).
    pub fn leads(&self) -> Vec<&Seat> {
        self.seats.iter().filter(|s| s.leads).collect()
    }
    /// The seat names, in file order.
    pub fn seat_names(&self) -> Vec<&str> {
        self.seats.iter().map(|s| s.name.as_str()).collect()
    }
    /// The words that address a seat of this file: every seat name, then every `@<nickname>`.
    pub fn addresses(&self) -> Vec<String> {
        let nicknames = self.seats.iter().filter_map(|s| s.nickname.as_ref()).map(|n| format!("@{n}"));
        self.seats.iter().map(|s| s.name.clone()).chain(nicknames).collect()
    }
}

/// Walks up from `cwd` to the git root (the first folder holding `.git`), looking for
/// `.agents/team.yaml`. `Ok(None)` when no folder on the way holds one. A symlink or FIFO
/// at `.agents` or the file is refused, never followed. `cwd` is the folder as the run names
/// it (`ctx.cwd`: through the link the user entered by); any other path is walked as given
/// when absolute and plain, else from its canonical form (`fsx::walk_start`).
pub fn find(cwd: &Path) -> error::Result<Option<Loaded>> {
    // walked up the logical path (a subfolder entered through a link belongs to the checkout
    // it was entered from); each folder's file is checked and read in the real folder
    let start = fsx::walk_start(cwd);
    let mut dir: Option<&Path> = Some(start.as_path());
    while let Some(d) = dir {
        let real = d.canonicalize().unwrap_or_else(|_| d.to_path_buf());
        let path = real.join(".agents").join("team.yaml");
        fsx::check_ladder(&real, &path).at(&path).map_err(IoAt::bad_file)?;
        if let Some(text) = fsx::read_capped(&path, fsx::TEXT_MAX).at(&path).map_err(IoAt::bad_file)? {
            let file = parse(&text).map_err(|e| located(e, &shown(&path, &start), &text))?;
            return Ok(Some(Loaded { file, path, root: real }));
        }
        if fsx::is_checkout_root(d) {
            break;
        }
        dir = d.parent();
    }
    Ok(None)
}

/// Loads the team file at an exact path (the checkout root is the folder above `.agents`).
pub fn load(path: &Path) -> error::Result<Loaded> {
    let text = fsx::read_capped(path, fsx::TEXT_MAX)
        .at(path)
        .map_err(IoAt::bad_file)?
        .ok_or_else(|| TeamError::bad_file(format!("{}: no such file", path.display())))?;
    let file = parse(&text).map_err(|e| located(e, &path.display().to_string(), &text))?;
    let root = path.parent().and_then(Path::parent).unwrap_or(Path::new(".")).to_path_buf();
    let root = root.canonicalize().unwrap_or(root);
    Ok(Loaded { file, path: path.to_path_buf(), root })
}

// ---- the raw shape serde reads; every field that a message names carries its line ----

type Sp<T> = Spanned<T>;
/// A list of words, each with its line.
type SpWords = Sp<Vec<Sp<String>>>;

#[derive(Deserialize)]
struct RawFile {
    format: Option<Sp<u32>>,
    project: Option<Sp<String>>,
    team: Option<Sp<String>>,
    entity: Option<Sp<String>>,
    session: Option<Sp<String>>,
    coordinator: Option<Sp<String>>,
    multiplexer: Option<Sp<String>>,
    delivery_order: Option<Sp<Vec<Sp<String>>>>,
    profiles: Option<Sp<BTreeMap<String, Scalar>>>,
    seats: Option<Sp<Vec<Sp<seats::RawSeat>>>>,
    delegates: Option<Sp<BTreeMap<String, SpWords>>>,
    grant: Option<Sp<who::RawGrant>>,
    notify: Option<Sp<notify::RawNotify>>,
    hosts: Option<Sp<BTreeMap<String, Sp<String>>>>,
}

/// A YAML scalar read as text whatever its type (`version: 5.5`, `codex: 1.4`).
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string, number or boolean")
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
                Ok(Scalar(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

fn at(line: u64, msg: impl AsRef<str>) -> TeamError {
    TeamError::bad_file(format!("line {}: {}", line.max(1), msg.as_ref()))
}

fn line_of<T>(s: &Sp<T>) -> u64 {
    s.referenced.line()
}

/// Turns a serde-saphyr error into `line <n>: <message>`, in the project's words (`yaml`).
fn yaml_error(e: serde_saphyr::Error) -> TeamError {
    at(crate::yaml::line(&e), crate::yaml::words(&e))
}

/// Checks one `delivery_order` list: known legs, none twice, at least one.
fn check_order(key_line: u64, order: &[Sp<String>]) -> error::Result<Vec<String>> {
    if order.is_empty() {
        return Err(at(
            key_line,
            format!("delivery_order: names no leg; list one or more of {}", crate::vocab::leg::Leg::order_words()),
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for w in order {
        let word = w.value.as_str();
        if crate::vocab::leg::Leg::from_order_word(word).is_none() {
            return Err(at(line_of(w), format!("delivery_order: unknown leg \"{word}\"")));
        }
        if out.iter().any(|x| x == word) {
            return Err(at(line_of(w), format!("delivery_order: leg \"{word}\" is named twice")));
        }
        out.push(word.to_string());
    }
    Ok(out)
}

/// Parses and validates a team file's text. Errors are `BadFile`, `line <n>: <message>`.
pub fn parse(text: &str) -> error::Result<TeamFile> {
    if text.trim().is_empty() {
        return Err(at(1, "the team file is empty; it needs project: and seats:"));
    }
    let raw: RawFile = serde_saphyr::from_str(text).map_err(|e| {
        // a newcomer's mistake at the line the reader stopped at is said in our words
        match mistakes::explain(text, crate::yaml::line(&e) as usize) {
            Some(m) => at(m.line as u64, m.sentence),
            None => yaml_error(e),
        }
    })?;
    let keys = keys::read(text);
    let head = header(&raw)?;
    let profiles = raw.profiles.map(|p| p.value.into_iter().map(|(k, v)| (k, v.0)).collect()).unwrap_or_default();
    // `seats:` with no value (every entry commented out, as `team init` writes it) is no seat.
    let raw_seats = match raw.seats {
        Some(s) => s.value,
        None if keys.lines.line("seats").is_some() => Vec::new(),
        None => return Err(at(1, "seats: is missing; the file declares no seat")),
    };
    let hosts = read_hosts(raw.hosts)?;
    let (mut seats, notes) = seats::read(raw_seats, &hosts)?;
    let (delegates, grant) = who::read(raw.delegates, raw.grant)?;
    let notify = raw.notify.map(notify::read).transpose()?;
    if let Some(c) = &raw.coordinator {
        let who = c.value.trim();
        match seats.iter_mut().find(|s| s.name == who) {
            Some(s) => s.leads = true,
            None => return Err(at(line_of(c), format!("coordinator: names no seat of this file (\"{who}\")"))),
        }
    }
    let Header { format, project, team, entity, session, multiplexer, delivery_order } = head;
    Ok(TeamFile {
        format,
        project,
        team,
        entity,
        session,
        multiplexer,
        delivery_order,
        profiles,
        seats,
        delegates,
        grant,
        notify,
        hosts,
        notes,
        unknown: keys.unknown,
        lines: keys.lines,
    })
}

/// `hosts:`: each name checked (it is a word of the file, like a seat's), each destination
/// read — one that is not a destination is kept with its fault for `team check`.
fn read_hosts(raw: Option<Sp<BTreeMap<String, Sp<String>>>>) -> error::Result<host::Hosts> {
    let mut hosts = host::Hosts::default();
    let Some(raw) = raw else { return Ok(hosts) };
    let key_line = line_of(&raw);
    for (name, dest) in raw.value {
        if !valid_name(&name) {
            return Err(at(
                line_of(&dest).max(key_line),
                format!("hosts: \"{name}\" is not a name for a host (lower-case letters, digits, '.', '_' or '-', at most 63)"),
            ));
        }
        let line = line_of(&dest) as usize;
        hosts.named.insert(name, (host::Destination::parse(&dest.value), line));
    }
    Ok(hosts)
}

/// The file's words above its seats, checked.
struct Header {
    format: u32,
    project: String,
    team: String,
    entity: Option<String>,
    session: String,
    multiplexer: Option<String>,
    delivery_order: Option<Vec<String>>,
}

/// Reads and checks `format`, `project`, `team`, `entity`, `session`, `multiplexer` and the
/// file's `delivery_order`.
fn header(raw: &RawFile) -> error::Result<Header> {
    let format = match &raw.format {
        None => 1,
        Some(f) if f.value == 1 => 1,
        Some(f) => {
            return Err(at(line_of(f), format!("format: {} is not one this build reads (it reads format 1)", f.value)))
        }
    };
    let project = match &raw.project {
        Some(p) if !p.value.trim().is_empty() => p.value.trim().to_string(),
        Some(p) => return Err(at(line_of(p), "project: is empty")),
        None => return Err(at(1, "project: is missing")),
    };
    // A word every path and address built from it can hold: checked here, once, so that no
    // later join (the seat lock, the drop folder, the history folder) meets one that is not.
    let word_ok = |kind, value: &str, o: &Option<Sp<String>>| {
        names::check(kind, value).map_err(|why| at(o.as_ref().or(raw.project.as_ref()).map(line_of).unwrap_or(1), why))
    };
    word_ok(names::Kind::Project, &project, &raw.project)?;
    let word = |o: &Option<Sp<String>>, key: &str| -> error::Result<Option<String>> {
        match o {
            None => Ok(None),
            Some(v) if v.value.trim().is_empty() => Err(at(line_of(v), format!("{key}: is empty"))),
            Some(v) => Ok(Some(v.value.trim().to_string())),
        }
    };
    let team = word(&raw.team, "team")?.unwrap_or_else(|| project.clone());
    if !valid_name(&team) {
        let l = raw.team.as_ref().or(raw.project.as_ref()).map(line_of).unwrap_or(1);
        return Err(at(
            l,
            format!("team: \"{team}\" is not a team name (lower-case letters, digits, '.', '_' or '-')"),
        ));
    }
    let entity = word(&raw.entity, "entity")?;
    if let Some(e) = &entity {
        word_ok(names::Kind::Entity, e, &raw.entity)?;
    }
    let session = word(&raw.session, "session")?.unwrap_or_else(|| project.clone());
    word_ok(names::Kind::Session, &session, &raw.session)?;
    let multiplexer = word(&raw.multiplexer, "multiplexer")?;
    if let (Some(m), Some(sp)) = (&multiplexer, &raw.multiplexer) {
        if m != "herdr" && m != "tmux" {
            return Err(at(line_of(sp), format!("multiplexer: unknown multiplexer \"{m}\" (herdr or tmux)")));
        }
    }
    let delivery_order = match &raw.delivery_order {
        None => None,
        Some(o) => Some(check_order(line_of(o), &o.value)?),
    };
    Ok(Header { format, project, team, entity, session, multiplexer, delivery_order })
}

/// What a team file says that loads but deserves a note (`team check` words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileNote {
    /// A seat named `lead`, the word reserved for `lead@<team>`, on this line.
    LegacyLead { line: usize },
    /// A seat named `all`, the word reserved for `team send all`, on this line.
    LegacyAll { line: usize },
}

impl std::fmt::Display for FileNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileNote::LegacyLead { line } => write!(
                f,
                "line {line}: seat \"lead\" takes the word reserved for lead@<team>; it answers its bare name in this team (repair: team rename lead <new-name>)"
            ),
            FileNote::LegacyAll { line } => write!(
                f,
                "line {line}: seat \"all\" takes the word reserved for team send all; it answers only as all@<team> (repair: team rename all <new-name>)"
            ),
        }
    }
}

/// Refuses a run whose folder `cwd` is in no git checkout (`register`, `rename` act only on
/// a checkout's team): a team file lives in a checkout's `.agents/team.yaml`.
pub fn in_checkout(cwd: &std::path::Path) -> error::Result<()> {
    let start = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    if start.ancestors().any(crate::fsx::is_checkout_root) {
        return Ok(());
    }
    Err(TeamError::bad_file(format!(
        "{} is not inside a git repository; a team file lives in a checkout's .agents/team.yaml",
        start.display()
    )))
}

/// The error of a run standing in `cwd` that finds no team file, for every command that needs
/// one: it says where the file was looked for (exit 2).
pub fn no_team_file(cwd: &std::path::Path) -> TeamError {
    let start = crate::fsx::walk_start(cwd);
    match start.ancestors().find(|d| crate::fsx::is_checkout_root(d)) {
        Some(root) if root == start => TeamError::bad_file(
            "no team file: .agents/team.yaml is not in this folder, the checkout's root",
        )
        .with_repair("team init writes one here (docs/team-file.md says what it holds)"),
        Some(root) => TeamError::bad_file(format!(
            "no team file: .agents/team.yaml is neither in this folder nor in one above it up to the checkout's root, {}",
            root.display()
        ))
        .with_repair("team init writes one at the checkout's root (docs/team-file.md says what it holds)"),
        None => TeamError::bad_file(format!(
            "no team file: {} is in no git checkout, and neither it nor a folder above it holds .agents/team.yaml",
            start.display()
        ))
        .with_repair("a team file lives in a checkout's .agents/team.yaml: run team init in the checkout (docs/team-file.md says what it holds)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `host/tests/team_files/<name>.yaml` loads or fails exactly as `<name>.expect`
    /// says: `ok`, or the whole error message.
    #[test]
    fn fixture_files_load_or_fail_as_expected() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/team_files");
        let mut n = 0;
        let mut wrong = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().and_then(|x| x.to_str()) != Some("yaml") {
                continue;
            }
            n += 1;
            let text = std::fs::read_to_string(&p).unwrap();
            let expect = std::fs::read_to_string(p.with_extension("expect")).unwrap();
            let expect = expect.trim_end();
            let got = match parse(&text) {
                Ok(_) => "ok".to_string(),
                Err(e) => {
                    assert_eq!(e.kind, error::Kind::BadFile);
                    e.message()
                }
            };
            if got != expect {
                wrong.push(format!("{}: expected {expect:?}, got {got:?}", p.display()));
            }
        }
        assert!(n >= 10, "fixtures missing");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn spec_example_reads_the_legacy_coordinator_as_lead() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/team_files");
        let f = parse(&std::fs::read_to_string(dir.join("valid-beacon.yaml")).unwrap()).unwrap();
        assert_eq!(f.project, "beacon");
        assert_eq!(f.team, "beacon");
        assert_eq!(f.session, "beacon");
        assert_eq!(f.seat_names(), vec!["claude-keeper", "gpt-reviewer"]);
        assert!(f.seat("claude-keeper").unwrap().leads);
        assert!(!f.seat("gpt-reviewer").unwrap().leads);
        assert_eq!(f.seat("claude-keeper").unwrap().nickname.as_deref(), Some("agamemnon"));
        assert_eq!(f.seat("gpt-reviewer").unwrap().version.as_deref(), Some("6"));
        assert_eq!(f.seat("gpt-reviewer").unwrap().line, 24);
        assert!(f.notes.is_empty());
    }

    #[test]
    fn full_file_keeps_every_key_and_notes_a_legacy_lead_seat() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/team_files");
        let f = parse(&std::fs::read_to_string(dir.join("valid-full.yaml")).unwrap()).unwrap();
        assert_eq!(f.team, "beacon-web");
        assert_eq!(f.entity.as_deref(), Some("labs"));
        assert_eq!(f.session, "web");
        assert_eq!(f.multiplexer.as_deref(), Some("tmux"));
        assert_eq!(f.delivery_order, Some(vec!["typed".to_string(), "native".to_string()]));
        assert_eq!(f.profiles.get("codex").map(String::as_str), Some("1.4"));
        let b = f.seat("builder-1").unwrap();
        assert!(b.leads && b.assistant && !b.stopped);
        assert_eq!(b.delivery_order, Some(vec!["typed".to_string()]));
        assert_eq!(b.version.as_deref(), Some("6"));
        assert_eq!(f.notes.len(), 1);
        assert!(matches!(f.notes[0], FileNote::LegacyLead { .. }), "{:?}", f.notes);
        assert!(f.notes[0].to_string().contains("team rename lead <new-name>"), "{:?}", f.notes);
    }

    #[test]
    fn seats_with_every_entry_commented_out_is_no_seat() {
        let f = parse("project: beacon\nseats:\n  # - name: a\n  #   cli: codex\n").unwrap();
        assert!(f.seats.is_empty());
        assert!(parse("project: beacon\n").unwrap_err().message().contains("seats: is missing"));
    }

    #[test]
    fn unknown_keys_load_and_are_kept_for_check() {
        let f = parse("project: beacon\nmultiplexor: tmux\nseats:\n  - name: a\n    cli: codex\n").unwrap();
        assert_eq!(f.unknown.len(), 1);
        assert_eq!(f.unknown[0].sentence(), "line 2: unknown key `multiplexor` — did you mean `multiplexer`?");
        assert_eq!(f.lines.line("seats.0.cli"), Some(5));
    }

    #[test]
    fn names_follow_the_grammar() {
        for ok in ["a", "claude-keeper", "gpt.reviewer_2", "0x", &"a".repeat(63)] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in ["", "-a", ".a", "A", "a b", "a/b", "é", &"a".repeat(64)] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn find_walks_up_to_the_git_root_and_no_further() {
        let d = tempfile::tempdir().unwrap();
        let outer = d.path().join("outer");
        let repo = outer.join("repo");
        let deep = repo.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        // a team file above the git root is not this checkout's
        std::fs::create_dir_all(outer.join(".agents")).unwrap();
        std::fs::write(outer.join(".agents/team.yaml"), "project: x\nseats: []\n").unwrap();
        assert!(find(&deep).unwrap().is_none());
        std::fs::create_dir_all(repo.join(".agents")).unwrap();
        std::fs::write(repo.join(".agents/team.yaml"), "project: beacon\nseats:\n  - name: a\n    cli: codex\n")
            .unwrap();
        let l = find(&deep).unwrap().unwrap();
        assert_eq!(l.file.project, "beacon");
        assert_eq!(l.root, repo.canonicalize().unwrap());
        assert_eq!(l.path, repo.canonicalize().unwrap().join(".agents/team.yaml"));
    }

    #[test]
    fn find_refuses_a_symlinked_team_file() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(repo.join(".agents")).unwrap();
        std::fs::write(d.path().join("elsewhere.yaml"), "project: x\nseats: []\n").unwrap();
        std::os::unix::fs::symlink(d.path().join("elsewhere.yaml"), repo.join(".agents/team.yaml")).unwrap();
        let e = find(&repo).unwrap_err();
        assert_eq!(e.kind, error::Kind::BadFile);
        assert!(e.message().contains("symbolic link"), "{}", e.message());
    }
}
