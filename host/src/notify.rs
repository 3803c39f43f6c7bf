//! Owner notifications: the team file's `notify:` command (`team_file::notify`) run with a
//! short text as its last argument and a `team.notify` JSON document on its standard input
//! (schema/notify.schema.json). Urgent events are sent at once, one run each (a send held or
//! unreachable, a message never acted on, a message or reply to the owner); the digest's
//! events are sent by `team watch`, one run per `every:` seconds, batched.
//!
//! Invariants:
//! - the command is an argv list, run without a shell; its text is escaped and bounded, and
//!   nothing from a message reaches it unescaped;
//! - a run is bounded by `timeout:` as a whole (`crate::child`: the document written, the wait;
//!   its whole process group killed after it), so a hanging or non-reading
//!   command never holds a send past that bound, and a notification never changes an outcome;
//! - a failing command is said once: the first failure leaves `notify.failed` in the project's
//!   history folder and returns its sentence; later failures say nothing while it stands; a run
//!   that succeeds removes it;
//! - the digest's mark (`notify-digest.json`, the instant the last digest covered) is written
//!   after the run, so no event is put in two digests by one watch after another.

pub mod coalesce;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::history::{self, ledger::instant, MessageLine, Receipt, ReceiptKind};
use crate::team_file::notify::Event as Kind;
use crate::team_file::{Loaded, Notify, TeamFile};
use crate::vocab::doc::{Document, Named};
use crate::vocab::outcome::{Note, Outcome};
use crate::vocab::text::{bound, one_line};

/// The marker of a failure already said.
pub const FAILED: &str = "notify.failed";
/// The digest's mark.
pub const DIGEST_MARK: &str = "notify-digest.json";

/// One thing the owner is told.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub event: Kind,
    #[schemars(extend("format" = "date-time"))]
    pub ts: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
    pub id: Option<String>,
    pub from: String,
    pub to: String,
    /// One short line: what happened, escaped.
    pub text: String,
    /// Where the message is on disk, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<PathBuf>,
    /// How many coalesced alerts this event stands for (0: it is one event).
    #[serde(skip)]
    pub held_back: u32,
}

fn short(s: &str) -> String {
    one_line(&bound(s, 120)).into_owned()
}

impl Event {
    /// A message or reply left in the owner's inbox.
    pub fn to_owner(line: &MessageLine, drop: &Path) -> Event {
        let what = if line.reply_to.is_some() { "replied" } else { "wrote" };
        Event {
            event: Kind::ToOwner,
            ts: line.ts.to_string(),
            id: Some(line.id.clone()),
            from: line.from.clone(),
            to: line.to.clone(),
            text: short(&format!("{} {what} to you: {}", line.from, crate::history::first_line(&line.body))),
            drop: Some(drop.to_path_buf()),
            held_back: 0,
        }
    }

    /// The alerts of one seat and kind held back since the last that ran (`coalesce`).
    pub fn held_back(p: &coalesce::Pending, now: DateTime<Utc>) -> Event {
        let word = match p.kind {
            Kind::NeverActedOn => Note::NeverActed.to_string(),
            k => k.word().to_string(),
        };
        let (from, to) = if p.kind == Kind::ToOwner {
            (p.seat.clone(), "owner".to_string())
        } else {
            (p.from.clone(), p.seat.clone())
        };
        Event {
            event: p.kind,
            ts: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            id: None,
            from,
            to,
            text: short(&format!("{} more {word} for {} since {}, coalesced", p.count, p.seat, p.since)),
            drop: None,
            held_back: p.count,
        }
    }

    /// A history line of kind `event` (a send that ended held, unreachable, …).
    pub fn of_line(event: Kind, line: &MessageLine, why: Option<&str>, drop: Option<&Path>) -> Event {
        let why = why.map(|w| format!(" ({w})")).unwrap_or_default();
        let word = match event {
            Kind::NeverActedOn => Note::NeverActed.to_string(),
            e => e.word().to_string(),
        };
        Event {
            event,
            ts: line.ts.to_string(),
            id: Some(line.id.clone()),
            from: line.from.clone(),
            to: line.to.clone(),
            text: short(&format!(
                "{} -> {}: {word}{why}: {}",
                line.from,
                line.to,
                crate::history::first_line(&line.body)
            )),
            drop: drop.map(Path::to_path_buf),
            held_back: 0,
        }
    }
}

/// Sends `ev` at once when the team file of `file` has `notify:` and names its kind urgent.
/// Returns the sentence of a failure not said before.
pub fn urgent(ctx: &Ctx, file: &Loaded, ev: Event) -> Option<String> {
    urgent_in(ctx, &file.file, &file.root, ev)
}

