//! `team status`'s use-case: one row per seat of the roster `team send --list` prints — its
//! pane, its CLI, what its profile reads on that pane now, the multiplexer's own status where
//! it has one, and the last message to it from the history.
//!
//! A seat whose `host:` is another machine is read there, by that machine's own `team`
//! over ssh (`far`: once a run per host and team), never looked for in this machine's panes.
//!
//! Invariants:
//! - read-only: it locates, reads and asks; it never types, presses a key, or writes a file
//!   (no lock, no log line, no history line, no drop) — on the far side of a read too;
//! - one profile is loaded per CLI and pin, one history read per team, one adapter per
//!   multiplexer, one look at each session's panes (`mux::panes_of`): a 6-seat team on tmux
//!   is a few tmux calls and six classifications, and a roster of n seats is read in time and
//!   memory linear in n (each team held once, every per-seat lookup a map's).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::address::{Target, World};
use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::history::{self, MessageLine};
use crate::mux::{AgentStatus, Mux, Panes};
use crate::profiles::{Composer, DialogKind, NoProfile, Profile, ProfileHost, State, TurnError};
use crate::registry::Registry;
use crate::send::list::{roster, RosterSeat};
use crate::team_file::Loaded;
use crate::workspace::Workspace;

pub mod doc;
pub mod extras;
pub mod far;
mod unplaced;
pub mod words;
pub use unplaced::Unplaced;

/// What the seat's profile reads on its pane now, or why nothing could be read.
// (its `reads` in the `team.status` document; the profile's types print through `doc::words`)
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "state", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reads {
    Idle {
        #[serde(serialize_with = "doc::words::turn_error")]
        #[schemars(with = "Option<doc::words::TurnErrorWord>")]
        last_error: Option<TurnError>,
    },
    Working {
        hint: String,
    },
    /// A dialog stands on the pane: its kind (and the profile's own name of an `other` one)
    /// and its title.
    Dialog {
        #[serde(flatten, serialize_with = "doc::words::dialog_kind")]
        #[schemars(with = "doc::words::KindDoc")]
        kind: DialogKind,
        title: String,
    },
    /// An idle prompt whose box holds text nobody sent.
    Draft {
        #[schemars(length(min = 1))]
        text: String,
    },
    Starting,
    Exited,
    /// The profile cannot tell.
    Unknown {
        why: String,
    },
    /// No pane of the session is this seat's.
    NotFound {
        why: String,
    },
    /// The pane is there but could not be read (the multiplexer or the profile failed).
    Unreadable {
        why: String,
    },
}

impl Reads {
    /// The state word `--json` carries.
    pub fn word(&self) -> &'static str {
        match self {
            Reads::Idle { .. } => "idle",
            Reads::Working { .. } => "working",
            Reads::Dialog { .. } => "dialog",
            Reads::Draft { .. } => "draft",
            Reads::Starting => "starting",
            Reads::Exited => "exited",
            Reads::Unknown { .. } => "unknown",
            Reads::NotFound { .. } => "not-found",
            Reads::Unreadable { .. } => "unreadable",
        }
    }

    /// Why the row says what it says, when that is a sentence worth printing under the table.
    pub fn why(&self) -> Option<&str> {
        match self {
            Reads::NotFound { why } | Reads::Unreadable { why } | Reads::Unknown { why } => Some(why),
            _ => None,
        }
    }

    fn of(state: State, composer: Composer, last_error: Option<TurnError>) -> Reads {
        match state {
            State::Idle => match composer {
                Composer::Holds(text) => Reads::Draft { text },
                _ => Reads::Idle { last_error },
            },
            State::Working(hint) => Reads::Working { hint },
            State::Dialog(d) => Reads::Dialog { kind: d.kind, title: d.title },
            State::Starting => Reads::Starting,
            State::Exited => Reads::Exited,
            State::Unknown(why) => Reads::Unknown { why },
        }
    }
}

