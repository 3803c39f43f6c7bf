//! The send use-case: resolve the target → admit the pair → read the seat's vendor facts →
//! the delivery order and its walk → the legs (`walk`) → the history line and the team.log
//! line → a typed [`SendReport`]. Also `--record` (a native delivery written down) and
//! `--list` (the addressable seats).
//!
//! Invariants:
//! - every refusal is decided by [`decide`] before anything is written: an unknown seat, a
//!   pair admission refuses, a seat whose `cli:` names no usable profile, every `--wait`;
//! - a dry run writes nothing (no drop, no history, no team.log line); a refusal writes only
//!   its own team.log line; a completed send (delivered, queued, held, not-submitted,
//!   unreachable) appends one history line, and a history line that cannot be written is said in the
//!   report (and the team.log line), never dropped silently;
//! - nothing here prints; `words` says the report, `cli::send` prints it.

pub mod all;
pub mod ask;
pub mod body;
pub mod doc;
pub mod facts;
pub mod hop;
pub mod list;
pub mod report;
mod taken;
pub mod walk;
pub mod words;
mod world;

use std::path::Path;

use crate::address::{self, SeatView, Target, TeamView, World};
use crate::admission::{self, Rule};
use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::{self, Kind, TeamError};
use crate::history::{self, LogLine, MessageLine};
use crate::legs::inbox::leg::Stay;
use crate::plan::{self, Facts, Failed, Level, Order, Plan};
use crate::registry::Registry;
use crate::team_file::host::Here;
use crate::team_file::Loaded;
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Ended, Note, Via};

pub use facts::FactsBook;
pub use report::{DryRun, HistoryWrite, ListReport, ListRow, Outcome, OutcomeWord, Report, SendReport};
pub use world::{load, standing, Loadout, Means};

/// The largest body a send carries, in bytes: 1 MiB, the largest frame a seat's socket takes
/// (measured), refused above it before any drop is written.
pub const MAX_BODY: usize = 1 << 20;

/// What the invocation asks for, once its words are checked (`ask`).
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    List,
    Send {
        target: String,
        body: String,
        wait: bool,
    },
    /// `team send all <message>`: every seat the caller may reach (`all`).
    All {
        body: String,
    },
    Record {
        target: String,
        body: Option<String>,
        ms: u64,
    },
}

/// Everything a send decided before touching a pane: every leg starts from here.
#[derive(Debug, Clone)]
pub struct Decision {
    pub caller: Caller,
    /// The cwd's team file, when the run stands in a team folder.
    pub file: Option<Loaded>,
    /// The resolved seat: its team (name, session, project, root, entity, file) and its seat
    /// (name, cli, registry record with its agent id, the file's `Seat`), with the spec.
    pub target: Target,
    /// The rule that admitted the pair.
    pub rule: Rule,
    /// What the seat's profile says about its CLI.
    pub facts: Facts,
    /// The order in force and the walk as far as it can be told before anything runs.
    pub plan: Plan,
    /// The sender header (drop files, the history body).
    pub header: String,
    /// The host word of the sender's machine, when the send came over a hop from another
    /// machine (`hop::deliver_here`): kept on the history line (`from_host`) so an answer
    /// goes back there.
    pub from_host: Option<String>,
    /// The send came over ssh from another machine (`hop::deliver_here`): said on its line.
    pub over_ssh: bool,
}

impl Decision {
    /// The receiving team's checkout root (its `.agents/` takes the drop and the log line).
    pub fn root(&self) -> Option<&Path> {
        self.target.team.root.as_deref()
    }
    /// `(project, session)` of this run's context line.
    pub fn context(&self) -> (String, String) {
        context_of(self.file.as_ref(), Some(&self.target.team))
    }
}

pub(crate) fn context_of(file: Option<&Loaded>, team: Option<&TeamView>) -> (String, String) {
    match (file, team) {
        (Some(l), _) => (l.file.project.clone(), l.file.session.clone()),
        (None, Some(t)) => (t.file_project.clone().unwrap_or_else(|| t.project.clone()), t.session.clone()),
        (None, None) => (String::new(), String::new()),
    }
}

