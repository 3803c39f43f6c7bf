//! The inbox leg's send: one look at the seat, then — for a seat that is working, at a dialog
//! or holding a draft — the drop file, the message in the seat's inbox, and a wait within the
//! spec's window for the hook's receipt. Nothing is ever typed here.
//!
//! An idle seat at an empty prompt runs no hook until something reaches its prompt: it is the
//! typed leg's ([`Look::Idle`]); the walk then types the trigger as today with the message
//! queued beside it as a companion ([`queue_companion`]), which its `UserPromptSubmit` hook
//! hands whole in the same request (no Read round trip). The companion carries `typed`: the
//! typed leg's line is its one delivery, the hook writes its receipt only. When the typed
//! leg's own look finds the seat busy after all, it types nothing and gives the send back:
//! [`give_back`] queues it as [`deliver`] does for a seat it finds busy, under the same lock and
//! with the drop the typed leg wrote (the walk withdraws the companion first).
//!
//! How long the send stays for the hook's receipt is the caller's ([`Stay`]): a person at a
//! terminal waits out the spec's window; an agent is answered as soon as the message is safely
//! queued — `queued` for a working seat, whose CLI takes it by itself at its next hook, `held`
//! at once for a seat at a dialog or holding a draft, which waits for a person.
//!
//! Invariants: the look and the queueing happen under the seat lock (a typed send to the same
//! seat never interleaves with them); the lock is let go before the wait, so a second send to
//! a working seat queues behind the first at once; the wait ends with exactly one of the send
//! (`held`) and the hook (`delivered` by the send) owning the history line (`store::Token`);
//! a send that does not wait makes no token, so the hook that hands it writes that line, and
//! nothing says `delivered` before the hook's receipt.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::legs::typed::{self, BoxText, Observation, Seat, Seen};
use crate::mux::PaneRef;
use crate::profiles::Profile;

use crate::mailbox::bell;
use crate::mailbox::store::{Message, Pin, SeatBox};
use crate::vocab::outcome::Ended;

/// One inbox send, decided.
pub struct InboxSend<'a> {
    pub at: crate::legs::SeatTarget<'a>,
    /// The history key of the receiving project.
    pub project: &'a str,
    pub id: &'a str,
    /// The drop file's whole text (header, blank line, body), and its parts.
    pub text: &'a str,
    pub header: &'a str,
    pub body: &'a str,
    pub from: &'a str,
    pub rule: &'a str,
    pub config: &'a Path,
    /// How long the send stays for the hook's receipt.
    pub stay: Stay,
    /// The message a reply answers.
    pub reply_to: Option<&'a str>,
}

/// How long a send stays for the seat's own receipt once its message is in the inbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stay {
    /// The spec's window (20 s): a person at a terminal, whose screen shows the wait.
    Window,
    /// Not at all: an agent caller (its shell tool, its MCP call) is answered as soon as the
    /// message is safely queued, and the hook that hands it writes the `delivered` line.
    Queued,
}

/// What the one look before anything is written saw.
#[derive(Debug, Clone, PartialEq)]
pub enum Look {
    /// Idle at an empty prompt: the typed leg wakes it.
    Idle,
    /// Working, at a dialog (its kind), or holding a draft: the inbox takes it.
    Busy { dialog: Option<String>, draft: bool },
    /// Starting, exited, unreadable: the typed leg reads it and says so (why).
    NotForInbox(String),
}

/// What an inbox send came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Went {
    /// It ended here: delivered (the hook handed it within the window: its event is the note),
    /// held (still in the inbox at the end of the window) or refused before anything was queued
    /// (the lock, the drop, the inbox folder).
    Ended(Ended),
    /// Nothing was queued: the typed leg takes it (the look said idle or not for the inbox).
    Typed(Look),
    /// The pane could not be found or read: this leg cannot take the send (why).
    Unread(String),
}

/// The report of one inbox send.
pub struct Report {
    pub went: Went,
    pub drop: Option<PathBuf>,
    pub ms: u64,
    pub profile: Option<String>,
    pub dialog: Option<String>,
    /// For [`Went::Typed`]: the seat lock still held, the pane and the profile of the look, so
    /// the typed leg neither locates the seat nor loads its profile again.
    pub prepared: Option<typed::Prepared>,
}

