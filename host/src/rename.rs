//! `team rename <seat> <new-name>`: gives a seat of the team file another name everywhere the
//! name stands — the file's own values (`team_file::edit`), the pane the multiplexer names the
//! seat (tmux's `@team-seat` mark, herdr's agent name, through the port's `name_pane`), the
//! seat's record in `.agents/team.state.json` and the session's launched pointer, and the
//! registry's agent records (their ids kept) and roster line. The repair `team check` names
//! for a legacy seat called `lead`.
//!
//! The run: the owner only (`admit`) → the new name (the seat grammar, not `lead`, not the old
//! name, no other seat's name or nickname) → the file's sites, edited and read back → each
//! other place: what names the old seat, and that nothing already holds the new name → the
//! seat lock → the writes, the pane first (the one place an outside program may refuse the
//! name: then nothing else is written), then the file, the state, the launched pointer, the
//! registry → one team.log line.
//!
//! The file is read, planned on and written under its edit lock (`team_file::lock`): a second
//! rename waits for the first and edits what it wrote. A hand edit takes no lock, so the file
//! is compared with the text the plan was made on before the pane is renamed and again before
//! the write (the pane step waits on the multiplexer): a file that changed is refused, the
//! pane's name put back, nothing renamed. The seat's lock is waited for behind a send, up to
//! [`SEND_WAIT`].
//!
//! Invariants: a refusal changes nothing; a dry run writes nothing and takes no lock; nothing
//! is typed into any pane; the agent id is kept; no edit of the file is ever written over. A
//! file that already declares the new name and no longer the old one (an earlier run stopped
//! part way, or the file renamed by hand) is not refused: the other places follow it, so
//! running the same rename again completes one.

pub mod doc;
mod steps;
mod write;

use std::path::Path;
use std::time::Duration;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::{At, IoAt, Kind, TeamError};
use crate::history::{self, LogLine};
use crate::mux::{Mux, MuxError, PaneInfo};
use crate::registry::{self, Registry};
use crate::state::{self, State};
use crate::team_file::edit::{self, EditError};
use crate::team_file::{Loaded, TeamFile};
use crate::vocab::names::{RESERVED_ALL, RESERVED_LEAD};
use crate::workspace::Workspace;

pub use steps::Step;

/// How long a rename waits for a send's seat lock (one delivery) before it refuses.
pub const SEND_WAIT: Duration = Duration::from_secs(10);

/// What the invocation asks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    pub seat: String,
    pub new: String,
    pub dry_run: bool,
}

/// What a run is given: the multiplexer and the run's context (folders, clock).
pub struct Means<'a> {
    pub mux: &'a dyn Mux,
    pub ctx: &'a Ctx,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Renamed,
    DryRun,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Renamed => "renamed",
            Status::DryRun => "dry-run",
        }
    }
}

/// What a run did (or would do): each place as a step, the working lines it says (`notes`)
/// and its closing line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub project: String,
    pub session: String,
    pub mux: &'static str,
    pub seat: String,
    pub new: String,
    pub status: Status,
    pub steps: Vec<Step>,
    pub notes: Vec<String>,
    pub line: String,
}