/// The order in force for one seat of `team`: entity → project → team → seat.
pub fn order_for(reg: &Registry, team: &TeamView, seat: &SeatView) -> Order {
    let project_key = team.file_project.clone().unwrap_or_else(|| team.project.clone());
    let parse = |w: Option<&Vec<String>>| w.map(|w| plan::parse_order(w));
    let entity = parse(reg.entity_order(&team.entity));
    let project = parse(reg.project_order(&project_key));
    let team_level = parse(team.file.as_ref().and_then(|f| f.delivery_order.as_ref()));
    let seat_level = parse(seat.file_seat.as_ref().and_then(|s| s.delivery_order.as_ref()));
    plan::order_in_force(&[
        (Level::Entity, entity),
        (Level::Project, project),
        (Level::Team, team_level),
        (Level::Seat, seat_level),
    ])
}

/// `facts` with whether the seat's checkout runs team's hooks for its CLI (read from the
/// checkout's files: the one fact of a walk that is not the profile's).
pub fn with_hooks(facts: Facts, root: Option<&Path>) -> Facts {
    let installed = match (facts.hooks, root) {
        (Some(f), Some(r)) => crate::hooks::installed(r, f),
        _ => false,
    };
    Facts { hooks_installed: installed, ..facts }
}

/// The team's profile pins (none when its file could not be read).
pub fn pins_of(team: &TeamView) -> &std::collections::BTreeMap<String, String> {
    static NONE: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    team.file.as_ref().map(|f| &f.profiles).unwrap_or(&NONE)
}

/// Resolves, admits, reads the seat's facts and plans a send (or a record, `what` =
/// `recorded`) for `caller`. Writes nothing.
pub fn decide(
    m: &Means,
    book: &FactsBook,
    load: Loadout,
    caller: Caller,
    spec: &str,
    what: &str,
) -> error::Result<Decision> {
    let Loadout { file, reg } = load;
    let world = World::new(&reg, file.as_ref());
    let target = address::resolve(&world, spec)?;
    let rule = admission::admit(&world, &caller, &target, m.ctx.clock.now())?;
    let facts = book.of(target.cli(), pins_of(&target.team)).map_err(|n| n.refusal(target.name(), what))?;
    let facts = with_hooks(facts, target.team.root.as_deref());
    let order = order_for(&reg, &target.team, &target.seat);
    let plan = Plan::walk(facts, order);
    let header = admission::sender_header(&world, &caller, &rule);
    drop(world);
    Ok(Decision { caller, file, target, rule, facts, plan, header, from_host: None, over_ssh: false })
}

/// The decision of an answer to message `q` (its body `question`) that came over a hop: the
/// seat resolved as [`decide`] does, admitted by the rule `reply to <q>` (the far side checked
/// the question in its own history first), its header carrying the `in-reply-to:` line.
pub(crate) fn decide_reply(
    book: &FactsBook,
    load: Loadout,
    caller: Caller,
    spec: &str,
    q: &str,
    question: &str,
) -> error::Result<Decision> {
    let Loadout { file, reg } = load;
    let world = World::new(&reg, file.as_ref());
    let target = address::resolve(&world, spec)?;
    let rule = Rule::ReplyTo(q.to_string());
    let facts = book.of(target.cli(), pins_of(&target.team)).map_err(|n| n.refusal(target.name(), "sent"))?;
    let facts = with_hooks(facts, target.team.root.as_deref());
    let order = order_for(&reg, &target.team, &target.seat);
    let plan = Plan::walk(facts, order);
    let header = format!("{}\n{}", admission::sender_header(&world, &caller, &rule), history::in_reply_to(q, question));
    drop(world);
    Ok(Decision { caller, file, target, rule, facts, plan, header, from_host: None, over_ssh: false })
}