/// [`urgent`] for a team file read elsewhere (the receiving team of a send).
///
/// One seat's alerts of one kind within [`coalesce::WINDOW`] run once; the rest are counted,
/// and said with the next that runs or in the digest.
pub fn urgent_in(ctx: &Ctx, file: &TeamFile, root: &Path, mut ev: Event) -> Option<String> {
    let n = file.notify.as_ref()?;
    if !n.is_urgent(ev.event) {
        return None;
    }
    if let Err(not) = approved(ctx, root, n) {
        return said_once(ctx, file, root, Err(not));
    }
    // the seat the alert is about: the sender of a message to the owner, else the receiver
    let seat = if ev.event == Kind::ToOwner { &ev.from } else { &ev.to };
    let dir = dir_of(ctx, file, root);
    match coalesce::admit(&ctx.paths.config, &dir, ev.event, seat, &ev.from, ctx.clock.now()) {
        coalesce::Admit::HeldBack => return None,
        coalesce::Admit::Run { earlier: 0, .. } => {}
        coalesce::Admit::Run { earlier, since } => {
            let since = since.as_deref().and_then(|s| s.get(11..19)).unwrap_or("the last alert");
            ev.text = format!("{} (and {earlier} more since {since})", ev.text);
        }
    }
    let text = ev.text.clone();
    let doc = document(Tier::Urgent, file, vec![ev]);
    said_once(ctx, file, root, run(n, &text, &doc))
}

/// The document the team file's notify: command reads on its standard input (its last argument
/// is the short text): urgent, one event sent at once; digest, the events team watch batched
/// since the last digest (docs/conversations.md).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyDoc {
    pub schema: Named<NotifyDoc>,
    pub tier: Tier,
    pub project: String,
    pub session: String,
    #[schemars(length(min = 1))]
    pub events: Vec<Event>,
}

impl Document for NotifyDoc {
    const NAME: &'static str = "team.notify";
    const FILE: &'static str = "notify";
}

/// `urgent`: one event sent at once; `digest`: the events batched since the last digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Urgent,
    Digest,
}

/// The `team.notify` document.
fn document(tier: Tier, file: &TeamFile, events: Vec<Event>) -> NotifyDoc {
    NotifyDoc { schema: Named::new(), tier, project: file.project.clone(), session: file.session.clone(), events }
}

/// Why the notify command did not do its job; `shown` is its argv, escaped, one line.
#[derive(Debug, thiserror::Error)]
pub enum NotifyFailed {
    #[error("the notify command ({shown}) could not be started: {error}")]
    Start { shown: String, error: std::io::Error },
    #[error("the notify command ({shown}) failed ({status})")]
    Failed { shown: String, status: std::process::ExitStatus },
    #[error("the notify command ({shown}) did not end within {secs} s and was stopped")]
    Stopped { shown: String, secs: u64 },
    #[error("the notify command ({shown}) could not be waited for: {error}")]
    Wait { shown: String, error: std::io::Error },
    /// The team file's command is not one the owner approved for this checkout (`crate::trust`).
    #[error("the notify command ({shown}) is not approved for this checkout, so it was not run; {repair}")]
    NotApproved { shown: String, repair: String },
}

/// `Err` when the owner has not approved `n`'s command for the checkout at `root`: a cloned
/// team file runs nothing until its owner says so.
fn approved(ctx: &Ctx, root: &Path, n: &Notify) -> Result<(), NotifyFailed> {
    let w =
        crate::trust::Wanted { root: root.to_path_buf(), what: crate::trust::What::Notify, argv: n.command.clone() };
    if crate::trust::approved(&ctx.paths.config, &w) {
        return Ok(());
    }
    Err(NotifyFailed::NotApproved { shown: crate::trust::shown(&n.command), repair: crate::trust::repair(&w) })
}