/// Runs one inbox send on `means` (the typed leg's: the multiplexer, profiles, clock, state).
pub fn deliver(req: &InboxSend, means: &typed::Means) -> Report {
    let watch = means.clock.stopwatch();
    let sent_ms = means.clock.now().timestamp_millis();
    let report = |went, drop, profile, dialog| Report { went, drop, ms: watch.ms(), profile, dialog, prepared: None };
    let wait = Duration::from_millis(typed::LOCK_WAIT_MS);
    let lock = match typed::lock_seat(means.state, req.at.session, req.at.seat, "send", wait) {
        Ok(l) => l,
        Err(why) => return report(refused(format!("{why}; nothing was sent")), None, None, None),
    };
    let pane = match crate::state::locate_with(means.mux, req.at.session, req.at.seat, req.at.team, req.at.record) {
        Ok(p) => p,
        Err(e) => return report(Went::Unread(e.to_string()), None, None, None),
    };
    let (look, profile) = match look(req, means, &pane) {
        Ok(x) => x,
        Err(why) => return report(Went::Unread(why.to_string()), None, None, None),
    };
    let busy = match &look {
        Look::Busy { dialog, draft } => typed::Busy { dialog: dialog.clone(), draft: *draft },
        other => {
            let version = profile.describe().version.clone();
            let mut r = report(Went::Typed(other.clone()), None, Some(version), None);
            r.prepared = Some(typed::Prepared { lock, pane, profile });
            return r;
        }
    };
    queue_for(req, means, (&watch, sent_ms), typed::Prepared { lock, pane, profile }, busy, None)
}

/// A send the typed leg gave back before typing anything (its own look found the seat `busy`:
/// `typed::Run::back`), queued as [`deliver`] queues for a seat it finds busy: under the seat
/// lock `kept` still holds, with the drop the typed leg wrote for this very send (`drop`, never
/// written again); `sent_ms`: the send's start. The trigger's companion must be withdrawn
/// first (the caller's): a message is never both typed and queued.
pub fn give_back(
    req: &InboxSend,
    means: &typed::Means,
    sent_ms: i64,
    kept: typed::Prepared,
    busy: typed::Busy,
    drop: PathBuf,
) -> Report {
    let watch = means.clock.stopwatch();
    queue_for(req, means, (&watch, sent_ms), kept, busy, Some(drop))
}

/// For a seat found `busy` under the lock `held` holds: the drop file (`written`: the one this
/// send wrote already), the message in the seat's inbox, and the wait the caller's stay asks;
/// `(watch, sent_ms)`: the leg's stopwatch and the send's start.
fn queue_for(
    req: &InboxSend,
    means: &typed::Means,
    (watch, sent_ms): (&crate::clock::Stopwatch, i64),
    held: typed::Prepared,
    busy: typed::Busy,
    written: Option<PathBuf>,
) -> Report {
    let report = |went, drop, profile, dialog| Report { went, drop, ms: watch.ms(), profile, dialog, prepared: None };
    let typed::Prepared { lock, pane, profile } = held;
    let typed::Busy { dialog, draft } = busy;
    let version = profile.describe().version.clone();
    let features = &profile.describe().features;
    let hooks = crate::vocab::leg::HookFormat::from_features(features);
    // (a CLI that takes answers on exit: the send confirms the hand-over by its transcript)
    let on_exit = super::hook::evidence::on_exit_rules(features);
    drop(profile);
    let written =
        written.map_or_else(|| typed::write_drop(req.at.root, req.at.session, req.at.seat, req.id, req.text), Ok);
    let drop = match written {
        Ok(p) => p,
        Err(why) => return report(refused(format!("{why}; nothing was sent")), None, Some(version), None),
    };
    let at = |why: String| format!("{why}; the message is at {}", drop.display());
    let b = match crate::mailbox::seat_box(req.config, req.project, req.at.root, req.at.session, req.at.seat) {
        Ok(b) => b,
        Err(e) => {
            let why = at(format!("the seat's inbox could not be made ({e}); nothing was typed"));
            return report(refused(why), Some(drop), Some(version), dialog);
        }
    };
    // (a send that does not wait makes no token: the hook that hands it writes the line)
    let token = (req.stay == Stay::Window).then(|| b.token(req.id));
    let queued = token
        .as_ref()
        .map_or(Ok(()), |t| t.make())
        .and_then(|()| b.queue(&message(req, &drop, means, &pane, (false, hooks), sent_ms)))
        .and_then(|_| ring(req, means, &pane));
    if let Err(e) = queued {
        if let Some(t) = &token {
            let _ = t.end_wait();
        }
        let why = at(format!("the message could not be put in the seat's inbox ({e}); nothing was typed"));
        return report(refused(why), Some(drop), Some(version), dialog);
    }
    drop_lock(lock);
    let held = || Ended::held(at(held_reason(req.at.seat, dialog.as_deref(), draft)));
    let ended = match req.stay {
        Stay::Window => {
            let window = typed::TIMINGS.scaled(means.clock.scale()).window;
            let rec = super::hook::Rec { config: req.config, clock: means.clock };
            let confirm = on_exit.as_ref().map(|rules| (&rec, rules.as_slice()));
            match wait_for_hook(&b, req.id, window, confirm) {
                Waited::Handed(t) => Ended::delivered(Some(super::hook::note(t.event, hooks))).by(t.by),
                Waited::InDoubt => Ended::held(at(format!("in {}'s inbox: {IN_DOUBT}", req.at.seat))),
                Waited::No => held(),
            }
        }
        // a dialog or a draft waits for a person: held, said at once (the owner is told)
        Stay::Queued if dialog.is_some() || draft => held(),
        Stay::Queued => Ended::queued(at(QUEUED.to_string())),
    };
    report(Went::Ended(ended), Some(drop), Some(version), dialog)
}