/// The `--wait` refusal for a decided seat, in the spec's words (without `refused: `).
pub fn wait_refusal(d: &Decision) -> String {
    let seat = d.target.name();
    let cli = d.target.cli();
    let order = &d.plan.order;
    if d.facts.native_channel {
        if order.first() == Some(Leg::Native) {
            format!("{seat}: --wait needs the native leg (team route + your own SendMessage), which this build does not carry; nothing was sent")
        } else {
            format!(
                "{seat}: --wait needs the native leg first, and its delivery order is {}; nothing was sent",
                order.spelled()
            )
        }
    } else {
        format!("{seat} runs {cli}: this build confirms that a native CLI submitted and does not carry its reply; nothing was sent")
    }
}

/// Runs what `ask` asks for. `Err` is a refusal or an invocation/file error decided before
/// anything was written (its team.log line, for a refusal, already written); every outcome a
/// leg reached is in the report.
pub fn run(m: &Means, load: Loadout, caller: Caller, ask: &Ask, dry_run: bool) -> error::Result<Report> {
    let book = FactsBook::new(m.profiles);
    let caller_root = load.file.as_ref().map(|l| l.root.clone());
    let res = match ask {
        Ask::List => {
            return Ok(Report::List(list::list(&book, load.file.as_ref(), &load.reg, &caller, m.ctx.clock.now())))
        }
        Ask::All { body } => {
            let res = all::all(m, load, caller.clone(), body, dry_run);
            if let Err(e) = &res {
                if !dry_run {
                    log(m.ctx, caller_root.as_deref(), &caller, None, e.kind.row(), None, Some(e.message()));
                }
            }
            return res.map(Report::All);
        }
        Ask::Send { target, body, wait } => send(m, &book, load, caller.clone(), target, body, *wait, dry_run),
        Ask::Record { target, body, ms } => {
            record(m, &book, load, caller.clone(), target, body.as_deref(), *ms, dry_run)
        }
    };
    if let Err(e) = &res {
        if !dry_run && !matches!(e.kind, Kind::Usage | Kind::BadFile) {
            let seat = match ask {
                Ask::Send { target, .. } | Ask::Record { target, .. } => Some(target.as_str()),
                Ask::List | Ask::All { .. } => None,
            };
            log(m.ctx, caller_root.as_deref(), &caller, seat, e.kind.row(), None, Some(e.message()));
        }
    }
    res.map(|r| Report::Send(Box::new(r)))
}

/// The team.log line of one seat's send refused in a broadcast (as `run` writes a refusal's).
fn log_refusal(m: &Means, load: &Loadout, caller: &Caller, ask: &Ask, e: &TeamError) {
    if matches!(e.kind, Kind::Usage | Kind::BadFile) {
        return;
    }
    let root = load.file.as_ref().map(|l| l.root.clone());
    let seat = match ask {
        Ask::Send { target, .. } => Some(target.as_str()),
        _ => None,
    };
    log(m.ctx, root.as_deref(), caller, seat, e.kind.row(), None, Some(e.message()));
}

/// The report of a decided run, before its outcome is filled in.
pub(crate) fn report(d: &Decision, outcome: Outcome) -> SendReport {
    let (project, session) = d.context();
    SendReport {
        project,
        session,
        seat: d.target.name().to_string(),
        cli: d.target.cli().to_string(),
        facts: d.facts,
        outcome,
        channel: None,
        order: d.plan.order.legs.clone(),
        failed: d.plan.failed.clone(),
        set_aside: d.plan.order.set_aside.clone(),
        rule: d.rule.words(),
        id: None,
        drop: None,
        ms: None,
        history: HistoryWrite::None,
        watch_retry: None,
        far: None,
        notify: None,
    }
}

fn no_checkout(seat: &str, what: &str) -> TeamError {
    TeamError::refused(format!(
        "{seat}: its team's checkout is not known to the registry, so there is no folder for its drop file; nothing was {what}"
    ))
}

