//! The vocabulary every layer speaks, at the bottom of the crate: the legs and hook formats
//! as words ([`leg`]), how a send ended and what a history line says beside it ([`outcome`]),
//! the hook events ([`hook_event`]), the name and id grammars ([`names`], [`id`]), text from
//! outside made safe to show ([`text`]), words laid out as a table ([`table`]), the keys pressed by name ([`key`]), and what a `--json` document is ([`doc`]).
//!
//! Invariant: nothing here names another module of the crate — it is words, grammars and
//! their tables, each written once, so any layer may use it and none is pulled up by it.

pub mod doc;
pub mod hook_event;
pub mod host;
pub mod id;
pub mod key;
pub mod leg;
pub mod names;
pub mod outcome;
pub mod table;
pub mod text;
