//! `team reply <id> <message>`: the seat a message was delivered to answers its sender.
//!
//! The reply is admitted by a rule of its own, `reply to <id>` (`admission::Rule::ReplyTo`):
//! whoever sent you a message may be answered about that message, whatever the other rules
//! say. It then travels as any send does (`send::carry`: the walk, the legs, the outcomes, and
//! the asker's hooks when its checkout runs them), so the asker is woken the way any seat is,
//! and a reply — always an agent's, from its seat's pane — is answered as an agent's send is:
//! `queued` as soon as it is safely in a working asker's inbox, never held for the inbox leg's
//! window (docs/inbox.md, "Who waits for the receipt"); its drop's header carries `in-reply-to: <id>` and
//! the question's first line, and its history line `reply_to`. A reply to the owner goes to the
//! owner's inbox (`owner`) and notifies the owner at once (`notify`).
//!
//! Invariants: the caller must be the seat the question's history line names as its `to`, and
//! the question must have been delivered; a question is answered once (unless `--again`),
//! looked for in every history a reply to it is written in — this team's, and the asker's
//! team's for a question from another team; the reply goes only to the question's `from` (never
//! to an address the caller names); a reply that was delivered or queued acks the question (a receipt
//! `acked`, note `replied <reply id>`), so it leaves the replier's inbox; every refusal is
//! decided before anything is written.
//!
//! Its words: [`Ask::of`] checks `team reply`'s words, and [`Replied::said`] says how the reply
//! ended, as `team reply` prints it and the MCP tool `team_reply` answers it.

use schemars::JsonSchema;
use serde::Serialize;

use crate::address::{self, World};
use crate::admission::{self, Rule};
use crate::caller::Caller;
use crate::error::{self, TeamError};
use crate::history::ledger::{Entry, Ledger};
use crate::history::{self, MessageLine, Receipt, ReceiptKind};
use crate::plan::Plan;
use crate::send::{self, Decision, DryRun, FactsBook, Loadout, Means, Outcome, SendReport};
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::leg::Leg;

use super::owner::{self, OwnerDrop};
use super::{Book, Who, OWNER};
use crate::notify;
use crate::workspace::Workspace;

/// What a reply asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub id: String,
    pub body: String,
    pub dry_run: bool,
    /// Answer again a message this seat already answered (the asker asked for more).
    pub again: bool,
}

/// Where the reply went.
#[derive(Debug, Clone, PartialEq)]
pub enum Went {
    /// To a seat: the send's own report (a dry run's too).
    Seat(Box<SendReport>),
    /// To the owner's inbox (`None` on a dry run).
    Owner(Option<OwnerDrop>),
}

/// A reply's report.
#[derive(Debug, Clone, PartialEq)]
pub struct Replied {
    pub project: String,
    pub session: String,
    /// The message answered, and its first line.
    pub question: String,
    pub question_line: String,
    /// Who asked it (the history's `from`), whom the reply goes to.
    pub to: String,
    pub went: Went,
    /// Why the question could not be marked acked, when it could not.
    pub ack_problem: Option<String>,
    /// The replier's checkout root (paths under it are shown relative to it).
    pub root: std::path::PathBuf,
}

/// The document `team reply <id> … --json` prints for a run that exits 0: where the reply went
/// (a seat, by the legs of any send; or the owner's inbox), the message it answers and its
/// first line. A run that exits 1 or 2 prints team.error instead (docs/conversations.md).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplyDoc {
    pub schema: Named<ReplyDoc>,
    pub format: FormatOne,
    pub dry_run: bool,
    /// team reply --json: delivered, queued (in the asker's inbox, its hook to hand it: a reply
    /// is an agent's, answered without waiting for the receipt) or dry-run (a reply not
    /// delivered nor queued is a team.error document); the MCP tool team_reply also answers a
    /// reply held, not-submitted, unreachable, refused or failed with this document
    pub status: Status,
    pub action_summary: String,
    pub project: String,
    pub session: String,
    /// The asker the reply went to: a seat (`<seat>@<team>` in another team's history), or
    /// owner.
    pub seat: String,
    /// The leg that carried it; null on a dry run.
    pub channel: Option<Channel>,
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub reply_to: String,
    /// The answered message's first line (escaped, at most 80 characters).
    pub question: String,
    pub ids: Ids,
    pub drop: Option<String>,
    pub ms: Option<u64>,
    pub note: Option<String>,
}

