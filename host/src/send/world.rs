//! What a send runs on and starts from: [`Means`], its view of the run's working set
//! (`workspace::Workspace`: context, profile host, multiplexer policy), and [`Loadout`], the
//! team file and registry it reads, with the caller it acts for ([`standing`]).
//!
//! Invariant: a send reads its world through the working set; only a server that reads it
//! afresh for each call ([`load`]) reads it apart.

use std::path::Path;

use super::Ask;
use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error;
use crate::mux::Mux;
use crate::profiles::ProfileHost;
use crate::registry::Registry;
use crate::team_file::{self, Loaded};
use crate::workspace::Workspace;

/// What a send runs on: a view of the run's working set (`workspace::Workspace`) — its
/// context, its profile host, and its multiplexer for a team file's `multiplexer:` choice.
pub struct Means<'a> {
    pub ctx: &'a Ctx,
    pub profiles: &'a ProfileHost,
    pub mux: &'a dyn Fn(Option<&str>) -> Box<dyn Mux>,
}

impl<'a> Means<'a> {
    /// The view of `ws` a send runs on.
    pub fn of(ws: &'a Workspace<'a>) -> Means<'a> {
        Means { ctx: ws.ctx, profiles: ws.profiles(), mux: ws.mux_for() }
    }
}

/// The run's world: the cwd's team file and the registry (a send's own copy of the working
/// set's, which its decision keeps).
#[derive(Clone)]
pub struct Loadout {
    pub file: Option<Loaded>,
    pub reg: Registry,
}

impl Loadout {
    /// The working set's team file and registry, read in that order.
    pub fn of(ws: &Workspace) -> error::Result<Loadout> {
        let (file, reg) = ws.world()?;
        Ok(Loadout { file: file.cloned(), reg: reg.clone() })
    }
}

/// What `team send` starts from: the working set's world and its caller. `--list` lists a
/// team's roster, so outside a checkout there is none (exit 2, saying where the file was
/// looked for, as `team status` and `team check` do); a caller neither a verified pane's seat
/// nor the owner at a terminal sends nothing, and `--list` is no exception (spec "Who may
/// send to whom").
pub fn standing(ws: &Workspace, ask: &Ask) -> error::Result<(Loadout, Caller)> {
    let load = Loadout::of(ws)?;
    if let (Ask::List, None) = (ask, &load.file) {
        ws.team()?;
    }
    Ok((load, ws.acting_caller()?.clone()))
}

/// Reads the team file `cwd` stands in (if any) and the registry.
pub fn load(ctx: &Ctx, cwd: &Path) -> error::Result<Loadout> {
    let file = team_file::find(cwd)?;
    let reg = Registry::load(&ctx.paths.config)?;
    Ok(Loadout { file, reg })
}
