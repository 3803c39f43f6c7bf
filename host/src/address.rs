//! The address grammar and resolving one spec to exactly one seat before any rule runs.
//!
//! Forms: a bare `<seat>` or `<nickname>` of the caller's own team (needs a team folder),
//! `@<nickname>` (own team first, then the entity's other teams), `<seat>@<team>` /
//! `<nickname>@<team>` (the named team's roster, then the agent records by seat name),
//! `lead@<team>` (the roster's lead mark, else the team file's), and an agent id `agt_…`.
//!
//! Invariant: a role is never an address; a spec two entries answer is refused naming both;
//! a spec that names nobody is refused naming what was not found. Nothing here judges who
//! may send — that is `admission`, which reads the seat this module resolved. A world is built
//! in time and memory linear in the registry and the team file: the agent records are indexed
//! once, a team's view is built through maps (never a scan per seat), and the team file under
//! a recorded root is read once a run.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use crate::error::{self, TeamError};
use crate::registry::{AgentRecord, Registry, RosterLine};
use crate::team_file::{self, Loaded, Seat, TeamFile};
use crate::vocab::names::is_agent_id;

/// One seat of a team as the registry and the team file answer it together.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SeatView {
    pub name: String,
    pub nickname: Option<String>,
    pub role: Option<String>,
    pub cli: Option<String>,
    /// The roster line's lead mark.
    pub roster_leads: bool,
    /// The team file's lead mark (`leads: true` or the legacy `coordinator:` key).
    pub file_leads: bool,
    pub assistant: bool,
    pub stopped: bool,
    /// The roster lists the seat.
    pub in_roster: bool,
    /// The seat as its team file declares it, when the file could be read.
    pub file_seat: Option<Seat>,
    /// The seat's registry record, when it has one.
    pub agent: Option<AgentRecord>,
}

impl SeatView {
    pub fn cli(&self) -> &str {
        self.cli.as_deref().unwrap_or("unknown")
    }
    pub fn agent_id(&self) -> Option<&str> {
        self.agent.as_ref().map(|a| a.id.as_str())
    }
}

/// One team: its registry record and, when readable, its team file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TeamView {
    pub name: String,
    pub entity: String,
    /// The registry's grouping when the machine has one, the file's `project:` otherwise.
    pub project: String,
    /// The file's own `project:` (the key for the registry project's delivery order).
    pub file_project: Option<String>,
    pub session: String,
    /// The checkout root holding the team's `.agents/`.
    pub root: Option<PathBuf>,
    pub file: Option<TeamFile>,
    pub seats: Vec<SeatView>,
    /// The caller's own team (the cwd's team file).
    pub own: bool,
}

impl TeamView {
    pub fn seat(&self, name: &str) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.name == name)
    }
    pub fn by_nickname(&self, nick: &str) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.nickname.as_deref() == Some(nick))
    }
    /// The team's leads: the roster's marks when it marks any, else the file's.
    pub fn leads(&self) -> Vec<&SeatView> {
        let r: Vec<&SeatView> = self.seats.iter().filter(|s| s.roster_leads).collect();
        if !r.is_empty() {
            return r;
        }
        self.seats.iter().filter(|s| s.file_leads).collect()
    }
    pub fn is_lead(&self, seat: &str) -> bool {
        self.leads().iter().any(|s| s.name == seat)
    }
    /// The first seat marked `assistant`.
    pub fn assistant(&self) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.assistant)
    }
    /// May this seat be addressed from another team: the roster lists it or a record holds it.
    fn registered(s: &SeatView) -> bool {
        s.in_roster || s.agent.is_some()
    }
}

/// The registry and the cwd's team file, read once per run.
pub struct World<'a> {
    pub reg: &'a Registry,
    pub file: Option<&'a Loaded>,
    /// The caller's own team (shared: a roster holds it without a copy).
    pub own: Option<Rc<TeamView>>,
    index: Index<'a>,
    /// The team files read from recorded roots, by root: each read once a run, however many
    /// teams of the registry name the same root.
    files: RefCell<HashMap<PathBuf, Option<TeamFile>>>,
}

