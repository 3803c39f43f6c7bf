//! The wasmtime profile host: bundled and dropped-in components, team pins, the cache of
//! precompiled code, and the sandbox every profile call runs in (docs/DESIGN.md §6).
//!
//! Invariants:
//! - a profile only reads: it is given no WASI capability (`sandbox`), each call is bounded
//!   in time (`engine::CALL_BUDGET`) and memory (`sandbox::MEMORY_LIMIT`), and a trap is an
//!   error reading ("this profile could not read the screen: …"), never a crash; the trapped
//!   instance is dropped and a fresh one serves the next call;
//! - a component is validated before any of its readings is used: imports against the
//!   allowlist, exports type-checked against the world, `describe()` id and version against
//!   where it came from;
//! - only the profiles a command needs are compiled or instantiated: `ProfileHost::new` does
//!   no wasm work, `available()` validates only dropped-in files, `load` one component.
//!
//! One `bindgen!` module per supported WIT line (`v0_1`, frozen; `v0_2`), each with the one
//! conversion of its types into the shared vocabulary (`profile-reading`, re-exported here);
//! `instance` holds one enum over the lines, so callers see only the vocabulary.

pub mod cache;
pub mod engine;
pub mod failure;
mod instance;
pub mod launch;
pub mod pins;
pub mod precheck;
pub mod sandbox;
pub mod store;
pub mod v0_1;
pub mod v0_2;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{self, TeamError};
pub use cache::CacheUse;
pub use failure::{LoadError, NoProfile, NoneUsable, PassedOver};
use instance::Instance;
pub use instance::Line;
pub use profile_reading::{
    Action, Composer, Description, Dialog, DialogKind, Evidence, Key, Probe, Reading, Repo, Screen, State, Step,
    TurnError,
};
pub use store::{Available, Source};

/// Why one named component file cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadFileError {
    /// The file cannot be read (missing, a link, too large, …).
    #[error("{}: {error}", path.display())]
    Unreadable { path: PathBuf, error: std::io::Error },
    /// It was read, and the host would not use it: `why` is the check that failed.
    #[error("{} is not a usable profile: {why}", path.display())]
    Unusable { path: PathBuf, why: LoadError },
}

impl From<LoadFileError> for TeamError {
    fn from(e: LoadFileError) -> TeamError {
        match e {
            LoadFileError::Unreadable { .. } => TeamError::failed(e.to_string()),
            LoadFileError::Unusable { .. } => TeamError::refused(e.to_string()),
        }
    }
}

/// The engine and cache profiles load through; cheap to create (no wasm work until a load).
pub struct ProfileHost {
    config: PathBuf,
    cache_root: PathBuf,
}

/// A loaded, validated profile with a live instance (re-made after a trap).
pub struct Profile {
    instance: Instance,
    description: Description,
    source: Source,
    sha256: String,
    cache_use: CacheUse,
    notes: Vec<String>,
    pin: Option<String>,
}

impl ProfileHost {
    /// A host over `<config>/profiles` and `<cache>/profiles`.
    pub fn new(paths: &crate::paths::Paths) -> Self {
        Self::with_dirs(paths.config.clone(), paths.cache.clone())
    }

    /// A host over explicit folders (tests).
    pub fn with_dirs(config: PathBuf, cache_root: PathBuf) -> Self {
        ProfileHost { config, cache_root }
    }

    /// The `<config>` folder dropped-in profiles live under (`<config>/profiles/<id>/`).
    pub fn config_dir(&self) -> &Path {
        &self.config
    }

    /// The ids of every installed profile, bundled and dropped in (valid or not); nothing is
    /// loaded or hashed.
    pub fn installed_ids(&self) -> std::collections::BTreeSet<String> {
        store::candidates(&self.config, None).into_iter().map(|c| c.id).collect()
    }

    /// Every installed profile: bundled ones (built and tested with this binary, listed
    /// without loading) and dropped-in ones (each validated as `load` would; an invalid one
    /// is listed with why).
    pub fn available(&self) -> Vec<Available> {
        let mut out = Vec::new();
        for c in store::candidates(&self.config, None) {
            let validity = match &c.source {
                Source::Bundled => c.version.as_ref().map(|_| ()).map_err(Clone::clone),
                Source::Path(_) => match &c.version {
                    Err(e) => Err(e.clone()),
                    Ok(_) => self.load_candidate(&c).map(|_| ()),
                },
            };
            out.push(Available {
                id: c.id.clone(),
                version: c.version_text.clone(),
                source: c.source.clone(),
                validity,
            });
        }
        out
    }

