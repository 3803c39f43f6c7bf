//! `team init`: writes a checkout's first `.agents/team.yaml` (commented, with the schema line
//! editors read), the schema beside it, and `.agents/.gitignore`; then says who may reach
//! whom and what to do next, naming every seat. `crate::init` decides what is written; this
//! file reads the invocation and the surroundings (the multiplexer the run sits in, else the
//! one installed).

use super::Ran;
use crate::ctx::Ctx;
use crate::error::context_line;
use crate::init::{self, MuxFrom, Plan, Wrote};
use crate::output::Output;
use crate::vocab::text::one_line;

/// Arguments of `team init`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "With seats, the first one (or the one --lead names) leads: a team's lead briefs every seat and every \
seat reaches its lead, so the team's agents can message each other through it (docs/admission.md)."
)]
pub struct Args {
    /// A seat to fill in, as <name>:<cli> (claude-1:claude-code); repeat for more.
    #[arg(long = "seat", value_name = "name:cli")]
    pub seats: Vec<String>,
    /// The seat that leads the team (default: the first --seat).
    #[arg(long, value_name = "seat")]
    pub lead: Option<String>,
    /// The multiplexer the seats run in (default: the one this terminal sits in, else the one
    /// installed, herdr first).
    #[arg(long, value_name = "herdr|tmux", value_parser = ["herdr", "tmux"])]
    pub multiplexer: Option<String>,
    /// Also write the lines an agent reads about `team send` into CLAUDE.md (Claude Code) and
    /// AGENTS.md (Codex and the others) at the checkout's root, after what they hold.
    #[arg(long)]
    pub agent_instructions: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let asked = init::Asked {
        seats: &a.seats,
        lead: a.lead.as_deref(),
        multiplexer: a.multiplexer.as_deref(),
        agent_instructions: a.agent_instructions,
    };
    let ws = crate::workspace::Workspace::new(ctx);
    let (p, w) = init::plan(&ws, &asked).and_then(|p| init::write(&p).map(|w| (p, w)))?;
    out.out(&said(&p, &w));
    Ok(0)
}

fn said(p: &Plan, w: &init::Written) -> String {
    let rel = |path: &std::path::Path| crate::team_file::shown(path, &p.cwd);
    let mut t = context_line(&p.project, &p.session);
    let seats = match p.seats.len() {
        0 => "no seat yet: the examples in it are commented out".to_string(),
        n => format!(
            "{n} seat{}: {}",
            if n == 1 { "" } else { "s" },
            p.seats.iter().map(|s| format!("{} ({})", s.name, s.cli)).collect::<Vec<_>>().join(", ")
        ),
    };
    let mux = match (p.multiplexer, p.multiplexer_from) {
        (Some(m), MuxFrom::Installed) => format!(", multiplexer {m}: found installed"),
        (Some(m), _) => format!(", multiplexer {m}"),
        (None, _) => String::new(),
    };
    t.push_str(&format!("wrote {} ({seats}{mux})\n", one_line(&rel(&w.team_file))));
    if w.ignored_added.is_empty() {
        t.push_str(&format!("{} already keeps {} out of git\n", rel(&w.gitignore), init::IGNORED.join(", ")));
    } else {
        let verb = if w.gitignore_existed { "added to" } else { "wrote" };
        t.push_str(&format!("{verb} {} (keeps {} out of git)\n", rel(&w.gitignore), w.ignored_added.join(", ")));
    }
    for (path, wrote) in &w.instructions {
        let shown = one_line(&rel(path)).into_owned();
        t.push_str(&match wrote {
            Wrote::Created => format!("wrote {shown} (what an agent reads about team send)\n"),
            Wrote::Added => format!("added to {shown}: what an agent reads about team send\n"),
            Wrote::AlreadyThere => format!("{shown} already tells its agents about team send\n"),
        });
    }
    if !p.in_git {
        t.push_str("(this folder is not in a git checkout: team finds the file from here and the folders below)\n");
    }
    if p.multiplexer.is_none() {
        t.push_str("(neither herdr nor tmux is installed: install one, and write it as multiplexer: in the file)\n");
    }
    if let Some(line) = p.reach_line() {
        t.push_str(&format!("{}\n", one_line(&line)));
    }
    let steps = p.next_steps();
    t.push_str("next:\n");
    let rows: Vec<[String; 2]> = steps.into_iter().map(|(c, why)| [one_line(&c).into_owned(), why]).collect();
    t.push_str(&crate::vocab::table::table(&rows));
    t
}