/// The last message the history holds to a seat (its `last` in the `team.status` document).
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Last {
    #[schemars(length(min = 1))]
    pub id: String,
    pub from: String,
    pub outcome: crate::vocab::outcome::Outcome,
    pub ts: crate::vocab::outcome::Ts,
    /// Seconds from then to the run's now; null when the line's time cannot be read.
    #[schemars(range(min = 0))]
    pub age_s: Option<i64>,
    pub note: Option<crate::vocab::outcome::Note>,
}

/// One seat's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// As `--list` names it: bare in the file's own team, `<seat>@<team>` in another.
    pub name: String,
    pub team: String,
    pub cli: String,
    pub session: String,
    /// `herdr` or `tmux`.
    pub multiplexer: &'static str,
    pub pane: Option<String>,
    pub reads: Reads,
    /// The multiplexer's own status of the seat's agent (herdr's; tmux has none).
    pub mux_status: Option<AgentStatus>,
    pub last: Option<Last>,
    pub stopped: bool,
    /// The rule that admits this run's caller sending to the seat (`None`: refused).
    pub admitted_by: Option<String>,
    /// The machine the seat runs on and was read on, when not this one.
    pub host: Option<far::FarHost>,
}

/// Everything `team status` read.
#[derive(Debug, Clone)]
pub struct StatusReport {
    pub context: Option<(String, String)>,
    pub rows: Vec<Row>,
    /// Who ran it (`the owner`, `seat rev of shop`), and whether that is a seat: a seat's
    /// run marks the seats it may send to.
    pub caller: String,
    pub caller_seat: Option<String>,
    /// The panes of the team's session no seat holds that run an agent CLI.
    pub unplaced: Vec<Unplaced>,
}

/// A `team status` run's standing: the working set with its team file (required: a run
/// outside a checkout has no team to read, and says where the file was looked for), the
/// registry and the caller, read once; each [`Here::read`] then locates and reads afresh.
pub struct Here<'w> {
    ws: &'w Workspace<'w>,
    file: &'w Loaded,
    reg: &'w Registry,
    caller: &'w Caller,
}

impl<'w> Here<'w> {
    pub fn of(ws: &'w Workspace<'w>) -> Result<Here<'w>, crate::error::TeamError> {
        let file = ws.team()?;
        let reg = ws.reg()?;
        Ok(Here { ws, file, reg, caller: ws.caller()? })
    }

    /// One reading of every seat.
    pub fn read(&self) -> StatusReport {
        status(
            self.ws.ctx,
            self.ws.profiles(),
            Some(self.file),
            self.reg,
            self.ws.mux_for(),
            self.caller,
            far::Scope::Near,
        )
    }

    /// Each seat's MCP entry.
    pub fn mcp_rows(&self) -> Vec<crate::mcp::install::Row> {
        extras::mcp_rows(self.ws.profiles(), self.file)
    }

    /// Each seat's hooks and inbox.
    pub fn hooks_rows(&self) -> Vec<extras::HooksRow> {
        extras::hooks_rows(self.ws.ctx, self.ws.profiles(), self.file)
    }
}