    /// The profile for `cli`, honouring the team's pin for it (`pins[cli]`, see `pins` for
    /// the grammar): the highest satisfying version among bundled and dropped-in components
    /// that validates. A pin nothing satisfies, or no installed profile, is a refusal naming
    /// what is installed.
    pub fn load(&self, cli: &str, pins: &BTreeMap<String, String>) -> error::Result<Profile> {
        self.load_typed(cli, pins).map_err(TeamError::from)
    }

    /// [`ProfileHost::load`], its failure typed: what refused before any component was tried,
    /// or each component tried and its [`LoadError`] (`team status` keeps it so).
    pub fn load_typed(&self, cli: &str, pins: &BTreeMap<String, String>) -> Result<Profile, NoProfile> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all).map_err(NoProfile::Select)?;
        let mut tried = Vec::new();
        for c in order {
            match self.load_candidate(c) {
                Ok(mut p) => {
                    p.notes = tried.iter().map(ToString::to_string).collect();
                    p.pin = pins.get(cli).cloned();
                    return Ok(p);
                }
                Err(why) => tried.push(passed_over(c, why)),
            }
        }
        Err(NoProfile::NoneUsable(NoneUsable { cli: cli.to_string(), tried }))
    }

    /// Which of `available` (from `available()`) `load(cli, pins)` would use, without
    /// loading anything: the first valid one in `load`'s order.
    pub fn resolve<'a>(
        &self,
        cli: &str,
        pins: &BTreeMap<String, String>,
        available: &'a [Available],
    ) -> error::Result<&'a Available> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all)?;
        let mut tried = Vec::new();
        for c in order {
            if let Some(a) =
                available.iter().find(|a| a.id == c.id && a.version == c.version_text && a.source == c.source)
            {
                match &a.validity {
                    Ok(()) => return Ok(a),
                    Err(why) => tried.push(passed_over(c, why.clone())),
                }
            }
        }
        Err(NoneUsable { cli: cli.to_string(), tried }.into())
    }

    /// Loads one component file (for `--profile` and `team profile check`): validated like a
    /// dropped-in one, except that its id and version need not match its file name.
    pub fn load_file(&self, path: &Path) -> error::Result<Profile> {
        self.load_file_typed(path).map_err(TeamError::from)
    }

    /// [`ProfileHost::load_file`], saying apart a file that cannot be read from a component
    /// that cannot be used (`team profile check` reports the second as its failed step).
    pub fn load_file_typed(&self, path: &Path) -> Result<Profile, LoadFileError> {
        let bytes = store::read_component(path)
            .map_err(|error| LoadFileError::Unreadable { path: path.to_path_buf(), error })?;
        let sha = cache::sha256_hex(&bytes);
        self.instantiate(&bytes, &sha, Source::Path(path.to_path_buf()), None)
            .map_err(|why| LoadFileError::Unusable { path: path.to_path_buf(), why })
    }

    fn load_candidate(&self, c: &store::Candidate) -> Result<Profile, LoadError> {
        let bytes = c.bytes()?;
        let sha = match c.sha256 {
            Some(s) => s.to_string(),
            None => cache::sha256_hex(&bytes),
        };
        self.instantiate(&bytes, &sha, c.source.clone(), Some((&c.id, &c.version_text)))
    }

    /// Compile (or take from the cache), check imports and exports, instantiate, describe,
    /// and check the description against `expect` (id, version) when given.
    fn instantiate(
        &self,
        wasm: &[u8],
        sha256: &str,
        source: Source,
        expect: Option<(&str, &str)>,
    ) -> Result<Profile, LoadError> {
        // A bundled component was checked when it was built; any other is read for its
        // imports and exports before the compiler sees it (a refusal takes milliseconds).
        if !matches!(source, Source::Bundled) {
            precheck::check(wasm)?;
        }
        let engine = engine::engine()?;
        let cache = cache::Cache::new(engine, self.cache_root.clone());
        let (component, cache_use) =
            cache.component(engine, wasm, sha256).map_err(|e| LoadError::Uncompilable(format!("{e:#}")))?;
        sandbox::check_imports(engine, &component)?;
        let exports: Vec<String> = component.component_type().exports(engine).map(|(n, _)| n.to_string()).collect();
        let line = Line::of_exports(&exports)?;
        let mut p = Profile {
            instance: Instance::prepare(engine, &component, line)?,
            description: Description::default(),
            source,
            sha256: sha256.to_string(),
            cache_use,
            notes: Vec::new(),
            pin: None,
        };
        let d = p.instance.describe().map_err(|e| LoadError::Trapped(e.message()))?;
        check_compose(&d, line)?;
        check_description(&d, expect)?;
        // Written once (a write is an fsync: milliseconds a warm run must not pay).
        if cache::read_description(&self.cache_root, sha256).as_ref() != Some(&d) {
            cache::write_description(&self.cache_root, sha256, &d);
        }
        p.description = d;
        Ok(p)
    }

    /// The description of every installed profile id (the one `load(id, pins)` would use),
    /// read as cheaply as [`ProfileHost::description`] reads one; an id none of whose
    /// components can be used is left out.
    pub fn descriptions(&self, pins: &BTreeMap<String, String>) -> Vec<Description> {
        self.installed_ids().iter().filter_map(|id| self.description(id, pins).ok().map(|(d, _)| d)).collect()
    }

    /// What the profile `load(cli, pins)` would use says about itself, read cheaply: a bundled
    /// profile's from the description embedded at build time (nothing loaded, hashed or
    /// written); a dropped-in one's from the description cache when that component validated
    /// before (no wasm compiled or run; the file is hashed), else by loading it once (which
    /// fills the cache).
    pub fn description(&self, cli: &str, pins: &BTreeMap<String, String>) -> error::Result<(Description, Source)> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all)?;
        let mut tried = Vec::new();
        for c in order {
            if let Some(d) = c.description.and_then(|j| serde_json::from_str::<Description>(j).ok()) {
                if check_description(&d, Some((&c.id, &c.version_text))).is_ok() {
                    return Ok((d, c.source.clone()));
                }
            }
            let sha = match c.sha256 {
                Some(s) => Some(s.to_string()),
                None => c.bytes().ok().map(|b| cache::sha256_hex(&b)),
            };
            if let Some(d) = sha.as_deref().and_then(|s| cache::read_description(&self.cache_root, s)) {
                if check_description(&d, Some((&c.id, &c.version_text))).is_ok() {
                    return Ok((d, c.source.clone()));
                }
            }
            match self.load_candidate(c) {
                Ok(p) => return Ok((p.description, p.source)),
                Err(why) => tried.push(passed_over(c, why.clone())),
            }
        }
        Err(NoneUsable { cli: cli.to_string(), tried }.into())
    }
}

