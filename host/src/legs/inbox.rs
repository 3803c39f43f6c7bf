//! The inbox leg (issue 20): a seat's inbox, which its own CLI empties through its hooks
//! (`team hook <event>`), so that a message reaches a working agent mid-turn — and the send
//! knows it did, from the hook's receipt — with no key typed into a busy pane, a dialog or a
//! draft.
//!
//! The parts: `hook`, the use-case `team hook` runs; `leg`, the send's step that queues a
//! message and waits for the hook's receipt. The seat's message files, their claim protocol,
//! the bell and the words the model is handed are `crate::mailbox` (a record the typed leg's
//! idle companion uses too).
//!
//! Invariants:
//! - identity never comes from the environment: `TMUX_PANE`/`HERDR_PANE_ID` only choose which
//!   folder to read; a message is claimed only after `caller::find` places this process in the
//!   message's own seat;
//! - with nothing waiting the hook reads one small file and one directory, and prints nothing;
//! - a hook prints nothing to stdout but the CLI's answer, and nothing at all on any failure.

pub mod hook;
pub mod leg;

pub use hook::{Handed, HookInput};
