//! The walk over the legs, and the one seam every leg plugs into.
//!
//! Each place of the order in force, in turn, names a leg ([`plan::leg_for`]: a compose seat's
//! `typed` place is its compose leg). A leg either takes the send — whatever then happens,
//! delivered, held, not-submitted, unreachable or refused, ends the walk — or definitely
//! cannot take it, with a typed reason ([`Cannot`]): the send goes on to the next leg and the
//! history records the failure.
//!
//! Invariant: a leg that answers `Err` has written and typed nothing. This build carries the
//! typed leg, the compose leg (`crate::legs::compose`, a `team:profile@0.2` compose module typing
//! the body through the CLI's own screens) and the inbox leg (`crate::legs::inbox`: the seat's own
//! CLI takes the message from its inbox through its hooks; a seat idle at an empty prompt is
//! woken by the typed leg, with the message queued beside the trigger). A typed leg the inbox
//! leg handed a send (idle, or not readable for the inbox, at its look) whose own look before
//! typing finds the seat busy after all gives the send back (`typed::Run::back`, nothing
//! typed): the companion is withdrawn and the message queued as the inbox leg queues for a busy
//! seat — a message is never both typed and queued.

use std::path::{Path, PathBuf};

use crate::legs::inbox::leg::Stay;
use crate::legs::{typed, SeatTarget};
use crate::mux::Mux;
use crate::plan::{self, Cannot, Facts, Failed, Order};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Ended, Note};

use super::{Decision, Means};

/// One send, decided: what every leg is given.
pub struct Job<'a> {
    pub decision: &'a Decision,
    /// The seat, in the receiving team's checkout (its `.agents/` takes the drop).
    pub at: SeatTarget<'a>,
    /// The message id (the drop file's name).
    pub id: &'a str,
    /// The drop file's whole text: the sender header, a blank line, the body.
    pub text: &'a str,
    /// The body alone (the inbox hands it under its own header).
    pub body: &'a str,
    /// How long the inbox leg stays for the seat's own receipt (the caller's: `send::carry`).
    pub stay: Stay,
    /// The message a reply answers (the hook's `delivered` line carries it too).
    pub reply_to: Option<&'a str>,
}

/// How long a send of `caller` stays for the seat's own receipt (docs/inbox.md): a person at a
/// terminal waits out the window; an agent is answered as soon as its message is safely queued.
pub fn stay_for(caller: &crate::caller::Caller) -> Stay {
    if caller.is_person() {
        Stay::Window
    } else {
        Stay::Queued
    }
}

/// The decided seat, in the receiving team's checkout `root` (its profile pins the team file's,
/// none without one).
pub fn target<'a>(d: &'a Decision, root: &'a Path) -> SeatTarget<'a> {
    static NO_PINS: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    let team_file = d.target.team.file.as_ref();
    SeatTarget {
        session: &d.target.team.session,
        team: &d.target.team.name,
        seat: d.target.name(),
        cli: d.target.cli(),
        root,
        pins: team_file.map(|f| &f.profiles).unwrap_or(&NO_PINS),
        record: d.target.seat.agent.as_ref(),
    }
}

/// What a leg that took the send did.
#[derive(Debug, Clone, PartialEq)]
pub struct Taken {
    pub leg: Leg,
    pub ended: Ended,
    /// The drop file, once written.
    pub drop: Option<PathBuf>,
    pub ms: u64,
    /// Enters pressed (typed leg).
    pub enters: u32,
    /// Whether the message left the sender by this leg (the trigger was typed): the history's `via`.
    pub carried: bool,
    /// The version of the profile that read the seat, when the leg loaded one.
    pub profile: Option<String>,
    /// The dialog kind that stopped the leg before anything was typed.
    pub dialog: Option<String>,
}

/// One leg's implementation: the seam.
pub trait Carrier {
    /// Carries `job`: `Ok` when this leg took the send (its outcome inside), `Err` when it
    /// definitely cannot — and then it wrote and typed nothing.
    fn carry(&mut self, job: &Job) -> Result<Taken, Cannot>;
}

/// The legs this build carries.
pub struct Legs<'a> {
    typed: TypedLeg<'a>,
    compose: ComposeLeg<'a>,
    inbox: InboxLeg<'a>,
}