/// The registry's agent records by id and by team, made once a run, so that a roster of n
/// seats is n lookups and never n scans of the registry.
struct Index<'a> {
    /// The first record holding each id (`Registry::agent`'s answer).
    by_id: HashMap<&'a str, &'a AgentRecord>,
    /// Each team's records, in the registry's order.
    by_team: HashMap<&'a str, Vec<&'a AgentRecord>>,
}

impl<'a> Index<'a> {
    fn of(reg: &'a Registry) -> Index<'a> {
        let mut by_id = HashMap::new();
        let mut by_team: HashMap<&str, Vec<&AgentRecord>> = HashMap::new();
        for a in &reg.agents {
            by_id.entry(a.id.as_str()).or_insert(a);
            by_team.entry(a.team.as_str()).or_default().push(a);
        }
        Index { by_id, by_team }
    }

    fn team(&self, team: &str) -> &[&'a AgentRecord] {
        self.by_team.get(team).map(Vec::as_slice).unwrap_or(&[])
    }
}

fn file_seat_view(s: &Seat) -> SeatView {
    SeatView {
        name: s.name.clone(),
        nickname: s.nickname.clone(),
        role: s.role.clone(),
        cli: Some(s.cli.clone()),
        file_leads: s.leads,
        assistant: s.assistant,
        stopped: s.stopped,
        file_seat: Some(s.clone()),
        ..Default::default()
    }
}

impl<'a> World<'a> {
    pub fn new(reg: &'a Registry, file: Option<&'a Loaded>) -> World<'a> {
        let index = Index::of(reg);
        let own = file.map(|l| {
            let name = l.file.team.clone();
            Rc::new(build(reg, &index, &name, Some(&l.file), Some(l.root.clone()), true))
        });
        World { reg, file, own, index, files: RefCell::new(HashMap::new()) }
    }

    /// The view of a team by name: the caller's own, or the registry's (with its file read
    /// from the recorded root when it can be). `None` when neither knows the team.
    pub fn team(&self, name: &str) -> Option<TeamView> {
        if let Some(o) = &self.own {
            if o.name == name {
                return Some(TeamView::clone(o));
            }
        }
        let rec = self.reg.team(name);
        let first_agent = self.index.team(name).first();
        if rec.is_none() && first_agent.is_none() {
            return None;
        }
        let root = rec.and_then(|r| r.root.clone()).or_else(|| first_agent.and_then(|a| a.root.clone()));
        let file = root.as_ref().and_then(|r| self.file_at(r)).filter(|f| f.team == name);
        Some(build(self.reg, &self.index, name, file.as_ref(), root, false))
    }

    /// The team file under a recorded root, read once a run.
    fn file_at(&self, root: &std::path::Path) -> Option<TeamFile> {
        let mut files = self.files.borrow_mut();
        files
            .entry(root.to_path_buf())
            .or_insert_with(|| team_file::load(&root.join(".agents").join("team.yaml")).ok().map(|l| l.file))
            .clone()
    }

    /// The entity the caller's own team belongs to (the registry's default without a file).
    pub fn own_entity(&self) -> String {
        match &self.own {
            Some(o) => o.entity.clone(),
            None => self.reg.default_entity(),
        }
    }

    /// The teams of an entity in chain order (the entity's own team first, then by team id).
    pub fn entity_teams(&self, entity: &str) -> Vec<String> {
        let own = self.own.as_ref().filter(|o| o.entity == entity).map(|o| o.name.as_str());
        self.reg.entity_teams(entity, own)
    }

    /// The entity's assistant: the first `assistant` mark walking its teams in chain order.
    pub fn entity_assistant(&self, entity: &str) -> Option<(String, String)> {
        for t in self.entity_teams(entity) {
            if let Some(v) = self.team(&t) {
                if let Some(a) = v.assistant() {
                    return Some((t, a.name.clone()));
                }
            }
        }
        None
    }
}

