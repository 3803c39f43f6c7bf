//! `team mark <seat> [--pane <id>]`: the words of a pane marked as a seat (the use-case, and
//! what it refuses, is `crate::mark`).

use super::Ran;
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::mark::Marked;
use crate::output::Output;
use crate::vocab::text::one_line;

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
    let (f, seat) = (&loaded.file, &a.seat);
    let mut text = context_line(&f.project, &f.session);
    match marked {
        Marked::Already { pane } => {
            text.push_str(&format!("{seat}: pane {} is already marked as it\n", one_line(&pane)))
        }
        Marked::Marked { pane, was } => {
            let was = was.map(|w| format!(" (it was marked {w:?})")).unwrap_or_default();
            text.push_str(&format!(
                "{seat}: marked pane {} of tmux session {:?}{}\n",
                one_line(&pane),
                f.session,
                one_line(&was)
            ));
        }
    }
    out.out(&text);
    Ok(0)
}
