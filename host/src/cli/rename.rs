//! `team rename <seat> <new-name> [--dry-run] [--json]`: parses, finds the caller, runs
//! `crate::rename`, prints its lines or its `team.rename` document.
//!
//! Clap reads the words; what it finds wrong is one sentence in the project's words (`unknown
//! option <option>`, `a seat name is required`, `a new name is required`, `unexpected
//! "<word>"`) with the usage ([`refusal`], rendered by `cli::parse_error`), as `team register`'s.

use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::output::Output;
use crate::rename::{self, Request};
use crate::workspace::Workspace;

pub const USAGE: &str = "usage: team rename <seat> <new-name> [--dry-run] [--json]";

/// Arguments of `team rename`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    // the help flag is declared below, to say "Print this help" as the spec's help does
    disable_help_flag = true,
    // a flag given twice is given (the last value counts), as the hand reader took it
    args_override_self = true,
    override_usage = "team rename <seat> <new-name> [--dry-run] [--json]",
    after_help = "The owner's command: the team file's values (edited in place, comments kept), the pane's tmux
mark or herdr agent name, and the seat's state and registry records (its agent id kept) all
follow. After -- every word is a name."
)]
pub struct Args {
    /// The seat to rename, as the team file names it
    #[arg(value_name = "seat", required = true)]
    pub seat: Option<String>,
    /// Its new name: lower-case letters, digits, '.', '_' or '-', at most 63; not lead
    #[arg(value_name = "new-name", required = true)]
    pub new_name: Option<String>,
    /// Name each step the rename would take; change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Print one team.rename document (a refusal: the team.error document)
    #[arg(long)]
    pub json: bool,
    /// Print this help
    #[arg(short, long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

impl Args {
    /// The request the words make (clap has required both names).
    pub fn request(&self) -> Request {
        Request {
            seat: self.seat.clone().unwrap_or_default(),
            new: self.new_name.clone().unwrap_or_default(),
            dry_run: self.dry_run,
        }
    }
}

/// The project's sentence for what clap found wrong in `team rename`'s `words` (those after
/// `rename`), with the usage.
pub fn refusal(wrong: super::Wrong, words: &[String]) -> TeamError {
    use super::Wrong;
    let dashes = words.iter().position(|w| w == "--").unwrap_or(words.len());
    // an unknown option is named before a name too many wherever it stands, as the names
    // are counted once the words are read
    let cmd = <Args as clap::Args>::augment_args(clap::Command::new("rename"));
    let known = |w: &str| {
        cmd.get_arguments().any(|a| {
            a.get_long().is_some_and(|l| w == format!("--{l}")) || a.get_short().is_some_and(|c| w == format!("-{c}"))
        })
    };
    let unknown = words[..dashes].iter().find(|w| w.len() > 1 && w.starts_with('-') && !known(w));
    let wrong = match (wrong, unknown) {
        (Wrong::Unexpected(_), Some(w)) => Wrong::UnknownOption(w.clone()),
        (wrong, _) => wrong,
    };
    let missing = |names: &[String]| {
        if names.iter().any(|n| n == "seat") {
            return "a seat name is required".to_string();
        }
        // the seat was given: the first name (every word after `--` is one)
        let seat = words[..dashes].iter().find(|w| !w.starts_with('-') || w.len() == 1).or(words.get(dashes + 1));
        format!("a new name is required (team rename {} <new-name>)", seat.map(String::as_str).unwrap_or(""))
    };
    let msg = wrong.sentence(missing, "these options do not go together");
    TeamError::usage(msg).with_repair(USAGE).with_id("rename.usage")
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let (req, json) = (a.request(), a.json);
    let r = rename::run_here(&Workspace::new(ctx), &req)?;
    if json {
        out.doc(&r.document());
    } else {
        out.out(&r.said());
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::super::{parsed, Command};
    use super::*;

    fn args(words: &[&str]) -> Args {
        match parsed(&[&["rename"], words].concat()) {
            Ok(Command::Rename(a)) => a,
            other => panic!("{other:?}"),
        }
    }

    fn err(words: &[&str]) -> String {
        let e = parsed(&[&["rename"], words].concat()).err().flatten().expect("a refusal");
        assert_eq!(e.kind, crate::error::Kind::Usage);
        assert_eq!((e.repair().as_deref(), e.id.as_str()), (Some(USAGE), "rename.usage"));
        e.message()
    }

    #[test]
    fn the_invocation() {
        let a = args(&["lead", "keeper2", "--dry-run", "--json"]);
        let req = a.request();
        assert!(a.json && req.dry_run);
        assert_eq!((req.seat.as_str(), req.new.as_str()), ("lead", "keeper2"));
        let a = args(&["--", "lead", "-x"]);
        assert!(!a.json && !a.dry_run);
        assert_eq!(a.request().new, "-x", "after -- every word is a name");
        assert_eq!(err(&["lead", "keeper2", "--force"]), "unknown option --force");
        assert_eq!(err(&[]), "a seat name is required");
        assert_eq!(err(&["--json"]), "a seat name is required");
        assert_eq!(err(&["lead"]), "a new name is required (team rename lead <new-name>)");
        assert_eq!(err(&["--json", "--", "lead"]), "a new name is required (team rename lead <new-name>)");
        assert_eq!(err(&["lead", "a", "b"]), "unexpected \"b\"");
        assert_eq!(err(&["lead", "a", "b", "--force"]), "unknown option --force", "as the hand reader said it");
        assert_eq!(err(&["lead", "a", "--", "b", "--force"]), "unexpected \"b\"");
    }
}