impl<'a> Legs<'a> {
    pub fn new(means: &'a Means<'a>) -> Self {
        Legs {
            typed: TypedLeg { means, companion: None, gives_back: false, prepared: None },
            compose: ComposeLeg { means },
            inbox: InboxLeg { means },
        }
    }

    /// The carrier of `leg`, when this build has one.
    pub fn carrier(&mut self, leg: Leg) -> Option<&mut dyn Carrier> {
        match leg {
            Leg::Typed => Some(&mut self.typed),
            Leg::Compose => Some(&mut self.compose),
            Leg::McpInbox => Some(&mut self.inbox),
            Leg::Native => None,
        }
    }
}

/// How a walk ended: the legs passed, and the one that took the send (`None`: ran out).
pub struct Walked {
    pub failed: Vec<Failed>,
    pub taken: Option<Taken>,
}

/// Walks `order` for a seat with `facts`: the first leg that takes `job` ends it.
pub fn walk(order: &Order, facts: Facts, legs: &mut Legs, job: &Job) -> Walked {
    let mut failed = Vec::new();
    for place in &order.legs {
        let leg = plan::leg_for(*place, facts);
        let tried = plan::ready(leg, facts).and_then(|()| match legs.carrier(leg) {
            Some(c) => c.carry(job),
            None => Err(Cannot::NotInBuild),
        });
        match tried {
            Ok(t) => return Walked { failed, taken: Some(t) },
            Err(why) => failed.push(Failed { leg, why }),
        }
    }
    Walked { failed, taken: None }
}

/// What the typed and compose legs run on: the send's profiles, clock and state folder, and
/// the multiplexer the receiving team's file chose.
fn leg_means<'m>(means: &'m Means, mux: &'m dyn Mux) -> typed::Means<'m> {
    typed::Means { mux, profiles: means.profiles, clock: &means.ctx.clock, state: &means.ctx.paths.state }
}

/// The typed leg: the drop file and one trigger line (`typed::send_plain`).
struct TypedLeg<'a> {
    means: &'a Means<'a>,
    /// The seat's inbox holding the trigger's companion (the inbox leg's idle seat).
    companion: Option<&'a crate::mailbox::SeatBox>,
    /// The inbox leg looked first: a seat busy at this leg's own look is given back.
    gives_back: bool,
    /// The seat lock, pane and profile of the inbox leg's look, handed on (taken once).
    prepared: Option<typed::Prepared>,
}

impl TypedLeg<'_> {
    /// The typed run, and its report.
    fn run(&mut self, job: &Job) -> typed::Report {
        let team_file = job.decision.target.team.file.as_ref();
        let req = typed::PlainSend {
            at: job.at,
            text: job.text,
            id: job.id,
            companion: self.companion,
            gives_back: self.gives_back,
        };
        let mux = (self.means.mux)(team_file.and_then(|f| f.multiplexer.as_deref()));
        typed::send_plain(&req, &leg_means(self.means, mux.as_ref()), self.prepared.take())
    }
}

/// What a typed run that took the send did.
fn typed_taken(report: &typed::Report) -> Taken {
    Taken {
        leg: Leg::Typed,
        ended: report.run.verdict.clone(),
        drop: report.drop.clone(),
        ms: report.ms,
        enters: report.run.enters,
        carried: report.run.typed,
        profile: report.profile.clone(),
        dialog: report.dialog.clone(),
    }
}

impl Carrier for TypedLeg<'_> {
    fn carry(&mut self, job: &Job) -> Result<Taken, Cannot> {
        Ok(typed_taken(&self.run(job)))
    }
}

/// The compose leg: the drop file, and the body typed through the CLI's own screens by its
/// profile's compose module (`compose::deliver`). Delivered is the CLI's line creating the item.
struct ComposeLeg<'a> {
    means: &'a Means<'a>,
}

