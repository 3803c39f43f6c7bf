//! `team profile check <file>`: a component validated as the host would before using it, in
//! three steps — load (imports, exports, compile), describe (its id and version against the
//! name it is installed under), smoke (a blank screen read without a trap) — each passed or
//! failed with why.
//!
//! Invariant: something that is not a component at all is refused before wasmtime reads it;
//! a step after a failed load is not run (there is nothing to run it on).

use std::path::{Path, PathBuf};

use crate::error::{self, TeamError};
use crate::profiles::{LoadError, LoadFileError, Profile, ProfileHost, Reading, Screen};

/// One step of the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepName {
    Load,
    Describe,
    Smoke,
}

impl StepName {
    pub fn word(self) -> &'static str {
        match self {
            StepName::Load => "load",
            StepName::Describe => "describe",
            StepName::Smoke => "smoke",
        }
    }
}

/// A step and what it found: `Ok(detail)` passed, `Err(why)` failed.
pub struct Step {
    pub name: StepName,
    pub result: Result<String, StepFailure>,
}

/// Why a step failed (its `Display` is the sentence the check shows): a load's typed failure
/// (not built, an interface line this host does not read, a forbidden import, a trap, …), a
/// file that cannot be read, or what the describe or smoke step found.
#[derive(Debug, thiserror::Error)]
pub enum StepFailure {
    #[error("{0}")]
    Load(LoadError),
    #[error("{0}")]
    Unreadable(LoadFileError),
    /// The component names itself otherwise than where it is installed.
    #[error("{0}")]
    Describe(String),
    /// The blank screen could not be read (a trap, a timeout).
    #[error("{0}")]
    Smoke(String),
}

impl StepFailure {
    /// The load's typed failure, when the load step failed for one.
    pub fn load_error(&self) -> Option<&LoadError> {
        match self {
            StepFailure::Load(e) => Some(e),
            _ => None,
        }
    }
}

/// What `team profile check` found.
pub struct CheckReport {
    pub file: PathBuf,
    pub steps: Vec<Step>,
    /// The loaded component, when it loaded.
    pub profile: Option<Profile>,
    /// How the blank screen read, when it read.
    pub smoke: Option<Reading>,
}

impl CheckReport {
    /// Why the first failed step failed; `None` when every step passed.
    pub fn failed(&self) -> Option<&StepFailure> {
        self.steps.iter().find_map(|s| s.result.as_ref().err())
    }

    /// The check's last line: the component can be used, or why not.
    pub fn verdict(&self) -> String {
        match (self.failed(), &self.profile) {
            (None, Some(p)) => format!(
                "ok: {} can be used as the {} profile {}",
                self.file.display(),
                p.describe().id,
                p.describe().version
            ),
            (Some(why), _) => format!("refused: {} cannot be used: {why}", self.file.display()),
            (None, None) => unreachable!("a load error is a failed step"),
        }
    }
}

/// A blank pane, the smoke screen every profile must read without trapping.
fn smoke_screen() -> Screen {
    let blank = vec![String::new(); 40];
    Screen { styled: blank.clone(), plain: blank, title: String::new(), cols: 120, rows: 40, recent: Vec::new() }
}

/// Whether `path` is `<config>/profiles/<id>/<version>.wasm`; then the id and version the
/// host will hold the component to.
fn dropped_in_name(config: &Path, path: &Path) -> Option<(String, String)> {
    let root = config.join("profiles").canonicalize().ok()?;
    let full = path.canonicalize().ok()?;
    let rel = full.strip_prefix(&root).ok()?;
    let parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    match parts.as_slice() {
        [id, file] => Some((id.clone(), file.strip_suffix(".wasm")?.to_string())),
        _ => None,
    }
}

/// `None` when `bytes` begin as a WebAssembly component does; else what they are instead.
fn not_a_component(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0, b'a', b's', b'm', 0x0d, 0x00, 0x01, 0x00, ..] => None,
        [0, b'a', b's', b'm', _, _, 0x00, 0x00, ..] => Some("a WebAssembly core module, not a component"),
        [0, b'a', b's', b'm', ..] => Some("a WebAssembly file of a version this host does not read"),
        _ => Some("not a WebAssembly component"),
    }
}

/// The describe step: the component's id and version against the name it is installed under.
fn describe_step(host: &ProfileHost, file: &Path, p: &Profile) -> Result<String, StepFailure> {
    use crate::profiles::pins::Version;
    let d = p.describe();
    match dropped_in_name(host.config_dir(), file) {
        Some((id, version)) if id != d.id || Version::parse(&version).ok() != Version::parse(&d.version).ok() => {
            Err(StepFailure::Describe(format!(
                "describe() says {} {} but it is installed as {id}/{version}.wasm",
                d.id, d.version
            )))
        }
        _ => Ok(format!(
            "{} {} (clis: {}; max trigger {}; enter pause {} ms)",
            d.id,
            d.version,
            if d.clis.is_empty() { "none".to_string() } else { d.clis.join(", ") },
            d.max_trigger,
            d.enter_pause_ms
        )),
    }
}

/// The smoke step: a blank screen read, and both drop-read questions answered, without a trap.
fn smoke_step(p: &mut Profile) -> error::Result<Reading> {
    let s = smoke_screen();
    let r = p.classify(&s)?;
    p.shows_drop_read(&s, "00000000-0000-4000-8000-000000000000", "read the drop")?;
    p.transcript_shows_drop_read(&[], "00000000-0000-4000-8000-000000000000")?;
    Ok(r)
}

/// `team profile check <file>`: a missing file is a usage error and a file that is not a
/// component a refusal; anything else is a report whose steps say what passed.
pub fn check(host: &ProfileHost, file: &Path) -> error::Result<CheckReport> {
    if !file.exists() {
        return Err(super::no_such_file(file));
    }
    // Something that is not a component at all is said in one line, before wasmtime reads it.
    let mut head = [0u8; 8];
    let n = std::fs::File::open(file).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    if let Some(what) = not_a_component(&head[..n]) {
        return Err(TeamError::refused(format!(
            "{} is {what}: a profile is a component built for wasm32-wasip2 (see docs/writing-a-profile.md)",
            file.display()
        )));
    }
    let mut report = CheckReport { file: file.to_path_buf(), steps: Vec::new(), profile: None, smoke: None };
    let step = |name, result| Step { name, result };
    match host.load_file_typed(file) {
        Ok(p) => {
            let compose = if p.line().has_compose() {
                format!(" and {}", crate::profiles::v0_2::COMPOSE_EXPORT)
            } else {
                String::new()
            };
            report
                .steps
                .push(step(StepName::Load, Ok(format!("imports allowed, exports {}{compose}", p.line().export()))));
            report.profile = Some(p);
        }
        Err(LoadFileError::Unusable { why, .. }) => {
            report.steps.push(step(StepName::Load, Err(StepFailure::Load(why))))
        }
        Err(e @ LoadFileError::Unreadable { .. }) => {
            report.steps.push(step(StepName::Load, Err(StepFailure::Unreadable(e))))
        }
    }
    if let Some(p) = report.profile.as_mut() {
        report.steps.push(step(StepName::Describe, describe_step(host, file, p)));
        match smoke_step(p) {
            Ok(r) => {
                report.steps.push(step(StepName::Smoke, Ok(format!("a blank 120x40 screen reads as {}", r.state))));
                report.smoke = Some(r);
            }
            Err(e) => report.steps.push(step(StepName::Smoke, Err(StepFailure::Smoke(e.message())))),
        }
    }
    Ok(report)
}
