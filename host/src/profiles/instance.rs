//! A validated component's instance, over whichever `team:profile` line it speaks: one enum
//! over the versions (the way Zed's extension host keeps one variant per API version), so the
//! rest of the host calls `read`, `describe`, `compose_next` in the vocabulary and never sees
//! which bindings served it.
//!
//! Invariants:
//! - the line is chosen once, from the component's export names (`Line::of_exports`), and
//!   the component is type-checked against that line's world before anything runs;
//! - every call runs under the epoch deadline on a live instance; a trap drops the instance
//!   and becomes an error reading ("this profile could not read the screen: …"), and a fresh
//!   instance serves the next call.

use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store, Trap};

use super::sandbox::{self, HostState};
use super::{engine, v0_1, v0_2, Description, LoadError, Probe, Reading, Screen};
use crate::error::{self, TeamError};
use profile_reading::{Action, Repo, Step};

/// The `team:profile` line (and world) a component speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// `team:profile@0.1.x`, world `profile` (frozen).
    V0_1,
    /// `team:profile@0.2.x`, world `profile`.
    V0_2,
    /// `team:profile@0.2.x`, world `composer` (classifier and compose).
    V0_2Compose,
}

impl Line {
    /// The line a component's exports name, or why it is none this host reads.
    pub fn of_exports(exports: &[String]) -> Result<Line, LoadError> {
        let classifier = exports.iter().find(|n| sandbox::split_name(n).0 == "team:profile/classifier");
        let compose = exports.iter().find(|n| sandbox::split_name(n).0 == "team:profile/compose");
        let Some(n) = classifier else {
            let has = if exports.is_empty() {
                "nothing".to_string()
            } else {
                exports.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            };
            return Err(LoadError::IncompatibleLine(format!(
                "it does not export `{}` (world `profile`) or `{}`; it exports {has}",
                v0_2::EXPORT,
                v0_1::EXPORT
            )));
        };
        let version = sandbox::split_name(n).1;
        let line = if version.starts_with(v0_2::LINE) {
            Line::V0_2
        } else if version.starts_with(v0_1::LINE) {
            Line::V0_1
        } else {
            return Err(LoadError::IncompatibleLine(format!(
                "it exports `{n}`, a version of the profile interface this host does not read (it reads 0.1.x and 0.2.x)"
            )));
        };
        match (line, compose) {
            (_, None) => Ok(line),
            (Line::V0_2, Some(c)) if sandbox::split_name(c).1.starts_with(v0_2::LINE) => Ok(Line::V0_2Compose),
            (_, Some(c)) => Err(LoadError::IncompatibleLine(format!(
                "it exports `{c}`, which does not go with `{n}` (compose is 0.2's, beside classifier 0.2)"
            ))),
        }
    }

    /// The classifier export this line carries.
    pub fn export(self) -> &'static str {
        match self {
            Line::V0_1 => v0_1::EXPORT,
            Line::V0_2 | Line::V0_2Compose => v0_2::EXPORT,
        }
    }

    /// Whether components of this line export compose.
    pub fn has_compose(self) -> bool {
        self == Line::V0_2Compose
    }

    fn world(self) -> &'static str {
        match self {
            Line::V0_1 => "the `profile` world of team:profile@0.1.0",
            Line::V0_2 => "the `profile` world of team:profile@0.2.0",
            Line::V0_2Compose => "the `composer` world of team:profile@0.2.0",
        }
    }
}

/// A component prepared for its line's world.
enum Pre {
    V0_1(v0_1::ProfilePre<HostState>),
    V0_2(v0_2::ProfilePre<HostState>),
    V0_2Compose(v0_2::composer::ComposerPre<HostState>),
}

/// A live instance's bindings.
enum Bindings {
    V0_1(v0_1::Profile),
    V0_2(v0_2::Profile),
    V0_2Compose(v0_2::composer::Composer),
}

/// A component ready to serve calls, instantiated on first use and again after a trap.
pub struct Instance {
    pre: Pre,
    line: Line,
    live: Option<(Store<HostState>, Bindings)>,
}

impl Instance {
    /// Type-checks `component` against `line`'s world.
    pub fn prepare(engine: &Engine, component: &Component, line: Line) -> Result<Instance, LoadError> {
        let linker: Linker<HostState> = sandbox::linker(engine, component)
            .map_err(|e| LoadError::WorldMismatch(format!("its imports cannot be linked: {e:#}")))?;
        let ip = linker.instantiate_pre(component);
        let pre = match line {
            Line::V0_1 => ip.and_then(v0_1::ProfilePre::new).map(Pre::V0_1),
            Line::V0_2 => ip.and_then(v0_2::ProfilePre::new).map(Pre::V0_2),
            Line::V0_2Compose => ip.and_then(v0_2::composer::ComposerPre::new).map(Pre::V0_2Compose),
        }
        .map_err(|e| LoadError::WorldMismatch(format!("it does not match {}: {e:#}", line.world())))?;
        Ok(Instance { pre, line, live: None })
    }