#[allow(clippy::too_many_arguments)]
fn send(
    m: &Means,
    book: &FactsBook,
    load: Loadout,
    caller: Caller,
    spec: &str,
    body: &str,
    wait: bool,
    dry_run: bool,
) -> error::Result<SendReport> {
    let d = decide(m, book, load, caller, spec, "sent")?;
    if wait {
        let why = wait_refusal(&d);
        // a waited Claude Code send's dry run prints its refusal as a dry-run line; a
        // native-CLI seat's --wait --dry-run is the real run's refusal itself
        if dry_run && d.facts.native_channel {
            return Ok(report(&d, Outcome::DryRun(DryRun::WaitRefused { refusal: why })));
        }
        return Err(TeamError::refused(why));
    }
    if dry_run {
        let compose = if d.plan.terminal == Some(Leg::Compose) { compose_plan(m, &d) } else { Vec::new() };
        return Ok(report(&d, Outcome::DryRun(DryRun::Send { channel: d.plan.terminal, compose })));
    }
    carry(m, &d, body, None)
}

/// Carries a decided send (or a reply, `reply_to` naming the message it answers): a fresh id,
/// the walk over the legs, the history line and the team.log line. `Err` only when the
/// seat's checkout is unknown (nothing was written). The inbox leg stays for the hook's
/// receipt as long as the decided caller's [`walk::stay_for`] says — a send, a reply, a
/// broadcast's row, an MCP call alike: this is the one way to the legs, so no path holds an
/// agent for the window.
pub(crate) fn carry(m: &Means, d: &Decision, body: &str, reply_to: Option<&str>) -> error::Result<SendReport> {
    carry_staying(m, d, body, reply_to, walk::stay_for(&d.caller))
}

fn carry_staying(m: &Means, d: &Decision, body: &str, reply_to: Option<&str>, stay: Stay) -> error::Result<SendReport> {
    let id = m.ctx.ids.new_id();
    carry_under(m, d, &id, body, reply_to, stay, &Here::of_config(&m.ctx.paths.config))
}

/// The far side of a hop (`hop::deliver_here`): carries a decided send under the id the near
/// side gave it, standing on `here` (the seats of that host word are this machine's own).
pub(crate) fn carry_at(
    m: &Means,
    d: &Decision,
    id: &str,
    body: &str,
    reply_to: Option<&str>,
    here: &Here,
) -> error::Result<SendReport> {
    carry_under(m, d, id, body, reply_to, walk::stay_for(&d.caller), here)
}

fn carry_under(
    m: &Means,
    d: &Decision,
    id: &str,
    body: &str,
    reply_to: Option<&str>,
    stay: Stay,
    here: &Here,
) -> error::Result<SendReport> {
    let seat = d.target.name().to_string();
    let id = id.to_string();
    let root = d.root().map(Path::to_path_buf);
    if let Some(host) = d.target.seat.file_seat.as_ref().and_then(|s| s.host.as_ref()).filter(|h| !here.holds(Some(h)))
    {
        return Ok(hop::hop(m, d, host, &id, body, root.as_deref(), reply_to));
    }
    if d.plan.terminal.is_none() {
        return Ok(ran_out(m, d, d.plan.failed.clone(), &id, body, root.as_deref(), reply_to));
    }
    let Some(root) = root else { return Err(no_checkout(&seat, "sent")) };
    let text = admission::with_header(&d.header, body);
    let job = walk::Job { decision: d, at: walk::target(d, &root), id: &id, text: &text, body, stay, reply_to };
    let mut legs = walk::Legs::new(m);
    let walked = walk::walk(&d.plan.order, d.facts, &mut legs, &job);
    let Some(t) = walked.taken else {
        // every leg the plan could walk declined once it ran
        return Ok(ran_out(m, d, walked.failed, &id, body, Some(&root), reply_to));
    };
    let mut r = report(d, Outcome::Ended(t.ended.clone()));
    r.failed = walked.failed;
    taken::record(m, d, &t, &mut r, &id, body, &root, reply_to);
    r.id = Some(id);
    r.drop = t.drop;
    r.ms = Some(t.ms);
    Ok(r)
}

