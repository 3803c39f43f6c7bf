//! Both sides of a send to a seat on another machine.
//!
//! - The near side ([`hop`]): the send's admission already judged here, the remote leg
//!   (`legs::remote`) carries it over ssh; one history line here with the same id the far side
//!   keeps, its via `ssh`.
//! - The far side ([`deliver_here`], run as the hidden `team hop deliver`): the request's
//!   protocol and id checked, the id claimed as a once-only key, the sender judged again
//!   against this machine's own copy of the team file (a sender the file does not have is
//!   refused), this machine's leg run under that id, its outcome written down beside the claim
//!   and answered. [`status_here`] (`team hop status <id>`) answers what became of an id.
//! - Answers across the hop: the request names the sender's machine (`from_host`), which the
//!   far side keeps on its line; a reply there goes back over ssh (`back_to`, and
//!   [`answer_owner`] for the owner's question), and the asker's machine admits a request with
//!   `reply_to` only when its own history holds that question, from the seat (or the owner) it
//!   goes to, to the answering seat, delivered (`answered`).
//!
//! Invariant: an id the far side has claimed is never carried again — a second deliver of it,
//! or a status, answers the outcome written down (waiting a bounded time for a leg still
//! running), or says it is in doubt; nothing here types.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{append_history, history_detail, history_line, log, report, Decision, Means, Outcome, SendReport};
use crate::caller::Caller;
use crate::error::{Kind, TeamError};
use crate::history::ledger::OWNER;
use crate::legs::remote::{self, doc};
use crate::team_file::host::{Here, SeatHost};
use crate::team_file::Loaded;
use crate::vocab::outcome::{Note, Via};

/// How long a far side's status waits for a leg still running under the id.
const PENDING_WAIT: Duration = Duration::from_secs(40);

/// The near side: carries a decided send to a seat on another machine.
pub(super) fn hop(
    m: &Means,
    d: &Decision,
    host: &SeatHost,
    id: &str,
    body: &str,
    root: Option<&Path>,
    reply_to: Option<&str>,
) -> SendReport {
    let from = match &d.caller {
        Caller::Seat { team, seat, .. } => doc::From::Seat { team: team.clone(), seat: seat.clone() },
        _ => doc::From::Owner,
    };
    let from_host = sender_host(m, d);
    let req = remote::Request {
        host,
        id,
        from: &from,
        from_host: from_host.as_deref(),
        team: &d.target.team.name,
        seat: d.target.name(),
        body,
        reply_to,
    };
    let hopped = remote::deliver(&m.ctx.paths.state, &req);
    let ended = hopped.ended;
    let mut r = report(d, Outcome::Ended(ended.clone()));
    if !ended.is_refused() {
        let note = if ended.is_delivered() { ended.note.clone() } else { Some(Note::from(ended.reason())) };
        let line = crate::history::MessageLine {
            note,
            // the far side answered, or may have taken it (left in doubt): the line names the hop
            via: (hopped.far_version.is_some() || remote::left_in_doubt(ended.reason())).then_some(Via::Ssh),
            to_host: Some(host.word.clone()),
            far_via: hopped.far_leg.clone(),
            reply_to: reply_to.map(str::to_string),
            ..history_line(m.ctx, d, id, body, ended.outcome.clone())
        };
        if let Some(root) = root {
            r.history = append_history(m.ctx, d, root, &line);
        }
    }
    let mut detail = format!("id {id}, via ssh to {}", host.word);
    if let Some(v) = hopped.far_version.as_deref().filter(|v| *v != doc::version()) {
        let far = format!("the team on {} is {v}, this one {}", host.word, doc::version());
        detail.push_str(&format!(", {far}"));
        r.far = Some(far);
    }
    if hopped.read_back {
        detail.push_str(", its outcome read back by id");
    }
    detail.push_str(&history_detail(&r.history));
    log(m.ctx, root, &d.caller, Some(d.target.name()), r.outcome.word(), Some(body.len()), Some(detail));
    r.id = Some(id.to_string());
    r
}

/// The host word the sender's machine answers to, as this side knows it: the sending seat's
/// own `host:` in the caller's team file, else the first word of this machine's
/// `<config>/here`; `None` when neither names one.
fn sender_host(m: &Means, d: &Decision) -> Option<String> {
    caller_host(m, &d.caller, d.file.as_ref())
}

