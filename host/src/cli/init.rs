//! `team init`: writes a checkout's first `.agents/team.yaml` (commented, with the schema line
//! editors read), the schema beside it, and `.agents/.gitignore`; then says who may reach
//! whom and what to do next, naming every seat. `crate::init` decides what is written (from
//! the surroundings: the multiplexer the run sits in, else the one installed) and says it;
//! this file reads the invocation.

use super::Ran;
use crate::ctx::Ctx;
use crate::init;
use crate::output::Output;

/// Arguments of `team init`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "With seats, the first one (or the one --lead names) leads: a team's lead briefs every seat and every \
seat reaches its lead, so the team's agents can message each other through it (docs/admission.md)."
)]
pub struct Args {
    /// A seat to fill in, as <name>:<cli> (claude-1:claude-code); repeat for more.
    #[arg(long = "seat", value_name = "name:cli")]
    pub seats: Vec<String>,
    /// The seat that leads the team (default: the first --seat).
    #[arg(long, value_name = "seat")]
    pub lead: Option<String>,
    /// The multiplexer the seats run in (default: the one this terminal sits in, else the one
    /// installed, herdr first).
    #[arg(long, value_name = "herdr|tmux", value_parser = ["herdr", "tmux"])]
    pub multiplexer: Option<String>,
    /// Also write the lines an agent reads about `team send` into CLAUDE.md (Claude Code) and
    /// AGENTS.md (Codex and the others) at the checkout's root, after what they hold.
    #[arg(long)]
    pub agent_instructions: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let asked = init::Asked {
        seats: &a.seats,
        lead: a.lead.as_deref(),
        multiplexer: a.multiplexer.as_deref(),
        agent_instructions: a.agent_instructions,
    };
    let ws = crate::workspace::Workspace::new(ctx);
    let (p, w) = init::plan(&ws, &asked).and_then(|p| init::write(&p).map(|w| (p, w)))?;
    out.out(&p.said(&w));
    Ok(0)
}