/// A compose seat's dry run: its module's plan for the repo of the seat's own folder, read as
/// the send reads it (the seat's pane, the folder of its CLI's process, that folder's origin),
/// or the refusal the send would meet.
fn compose_plan(m: &Means, d: &Decision) -> Vec<String> {
    let no_pins = std::collections::BTreeMap::new();
    let team_file = d.target.team.file.as_ref();
    let pins = team_file.map(|f| &f.profiles).unwrap_or(&no_pins);
    let mux = (m.mux)(team_file.and_then(|f| f.multiplexer.as_deref()));
    let team = &d.target.team;
    let pane = match mux.locate_in(&team.session, d.target.name(), &team.name) {
        Ok(p) => p,
        Err(e) => return vec![format!("the send would be unreachable: {e}")],
    };
    let mut p = match m.profiles.load(d.target.cli(), pins) {
        Ok(p) => p,
        Err(e) => return vec![e.message()],
    };
    let names = p.describe().process_names.clone();
    let Some(folder) = crate::legs::compose::seat_folder(mux.as_ref(), &pane, &names) else {
        return vec!["the send would be refused: the seat's folder could not be read, so its repo is not known".into()];
    };
    let repo = match crate::legs::compose::origin_of(&folder) {
        Ok(r) => r,
        Err(why) => return vec![format!("the send would be refused: {why}")],
    };
    let mut steps = vec![format!("for {} (the origin of {})", repo.slug, folder.display())];
    match crate::legs::compose::plan(&mut p, &repo) {
        Ok(s) => steps.extend(s),
        Err(why) => steps.push(why),
    }
    steps
}

/// A walk that ran out of legs (`failed`: every leg it passed): unreachable, and a completed
/// run — one history line (when the seat's checkout is known) and one team.log line.
fn ran_out(
    m: &Means,
    d: &Decision,
    failed: Vec<Failed>,
    id: &str,
    body: &str,
    root: Option<&Path>,
    reply_to: Option<&str>,
) -> SendReport {
    let plan = Plan { failed, terminal: None, ..d.plan.clone() };
    let mut r = report(d, Outcome::Ended(Ended::unreachable(plan.ran_out())));
    let why = plan.ran_out();
    let line = MessageLine {
        failed: plan.failed_words(),
        note: Some(Note::from(why.as_str())),
        reply_to: reply_to.map(str::to_string),
        ..history_line(m.ctx, d, id, body, crate::vocab::outcome::Outcome::Unreachable)
    };
    if let Some(root) = root {
        r.history = append_history(m.ctx, d, root, &line);
        r.notify = taken::tell_owner(m, d, &line, root, None, Some(&why));
    }
    let mut detail = plan.ran_out();
    for s in &plan.order.set_aside {
        detail.push_str(&format!("; {}", s.sentence()));
    }
    detail.push_str(&history_detail(&r.history));
    if let Some(n) = &r.notify {
        detail.push_str(&format!(", {n}"));
    }
    log(m.ctx, root, &d.caller, Some(d.target.name()), line.outcome.word(), Some(body.len()), Some(detail));
    r.failed = plan.failed;
    r.id = Some(id.to_string());
    r
}

