//! `team inbox`: what waits for the caller, newest last. For a seat, every message delivered
//! to it that it has not acked (each with the id `team reply` and `team ack` take); for the
//! owner, the messages and replies left in the owner's inbox and not acked, and the alerts not
//! set aside — sends that ended held, not-submitted or unreachable and were never delivered
//! since, and messages taken but never acted on. [`Inbox::text`] is its table and summary,
//! as `team inbox` prints them and the MCP tool `team_inbox` answers them.
//!
//! Invariant: it reads the history and the receipts and writes nothing; a drop path is built
//! only from an id the history's reader checked.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error;
use crate::history::{Entry, Ledger, ReadState};
use crate::team_file::notify::Event as Alert;
use crate::team_file::Loaded;
use crate::vocab::doc::{Document, FormatOne, Named};

use super::{owner, Book, Who, OWNER};
use crate::workspace::Workspace;

/// What an item of the inbox is.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum What {
    /// A message to answer or ack.
    Message,
    /// A reply to a message the caller sent (`reply_to` names it).
    Reply,
    /// For the owner: a send that needs them (`alert` names why).
    Alert,
}

/// Why a message to a seat needs the owner (an alert's word): its send ended held,
/// not-submitted or unreachable and nothing since delivered it, or it was taken and never
/// acted on. The words are the owner's notification events' (`team_file::notify::Event`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    Held,
    NotSubmitted,
    Unreachable,
    NeverActedOn,
}

impl Why {
    /// The notification event of the same name.
    pub fn event(self) -> Alert {
        match self {
            Why::Held => Alert::Held,
            Why::NotSubmitted => Alert::NotSubmitted,
            Why::Unreachable => Alert::Unreachable,
            Why::NeverActedOn => Alert::NeverActedOn,
        }
    }

    pub fn word(self) -> &'static str {
        self.event().word()
    }

    /// A send that ended held, not-submitted or unreachable (`Outcome::stranded`).
    fn stranded(o: &crate::vocab::outcome::Outcome) -> Option<Why> {
        use crate::vocab::outcome::Outcome as O;
        match o {
            O::Held => Some(Why::Held),
            O::NotSubmitted => Some(Why::NotSubmitted),
            O::Unreachable => Some(Why::Unreachable),
            _ => None,
        }
    }
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

crate::vocab::doc::words!(Why: Held, NotSubmitted, Unreachable, NeverActedOn);

/// One item waiting.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub what: What,
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub id: String,
    #[schemars(extend("format" = "date-time"))]
    pub ts: String,
    pub from: String,
    pub to: String,
    /// The message's first line (escaped, bounded).
    pub first_line: String,
    /// A reply's question.
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub reply_to: Option<String>,
    /// An alert's word: held, not-submitted, unreachable, never-acted-on.
    pub alert: Option<Why>,
    /// Where the message is on disk, relative to the checkout.
    pub drop: Option<PathBuf>,
}

/// The caller's inbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Inbox {
    pub project: String,
    pub session: String,
    /// `owner`, or the seat.
    pub who: String,
    pub items: Vec<Item>,
}

/// The document `team inbox --json` prints: what waits for the caller, newest last — for a
/// seat, messages delivered to it and not acked; for the owner (who: owner), messages and
/// replies left in the owner's inbox and not acked, and alerts not set aside
/// (docs/conversations.md).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InboxDoc<'a> {
    pub schema: Named<InboxDoc<'static>>,
    pub format: FormatOne,
    pub project: &'a str,
    pub session: &'a str,
    pub who: &'a str,
    pub items: &'a [Item],
    pub summary: String,
}

impl Document for InboxDoc<'_> {
    const NAME: &'static str = "team.inbox";
    const FILE: &'static str = "inbox";
}

