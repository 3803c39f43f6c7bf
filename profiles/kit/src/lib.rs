//! profile-kit: what every `team` vendor profile shares.
//!
//! - the vocabulary, re-exported from `profile-reading` (the crate the host uses too):
//!   [`Screen`], [`Reading`], [`State`], [`DialogKind`], [`Composer`], [`TurnError`],
//!   [`Description`], and [`ansi`] (SGR into styled cells, the one stripper), so profile logic
//!   is plain Rust that compiles and is tested natively;
//! - [`view`]: a screen prepared for reading, with regions (bottom non-empty rows, after the last
//!   rule, the composer box, a rounded box);
//! - [`text`]: phrase matching without regexes (nothing to build at start-up, no `HashMap`:
//!   its `RandomState` would ask WASI for a seed inside a component), its substring search
//!   [`scan`]'s, which stays fast inside a guest where `str::contains` does not;
//! - [`json`]: the raw value under a key in a transcript row, without a parser;
//! - [`fixtures`] (feature `fixtures`): loads `tests/data/screens/<cli>-<version>/<state>.*`
//!   and checks a reading against the fixture's `expect`, for native and component conformance;
//! - [`export_profile!`] and [`export_composer!`]: the wasm glue, so a profile crate is only
//!   its logic.

pub mod json;
pub mod text;
pub mod view;

pub use profile_reading::ansi;
pub use profile_reading::*;

#[cfg(feature = "fixtures")]
pub mod fixtures;

pub use view::{Row, Tail, View};

use std::borrow::Cow;

/// The generated guest bindings (wasm32 only): `team:profile@0.2.0`, world `profile` — or
/// world `composer` with the `compose` feature, or the frozen `team:profile@0.1.0` with
/// `wit-v0-1` (kept so a 0.1 component can still be built and tested against the host).
#[cfg(all(target_arch = "wasm32", not(feature = "wit-v0-1"), not(feature = "compose")))]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.2",
        world: "profile",
        pub_export_macro: true,
        export_macro_name: "__export_profile_bindings",
        default_bindings_module: "profile_kit::bindings",
    });
}

#[cfg(all(target_arch = "wasm32", not(feature = "wit-v0-1"), feature = "compose"))]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.2",
        world: "composer",
        pub_export_macro: true,
        export_macro_name: "__export_profile_bindings",
        default_bindings_module: "profile_kit::bindings",
    });
}

#[cfg(all(target_arch = "wasm32", feature = "wit-v0-1"))]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.1",
        world: "profile",
        pub_export_macro: true,
        export_macro_name: "__export_profile_bindings",
        default_bindings_module: "profile_kit::bindings",
    });
}

#[cfg(all(target_arch = "wasm32", not(feature = "wit-v0-1")))]
#[doc(hidden)]
#[path = "glue.rs"]
pub mod glue;

#[cfg(all(target_arch = "wasm32", feature = "wit-v0-1"))]
#[doc(hidden)]
#[path = "glue_v0_1.rs"]
pub mod glue;

mod export;

/// Every row of the screen as plain text, oldest first: the scrollback (`recent`, escapes
/// stripped) and then the visible rows. A read recorded on screen may have scrolled off.
pub fn row_texts(screen: &Screen) -> Vec<String> {
    rows_text(screen).map(Cow::into_owned).collect()
}

/// [`row_texts`] without building them: each row borrowed where the screen holds its text as
/// it is (a warm guest read then allocates nothing for the rows it only searches).
pub fn rows_text(screen: &Screen) -> impl Iterator<Item = Cow<'_, str>> {
    let recent = screen.recent.iter().map(|r| match ansi::strip_cow(r) {
        Cow::Borrowed(t) => Cow::Borrowed(t.trim_end()),
        Cow::Owned(t) => Cow::Owned(t.trim_end().to_string()),
    });
    recent.chain(view::visible_texts(screen))
}

/// The drop-read rule of a profile whose CLI draws no read row of its own: a row names the id
/// and is not the trigger's echo, on a screen `classify` does not read as a dialog (a prompt
/// quoting the drop's path asks to read it; it is not a read).
pub fn drop_read_outside_dialog(classify: fn(&Screen) -> Reading, screen: &Screen, id: &str, trigger: &str) -> bool {
    !matches!(classify(screen).state, State::Dialog(_)) && row_names_id_not_echo(screen, id, trigger)
}

/// Generic drop-read test over a screen: a row (visible or in the scrollback) names `id` and is
/// not the echo of `trigger`.
///
/// A row "is the echo" when it contains the trigger's text (the composer or a history row
/// showing what was typed), or is a long enough piece of it (a wrapped echo).
pub fn row_names_id_not_echo(screen: &Screen, id: &str, trigger: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    let trig = text::squash(trigger);
    rows_text(screen).any(|r| text::contains(&r, id) && !is_echo(&r, &trig))
}

/// True when `row` shows (part of) the squashed trigger `trig`.
pub fn is_echo(row: &str, trig: &str) -> bool {
    if trig.is_empty() {
        return false;
    }
    let t = text::squash(row);
    text::contains(&t, trig) || (t.len() >= 12 && text::contains(trig, text::trim(&t)))
}

/// Signs that the CLI is gone: tmux's `Pane is dead` (remain-on-exit) as the last row, or a shell
/// prompt as the last row (`…$`, `…#`, `…%`). Profiles call this only after their own UI was not
/// found, so a prompt-like row inside a live UI is never read as an exit.
pub fn exit_sign(view: &View) -> Option<String> {
    let last = view.last_nonempty()?;
    let t = view.rows[last].trimmed();
    if t.starts_with("Pane is dead") {
        return Some(format!("the last row is tmux's `{}`", t));
    }
    None
}

/// True when the last non-empty row looks like a shell prompt waiting for input.
pub fn shell_prompt_last(view: &View) -> bool {
    let Some(last) = view.last_nonempty() else { return false };
    let t = view.rows[last].trimmed();
    let n = t.chars().count();
    n > 0
        && n < 100
        && (t.ends_with('$') || t.ends_with('#') || t.ends_with('%'))
        && !t.contains('│')
        && !t.contains('─')
}
