//! A seat's mailbox: the files the inbox leg queues and the seat's own hook empties.
//!
//! The parts: `store`, one seat's folder and the claim protocol (a message is handed at most
//! once, a withdrawn one never, a claim whose claimer died is offered again unless its answer
//! may have left — then it is in doubt until evidence settles it); `bell`, the
//! pane-keyed pointer that lets the hook find its seat's folder from a hint without reading
//! a team file; `text`, the words the model is handed.
//!
//! Why a folder per seat under the history folder, and a bell per pane beside it (rather than
//! a folder per pane): `team status`, `feed` and `watch` know a seat by its project, session
//! and name — never by a pane, which changes when the seat is registered again — so the
//! messages live where those find them; the hook knows only its pane (from a hint it must
//! then prove), so the bell maps that hint to the seat's folder for the one directory read of
//! the empty fast path. A stale or wrong bell costs nothing but time: nothing is claimed
//! before the process tree proves the caller is the seat the message is for.
//!
//! Invariant: a message is handed at most once and a withdrawn one never (`store`'s claim
//! protocol); nothing here finds a caller or reads a screen — that is the leg's and the hook's.

pub mod bell;
pub mod store;
pub mod text;

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
