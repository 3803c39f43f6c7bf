//! `team:profile@0.1.0` (`wit/v0.1`, frozen as released): its bindings, and the one place its
//! types become the shared vocabulary (`profile-reading`) and back.
//!
//! Invariant: a conversion copies every field 0.1 has (every string the guest returned bounded
//! by `vocab::text::guest`, so a profile cannot flood an outcome line or a terminal); a field of the vocabulary 0.1 cannot
//! carry takes its documented default — `drop_read` false (0.1 asks `shows-drop-read`
//! separately), and `queued` the one line at the end of `why` of a component that declares the
//! `queued-line` feature (`profile_reading::QUEUED_LINE_FEATURE`), else none.

use super::{Composer, Description, Dialog, DialogKind, Reading, Screen, State, TurnError};

wasmtime::component::bindgen!({ path: "../wit/v0.1", world: "profile" });

use self::team::profile::types as t;

/// The interface export a v0.1 profile carries.
pub const EXPORT: &str = "team:profile/classifier@0.1.0";
/// The export versions this module reads (`0.1.x` are compatible).
pub const LINE: &str = "0.1.";

/// The vocabulary's screen as 0.1's (rows as lists of strings).
pub fn screen_to(s: &Screen) -> t::Screen {
    t::Screen {
        styled: s.styled.clone(),
        plain: s.plain.clone(),
        title: s.title.clone(),
        cols: s.cols,
        rows: s.rows,
        recent: s.recent.clone(),
    }
}

/// A 0.1 reading in the vocabulary; `features` is the component's description's.
pub fn reading_from(r: t::Reading, features: &[String]) -> Reading {
    use crate::vocab::text::guest;
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
    let (why, queued) = if features.iter().any(|f| f == profile_reading::QUEUED_LINE_FEATURE) {
        profile_reading::split_queued_why(&r.why)
    } else {
        (r.why, None)
    };
    Reading {
        state,
        composer,
        last_error,
        queued: queued.into_iter().map(guest).collect(),
        drop_read: false,
        why: guest(why),
    }
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
    }
}

/// A 0.1 description in the vocabulary.
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
