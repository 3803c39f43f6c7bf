//! `team check`: reads the team file as every command reads it and prints what `crate::check`
//! notes about it (in its words), each with its line — or one `team.check` document. Exit 0 when the file
//! loads (notes or none), 2 when it cannot be read.

use super::Ran;
use crate::check;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::workspace::Workspace;

/// Arguments of `team check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one team.check document.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let cwd = ctx.cwd()?;
    // the `team` an MCP entry should start: this very program
    let exe = std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_default();
    let r = check::check_here(&Workspace::new(ctx), &exe)?;
    // the file as reached from the real folder, as `team check` has always shown it
    let real = cwd.canonicalize().unwrap_or_else(|_| cwd.clone());
    let shown = crate::team_file::shown(&r.path, &real);
    if a.json {
        out.doc(&r.document(&shown));
    } else {
        out.out(&r.said(&shown));
    }
    Ok(0)
}
