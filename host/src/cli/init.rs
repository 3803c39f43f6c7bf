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

/// Who may reach whom in the file just written.
fn reach_line(p: &Plan) -> Option<String> {
    let lead = p.lead.as_deref()?;
    let others: Vec<&str> = p.seats.iter().map(|s| s.name.as_str()).filter(|n| *n != lead).collect();
    Some(match others.as_slice() {
        [] => format!("{lead} leads the team: every seat you add reaches it, and it reaches them (docs/admission.md)"),
        [one] => format!("{lead} leads the team: {lead} and {one} may message each other (docs/admission.md)"),
        [head @ .., last] => format!(
            "{lead} leads the team: {lead} may message {} and {last}, and each of them may message {lead}; they reach each other through {lead} (docs/admission.md)",
            head.join(", ")
        ),
    })
}

/// What the run wrote and what to do next.
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
    if let Some(line) = reach_line(p) {
        t.push_str(&format!("{}\n", one_line(&line)));
    }
    let names: Vec<&str> = p.seats.iter().map(|s| s.name.as_str()).collect();
    let each: Vec<&str> = if names.is_empty() { vec!["<seat>"] } else { names.clone() };
    let mut steps: Vec<(String, String)> = Vec::new();
    if p.seats.is_empty() {
        steps.push(("edit .agents/team.yaml".into(), "uncomment a seat per agent and name it".into()));
    }
    for (i, seat) in each.iter().enumerate() {
        if p.multiplexer == Some("herdr") {
            steps.push((
                format!("herdr --session {} agent rename <pane> {seat}", p.session),
                if i == 0 { "names the seat's pane (its CLI running in it)".into() } else { String::new() },
            ));
        } else {
            let why = if i == 0 {
                format!(
                    "inside the seat's tmux pane, its CLI running (or: team mark {seat} --pane <id>; team status lists the panes)"
                )
            } else {
                "inside its own pane".to_string()
            };
            steps.push((format!("team mark {seat}"), why));
        }
    }
    steps.push(("team check".into(), "reads the file back, with a note for anything it would not act on".into()));
    steps.push((
        "team hooks install".into(),
        "lets each seat's CLI take messages mid-turn through its own hooks (docs/inbox.md)".into(),
    ));
    steps.push(("team status".into(), "what each seat's screen shows now".into()));
    let first = each[0];
    steps.push((format!("team send {first} \"hello\""), "one message, proven taken; team feed shows it".into()));
    t.push_str("next:\n");
    let rows: Vec<[String; 2]> = steps.into_iter().map(|(c, why)| [one_line(&c).into_owned(), why]).collect();
    t.push_str(&crate::vocab::table::table(&rows));
    t
}