/// How a reply ended, as its document says it: `team reply`'s delivered, queued or dry-run, and the
/// words the MCP tool `team_reply` answers a reply not delivered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Delivered,
    Queued,
    DryRun,
    Held,
    NotSubmitted,
    Unreachable,
    Refused,
    Failed,
}

impl Status {
    pub fn word(self) -> &'static str {
        let ended = match self {
            Status::DryRun => return "dry-run",
            Status::Delivered => crate::vocab::outcome::Outcome::Delivered,
            Status::Queued => crate::vocab::outcome::Outcome::Queued,
            Status::Held => crate::vocab::outcome::Outcome::Held,
            Status::NotSubmitted => crate::vocab::outcome::Outcome::NotSubmitted,
            Status::Unreachable => crate::vocab::outcome::Outcome::Unreachable,
            Status::Refused => crate::vocab::outcome::Outcome::Refused,
            Status::Failed => crate::vocab::outcome::Outcome::Failed,
        };
        ended.known_word().unwrap_or_default()
    }

    /// The status of a reply the MCP tool answers with an outcome word (`mcp::outcome_of`);
    /// an outcome no reply ends with is `failed`.
    pub fn of(o: &crate::vocab::outcome::Outcome) -> Status {
        use crate::vocab::outcome::Outcome as O;
        match o {
            O::Delivered => Status::Delivered,
            O::Queued => Status::Queued,
            O::Held => Status::Held,
            O::NotSubmitted => Status::NotSubmitted,
            O::Unreachable => Status::Unreachable,
            O::Refused => Status::Refused,
            O::Answered | O::Timeout | O::Failed | O::Unknown(_) => Status::Failed,
        }
    }
}

crate::vocab::doc::words!(Status: Delivered, Queued, DryRun, Held, NotSubmitted, Unreachable, Refused, Failed);

/// The way a reply went: a leg of the delivery order, or the owner's inbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Leg(Leg),
    OwnerInbox,
}

impl Channel {
    pub fn word(self) -> &'static str {
        match self {
            Channel::Leg(l) => l.word(),
            Channel::OwnerInbox => "owner-inbox",
        }
    }
}

crate::vocab::doc::words!(Channel => Leg::ALL.iter().map(|l| Channel::Leg(*l)).chain([Channel::OwnerInbox]).map(Channel::word).collect());

impl Document for ReplyDoc {
    const NAME: &'static str = "team.reply";
    const FILE: &'static str = "reply";
}

/// The id the reply was sent under.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ids {
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub sent: Option<String>,
}

impl Replied {
    /// The `team.reply` document; `status` is the outcome's word, `summary` the line.
    pub fn document(&self, dry_run: bool, status: Status, summary: &str) -> ReplyDoc {
        let (seat, channel, id, drop, ms, note) = match &self.went {
            Went::Seat(s) => (
                s.seat.clone(),
                s.channel.map(Channel::Leg),
                if dry_run { None } else { s.id.clone() },
                s.drop.as_ref().map(|p| p.display().to_string()),
                s.ms,
                s.outcome.delivered().flatten().map(ToString::to_string),
            ),
            Went::Owner(o) => (
                crate::converse::OWNER.to_string(),
                (!dry_run).then_some(Channel::OwnerInbox),
                o.as_ref().map(|o| o.id.clone()),
                o.as_ref().map(|o| o.drop.display().to_string()),
                o.as_ref().map(|_| 0),
                None,
            ),
        };
        ReplyDoc {
            schema: Named::new(),
            format: FormatOne,
            dry_run,
            status,
            action_summary: summary.to_string(),
            project: self.project.clone(),
            session: self.session.clone(),
            seat,
            channel,
            reply_to: self.question.clone(),
            question: self.question_line.clone(),
            ids: Ids { sent: id },
            drop,
            ms,
            note,
        }
    }
}

impl Replied {
    /// `p` as the replier reads it: relative to its checkout when under it.
    pub fn shown<'p>(&self, p: &'p std::path::Path) -> &'p std::path::Path {
        p.strip_prefix(&self.root).unwrap_or(p)
    }

    /// Whether the reply reached its asker or is queued in its inbox (or a dry run found the way).
    pub fn done(&self) -> bool {
        match &self.went {
            Went::Seat(r) => r.outcome.failure().is_none(),
            Went::Owner(_) => true,
        }
    }
}

