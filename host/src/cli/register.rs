//! `team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]`: parses, finds
//! the caller, runs `crate::register`, prints its lines or its `team.register` document.
//!
//! Clap reads the words; what it finds wrong is refused in the spec's own sentences
//! (`unknown option <option>`, `a seat name is required`, `unexpected "<word>"`) with the usage
//! ([`refusal`], rendered by `cli::parse_error`).

use super::Ran;
use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::output::Output;
use crate::register::{self, Request};
use crate::workspace::Workspace;

pub const USAGE: &str = "usage: team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]";

/// Arguments of `team register`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    // the help flag is declared below, to say "Print this help" as the spec's help does
    disable_help_flag = true,
    // a flag given twice is given (the last value counts), as the hand reader took it
    args_override_self = true,
    override_usage = "team register <seat> [--session <name>] [--pane <id>] [--dry-run] [--json]",
    after_help = "It checks that the pane runs the seat's CLI at its prompt, types nothing into it, and writes
the seat's record in .agents/team.state.json and the registry (docs/registry.md). A second run
is the repair: the registry is written again from the file."
)]
pub struct Args {
    #[arg(
        value_name = "seat",
        required = true,
        help = "A seat of this checkout's team file whose CLI already runs in a pane of the
team's session (started by hand, or before this team managed it)"
    )]
    pub seat: Option<String>,
    #[arg(
        long,
        value_name = "name",
        allow_hyphen_values = true,
        value_parser = a_value,
        help = "The session the pane is verified in, instead of the file's session:
the owner's alone"
    )]
    pub session: Option<String>,
    #[arg(
        long,
        value_name = "id",
        allow_hyphen_values = true,
        value_parser = a_value,
        help = "A pane the multiplexer never named as the seat: it is named as the seat
and recorded (a pane already named needs no flag)"
    )]
    pub pane: Option<String>,
    #[arg(
        long,
        help = "Verify the seat and print the line the real run would print; write
nothing"
    )]
    pub dry_run: bool,
    /// Print one team.register document (a refusal: the team.error document)
    #[arg(long)]
    pub json: bool,
    /// Print this help
    #[arg(short, long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// A value of `--session`/`--pane`: the next word, unless it is empty or an option (`--pane
/// --json` is a pane left out, not a pane named `--json`).
fn a_value(word: &str) -> Result<String, &'static str> {
    if word.is_empty() || word.starts_with('-') {
        Err("a value is required")
    } else {
        Ok(word.to_string())
    }
}

impl Args {
    /// The request the words make (clap has required the seat).
    pub fn request(&self) -> Request {
        Request {
            seat: self.seat.clone().unwrap_or_default(),
            session: self.session.clone(),
            pane: self.pane.clone(),
            dry_run: self.dry_run,
        }
    }
}

/// The spec's sentence for what clap found wrong in `team register`'s words, with the usage.
pub fn refusal(wrong: super::Wrong) -> TeamError {
    let msg = wrong.sentence(|_| "a seat name is required".into(), "these options do not go together");
    TeamError::usage(msg).with_repair(USAGE).with_id("register.usage")
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let (req, json) = (a.request(), a.json);
    let r = register::run_here(&Workspace::new(ctx), &req)?;
    if json {
        out.doc(&r.document());
    } else {
        // at a terminal the run opens with the context line like every other command's;
        // piped, its lines are the spec's transcript, which shows none
        let context =
            if out.is_terminal() { crate::error::context_line(&r.project, &r.session) } else { String::new() };
        out.out(&format!("{context}{}", r.said()));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::super::{parsed, Command};
    use super::*;

    fn args(words: &[&str]) -> Args {
        match parsed(&[&["register"], words].concat()) {
            Ok(Command::Register(a)) => a,
            other => panic!("{other:?}"),
        }
    }

    fn err(words: &[&str]) -> String {
        let e = parsed(&[&["register"], words].concat()).err().flatten().expect("a refusal");
        assert_eq!(e.kind, crate::error::Kind::Usage);
        assert_eq!((e.repair().as_deref(), e.id.as_str()), (Some(USAGE), "register.usage"));
        e.message()
    }

    #[test]
    fn the_invocation() {
        let a = args(&["a", "--session=s", "--pane", "w1:p2", "--dry-run", "--json"]);
        let req = a.request();
        assert!(a.json && req.dry_run);
        assert_eq!((req.seat.as_str(), req.session.as_deref(), req.pane.as_deref()), ("a", Some("s"), Some("w1:p2")));
        assert_eq!(args(&["a", "--pane", "w1", "--pane", "w2"]).pane.as_deref(), Some("w2"), "the last one counts");
        assert_eq!(err(&["a", "--force"]), "unknown option --force");
        assert_eq!(err(&[]), "a seat name is required");
        assert_eq!(err(&["--json"]), "a seat name is required");
        assert_eq!(err(&["a", "b"]), "unexpected \"b\"");
        assert_eq!(err(&["a", "--pane"]), "--pane <id> needs a value");
        assert_eq!(err(&["a", "--pane", "--json"]), "--pane <id> needs a value");
        assert_eq!(err(&["a", "--session="]), "--session <name> needs a value");
    }
}