/// What a message queued for a working seat waits for (the `queued` line's reason).
pub const QUEUED: &str = "its CLI takes it at its next tool call or turn end; nothing was typed";

/// Refused before anything was queued: why.
fn refused(why: String) -> Went {
    Went::Ended(Ended::refused(why))
}

fn drop_lock(l: typed::SeatLock) {
    drop(l);
}

/// The held sentence: where the message waits, and that nothing was typed.
pub fn held_reason(seat: &str, dialog: Option<&str>, draft: bool) -> String {
    let why = match (dialog, draft) {
        (Some(kind), _) => format!(" (it shows a {kind} dialog: it rides the next hook after the dialog is answered)"),
        (None, true) => " (a draft is in its box, untouched: the person's next prompt carries it)".to_string(),
        _ => String::new(),
    };
    format!("in {seat}'s inbox: its CLI takes it at its next tool call or turn end; nothing was typed{why}")
}

/// What the held line says of a message a hook answered whose CLI's transcript does not show
/// it taken (a CLI that takes a hook's answer only from a hook that exits).
pub const IN_DOUBT: &str = "its hook answered with it, and its CLI — which takes a hook's answer only from a hook that exits — has not shown it taken in its transcript; it is said delivered when the transcript shows it, and offered again once its CLI goes on without it; nothing was typed";

/// How a send's wait for its receipt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Waited {
    /// A hook took the token (or the send's confirmation did): delivered, by that event, on
    /// that hook's receipt or its CLI's transcript.
    Handed(super::hook::Told),
    /// The window ended with the message answered and its transcript not showing it taken.
    InDoubt,
    /// The window ended first (the message stays in the inbox, and the hook that hands it
    /// writes the line).
    No,
}