/// `team reply`: the working set's world, its team file and caller (each refused as every
/// command refuses it), then [`reply`].
pub fn reply_here(ws: &Workspace, ask: &Ask) -> error::Result<Replied> {
    let load = Loadout::of(ws)?;
    ws.team()?;
    let caller = ws.acting_caller()?.clone();
    reply(&Means::of(ws), load, caller, ask)
}

/// Runs a reply for `caller` standing in `load`'s team file.
pub fn reply(m: &Means, load: Loadout, caller: Caller, ask: &Ask) -> error::Result<Replied> {
    let id = super::checked_id(&ask.id)?.to_string();
    // (the one sentence of every command that needs a team file: exit 2, saying where it was
    // looked for)
    let Some(file) = load.file.clone() else { return Err(crate::team_file::no_team_file(&m.ctx.cwd()?)) };
    let book = Book::open(m.ctx, &file)?;
    let me = match super::who(&caller, &book.team, "answers")? {
        Who::Seat(s) => s,
        Who::Owner => {
            return Err(TeamError::refused(
                "the owner answers with team send: team reply answers a message delivered to a seat, from that seat's pane; nothing was sent",
            ))
        }
    };
    let ledger = book.ledger();
    let e = super::entry(&ledger, &id, &book)?;
    let question = ledger.line(e.first).clone();
    answerable(&ledger, e, &id, &me)?;
    if !ask.again {
        answered_once(&book.lines, &id, &me)?;
    }
    let acked = e.acked.is_some();
    drop(ledger);
    let header_extra = super::in_reply_to(&id, &question.body);
    let mut out = Replied {
        project: book.project.clone(),
        session: book.session.clone(),
        question: id.clone(),
        question_line: crate::history::first_line(&question.body),
        to: question.from.clone(),
        went: Went::Owner(None),
        ack_problem: None,
        root: book.root.clone(),
    };
    let owner_away = question.from_host.as_deref().and_then(|w| send::hop::owner_elsewhere(m, &file, w));
    if question.from == OWNER {
        if ask.dry_run {
            return Ok(out);
        }
        let header = {
            let world = World::new(&load.reg, load.file.as_ref());
            format!("{}\n{header_extra}", admission::sender_header(&world, &caller, &Rule::ReplyTo(id.clone())))
        };
        out.went = match owner_away {
            // the owner asked from another machine: the answer goes back there, to its inbox
            Some(host) => {
                Went::Seat(Box::new(send::hop::answer_owner(m, &file, &caller, &host, &id, &ask.body, &header)))
            }
            None => Went::Owner(Some(leave_for_owner(m, &file, &book, &me, &id, &ask.body, &header)?)),
        };
    } else {
        let mut d = decide(m, load, caller, &question.from, &id, &header_extra)?;
        if let Some(word) = &question.from_host {
            // the question came over ssh: the answer goes back to the machine it came from
            send::hop::back_to(m, &mut d, word);
        }
        if !ask.again {
            answered_across(m, &d, &book, &id)?;
        }
        if ask.dry_run {
            let r = send::report(&d, Outcome::DryRun(DryRun::Send { channel: d.plan.terminal, compose: Vec::new() }));
            out.went = Went::Seat(Box::new(r));
            return Ok(out);
        }
        let r = send::carry(m, &d, &ask.body, Some(&id))?;
        out.went = Went::Seat(Box::new(r));
    }
    if out.done() && !acked {
        out.ack_problem = ack_by_reply(m, &book, &me, &id, &out).err().map(|e| e.to_string());
    }
    Ok(out)
}

/// A reply to the owner of this machine: left in its owner inbox (a fresh id), its history
/// line, the owner's urgent notification.
fn leave_for_owner(
    m: &Means,
    file: &crate::team_file::Loaded,
    book: &Book,
    me: &str,
    id: &str,
    body: &str,
    header: &str,
) -> error::Result<OwnerDrop> {
    let line = MessageLine {
        ts: m.ctx.clock.now_ts(),
        from: me.to_string(),
        to: OWNER.into(),
        body: admission::with_header(header, body),
        id: m.ctx.ids.new_id(),
        outcome: crate::vocab::outcome::Outcome::Delivered,
        ms: Some(0),
        via: Some(owner::VIA),
        reply_to: Some(id.to_string()),
        ..Default::default()
    };
    let left = owner::leave(m.ctx, &book.project, &book.root, &line)?;
    notify::urgent(m.ctx, file, notify::Event::to_owner(&line, &left.drop));
    Ok(left)
}

