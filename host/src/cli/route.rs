//! `team route <seat> [--json] [--dry-run]` and `team route --rules-item`: parses, finds the
//! caller (a run with no terminal and no verified pane is refused before the team file is
//! read), runs `crate::route`, prints the answer's words or its `team.route` document.

use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::output::Output;
use crate::route;
use crate::workspace::Workspace;

pub const USAGE: &str = "usage: team route <seat> [--json] [--dry-run]\n       team route --rules-item";

/// Arguments of `team route`. A bad word is refused in the spec's sentences ([`refusal`],
/// through `cli::parse_error`), not clap's.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    // the help flag is declared below, to say "Print this help" as the spec's help does
    disable_help_flag = true,
    // a flag given twice is given (the last value counts), as the hand reader took it
    args_override_self = true,
    override_usage = "team route <seat> [--json] [--dry-run]\n       team route --rules-item",
    after_help = "The answer is the session name Claude Code's SendMessage addresses and its socket, with the
state it was found in (live, stale, pane, unread, none), admitted exactly as a send is; the
sender then delivers with its own tool and writes it down with team send --record."
)]
pub struct Args {
    #[arg(
        value_name = "seat",
        required = true,
        help = "The seat to reach, in the address grammar team send takes: a seat or nickname of
this team, @nickname, seat@team, nickname@team, lead@team, or an agent id"
    )]
    pub seat: Option<String>,
    /// Print one team.route document (a refusal: the team.error document)
    #[arg(long)]
    pub json: bool,
    /// Resolve and admit the route, and append nothing to routes.jsonl
    #[arg(long)]
    pub dry_run: bool,
    /// Print the rules item that tells a seat to use its own cross-session tool
    #[arg(long, exclusive = true)]
    pub rules_item: bool,
    /// Print this help
    #[arg(short, long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// The spec's sentence for what clap found wrong in `team route`'s words, with the usage.
pub fn refusal(wrong: super::Wrong) -> TeamError {
    let msg = wrong.sentence(|_| "a seat is required".into(), "--rules-item takes no seat, --json or --dry-run");
    TeamError::usage(msg).with_repair(USAGE)
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    if a.rules_item {
        out.out(&format!("{}\n", route::RULES_ITEM));
        return Ok(0);
    }
    // (clap requires the seat unless --rules-item is given)
    let seat = a.seat.ok_or_else(|| refusal(super::Wrong::Missing(vec![])))?;
    let r = route::answer(&Workspace::new(ctx), &seat, a.dry_run)?;
    if a.json {
        out.doc(&r.document());
    } else {
        out.out(&r.said());
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::super::{parsed, Command};

    fn args(words: &[&str]) -> super::Args {
        match parsed(&[&["route"], words].concat()) {
            Ok(Command::Route(a)) => a,
            other => panic!("{other:?}"),
        }
    }

    fn refused(words: &[&str]) -> String {
        parsed(&[&["route"], words].concat()).err().flatten().expect("a refusal").message()
    }

    #[test]
    fn the_invocation() {
        let a = args(&["k", "--json", "--dry-run"]);
        assert_eq!((a.seat.as_deref(), a.json, a.dry_run, a.rules_item), (Some("k"), true, true, false));
        let a = args(&["--rules-item"]);
        assert!(a.rules_item && a.seat.is_none());
        assert!(args(&["k", "--json", "--json"]).json, "a flag given twice is given");
        assert_eq!(refused(&["k", "--x"]), "unknown option --x");
        assert_eq!(refused(&["k", "j"]), "unexpected \"j\"");
        assert_eq!(refused(&[]), "a seat is required");
        assert_eq!(refused(&["--json"]), "a seat is required");
        assert_eq!(refused(&["k", "--rules-item"]), "--rules-item takes no seat, --json or --dry-run");
        assert_eq!(refused(&["--rules-item", "--dry-run"]), "--rules-item takes no seat, --json or --dry-run");
    }
}