    /// Whether an instance is live (none before the first call and after a trap).
    #[cfg(test)]
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// The line it speaks.
    pub fn line(&self) -> Line {
        self.line
    }

    /// What the component says about itself.
    pub fn describe(&mut self) -> error::Result<Description> {
        self.call(|b, st| match b {
            Bindings::V0_1(p) => p.team_profile_classifier().call_describe(st).map(v0_1::description_from),
            Bindings::V0_2(p) => p.team_profile_classifier().call_describe(st).map(v0_2::description_from),
            Bindings::V0_2Compose(p) => p.team_profile_classifier().call_describe(st).map(v0_2::description_from),
        })
    }

    /// One look at a screen. 0.2 answers in one call; 0.1 needs a second (`shows-drop-read`)
    /// when the probe asks about a drop. `features` is the component's description's.
    pub fn read(&mut self, screen: &Screen, probe: &Probe, features: &[String]) -> error::Result<Reading> {
        let asks = !probe.drop_id.is_empty();
        self.call(|b, st| match b {
            Bindings::V0_1(p) => {
                let s = v0_1::screen_to(screen);
                let g = p.team_profile_classifier();
                let mut r = v0_1::reading_from(g.call_classify(&mut *st, &s)?, features);
                if asks {
                    r.drop_read = g.call_shows_drop_read(st, &s, &probe.drop_id, &probe.trigger)?;
                }
                Ok(r)
            }
            Bindings::V0_2(p) => {
                let r = p.team_profile_classifier().call_read(st, &v0_2::screen_to(screen), &v0_2::probe_to(probe))?;
                Ok(v0_2::reading_from(r))
            }
            Bindings::V0_2Compose(p) => {
                let r = p.team_profile_classifier().call_read(st, &v0_2::screen_to(screen), &v0_2::probe_to(probe))?;
                Ok(v0_2::reading_from(r))
            }
        })
    }

    /// Whether session-transcript rows prove the drop `id` was read.
    pub fn transcript_shows_drop_read(&mut self, rows: &[String], id: &str) -> error::Result<bool> {
        self.call(|b, st| match b {
            Bindings::V0_1(p) => p.team_profile_classifier().call_transcript_shows_drop_read(st, rows, id),
            Bindings::V0_2(p) => p.team_profile_classifier().call_transcript_shows_drop_read(st, rows, id),
            Bindings::V0_2Compose(p) => p.team_profile_classifier().call_transcript_shows_drop_read(st, rows, id),
        })
    }

    /// The compose module's next action; `None` when the component has no compose module.
    pub fn compose_next(
        &mut self,
        brief: &str,
        repo: &Repo,
        screen: &Screen,
        step: &Step,
    ) -> Option<error::Result<Action>> {
        if !self.line.has_compose() {
            return None;
        }
        Some(self.call(|b, st| {
            match b {
                Bindings::V0_2Compose(p) => p
                    .team_profile_compose()
                    .call_compose_next(st, brief, &v0_2::repo_to(repo), &v0_2::screen_to(screen), &v0_2::step_to(step))
                    .map(v0_2::action_from),
                _ => unreachable!("only the composer world has compose"),
            }
        }))
    }

    /// The compose module's plan for `repo`; `None` when the component has no compose module.
    pub fn compose_plan(&mut self, repo: &Repo) -> Option<error::Result<Vec<String>>> {
        if !self.line.has_compose() {
            return None;
        }
        Some(self.call(|b, st| {
            match b {
                Bindings::V0_2Compose(p) => p
                    .team_profile_compose()
                    .call_plan(st, &v0_2::repo_to(repo))
                    .map(|steps| steps.into_iter().take(64).map(crate::vocab::text::guest).collect()),
                _ => unreachable!("only the composer world has compose"),
            }
        }))
    }

    /// Runs one guest call under the deadline, on a live instance (made fresh when the last
    /// call trapped); a trap drops the instance and becomes an error reading.
    fn call<R>(&mut self, f: impl FnOnce(&Bindings, &mut Store<HostState>) -> wasmtime::Result<R>) -> error::Result<R> {
        // Every profile is compiled by the process's one engine, which the ticker advances.
        let engine = engine::engine().map_err(|e| TeamError::failed(e.to_string()))?;
        engine::ensure_ticker(engine);
        if self.live.is_none() {
            let mut store = Store::new(engine, HostState::new());
            store.limiter(|h| h);
            store.epoch_deadline_trap();
            store.set_epoch_deadline(engine::CALL_TICKS);
            let bindings = match &self.pre {
                Pre::V0_1(p) => p.instantiate(&mut store).map(Bindings::V0_1),
                Pre::V0_2(p) => p.instantiate(&mut store).map(Bindings::V0_2),
                Pre::V0_2Compose(p) => p.instantiate(&mut store).map(Bindings::V0_2Compose),
            }
            .map_err(could_not_read)?;
            self.live = Some((store, bindings));
        }
        let (store, bindings) = self.live.as_mut().expect("instantiated above");
        store.set_epoch_deadline(engine::CALL_TICKS);
        match f(bindings, store) {
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
