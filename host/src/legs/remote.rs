//! The remote leg: a seat whose `host:` is another machine, reached by running that machine's
//! own `team hop deliver` over ssh (`crate::ssh`), which judges the sender again against its
//! own team file, runs its own leg there under the message id as a once-only key, and answers
//! its outcome document (`doc`). Admission is judged here first, as for every send.
//!
//! Invariants:
//! - a hop that did not reach the far side's `team` (ssh could not connect, the host key is not
//!   known, no `team` there, a far side without the hop or of another hop protocol) ends
//!   `unreachable` with "nothing was sent" and its repair — true, because the far side runs
//!   nothing before it has read and checked the whole request;
//! - a hop cut after the far side may have taken the id (ssh ended otherwise, the bound, an
//!   answer that is no document) is never called delivered on a guess and never sent again:
//!   the far side is asked what became of that id (`hop status`) before anything else, and
//!   what it answers is the outcome; a far side that cannot be asked leaves it in doubt, and so
//!   does one that has not taken the id yet (the request may still be on its way: only ssh
//!   failing before it connected proves nothing was handed over); a line left in doubt is
//!   asked about again ([`ask_again`], by `team watch`) before anything else, and carried
//!   again under the same id (the far side's once-only key) only while the far side answers
//!   it has not taken it;
//! - a seat whose `host:` is no ssh destination is refused before ssh runs.

pub mod doc;

use std::time::Duration;

use crate::error::{Kind, TeamError};
use crate::ssh::{Hop, Unreachable};
use crate::team_file::host::SeatHost;
use crate::vocab::host::Destination;
use crate::vocab::outcome::{Decider, Ended, Note, Outcome, Via};

/// How long one hop may take as a whole (connect, the far side's leg, its answer).
pub const LIMIT: Duration = Duration::from_secs(60);

/// One send to a seat on another machine.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub host: &'a SeatHost,
    /// The message id: the far side's once-only key.
    pub id: &'a str,
    /// The sender as this side's admission found it.
    pub from: &'a doc::From,
    /// The host word the sender's machine answers to (`doc::Request::from_host`).
    pub from_host: Option<&'a str>,
    /// The receiving team and seat.
    pub team: &'a str,
    pub seat: &'a str,
    /// The message as the sender wrote it.
    pub body: &'a str,
    pub reply_to: Option<&'a str>,
}

/// How a hop ended, and what this side learnt of the far side.
#[derive(Debug, Clone)]
pub struct Hopped {
    pub ended: Ended,
    /// The far side's `team` version, when it answered.
    pub far_version: Option<String>,
    /// The outcome was read back by id (a cut, or a far side that had already taken the id).
    pub read_back: bool,
    /// The far side answered that it never took the id (`unknown`): nothing was sent under
    /// it, so it may be carried again under the same id (the once-only key keeps it once).
    pub never_taken: bool,
    /// The leg that carried it on the far side, as the far side answered it.
    pub far_leg: Option<Via>,
}

impl Hopped {
    fn only(ended: Ended) -> Hopped {
        Hopped { ended, far_version: None, read_back: false, never_taken: false, far_leg: None }
    }
}

/// The far side's words for a subcommand its `team` does not know (clap's).
const UNKNOWN_SUBCOMMAND: &str = "unrecognized subcommand";

/// Carries one message over the hop; how it ended.
pub fn deliver(state: &std::path::Path, r: &Request) -> Hopped {
    let dest = match &r.host.dest {
        Ok(d) => d,
        Err(why) => {
            return Hopped::only(Ended::refused(format!(
                "its host {:?} is not an ssh destination ({why}); nothing was sent",
                r.host.word
            )))
        }
    };
    let hop = Hop { dest, control: crate::ssh::control_dir(state) };
    let req = doc::Request {
        hop: doc::PROTOCOL,
        team_version: doc::version().into(),
        id: r.id.into(),
        here: r.host.word.clone(),
        team: r.team.into(),
        seat: r.seat.into(),
        from: r.from.clone(),
        from_host: r.from_host.map(str::to_string),
        body: r.body.into(),
        reply_to: r.reply_to.map(str::to_string),
    };
    let input = serde_json::to_vec(&req).unwrap_or_default();
    match hop.run(&["hop", "deliver"], input, LIMIT) {
        Err(u) if may_have_reached(&u) => read_back(&hop, r.id, &u.reason(dest)),
        Err(u) => Hopped::only(unreachable(&u, dest)),
        Ok(a) => {
            let err = String::from_utf8_lossy(&a.stderr);
            if a.code == Some(2) && err.contains(UNKNOWN_SUBCOMMAND) {
                return Hopped::only(Ended::unreachable(format!(
                    "the team on {dest} does not carry seats on another machine (it has no hop subcommand); nothing was sent — install a team there that does"
                )));
            }
            match read_answer(&a.stdout, dest) {
                Read::Answer(ans) => answered(ans, dest, r.id),
                Read::Mismatch(e) => Hopped::only(e),
                Read::Nothing => {
                    let first = err.lines().next().unwrap_or("").to_string();
                    let why = format!(
                        "the team on {dest} ended without its answer (exit {}: {})",
                        a.code.map(|c| c.to_string()).unwrap_or_else(|| "by a signal".into()),
                        crate::vocab::text::one_line(&first)
                    );
                    read_back(&hop, r.id, &why)
                }
            }
        }
    }
}