/// Runs the command: `argv… <text>`, the document on stdin, bounded by `timeout:`.
pub fn run<D: Serialize + ?Sized>(n: &Notify, text: &str, doc: &D) -> Result<(), NotifyFailed> {
    let shown = n.command.iter().map(|w| one_line(w).into_owned()).collect::<Vec<_>>().join(" ");
    let mut cmd = Command::new(&n.command[0]);
    cmd.args(&n.command[1..]).arg(text);
    let mut bytes = serde_json::to_vec(doc).unwrap_or_default();
    bytes.push(b'\n');
    // the whole run is bounded: the document's write (a digest can pass a pipe's 64 KiB, and a
    // command may read nothing), the wait, and the process group killed at the bound
    match crate::child::run(cmd, Some(bytes), crate::child::Output::Discard, Duration::from_secs(n.timeout)) {
        Ok(e) if e.status.success() => Ok(()),
        Ok(e) => Err(NotifyFailed::Failed { shown, status: e.status }),
        Err(crate::child::Unfinished::Start(error)) => Err(NotifyFailed::Start { shown, error }),
        Err(crate::child::Unfinished::TimedOut(_)) => Err(NotifyFailed::Stopped { shown, secs: n.timeout }),
        Err(crate::child::Unfinished::Wait(error)) => Err(NotifyFailed::Wait { shown, error }),
    }
}

/// The project's history folder, where the markers live.
fn dir_of(ctx: &Ctx, file: &TeamFile, root: &Path) -> PathBuf {
    history::project_dir(&ctx.paths.config, &file.project, root)
}

/// A failure is said the first time only; a success clears the mark.
fn said_once(ctx: &Ctx, file: &TeamFile, root: &Path, res: Result<(), NotifyFailed>) -> Option<String> {
    let dir = dir_of(ctx, file, root);
    let mark = dir.join(FAILED);
    match res {
        Ok(()) => {
            let _ = std::fs::remove_file(&mark);
            None
        }
        Err(why) => {
            let why = why.to_string();
            if crate::fsx::check_entry(&mark).unwrap_or(true) {
                return None;
            }
            let made = crate::fsx::ensure_dirs(&ctx.paths.config, Path::new(dir.file_name()?), 0o700)
                .and_then(|d| crate::fsx::write_new(&d.join(FAILED), why.as_bytes(), 0o600));
            let _ = made;
            Some(format!("{why}; the owner was not notified (said once, until it works again)"))
        }
    }
}

/// What the digest's mark keeps.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Mark {
    /// The instant the last digest covered events up to (inclusive).
    until: String,
}

/// The digest, when one is due: the events of the digest's kinds after the last digest's
/// mark (or, with no mark, within the last `every:` seconds), sent as one run. A digest with
/// no event is not sent, and its mark is not moved. Returns a failure not said before.
pub fn digest(
    ctx: &Ctx,
    file: &TeamFile,
    root: &Path,
    lines: &[MessageLine],
    receipts: &[Receipt],
    now: DateTime<Utc>,
) -> Option<String> {
    let n = file.notify.as_ref()?;
    let dir = dir_of(ctx, file, root);
    let mark = crate::fsx::read_to_string(&dir.join(DIGEST_MARK))
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str::<Mark>(&t).ok())
        .and_then(|m| instant(&m.until));
    let every = chrono::Duration::seconds(n.every as i64);
    if mark.is_some_and(|m| now - m < every) {
        return None;
    }
    if let Err(not) = approved(ctx, root, n) {
        return said_once(ctx, file, root, Err(not));
    }
    let since = mark.unwrap_or(now - every);
    let mut events = digest_events(n, lines, receipts, since, now);
    let held_back = coalesce::pending(&dir);
    events.extend(held_back.iter().map(|p| Event::held_back(p, now)));
    if events.is_empty() {
        return None;
    }
    let text = digest_text(&events);
    let doc = document(Tier::Digest, file, events);
    let res = run(n, &text, &doc);
    if res.is_ok() {
        coalesce::carried(&ctx.paths.config, &dir, &held_back);
        let m = Mark { until: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true) };
        let body = serde_json::to_vec(&m).unwrap_or_default();
        if let Ok(d) = crate::fsx::ensure_dirs(&ctx.paths.config, Path::new(dir.file_name()?), 0o700) {
            let _ = crate::fsx::write_atomic(&d.join(DIGEST_MARK), &body, 0o600);
        }
    }
    said_once(ctx, file, root, res)
}