impl Report {
    /// The pane renamed (or that would be), when one is.
    pub fn pane(&self) -> Option<&str> {
        self.steps.iter().find_map(|s| match s {
            Step::Pane { pane, .. } => Some(pane.id.as_str()),
            _ => None,
        })
    }
    /// The agent ids the registry's renamed records keep.
    pub fn agents(&self) -> Vec<String> {
        self.steps
            .iter()
            .find_map(|s| match s {
                Step::Registry { agents, .. } => Some(agents.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
    /// One step's detail, as the plan and `--json` say it.
    pub fn detail(&self, step: &Step) -> String {
        step.detail(self.mux, &self.session)
    }
}

fn refuse(id: &str, msg: impl Into<String>) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("rename.{id}"))
}

/// The sentence every caller but the owner is refused with (completed by who it is).
pub const OWNER_ONLY: &str = "only the owner renames a seat, from a terminal outside the team's panes";

/// Who may rename: the owner alone — a seat's name is its address for every other seat, so
/// no seat renames one (its own included), whatever `delegates` or `grant` say.
fn admit(caller: &Caller) -> Result<(), TeamError> {
    match caller {
        Caller::Owner => Ok(()),
        Caller::Unreachable { why } => {
            Err(TeamError::new(Kind::Unreachable, format!("unreachable: {why}; nothing was renamed"))
                .with_id("rename.unreachable"))
        }
        Caller::Blocked { why, repair } => {
            let mut e = refuse("caller", format!("{why}; nothing was renamed"));
            e.hints.extend(repair.clone());
            Err(e)
        }
        other => Err(refuse("caller", format!("{OWNER_ONLY}; this call is {}", other.describe()))
            .with_repair("run team rename from your own terminal, outside herdr and the team's tmux panes")),
    }
}

/// `team rename` from the working set: the team file of the checkout the run stands in
/// (refused outside one), the registry, and the caller through the file's multiplexer.
pub fn run_here(ws: &Workspace, req: &Request) -> Result<Report, TeamError> {
    let file = ws.team_in_checkout()?;
    let (reg, who) = (ws.reg()?, ws.caller()?);
    run(&Means { mux: ws.team_mux()?, ctx: ws.ctx }, file, reg, who, req)
}

/// Runs `team rename` for `caller`; a refusal writes its own team.log line (not on
/// `--dry-run`).
pub fn run(m: &Means, file: &Loaded, reg: &Registry, caller: &Caller, req: &Request) -> Result<Report, TeamError> {
    let res = admit(caller).and_then(|()| rename(m, file, reg, caller, req));
    if let Err(e) = &res {
        if !req.dry_run && !matches!(e.kind, Kind::Usage | Kind::BadFile) {
            let row = e.id_for("rename");
            log(m.ctx, &file.root, caller, &req.seat, row.trim_start_matches("rename."), e.message());
        }
    }
    res
}

fn log(ctx: &Ctx, root: &Path, caller: &Caller, seat: &str, outcome: &str, detail: String) {
    let _ = history::append_log(
        root,
        &ctx.clock.now_iso(),
        &LogLine {
            command: "rename".into(),
            caller: caller.describe(),
            seat: Some(seat.into()),
            outcome: outcome.into(),
            bytes: None,
            detail: Some(detail),
        },
    );
}

/// The new name's own refusals: the seat grammar, the reserved word, the old name itself.
fn check_new(old: &str, new: &str) -> Result<(), TeamError> {
    crate::vocab::names::check(crate::vocab::names::Kind::Seat, new)
        .map_err(|why| refuse("name", format!("{why}; nothing was renamed")))?;
    if new == RESERVED_LEAD {
        return Err(refuse(
            "reserved",
            "\"lead\" is reserved for the lead@<team> address, and no seat takes it; nothing was renamed",
        )
        .with_repair("name the seat otherwise; leads: true on a seat makes lead@<team> reach it"));
    }
    if new == RESERVED_ALL {
        return Err(refuse(
            "reserved",
            "\"all\" is reserved for team send all, and no seat takes it; nothing was renamed",
        )
        .with_repair("name the seat otherwise"));
    }
    if new == old {
        return Err(refuse("same", format!("the seat is already named {old}; nothing was renamed")));
    }
    Ok(())
}

/// The file's part: the sites and the edited text (`None`: the file already names the seat
/// `new`, the resumed case).
fn plan_file(
    file: &Loaded,
    before: &TeamFile,
    text: &str,
    old: &str,
    new: &str,
) -> Result<Option<(Vec<edit::Site>, String)>, TeamError> {
    let f = before;
    if f.seat(old).is_none() {
        if f.seat(new).is_some() {
            return Ok(None);
        }
        let names = f.seat_names();
        let hint = crate::nearest::nearest(old, names.iter().copied())
            .map(|n| format!(" (did you mean {n}?)"))
            .unwrap_or_default();
        let list = if names.is_empty() { "none yet".to_string() } else { names.join(", ") };
        return Err(refuse(
            "no-seat",
            format!("the file has no seat \"{old}\"{hint}; its seats are {list}; nothing was renamed"),
        ));
    }
    if let Some(s) = f.seat(new) {
        return Err(refuse(
            "taken",
            format!("\"{new}\" is already a seat of the file (line {}); nothing was renamed", s.line),
        )
        .with_repair("choose a name no seat of the file has"));
    }
    if let Some(s) = f.seats.iter().find(|s| s.nickname.as_deref() == Some(new)) {
        return Err(refuse(
            "taken",
            format!("\"{new}\" is already seat \"{}\"'s nickname (@{new}); nothing was renamed", s.name),
        )
        .with_repair("choose a name no seat of the file has as its name or nickname"));
    }
    let sites = edit::sites(text, old, &f.team).map_err(|e| match e {
        EditError::Form { line, key, written } => refuse(
            "form",
            format!(
                "line {line}: {key}: names the seat as `{}`, a form this run does not rewrite; nothing was renamed",
                crate::vocab::text::one_line(&written)
            ),
        )
        .with_repair(format!("write the seat's name there plainly ({old}), then run this again")),
        EditError::NoSeat | EditError::Unreadable(_) => changed(file),
    })?;
    let edited = edit::apply(text, &sites, old, new);
    edit::verify(&edited, f, old, new).map_err(|why| {
        refuse("verify", format!("the renamed file would not read back as this team: {why}; nothing was renamed"))
    })?;
    Ok(Some((sites, edited)))
}

fn changed(file: &Loaded) -> TeamError {
    TeamError::bad_file(format!("{} changed while it was read; nothing was renamed", file.path.display()))
        .with_repair("run the rename again")
}

/// Every pane of `session` the multiplexer names `seat` of `team` — as `<seat>`, or (tmux)
/// marked `<seat>@<team>` — each with its name.
fn panes_named(mux: &dyn Mux, session: &str, team: &str, seat: &str) -> Result<Vec<PaneInfo>, MuxError> {
    let mut found = mux.named(session, seat)?;
    let spelled = format!("{seat}@{team}");
    for (id, _) in mux.marks(session)?.into_iter().filter(|(_, m)| *m == spelled) {
        if !found.iter().any(|p| p.id == id) {
            found.push(mux.pane(session, &id)?);
        }
    }
    Ok(found)
}

/// The pane step: the one pane named the old seat, or why none is; refused when two are, when
/// another pane already has the new name (unless `resumed`: then it is this seat's), or when
/// the multiplexer does not answer.
fn plan_pane(mux: &dyn Mux, f: &TeamFile, old: &str, new: &str, resumed: bool) -> Result<Step, TeamError> {
    let session = f.session.as_str();
    let no_answer = |e: MuxError| {
        refuse("mux", format!("{} doesn't answer: {e}; nothing was renamed", mux.name()))
            .with_repair("start the session (or let the multiplexer answer), then run this again")
    };
    let olds = match panes_named(mux, session, &f.team, old) {
        Ok(p) => p,
        // no session, no server, no program: no pane there holds the seat
        Err(e @ (MuxError::NoSession(_) | MuxError::ServerStopped(_) | MuxError::ProgramMissing(_))) => {
            return Ok(Step::NoPane { why: e.to_string() })
        }
        Err(e) => return Err(no_answer(e)),
    };
    if !resumed {
        let news = panes_named(mux, session, &f.team, new).map_err(no_answer)?;
        if let Some(p) = news.first() {
            let e = refuse(
                "pane-taken",
                format!("pane {} is already named {} in session \"{session}\"; nothing was renamed", p.id, p.name),
            );
            return Err(match mux.name() {
                "tmux" => e.with_repair(format!("unmark it first: tmux set -p -u -t {} @team-seat", p.id)),
                _ => e.with_repair("choose a name no agent of the session has"),
            });
        }
    }
    match olds.as_slice() {
        [] => Ok(Step::NoPane {
            why: match mux.name() {
                "tmux" => format!("no pane of tmux session \"{session}\" is marked {old}"),
                m => format!("{m} session \"{session}\" has no agent named {old}"),
            },
        }),
        [p] => {
            let mark = match p.name.split_once('@') {
                Some((_, team)) => format!("{new}@{team}"),
                None => new.to_string(),
            };
            Ok(Step::Pane { pane: p.clone(), mark })
        }
        many => Err(refuse(
            "many-panes",
            format!(
                "{} panes of session \"{session}\" are named {old}: {}; renaming one would guess; nothing was renamed",
                many.len(),
                many.iter().map(|p| format!("{} ({})", p.id, p.name)).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// A store's part: `Some(true)` the old name is to move, `Some(false)` nothing there, or the
/// refusal when the new name is already held there (in a resumed rename, the new name alone is
/// the rename an earlier run made, and both together are two records of one seat).
fn plan_store(what: &str, has_old: bool, has_new: bool, resumed: bool, repair: &str) -> Result<bool, TeamError> {
    match (has_old, has_new) {
        (_, true) if !resumed || has_old => {
            Err(refuse("recorded", format!("{what}; nothing was renamed")).with_repair(repair.to_string()))
        }
        (old, _) => Ok(old),
    }
}

/// The file as it is on disk now (`None`: gone).
fn read_now(file: &Loaded) -> Result<Option<String>, TeamError> {
    crate::fsx::read_capped(&file.path, crate::fsx::TEXT_MAX).at(&file.path).map_err(IoAt::bad_file)
}

/// The file no longer holds the text this run read and edited: refused, naming the way out.
fn edited_meanwhile(file: &Loaded, old: &str, new: &str) -> TeamError {
    refuse(
        "changed",
        format!(
            "{} changed since this rename read it (an edit, or another command writing it); nothing was renamed",
            file.path.display()
        ),
    )
    .with_repair(format!("look at the file, then run team rename {old} {new} again"))
}

/// What a run will do, planned on the file's text as read under its edit lock.
struct Plan {
    /// The file as read.
    before: TeamFile,
    /// Its text, which the writes compare the file with (a hand edit takes no lock).
    text: String,
    /// The edited text (`None`: the file already names the seat `new`, the resumed case).
    edited: Option<String>,
    /// Each place, in the order it is written.
    steps: Vec<Step>,
    /// The state file as read.
    state: State,
}

fn rename(m: &Means, file: &Loaded, reg: &Registry, caller: &Caller, req: &Request) -> Result<Report, TeamError> {
    let (old, new) = (req.seat.as_str(), req.new.as_str());
    check_new(old, new)?;
    // the file's edit lock, from this read to the write: another rename waits for this one
    // and then edits what this one wrote (a dry run writes nothing and takes no lock)
    let _file_lock = match req.dry_run {
        true => None,
        false => Some(
            crate::team_file::lock::lock(&m.ctx.paths.state, &file.path, "rename", crate::team_file::lock::WAIT)
                .map_err(|why| {
                    refuse("lock", format!("{why}; nothing was renamed"))
                        .with_repair(format!("run team rename {old} {new} again once it is done"))
                })?,
        ),
    };
    let plan = plan(m, file, reg, old, new)?;
    let (f, config) = (&plan.before, &m.ctx.paths.config);
    let session = f.session.clone();
    let mut notes: Vec<String> = registry::grants_naming(config, &f.team, &session, old)
        .into_iter()
        .map(|g| {
            format!(
                "{old}: the owner's grant {} names {old}; it is not rewritten here: write {new} in it",
                config.join("grants").join(g).display()
            )
        })
        .collect();
    let report = |status, steps: Vec<Step>, notes: Vec<String>| Report {
        project: f.project.clone(),
        session: session.clone(),
        mux: m.mux.name(),
        seat: old.to_string(),
        new: new.to_string(),
        status,
        line: steps::closing(old, new, &steps, status == Status::DryRun),
        steps,
        notes,
    };
    if req.dry_run {
        return Ok(report(Status::DryRun, plan.steps.clone(), notes));
    }
    // the writes, under the seat's lock: no send types into the pane while it changes name (a
    // send holds it for one delivery: waited out, briefly)
    let _locks = write::seat_locks(m, &session, old, new)?;
    write::write(m, file, &plan, old, new, &mut notes)?;
    let done = report(Status::Renamed, plan.steps.clone(), notes);
    let detail = format!("to {new}: {}", done.steps.iter().map(|s| done.detail(s)).collect::<Vec<_>>().join("; "));
    log(m.ctx, &file.root, caller, old, "renamed", detail);
    Ok(done)
}

/// Reads the file once and plans each place: the file's sites, the pane, the state's record,
/// the launched pointer, the registry's records. A place that already holds the new name is
/// refused; a run that finds nothing naming the old seat at all is too.
fn plan(m: &Means, file: &Loaded, reg: &Registry, old: &str, new: &str) -> Result<Plan, TeamError> {
    // the file as it is now, read once: its sites are edited in this very text
    let text = read_now(file)?.ok_or_else(|| changed(file))?;
    let before = crate::team_file::parse(&text).map_err(|_| changed(file))?;
    let f = &before;
    let session = f.session.clone();
    let planned = plan_file(file, f, &text, old, new)?;
    let resumed = planned.is_none();
    let mut steps = vec![match &planned {
        Some((sites, _)) => Step::File { sites: sites.iter().map(edit::Site::words).collect() },
        None => Step::FileAlready,
    }];
    let (config, state_dir) = (&m.ctx.paths.config, &m.ctx.paths.state);
    let st = State::load(&file.root)?;
    let move_state = plan_store(
        &format!(".agents/team.state.json already holds a record of {new} in session \"{session}\""),
        st.seat(&session, old).is_some(),
        st.seat(&session, new).is_some(),
        resumed,
        "it is a seat the file no longer declares: remove that record from .agents/team.state.json, or choose another name",
    )?;
    let held = registry::seat_records(reg, &f.team, new);
    let was = registry::seat_records(reg, &f.team, old);
    let move_registry = plan_store(
        &format!(
            "the registry already holds {new}@{} ({})",
            f.team,
            held.agents.first().map(String::as_str).unwrap_or("a roster line")
        ),
        !was.is_empty(),
        !held.is_empty(),
        resumed,
        &format!(
            "it is a seat the file no longer declares: remove its record from {} (and its roster line from teams.yaml), or choose another name",
            config.join("agents").display()
        ),
    )?;
    let launched = state::read_launched(state_dir, &session)
        .filter(|l| Path::new(&l.file) == file.path && l.panes.contains_key(old))
        .is_some();
    let pane_step = plan_pane(m.mux, f, old, new, resumed)?;
    if resumed && !move_state && !move_registry && !launched && matches!(pane_step, Step::NoPane { .. }) {
        return Err(refuse(
            "no-seat",
            format!(
                "the file has no seat \"{old}\" (it declares {new}), and nothing else names {old}; nothing was renamed"
            ),
        ));
    }
    steps.push(pane_step);
    if move_state {
        steps.push(Step::State);
    }
    if launched {
        steps.push(Step::Launched);
    }
    if move_registry {
        steps.push(Step::Registry { agents: was.agents, roster: was.roster });
    }
    Ok(Plan { before, text, edited: planned.map(|(_, t)| t), steps, state: st })
}

#[cfg(test)]
mod tests;