/// Builds a team's view from its registry record, its agent records and (when read) its file.
/// Every seat is found through maps (by name, by roster line, by record), so a team of n
/// seats is built in time linear in n.
fn build(
    reg: &Registry,
    index: &Index,
    name: &str,
    file: Option<&TeamFile>,
    root: Option<PathBuf>,
    own: bool,
) -> TeamView {
    let rec = reg.team(name);
    let mut seats: Vec<SeatView> = file.map(|f| f.seats.iter().map(file_seat_view).collect()).unwrap_or_default();
    let mut at: HashMap<String, usize> = HashMap::with_capacity(seats.len());
    for (i, s) in seats.iter().enumerate() {
        at.entry(s.name.clone()).or_insert(i);
    }
    let roster = rec.map(|r| r.roster.as_slice()).unwrap_or(&[]);
    let first_line = merge_roster(&mut seats, &mut at, roster);
    let agents = index.team(name);
    attach_agents(&mut seats, &mut at, index, name, agents, &first_line);
    let entity = reg.entity_of(name, file.and_then(|f| f.entity.as_deref()));
    let file_project = file.map(|f| f.project.clone());
    let first_agent = agents.first();
    let project = reg
        .project_of(name)
        .map(str::to_string)
        .or_else(|| file_project.clone())
        .or_else(|| first_agent.and_then(|a| a.project.clone()))
        .unwrap_or_else(|| name.to_string());
    let session = file
        .map(|f| f.session.clone())
        .or_else(|| rec.and_then(|r| r.session.clone()))
        .or_else(|| first_agent.and_then(|a| a.session.clone()))
        .unwrap_or_else(|| name.to_string());
    TeamView { name: name.to_string(), entity, project, file_project, session, root, file: file.cloned(), seats, own }
}

/// Merges the roster's lines into the file's seats (a seat only the roster names is added);
/// answers `Registry::roster_line` for each seat: its first line.
fn merge_roster<'r>(
    seats: &mut Vec<SeatView>,
    at: &mut HashMap<String, usize>,
    roster: &'r [RosterLine],
) -> HashMap<&'r str, &'r RosterLine> {
    let mut first_line: HashMap<&str, &RosterLine> = HashMap::with_capacity(roster.len());
    for line in roster {
        first_line.entry(line.seat.as_str()).or_insert(line);
        let i = *at.entry(line.seat.clone()).or_insert_with(|| {
            seats.push(SeatView { name: line.seat.clone(), ..Default::default() });
            seats.len() - 1
        });
        let s = &mut seats[i];
        s.in_roster = true;
        s.roster_leads = line.leads;
        // the file is the authority for what it writes; the roster answers what it leaves out
        if s.nickname.is_none() {
            s.nickname = line.nickname.clone();
        }
        if s.role.is_none() {
            s.role = line.role.clone();
        }
        if s.cli.is_none() {
            s.cli = line.cli.clone();
        }
        if s.file_seat.is_none() {
            s.assistant = line.assistant;
            s.stopped = line.stopped;
        }
    }
    first_line
}

/// Adds a seat only agent records name, and gives each seat its agent record.
fn attach_agents(
    seats: &mut Vec<SeatView>,
    at: &mut HashMap<String, usize>,
    index: &Index,
    name: &str,
    agents: &[&AgentRecord],
    first_line: &HashMap<&str, &RosterLine>,
) {
    let mut by_seat: HashMap<&str, Vec<&AgentRecord>> = HashMap::new();
    for a in agents {
        by_seat.entry(a.seat.as_str()).or_default().push(a);
        if !at.contains_key(&a.seat) {
            at.insert(a.seat.clone(), seats.len());
            seats.push(SeatView { name: a.seat.clone(), cli: a.cli.clone(), ..Default::default() });
        }
    }
    for s in seats.iter_mut() {
        // `Registry::agent_for`: the roster line's agent when it holds this seat, else the
        // one record holding the seat
        let by_line = first_line
            .get(s.name.as_str())
            .and_then(|l| l.agent.as_deref())
            .and_then(|id| index.by_id.get(id))
            .filter(|a| a.team == name && a.seat == s.name);
        let held = by_seat.get(s.name.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        s.agent = match (by_line, held) {
            (Some(a), _) => Some((*a).clone()),
            (None, [one]) => Some((*one).clone()),
            _ => None,
        };
        if s.cli.is_none() {
            s.cli = s.agent.as_ref().and_then(|a| a.cli.clone());
        }
    }
}

/// A spec resolved to one seat.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The seat's team, shared with the world's view of it (a roster judges every seat).
    pub team: std::rc::Rc<TeamView>,
    pub seat: SeatView,
    /// The address exactly as written, when it was a form rather than the seat's own name
    /// in the caller's own team.
    pub spec: Option<String>,
}

