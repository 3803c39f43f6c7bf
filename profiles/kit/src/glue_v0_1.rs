//! The wasm side of a 0.1 profile (the kit's `wit-v0-1` feature): the conversions between the frozen
//! `team:profile@0.1.0` bindings and the vocabulary. Compiled only for `wasm32`.
//!
//! Invariant: a conversion copies every field; nothing is defaulted or dropped, so a profile
//! reads the same natively and as a component.

use crate::bindings::team::profile::types as w;
use profile_reading as k;

/// The WIT screen as a native one.
pub fn screen_in(s: w::Screen) -> k::Screen {
    k::Screen { styled: s.styled, plain: s.plain, title: s.title, cols: s.cols, rows: s.rows, recent: s.recent }
}

fn kind_out(kd: k::DialogKind) -> w::DialogKind {
    match kd {
        // 0.1's kinds are closed: a dialog the profile names itself is still a dialog.
        k::DialogKind::Other(_) => w::DialogKind::Question,
        k::DialogKind::Question => w::DialogKind::Question,
        k::DialogKind::Permission => w::DialogKind::Permission,
        k::DialogKind::Trust => w::DialogKind::Trust,
        k::DialogKind::VendorNotice => w::DialogKind::VendorNotice,
        k::DialogKind::ProviderError => w::DialogKind::ProviderError,
        k::DialogKind::RateLimit => w::DialogKind::RateLimit,
        k::DialogKind::HeldMessage => w::DialogKind::HeldMessage,
    }
}

/// The native reading as the WIT one.
pub fn reading_out(r: k::Reading) -> w::Reading {
    let state = match r.state {
        k::State::Idle => w::State::Idle,
        k::State::Working(h) => w::State::Working(h),
        k::State::Dialog(d) => {
            let title = match &d.kind {
                k::DialogKind::Other(name) => format!("{name}: {}", d.title),
                _ => d.title,
            };
            w::State::Dialog(w::Dialog { kind: kind_out(d.kind), title })
        }
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
    // 0.1 has no field for queued lines: the newest rides at the end of `why` (feature `queued-line`).
    let why = match r.queued.last() {
        Some(q) => format!("{}{}{q}`", r.why, k::QUEUED_IN_WHY),
        None => r.why,
    };
    w::Reading { state, composer, last_error, why }
}

/// The native description as the WIT one.
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
        features: {
            let mut f = d.features;
            if !f.iter().any(|w| w == k::QUEUED_LINE_FEATURE) {
                f.push(k::QUEUED_LINE_FEATURE.to_string());
            }
            f
        },
    }
}
