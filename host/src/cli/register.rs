//! `team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]`: parses, finds
//! the caller, runs `crate::register`, prints its lines or its `team.register` document.
//!
//! The words are read here, not by clap, so that every usage error is the spec's own sentence
//! (`unknown option <option>`, `a seat name is required`, `unexpected "<word>"`) with the usage.

use crate::caller;
use crate::ctx::Ctx;
use crate::outcome::TeamError;
use crate::output::Output;
use crate::register::{self, Means, Report, Request};
use crate::registry::Registry;
use crate::team_file;

pub const USAGE: &str = "usage: team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]";

/// Arguments of `team register`: every word, read by [`parse`]; clap only shows the help.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    disable_help_flag = true,
    override_usage = "team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]",
    after_help = "Arguments:
  <seat>            A seat of this checkout's team file whose CLI already runs in a pane of the
                    team's session (started by hand, or before this team managed it)

Options:
      --session <name>  The session the pane is verified in, instead of the file's session:
                        the owner's alone
      --pane <id>       A pane the multiplexer never named as the seat: it is named as the seat
                        and recorded (a pane already named needs no flag)
      --dry-run         Verify the seat and print the line the real run would print; write
                        nothing
      --json            Print one team.register document (a refusal: the team.error document)
  -h, --help            Print this help

It checks that the pane runs the seat's CLI at its prompt, types nothing into it, and writes
the seat's record in .agents/team.state.json and the registry (docs/registry.md). A second run
is the repair: the registry is written again from the file."
)]
pub struct Args {
    #[arg(allow_hyphen_values = true, trailing_var_arg = true, num_args = 0.., hide = true)]
    pub words: Vec<String>,
}

/// What the words ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Help,
    Run { req: Request, json: bool },
}

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE).with_id("register.usage")
}

/// Reads the words: `<seat>` once, `--session <name>` / `--session=<name>`, `--pane <id>`,
/// `--dry-run`, `--json`, `--help`/`-h`.
pub fn parse(words: &[String]) -> Result<Ask, TeamError> {
    let mut req = Request::default();
    let mut json = false;
    let mut seat: Option<String> = None;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, TeamError> {
            match inline.clone().or_else(|| it.next().cloned()) {
                Some(v) if !v.is_empty() && !v.starts_with('-') => Ok(v),
                _ => Err(usage(format!("{name} needs a value"))),
            }
        };
        match flag {
            "--help" | "-h" => return Ok(Ask::Help),
            "--json" => json = true,
            "--dry-run" => req.dry_run = true,
            "--session" => req.session = Some(value("--session <name>")?),
            "--pane" => req.pane = Some(value("--pane <id>")?),
            "--" => {}
            f if f.starts_with('-') && f.len() > 1 => return Err(usage(format!("unknown option {w}"))),
            _ if seat.is_none() => seat = Some(w.clone()),
            _ => return Err(usage(format!("unexpected \"{w}\""))),
        }
    }
    req.seat = seat.ok_or_else(|| usage("a seat name is required"))?;
    Ok(Ask::Run { req, json })
}

/// The `team.register` document.
pub fn document(r: &Report) -> crate::register::doc::RegisterDoc {
    r.document()
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    let json_words = a.words.iter().any(|w| w == "--json");
    let (req, json) = match parse(&a.words) {
        Ok(Ask::Help) => {
            out.out(&super::help_of("register"));
            return 0;
        }
        Ok(Ask::Run { req, json }) => (req, json),
        Err(e) => return super::report_error("register", json_words, &e, out),
    };
    match run_it(&req, ctx) {
        Ok(r) if json => {
            out.doc(&document(&r));
            0
        }
        Ok(r) => {
            // at a terminal the run opens with the context line like every other command's;
            // piped, its lines are the spec's transcript, which shows none
            let mut text =
                if out.is_terminal() { crate::outcome::context_line(&r.project, &r.session) } else { String::new() };
            for n in &r.notes {
                text.push_str(&crate::output::one_line(n));
                text.push('\n');
            }
            text.push_str(&crate::output::one_line(&r.line));
            text.push('\n');
            out.out(&text);
            0
        }
        Err(e) => super::report_error("register", json, &e, out),
    }
}