impl Target {
    pub fn name(&self) -> &str {
        &self.seat.name
    }
    pub fn cli(&self) -> &str {
        self.seat.cli()
    }
    pub fn agent_id(&self) -> Option<&str> {
        self.seat.agent_id()
    }
    /// `(spec, resolved)` for the history line: written together, or not at all.
    pub fn spec_and_resolved(&self) -> (Option<String>, Option<String>) {
        match (&self.spec, self.agent_id()) {
            (Some(s), Some(id)) => (Some(s.clone()), Some(id.to_string())),
            _ => (None, None),
        }
    }
}

fn refuse(msg: String) -> TeamError {
    TeamError::refused(msg)
}

/// `x`'s two answers: refused naming both.
fn collision(spec: &str, team: &str, by_name: &SeatView, by_nick: &SeatView) -> TeamError {
    refuse(format!(
        "{spec}: two seats of {team} answer it: {} (its seat name) and {} (its nickname); nothing was sent",
        by_name.name, by_nick.name
    ))
}

/// The one seat of `view` a name or nickname picks (both answering different seats refused).
fn pick<'v>(spec: &str, view: &'v TeamView, word: &str, registered_only: bool) -> error::Result<Option<&'v SeatView>> {
    let ok = |s: &&SeatView| !registered_only || TeamView::registered(s);
    let by_name = view.seat(word).filter(ok);
    let by_nick = view.by_nickname(word).filter(ok);
    match (by_name, by_nick) {
        (Some(a), Some(b)) if a.name != b.name => Err(collision(spec, &view.name, a, b)),
        (Some(a), _) => Ok(Some(a)),
        (None, Some(b)) => Ok(Some(b)),
        (None, None) => Ok(None),
    }
}

fn target(view: &TeamView, seat: &SeatView, spec: Option<&str>) -> Target {
    Target { team: Rc::new(view.clone()), seat: seat.clone(), spec: spec.map(str::to_string) }
}

/// Resolves `spec` to exactly one seat, or refuses naming why.
pub fn resolve(world: &World, spec: &str) -> error::Result<Target> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(TeamError::usage("a target seat is required"));
    }
    if is_agent_id(spec) {
        return by_agent_id(world, spec);
    }
    if let Some(nick) = spec.strip_prefix('@') {
        return by_nickname(world, spec, nick);
    }
    if let Some((x, team)) = spec.split_once('@') {
        return in_team(world, spec, x, team);
    }
    by_bare_name(world, spec)
}

/// An agent id: the seat its record holds.
fn by_agent_id(world: &World, spec: &str) -> error::Result<Target> {
    let a = world.reg.agent(spec).ok_or_else(|| refuse(format!("{spec}: no agent record holds this id")))?;
    let view =
        world.team(&a.team).ok_or_else(|| refuse(format!("{spec}: its team {} is not in the registry", a.team)))?;
    let seat = view
        .seat(&a.seat)
        .ok_or_else(|| refuse(format!("{spec}: its seat {}@{} is not in the registry", a.seat, a.team)))?;
    Ok(target(&view, seat, Some(spec)))
}

/// `@nickname`: the own team first, then the entity's other teams (one of them answering).
fn by_nickname(world: &World, spec: &str, nick: &str) -> error::Result<Target> {
    if nick.is_empty() {
        return Err(refuse(format!(
            "{spec}: names no nickname; address @<nickname> (team send --list shows each seat's)"
        )));
    }
    if let Some(own) = &world.own {
        if let Some(s) = own.by_nickname(nick) {
            return Ok(target(own, s, Some(spec)));
        }
    }
    let entity = world.own_entity();
    let own_name = world.own.as_ref().map(|o| o.name.clone());
    let mut hits: Vec<(TeamView, SeatView)> = Vec::new();
    for t in world.entity_teams(&entity) {
        if Some(&t) == own_name.as_ref() {
            continue;
        }
        if let Some(v) = world.team(&t) {
            if let Some(s) = v.by_nickname(nick).filter(|s| TeamView::registered(s)) {
                let s = s.clone();
                hits.push((v, s));
            }
        }
    }
    match hits.len() {
        1 => Ok(target(&hits[0].0, &hits[0].1, Some(spec))),
        0 => Err(refuse(match &own_name {
            Some(o) => format!("{spec}: no seat of {o} or of the other teams of {entity} has the nickname {nick}"),
            None => format!("{spec}: no seat of the teams of {entity} has the nickname {nick}"),
        })),
        _ => {
            let each: Vec<String> = hits.iter().map(|(v, _)| format!("{nick}@{}", v.name)).collect();
            Err(refuse(format!("{spec}: more than one team answers it; address one: {}", each.join(", "))))
        }
    }
}