/// Whether message `id` (its ledger entry `e`) may be answered by `me`: only the seat it was
/// delivered to.
fn answerable(ledger: &Ledger, e: &Entry, id: &str, me: &str) -> error::Result<()> {
    let question = ledger.line(e.first);
    if question.to != me {
        return Err(TeamError::refused(format!(
            "message {id} went to {}, not to {me}: only the seat a message was delivered to answers it; nothing was sent",
            question.to
        )));
    }
    if e.delivered.is_none() {
        let last = ledger.line(e.last_try);
        return Err(TeamError::refused(format!(
            "message {id} was never delivered to {me} (it ended {}), so there is nothing to answer; nothing was sent",
            last.outcome
        )));
    }
    Ok(())
}

/// `Err` when `me` already answered `id` with a reply that was sent (delivered, or on disk and
/// still on its way: queued, held, not-submitted) — a question is answered once, so twenty replies to
/// one message are not twenty messages and twenty alerts; `--again` answers once more.
fn answered_once(lines: &[MessageLine], id: &str, me: &str) -> error::Result<()> {
    use crate::vocab::outcome::Outcome as O;
    let sent = lines
        .iter()
        .filter(|l| l.reply_to.as_deref() == Some(id) && l.from == me)
        .find(|l| matches!(l.outcome, O::Delivered | O::Queued | O::Held | O::NotSubmitted));
    match sent {
        None => Ok(()),
        Some(l) => Err(TeamError::refused(format!(
            "you already answered {id} (reply {}, {}); a question is answered once: send a new message, or reply with --again when the asker asked for more; nothing was sent",
            l.id, l.outcome
        ))),
    }
}

/// `Err` when the reply `d` would carry was sent already into another team's history: a reply
/// to another team's seat is written in the asker's history (`send::carry`), under the
/// replier's `<seat>@<team>`, so [`answered_once`] over this team's history never sees it.
fn answered_across(m: &Means, d: &Decision, book: &Book, id: &str) -> error::Result<()> {
    let Some(root) = d.root() else { return Ok(()) };
    let project = send::history_project(d);
    let dir = history::project_dir(&m.ctx.paths.config, &project, root);
    if dir == book.dir {
        // (two teams of one checkout and project share the history read already)
        return answered_once(&book.lines, id, &send::from_of(d));
    }
    let read = history::read_history(&m.ctx.paths.config, &dir).map_err(|e| {
        TeamError::refused(format!(
            "the history of {project}, where a reply to {id} is written, cannot be read: {e}; nothing was sent"
        ))
    })?;
    answered_once(&read.lines, id, &send::from_of(d))
}

/// The reply's decision: its target is the question's sender as the history spells it
/// (`<seat>` of this team, `<seat>@<team>` of another), its rule `reply to <id>`.
fn decide(m: &Means, load: Loadout, caller: Caller, from: &str, id: &str, extra: &str) -> error::Result<Decision> {
    let Loadout { file, reg } = load;
    let book = FactsBook::new(m.profiles);
    let world = World::new(&reg, file.as_ref());
    let target = address::resolve(&world, from).map_err(|e| {
        TeamError::refused(format!(
            "the asker of {id}, {from}, cannot be found any more ({}); nothing was sent",
            e.sentence.as_str()
        ))
    })?;
    let rule = Rule::ReplyTo(id.to_string());
    let facts = book.of(target.cli(), send::pins_of(&target.team)).map_err(|n| n.refusal(target.name(), "sent"))?;
    // (whether the asker's checkout runs team's hooks: a reply travels as any send does)
    let facts = send::with_hooks(facts, target.team.root.as_deref());
    let order = send::order_for(&reg, &target.team, &target.seat);
    let plan = Plan::walk(facts, order);
    let header = format!("{}\n{extra}", admission::sender_header(&world, &caller, &rule));
    drop(world);
    Ok(Decision { caller, file, target, rule, facts, plan, header, from_host: None, over_ssh: false })
}

/// A delivered reply acks its question, unless it was acked already.
fn ack_by_reply(m: &Means, book: &Book, me: &str, id: &str, r: &Replied) -> std::io::Result<()> {
    let reply_id = match &r.went {
        Went::Seat(s) => s.id.clone(),
        Went::Owner(o) => o.as_ref().map(|o| o.id.clone()),
    };
    let receipt = Receipt {
        ts: m.ctx.clock.now_ts(),
        id: id.to_string(),
        to: me.to_string(),
        receipt: ReceiptKind::Acked,
        sign: None,
        ms: None,
        why: None,
        attempt: None,
        note: Some(match reply_id {
            Some(rid) => format!("replied {rid}"),
            None => "replied".into(),
        }),
        by: None,
        event: None,
        session: None,
    };
    // (an ack that raced it in is no problem: the question is acked either way)
    history::append_ack_once(&m.ctx.paths.config, &book.project, &book.root, &receipt).map(|_| ())
}