/// Reads the status of every seat the run standing in `file` can address (`scope`: this
/// machine's run, or the far side of another machine's).
pub fn status(
    ctx: &Ctx,
    profiles: &ProfileHost,
    file: Option<&Loaded>,
    reg: &Registry,
    choose: &dyn Fn(Option<&str>) -> Box<dyn Mux>,
    caller: &Caller,
    scope: far::Scope,
) -> StatusReport {
    let world = World::new(reg, file);
    let mine = crate::team_file::host::Here::of_config(&ctx.paths.config);
    let here = match scope {
        far::Scope::Near => &mine,
        far::Scope::Far { here, .. } => here,
    };
    let seats = scoped(&world, scope, here);
    // one adapter per multiplexer, then one look per session: a roster of n seats is one
    // listing of each session's panes, not n
    let muxes = adapters(&seats, file, choose);
    let mut looks: HashMap<(Option<String>, String), Box<dyn Panes + '_>> = HashMap::new();
    let mut loaded: HashMap<(String, Option<String>), Result<Profile, NoProfile>> = HashMap::new();
    let mut histories: HashMap<std::path::PathBuf, Lasts> = HashMap::new();
    let now = ctx.clock.now();
    // each other machine read once a run for each team (its seats' rows over one ssh run)
    let mut hosts = far::Looks::default();
    prime(&seats, &muxes, &mut looks, here);
    let mut rows = Vec::new();
    for r in &seats {
        let mux = muxes[&choice(r)].as_ref();
        let look = looks
            .entry((choice(r), r.team.session.clone()))
            .or_insert_with(|| crate::mux::panes_of(mux, &r.team.session));
        let pins = crate::send::pins_of(&r.team);
        let seat = r.seat();
        let cli = seat.cli().to_string();
        let key = (cli.clone(), pins.get(&cli).cloned());
        let far = host_of(r).filter(|h| !here.holds(Some(h)));
        // a seat of another machine is not looked for here (it would read `not found`): it is
        // read there, on its multiplexer
        let (pane, reads, mux_status, host, multiplexer) = match far {
            Some(h) => {
                let f = hosts.row(&ctx.paths.state, h, &r.team.name, &seat.name);
                (f.pane, f.reads, f.status, Some(f.host), f.multiplexer.unwrap_or(mux.name()))
            }
            None => {
                let (pane, reads, status) = read_seat(mux, look.as_ref(), r, || {
                    loaded.entry(key.clone()).or_insert_with(|| profiles.load_typed(&cli, pins))
                });
                (pane, reads, status, None, mux.name())
            }
        };
        let last = last_message(ctx, r, &mut histories, now);
        let target = Target { team: r.team.clone(), seat: seat.clone(), spec: None };
        let admitted_by = crate::admission::admit(&world, caller, &target, now).ok().map(|rule| rule.words());
        rows.push(Row {
            name: if r.own { seat.name.clone() } else { format!("{}@{}", seat.name, r.team.name) },
            team: r.team.name.clone(),
            cli,
            session: r.team.session.clone(),
            multiplexer,
            pane,
            reads,
            mux_status,
            last,
            stopped: seat.stopped,
            admitted_by,
            host,
        });
    }
    finish(file, &muxes, profiles, rows, caller)
}

/// The report of the rows read, with the panes of the file's session no seat holds.
fn finish(
    file: Option<&Loaded>,
    muxes: &HashMap<Option<String>, Box<dyn Mux>>,
    profiles: &ProfileHost,
    rows: Vec<Row>,
    caller: &Caller,
) -> StatusReport {
    // the panes of the file's session no seat holds, each with the CLI it runs
    let unplaced =
        file.map(|l| unplaced_of(l, muxes[&l.file.multiplexer].as_ref(), profiles, &rows)).unwrap_or_default();
    StatusReport {
        context: file.map(|l| (l.file.project.clone(), l.file.session.clone())),
        rows,
        caller: caller.describe(),
        caller_seat: match caller {
            Caller::Seat { seat, .. } => Some(seat.clone()),
            _ => None,
        },
        unplaced,
    }
}

/// The roster a run reads: every addressable seat (this machine's run), or the asked team's
/// seats the far side's word holds (the far side of another machine's run).
fn scoped(world: &World, scope: far::Scope, here: &crate::team_file::host::Here) -> Vec<RosterSeat> {
    let mut seats = roster(world);
    if let far::Scope::Far { team, .. } = scope {
        seats.retain(|r| r.team.name == team && here.holds(host_of(r)));
    }
    seats
}

/// The multiplexer a roster seat's team file names (`None`: the policy's choice).
fn choice(r: &RosterSeat) -> Option<String> {
    r.team.file.as_ref().and_then(|f| f.multiplexer.clone())
}

/// One adapter per multiplexer the roster's teams name (and the file's own, for the panes no
/// seat holds).
fn adapters(
    seats: &[RosterSeat],
    file: Option<&Loaded>,
    choose: &dyn Fn(Option<&str>) -> Box<dyn Mux>,
) -> HashMap<Option<String>, Box<dyn Mux>> {
    let mut muxes: HashMap<Option<String>, Box<dyn Mux>> = HashMap::new();
    for r in seats {
        muxes.entry(choice(r)).or_insert_with_key(|c| choose(c.as_deref()));
    }
    if let Some(l) = file {
        muxes.entry(l.file.multiplexer.clone()).or_insert_with_key(|c| choose(c.as_deref()));
    }
    muxes
}

