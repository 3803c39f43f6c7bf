//! `team ack <id> [--note <text>]`: the receiving model says it read the message and will act
//! on it (or, in its note, why not). An `acked` receipt beside the history
//! (`history::receipts`): `team feed` shows it, `--stats` counts it, the watch stops looking
//! for a sign, and the message leaves the seat's `team inbox`. The owner acks a message or
//! reply left in the owner's inbox the same way, and sets an alert aside (`by: owner`).
//! [`Acked::line`] says it, for `team ack` and the MCP tool `team_ack`.
//!
//! Invariants: only the seat a message was delivered to acks it (the owner: a message to the
//! owner, or an alert); a message is acked once — a second ack is refused and writes nothing,
//! checked again under the receipts' lock (`history::append_ack_once`), so of two acks racing
//! one is written; a message never delivered is not acked (there is nothing its seat could have read); the
//! note is bounded and kept as text, never a path or a typed line.

use schemars::JsonSchema;
use serde::Serialize;

use crate::caller::Caller;
use crate::error::{self, TeamError};
use crate::history::ledger::{Entry, Ledger};
use crate::history::{self, Receipt, ReceiptKind};
use crate::send::Means;
use crate::team_file::Loaded;
use crate::vocab::doc::{Document, FormatOne, Named};

use super::{inbox, Book, Who, OWNER};
use crate::workspace::Workspace;

/// The longest note an ack keeps, in bytes.
pub const MAX_NOTE: usize = 4096;

/// What `team ack` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Acked {
    pub project: String,
    pub session: String,
    pub id: String,
    /// Who acked: a seat, or `owner`.
    pub by: String,
    /// What it acked: the message's sender and first line.
    pub from: String,
    pub first_line: String,
    pub note: Option<String>,
    /// The owner set an alert aside (a message to a seat), rather than acked its own message.
    pub alert: bool,
}

/// The document `team ack <id> --json` prints once the ack is written: the message, who acked
/// it (a seat, or owner), its sender and first line, and the note. status set-aside: the owner
/// set an alert about a seat's message aside (docs/conversations.md).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AckDoc {
    pub schema: Named<AckDoc>,
    pub format: FormatOne,
    pub status: AckStatus,
    /// The line a plain run prints.
    pub action_summary: String,
    pub project: String,
    pub session: String,
    #[schemars(regex(pattern = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"))]
    pub id: String,
    /// Who acked: a seat, or `owner`.
    pub by: String,
    /// The message's sender.
    pub from: String,
    /// The message's first line.
    pub question: String,
    pub note: Option<String>,
}

impl Document for AckDoc {
    const NAME: &'static str = "team.ack";
    const FILE: &'static str = "ack";
}

/// `acked`, or `set-aside` when the owner set an alert aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AckStatus {
    Acked,
    SetAside,
}

impl Acked {
    /// The ack's line, as `team ack` and the MCP tool `team_ack` say it.
    pub fn line(&self) -> String {
        let r = self;
        let what = if r.alert { "alert set aside" } else { "acked" };
        let note = r.note.as_ref().map(|n| format!(", note: {n}")).unwrap_or_default();
        let line = format!("{}: {what} ({} from {}: {}{note})", r.id, r.by, r.from, r.first_line);
        line.replacen(&format!("({} from ", r.by), "(from ", 1)
    }

    /// The `team.ack` document; `line` is the run's line (`Acked::line`).
    pub fn document(&self, line: &str) -> AckDoc {
        AckDoc {
            schema: Named::new(),
            format: FormatOne,
            status: if self.alert { AckStatus::SetAside } else { AckStatus::Acked },
            action_summary: line.to_string(),
            project: self.project.clone(),
            session: self.session.clone(),
            id: self.id.clone(),
            by: self.by.clone(),
            from: self.from.clone(),
            question: self.first_line.clone(),
            note: self.note.clone(),
        }
    }
}