impl Carrier for ComposeLeg<'_> {
    fn carry(&mut self, job: &Job) -> Result<Taken, Cannot> {
        use crate::legs::compose;
        let team_file = job.decision.target.team.file.as_ref();
        let req = compose::ComposeSend { at: job.at, text: job.text, id: job.id };
        let mux = (self.means.mux)(team_file.and_then(|f| f.multiplexer.as_deref()));
        let report = compose::deliver(&req, &leg_means(self.means, mux.as_ref()));
        let enters = report
            .run
            .done
            .iter()
            .filter(|a| matches!(a, crate::profiles::Action::Press(crate::profiles::Key::Enter)))
            .count() as u32;
        Ok(Taken {
            leg: Leg::Compose,
            ended: report.ended(),
            drop: report.drop,
            ms: report.ms,
            enters,
            carried: report.run.brief_typed,
            profile: None,
            dialog: None,
        })
    }
}

/// The inbox leg (`inbox::leg`): for a seat working, at a dialog or holding a draft, the
/// message goes to its inbox and the send waits for the hook's receipt; an idle seat is the
/// typed leg's, with the message queued as the trigger's companion.
struct InboxLeg<'a> {
    means: &'a Means<'a>,
}

impl Carrier for InboxLeg<'_> {
    fn carry(&mut self, job: &Job) -> Result<Taken, Cannot> {
        use crate::legs::inbox::leg::{self, Look, Went};
        let d = job.decision;
        let team_file = d.target.team.file.as_ref();
        let project = super::history_project(d);
        let from = super::from_of(d);
        let rule = d.rule.words();
        let req = leg::InboxSend {
            at: job.at,
            project: &project,
            id: job.id,
            text: job.text,
            header: &d.header,
            body: job.body,
            from: &from,
            rule: &rule,
            config: &self.means.ctx.paths.config,
            stay: job.stay,
            reply_to: job.reply_to,
        };
        let mux = (self.means.mux)(team_file.and_then(|f| f.multiplexer.as_deref()));
        let lm = leg_means(self.means, mux.as_ref());
        let sent_ms = self.means.ctx.clock.now().timestamp_millis();
        let mut r = leg::deliver(&req, &lm);
        let taken = |ended: Ended| Taken {
            leg: Leg::McpInbox,
            // a refusal queued nothing: the message did not leave by this leg
            carried: !ended.is_refused(),
            ended,
            drop: r.drop.clone(),
            ms: r.ms,
            enters: 0,
            profile: r.profile.clone(),
            dialog: None,
        };
        match r.went {
            Went::Ended(ended) => Ok(taken(ended)),
            Went::Unread(why) => Err(Cannot::Declined(format!("the seat could not be read ({why})"))),
            Went::Typed(look) => {
                if !d.plan.order.keeps(Leg::Typed) {
                    return Err(Cannot::Declined(match look {
                        Look::Idle => {
                            "the seat is idle at an empty prompt, where its CLI runs no hook until something reaches it"
                                .into()
                        }
                        Look::NotForInbox(why) | Look::Busy { dialog: Some(why), .. } => why,
                        Look::Busy { .. } => "the seat is busy".into(),
                    }));
                }
                // the trigger's companion: its UserPromptSubmit hook hands the body whole
                let prepared = r.prepared.take();
                let companion = match (&look, &prepared) {
                    (Look::Idle, Some(p)) => leg::queue_companion(&req, &lm, sent_ms, p).ok(),
                    _ => None,
                };
                drop(mux);
                Ok(self.wake(job, &req, (companion, prepared), (sent_ms, r.ms)))
            }
        }
    }
}

impl InboxLeg<'_> {
    /// The typed leg for a seat the look found idle, with the message queued beside its
    /// trigger as its companion (when it could be): the trigger's outcome — or, for a send the
    /// typed leg gave back (busy by its own look, nothing typed), the inbox's. `sent_ms`: the
    /// send's start; `looked_ms`: the inbox leg's look.
    fn wake(
        &self,
        job: &Job,
        req: &crate::legs::inbox::leg::InboxSend,
        (companion, prepared): (Option<crate::mailbox::SeatBox>, Option<typed::Prepared>),
        (sent_ms, looked_ms): (i64, u64),
    ) -> Taken {
        let mut typed = TypedLeg { means: self.means, companion: companion.as_ref(), gives_back: true, prepared };
        let mut report = typed.run(job);
        let mut t = typed_taken(&report);
        if let (Some(busy), Some(kept), Some(drop)) = (report.run.back.take(), report.kept.take(), report.drop.take()) {
            // busy since the look that chose the typed leg, and nothing typed: the inbox's
            let back = Back { req, b: companion.as_ref(), sent_ms, spent_ms: looked_ms + report.ms };
            let team_file = job.decision.target.team.file.as_ref();
            return back.to_inbox(self.means, team_file, (kept, busy, drop)).unwrap_or(t);
        }
        let Some(b) = companion else { return t };
        if !t.ended.is_delivered() {
            // the trigger did not get through: the companion goes nowhere now, unless a hook
            // of the seat handed it whole already
            if let Ok(Withdraw::NotWaiting(Where::Handed(_))) = b.withdraw_id(job.id) {
                t.ended = Ended::delivered(Some(Note::HandedWhole)).by(crate::vocab::outcome::Decider::HookReceipt);
            }
        }
        t
    }
}

