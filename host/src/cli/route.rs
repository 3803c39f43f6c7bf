//! `team route <seat> [--json] [--dry-run]` and `team route --rules-item`: parses, finds the
//! caller (a run with no terminal and no verified pane is refused before the team file is
//! read), runs `crate::route`, prints the answer or its `team.route` document.

use crate::caller::{self, Caller};
use crate::ctx::Ctx;
use crate::error::{context_line, TeamError};
use crate::output::Output;
use crate::registry::Registry;
use crate::route::{self, Means, Report};
use crate::send;
use crate::vocab::text::one_line;

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
    use super::Wrong;
    let msg = match wrong {
        Wrong::UnknownOption(w) => format!("unknown option {w}"),
        Wrong::Unexpected(w) => format!("unexpected \"{w}\""),
        Wrong::Missing(_) => "a seat is required".to_string(),
        Wrong::Conflict => "--rules-item takes no seat, --json or --dry-run".to_string(),
        Wrong::NeedsValue(name) => format!("{name} needs a value"),
    };
    TeamError::usage(msg).with_repair(USAGE)
}

/// The answer's lines (after the context line).
pub fn lines(r: &Report) -> String {
    let s = &r.seat;
    let mut out = format!(
        "{s}: agent {}, session {}, cli {}, pane {}\n",
        r.agent,
        r.recipient_session.as_deref().unwrap_or("-"),
        r.cli,
        r.pane
    );
    out.push_str(&format!("{s}: {}\n", r.state.sentence(r.unread_why.as_deref())));
    out.push_str(&format!("{s}: native {}, admitted by: {}\n", if r.native { "yes" } else { "no" }, r.rule));
    out.push_str(&r.closing());
    out.push('\n');
    if r.dry_run {
        out.push_str(&format!("+ record: {}\ndry run: nothing was run\n", r.plan_step()));
    }
    out
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    if a.rules_item {
        out.out(&format!("{}\n", route::RULES_ITEM));
        return Ok(0);
    }
    let fail = super::Failure::of("route", a.json);
    // (clap requires the seat unless --rules-item is given)
    let seat = a.seat.ok_or_else(|| fail(refusal(super::Wrong::Missing(vec![]))))?;
    let r = answer(&seat, a.dry_run, ctx).map_err(&fail)?;
    if a.json {
        out.doc(&r.document());
    } else {
        out.out(&format!("{}{}", context_line(&r.project, &r.session), one_line_each(&lines(&r))));
    }
    Ok(0)
}

/// Every line of `text` made one safe line (outside text — a session name, a path — cannot
/// move the cursor or break the line).
fn one_line_each(text: &str) -> String {
    text.lines().map(|l| format!("{}\n", one_line(l))).collect()
}

fn answer(seat: &str, dry_run: bool, ctx: &Ctx) -> Result<Report, TeamError> {
    let profiles = crate::profiles::ProfileHost::new(&ctx.paths);
    let vendors = |pins: &std::collections::BTreeMap<String, String>| {
        caller::Vendors::from_descriptions(&profiles.descriptions(pins))
    };
    let mux_for = crate::state::mux_for(&ctx.paths.state, &ctx.mux);
    // a run with no terminal is refused before the team file is read, unless its own pane
    // vouches for it
    if !caller::has_terminal() {
        let reg = Registry::load(&ctx.paths.config)?;
        let c = caller::find(&reg, None, mux_for(None).as_ref(), &vendors(&Default::default()));
        if !matches!(c, Caller::Seat { .. }) {
            return Err(TeamError::new(crate::error::Kind::Refused, route::NO_TERMINAL).with_id("route.no-terminal"));
        }
    }
    let cwd = ctx.cwd()?;
    let load = send::load(ctx, &cwd)?;
    let choice = load.file.as_ref().and_then(|l| l.file.multiplexer.clone());
    let pins = load.file.as_ref().map(|l| l.file.profiles.clone()).unwrap_or_default();
    let who = caller::find(&load.reg, load.file.as_ref(), mux_for(choice.as_deref()).as_ref(), &vendors(&pins));
    let sm = send::Means { ctx, profiles: &profiles, mux: &mux_for };
    let m = Means {
        send: &sm,
        listeners: crate::legs::native::listening_paths_of,
        identity: crate::registry::ProcessIdentity::read,
        exists: |p| p.exists(),
    };
    route::run(&m, load, who, seat, dry_run)
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
