//! profile-reading: the one vocabulary `team` and its vendor profiles speak.
//!
//! - [`Screen`]: a pane at one moment, and the one way a capture becomes one
//!   ([`Screen::from_ansi`], [`split_rows`], [`plain_rows`]);
//! - [`ansi`]: the one ANSI reader of the tree ([`ansi::strip`], SGR into styled cells);
//! - [`scan`]: byte and phrase search that vectorises in a wasm guest (where `str::find` and
//!   `memchr` do not);
//! - what a profile answers ([`Reading`]: [`State`], [`Dialog`]/[`DialogKind`], [`Composer`],
//!   [`TurnError`], the queued line and the drop read) and what it asks about ([`Probe`]);
//! - what a reading may quote as evidence ([`quote`]: a sentence, never art);
//! - what a profile says about itself ([`Description`]);
//! - what a compose module is told and asks for ([`Repo`], [`Step`], [`Action`], [`Key`],
//!   [`Evidence`]).
//!
//! Plain Rust with no dependency (serde behind the `serde` feature): the host (`team`) and the
//! guest kit (`profile-kit`) both use these types. The host converts each WIT line's bindgen
//! types into them in one place (`host/src/profiles/v0_*.rs`); the kit's wasm glue converts
//! them into the guest bindings. Every enum is rendered to words in its own `impl` (`word()`
//! for JSON, `label()` for people); nothing else spells them.

pub mod ansi;
mod compose;
#[cfg(feature = "fixtures")]
pub mod fixtures;
pub mod quote;
pub mod scan;
mod screen;
mod types;

pub use compose::{Action, Evidence, Key, Repo, Step};
pub use screen::{fill_rows, join_rows, plain_row, plain_rows, split_rows, Screen};
pub use types::*;