fn caller_host(m: &Means, caller: &Caller, file: Option<&Loaded>) -> Option<String> {
    let own = match (caller, file) {
        (Caller::Seat { team, seat, .. }, Some(l)) if l.file.team == *team => {
            l.file.seats.iter().find(|s| s.name == *seat).and_then(|s| s.host.as_ref()).map(|h| h.word.clone())
        }
        _ => None,
    };
    own.or_else(|| Here::of_config(&m.ctx.paths.config).first().map(str::to_string))
}

/// Sends an answer back to the machine its question came from (`word`, the question's
/// `from_host`): when the team file gives the asker no `host:` of its own — a seat with none is
/// "this machine's own" wherever the file is read, which is not where it asked from — and
/// `word` is not this machine's, the asker's seat is taken to be on `word`, reached over ssh
/// as any seat with a `host:`. A `host:` the file writes is kept: the owner's file decides.
pub(crate) fn back_to(m: &Means, d: &mut Decision, word: &str) {
    let hosts = d.target.team.file.as_ref().map(|f| f.hosts.clone()).unwrap_or_default();
    let Some(seat) = d.target.seat.file_seat.as_mut() else { return };
    if seat.host.is_some() {
        return;
    }
    let host = hosts.resolve(word, 0);
    if !Here::of_config(&m.ctx.paths.config).holds(Some(&host)) {
        seat.host = Some(host);
    }
}

/// The machine an answer to the owner goes back to, its question having come over ssh from
/// `word`: that host, unless the word is this machine's own (`None`: the owner is here).
pub fn owner_elsewhere(m: &Means, file: &Loaded, word: &str) -> Option<SeatHost> {
    let host = file.file.hosts.resolve(word, 0);
    (!Here::of_config(&m.ctx.paths.config).holds(Some(&host))).then_some(host)
}

/// An answer (`body`, to question `q`) to the owner on the machine `host`: carried over ssh to
/// that machine's owner inbox under a fresh id (the far side checks the question in its own
/// history), one history line here (`<seat> -> owner`, via ssh, `reply_to`, `header` on its
/// body) and the team.log line; its report (seat `owner`).
pub fn answer_owner(
    m: &Means,
    file: &Loaded,
    caller: &Caller,
    host: &SeatHost,
    q: &str,
    body: &str,
    header: &str,
) -> SendReport {
    let id = m.ctx.ids.new_id();
    let (from, me) = match caller {
        Caller::Seat { team, seat, .. } => (doc::From::Seat { team: team.clone(), seat: seat.clone() }, seat.clone()),
        other => (doc::From::Owner, other.from_name()),
    };
    let from_host = caller_host(m, caller, Some(file));
    let team = &file.file.team;
    let req = remote::Request {
        host,
        id: &id,
        from: &from,
        from_host: from_host.as_deref(),
        team,
        seat: OWNER,
        body,
        reply_to: Some(q),
    };
    let hopped = remote::deliver(&m.ctx.paths.state, &req);
    let ended = hopped.ended;
    let mut history = super::HistoryWrite::None;
    if !ended.is_refused() {
        let note = if ended.is_delivered() { ended.note.clone() } else { Some(Note::from(ended.reason())) };
        let line = crate::history::MessageLine {
            ts: m.ctx.clock.now_ts(),
            from: me,
            to: OWNER.into(),
            body: crate::admission::with_header(header, body),
            id: id.clone(),
            outcome: ended.outcome.clone(),
            via: (hopped.far_version.is_some() || remote::left_in_doubt(ended.reason())).then_some(Via::Ssh),
            to_host: Some(host.word.clone()),
            far_via: hopped.far_leg.clone(),
            note,
            reply_to: Some(q.to_string()),
            ..Default::default()
        };
        history = match crate::history::append_message(&m.ctx.paths.config, &file.file.project, &file.root, &line) {
            Ok(()) => super::HistoryWrite::Written,
            Err(e) => super::HistoryWrite::NotWritten(e.to_string()),
        };
    }
    let detail = format!("id {id}, via ssh to {}, reply to {q}{}", host.word, history_detail(&history));
    let outcome = Outcome::Ended(ended);
    log(m.ctx, Some(&file.root), caller, Some(OWNER), outcome.word(), Some(body.len()), Some(detail));
    SendReport {
        project: file.file.project.clone(),
        session: file.file.session.clone(),
        seat: OWNER.into(),
        cli: String::new(),
        facts: Default::default(),
        outcome,
        channel: None,
        order: Vec::new(),
        failed: Vec::new(),
        set_aside: Vec::new(),
        rule: crate::admission::Rule::ReplyTo(q.to_string()).words(),
        id: Some(id),
        drop: None,
        ms: None,
        history,
        watch_retry: None,
        notify: None,
        far: None,
    }
}

