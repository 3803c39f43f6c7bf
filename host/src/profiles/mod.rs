//! The wasmtime profile host: bundled and dropped-in components, team pins, the cache of
//! precompiled code, and the sandbox every profile call runs in (DESIGN.md §6).
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
//! One `bindgen!` module per supported WIT version (`v0_1` today). A later `v0_2` gets its
//! own module and `Profile` grows a variant per version; callers see only `types`.

pub mod cache;
pub mod engine;
pub mod pins;
pub mod sandbox;
pub mod store;
pub mod types;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use wasmtime::{Store, Trap};

use crate::outcome::{self, TeamError};
pub use cache::CacheUse;
use sandbox::HostState;
pub use types::{Available, Composer, Description, Dialog, DialogKind, Reading, Screen, Source, State, TurnError};

/// Bindings for `team:profile@0.1.0` (wit/v0.1), world `profile`.
pub mod v0_1 {
    wasmtime::component::bindgen!({ path: "../wit/v0.1", world: "profile" });

    /// The interface export a v0.1 profile carries.
    pub const EXPORT: &str = "team:profile/classifier@0.1.0";
    /// The export versions this module reads (`0.1.x` are compatible).
    pub const LINE: &str = "0.1.";
}

use v0_1::exports::team::profile::classifier as c01;
use v0_1::team::profile::types as t01;

/// The engine and cache profiles load through; cheap to create (no wasm work until a load).
pub struct ProfileHost {
    config: PathBuf,
    cache_root: PathBuf,
}

/// A loaded, validated profile with a live instance (re-made after a trap).
pub struct Profile {
    pre: v0_1::ProfilePre<HostState>,
    live: Option<(Store<HostState>, v0_1::Profile)>,
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
    pub fn load(&self, cli: &str, pins: &BTreeMap<String, String>) -> outcome::Result<Profile> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all)?;
        let mut notes = Vec::new();
        for c in order {
            match self.load_candidate(c) {
                Ok(mut p) => {
                    p.notes = notes;
                    p.pin = pins.get(cli).cloned();
                    return Ok(p);
                }
                Err(why) => notes.push(format!("{} {} ({}) was not used: {why}", c.id, c.version_text, c.source)),
            }
        }
        Err(TeamError::refused(format!("no installed {cli} profile can be used: {}", notes.join("; "))))
    }

    /// Which of `available` (from `available()`) `load(cli, pins)` would use, without
    /// loading anything: the first valid one in `load`'s order.
    pub fn resolve<'a>(
        &self,
        cli: &str,
        pins: &BTreeMap<String, String>,
        available: &'a [Available],
    ) -> outcome::Result<&'a Available> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all)?;
        let mut notes = Vec::new();
        for c in order {
            if let Some(a) =
                available.iter().find(|a| a.id == c.id && a.version == c.version_text && a.source == c.source)
            {
                match &a.validity {
                    Ok(()) => return Ok(a),
                    Err(why) => notes.push(format!("{} {} ({}) was not used: {why}", c.id, c.version_text, c.source)),
                }
            }
        }
        Err(TeamError::refused(format!("no installed {cli} profile can be used: {}", notes.join("; "))))
    }

    /// Loads one component file (for `--profile` and `team profile check`): validated like a
    /// dropped-in one, except that its id and version need not match its file name.
    pub fn load_file(&self, path: &Path) -> outcome::Result<Profile> {
        let bytes = store::read_component(path).map_err(|e| TeamError::failed(format!("{}: {e}", path.display())))?;
        let sha = cache::sha256_hex(&bytes);
        self.instantiate(&bytes, &sha, Source::Path(path.to_path_buf()), None)
            .map_err(|why| TeamError::refused(format!("{} is not a usable profile: {why}", path.display())))
    }

    fn load_candidate(&self, c: &store::Candidate) -> Result<Profile, String> {
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
    ) -> Result<Profile, String> {
        let engine = engine::engine()?;
        let cache = cache::Cache::new(engine, self.cache_root.clone());
        let (component, cache_use) = cache
            .component(engine, wasm, sha256)
            .map_err(|e| format!("it is not a valid WebAssembly component: {e:#}"))?;
        sandbox::check_imports(engine, &component)?;
        let exports: Vec<String> = component.component_type().exports(engine).map(|(n, _)| n.to_string()).collect();
        match exports.iter().find(|n| sandbox::split_name(n).0 == "team:profile/classifier") {
            None => {
                let has = if exports.is_empty() {
                    "nothing".to_string()
                } else {
                    exports.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                };
                return Err(format!("it does not export `{}` (world `profile`); it exports {has}", v0_1::EXPORT));
            }
            Some(n) if !sandbox::split_name(n).1.starts_with(v0_1::LINE) => {
                return Err(format!(
                    "it exports `{n}`, a version of the profile interface this host does not read (it reads 0.1.x)"
                ));
            }
            Some(_) => {}
        }
        let linker = sandbox::linker(engine, &component).map_err(|e| format!("its imports cannot be linked: {e:#}"))?;
        let pre = linker
            .instantiate_pre(&component)
            .and_then(v0_1::ProfilePre::new)
            .map_err(|e| format!("it does not match the `profile` world of team:profile@0.1.0: {e:#}"))?;
        let mut p = Profile {
            pre,
            live: None,
            description: Description::default(),
            source,
            sha256: sha256.to_string(),
            cache_use,
            notes: Vec::new(),
            pin: None,
        };
        let d = p.call(|g, s| g.call_describe(s)).map_err(|e| format!("describe() failed: {}", e.message))?;
        let d = description_from(d);
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
    pub fn description(&self, cli: &str, pins: &BTreeMap<String, String>) -> outcome::Result<(Description, Source)> {
        let all = store::candidates(&self.config, Some(cli));
        let order = select(&self.config, cli, pins, &all)?;
        let mut notes = Vec::new();
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
                Err(why) => notes.push(format!("{} {} ({}) was not used: {why}", c.id, c.version_text, c.source)),
            }
        }
        Err(TeamError::refused(format!("no installed {cli} profile can be used: {}", notes.join("; "))))
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
) -> outcome::Result<Vec<&'a store::Candidate>> {
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