/// The digest's events in `(since, now]` (with no mark, `[since, now]`), oldest first.
fn digest_events(
    n: &Notify,
    lines: &[MessageLine],
    receipts: &[Receipt],
    since: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Vec<Event> {
    let inside = |ts: &crate::vocab::outcome::Ts| ts.at().is_some_and(|t| t > since && t <= now);
    let mut out = Vec::new();
    let by_id = |id: &str| lines.iter().find(|l| l.id == id);
    for l in lines.iter().filter(|l| inside(&l.ts)) {
        let kind = match (&l.outcome, l.retry) {
            (_, Some(_)) => Kind::Retried,
            (Outcome::Delivered, None) if l.note == Some(Note::NeverActed) => continue,
            (Outcome::Delivered, None) => Kind::Delivered,
            _ => continue,
        };
        if n.in_digest(kind) {
            out.push(Event::of_line(kind, l, None, None));
        }
    }
    for r in receipts.iter().filter(|r| inside(&r.ts)) {
        let kind = match r.receipt {
            ReceiptKind::Acked if r.by.is_none() => Kind::Acked,
            ReceiptKind::Read => Kind::Read,
            _ => continue,
        };
        if !n.in_digest(kind) {
            continue;
        }
        let Some(l) = by_id(&r.id) else { continue };
        let mut ev = Event::of_line(kind, l, r.note.as_deref(), None);
        ev.ts = r.ts.to_string();
        out.push(ev);
    }
    out.sort_by(|a, b| a.ts.cmp(&b.ts));
    out
}

/// `digest: 3 delivered, 1 acked` (an event of coalesced alerts counts as many as it holds).
fn digest_text(events: &[Event]) -> String {
    let mut counts: Vec<(Kind, usize)> = Vec::new();
    for e in events {
        let k = e.held_back.max(1) as usize;
        match counts.iter_mut().find(|(x, _)| *x == e.event) {
            Some((_, n)) => *n += k,
            None => counts.push((e.event, k)),
        }
    }
    counts.sort();
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {}", k.word())).collect();
    format!("digest: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::team_file::notify::{DEFAULT_DIGEST, DEFAULT_URGENT};
    use serde_json::json;

    fn notify(command: &[&str], timeout: u64) -> Notify {
        Notify {
            command: command.iter().map(|s| s.to_string()).collect(),
            urgent: DEFAULT_URGENT.to_vec(),
            digest: DEFAULT_DIGEST.to_vec(),
            every: 600,
            timeout,
        }
    }

    #[test]
    fn the_command_gets_its_text_and_the_document_and_is_bounded() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let script = format!("printf '%s\\n' \"$1\" >> {0}; cat >> {0}", out.display());
        let n = notify(&["sh", "-c", &script, "notify"], 5);
        run(&n, "held: hi", &json!({"a": 1})).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "held: hi\n{\"a\":1}\n");
        let e = run(&notify(&["false"], 5), "x", &json!({})).unwrap_err().to_string();
        assert!(e.starts_with("the notify command (false) failed"), "{e}");
        let e = run(&notify(&["sh", "-c", "sleep 30"], 1), "x", &json!({})).unwrap_err().to_string();
        assert!(e.ends_with("did not end within 1 s and was stopped"), "{e}");
        let e = run(&notify(&["/nonexistent/notify"], 1), "x", &json!({})).unwrap_err().to_string();
        assert!(e.contains("could not be started"), "{e}");
    }

    /// issue 29 item 3: a digest past a pipe's 64 KiB to a command that reads nothing held the
    /// run until the command ended by itself (the write came before the bound); now the write
    /// is inside the bound, and the command is stopped at it.
    #[test]
    fn a_document_past_the_pipe_to_a_command_that_reads_nothing_is_stopped_at_the_bound() {
        let big: Vec<String> = (0..600).map(|i| format!("{i:0>200}")).collect();
        let e = run(&notify(&["sh", "-c", "sleep 20"], 1), "digest: 600 delivered", &json!({ "events": big }))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("did not end within 1 s and was stopped"), "{e}");
    }

    #[test]
    fn a_digest_counts_its_events() {
        let l = MessageLine {
            ts: "2026-10-01T09:00:00Z".into(),
            from: "owner".into(),
            to: "rev".into(),
            body: "from the owner — admitted by: the owner\n\nreview it\nplease".into(),
            id: "00000000-0000-4000-8000-000000000001".into(),
            outcome: "delivered".into(),
            ..Default::default()
        };
        let ev = Event::of_line(Kind::Held, &l, Some("a draft"), None);
        assert_eq!(ev.text, "owner -> rev: held (a draft): review it");
        let n = notify(&["x"], 1);
        let since = instant("2026-10-01T08:00:00Z").unwrap();
        let now = instant("2026-10-01T10:00:00Z").unwrap();
        let two = [l.clone(), MessageLine { id: "00000000-0000-4000-8000-000000000002".into(), ..l.clone() }];
        let evs = digest_events(&n, &two, &[], since, now);
        assert_eq!(digest_text(&evs), "digest: 2 delivered");
        assert!(digest_events(&n, &two, &[], now, now).is_empty());
    }
}