/// The candidates for `cli` that the team's pin accepts, best first: highest version, and on
/// a tie the dropped-in file (the user's deliberate choice). Unpinned, every release comes
/// before any pre-release, so an installed beta is used only when nothing else is (or when
/// a pin names it). A bad pin is a bad team file;
/// no installed profile, or none the pin accepts, is a refusal naming what is installed.
fn select<'a>(
    config: &Path,
    cli: &str,
    pins: &BTreeMap<String, String>,
    all: &'a [store::Candidate],
) -> error::Result<Vec<&'a store::Candidate>> {
    let pin = match pins.get(cli) {
        Some(text) => Some(pins::Requirement::parse(text).map_err(|e| {
            TeamError::bad_file(format!("profiles: {cli}: {e}"))
                .with_repair("a pin is a version prefix such as \"1.4\" (1.4.x), or comparators such as \">=1.2, <2\"")
        })?),
        None => None,
    };
    let installed =
        || all.iter().map(|c| format!("{} {} ({})", c.id, c.version_text, c.source)).collect::<Vec<_>>().join(", ");
    if all.is_empty() {
        return Err(TeamError::refused(format!(
            "no profile for cli \"{cli}\" is installed; installed: {}",
            store::installed_summary(config)
        )));
    }
    let mut fitting: Vec<&store::Candidate> = all
        .iter()
        .filter(|c| match (&c.version, &pin) {
            (Ok(v), Some(req)) => req.matches(v),
            (Ok(_), None) => true,
            (Err(_), _) => false,
        })
        .collect();
    if fitting.is_empty() {
        return Err(TeamError::refused(match &pin {
            Some(req) => format!(
                "the team pins {cli} to \"{req}\" and no installed {cli} profile satisfies it; installed: {}",
                installed()
            ),
            None => format!("no usable {cli} profile is installed; installed: {}", installed()),
        }));
    }
    fitting.sort_by(|a, b| {
        let (va, vb) = (a.version.as_ref().expect("filtered"), b.version.as_ref().expect("filtered"));
        // Releases before pre-releases (only reachable unpinned: a pin names its pre-release).
        va.pre
            .is_empty()
            .cmp(&vb.pre.is_empty())
            .reverse()
            .then_with(|| vb.cmp(va))
            .then_with(|| matches!(a.source, Source::Bundled).cmp(&matches!(b.source, Source::Bundled)))
    });
    Ok(fitting)
}