fn run_it(req: &Request, ctx: &Ctx) -> Result<Report, TeamError> {
    let st = Standing::here(ctx)?;
    let m = Means {
        mux: st.mux.as_ref(),
        profiles: &st.profiles,
        ctx,
        identity: crate::registry::ProcessIdentity::read,
        native: crate::native::live_address,
    };
    register::run(&m, &st.file, &st.reg, &st.who, req)
}

/// What a command acting on a seat of this checkout's team starts from (`register`,
/// `rename`): the team file, the registry, the profiles, the file's multiplexer and who the
/// caller is through it.
pub struct Standing {
    pub file: team_file::Loaded,
    pub reg: Registry,
    pub profiles: crate::profiles::ProfileHost,
    pub mux: Box<dyn crate::mux::Mux>,
    pub who: caller::Caller,
}

impl Standing {
    /// Reads them from the current folder (see [`load_file`]).
    pub fn here(ctx: &Ctx) -> Result<Standing, TeamError> {
        let cwd = ctx.cwd()?;
        let file = load_file(&cwd)?;
        let reg = Registry::load(&ctx.paths.config)?;
        let profiles = crate::profiles::ProfileHost::new(&ctx.paths);
        let mux = crate::state::mux_for(&ctx.paths.state, &ctx.mux)(file.file.multiplexer.as_deref());
        let vendors = caller::Vendors::from_descriptions(&profiles.descriptions(&file.file.profiles));
        let who = caller::find(&reg, Some(&file), mux.as_ref(), &vendors);
        Ok(Standing { file, reg, profiles, mux, who })
    }
}

/// The team file of the checkout `cwd` stands in: refused when the folder is in no git
/// repository, or no team file lies between it and the repository's root.
pub fn load_file(cwd: &std::path::Path) -> Result<team_file::Loaded, TeamError> {
    let start = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    if !start.ancestors().any(|d| d.join(".git").exists()) {
        return Err(TeamError::bad_file(format!(
            "{} is not inside a git repository; a team file lives in a checkout's .agents/team.yaml",
            start.display()
        )));
    }
    // the walk starts from the folder as the run names it (`ctx.cwd`), as every command's does
    team_file::find(cwd)?.ok_or_else(|| {
        TeamError::bad_file(format!(
            "no .agents/team.yaml in {} or above it up to the repository's root",
            start.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    fn err(w: &[&str]) -> String {
        let e = parse(&words(w)).unwrap_err();
        assert_eq!(e.kind, crate::outcome::Kind::Usage);
        assert_eq!(e.repair.as_deref(), Some(USAGE));
        e.message()
    }

    #[test]
    fn the_invocation() {
        let Ask::Run { req, json } =
            parse(&words(&["a", "--session=s", "--pane", "w1:p2", "--dry-run", "--json"])).unwrap()
        else {
            panic!()
        };
        assert!(json && req.dry_run);
        assert_eq!((req.seat.as_str(), req.session.as_deref(), req.pane.as_deref()), ("a", Some("s"), Some("w1:p2")));
        assert_eq!(parse(&words(&["-h"])).unwrap(), Ask::Help);
        assert_eq!(parse(&words(&["a", "--help"])).unwrap(), Ask::Help);
        assert_eq!(err(&["a", "--force"]), "unknown option --force");
        assert_eq!(err(&[]), "a seat name is required");
        assert_eq!(err(&["--json"]), "a seat name is required");
        assert_eq!(err(&["a", "b"]), "unexpected \"b\"");
        assert_eq!(err(&["a", "--pane"]), "--pane <id> needs a value");
    }
}
