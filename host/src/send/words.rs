//! The words a send's report is said in — the outcome line `team send` prints (and its
//! `team.send` document), a broadcast row's line, and the phrases every report of a send
//! shares (`team reply`, `team send all` and the MCP tools say a send's outcome the same way).
//!
//! Invariant: words only — nothing here decides an outcome or prints; an outcome that is not
//! a success is said as the error its command exits with.

use super::all::Row;
use super::doc::{RecordPlan, SendDoc, SendPlan, SendStatus, WaitRefusedPlan, WalkPlan};
use super::{DryRun, HistoryWrite, Outcome, SendReport};
use crate::error::{Kind, TeamError};
use crate::vocab::leg::Leg;
use crate::vocab::text::one_line;

/// How a dry run names the channel a leg would carry the send by.
pub fn via_words(leg: Leg) -> &'static str {
    match leg {
        Leg::Typed => "a 0600 drop file and one trigger line",
        Leg::Compose => "a 0600 drop file and its compose module's screens",
        Leg::Native => "a socket frame",
        Leg::McpInbox => "a 0600 drop file and the seat's inbox, which its CLI's hooks hand to the model (an idle seat gets the trigger line too)",
    }
}

/// The words a history line that could not be written adds to the outcome.
pub fn history_words(h: &HistoryWrite) -> String {
    match h {
        HistoryWrite::NotWritten(why) => format!("; its history line was not written: {why}"),
        _ => String::new(),
    }
}

/// The words a hop whose far side runs another version of `team` ends with.
pub fn far_words(r: &SendReport) -> String {
    r.far.as_deref().map(|f| format!("; {f}")).unwrap_or_default()
}

/// The words a send a running watch will retry ends with (and only then: nothing is promised
/// without one).
pub fn watch_words(r: &SendReport) -> String {
    match r.watch_retry {
        Some(pid) => format!(
            "; the watch (pid {pid}) will retry it once the seat is idle with an empty box, up to {} tries in thirty minutes",
            crate::watch::TRIES
        ),
        None => String::new(),
    }
}

/// The line of a send left in its seat's inbox for the hook, the send not waiting for the
/// receipt (an agent's): `<seat>: queued in <seat>'s inbox (id <id>): <what it waits for>`.
/// Never `delivered`: the hook that hands it writes that line (`team feed` shows it).
pub fn queued_line(r: &SendReport, waits: &str) -> String {
    queued_about(r, waits, "")
}

/// [`queued_line`] with `about` (a reply's `(reply to <id>: <question>)`) after what it waits for.
pub fn queued_about(r: &SendReport, waits: &str, about: &str) -> String {
    let seat = &r.seat;
    let id = r.id.as_deref().unwrap_or("-");
    format!("{seat}: queued in {seat}'s inbox (id {id}): {waits}{about}{}", history_words(&r.history))
}

impl SendReport {
    /// What `team send` says of this report: its lines (without the context line) and its
    /// `team.send` document for delivered, queued, recorded and a dry run; every other outcome is the
    /// error it exits 1 with.
    pub fn said(&self) -> Result<(String, SendDoc), TeamError> {
        let r = self;
        let seat = &r.seat;
        Ok(match &r.outcome {
            Outcome::DryRun(DryRun::Send { channel, compose }) => r.dry_run_said(*channel, compose),
            Outcome::DryRun(DryRun::WaitRefused { refusal }) => {
                let reason = refusal.strip_prefix(&format!("{seat}: ")).unwrap_or(refusal);
                let line = format!("{seat}: dry-run: {} {reason}", r.cli);
                let plan = SendPlan::WaitRefused(WaitRefusedPlan { refused: refusal.clone(), order: r.order.clone() });
                (format!("{}\n", one_line(&line)), SendDoc::new(r, SendStatus::DryRun, &line, None, Some(plan)))
            }
            Outcome::DryRun(DryRun::Record { ms }) => {
                let line = format!("{seat}: dry-run: would record a native delivery ({ms} ms); nothing was written");
                let plan = SendPlan::Record(RecordPlan {
                    record: "messages.jsonl",
                    via: Leg::Native,
                    ms: *ms,
                    rule: r.rule.clone(),
                });
                (format!("{line}\n"), SendDoc::new(r, SendStatus::DryRun, &line, None, Some(plan)))
            }
            Outcome::Recorded { ms } => {
                let line = format!("{seat}: recorded (native, {ms} ms)");
                (format!("{line}\n"), SendDoc::new(r, SendStatus::Recorded, &line, r.channel, None))
            }
            o @ Outcome::Ended(_) if o.queued().is_some() => {
                let line = queued_line(r, o.queued().unwrap_or_default());
                let mut doc = SendDoc::new(r, SendStatus::Queued, &line, r.channel, None);
                doc.drop = Some(r.drop.as_ref().map(|p| p.display().to_string()));
                doc.ms = Some(r.ms);
                if let HistoryWrite::NotWritten(why) = &r.history {
                    doc.history_error = Some(why.clone());
                }
                (format!("{}\n", one_line(&line)), doc)
            }
            Outcome::Ended(e) if e.is_delivered() => {
                let note = &e.note;
                let line = match note {
                    Some(n) => format!("{seat}: delivered ({n}){}{}", history_words(&r.history), far_words(r)),
                    None => format!("{seat}: delivered{}{}", history_words(&r.history), far_words(r)),
                };
                let mut doc = SendDoc::new(r, SendStatus::Delivered, &line, r.channel, None);
                doc.note = Some(note.as_ref().map(ToString::to_string));
                doc.drop = Some(r.drop.as_ref().map(|p| p.display().to_string()));
                doc.ms = Some(r.ms);
                if let HistoryWrite::NotWritten(why) = &r.history {
                    doc.history_error = Some(why.clone());
                }
                (format!("{}\n", one_line(&line)), doc)
            }
            other => {
                let (kind, reason) = other.failure().expect("every other outcome exits 1");
                return Err(match kind {
                    Kind::Refused => {
                        TeamError::refused(format!("{seat}: {reason}{}{}", history_words(&r.history), far_words(r)))
                    }
                    k => TeamError::new(
                        k,
                        format!(
                            "{seat}: {} ({reason}){}{}{}",
                            other.word(),
                            history_words(&r.history),
                            watch_words(r),
                            far_words(r)
                        ),
                    )
                    .with_context((r.project.clone(), r.session.clone())),
                });
            }
        })
    }