/// `team ack`: the working set's world (a team file required, after the registry is read)
/// and its caller (refused as every command refuses one), then [`ack`].
pub fn ack_here(ws: &Workspace, id: &str, note: Option<&str>) -> error::Result<Acked> {
    ws.world()?;
    let file = ws.team()?;
    ack(&Means::of(ws), file, ws.acting_caller()?, id, note)
}

/// Acks `id` for `caller` standing in `file`'s checkout.
pub fn ack(m: &Means, file: &Loaded, caller: &Caller, id: &str, note: Option<&str>) -> error::Result<Acked> {
    let id = super::checked_id(id)?;
    if let Some(n) = note {
        if n.len() > MAX_NOTE {
            return Err(TeamError::usage(format!(
                "--note is {} bytes, more than an ack keeps ({MAX_NOTE}); say it in a reply (team reply {id} …)",
                n.len()
            )));
        }
    }
    let book = Book::open(m.ctx, file)?;
    let who = super::who(caller, &book.team, "acks")?;
    let ledger = book.ledger();
    let e = super::entry(&ledger, id, &book)?;
    let first = ledger.line(e.first);
    let me = who.name().to_string();
    let alert = who == Who::Owner && first.to != OWNER;
    ackable(&ledger, e, id, &me, alert)?;
    let ms = first.ts.at().map(|t| (m.ctx.clock.now() - t).num_milliseconds().max(0) as u64 + first.ms.unwrap_or(0));
    let out = Acked {
        project: book.project.clone(),
        session: book.session.clone(),
        id: id.to_string(),
        by: me.clone(),
        from: first.from.clone(),
        first_line: crate::history::first_line(&first.body),
        note: note.map(str::to_string),
        alert,
    };
    let receipt = Receipt {
        ms,
        note: note.map(str::to_string),
        by: alert.then(|| OWNER.to_string()),
        ..Receipt::new(ReceiptKind::Acked, m.ctx.clock.now_ts(), id, if alert { &first.to } else { &me })
    };
    drop(ledger);
    // checked again under the receipts' lock: of two acks racing, one is written
    let written = history::append_ack_once(&m.ctx.paths.config, &book.project, &book.root, &receipt)
        .map_err(|e| TeamError::refused(format!("the ack of {id} could not be written ({e}); nothing was acked")))?;
    if !written {
        return Err(TeamError::refused(format!("message {id} was acked already; nothing was acked")));
    }
    Ok(out)
}

/// Whether message `id` (its ledger entry `e`) may be acked by `me`: the seat it was delivered
/// to, once; or the owner, for an alert about it that still waits (`alert`).
fn ackable(ledger: &Ledger, e: &Entry, id: &str, me: &str, alert: bool) -> error::Result<()> {
    let first = ledger.line(e.first);
    if alert {
        if inbox::alert_of(ledger, e).is_none() {
            return Err(TeamError::refused(format!(
                "message {id} went to {}, and no alert about it waits for you; nothing was acked",
                first.to
            )));
        }
        if let Some(r) = e.set_aside {
            return Err(TeamError::refused(format!(
                "the alert about {id} was set aside already at {}; nothing was acked",
                ledger.receipts[r].ts
            )));
        }
    } else {
        if first.to != me {
            return Err(TeamError::refused(format!(
                "message {id} went to {}, not to {me}: only the seat a message was delivered to acks it; nothing was acked",
                first.to
            )));
        }
        if e.delivered.is_none() {
            return Err(TeamError::refused(format!(
                "message {id} was never delivered to {me} (it ended {}), so there is nothing to ack; nothing was acked",
                ledger.line(e.last_try).outcome
            )));
        }
        if let Some(r) = e.acked {
            let prior = &ledger.receipts[r];
            let said =
                prior.note.as_deref().map(|n| format!(" ({})", crate::vocab::text::one_line(n))).unwrap_or_default();
            return Err(TeamError::refused(format!(
                "message {id} was acked already at {}{said}; nothing was acked",
                prior.ts
            )));
        }
    }
    Ok(())
}
