//! `team route <seat> [--json] [--dry-run]` and `team route --rules-item`: parses, finds the
//! caller (a run with no terminal and no verified pane is refused before the team file is
//! read), runs `crate::route`, prints the answer or its `team.route` document.

use crate::caller::{self, Caller};
use crate::ctx::Ctx;
use crate::outcome::{context_line, TeamError};
use crate::output::{one_line, Output};
use crate::registry::Registry;
use crate::route::{self, Means, Report};
use crate::send;

pub const USAGE: &str = "usage: team route <seat> [--json] [--dry-run]\n       team route --rules-item";

/// Arguments of `team route`: every word, read by [`parse`]; clap only shows the help.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(
    disable_help_flag = true,
    override_usage = "team route <seat> [--json] [--dry-run]\n       team route --rules-item",
    after_help = "Arguments:
  <seat>  The seat to reach, in the address grammar team send takes: a seat or nickname of
          this team, @nickname, seat@team, nickname@team, lead@team, or an agent id

Options:
      --json        Print one team.route document (a refusal: the team.error document)
      --dry-run     Resolve and admit the route, and append nothing to routes.jsonl
      --rules-item  Print the rules item that tells a seat to use its own cross-session tool
  -h, --help        Print this help

The answer is the session name Claude Code's SendMessage addresses and its socket, with the
state it was found in (live, stale, pane, unread, none), admitted exactly as a send is; the
sender then delivers with its own tool and writes it down with team send --record."
)]
pub struct Args {
    #[arg(allow_hyphen_values = true, trailing_var_arg = true, num_args = 0.., hide = true)]
    pub words: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Help,
    RulesItem,
    Route { seat: String, json: bool, dry_run: bool },
}

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE)
}

pub fn parse(words: &[String]) -> Result<Ask, TeamError> {
    let (mut json, mut dry_run, mut rules) = (false, false, false);
    let mut seat: Option<String> = None;
    for w in words {
        match w.as_str() {
            "--help" | "-h" => return Ok(Ask::Help),
            "--json" => json = true,
            "--dry-run" => dry_run = true,
            "--rules-item" => rules = true,
            "--" => {}
            f if f.starts_with('-') && f.len() > 1 => return Err(usage(format!("unknown option {w}"))),
            _ if seat.is_none() => seat = Some(w.clone()),
            _ => return Err(usage(format!("unexpected \"{w}\""))),
        }
    }
    if rules {
        if seat.is_some() || json || dry_run {
            return Err(usage("--rules-item takes no seat, --json or --dry-run"));
        }
        return Ok(Ask::RulesItem);
    }
    let seat = seat.ok_or_else(|| usage("a seat is required"))?;
    Ok(Ask::Route { seat, json, dry_run })
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

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    let json_words = a.words.iter().any(|w| w == "--json");
    let (seat, json, dry_run) = match parse(&a.words) {
        Ok(Ask::Help) => {
            out.out(&super::help_of("route"));
            return 0;
        }
        Ok(Ask::RulesItem) => {
            out.out(&format!("{}\n", route::RULES_ITEM));
            return 0;
        }
        Ok(Ask::Route { seat, json, dry_run }) => (seat, json, dry_run),
        Err(e) => return super::report_error("route", json_words, &e, out),
    };
    match answer(&seat, dry_run, ctx) {
        Ok(r) if json => {
            out.doc(&r.document());
            0
        }
        Ok(r) => {
            out.out(&format!("{}{}", context_line(&r.project, &r.session), one_line_each(&lines(&r))));
            0
        }
        Err(e) => super::report_error("route", json, &e, out),
    }
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
            return Err(TeamError::new(crate::outcome::Kind::Refused, route::NO_TERMINAL).with_id("route.no-terminal"));
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
        listeners: crate::native::listening_paths_of,
        identity: crate::registry::ProcessIdentity::read,
        exists: |p| p.exists(),
    };
    route::run(&m, load, who, seat, dry_run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_invocation() {
        assert_eq!(
            parse(&words(&["k", "--json", "--dry-run"])).unwrap(),
            Ask::Route { seat: "k".into(), json: true, dry_run: true }
        );
        assert_eq!(parse(&words(&["--rules-item"])).unwrap(), Ask::RulesItem);
        assert_eq!(parse(&words(&["-h"])).unwrap(), Ask::Help);
        assert_eq!(parse(&words(&["k", "--x"])).unwrap_err().message(), "unknown option --x");
        assert_eq!(parse(&words(&["k", "j"])).unwrap_err().message(), "unexpected \"j\"");
        assert_eq!(parse(&words(&[])).unwrap_err().message(), "a seat is required");
        assert!(parse(&words(&["k", "--rules-item"])).is_err());
    }
}
