//! What a send a leg took leaves behind: its history line (with the receiving owner's alert and
//! the running watch's retry promise) and its log line. A refusal sent nothing and is no
//! completed send: it writes its log line only.

use std::path::Path;

use super::walk::Taken;
use super::{append_history, history_detail, history_line, history_project, log, Decision, Means, SendReport};
use crate::caller::Caller;
use crate::history::MessageLine;
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Note, Via};

/// Writes what the taken send `t` leaves (history, alert, log) into `r`.
#[allow(clippy::too_many_arguments)]
pub(super) fn record(
    m: &Means,
    d: &Decision,
    t: &Taken,
    r: &mut SendReport,
    id: &str,
    body: &str,
    root: &Path,
    reply_to: Option<&str>,
) {
    let note = if t.ended.is_delivered() { t.ended.note.clone() } else { None };
    // A refusal sent nothing and is no completed send: it writes its log line only.
    let ended = Some(t.ended.outcome.clone()).filter(|o| *o != crate::vocab::outcome::Outcome::Refused);
    if let (Some(_), Some(ended)) = (&t.drop, ended) {
        // an unreachable seat's reason is the line's note, so `team feed` can say why
        let history_note = match &t.ended.outcome {
            crate::vocab::outcome::Outcome::Unreachable => Some(Note::from(t.ended.reason())),
            _ => note.clone(),
        };
        let line = MessageLine {
            ms: Some(t.ms),
            via: t.carried.then_some(Via::Leg(t.leg)),
            failed: r.failed.iter().map(ToString::to_string).collect(),
            note: history_note,
            cli: t.profile.as_ref().map(|_| d.target.cli().to_string()),
            profile: t.profile.clone(),
            dialog: t.dialog.clone(),
            reply_to: reply_to.map(str::to_string),
            by: t.ended.by.clone(),
            ..history_line(m.ctx, d, id, body, ended)
        };
        r.history = append_history(m.ctx, d, root, &line);
        r.notify = tell_owner(m, d, &line, root, t.drop.as_deref(), r.outcome.failure().map(|(_, why)| why));
        // A send a running watch will retry says so (and only then: nothing is promised).
        if matches!(t.leg, Leg::Typed | Leg::McpInbox) && crate::watch::retryable(&line.outcome, t.dialog.as_deref()) {
            r.watch_retry = crate::watch::running(&m.ctx.paths.state, &history_project(d), root).map(|h| h.pid);
        }
    }
    let mut detail = format!("id {id}, {} Enter(s)", t.enters);
    match &note {
        // A compose leg's note names the item it created.
        Some(n @ Note::Created(_)) if t.leg == Leg::Compose => detail.push_str(&format!(", {n}")),
        // An unverified send is said once in the log, for the orchestrator to follow up.
        Some(n) => detail.push_str(&format!(", unverified: {n}")),
        None => {}
    }
    if let Some(p) = &t.drop {
        detail.push_str(&format!(", drop {}", p.display()));
    }
    detail.push_str(&history_detail(&r.history));
    if let Some(n) = &r.notify {
        detail.push_str(&format!(", {n}"));
    }
    log(m.ctx, Some(root), &d.caller, Some(d.target.name()), r.outcome.word(), Some(body.len()), Some(detail));
    // (a queued send is in the inbox leg's hands: its hook delivers it)
    if t.ended.is_delivered() || t.ended.outcome == crate::vocab::outcome::Outcome::Queued {
        r.channel = Some(t.leg);
    }
}

/// An urgent notification to the receiving team's owner for a send that needs them (held,
/// not-submitted, unreachable), when its team file asks for one and the sender is not the
/// owner (who reads the outcome on their own screen). Returns a failure to say, said once.
pub(super) fn tell_owner(
    m: &Means,
    d: &Decision,
    line: &MessageLine,
    root: &Path,
    drop: Option<&Path>,
    why: Option<&str>,
) -> Option<String> {
    use crate::team_file::notify::Event as N;
    let kind = N::of_stranded(&line.outcome)?;
    if matches!(d.caller, Caller::Owner) {
        return None;
    }
    let file = d.target.team.file.as_ref()?;
    let ev = crate::notify::Event::of_line(kind, line, why, drop);
    crate::notify::urgent_in(m.ctx, file, root, ev)
}
