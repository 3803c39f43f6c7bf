//! The working set of one run: the team file the run stands in, the registry, the profile
//! host, the multiplexer a seat is located through, and the caller with its refusal — built
//! once per command from its [`Ctx`] and handed to the use-cases.
//!
//! Invariants: every piece is found the first time it is asked for and kept for the run, so a
//! command pays only for what it uses (a command that never asks who calls never looks);
//! the multiplexer a run uses is chosen here alone ([`Workspace::mux`]: the team file's word,
//! else the environment's hints, the herdr adapter told where each seat was last seen), and
//! so is the profile host and the caller (`caller::find` through that multiplexer, with the
//! installed profiles' facts). "No team file" is worded in `team_file` and nowhere else.

use std::cell::OnceCell;

use crate::caller::{self, Caller, Vendors};
use crate::ctx::Ctx;
use crate::error;
use crate::mux::Mux;
use crate::profiles::ProfileHost;
use crate::registry::Registry;
use crate::team_file::{self, Loaded};

/// The multiplexer for a team file's word (`None`: the environment's hints decide).
pub type MuxFor = dyn Fn(Option<&str>) -> Box<dyn Mux>;

/// The run's working set (see the module's doc).
pub struct Workspace<'a> {
    pub ctx: &'a Ctx,
    file: OnceCell<Option<Loaded>>,
    reg: OnceCell<Registry>,
    profiles: OnceCell<ProfileHost>,
    team_mux: OnceCell<Box<dyn Mux>>,
    vendors: OnceCell<Vendors>,
    caller: OnceCell<Caller>,
    mux_for: Box<MuxFor>,
}