/// What the far side answers of `id` now (`team hop status <id>` run there); `Err`: the far
/// side could not be asked, or gave no answer (`Kind::Unreachable`).
pub fn status(state: &std::path::Path, dest: &Destination, id: &str) -> Result<doc::Answer, TeamError> {
    let hop = Hop { dest, control: crate::ssh::control_dir(state) };
    let not = |why: String| TeamError::new(Kind::Unreachable, why);
    let a = hop.run(&["hop", "status", id], Vec::new(), LIMIT).map_err(|u| not(u.reason(dest)))?;
    match read_answer(&a.stdout, dest) {
        Read::Answer(ans) => Ok(ans),
        Read::Mismatch(e) => Err(not(e.reason().to_string())),
        Read::Nothing => Err(not(format!("the team on {dest} gave no answer of {id}"))),
    }
}

/// ssh's failures after which the far side may have read the request: the connection was up
/// (or its state is not known) when it ended.
fn may_have_reached(u: &Unreachable) -> bool {
    matches!(u, Unreachable::Other(_) | Unreachable::TimedOut)
}

enum Read {
    Answer(doc::Answer),
    /// The far side speaks another hop protocol: nothing was run there.
    Mismatch(Ended),
    Nothing,
}

fn read_answer(stdout: &[u8], dest: &Destination) -> Read {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(stdout) else { return Read::Nothing };
    let hop = v.get("hop").and_then(serde_json::Value::as_u64);
    let ver = v.get("team_version").and_then(serde_json::Value::as_str).unwrap_or("of an unknown version");
    match hop {
        Some(h) if h == u64::from(doc::PROTOCOL) => match serde_json::from_value::<doc::Answer>(v.clone()) {
            Ok(a) => Read::Answer(a),
            Err(_) => Read::Nothing,
        },
        Some(h) => Read::Mismatch(Ended::unreachable(format!(
            "the team on {dest} is {ver} and speaks hop protocol {h}, this one is {} and speaks {}; nothing was sent — install the same team on both machines",
            doc::version(),
            doc::PROTOCOL
        ))),
        None => Read::Nothing,
    }
}

/// The far side's answer as this side's outcome.
fn answered(a: doc::Answer, dest: &Destination, id: &str) -> Hopped {
    let read_back = matches!(a.state, doc::State::Ended { already: true, .. });
    let never_taken = a.state == doc::State::Unknown;
    let far_leg = match &a.state {
        doc::State::Ended { channel, .. } => channel.as_deref().map(Via::parse),
        _ => None,
    };
    let ended = match a.state {
        doc::State::Ended { outcome, reason, by, .. } => {
            let outcome = Outcome::parse(&outcome);
            let note = reason.map(|r| if outcome == Outcome::Delivered { Note::parse(&r) } else { Note::from(r) });
            Ended { outcome, note, by: by.as_deref().map(Decider::parse) }
        }
        doc::State::InDoubt { why } => in_doubt(dest, id, &why),
        doc::State::Unknown => Ended::unreachable(format!("the team on {dest} never took {id}; nothing was sent")),
        doc::State::Refused { why } => {
            Ended::refused(format!("the team on {dest} refused it: {why}; nothing was sent"))
        }
    };
    Hopped { ended, far_version: Some(a.team_version), read_back, never_taken, far_leg }
}

