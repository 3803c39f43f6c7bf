//! The owner's inbox: the owner is no seat and has no pane to type into, so a message or a
//! reply to the owner is written whole to `<root>/.agents/owner-inbox/<id>` (0600, folders
//! 0700), one history line `… -> owner` (outcome `delivered`, via `owner-inbox`), and an
//! urgent notification (`notify`). `team inbox`, run by the owner, lists what waits there.
//!
//! Invariants: the drop is written before the history line, and a drop that cannot be written
//! is the refusal (nothing else is written); the file's name is a fresh message id, never one
//! read back; `owner-inbox` is no seat name (`names`), so no seat's drops can meet it.

use std::path::{Path, PathBuf};

use crate::ctx::Ctx;
use crate::error::{self, TeamError};
use crate::history::{self, MessageLine};
use crate::send::HistoryWrite;

/// The folder under `<root>/.agents` that holds the owner's messages.
pub const INBOX_DIR: &str = "owner-inbox";

/// The history's `via` for a message left in the owner's inbox.
pub const VIA: crate::vocab::outcome::Via = crate::vocab::outcome::Via::OwnerInbox;

/// What a message to the owner left behind.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnerDrop {
    pub id: String,
    pub drop: PathBuf,
    pub history: HistoryWrite,
}

/// The owner's inbox folder of a checkout.
pub fn inbox_dir(root: &Path) -> PathBuf {
    root.join(".agents").join(INBOX_DIR)
}

/// Writes `text` (its sender header first) to the owner's inbox of the team at `root`, and
/// its history line (`line`'s `id` names the file).
pub fn leave(ctx: &Ctx, project: &str, root: &Path, line: &MessageLine) -> error::Result<OwnerDrop> {
    crate::vocab::id::check_id(&line.id).map_err(|e| TeamError::refused(e.to_string()))?;
    let made =
        |e: std::io::Error| TeamError::refused(format!("the owner's inbox could not be made: {e}; nothing was sent"));
    let agents = crate::fsx::ensure_dirs(root, Path::new(".agents"), 0o700).map_err(made)?;
    let dir = crate::fsx::ensure_private_dirs(&agents, Path::new(INBOX_DIR), 0o700).map_err(made)?;
    let path = dir.join(&line.id);
    crate::fsx::write_new(&path, line.body.as_bytes(), 0o600).map_err(|e| {
        TeamError::refused(format!("the message could not be written to the owner's inbox: {e}; nothing was sent"))
    })?;
    let history = match history::append_message(&ctx.paths.config, project, root, line) {
        Ok(()) => HistoryWrite::Written,
        Err(e) => HistoryWrite::NotWritten(e.to_string()),
    };
    Ok(OwnerDrop { id: line.id.clone(), drop: path, history })
}

/// The far side of an answer to the owner that came over ssh (`send::hop::deliver_here`, its
/// question `(q, body)` already checked in this machine's history): left in this machine's
/// owner inbox under the hop's id, its history line (`reply_to`, `from_host`) and the owner's
/// urgent notification, as a reply to the owner on one machine is.
pub fn across(
    m: &crate::send::Means,
    file: &crate::team_file::Loaded,
    caller: &crate::caller::Caller,
    (q, question): (&str, &str),
    req: &crate::legs::remote::doc::Request,
) -> Result<crate::legs::remote::doc::State, crate::error::TeamError> {
    use crate::admission::{self, Rule};
    let crate::caller::Caller::Seat { seat, .. } = caller else {
        return Err(crate::error::TeamError::new(crate::error::Kind::Refused, "only a seat answers"));
    };
    let reg = crate::registry::Registry::load(&m.ctx.paths.config)?;
    let world = crate::address::World::new(&reg, Some(file));
    let header = format!(
        "{}\n{}",
        admission::sender_header(&world, caller, &Rule::ReplyTo(q.to_string())),
        history::in_reply_to(q, question)
    );
    let line = MessageLine {
        ts: m.ctx.clock.now_ts(),
        from: seat.clone(),
        to: super::OWNER.into(),
        body: admission::with_header(&header, &req.body),
        id: req.id.clone(),
        outcome: crate::vocab::outcome::Outcome::Delivered,
        ms: Some(0),
        via: Some(VIA),
        reply_to: Some(q.to_string()),
        from_host: req.from_host.clone(),
        over_ssh: true,
        ..Default::default()
    };
    let left = leave(m.ctx, &file.file.project, &file.root, &line)?;
    crate::notify::urgent(m.ctx, file, crate::notify::Event::to_owner(&line, &left.drop));
    Ok(crate::legs::remote::doc::State::Ended {
        outcome: line.outcome.word().to_string(),
        reason: None,
        channel: Some(VIA.to_string()),
        already: false,
        by: None,
    })
}
