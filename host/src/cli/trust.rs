//! `team trust [notify | launch <seat>]`: the commands the team file makes team run and whether the owner
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
#[command(after_help = "team trust notify approves the notify: command; team trust launch <seat> approves that seat's
launch: line, which team up types into the seat's shell. Each is approved for this checkout and
these very words: a changed line asks again.")]
pub struct Args {
    /// The command to approve, as the team file has it now (without one: list them).
    #[arg(value_enum)]
    pub command: Option<Which>,
    /// The seat whose launch: line `launch` approves.
    #[arg(value_name = "seat", required_if_eq("command", "launch"))]
    pub seat: Option<String>,
}

/// The commands a team file makes team run.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Which {
    /// The notify: section's command.
    Notify,
    /// A seat's launch: line (name the seat).
    Launch,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = Workspace::new(ctx);
    let text = match a.command {
        None => {
            let (loaded, rows) = approve::list(&ws)?;
            approve::listed(loaded, &rows)
        }
        Some(which) => {
            let what = match (which, a.seat) {
                (Which::Launch, Some(seat)) => What::Launch { seat },
                _ => What::Notify,
            };
            let (loaded, approval) = approve::approve(&ws, &what)?;
            approve::approved(loaded, &approval)
        }
    };
    out.out(&text);
    Ok(0)
}