/// The panes of `l`'s session no seat of its team holds, each with the CLI it runs.
fn unplaced_of(l: &Loaded, mux: &dyn Mux, profiles: &ProfileHost, rows: &[Row]) -> Vec<unplaced::Unplaced> {
    let own: Vec<Row> = rows.iter().filter(|r| r.team == l.file.team).cloned().collect();
    unplaced::find(mux, &l.file.session, &profiles.descriptions(&l.file.profiles), &own)
}

/// The seat's `host:` as its team file writes it (`None`: every machine's own).
fn host_of(r: &RosterSeat) -> Option<&crate::team_file::host::SeatHost> {
    r.seat().file_seat.as_ref().and_then(|s| s.host.as_ref())
}

/// Looks at every seat's pane of this machine once before any is read, so each read finds its
/// pane's first capture a quiet time old (`mux::frame`): n seats wait one quiet time, not n.
fn prime<'m>(
    seats: &[RosterSeat],
    muxes: &'m HashMap<Option<String>, Box<dyn Mux>>,
    looks: &mut HashMap<(Option<String>, String), Box<dyn Panes + 'm>>,
    here: &crate::team_file::host::Here,
) {
    for r in seats {
        let seat = r.seat();
        if host_of(r).is_some_and(|h| !here.holds(Some(h))) {
            continue;
        }
        let mux = muxes[&choice(r)].as_ref();
        let look = looks
            .entry((choice(r), r.team.session.clone()))
            .or_insert_with(|| crate::mux::panes_of(mux, &r.team.session));
        let at = crate::state::locate_among(
            look.as_ref(),
            mux.name(),
            &r.team.session,
            &seat.name,
            &r.team.name,
            seat.agent.as_ref(),
        );
        if let Ok(p) = at {
            mux.prime(&p);
        }
    }
}

/// Locates and reads one seat's pane; the profile is asked for only once a pane is found.
fn read_seat<'p>(
    mux: &dyn Mux,
    look: &dyn Panes,
    r: &RosterSeat,
    profile: impl FnOnce() -> &'p mut Result<Profile, NoProfile>,
) -> (Option<String>, Reads, Option<AgentStatus>) {
    let seat = r.seat();
    // located as a send locates it: the registry's recorded pane first (`state::locate_with`)
    let pane = match crate::state::locate_among(
        look,
        mux.name(),
        &r.team.session,
        &seat.name,
        &r.team.name,
        seat.agent.as_ref(),
    ) {
        Ok(p) => p,
        Err(e) => {
            return (None, Reads::NotFound { why: e.to_string() }, None);
        }
    };
    let id = Some(pane.id.clone());
    let cap = match mux.read_screen(&pane) {
        Ok(c) => c,
        Err(e) => return (id, Reads::Unreadable { why: e.to_string() }, None),
    };
    let status = mux.status(&pane).ok().flatten().map(|s| s.status);
    let screen = cap.into_screen();
    let reads = match profile() {
        Ok(p) => match p.classify(&screen) {
            Ok(reading) => Reads::of(reading.state, reading.composer, reading.last_error),
            Err(e) => Reads::Unreadable { why: e.message() },
        },
        Err(e) => Reads::Unreadable { why: e.sentence() },
    };
    (id, reads, status)
}

/// One history's last line to each seat (by the seat it went to), read once.
type Lasts = HashMap<String, MessageLine>;

/// The last history line to the seat (from its own team's history).
fn last_message(
    ctx: &Ctx,
    r: &RosterSeat,
    histories: &mut HashMap<std::path::PathBuf, Lasts>,
    now: DateTime<Utc>,
) -> Option<Last> {
    let root = r.team.root.as_ref()?;
    let project = r.team.file_project.clone().unwrap_or_else(|| r.team.project.clone());
    let dir = history::project_dir(&ctx.paths.config, &project, root);
    let lasts = histories.entry(dir.clone()).or_insert_with(|| {
        let lines = history::read_history(&ctx.paths.config, &dir).map(|h| h.lines).unwrap_or_default();
        // the later line to a seat replaces the earlier: each seat's last
        lines.into_iter().map(|m| (m.to.clone(), m)).collect()
    });
    let m = lasts.get(&r.seat().name)?;
    let age_s = m.ts.at().map(|t| (now - t).num_seconds().max(0));
    Some(Last {
        id: m.id.clone(),
        from: m.from.clone(),
        outcome: m.outcome.clone(),
        ts: m.ts.clone(),
        age_s,
        note: m.note.clone(),
    })
}

