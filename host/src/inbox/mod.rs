//! The inbox leg (issue 20): a seat's inbox, which its own CLI empties through its hooks
//! (`team hook <event>`), so that a message reaches a working agent mid-turn — and the send
//! knows it did, from the hook's receipt — with no key typed into a busy pane, a dialog or a
//! draft.
//!
//! The parts: `store`, one seat's folder and the claim protocol (a message is handed at most
//! once, a withdrawn one never, a claim whose claimer died is offered again); `bell`, the
//! pane-keyed pointer that lets the hook find its seat's folder from a hint without reading
//! a team file; `hook`, the use-case `team hook` runs; `text`, the words the model is handed.
//!
//! Why a folder per seat under the history folder, and a bell per pane beside it (rather than
//! a folder per pane): `team status`, `feed` and `watch` know a seat by its project, session
//! and name — never by a pane, which changes when the seat is registered again — so the
//! messages live where those find them; the hook knows only its pane (from a hint it must
//! then prove), so the bell maps that hint to the seat's folder for the one directory read of
//! the empty fast path. A stale or wrong bell costs nothing but time: nothing is claimed
//! before the process tree proves the caller is the seat the message is for.
//!
//! Invariants:
//! - identity never comes from the environment: `TMUX_PANE`/`HERDR_PANE_ID` only choose which
//!   folder to read; a message is claimed only after `caller::find` places this process in the
//!   message's own seat;
//! - with nothing waiting the hook reads one small file and one directory, and prints nothing;
//! - a hook prints nothing to stdout but the CLI's answer, and nothing at all on any failure.

pub mod bell;
pub mod hook;
pub mod leg;
pub mod store;
pub mod text;

pub use hook::{Event, Handed, HookInput};
pub use store::{Claimer, Key, Message, SeatBox, Where, Withdraw};
pub use text::INLINE_MAX;

use std::io;
use std::path::Path;

/// The inbox of a seat of the project whose history lives in `<config>/<project_dir>`.
pub fn seat_box(config: &Path, project: &str, root: &Path, session: &str, seat: &str) -> io::Result<SeatBox> {
    let project_dir = crate::history::project_dir_name(project, root);
    SeatBox::make(config, &project_dir, session, seat)
}

/// The inbox of a seat as it stands (made by nobody: a seat never sent to has none).
pub fn seat_box_at(config: &Path, project: &str, root: &Path, session: &str, seat: &str) -> Option<SeatBox> {
    let rel = store::seat_rel(session, seat)?;
    Some(SeatBox::at(crate::history::project_dir(config, project, root).join(rel)))
}
