//! `team init`: writes a checkout's first `.agents/team.yaml` (commented, with the schema line
//! editors read), the schema beside it, and `.agents/.gitignore`; then says what to do next.
//! `crate::init` decides what is written; this file reads the invocation and the surroundings.

use crate::ctx::Ctx;
use crate::init::{self, Plan, SeatAsk};
use crate::outcome::{context_line, TeamError};
use crate::output::{one_line, Output};
use crate::profiles::ProfileHost;

/// Arguments of `team init`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A seat to fill in, as <name>:<cli> (claude-1:claude-code); repeat for more.
    #[arg(long = "seat", value_name = "name:cli")]
    pub seats: Vec<String>,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    match plan(&a, ctx).and_then(|p| init::write(&p).map(|w| (p, w))) {
        Ok((p, w)) => {
            out.out(&said(&p, &w));
            0
        }
        Err(e) => super::report_error("init", false, &e, out),
    }
}

fn plan(a: &Args, ctx: &Ctx) -> crate::outcome::Result<Plan> {
    let cwd =
        std::env::current_dir().map_err(|e| TeamError::failed(format!("the current folder cannot be read: {e}")))?;
    let installed = ProfileHost::new(&ctx.paths).installed_ids();
    let mut seats: Vec<SeatAsk> = Vec::new();
    for w in &a.seats {
        let s = init::seat_ask(w, &installed)?;
        if seats.iter().any(|x| x.name == s.name) {
            return Err(TeamError::usage(format!("--seat {:?} is given twice", s.name)));
        }
        seats.push(s);
    }
    let (root, in_git) = init::root_of(&cwd);
    let project = init::name_of(&root);
    let multiplexer = crate::mux::sits_in();
    // Inside tmux, the seats' panes are marked in the session the caller sits in.
    let tmux_session = (multiplexer == Some("tmux"))
        .then(|| std::env::var("TMUX_PANE").ok())
        .flatten()
        .and_then(|p| crate::mux::tmux::Tmux::from_env().pane_marked(&p).ok())
        .map(|p| p.session)
        .filter(|s| !s.trim().is_empty() && !s.contains(['\n', '#', ':']));
    let session_from_tmux = tmux_session.is_some();
    let session = tmux_session.unwrap_or_else(|| project.clone());
    Ok(Plan { root, cwd, in_git, project, session, multiplexer, session_from_tmux, seats, installed })
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
    let mux = p.multiplexer.map(|m| format!(", multiplexer {m}")).unwrap_or_default();
    t.push_str(&format!("wrote {} ({seats}{mux})\n", one_line(&rel(&w.team_file))));
    if w.ignored_added.is_empty() {
        t.push_str(&format!("{} already keeps {} out of git\n", rel(&w.gitignore), init::IGNORED.join(", ")));
    } else {
        let verb = if w.gitignore_existed { "added to" } else { "wrote" };
        t.push_str(&format!("{verb} {} (keeps {} out of git)\n", rel(&w.gitignore), w.ignored_added.join(", ")));
    }
    if !p.in_git {
        t.push_str("(this folder is not in a git checkout: team finds the file from here and the folders below)\n");
    }
    let first = p.seats.first().map(|s| s.name.as_str()).unwrap_or("<seat>");
    let mut steps: Vec<(String, String)> = Vec::new();
    if p.seats.is_empty() {
        steps.push(("edit .agents/team.yaml".into(), "uncomment a seat per agent and name it".into()));
    }
    if p.multiplexer == Some("herdr") {
        steps.push((
            format!("herdr --session {} agent rename <pane> {first}", p.session),
            "names the seat's pane".into(),
        ));
    } else {
        steps.push((
            format!("team mark {first}"),
            format!("inside the seat's tmux pane (or: team mark {first} --pane <id>)"),
        ));
    }
    steps.push(("team check".into(), "reads the file back, with a note for anything it would not act on".into()));
    steps.push(("team status".into(), "what each seat's screen shows now".into()));
    steps.push((format!("team send {first} \"hello\""), "one message, proven taken; team feed shows it".into()));
    let w = steps.iter().map(|(c, _)| c.chars().count()).max().unwrap_or(0);
    t.push_str("next:\n");
    for (c, why) in steps {
        t.push_str(&format!("  {}{}  {why}\n", one_line(&c), " ".repeat(w - c.chars().count())));
    }
    t
}
