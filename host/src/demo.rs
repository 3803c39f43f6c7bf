//! `team demo`: the run itself ([`tour`]) and the demo's seat ([`seat`]), what `team demo`
//! runs in each of its tmux panes, so that a user's own install can try `team send` against
//! two vendors' screens with no agent installed.
//!
//! It is a small imitation, not the test double (`host/fake-seat`, test builds only): it draws
//! the first rows of Claude Code's or Codex's captured idle screen, takes the line typed into
//! its composer on Enter, echoes it, works for a second and shows the drop being read, as those
//! CLIs do — and nothing else. It keeps no vendor registry entry or socket, writes no
//! transcript, takes no other process name (`team register` never mistakes it for a CLI), has
//! no misbehaving modes, and writes only to the byte log `team demo` made for it.
//!
//! Invariant: every byte received is appended to the log before it is acted on; the log is
//! opened only if it already exists as a regular file (never created, never through a link).

mod screen;
pub mod seat;
pub mod tour;
pub mod words;
