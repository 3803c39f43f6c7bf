//! Screen fixtures (feature `fixtures`): `<dir>/<state>.{ansi,txt,title,meta.json}` loaded into
//! a [`Screen`] and the `expect` block of its meta, and the one check of a [`Reading`] against
//! that expectation. The profiles' native conformance tests, the host's conformance over the
//! built components and `team profile test` (a vendor's conformance run) all apply these rules.
//!
//! A screen folder holds the four files per state (`.txt` may be left out: the plain rows are
//! then the `.ansi` rows stripped), or one level of such folders; `corrections.json` at its
//! root lists expectations judged mis-labelled (fixture, field, value, reason).
//!
//! The rules (one place, no per-fixture exceptions):
//! - `state` must equal the reading's state word;
//! - `dialog` (a kind) is checked when the expected state is `dialog`: a known kind's JSON word
//!   (`vendor_notice`), or any other word for a dialog the profile names itself
//!   (`DialogKind::Other`, such as `codex cloud`'s `chooser`);
//! - `composer`, when present: `null` ⇒ unreadable, `""` ⇒ empty (a placeholder reads empty),
//!   text ⇒ holds exactly that text (wrapped rows unwrapped into one line);
//! - `working_hint`, for an expected `working` state: text ⇒ the reading's hint equals it;
//!   `null` ⇒ the phrase is not drawn, so the hint must not be `esc to interrupt`;
//! - `last_turn_error`: absent or `null` ⇒ none; `rate_limit` and `err429` ⇒ rate-limit;
//!   `provider_error`, `err529` and `connection` ⇒ provider-error (the labels the captures used);
//! - `queued`: the line (or lines) the screen shows queued, exactly; absent ⇒ none;
//! - `title`, when present: the dialog's title, exactly; and whatever the meta says, a dialog's
//!   title is a sentence, never art (`crate::quote`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{Composer, Reading, Screen, State, TurnError};

/// What a fixture's meta says the screen must read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    pub state: String,
    pub dialog: Option<String>,
    /// `None`: not stated; `Some(None)`: no live composer; `Some(Some(t))`: holds `t` (`""` = empty).
    pub composer: Option<Option<String>>,
    /// `None`: not stated; `Some(None)`: no hint phrase drawn; `Some(Some(h))`: this hint.
    pub working_hint: Option<Option<String>>,
    /// The normalised last-turn error, if any.
    pub last_turn_error: Option<TurnError>,
    /// The lines the screen shows queued (none when the meta names none).
    pub queued: Vec<String>,
    /// The dialog's title, exactly, when the meta names one.
    pub title: Option<String>,
}

/// One loaded fixture.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// `<cli>-<version>`, the directory name.
    pub dir: String,
    /// The state's base name (`idle-typed`).
    pub name: String,
    /// `cli` from the meta (`claude-code`, `codex`, `grok-cli`, …).
    pub cli: String,
    pub version: String,
    pub screen: Screen,
    pub expect: Expect,
    /// True when the meta marks the screen as made up from documented phrases.
    pub synthetic: bool,
    /// The real capture this screen was derived from (`<dir>/<state>`: re-wrapped to a narrow
    /// pane, or a capture of another tool re-framed), when it is not a capture itself.
    pub derived_from: Option<String>,
    pub meta: Value,
    /// Corrections applied from `corrections.json`: `(field, reason)`.
    pub corrections: Vec<(String, String)>,
}

impl Fixture {
    /// `<dir>/<name>`, for messages.
    pub fn label(&self) -> String {
        format!("{}/{}", self.dir, self.name)
    }
}

/// How a screens folder is read. The repository's own screens are read plainly ([`Plain`]);
/// `team profile test`, which reads a folder a vendor hands it, reads as the host reads every
/// file (no link, no FIFO, a size cap).
pub trait Files {
    /// A file's text: `Ok(None)` when there is no such file, `Err` naming why it cannot be read.
    fn text(&self, path: &Path) -> Result<Option<String>, String>;
    /// Whether an entry a listing found is a folder to read screens from (`Err`: refused).
    fn is_folder(&self, path: &Path) -> Result<bool, String>;
}

/// Plain reads (links followed): the repository's own screens.
pub struct Plain;