/// `c`, passed over for `why`.
fn passed_over(c: &store::Candidate, why: LoadError) -> PassedOver {
    PassedOver { label: format!("{} {} ({})", c.id, c.version_text, c.source), why }
}

/// A description refused, in its words.
fn bad(why: String) -> LoadError {
    LoadError::BadDescription(why)
}

/// `has-compose` is true exactly when the component exports compose.
fn check_compose(d: &Description, line: Line) -> Result<(), LoadError> {
    match (d.has_compose, line.has_compose()) {
        (true, false) => Err(bad(format!(
            "describe() says has-compose, but it does not export `{}` (world `composer`)",
            v0_2::COMPOSE_EXPORT
        ))),
        (false, true) => {
            Err(bad(format!("it exports `{}` but describe() says has-compose false", v0_2::COMPOSE_EXPORT)))
        }
        _ => Ok(()),
    }
}

/// The longest pause before Enter a profile may declare: its CLI's need is tens of
/// milliseconds (Codex: 50 ms); the seat's lock is held across it.
pub const MAX_ENTER_PAUSE_MS: u32 = 2_000;

/// How many transcript patterns a profile may declare, and how many of a pattern's path
/// segments may be wildcards (`*` or a date word): Codex's own uses four.
pub const MAX_TRANSCRIPT_PATTERNS: usize = 4;
pub const MAX_PATTERN_WILDCARDS: usize = 4;

/// Checks one transcript pattern: under the seat's home or folder, climbing nowhere, a
/// bounded number of wildcard segments — so watching it never walks the file system.
fn check_pattern(p: &str) -> Result<(), LoadError> {
    let shown = crate::vocab::text::one_line(p);
    if p.len() > 512 {
        return Err(bad(format!("describe() declares a transcript pattern of {} bytes (at most 512)", p.len())));
    }
    if !(p.starts_with("{home}/") || p.starts_with("{cwd}/")) {
        return Err(bad(format!(
            "describe() declares the transcript pattern \"{shown}\", which does not start at {{home}}/ or {{cwd}}/ (a pattern is read under the seat's own home or folder, never across the file system)"
        )));
    }
    let segs: Vec<&str> = p.split('/').collect();
    if segs.iter().any(|s| *s == ".." || *s == "." || s.is_empty()) {
        return Err(bad(format!("describe() declares the transcript pattern \"{shown}\", which climbs out of its folder or has an empty part")));
    }
    let wild = segs.iter().filter(|s| s.contains('*') || ["{yyyy}", "{mm}", "{dd}"].contains(s)).count();
    if wild > MAX_PATTERN_WILDCARDS {
        return Err(bad(format!(
            "describe() declares the transcript pattern \"{shown}\" with {wild} wildcard parts (at most {MAX_PATTERN_WILDCARDS})"
        )));
    }
    Ok(())
}

/// What the host bounds in a description, whatever the component: the pause before Enter and
/// the transcript patterns (a profile is refused, at `team profile check` and at load, rather
/// than trusted with a 49-day pause under the seat lock or a pattern that walks every folder).
fn check_bounds(d: &Description) -> Result<(), LoadError> {
    if d.enter_pause_ms > MAX_ENTER_PAUSE_MS {
        return Err(bad(format!(
            "describe() declares a pause of {} ms before Enter; the host allows at most {MAX_ENTER_PAUSE_MS} ms",
            d.enter_pause_ms
        )));
    }
    if d.transcript_patterns.len() > MAX_TRANSCRIPT_PATTERNS {
        return Err(bad(format!(
            "describe() declares {} transcript patterns (at most {MAX_TRANSCRIPT_PATTERNS})",
            d.transcript_patterns.len()
        )));
    }
    d.transcript_patterns.iter().try_for_each(|p| check_pattern(p))
}