impl Inbox {
    /// The inbox as `team inbox` prints it under its context line (and the MCP tool
    /// `team_inbox` answers it): a table when anything waits, then the summary line.
    pub fn text(&self) -> String {
        use crate::vocab::text::one_line;
        let mut rows: Vec<Vec<String>> =
            vec![["ID", "WHAT", "FROM", "TIME", "MESSAGE"].iter().map(|s| s.to_string()).collect()];
        for i in &self.items {
            let what = match (&i.what, &i.alert, &i.reply_to) {
                (What::Alert, Some(a), _) => format!("alert: {a}"),
                (What::Reply, _, Some(q)) => format!("reply to {q}"),
                (What::Reply, _, None) => "reply".into(),
                _ => "message".into(),
            };
            let from = if i.what == What::Alert { format!("{} -> {}", i.from, i.to) } else { i.from.clone() };
            let time = i.ts.get(11..19).unwrap_or(&i.ts).to_string();
            rows.push(
                [i.id.clone(), what, from, time, i.first_line.clone()].map(|c| one_line(&c).into_owned()).to_vec(),
            );
        }
        let mut text = String::new();
        if !self.items.is_empty() {
            text.push_str(&crate::vocab::table::table(&rows));
        }
        text.push_str(&self.summary());
        text.push('\n');
        text
    }

    /// `<n> waiting for <who>`.
    pub fn summary(&self) -> String {
        format!("{} waiting for {}", self.items.len(), self.who)
    }

    /// The `team.inbox` document.
    pub fn document(&self) -> InboxDoc<'_> {
        InboxDoc {
            schema: Named::new(),
            format: FormatOne,
            project: &self.project,
            session: &self.session,
            who: &self.who,
            items: &self.items,
            summary: self.summary(),
        }
    }
}

/// Why a message to a seat needs the owner, if it does and nothing since settled it.
pub fn alert_of(ledger: &Ledger, e: &Entry) -> Option<Why> {
    if e.delivered.is_none() {
        return Why::stranded(&ledger.line(e.last_try).outcome);
    }
    (matches!(ledger.read_state(e), Some(ReadState::NeverActed(_))) && e.acked.is_none()).then_some(Why::NeverActedOn)
}

/// `team inbox`: the working set's world (a team file required, after the registry is read)
/// and its caller (refused as every command refuses one), then [`inbox`].
pub fn inbox_here(ws: &Workspace) -> error::Result<Inbox> {
    ws.world()?;
    let file = ws.team()?;
    inbox(ws.ctx, file, ws.acting_caller()?)
}

/// The inbox of `caller` standing in `file`'s checkout.
pub fn inbox(ctx: &Ctx, file: &Loaded, caller: &Caller) -> error::Result<Inbox> {
    let book = Book::open(ctx, file)?;
    let who = super::who(caller, &book.team, "reads")?;
    let ledger = book.ledger();
    let mut items = Vec::new();
    for e in &ledger.entries {
        let first = ledger.line(e.first);
        let mine = first.to == who.name();
        let item = |what: What, alert: Option<Why>, drop: Option<PathBuf>, ts: &str| Item {
            what,
            id: first.id.clone(),
            ts: ts.to_string(),
            from: first.from.clone(),
            to: first.to.clone(),
            first_line: crate::history::first_line(&first.body),
            reply_to: first.reply_to.clone(),
            alert,
            drop: drop.map(|p| p.strip_prefix(&book.root).map(PathBuf::from).unwrap_or(p)),
        };
        if mine && e.delivered.is_some() && e.acked.is_none() {
            let what = if first.reply_to.is_some() { What::Reply } else { What::Message };
            let drop = match &who {
                Who::Owner => Some(owner::inbox_dir(&book.root).join(&first.id)),
                Who::Seat(s) => crate::legs::typed::drop_path(&book.root, &book.session, s, &first.id).ok(),
            };
            items.push(item(what, None, drop.filter(|p| p.exists()), first.ts.as_str()));
        } else if who == Who::Owner && first.to != OWNER && e.set_aside.is_none() {
            if let Some(a) = alert_of(&ledger, e) {
                let at = match ledger.read_state(e) {
                    Some(ReadState::NeverActed(n)) => ledger.line(n).ts.as_str(),
                    _ => ledger.line(e.last_try).ts.as_str(),
                };
                let drop = crate::legs::typed::drop_path(&book.root, &book.session, &first.to, &first.id).ok();
                items.push(item(What::Alert, Some(a), drop.filter(|p| p.exists()), at));
            }
        }
    }
    // newest last (stable: equal times keep the history's order)
    items.sort_by_key(|i| crate::history::ledger::instant(&i.ts));
    Ok(Inbox { project: book.project.clone(), session: book.session.clone(), who: who.name().to_string(), items })
}
