//! `team inbox`: what waits for the caller (`converse::inbox`), one row per item, newest
//! last, or the `team.inbox` document.

use crate::converse::inbox;
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;
use crate::workspace::Workspace;

/// Arguments of `team inbox`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "Run from a seat's pane: the messages delivered to that seat and not yet acked, newest \
last, each with the id team reply and team ack take. Run by the owner: the messages and replies \
left in the owner's inbox, and the alerts (sends held, not-submitted or unreachable and never \
delivered since, messages never acted on) not set aside (docs/conversations.md).")]
pub struct Args {
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let json = a.json;
    let b = inbox::inbox_here(&Workspace::new(ctx))?;
    if json {
        out.doc(&b.document());
    } else {
        out.out(&format!("{}{}", context_line(&b.project, &b.session), b.text()));
    }
    Ok(0)
}
