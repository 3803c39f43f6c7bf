//! `team trust [notify | launch <seat>]`: the commands the team file makes team run and whether the owner
//! approved each for this checkout; with a command's word, the owner approves it (the
//! use-case, and who may, is `crate::approve`).

use super::Ran;
use crate::approve::Row;
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::output::Output;
use crate::trust::{self, Stands, What};
use crate::vocab::text::one_line;
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
    match a.command {
        None => {
            let (loaded, rows) = crate::approve::list(&ws)?;
            let mut text = context_line(&loaded.file.project, &loaded.file.session);
            if rows.is_empty() {
                text.push_str("the team file makes team run no command\n");
            }
            for r in &rows {
                text.push_str(&row(r));
            }
            out.out(&text);
            Ok(0)
        }
        Some(which) => {
            let what = match (which, a.seat) {
                (Which::Launch, Some(seat)) => What::Launch { seat },
                _ => What::Notify,
            };
            let (loaded, approval) = crate::approve::approve(&ws, &what)?;
            let mut text = context_line(&loaded.file.project, &loaded.file.session);
            text.push_str(&format!(
                "{}: approved for {}: {}\n",
                approval.what.words(),
                one_line(&approval.root.display().to_string()),
                trust::shown(&approval.argv)
            ));
            out.out(&text);
            Ok(0)
        }
    }
}

fn row(r: &Row) -> String {
    let at = r.line.map(|l| format!(" (line {l})")).unwrap_or_default();
    let head = format!("{}{at}: {}", r.wanted.what.words(), trust::shown(&r.wanted.argv));
    match &r.stands {
        Stands::Approved { at } => format!("{head} — approved {}\n", one_line(at)),
        Stands::Other { argv } => format!(
            "{head} — not approved: the approval is of other words ({})\n  {}\n",
            trust::shown(argv),
            trust::repair(&r.wanted)
        ),
        Stands::None => format!("{head} — not approved\n  {}\n", trust::repair(&r.wanted)),
    }
}
