//! The wasm side of a profile: the conversions between the generated `team:profile@0.2.0`
//! bindings and the vocabulary (`profile-reading`). Compiled only for `wasm32`.
//!
//! Invariant: a conversion copies every field; nothing is defaulted or dropped, so a profile
//! reads the same natively and as a component.

use crate::bindings::team::profile::types as w;
use profile_reading as k;

std::thread_local! {
    /// The screen of the last call, kept so the next one refills its rows' strings in place.
    static SCREEN: std::cell::RefCell<k::Screen> = std::cell::RefCell::new(k::Screen::default());
}

/// Runs `f` on the WIT screen (rows as one string per field) as the vocabulary's. The rows are
/// filled into the strings of the last screen: a warm read allocates nothing for them.
pub fn with_screen<R>(s: w::Screen, f: impl FnOnce(&k::Screen) -> R) -> R {
    SCREEN.with(|cell| {
        let mut screen = cell.borrow_mut();
        k::fill_rows(&mut screen.styled, &s.styled);
        k::fill_rows(&mut screen.plain, &s.plain);
        k::fill_rows(&mut screen.recent, &s.recent);
        screen.title = s.title;
        screen.cols = s.cols;
        screen.rows = s.rows;
        f(&screen)
    })
}

fn kind_out(kd: k::DialogKind) -> w::DialogKind {
    match kd {
        k::DialogKind::Question => w::DialogKind::Question,
        k::DialogKind::Permission => w::DialogKind::Permission,
        k::DialogKind::Trust => w::DialogKind::Trust,
        k::DialogKind::VendorNotice => w::DialogKind::VendorNotice,
        k::DialogKind::ProviderError => w::DialogKind::ProviderError,
        k::DialogKind::RateLimit => w::DialogKind::RateLimit,
        k::DialogKind::HeldMessage => w::DialogKind::HeldMessage,
        k::DialogKind::Other(name) => w::DialogKind::Other(name),
    }
}

/// The vocabulary's reading as the WIT one.
pub fn reading_out(r: k::Reading) -> w::Reading {
    let state = match r.state {
        k::State::Idle => w::State::Idle,
        k::State::Working(h) => w::State::Working(h),
        k::State::Dialog(d) => w::State::Dialog(w::Dialog { kind: kind_out(d.kind), title: d.title }),
        k::State::Starting => w::State::Starting,
        k::State::Exited => w::State::Exited,
        k::State::Unknown(why) => w::State::Unknown(why),
    };
    let composer = match r.composer {
        k::Composer::Empty => w::Composer::Empty,
        k::Composer::Holds(t) => w::Composer::Holds(t),
        k::Composer::Unreadable => w::Composer::Unreadable,
    };
    let last_error = r.last_error.map(|e| match e {
        k::TurnError::RateLimit => w::TurnError::RateLimit,
        k::TurnError::ProviderError => w::TurnError::ProviderError,
    });
    w::Reading { state, composer, last_error, queued: r.queued, drop_read: r.drop_read, why: r.why }
}

/// The vocabulary's description as the WIT one.
pub fn description_out(d: k::Description) -> w::Description {
    w::Description {
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

#[cfg(feature = "compose")]
mod compose {
    use super::k;
    use crate::bindings::exports::team::profile::compose as c;

    /// The WIT repo as the vocabulary's.
    pub fn repo_in(r: c::Repo) -> k::Repo {
        k::Repo { origin: r.origin, slug: r.slug }
    }

    fn action_in(a: c::Action) -> k::Action {
        match a {
            c::Action::Type(t) => k::Action::Type(t),
            c::Action::Press(n) => k::Action::Press(k::Key::from_name(&n)),
            c::Action::Wait(ms) => k::Action::Wait(ms),
            c::Action::Created(e) => k::Action::Created(k::Evidence { line: e.line, task_id: e.task_id }),
            c::Action::Refuse(r) => k::Action::Refuse(r),
            c::Action::Failed(r) => k::Action::Failed(r),
        }
    }

    /// The WIT step as the vocabulary's.
    pub fn step_in(s: c::Step) -> k::Step {
        k::Step { index: s.index, elapsed_ms: s.elapsed_ms, done: s.done.into_iter().map(action_in).collect() }
    }

    /// The vocabulary's action as the WIT one.
    pub fn action_out(a: k::Action) -> c::Action {
        match a {
            k::Action::Type(t) => c::Action::Type(t),
            k::Action::Press(key) => c::Action::Press(key.name().to_string()),
            k::Action::Wait(ms) => c::Action::Wait(ms),
            k::Action::Created(e) => c::Action::Created(c::Evidence { line: e.line, task_id: e.task_id }),
            k::Action::Refuse(r) => c::Action::Refuse(r),
            k::Action::Failed(r) => c::Action::Failed(r),
        }
    }
}

#[cfg(feature = "compose")]
pub use compose::{action_out, repo_in, step_in};