impl Files for Plain {
    fn text(&self, path: &Path) -> Result<Option<String>, String> {
        match std::fs::read_to_string(path) {
            Ok(t) => Ok(Some(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
    fn is_folder(&self, path: &Path) -> Result<bool, String> {
        Ok(path.is_dir())
    }
}

/// A file that must be there.
fn needed(files: &dyn Files, p: &Path) -> Result<String, String> {
    files.text(p)?.ok_or_else(|| format!("{}: No such file or directory (os error 2)", p.display()))
}

fn lines(s: &str) -> Vec<String> {
    s.lines().map(|l| l.trim_end_matches('\r').to_string()).collect()
}

fn normalise_error(v: &Value) -> Result<Option<TurnError>, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => match s.as_str() {
            "rate_limit" | "err429" => Ok(Some(TurnError::RateLimit)),
            "provider_error" | "err529" | "connection" => Ok(Some(TurnError::ProviderError)),
            other => Err(format!("unknown last_turn_error label {other:?}")),
        },
        other => Err(format!("last_turn_error is not a string: {other}")),
    }
}

fn opt_string(v: Option<&Value>) -> Option<Option<String>> {
    match v {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(other) => Some(Some(other.to_string())),
    }
}

/// Loads one fixture from `dir/<name>.*`, with the corrections `root/corrections.json` lists
/// for it (its label is `dir` relative to `root`, then `/<name>`).
pub fn load(root: &Path, dir: &Path, name: &str) -> Result<Fixture, String> {
    load_with(&Plain, &corrections(&Plain, root)?, root, dir, name)
}

/// [`load`] through `files`, with the corrections already read.
fn load_with(files: &dyn Files, fixes: &[Value], root: &Path, dir: &Path, name: &str) -> Result<Fixture, String> {
    let meta_text = needed(files, &dir.join(format!("{name}.meta.json")))?;
    let meta: Value =
        serde_json::from_str(&meta_text).map_err(|e| format!("{}/{name}.meta.json: {e}", dir.display()))?;
    let ansi = files.text(&dir.join(format!("{name}.ansi")))?.unwrap_or_default();
    let title = files.text(&dir.join(format!("{name}.title")))?.unwrap_or_default();
    let styled = lines(&ansi);
    let plain = match files.text(&dir.join(format!("{name}.txt")))? {
        Some(txt) => lines(&txt),
        None if !styled.is_empty() => crate::plain_rows(&styled),
        None => return Err(format!("{}/{name}.txt: No such file or directory (os error 2)", dir.display())),
    };
    let cols = meta.get("cols").and_then(Value::as_u64).unwrap_or(0) as u32;
    let rows = meta.get("rows").and_then(Value::as_u64).unwrap_or(plain.len() as u64) as u32;
    let screen = Screen {
        styled,
        plain,
        title: title.trim_end_matches(['\n', '\r']).to_string(),
        cols,
        rows,
        recent: Vec::new(),
    };
    let mut e = meta.get("expect").cloned().unwrap_or(Value::Null);
    let dir_name = dir.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut corrections = Vec::new();
    let rel = dir.strip_prefix(root).ok().map(|p| p.to_string_lossy().into_owned()).unwrap_or(dir_name.clone());
    let label = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
    for (field, value, reason) in corrections_for(fixes, &label)? {
        if let Value::Object(map) = &mut e {
            map.insert(field.clone(), value);
        }
        corrections.push((field, reason));
    }
    let expect = Expect {
        state: e.get("state").and_then(Value::as_str).unwrap_or("").to_string(),
        dialog: e.get("dialog").and_then(Value::as_str).map(str::to_string),
        composer: opt_string(e.get("composer")),
        working_hint: opt_string(e.get("working_hint")),
        last_turn_error: normalise_error(e.get("last_turn_error").unwrap_or(&Value::Null))
            .map_err(|m| format!("{}/{name}: {m}", dir.display()))?,
        queued: match e.get("queued") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(q)) => vec![q.clone()],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Some(other) => return Err(format!("{}/{name}: queued is not text: {other}", dir.display())),
        },
        title: e.get("title").and_then(Value::as_str).map(str::to_string),
    };
    Ok(Fixture {
        dir: dir_name,
        name: name.to_string(),
        cli: meta.get("cli").and_then(Value::as_str).unwrap_or("").to_string(),
        version: meta.get("version").and_then(Value::as_str).unwrap_or("").to_string(),
        screen,
        expect,
        synthetic: meta.get("synthetic").and_then(Value::as_bool).unwrap_or(false),
        derived_from: meta.get("derived_from").and_then(Value::as_str).map(str::to_string),
        meta,
        corrections,
    })
}

/// Every correction `root/corrections.json` lists (none without the file), read once a load.
fn corrections(files: &dyn Files, root: &Path) -> Result<Vec<Value>, String> {
    let path = root.join("corrections.json");
    let Some(text) = files.text(&path)? else { return Ok(Vec::new()) };
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(doc.get("corrections").and_then(Value::as_array).cloned().unwrap_or_default())
}