/// The far side's folder of claimed ids (`<state>/hop`, 0700).
fn claims(state: &Path) -> PathBuf {
    state.join("hop")
}

/// What leaves an answer in this machine's owner inbox (`converse`'s): the far side of a reply
/// to the owner, its question (`id`, body) checked, the answering seat, the request.
pub type ToOwner<'a> =
    &'a dyn Fn(&Means, &Loaded, &Caller, (&str, &str), &doc::Request) -> Result<doc::State, TeamError>;

/// The far side of a hop: takes `req` once, judges, carries, answers. An answer to the owner
/// is left by `to_owner`.
pub fn deliver_here(m: &Means, req: &doc::Request, to_owner: ToOwner) -> doc::Answer {
    if req.hop != doc::PROTOCOL {
        let why = format!("this team speaks hop protocol {}, the request {}", doc::PROTOCOL, req.hop);
        return doc::Answer::new(&req.id, doc::State::Refused { why });
    }
    if !doc::id_ok(&req.id) {
        return doc::Answer::new(&req.id, doc::State::Refused { why: "its message id is no id".into() });
    }
    let dir = claims(&m.ctx.paths.state);
    let _ = std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir);
    let claim = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(dir.join(format!("{}.claim", req.id)));
    let mut claim = match claim {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return status_here(m, &req.id),
        Err(e) => {
            let why = format!("its claim of the id could not be written ({e})");
            return doc::Answer::new(&req.id, doc::State::Refused { why });
        }
    };
    let _ = writeln!(claim, "{}", std::process::id());
    let state = judge_and_carry(m, req, to_owner).unwrap_or_else(|e| doc::State::Refused { why: e.message() });
    let answer = doc::Answer::new(&req.id, state);
    let done = dir.join(format!("{}.json", req.id));
    let tmp = dir.join(format!("{}.json.tmp", req.id));
    if std::fs::write(&tmp, serde_json::to_vec(&answer).unwrap_or_default()).is_ok() {
        let _ = std::fs::rename(&tmp, &done);
    }
    answer
}

/// The far side's judgement of the request against its own registry and team file, then its
/// own leg under the request's id. `Err`: refused, nothing sent (its message is the answer's
/// `why`).
fn judge_and_carry(m: &Means, req: &doc::Request, to_owner: ToOwner) -> Result<doc::State, TeamError> {
    let reg = crate::registry::Registry::load(&m.ctx.paths.config)?;
    let here = format!("the machine {}", req.here);
    let root = reg.team(&req.team).and_then(|t| t.root.clone()).ok_or_else(|| {
        refused(format!("{here} has no team {} in its registry (team up there, in its checkout, first)", req.team))
    })?;
    let file = crate::team_file::find(&root)?
        .filter(|l| l.file.team == req.team)
        .ok_or_else(|| refused(format!("{here} has no team file of {} at {}", req.team, root.display())))?;
    let caller = match &req.from {
        doc::From::Owner => Caller::Owner,
        doc::From::Seat { team, seat } => {
            let known = if *team == file.file.team {
                file.file.seats.iter().any(|s| s.name == *seat)
            } else {
                crate::address::World::new(&reg, Some(&file)).team(team).is_some_and(|t| t.seat(seat).is_some())
            };
            if !known {
                return Err(refused(format!("{seat}@{team} is no seat of the team file on {here}")));
            }
            let agent = reg.agents_for(team, seat).first().map(|a| (*a).clone());
            Caller::Seat { team: team.clone(), seat: seat.clone(), agent, pane: format!("ssh:{}", req.here) }
        }
    };
    let book = super::FactsBook::new(m.profiles);
    if req.seat == OWNER {
        // the owner is no seat: only an answer to the owner's own question comes to it this way
        let Some(q) = &req.reply_to else { return Err(refused("the owner is reached over ssh only by an answer")) };
        let (q, body) = answered(m, &file, q, OWNER, &caller, &here)?;
        return to_owner(m, &file, &caller, (&q, &body), req);
    }
    let question = match &req.reply_to {
        Some(q) => Some(answered(m, &file, q, &req.seat, &caller, &here)?),
        None => None,
    };
    let load = super::Loadout { file: Some(file), reg };
    let mut d = match &question {
        // an answer is admitted by its own rule, as `team reply` on one machine is
        Some((q, body)) => super::decide_reply(&book, load, caller, &req.seat, q, body),
        None => super::decide(m, &book, load, caller, &req.seat, "sent"),
    }?;
    d.from_host = req.from_host.clone();
    d.over_ssh = true;
    let seat_host = d.target.seat.file_seat.as_ref().and_then(|s| s.host.as_ref());
    let here_word = Here::on(&req.here);
    if !here_word.holds(seat_host) {
        return Err(refused(format!(
            "{} is not on this machine by its team file (its host is {})",
            req.seat,
            seat_host.map(|h| h.word.as_str()).unwrap_or("this side's")
        )));
    }
    super::carry_at(m, &d, &req.id, &req.body, req.reply_to.as_deref(), &here_word).map(|r| ended_state(&r))
}

