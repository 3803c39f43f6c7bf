//! `team rename <seat> <new-name> [--dry-run] [--json]`: parses, finds the caller, runs
//! `crate::rename`, prints its lines or its `team.rename` document.
//!
//! The words are read here, not by clap, so that every usage error is one sentence in the
//! project's words (`unknown option <option>`, `a seat name is required`, `a new name is
//! required`, `unexpected "<word>"`) with the usage, as `team register` reads its own.

use crate::ctx::Ctx;
use crate::outcome::{context_line, TeamError};
use crate::output::{one_line, Output};
use crate::rename::{self, Means, Report, Request, Status};

pub const USAGE: &str = "usage: team rename <seat> <new-name> [--dry-run] [--json]";

/// Arguments of `team rename`: every word, read by [`parse`]; clap only shows the help.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    disable_help_flag = true,
    override_usage = "team rename <seat> <new-name> [--dry-run] [--json]",
    after_help = "Arguments:
  <seat>      The seat to rename, as the team file names it
  <new-name>  Its new name: lower-case letters, digits, '.', '_' or '-', at most 63; not lead

Options:
      --dry-run  Name each step the rename would take; change nothing
      --json     Print one team.rename document (a refusal: the team.error document)
  -h, --help     Print this help

The owner's command: the team file's values (edited in place, comments kept), the pane's tmux
mark or herdr agent name, and the seat's state and registry records (its agent id kept) all
follow. After -- every word is a name."
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
    TeamError::usage(msg).with_repair(USAGE).with_id("rename.usage")
}

/// Reads the words: `<seat>` and `<new-name>` once each, `--dry-run`, `--json`,
/// `--help`/`-h`; after `--` every word is a name.
pub fn parse(words: &[String]) -> Result<Ask, TeamError> {
    let mut req = Request::default();
    let mut json = false;
    let mut names: Vec<String> = Vec::new();
    let mut dashes = false;
    for w in words {
        match w.as_str() {
            _ if dashes => names.push(w.clone()),
            "--" => dashes = true,
            "--help" | "-h" => return Ok(Ask::Help),
            "--json" => json = true,
            "--dry-run" => req.dry_run = true,
            f if f.starts_with('-') && f.len() > 1 => return Err(usage(format!("unknown option {w}"))),
            _ => names.push(w.clone()),
        }
    }
    let mut it = names.into_iter();
    req.seat = it.next().ok_or_else(|| usage("a seat name is required"))?;
    req.new =
        it.next().ok_or_else(|| usage(format!("a new name is required (team rename {} <new-name>)", req.seat)))?;
    if let Some(extra) = it.next() {
        return Err(usage(format!("unexpected \"{extra}\"")));
    }
    Ok(Ask::Run { req, json })
}

/// The `team.rename` document.
pub fn document(r: &Report) -> crate::rename::doc::RenameDoc {
    r.document()
}

/// The plain text: the context line, a dry run's step lines, the notes, the closing line.
pub fn plain(r: &Report) -> String {
    let mut text = context_line(&r.project, &r.session);
    if r.status == Status::DryRun {
        for s in &r.steps {
            text.push_str(&format!("{}\n", one_line(&s.plan_line(&r.seat, r.mux, &r.session))));
        }
    }
    for n in &r.notes {
        text.push_str(&format!("{}\n", one_line(n)));
    }
    text.push_str(&format!("{}\n", one_line(&r.line)));
    text
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    let json_words = a.words.iter().any(|w| w == "--json");
    let (req, json) = match parse(&a.words) {
        Ok(Ask::Help) => {
            out.out(&super::help_of("rename"));
            return 0;
        }
        Ok(Ask::Run { req, json }) => (req, json),
        Err(e) => return super::report_error("rename", json_words, &e, out),
    };
    match run_it(&req, ctx) {
        Ok(r) if json => {
            out.doc(&document(&r));
            0
        }
        Ok(r) => {
            out.out(&plain(&r));
            0
        }
        Err(e) => super::report_error("rename", json, &e, out),
    }
}

fn run_it(req: &Request, ctx: &Ctx) -> Result<Report, TeamError> {
    let st = super::register::Standing::here(ctx)?;
    rename::run(&Means { mux: st.mux.as_ref(), ctx }, &st.file, &st.reg, &st.who, req)
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
        assert_eq!((e.repair.as_deref(), e.id.as_str()), (Some(USAGE), "rename.usage"));
        e.message()
    }

    #[test]
    fn the_invocation() {
        let Ask::Run { req, json } = parse(&words(&["lead", "keeper2", "--dry-run", "--json"])).unwrap() else {
            panic!()
        };
        assert!(json && req.dry_run);
        assert_eq!((req.seat.as_str(), req.new.as_str()), ("lead", "keeper2"));
        let Ask::Run { req, json } = parse(&words(&["--", "lead", "-x"])).unwrap() else { panic!() };
        assert!(!json && !req.dry_run);
        assert_eq!((req.seat.as_str(), req.new.as_str()), ("lead", "-x"), "after -- every word is a name");
        assert_eq!(parse(&words(&["-h"])).unwrap(), Ask::Help);
        assert_eq!(parse(&words(&["lead", "--help"])).unwrap(), Ask::Help);
        assert_eq!(err(&["lead", "keeper2", "--force"]), "unknown option --force");
        assert_eq!(err(&[]), "a seat name is required");
        assert_eq!(err(&["--json"]), "a seat name is required");
        assert_eq!(err(&["lead"]), "a new name is required (team rename lead <new-name>)");
        assert_eq!(err(&["lead", "a", "b"]), "unexpected \"b\"");
    }
}