fn check_description(d: &Description, expect: Option<(&str, &str)>) -> Result<(), LoadError> {
    check_bounds(d)?;
    if !store::valid_id(&d.id) {
        return Err(bad(format!("describe() names id \"{}\", which is not a profile id ([a-z0-9][a-z0-9._-]*)", d.id)));
    }
    let v = pins::Version::parse(&d.version).map_err(|e| bad(format!("describe() names version {e}")))?;
    if let Some((id, version)) = expect {
        if d.id != id {
            return Err(bad(format!("describe() says id \"{}\" but it is installed as \"{id}\"", d.id)));
        }
        if pins::Version::parse(version).map(|w| w != v).unwrap_or(true) {
            return Err(bad(format!("describe() says version {} but it is installed as {version}", d.version)));
        }
    }
    Ok(())
}

impl Profile {
    /// What the profile says about itself.
    pub fn describe(&self) -> &Description {
        &self.description
    }

    /// Where it was loaded from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The component's sha256 (hex).
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Whether its code came from the precompiled cache.
    pub fn cache_use(&self) -> CacheUse {
        self.cache_use
    }

    /// Candidates that satisfied the pin but were skipped, with why.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The team's pin that chose it, when there was one.
    pub fn pin(&self) -> Option<&str> {
        self.pin.as_deref()
    }

    /// The `team:profile` line the component speaks.
    pub fn line(&self) -> Line {
        self.instance.line()
    }

    /// One look at a screen: what it shows and, for `probe`, whether it shows the drop read
    /// (one guest call on 0.2).
    pub fn read(&mut self, screen: &Screen, probe: &Probe) -> error::Result<Reading> {
        self.instance.read(screen, probe, &self.description.features)
    }

    /// Reads one screen with no drop to look for.
    pub fn classify(&mut self, screen: &Screen) -> error::Result<Reading> {
        self.read(screen, &Probe::default())
    }

    /// Whether a screen row names the drop `id` and is not the echo of `trigger` (prefer
    /// [`read`](Self::read), which answers it in the same look).
    pub fn shows_drop_read(&mut self, screen: &Screen, id: &str, trigger: &str) -> error::Result<bool> {
        if id.is_empty() {
            return Ok(false);
        }
        Ok(self.read(screen, &Probe::new(id, trigger))?.drop_read)
    }

    /// Whether session-transcript rows prove the drop `id` was read.
    pub fn transcript_shows_drop_read(&mut self, rows: &[String], id: &str) -> error::Result<bool> {
        self.instance.transcript_shows_drop_read(rows, id)
    }

    /// The compose module's next action, or `None` when the profile has no compose module.
    pub fn compose_next(
        &mut self,
        brief: &str,
        repo: &Repo,
        screen: &Screen,
        step: &Step,
    ) -> Option<error::Result<Action>> {
        self.instance.compose_next(brief, repo, screen, step)
    }

    /// The compose module's plan for `repo`, one sentence a step; `None` without a compose module.
    pub fn compose_plan(&mut self, repo: &Repo) -> Option<error::Result<Vec<String>>> {
        self.instance.compose_plan(repo)
    }
}

#[cfg(test)]
mod bounds_tests {
    use super::*;

    #[test]
    fn the_host_bounds_the_pause_and_the_patterns() {
        let ok = Description {
            enter_pause_ms: 50,
            transcript_patterns: vec!["{home}/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl".into()],
            ..Default::default()
        };
        assert!(check_bounds(&ok).is_ok());
        let e = check_bounds(&Description { enter_pause_ms: u32::MAX, ..ok.clone() }).unwrap_err().to_string();
        assert_eq!(e, "describe() declares a pause of 4294967295 ms before Enter; the host allows at most 2000 ms");
        for (p, says) in [
            ("/*/*/*/*/*", "does not start at {home}/ or {cwd}/"),
            ("{home}/../../*", "climbs out of its folder"),
            ("{home}/*/*/*/*/*.jsonl", "with 5 wildcard parts (at most 4)"),
        ] {
            let e = check_bounds(&Description { transcript_patterns: vec![p.into()], ..ok.clone() })
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{p}: {e}");
        }
    }
}

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