    /// A dry run's lines (the leg it would take, each compose step, each leg set aside) and
    /// document.
    fn dry_run_said(&self, channel: Option<Leg>, compose: &[String]) -> (String, SendDoc) {
        let r = self;
        let seat = &r.seat;
        let set_aside: Vec<String> = r.set_aside.iter().map(|s| s.sentence()).collect();
        let failed: Vec<String> = r.failed.iter().map(ToString::to_string).collect();
        let first = match channel {
            Some(leg) => format!("{seat}: dry-run: {} via {}; nothing was written", r.cli, via_words(leg)),
            None => format!(
                "{seat}: dry-run: unreachable: no leg of its delivery order would take the send ({}); nothing was written",
                failed.join("; ")
            ),
        };
        let plan = SendPlan::Walk(WalkPlan {
            channel,
            order: r.order.clone(),
            failed,
            set_aside: set_aside.clone(),
            rule: r.rule.clone(),
            compose: compose.to_vec(),
        });
        let doc = SendDoc::new(r, SendStatus::DryRun, &first, None, Some(plan));
        let mut text = format!("{}\n", one_line(&first));
        for (i, step) in compose.iter().enumerate() {
            text.push_str(&format!("{seat}: compose {}: {}\n", i, one_line(step)));
        }
        for s in &set_aside {
            text.push_str(&format!("{seat}: {}\n", one_line(s)));
        }
        (text, doc)
    }

    /// The sentence a send of this outcome is said in outside `team send` (the MCP tool
    /// `team_send`): its line, or the message of the error it would exit with.
    pub fn sentence(&self) -> String {
        let r = self;
        let seat = &r.seat;
        if let Some(waits) = r.outcome.queued() {
            return queued_line(r, waits);
        }
        match (&r.outcome, r.outcome.delivered()) {
            (_, Some(Some(n))) => format!("{seat}: delivered ({n}){}", history_words(&r.history)),
            (_, Some(None)) => format!("{seat}: delivered{}", history_words(&r.history)),
            (Outcome::Ended(e), _) if e.is_refused() => {
                format!("refused: {seat}: {}{}", e.reason(), history_words(&r.history))
            }
            (o, _) => match o.failure() {
                Some((_, reason)) => {
                    format!("{seat}: {} ({reason}){}{}", o.word(), history_words(&r.history), watch_words(r))
                }
                None => format!("{seat}: {}", o.word()),
            },
        }
    }
}

impl Row {
    /// One seat's row of a broadcast: its outcome line as a single send would print it
    /// (without the context line).
    pub fn line(&self) -> String {
        match self {
            Row::Refused { seat, error } => {
                let m = error.sentence.as_str();
                format!("{seat}: refused: {}", m.strip_prefix(&format!("{seat}: ")).unwrap_or(m))
            }
            Row::Sent(r) => {
                let seat = &r.seat;
                match &r.outcome {
                    Outcome::DryRun(DryRun::Send { channel: Some(leg), .. }) => {
                        format!("{seat}: dry-run: {} via {}", r.cli, via_words(*leg))
                    }
                    Outcome::DryRun(_) => {
                        format!("{seat}: dry-run: unreachable: no leg of its delivery order would take the send")
                    }
                    o if o.queued().is_some() => queued_line(r, o.queued().unwrap_or_default()),
                    o if o.delivered().is_some() => match o.delivered().flatten() {
                        Some(n) => format!("{seat}: delivered ({n}){}", history_words(&r.history)),
                        None => format!("{seat}: delivered{}", history_words(&r.history)),
                    },
                    Outcome::Recorded { .. } => format!("{seat}: delivered{}", history_words(&r.history)),
                    Outcome::Ended(e) if e.is_refused() => format!("{seat}: refused: {}", e.reason()),
                    other => {
                        let (_, reason) = other.failure().expect("a failure");
                        format!("{seat}: {} ({reason}){}{}", other.word(), history_words(&r.history), watch_words(r))
                    }
                }
            }
        }
    }
}