/// The leg a dry run's reply would take, for the renderer.
pub fn dry_channel(r: &Replied) -> Option<Leg> {
    match &r.went {
        Went::Seat(s) => match &s.outcome {
            Outcome::DryRun(DryRun::Send { channel, .. }) => *channel,
            _ => None,
        },
        Went::Owner(_) => None,
    }
}

/// The usage of `team reply`, the repair of each of its usage errors.
pub const USAGE: &str =
    "usage: team reply <id> <message> [--again] [--json] [--dry-run]\n       team reply <id> --file <path> [--again] [--json] [--dry-run]";

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE)
}

impl Ask {
    /// The ask of `team reply`'s words: the id, the reply as words or a file (`-`: stdin);
    /// every error a usage error.
    pub fn of(
        id: Option<String>,
        message: &[String],
        file: Option<&std::path::Path>,
        dry_run: bool,
        again: bool,
    ) -> error::Result<Ask> {
        let Some(id) = id else { return Err(usage("a message id is required (team inbox lists them)")) };
        if !message.is_empty() && file.is_some() {
            return Err(usage("a reply and --file together: give the body one way"));
        }
        let body = match file {
            Some(p) => crate::send::body::of_file(p)?,
            None if message.is_empty() => {
                return Err(usage("a reply is required: words after the id, or --file <path>"))
            }
            None => crate::send::body::of_words(message.join(" "))?,
        };
        if body.trim().is_empty() {
            return Err(usage("the reply is empty: nothing to send"));
        }
        Ok(Ask { id, body, dry_run, again })
    }
}

impl Replied {
    /// The reply's line and status word (`delivered`, `dry-run`), or — a reply that was not
    /// delivered — the error `team reply` reports (held, unreachable, refused…), whose message
    /// is the line. `team reply` and the MCP tool `team_reply` both say it this way.
    pub fn said(&self, dry_run: bool) -> Result<(String, Status), TeamError> {
        use crate::send::words::{history_words, via_words, watch_words};
        let r = self;
        let about = format!("(reply to {}: {})", r.question, r.question_line);
        Ok(match &r.went {
            Went::Owner(None) => (
                format!("owner: dry-run: the reply would be left in the owner's inbox {about}; nothing was written"),
                Status::DryRun,
            ),
            Went::Owner(Some(o)) => (
                format!(
                    "owner: left in the owner's inbox at {} {about}{}",
                    r.shown(&o.drop).display(),
                    history_words(&o.history)
                ),
                Status::Delivered,
            ),
            Went::Seat(s) => match &s.outcome {
                Outcome::DryRun(_) if dry_run => {
                    let how = match dry_channel(r) {
                        Some(leg) => format!("{} via {}", s.cli, via_words(leg)),
                        None => "unreachable: no leg of its delivery order would take the reply".to_string(),
                    };
                    (format!("{}: dry-run: {how} {about}; nothing was written", s.seat), Status::DryRun)
                }
                o if o.delivered().is_some() => {
                    let n = o.delivered().flatten().map(|n| format!(" ({n})")).unwrap_or_default();
                    (format!("{}: delivered{n} {about}{}", s.seat, history_words(&s.history)), Status::Delivered)
                }
                // an agent's reply in the asker's inbox: its hook hands it and writes `delivered`
                o if o.queued().is_some() => {
                    let waits = o.queued().unwrap_or_default();
                    (send::words::queued_about(s, waits, &format!(" {about}")), Status::Queued)
                }
                other => {
                    let Some((kind, reason)) = other.failure() else {
                        return Err(TeamError::failed(format!("{}: the reply ended {}", s.seat, other.word())));
                    };
                    return Err(match kind {
                        error::Kind::Refused => TeamError::refused(format!("{}: {reason}", s.seat)),
                        k => TeamError::new(
                            k,
                            format!(
                                "{}: {} ({reason}) {about}{}{}",
                                s.seat,
                                other.word(),
                                history_words(&s.history),
                                watch_words(s)
                            ),
                        )
                        .with_context((r.project.clone(), r.session.clone())),
                    });
                }
            },
        })
    }
}