#[allow(clippy::too_many_arguments)]
fn record(
    m: &Means,
    book: &FactsBook,
    load: Loadout,
    caller: Caller,
    spec: &str,
    body: Option<&str>,
    ms: u64,
    dry_run: bool,
) -> error::Result<SendReport> {
    let d = decide(m, book, load, caller, spec, "recorded")?;
    let seat = d.target.name().to_string();
    let cli = d.target.cli().to_string();
    if !d.facts.native_channel {
        return Err(TeamError::refused(format!(
            "{seat} runs {cli}, which carries no native channel; nothing was recorded"
        )));
    }
    if !d.plan.order.keeps(Leg::Native) {
        return Err(TeamError::refused(format!(
            "{seat}: its delivery order is {}, which does not keep the native leg; nothing was recorded",
            d.plan.order.spelled()
        )));
    }
    if dry_run {
        return Ok(report(&d, Outcome::DryRun(DryRun::Record { ms })));
    }
    let Some(root) = d.root().map(Path::to_path_buf) else {
        return Err(TeamError::refused(format!("{seat}: its team's checkout is not known to the registry, so the delivery cannot be written down; nothing was recorded")));
    };
    let text = body.unwrap_or("(the text did not pass through this CLI)");
    let id = m.ctx.ids.new_id();
    let line = MessageLine {
        ms: Some(ms),
        via: Some(Via::Leg(Leg::Native)),
        note: body.is_none().then_some(Note::TextNotThrough),
        ..history_line(m.ctx, &d, &id, text, crate::vocab::outcome::Outcome::Delivered)
    };
    if let Err(e) = history::append_message(&m.ctx.paths.config, &history_project(&d), &root, &line) {
        return Err(TeamError::refused(format!(
            "{seat}: the delivery could not be written down ({e}); nothing was recorded"
        )));
    }
    log(
        m.ctx,
        Some(&root),
        &d.caller,
        Some(&seat),
        "recorded",
        body.map(str::len),
        Some(format!("native, {ms} ms, id {id}")),
    );
    let mut r = report(&d, Outcome::Recorded { ms });
    r.channel = Some(Leg::Native);
    r.id = Some(id);
    r.history = HistoryWrite::Written;
    Ok(r)
}

/// The history line of a decided send: who to whom, the body under its sender header, and the
/// address as written beside the seat it resolved to. Callers add `ms`, `via`, `failed`, `note`.
fn history_line(ctx: &Ctx, d: &Decision, id: &str, text: &str, outcome: crate::vocab::outcome::Outcome) -> MessageLine {
    let (spec, resolved) = d.target.spec_and_resolved();
    MessageLine {
        ts: ctx.clock.now_ts(),
        from: from_of(d),
        to: d.target.name().to_string(),
        body: admission::with_header(&d.header, text),
        id: id.to_string(),
        outcome,
        spec,
        resolved,
        from_host: d.from_host.clone(),
        over_ssh: d.over_ssh,
        ..Default::default()
    }
}

fn append_history(ctx: &Ctx, d: &Decision, root: &Path, line: &MessageLine) -> HistoryWrite {
    match history::append_message(&ctx.paths.config, &history_project(d), root, line) {
        Ok(()) => HistoryWrite::Written,
        Err(e) => HistoryWrite::NotWritten(e.to_string()),
    }
}

/// The team.log detail's words for a history line that could not be written.
fn history_detail(h: &HistoryWrite) -> String {
    match h {
        HistoryWrite::NotWritten(why) => format!(", history line not written: {why}"),
        _ => String::new(),
    }
}

/// The project key the receiving team's history lives under.
pub(crate) fn history_project(d: &Decision) -> String {
    d.target.team.file_project.clone().unwrap_or_else(|| d.target.team.project.clone())
}

/// The history's `from`: `owner`, the seat in its own team's history, `<seat>@<team>` in
/// another team's.
pub(crate) fn from_of(d: &Decision) -> String {
    match &d.caller {
        Caller::Seat { team, seat, .. } if *team != d.target.team.name => format!("{seat}@{team}"),
        c => c.from_name(),
    }
}

/// Writes the run's team.log line under `root` (when there is one); a log that cannot be
/// written never changes the outcome already reached.
fn log(
    ctx: &Ctx,
    root: Option<&Path>,
    caller: &Caller,
    seat: Option<&str>,
    outcome: &str,
    bytes: Option<usize>,
    detail: Option<String>,
) {
    if let Some(root) = root {
        let line = LogLine {
            command: "send".into(),
            caller: caller.describe(),
            seat: seat.map(str::to_string),
            outcome: outcome.into(),
            bytes,
            detail,
        };
        let _ = history::append_log(root, &ctx.clock.now_iso(), &line);
    }
}
