//! `team seats [--json]`: prints the records `crate::seats` reads, as a table or the
//! `team.seats` document.

use super::Ran;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::workspace::Workspace;

/// Arguments of `team seats`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Lists what team up (or team register) recorded for each seat of the team's session, and team
down stopped: SEAT, STAGE, CLI, PANE, PID, SINCE, LAUNCH. These are the seats team send, team
watch and team down address.")]
pub struct Args {
    /// Print one team.seats document
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let d = crate::seats::run_here(&Workspace::new(ctx))?;
    if a.json {
        out.doc(&d);
    } else {
        let mut text = crate::error::context_line(&d.project, &d.session);
        text.push_str(&crate::seats::words(&d));
        out.out(&text);
    }
    Ok(0)
}