/// Waits up to `window` for a hook to take the send's token; for a CLI that takes answers on
/// exit (`confirm`: the history and the profile's transcript rows) it confirms, as it waits,
/// a hand-over whose hook has exited by the CLI's transcript (`hook::confirm`).
fn wait_for_hook(
    b: &SeatBox,
    id: &str,
    window: Duration,
    confirm: Option<(&super::hook::Rec, &[super::hook::evidence::Rule])>,
) -> Waited {
    let token = b.token(id);
    let until = Instant::now() + window;
    let mut doubt = false;
    loop {
        if let Some(w) = token.taken() {
            token.clear(&w);
            return Waited::Handed(super::hook::Told::parse(&w));
        }
        if let Some((rec, rules)) = confirm {
            // (what goes wrong here a later hook or the watch meets and logs again)
            let got = super::hook::confirm(rec, b, id, rules, &mut Vec::new());
            doubt = got == super::hook::Confirmed::InDoubt;
            if got == super::hook::Confirmed::Taken {
                continue;
            }
        }
        if Instant::now() >= until {
            if token.end_wait() {
                return if doubt { Waited::InDoubt } else { Waited::No };
            }
            // a hook took it between the last look and now
            let w = token.taken().unwrap_or_default();
            token.clear(&w);
            return Waited::Handed(super::hook::Told::parse(&w));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The one look: the seat's profile reads its screen (nothing typed); the profile is kept for
/// the typed leg.
fn look(req: &InboxSend, means: &typed::Means, pane: &PaneRef) -> Result<(Look, Profile), typed::SeatError> {
    let mut profile = means.profiles.load(req.at.cli, req.at.pins).map_err(typed::SeatError::Profile)?;
    let mut seat = typed::SeatPane {
        mux: means.mux,
        pane: pane.clone(),
        profile: &mut profile,
        transcript: None,
        typed: false,
        reports: None,
    };
    let o = seat.observe(req.id, "")?;
    Ok((judge(&o), profile))
}

/// What a look means for the inbox.
pub fn judge(o: &Observation) -> Look {
    // (the typed leg gives a send back on the same reading: `Observation::busy`)
    if let Some(typed::Busy { dialog, draft }) = o.busy() {
        return Look::Busy { dialog, draft };
    }
    match &o.seen {
        Seen::Idle if o.boxed == BoxText::Empty => Look::Idle,
        Seen::Starting => Look::NotForInbox("it is starting".into()),
        Seen::Exited => Look::NotForInbox("its CLI has exited".into()),
        Seen::Unknown(w) => Look::NotForInbox(format!("its screen reads as nothing known ({w})")),
        // idle with a box that cannot be read (a dialog, a turn and a draft are busy, above)
        _ => Look::NotForInbox("its box cannot be read".into()),
    }
}

fn message(
    req: &InboxSend,
    drop: &Path,
    means: &typed::Means,
    pane: &PaneRef,
    (companion, hooks): (bool, Option<crate::vocab::leg::HookFormat>),
    sent_ms: i64,
) -> Message {
    let inline = crate::mailbox::text::inline_body(req.body);
    Message {
        id: req.id.to_string(),
        from: req.from.to_string(),
        team: req.at.team.to_string(),
        session: req.at.session.to_string(),
        seat: req.at.seat.to_string(),
        project: req.project.to_string(),
        root: req.at.root.to_path_buf(),
        rule: req.rule.to_string(),
        header: req.header.to_string(),
        drop: drop.to_path_buf(),
        body: inline.unwrap_or("").to_string(),
        bytes: req.body.len(),
        queued_at: means.clock.now_iso(),
        sent_ms,
        typed: companion,
        pin: Pin::of(pane),
        reply_to: req.reply_to.map(str::to_string),
        hooks,
    }
}

fn ring(req: &InboxSend, means: &typed::Means, pane: &PaneRef) -> std::io::Result<()> {
    let Some(server) = means.mux.server(req.at.session, &pane.id) else { return Ok(()) };
    let Some(key) = bell::key(means.mux.name(), &server, &pane.id) else { return Ok(()) };
    let project_dir = crate::history::project_dir_name(req.project, req.at.root);
    bell::ring(req.config, &key, &bell::line(&project_dir, req.at.session, req.at.seat))
}

/// Before the typed leg runs for an idle seat (the look's pane and profile, the seat lock held):
/// the message queued as the trigger's companion (its `UserPromptSubmit` hook hands it whole
/// with the trigger), carrying its CLI's hook format as the profile names it — the hook answers
/// in that CLI's shape (GitHub Copilot CLI reads no other). `Err`: not queued (the typed leg
/// runs alone, as without hooks).
pub fn queue_companion(
    req: &InboxSend,
    means: &typed::Means,
    sent_ms: i64,
    prepared: &typed::Prepared,
) -> std::io::Result<SeatBox> {
    let pane = &prepared.pane;
    let hooks = crate::vocab::leg::HookFormat::from_features(&prepared.profile.describe().features);
    let drop = typed::drop_path(req.at.root, req.at.session, req.at.seat, req.id).map_err(std::io::Error::other)?;
    let b = crate::mailbox::seat_box(req.config, req.project, req.at.root, req.at.session, req.at.seat)?;
    b.queue(&message(req, &drop, means, pane, (true, hooks), sent_ms))?;
    ring(req, means, pane)?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(seen: Seen, boxed: BoxText) -> Observation {
        Observation {
            seen,
            boxed,
            rate_limited: false,
            status: None,
            status_change: None,
            status_by: crate::vocab::outcome::Decider::MuxStatus,
            read_shown: false,
            queued: false,
            mode: None,
        }
    }

    #[test]
    fn the_look_sends_only_idle_empty_seats_to_the_typed_leg() {
        assert_eq!(judge(&o(Seen::Idle, BoxText::Empty)), Look::Idle);
        assert_eq!(judge(&o(Seen::Working("esc".into()), BoxText::Empty)), Look::Busy { dialog: None, draft: false });
        assert_eq!(
            judge(&o(Seen::Dialog { kind: "permission".into(), title: "t".into() }, BoxText::Unreadable)),
            Look::Busy { dialog: Some("permission".into()), draft: false }
        );
        assert_eq!(
            judge(&o(Seen::Idle, BoxText::Holds("half a thought".into()))),
            Look::Busy { dialog: None, draft: true }
        );
        assert!(matches!(judge(&o(Seen::Exited, BoxText::Empty)), Look::NotForInbox(_)));
        assert!(matches!(judge(&o(Seen::Idle, BoxText::Unreadable)), Look::NotForInbox(_)));
    }

    #[test]
    fn the_held_sentence_says_where_it_waits_and_that_nothing_was_typed() {
        assert_eq!(
            held_reason("rev", Some("permission"), false),
            "in rev's inbox: its CLI takes it at its next tool call or turn end; nothing was typed (it shows a permission dialog: it rides the next hook after the dialog is answered)"
        );
        assert!(held_reason("rev", None, true)
            .ends_with("(a draft is in its box, untouched: the person's next prompt carries it)"));
    }
}