/// The corrections listed for `<dir>/<state>`: `(field, value, reason)`.
fn corrections_for(fixes: &[Value], label: &str) -> Result<Vec<(String, Value, String)>, String> {
    let mut out = Vec::new();
    for c in fixes {
        if c.get("fixture").and_then(Value::as_str) == Some(label) {
            let field = c.get("field").and_then(Value::as_str).ok_or("a correction without field")?.to_string();
            let reason = c.get("reason").and_then(Value::as_str).unwrap_or("").to_string();
            out.push((field, c.get("value").cloned().unwrap_or(Value::Null), reason));
        }
    }
    Ok(out)
}

/// Every fixture in one directory (corrections from `root`), sorted by name.
pub fn load_dir(root: &Path, dir: &Path) -> Result<Vec<Fixture>, String> {
    load_dir_with(&Plain, &corrections(&Plain, root)?, root, dir)
}

fn load_dir_with(files: &dyn Files, fixes: &[Value], root: &Path, dir: &Path) -> Result<Vec<Fixture>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".meta.json")).map(str::to_string))
        .collect();
    names.sort();
    names.iter().map(|n| load_with(files, fixes, root, dir, n)).collect()
}

/// Every fixture in `root` and in its subfolders (one level; `tools` aside), sorted by folder
/// and name.
pub fn load_tree(root: &Path) -> Result<Vec<Fixture>, String> {
    load_tree_with(&Plain, root)
}

/// [`load_tree`] through `files`: every file and folder it reads is read by `files`.
pub fn load_tree_with(files: &dyn Files, root: &Path) -> Result<Vec<Fixture>, String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root)
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.file_name().map(|n| n != "tools").unwrap_or(false))
        .collect();
    entries.sort();
    let mut dirs = Vec::new();
    for p in entries {
        if files.is_folder(&p)? {
            dirs.push(p);
        }
    }
    let fixes = corrections(files, root)?;
    let mut out = load_dir_with(files, &fixes, root, root)?;
    for d in dirs {
        out.extend(load_dir_with(files, &fixes, root, &d)?);
    }
    Ok(out)
}

/// Compares `reading` with the fixture's expectation; `Err` lists every mismatch.
pub fn check(expect: &Expect, reading: &Reading) -> Result<(), String> {
    let mut bad: Vec<String> = Vec::new();
    let got_state = reading.state.word();
    if got_state != expect.state {
        bad.push(format!("state: expected {}, read {:?}", expect.state, reading.state));
    }
    if expect.state == "dialog" {
        let got = match &reading.state {
            State::Dialog(d) => Some(d.kind.other_name().unwrap_or(d.kind.word())),
            _ => None,
        };
        if got != expect.dialog.as_deref() {
            bad.push(format!("dialog: expected {:?}, read {:?}", expect.dialog, got));
        }
    }
    // a dialog's title is quoted evidence: a sentence, never art (`crate::quote`)
    if let State::Dialog(d) = &reading.state {
        if !d.title.is_empty() && !crate::quote::is_sentence(&d.title) {
            bad.push(format!("title: {:?} is not a sentence (art is never quoted)", d.title));
        }
        if let Some(t) = expect.title.as_ref().filter(|t| **t != d.title) {
            bad.push(format!("title: expected {t:?}, read {:?}", d.title));
        }
    }
    if let Some(c) = &expect.composer {
        let ok = match (c, &reading.composer) {
            (None, Composer::Unreadable) => true,
            (Some(t), Composer::Empty) => t.is_empty(),
            (Some(t), Composer::Holds(h)) => !t.is_empty() && t == h,
            _ => false,
        };
        if !ok {
            bad.push(format!("composer: expected {:?}, read {:?}", c, reading.composer));
        }
    }
    if expect.state == "working" {
        if let (Some(h), State::Working(got)) = (&expect.working_hint, &reading.state) {
            match h {
                Some(h) if h != got => bad.push(format!("working hint: expected {h:?}, read {got:?}")),
                None if got == "esc to interrupt" => {
                    bad.push("working hint: expected no drawn hint phrase, read \"esc to interrupt\"".to_string())
                }
                _ => {}
            }
        }
    }
    if expect.queued != reading.queued {
        bad.push(format!("queued: expected {:?}, read {:?}", expect.queued, reading.queued));
    }
    if expect.last_turn_error != reading.last_error {
        bad.push(format!("last turn error: expected {:?}, read {:?}", expect.last_turn_error, reading.last_error));
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("; "))
    }
}

/// Runs `classify` over `fixtures` and returns one line per failing fixture (empty: all pass).
pub fn conformance(fixtures: &[Fixture], classify: impl Fn(&Screen) -> Reading) -> Vec<String> {
    let mut failures = Vec::new();
    for f in fixtures {
        let r = classify(&f.screen);
        if let Err(m) = check(&f.expect, &r) {
            failures.push(format!("{}: {m} (why: {})", f.label(), r.why));
        }
    }
    failures
}