/// A far side's refusal: its words are the answer's `why` (no `refused: ` before them, which
/// the near side's outcome says).
fn refused(why: impl Into<String>) -> TeamError {
    TeamError::new(Kind::Refused, why)
}

/// The far side's check of an answer (a request with `reply_to`): the message it answers is
/// one this machine's history says `seat` sent to the answering seat and saw delivered (the
/// rule `reply to <id>` admits nothing else); `Ok` is the question's id and its body.
fn answered(
    m: &Means,
    file: &crate::team_file::Loaded,
    q: &str,
    seat: &str,
    caller: &Caller,
    here: &str,
) -> Result<(String, String), TeamError> {
    let Caller::Seat { seat: me, .. } = caller else {
        return Err(refused("the owner answers with a send, not a reply"));
    };
    let dir = crate::history::project_dir(&m.ctx.paths.config, &file.file.project, &file.root);
    let lines = crate::history::read_history(&m.ctx.paths.config, &dir)
        .map_err(|e| TeamError::failed(format!("the history of {} on {here} cannot be read: {e}", file.file.project)))?
        .lines;
    let asked = |l: &&crate::history::MessageLine| l.id == q && l.from == seat && l.to == *me;
    let delivered = lines.iter().filter(asked).find(|l| l.outcome == crate::vocab::outcome::Outcome::Delivered);
    match delivered {
        Some(l) => Ok((q.to_string(), l.body.clone())),
        None => {
            Err(refused(format!("it answers {q}, which is no message {seat} sent to {me} and saw delivered on {here}")))
        }
    }
}

fn ended_state(r: &SendReport) -> doc::State {
    match &r.outcome {
        Outcome::Ended(e) => doc::State::Ended {
            outcome: e.outcome.word().to_string(),
            reason: e.note.as_ref().map(ToString::to_string),
            channel: r.channel.map(|l| l.word().to_string()),
            already: false,
            by: e.by.as_ref().map(|b| b.word().to_string()),
        },
        other => doc::State::Refused { why: format!("its send ended {}", other.word()) },
    }
}

/// What became of `id` on this machine: its outcome written down (`already`), in doubt
/// (claimed, not ended: waited for up to [`PENDING_WAIT`] while the run that took it lives),
/// or unknown.
pub fn status_here(m: &Means, id: &str) -> doc::Answer {
    if !doc::id_ok(id) {
        return doc::Answer::new(id, doc::State::Refused { why: "its message id is no id".into() });
    }
    let dir = claims(&m.ctx.paths.state);
    let claim = dir.join(format!("{id}.claim"));
    let done = dir.join(format!("{id}.json"));
    let t = Instant::now();
    loop {
        if let Some(mut a) = std::fs::read(&done).ok().and_then(|b| serde_json::from_slice::<doc::Answer>(&b).ok()) {
            if let doc::State::Ended { already, .. } = &mut a.state {
                *already = true;
            }
            return a;
        }
        let Ok(text) = std::fs::read_to_string(&claim) else { return doc::Answer::new(id, doc::State::Unknown) };
        let alive = text.trim().parse::<i32>().is_ok_and(|p| Path::new(&format!("/proc/{p}")).exists());
        if !alive {
            let why = "the run that took it here ended before it wrote what became of it".into();
            return doc::Answer::new(id, doc::State::InDoubt { why });
        }
        if t.elapsed() > PENDING_WAIT {
            let why = "the run that took it here has not ended".into();
            return doc::Answer::new(id, doc::State::InDoubt { why });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