/// `<x>@<team>`: a seat or nickname of that team, or its lead.
fn in_team(world: &World, spec: &str, x: &str, team: &str) -> error::Result<Target> {
    if x.is_empty() || team.is_empty() || team.contains('@') {
        return Err(refuse(format!("{spec}: not an address (a seat, @nickname, seat@team, lead@team or agt_… id)")));
    }
    let view = world.team(team).ok_or_else(|| no_team(world, spec, x, team))?;
    let external = !view.own;
    if x == crate::vocab::names::RESERVED_LEAD {
        return lead_of(&view, spec, team, external);
    }
    match pick(spec, &view, x, external)? {
        Some(s) => Ok(target(&view, s, Some(spec))),
        None => {
            let role_note = if view.seats.iter().any(|s| s.role.as_deref() == Some(x)) {
                format!(" ({x} is a role there, and a role is never an address)")
            } else {
                String::new()
            };
            Err(refuse(format!(
                "{spec}: team {team} has no seat or nickname {x} in its roster or agent records{role_note}"
            )))
        }
    }
}

/// `<x>@<team>` naming a team the registry does not hold: refused, saying how one enters it.
fn no_team(world: &World, spec: &str, x: &str, team: &str) -> TeamError {
    let known: Vec<&str> = world.reg.teams.teams.keys().map(String::as_str).collect();
    let holds = if known.is_empty() {
        "the registry holds no team yet".to_string()
    } else {
        format!("the registry holds {}", known.join(", "))
    };
    refuse(format!("{spec}: the registry holds no team {team}")).with_repair(format!(
        "a team enters the registry when one of its seats is registered: team register <seat>, run in {team}'s checkout from the seat's pane (or by the owner); in that checkout team send {x} reaches its own seat by name ({holds})"
    ))
}

/// `lead@<team>`: the team's one lead (another team's must have a registry record).
fn lead_of(view: &TeamView, spec: &str, team: &str, external: bool) -> error::Result<Target> {
    match view.leads().as_slice() {
        [] => Err(refuse(format!(
            "{spec}: team {team} names no lead, so there is no one to deliver to; run team send --list to name a seat, or set leads: true on one seat to give the team a lead"
        ))),
        [one] => {
            if external && !TeamView::registered(one) {
                Err(refuse(format!("{spec}: its lead {} has no registry record yet; team register writes it", one.name)))
            } else {
                Ok(target(view, one, Some(spec)))
            }
        }
        many => {
            let names: Vec<&str> = many.iter().map(|s| s.name.as_str()).collect();
            Err(refuse(format!("{spec}: team {team} marks more than one lead: {}; nothing was sent", names.join(" and "))))
        }
    }
}

/// A bare name: a seat or nickname of the caller's own team.
fn by_bare_name(world: &World, spec: &str) -> error::Result<Target> {
    let Some(own) = &world.own else {
        return Err(refuse(format!(
            "{spec}: a bare name needs a team folder (.agents/team.yaml above this one); from here, address <seat>@<team>"
        )));
    };
    match pick(spec, own, spec, false)? {
        Some(s) => {
            let form = (s.name != spec).then_some(spec);
            Ok(target(own, s, form))
        }
        None => {
            let names: Vec<&str> = own.file.as_ref().map(|f| f.seat_names()).unwrap_or_default();
            let hint = crate::nearest::nearest(spec, names.iter().copied())
                .map(|n| format!(" (did you mean {n}?)"))
                .unwrap_or_default();
            Err(refuse(format!("{spec}: it is not a declared seat{hint}; the file's seats are {}", names.join(", "))))
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
