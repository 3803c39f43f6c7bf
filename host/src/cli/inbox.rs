//! `team inbox`: what waits for the caller (`converse::inbox`), one row per item, newest
//! last, or the `team.inbox` document.

use crate::converse::inbox::{self, Inbox, What};
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;
use crate::vocab::text::one_line;
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
        out.doc(&doc(&b));
    } else {
        out.out(&format!("{}{}", context_line(&b.project, &b.session), text(&b)));
    }
    Ok(0)
}

/// The `team.inbox` document (`schema/inbox.schema.json`).
pub fn doc(b: &Inbox) -> crate::converse::inbox::InboxDoc<'_> {
    b.document()
}

/// The inbox as `team inbox` prints it under its context line (and the MCP tool `team_inbox`
/// answers it): a table when anything waits, then the summary line.
pub fn text(b: &Inbox) -> String {
    let mut rows: Vec<Vec<String>> =
        vec![["ID", "WHAT", "FROM", "TIME", "MESSAGE"].iter().map(|s| s.to_string()).collect()];
    for i in &b.items {
        let what = match (&i.what, &i.alert, &i.reply_to) {
            (What::Alert, Some(a), _) => format!("alert: {a}"),
            (What::Reply, _, Some(q)) => format!("reply to {q}"),
            (What::Reply, _, None) => "reply".into(),
            _ => "message".into(),
        };
        let from = if i.what == What::Alert { format!("{} -> {}", i.from, i.to) } else { i.from.clone() };
        let time = i.ts.get(11..19).unwrap_or(&i.ts).to_string();
        rows.push([i.id.clone(), what, from, time, i.first_line.clone()].map(|c| one_line(&c).into_owned()).to_vec());
    }
    let mut text = String::new();
    if !b.items.is_empty() {
        text.push_str(&super::table::table(&rows));
    }
    text.push_str(&b.summary());
    text.push('\n');
    text
}
