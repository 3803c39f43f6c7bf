//! `team ack <id> [--note <text>]`: its arguments, and the rendering of what `converse::ack`
//! wrote — one line, or the `team.ack` document.

use crate::converse::ack;
use crate::ctx::Ctx;
use crate::error::{context_line, TeamError};
use crate::output::Output;
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// Arguments of `team ack`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "Ack a message once you have read it and know what you will do: you will act on it, or \
(--note) why not. The message leaves your team inbox, team feed shows it acked, and team watch \
stops looking for a sign. A question you answer with team reply is acked by the reply. The \
owner acks a message left in the owner's inbox, or sets an alert aside (docs/conversations.md).")]
pub struct Args {
    /// The id of the message (team inbox lists them).
    pub id: Option<String>,
    /// What you will do, or why not (kept with the ack, at most 4096 bytes).
    #[arg(long, value_name = "text")]
    pub note: Option<String>,
    /// Print one JSON document instead of a line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let json = a.json;
    let Some(id) = a.id.clone() else {
        let e = TeamError::usage("a message id is required (team inbox lists them)")
            .with_repair("usage: team ack <id> [--note <text>] [--json]");
        return Err(e);
    };
    let r = ack::ack_here(&Workspace::new(ctx), &id, a.note.as_deref())?;
    let line = r.line();
    if json {
        out.doc(&r.document(&line));
    } else {
        out.out(&format!("{}{}\n", context_line(&r.project, &r.session), one_line(&line)));
    }
    Ok(0)
}