/// A send whose hop was left in doubt (its reason [`left_in_doubt`]), asked about again — by a
/// retry or by `team watch` on this side, before anything else: the far side is asked what
/// became of `id` (`team hop status`), and its answer is the outcome; nothing is carried again
/// here (an id the far side has not taken stays in doubt, `never_taken` set: the caller may
/// carry it again under the same id). A far side that cannot be asked, or answers in doubt,
/// leaves it in doubt.
pub fn ask_again(state: &std::path::Path, host: &SeatHost, id: &str) -> Hopped {
    let Ok(dest) = &host.dest else {
        return Hopped::only(in_doubt(&host.word, id, "its host is no longer an ssh destination"));
    };
    let hop = Hop { dest, control: crate::ssh::control_dir(state) };
    read_back(&hop, id, "its send was cut")
}

/// What every in-doubt reason begins with ([`in_doubt`]).
const IN_DOUBT: &str = "in doubt: ";

/// Whether a hop's recorded reason says it was left in doubt (neither side knows whether the
/// far seat took it): the one test a retry or the watch asks before [`ask_again`].
pub fn left_in_doubt(reason: &str) -> bool {
    reason.starts_with(IN_DOUBT)
}

/// After a cut: the far side is asked what became of `id`; its answer is the outcome.
fn read_back(hop: &Hop, id: &str, cut: &str) -> Hopped {
    let dest = hop.dest;
    match hop.run(&["hop", "status", id], Vec::new(), LIMIT) {
        Ok(a) => match read_answer(&a.stdout, dest) {
            // not taken yet is no proof it never will be: the request may still be on its way
            // there (read whole, not claimed yet) — in doubt, and asked again (`team watch`),
            // which carries it again under the same id only while the far side says the same
            Read::Answer(ans) if ans.state == doc::State::Unknown => Hopped {
                ended: not_taken_yet(dest, id, cut),
                far_version: Some(ans.team_version),
                read_back: true,
                never_taken: true,
                far_leg: None,
            },
            Read::Answer(ans) => {
                let mut h = answered(ans, dest, id);
                h.read_back = true;
                h
            }
            // the far side may have taken it before it changed: its "nothing was sent" is no answer
            Read::Mismatch(e) => Hopped::only(in_doubt(dest, id, &format!("{cut}, and asking again: {}", e.reason()))),
            Read::Nothing => Hopped::only(in_doubt(dest, id, cut)),
        },
        Err(u) => Hopped::only(in_doubt(dest, id, &format!("{cut}, and asking again: {}", u.reason(dest)))),
    }
}

/// Neither side knows whether the seat took it: said, never guessed, never sent again.
fn in_doubt(dest: &impl std::fmt::Display, id: &str, why: &str) -> Ended {
    Ended::not_submitted(format!(
        "{IN_DOUBT}{why}; it is not sent again — team hop status {id} --host {dest} asks what became of it"
    ))
}

/// A cut, and the far side had not taken `id` when asked: in doubt (the request may still be
/// on its way there), and — unlike a hop the far side took — sent again under the same id by
/// `team watch` while the far side says it has not taken it.
fn not_taken_yet(dest: &Destination, id: &str, cut: &str) -> Ended {
    Ended::not_submitted(format!(
        "{IN_DOUBT}{cut}, and {dest} had not taken {id} when asked (it may still be on its way there); team watch asks again and sends it again under the same id only while {dest} has not taken it"
    ))
}

fn unreachable(u: &Unreachable, dest: &Destination) -> Ended {
    Ended::unreachable(format!("{}; nothing was sent — {}", u.reason(dest), u.repair(dest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_in_doubt_reason_is_known_again_and_no_other_is() {
        let e = in_doubt(&"b", "id1", "ssh to b failed");
        assert_eq!(e.outcome, Outcome::NotSubmitted);
        assert!(left_in_doubt(e.reason()), "{}", e.reason());
        assert!(left_in_doubt(&Note::from(e.reason()).to_string()));
        let never = Ended::unreachable("the team on b never took id1; nothing was sent");
        assert!(!left_in_doubt(never.reason()));
        assert!(!left_in_doubt("typed, and the seat showed no sign of it (in doubt: no)"));
        // not taken yet, after a cut: in doubt too (asked again), never "nothing was sent"
        let d = Destination::parse("b").unwrap();
        let yet = not_taken_yet(&d, "id1", "the connection to b ended");
        assert!(left_in_doubt(yet.reason()) && !yet.reason().contains("nothing was sent"), "{}", yet.reason());
    }
}