/// A send the typed leg gave back (`typed::Run::back`: its own look, before typing, found the
/// seat busy), on its way back to the inbox leg.
struct Back<'r, 'a> {
    req: &'r crate::legs::inbox::leg::InboxSend<'a>,
    /// The seat's inbox holding the trigger's companion (none: the look found the seat not
    /// readable for the inbox, and no companion was queued).
    b: Option<&'r crate::mailbox::SeatBox>,
    sent_ms: i64,
    /// The time both looks took.
    spent_ms: u64,
}

impl Back<'_, '_> {
    /// The companion withdrawn, then the message queued as for a seat the inbox leg found busy
    /// (`inbox::leg::give_back`, under the lock and with the drop the typed leg kept); a
    /// companion a hook of the seat handed meanwhile is the send's delivery. `None`: the
    /// companion could not be settled (a hook still holds it, or the inbox cannot be read) —
    /// the typed leg's `held` stands, and the message stays where it is, never queued twice.
    fn to_inbox(
        &self,
        means: &Means,
        team_file: Option<&crate::team_file::TeamFile>,
        (kept, busy, drop): (typed::Prepared, typed::Busy, PathBuf),
    ) -> Option<Taken> {
        use crate::legs::inbox::leg::{self, Went};
        let inbox = |ended: Ended, drop: Option<PathBuf>, ms: u64, profile: Option<String>| Taken {
            leg: Leg::McpInbox,
            carried: !ended.is_refused(),
            ended,
            drop,
            ms: self.spent_ms + ms,
            enters: 0,
            profile,
            dialog: None,
        };
        let settled = match self.b {
            Some(b) => settle_companion(b, self.req.id)?,
            None => Where::Nowhere,
        };
        match settled {
            Where::Handed(_) => {
                let handed = Ended::delivered(Some(Note::HandedWhole)).by(crate::vocab::outcome::Decider::HookReceipt);
                Some(inbox(handed, Some(drop), 0, None))
            }
            _ => {
                let mux = (means.mux)(team_file.and_then(|f| f.multiplexer.as_deref()));
                let r = leg::give_back(self.req, &leg_means(means, mux.as_ref()), self.sent_ms, kept, busy, drop);
                match r.went {
                    Went::Ended(ended) => Some(inbox(ended, r.drop, r.ms, r.profile)),
                    // (queue_for ends every send it is given)
                    Went::Typed(_) | Went::Unread(_) => None,
                }
            }
        }
    }
}

/// How long a companion a hook claimed is waited for to be handed or given back: a hook hands
/// within milliseconds; one that still holds it after this is a hook in doubt, which the inbox
/// settles (`legs::inbox::hook`).
const CLAIM_SETTLE: std::time::Duration = std::time::Duration::from_millis(2_000);

/// The trigger's companion, withdrawn: `Withdrawn`/`Nowhere` (no hook can hand it now) or
/// `Handed` (a hook handed it whole). `None`: a hook still holds it, or the inbox cannot be read.
fn settle_companion(b: &crate::mailbox::SeatBox, id: &str) -> Option<Where> {
    let until = std::time::Instant::now() + CLAIM_SETTLE;
    loop {
        match b.withdraw_id(id).ok()? {
            Withdraw::Withdrawn(k) => return Some(Where::Withdrawn(k)),
            Withdraw::NotWaiting(Where::Claimed(_)) if std::time::Instant::now() < until => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Withdraw::NotWaiting(Where::Claimed(_)) => return None,
            Withdraw::NotWaiting(w) => return Some(w),
        }
    }
}

use crate::mailbox::{Where, Withdraw};
