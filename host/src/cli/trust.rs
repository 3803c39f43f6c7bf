//! `team trust [notify]`: the commands the team file makes team run and whether the owner
//! approved each for this checkout; with a command's word, the owner approves it (the
//! use-case, who may, and its words are `crate::approve`'s).

use super::Ran;
use crate::approve;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::trust::What;
use crate::workspace::Workspace;

/// Arguments of `team trust`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The command to approve, as the team file has it now (without one: list them).
    #[arg(value_enum)]
    pub command: Option<Which>,
}

/// The commands a team file makes team run.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Which {
    /// The notify: section's command.
    Notify,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = Workspace::new(ctx);
    let text = match a.command {
        None => {
            let (loaded, rows) = approve::list(&ws)?;
            approve::listed(loaded, &rows)
        }
        Some(Which::Notify) => {
            let (loaded, approval) = approve::approve(&ws, &What::Notify)?;
            approve::approved(loaded, &approval)
        }
    };
    out.out(&text);
    Ok(0)
}
