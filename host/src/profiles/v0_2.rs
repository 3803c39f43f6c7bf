//! `team:profile@0.2.0` (`wit/v0.2`): its bindings (world `profile`, and world `composer` for a
//! profile that exports compose, sharing the same types), and the one place its types become
//! the shared vocabulary (`profile-reading`) and back.
//!
//! Invariant: a conversion copies every field both sides have, every string the guest returned
//! bounded by `vocab::text::guest` (text a compose module asks to type is bounded by the compose
//! runner instead, which refuses it whole); a key name the vocabulary does not know stays
//! `Key::Unknown` (the compose runner refuses to press it).

use super::{Composer, Description, Dialog, DialogKind, Probe, Reading, Screen, State, TurnError};
use profile_reading::{Action, Evidence, Key, Repo, Step};

wasmtime::component::bindgen!({ path: "../wit/v0.2", world: "profile" });

/// World `composer`: the classifier and the compose interface, over the same types.
pub mod composer {
    wasmtime::component::bindgen!({
        path: "../wit/v0.2",
        world: "composer",
        with: { "team:profile/types": super::team::profile::types },
    });
}

use self::composer::exports::team::profile::compose as c;
use crate::vocab::text::guest;

/// The most queued lines a reading carries (a CLI shows a handful).
const MAX_QUEUED: usize = 16;
use self::team::profile::types as t;

/// The interface export a v0.2 profile carries.
pub const EXPORT: &str = "team:profile/classifier@0.2.0";
/// The compose interface export of a v0.2 profile with a compose module.
pub const COMPOSE_EXPORT: &str = "team:profile/compose@0.2.0";
/// The export versions this module reads (`0.2.x` are compatible).
pub const LINE: &str = "0.2.";

/// The vocabulary's screen as 0.2's: rows as one string per field (`profile_reading::join_rows`).
pub fn screen_to(s: &Screen) -> t::Screen {
    t::Screen {
        styled: profile_reading::join_rows(&s.styled),
        plain: profile_reading::join_rows(&s.plain),
        title: s.title.clone(),
        cols: s.cols,
        rows: s.rows,
        recent: profile_reading::join_rows(&s.recent),
    }
}

/// The vocabulary's probe as 0.2's.
pub fn probe_to(p: &Probe) -> t::Probe {
    t::Probe { drop_id: p.drop_id.clone(), trigger: p.trigger.clone() }
}

/// A 0.2 reading in the vocabulary.
pub fn reading_from(r: t::Reading) -> Reading {
    let state = match r.state {
        t::State::Idle => State::Idle,
        t::State::Working(h) => State::Working(guest(h)),
        t::State::Dialog(d) => State::Dialog(Dialog { kind: kind_from(d.kind), title: guest(d.title) }.quoted()),
        t::State::Starting => State::Starting,
        t::State::Exited => State::Exited,
        t::State::Unknown(w) => State::Unknown(guest(w)),
    };
    let composer = match r.composer {
        t::Composer::Empty => Composer::Empty,
        t::Composer::Holds(t) => Composer::Holds(guest(t)),
        t::Composer::Unreadable => Composer::Unreadable,
    };
    let last_error = r.last_error.map(|e| match e {
        t::TurnError::RateLimit => TurnError::RateLimit,
        t::TurnError::ProviderError => TurnError::ProviderError,
    });
    let queued = r.queued.into_iter().take(MAX_QUEUED).map(guest).collect();
    Reading { state, composer, last_error, queued, drop_read: r.drop_read, why: guest(r.why) }
}

fn kind_from(k: t::DialogKind) -> DialogKind {
    match k {
        t::DialogKind::Question => DialogKind::Question,
        t::DialogKind::Permission => DialogKind::Permission,
        t::DialogKind::Trust => DialogKind::Trust,
        t::DialogKind::VendorNotice => DialogKind::VendorNotice,
        t::DialogKind::ProviderError => DialogKind::ProviderError,
        t::DialogKind::RateLimit => DialogKind::RateLimit,
        t::DialogKind::HeldMessage => DialogKind::HeldMessage,
        t::DialogKind::Other(name) => DialogKind::Other(guest(name)),
    }
}

/// A 0.2 description in the vocabulary.
pub fn description_from(d: t::Description) -> Description {
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

/// The vocabulary's repo as 0.2's.
pub fn repo_to(r: &Repo) -> c::Repo {
    c::Repo { origin: r.origin.clone(), slug: r.slug.clone() }
}

fn action_to(a: &Action) -> c::Action {
    match a {
        Action::Type(t) => c::Action::Type(t.clone()),
        Action::Press(k) => c::Action::Press(k.name().to_string()),
        Action::Wait(ms) => c::Action::Wait(*ms),
        Action::Created(e) => c::Action::Created(c::Evidence { line: e.line.clone(), task_id: e.task_id.clone() }),
        Action::Refuse(r) => c::Action::Refuse(r.clone()),
        Action::Failed(r) => c::Action::Failed(r.clone()),
    }
}

/// The vocabulary's step as 0.2's.
pub fn step_to(s: &Step) -> c::Step {
    c::Step { index: s.index, elapsed_ms: s.elapsed_ms, done: s.done.iter().map(action_to).collect() }
}

/// A 0.2 action in the vocabulary.
pub fn action_from(a: c::Action) -> Action {
    match a {
        c::Action::Type(t) => Action::Type(t),
        c::Action::Press(n) => Action::Press(Key::from_name(&n)),
        c::Action::Wait(ms) => Action::Wait(ms),
        c::Action::Created(e) => Action::Created(Evidence { line: guest(e.line), task_id: e.task_id.map(guest) }),
        c::Action::Refuse(r) => Action::Refuse(guest(r)),
        c::Action::Failed(r) => Action::Failed(guest(r)),
    }
}