fn check_description(d: &Description, expect: Option<(&str, &str)>) -> Result<(), String> {
    if !store::valid_id(&d.id) {
        return Err(format!("describe() names id \"{}\", which is not a profile id ([a-z0-9][a-z0-9._-]*)", d.id));
    }
    let v = pins::Version::parse(&d.version).map_err(|e| format!("describe() names version {e}"))?;
    if let Some((id, version)) = expect {
        if d.id != id {
            return Err(format!("describe() says id \"{}\" but it is installed as \"{id}\"", d.id));
        }
        if pins::Version::parse(version).map(|w| w != v).unwrap_or(true) {
            return Err(format!("describe() says version {} but it is installed as {version}", d.version));
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

    /// Reads one screen.
    pub fn classify(&mut self, screen: &Screen) -> outcome::Result<Reading> {
        let s = screen_to(screen);
        self.call(|g, st| g.call_classify(st, &s)).map(reading_from)
    }

    /// Whether a screen row names the drop `id` and is not the echo of `trigger`.
    pub fn shows_drop_read(&mut self, screen: &Screen, id: &str, trigger: &str) -> outcome::Result<bool> {
        let s = screen_to(screen);
        self.call(|g, st| g.call_shows_drop_read(st, &s, id, trigger))
    }

    /// Whether session-transcript rows prove the drop `id` was read.
    pub fn transcript_shows_drop_read(&mut self, rows: &[String], id: &str) -> outcome::Result<bool> {
        self.call(|g, st| g.call_transcript_shows_drop_read(st, rows, id))
    }

    /// Runs one guest call under the deadline, on a live instance (made fresh when the last
    /// call trapped); a trap drops the instance and becomes an error reading.
    fn call<R>(
        &mut self,
        f: impl FnOnce(&c01::Guest, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> outcome::Result<R> {
        // Every profile is compiled by the process's one engine, which the ticker advances.
        let engine = engine::engine().map_err(TeamError::failed)?;
        engine::ensure_ticker(engine);
        if self.live.is_none() {
            let mut store = Store::new(engine, HostState::new());
            store.limiter(|h| h);
            store.epoch_deadline_trap();
            store.set_epoch_deadline(engine::CALL_TICKS);
            let inst = self.pre.instantiate(&mut store).map_err(could_not_read)?;
            self.live = Some((store, inst));
        }
        let (store, inst) = self.live.as_mut().expect("instantiated above");
        store.set_epoch_deadline(engine::CALL_TICKS);
        match f(inst.team_profile_classifier(), store) {
            Ok(r) => Ok(r),
            Err(e) => {
                self.live = None;
                Err(could_not_read(e))
            }
        }
    }
}

/// The error a trapped or failed call becomes.
fn could_not_read(e: wasmtime::Error) -> TeamError {
    let why = match e.downcast_ref::<Trap>() {
        Some(Trap::Interrupt) => format!(
            "it ran past its {} ms budget and was stopped ({})",
            engine::CALL_BUDGET.as_millis(),
            Trap::Interrupt
        ),
        Some(t) => t.to_string(),
        None => {
            let m = format!("{e:#}");
            // The deny-all linker's stubs say "unknown import: `x` has not been defined".
            match m.strip_prefix("unknown import: `").and_then(|r| r.split_once("` has not been defined")) {
                // Rust std's panic path reads the environment, then writes to stderr, then
                // aborts: the first of those is where a panicking profile stops.
                Some((name, _))
                    if ["wasi:cli/environment", "wasi:cli/stderr", "wasi:cli/exit"]
                        .iter()
                        .any(|p| name.starts_with(p)) =>
                {
                    format!("it called `{name}`, which the host does not give profiles (a Rust profile does this when it panics)")
                }
                Some((name, _)) => format!("it called `{name}`, which the host does not give profiles"),
                None => m,
            }
        }
    };
    TeamError::failed(format!("this profile could not read the screen: {why}"))
}

fn screen_to(s: &Screen) -> t01::Screen {
    t01::Screen {
        styled: s.styled.clone(),
        plain: s.plain.clone(),
        title: s.title.clone(),
        cols: s.cols,
        rows: s.rows,
        recent: s.recent.clone(),
    }
}

/// A reading as the host keeps it; every string the guest returned is bounded
/// (`output::GUEST_TEXT_MAX`), so a profile cannot flood an outcome line or a terminal.
fn reading_from(r: t01::Reading) -> Reading {
    use crate::output::guest;
    let state = match r.state {
        t01::State::Idle => State::Idle,
        t01::State::Working(h) => State::Working(guest(h)),
        t01::State::Dialog(d) => State::Dialog(Dialog { kind: kind_from(d.kind), title: guest(d.title) }),
        t01::State::Starting => State::Starting,
        t01::State::Exited => State::Exited,
        t01::State::Unknown(w) => State::Unknown(guest(w)),
    };
    let composer = match r.composer {
        t01::Composer::Empty => Composer::Empty,
        t01::Composer::Holds(t) => Composer::Holds(guest(t)),
        t01::Composer::Unreadable => Composer::Unreadable,
    };
    let last_error = r.last_error.map(|e| match e {
        t01::TurnError::RateLimit => TurnError::RateLimit,
        t01::TurnError::ProviderError => TurnError::ProviderError,
    });
    Reading { state, composer, last_error, why: guest(r.why) }
}

fn kind_from(k: t01::DialogKind) -> DialogKind {
    match k {
        t01::DialogKind::Question => DialogKind::Question,
        t01::DialogKind::Permission => DialogKind::Permission,
        t01::DialogKind::Trust => DialogKind::Trust,
        t01::DialogKind::VendorNotice => DialogKind::VendorNotice,
        t01::DialogKind::ProviderError => DialogKind::ProviderError,
        t01::DialogKind::RateLimit => DialogKind::RateLimit,
        t01::DialogKind::HeldMessage => DialogKind::HeldMessage,
    }
}

fn description_from(d: t01::Description) -> Description {
    Description {
        id: d.id,
        version: d.version,
        clis: d.clis,
        process_names: d.process_names,
        native_channel: d.native_channel,
        max_trigger: d.max_trigger,
        working_hints: d.working_hints,
        enter_pause_ms: d.enter_pause_ms,
        queues_while_working: d.queues_while_working,
        forbidden_starts: d.forbidden_starts,
        has_compose: d.has_compose,
        transcript_patterns: d.transcript_patterns,
        features: d.features,
    }
}

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