impl<'a> Workspace<'a> {
    /// The working set of a run given `ctx`; nothing is read yet.
    pub fn new(ctx: &'a Ctx) -> Workspace<'a> {
        let (dir, hints) = (ctx.paths.state.clone(), ctx.mux.clone());
        let mux_for = move |choice: Option<&str>| {
            let d = dir.clone();
            let last_seen = Box::new(move |session: &str, seat: &str| crate::state::last_seen_pane(&d, session, seat));
            crate::mux::choose_with(&hints, choice, last_seen)
        };
        Workspace {
            ctx,
            file: OnceCell::new(),
            reg: OnceCell::new(),
            profiles: OnceCell::new(),
            team_mux: OnceCell::new(),
            vendors: OnceCell::new(),
            caller: OnceCell::new(),
            mux_for: Box::new(mux_for),
        }
    }

    /// A working set whose team file is `file` (a hook reads the one its messages name).
    pub fn with_file(ctx: &'a Ctx, file: Option<Loaded>) -> Workspace<'a> {
        let ws = Workspace::new(ctx);
        let _ = ws.file.set(file);
        ws
    }

    /// The team file of the folder the run stands in, if any (read once).
    pub fn file(&self) -> error::Result<Option<&Loaded>> {
        if let Some(f) = self.file.get() {
            return Ok(f.as_ref());
        }
        let found = team_file::find(&self.ctx.cwd()?)?;
        Ok(self.file.get_or_init(|| found).as_ref())
    }

    /// The team file, required: a run outside one is refused saying where it was looked for.
    pub fn team(&self) -> error::Result<&Loaded> {
        match self.file()? {
            Some(f) => Ok(f),
            None => Err(team_file::no_team_file(&self.ctx.cwd()?)),
        }
    }

    /// The team file of the git checkout the run stands in: refused, before any file is
    /// looked for, when the folder is in no checkout (`register`, `rename`).
    pub fn team_in_checkout(&self) -> error::Result<&Loaded> {
        if self.file.get().is_none() {
            team_file::in_checkout(&self.ctx.cwd()?)?;
        }
        self.team()
    }

    /// The registry (read once).
    pub fn reg(&self) -> error::Result<&Registry> {
        if let Some(r) = self.reg.get() {
            return Ok(r);
        }
        let reg = Registry::load(&self.ctx.paths.config)?;
        Ok(self.reg.get_or_init(|| reg))
    }

    /// The team file (if any) and the registry, read in that order.
    pub fn world(&self) -> error::Result<(Option<&Loaded>, &Registry)> {
        let file = self.file()?;
        Ok((file, self.reg()?))
    }

    /// This very program's path, the `team` a hook or an MCP entry written now will run.
    pub fn own_exe(&self) -> error::Result<String> {
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .map_err(|e| error::TeamError::failed(format!("this team's own path cannot be read: {e}")))
    }

    /// The profile host (built once; it compiles only the profiles asked for).
    pub fn profiles(&self) -> &ProfileHost {
        self.profiles.get_or_init(|| ProfileHost::new(&self.ctx.paths))
    }

    /// The multiplexer `choice` names (a team file's word), else the one the environment's
    /// hints choose: the one policy every command locates seats by.
    pub fn mux(&self, choice: Option<&str>) -> Box<dyn Mux> {
        (self.mux_for)(choice)
    }

    /// [`Workspace::mux`] as a function, for the use-cases that choose per team.
    pub fn mux_for(&self) -> &MuxFor {
        &*self.mux_for
    }

    /// The multiplexer the run's team file chooses (or the hints, with none), built once.
    pub fn team_mux(&self) -> error::Result<&dyn Mux> {
        if let Some(m) = self.team_mux.get() {
            return Ok(m.as_ref());
        }
        let choice = self.file()?.and_then(|l| l.file.multiplexer.clone());
        Ok(self.team_mux.get_or_init(|| self.mux(choice.as_deref())).as_ref())
    }

    /// What the installed profiles say about their CLIs, as the run's team file pins them
    /// (read once).
    pub fn vendors(&self) -> error::Result<&Vendors> {
        if let Some(v) = self.vendors.get() {
            return Ok(v);
        }
        let found = self.vendors_for(self.file()?);
        Ok(self.vendors.get_or_init(|| found))
    }

    /// What the installed profiles say about their CLIs, as `file` pins them.
    pub fn vendors_for(&self, file: Option<&Loaded>) -> Vendors {
        let pins = file.map(|l| l.file.profiles.clone()).unwrap_or_default();
        Vendors::from_descriptions(&self.profiles().descriptions(&pins))
    }

    /// Who calls, found from this process's pane (the team file, then the registry, are read
    /// first), once for the run.
    pub fn caller(&self) -> error::Result<&Caller> {
        if let Some(c) = self.caller.get() {
            return Ok(c);
        }
        let (file, reg) = self.world()?;
        let found = caller::find(reg, file, self.team_mux()?, self.vendors()?);
        Ok(self.caller.get_or_init(|| found))
    }

    /// The caller, or the refusal every command and the MCP server give one that may not act
    /// (`caller::refusal`).
    pub fn acting_caller(&self) -> error::Result<&Caller> {
        let c = self.caller()?;
        match caller::refusal(c) {
            Some(e) => Err(e),
            None => Ok(c),
        }
    }

    /// The caller as a world read apart from this set finds it (`reg`, `file`), through `mux`:
    /// a server reading the world afresh for each call, a check before the team file is read.
    pub fn caller_in(&self, reg: &Registry, file: Option<&Loaded>, mux: &dyn Mux) -> Caller {
        caller::find(reg, file, mux, &self.vendors_for(file))
    }

    /// [`Workspace::caller_in`] through the multiplexer `file` chooses.
    pub fn caller_of(&self, reg: &Registry, file: Option<&Loaded>) -> Caller {
        let mux = self.mux(file.and_then(|l| l.file.multiplexer.as_deref()));
        self.caller_in(reg, file, mux.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_read_until_asked_and_no_team_file_is_refused_in_its_one_wording() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = Ctx::under(dir.path());
        let ws = Workspace::with_file(&ctx, None);
        assert!(ws.reg.get().is_none() && ws.profiles.get().is_none() && ws.caller.get().is_none());
        let e = ws.team().unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::BadFile);
        assert!(e.message().starts_with("no team file: "), "{}", e.message());
        assert!(ws.profiles.get().is_none(), "a refusal reads no profile");
        let _ = ws.profiles();
        assert!(ws.profiles.get().is_some());
        assert_eq!(ws.mux(Some("tmux")).name(), "tmux");
    }
}