/// `12s`, `5m`, `3h`, `2d`.
pub fn age_words(s: i64) -> String {
    match s {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m", s / 60),
        s if s < 48 * 3600 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_prompt_holding_text_is_a_draft() {
        assert_eq!(
            Reads::of(State::Idle, Composer::Holds("half a thought".into()), None),
            Reads::Draft { text: "half a thought".into() }
        );
        assert_eq!(Reads::of(State::Idle, Composer::Empty, None), Reads::Idle { last_error: None });
        // a queued line under a working turn is the turn's, not a draft
        assert_eq!(
            Reads::of(State::Working("esc to interrupt".into()), Composer::Holds("x".into()), None),
            Reads::Working { hint: "esc to interrupt".into() }
        );
        assert_eq!(Reads::NotFound { why: "x".into() }.word(), "not-found");
    }

    /// On herdr (0.8.2's recorded outputs, the real Claude Code and Codex): the row carries
    /// herdr's own status beside what the profile reads, and the reading is the profile's — a
    /// permission dialog herdr calls `blocked` is the profile's `dialog: permission`.
    #[test]
    fn on_herdr_each_row_carries_herdr_s_own_status() {
        use crate::mux::herdr::replay::{herdr, FixtureRunner, V082};
        let d = tempfile::tempdir().unwrap();
        let ctx = Ctx::under(d.path());
        let profiles = ProfileHost::new(&ctx.paths);
        let text = "project: beacon\nsession: teamrh\nmultiplexer: herdr\nseats:\n  - name: lead\n    cli: claude-code\n  - name: rev\n    cli: codex\n  - name: nobody\n    cli: codex\n";
        let file = Loaded {
            file: crate::team_file::parse(text).unwrap(),
            path: d.path().join(".agents/team.yaml"),
            root: d.path().to_path_buf(),
        };
        let reg = Registry::default();
        let choose = |_: Option<&str>| -> Box<dyn Mux> {
            let r = FixtureRunner::running(V082, &["teamfx", "teamrh"])
                .real_state("claude-code-2.1.332", "working", "lead", "w1:p2", None)
                .real_state("codex-0.171.0", "permission", "rev", "w1:p3", None)
                .on(&["--session", "teamrh", "agent", "get", "nobody"], 1, "error-agent-get-unknown.stderr.json");
            Box::new(herdr(r).0)
        };
        let r = status(&ctx, &profiles, Some(&file), &reg, &choose, &Caller::Owner, far::Scope::Near);
        let got: Vec<(String, Option<String>, &str, Option<AgentStatus>)> =
            r.rows.iter().map(|row| (row.name.clone(), row.pane.clone(), row.reads.word(), row.mux_status)).collect();
        assert_eq!(
            got,
            vec![
                ("lead".into(), Some("w1:p2".into()), "working", Some(AgentStatus::Working)),
                ("rev".into(), Some("w1:p3".into()), "dialog", Some(AgentStatus::Blocked)),
                ("nobody".into(), None, "not-found", None),
            ]
        );
        assert!(matches!(&r.rows[1].reads, Reads::Dialog { kind: DialogKind::Permission, .. }), "{:?}", r.rows[1]);
        assert_eq!(r.rows[0].multiplexer, "herdr");
    }

    #[test]
    fn ages_read_in_the_largest_unit_that_fits() {
        assert_eq!(age_words(0), "0s");
        assert_eq!(age_words(59), "59s");
        assert_eq!(age_words(60), "1m");
        assert_eq!(age_words(3599), "59m");
        assert_eq!(age_words(3600), "1h");
        assert_eq!(age_words(47 * 3600), "47h");
        assert_eq!(age_words(3 * 86_400), "3d");
    }
}
