//! `team mark <seat> [--pane <id>]`: a pane marked as a seat (the use-case, what it refuses
//! and its words are `crate::mark`'s).

use super::Ran;
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;

/// Arguments of `team mark`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The seat of the team file the pane runs.
    pub seat: String,
    /// The pane to mark (`%3`, `<session>:<window>.<pane>`); default: the pane this runs in.
    #[arg(long, value_name = "id")]
    pub pane: Option<String>,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = crate::workspace::Workspace::new(ctx);
    let (loaded, marked) = crate::mark::mark_here(&ws, &a.seat, a.pane.as_deref())?;
    let f = &loaded.file;
    out.out(&format!("{}{}", context_line(&f.project, &f.session), marked.said(f, &a.seat)));
    Ok(0)
}
