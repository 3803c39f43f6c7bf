//! Command-line definitions and dispatch; one file per command.
//!
//! Invariants: this is the only layer that prints, and it prints through one
//! [`Output`](crate::output::Output). The run's [`Ctx`] is built here, once, and passed down.
//! Each command returns its exit code or a `TeamError`, which [`main`] alone prints (named as `Command::failure` says). Under `--json`, every invocation error of a command
//! that takes `--json` is the `team.error` document on stdout (stderr empty, exit 2) — except
//! `feed --follow --json`, the spec's one usage error that stays clap's own.

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::output::Output;

pub mod ack;
pub mod check;
pub mod completions;
pub mod demo;
pub mod down;
pub mod feed;
pub mod hook;
pub mod hooks;
pub mod hop;
pub mod inbox;
pub mod init;
pub mod mark;
pub mod mcp;
pub mod profile;
pub mod register;
pub mod rename;
pub mod reply;
pub mod route;
pub mod seats;
pub mod send;
mod send_all;
pub mod status;
pub mod status_pipe;
pub mod trust;
pub mod up;
pub mod watch;

/// `team --version`: the crate's version and the commit it was built from.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("TEAM_COMMIT"), ")");

#[derive(Parser, Debug)]
#[command(name = "team", version = VERSION, about = "Reach the AI coding agents of a team in their terminal panes.")]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Send one message to one seat, or to all you may reach (or list the seats, or record a native delivery).
    Send(send::Args),
    /// Answer a message you were sent: to its sender, about that message.
    Reply(reply::Args),
    /// What waits for you: messages not yet acked (a seat), or replies and alerts (the owner).
    Inbox(inbox::Args),
    /// Say you read a message and will act on it (or why not).
    Ack(ack::Args),
    /// Start the team: one pane per seat, each CLI at its prompt and recorded.
    Up(up::Args),
    /// Start one seat of the team file into the team's running session.
    Add(up::AddArgs),
    /// Stop the team's seats, each its own way (never over a draft, a turn or a dialog).
    Down(down::Args),
    /// The records of the team's seats: stage, CLI, pane, pid, since, launch line.
    Seats(seats::Args),
    /// Write the record for one seat that is already running, without touching it.
    Register(register::Args),
    /// Answer one seat's native-channel address (then deliver with your own tool, and record it).
    Route(route::Args),
    /// Read the project's message history.
    Feed(feed::Args),
    /// What each seat's screen shows now, and the last message to it.
    Status(status::Args),
    /// Write a first .agents/team.yaml (and its .gitignore) in this checkout.
    Init(init::Args),
    /// Read the team file and note what this build would not act on, with line numbers.
    Check(check::Args),
    /// Mark a tmux pane (yours, or --pane) as a seat of the team file.
    Mark(mark::Args),
    /// Rename a seat everywhere its name stands: the team file, its pane, its records.
    Rename(rename::Args),
    /// Print the shell completion script.
    Completions(completions::Args),
    /// List, check and explain the vendor profiles that read the seats' screens.
    Profile(profile::Args),
    /// Retry held, not-submitted and dialog-stopped sends; confirm delivered ones.
    Watch(watch::Args),
    /// Run a throwaway team of fake seats and send to them: the first thing to try.
    Demo(demo::Args),
    /// Serve the team_send, team_list, team_inbox, team_reply, team_ack, team_add and team_stop tools to an agent CLI over MCP (stdio).
    Mcp(mcp::Args),
    /// Install, show or remove the hooks through which each seat's CLI takes its inbox.
    Hooks(hooks::Args),
    /// List the commands the team file makes team run; approve one (the owner, once read).
    Trust(trust::Args),
    /// Hand a seat's waiting messages to its CLI (run by the CLI's hooks, not by hand).
    #[command(hide = true)]
    Hook(hook::Args),
    /// One of the demo's seats (run by `team demo` in its panes).
    #[command(hide = true)]
    DemoSeat(demo::SeatArgs),
    /// Keep a seat's own status reports (run by tmux for a seat `team up` started).
    #[command(hide = true)]
    StatusPipe(status_pipe::Args),
    /// The far side of a send to a seat on another machine (run by team over ssh, docs/remote.md).
    #[command(hide = true)]
    Hop(hop::Args),
}

/// The names of the commands this build ships (a hidden one too), and `help`.
pub fn command_names() -> Vec<String> {
    use clap::CommandFactory;
    let mut names: Vec<String> = Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    names.push("help".into());
    names
}

/// A command's full help exactly as `team help <command>` prints it (plain text): clap's own
/// answer to those words (its long help only where a command has long texts, as `--help`).
pub fn help_of(command: &str) -> String {
    use clap::CommandFactory;
    let answer = Cli::command().try_get_matches_from(["team", "help", command]);
    let text = match answer {
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => e.render().to_string(),
        _ => panic!("{command} is no command of this build"),
    };
    if text.ends_with('\n') {
        text
    } else {
        format!("{text}\n")
    }
}

/// Parses the command line and runs the command; returns the exit code.
pub fn main() -> i32 {
    let mut out = Output::new();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return parse_error(e, std::env::args_os().collect(), &mut out),
    };
    // The hook runs on every tool call: its empty inbox is answered before any context is built.
    let cli = match cli.command {
        Command::Hook(a) => return hook::run(a, &mut out),
        Command::StatusPipe(a) => return status_pipe::run(a),
        command => Cli { command },
    };
    if let Command::Mcp(_) = &cli.command {
        mcp::adopt_pane_env();
    }
    let ctx = Ctx::from_env();
    // the one failure wrapper: the command's name and whether it answers in JSON
    let (name, json) = cli.command.failure();
    let ran = match cli.command {
        Command::Send(a) => send::run(a, &ctx, &mut out),
        Command::Reply(a) => reply::run(a, &ctx, &mut out),
        Command::Inbox(a) => inbox::run(a, &ctx, &mut out),
        Command::Ack(a) => ack::run(a, &ctx, &mut out),
        Command::Up(a) => up::run(a, &ctx, &mut out),
        Command::Add(a) => up::run_add(a, &ctx, &mut out),
        Command::Down(a) => down::run(a, &ctx, &mut out),
        Command::Seats(a) => seats::run(a, &ctx, &mut out),
        Command::Register(a) => register::run(a, &ctx, &mut out),
        Command::Route(a) => route::run(a, &ctx, &mut out),
        Command::Feed(a) => feed::run(a, &ctx, &mut out),
        Command::Status(a) => status::run(a, &ctx, &mut out),
        Command::Init(a) => init::run(a, &ctx, &mut out),
        Command::Check(a) => check::run(a, &ctx, &mut out),
        Command::Mark(a) => mark::run(a, &ctx, &mut out),
        Command::Rename(a) => rename::run(a, &ctx, &mut out),
        Command::Completions(a) => Ok(completions::run(a, &ctx, &mut out)),
        Command::Profile(a) => profile::run(a, &ctx, &mut out),
        Command::Watch(a) => watch::run(a, &ctx, &mut out),
        Command::Demo(a) => demo::run(a, &ctx, &mut out),
        Command::Mcp(a) => mcp::run(a, &ctx, &mut out),
        Command::DemoSeat(a) => demo::run_seat(a),
        Command::Hook(a) => Ok(hook::run(a, &mut out)),
        Command::StatusPipe(a) => Ok(status_pipe::run(a)),
        Command::Hooks(a) => hooks::run(a, &ctx, &mut out),
        Command::Trust(a) => trust::run(a, &ctx, &mut out),
        Command::Hop(a) => hop::run(a, &ctx, &mut out),
    };
    // the one place an error becomes output and an exit code
    match ran {
        Ok(code) => code,
        Err(e) => report_error(name, json, &e, &mut out),
    }
}

impl Command {
    /// How the command's error is printed ([`report_error`]): its name, and whether its run
    /// was asked for `--json` (the error is then the `team.error` document).
    fn failure(&self) -> (&'static str, bool) {
        match self {
            Command::Send(a) => ("send", a.json),
            Command::Reply(a) => ("reply", a.json),
            Command::Inbox(a) => ("inbox", a.json),
            Command::Ack(a) => ("ack", a.json),
            Command::Up(a) => ("up", a.flags.json),
            Command::Add(a) => ("add", a.flags.json),
            Command::Down(a) => ("down", a.json),
            Command::Seats(a) => ("seats", a.json),
            Command::Register(a) => ("register", a.json),
            Command::Route(a) => ("route", a.json),
            Command::Feed(a) => ("feed", a.json()),
            Command::Status(a) => ("status", a.json),
            Command::Init(_) => ("init", false),
            Command::Check(a) => ("check", a.json),
            Command::Mark(_) => ("mark", false),
            Command::Rename(a) => ("rename", a.json),
            Command::Completions(_) => ("completions", false),
            Command::Profile(a) => ("profile", a.json()),
            // (under --json a watch's error is a line of its JSON Lines, said by the watch)
            Command::Watch(_) => ("watch", false),
            Command::Demo(_) => ("demo", false),
            Command::Mcp(a) => ("mcp", a.json()),
            Command::DemoSeat(_) => ("demo-seat", false),
            Command::Hook(_) => ("hook", false),
            Command::StatusPipe(_) => ("status-pipe", false),
            Command::Hooks(a) => ("hooks", a.json()),
            Command::Trust(_) => ("trust", false),
            Command::Hop(_) => ("hop", false),
        }
    }
}

/// What a command's run ends with: its exit code (0, or the worst outcome's), or the error
/// [`main`] prints and exits with.
pub type Ran = Result<i32, TeamError>;

/// Prints an error the way every command does: one `team.error` document on stdout under
/// `--json` (stderr stays empty); an outcome reached by a run that read a team file as its
/// context line and outcome line on stdout; else `team <command>: <message>` on stderr.
pub fn report_error(command: &str, json: bool, e: &TeamError, out: &mut Output) -> i32 {
    if json {
        out.doc(&e.document(command));
    } else if let Some((project, session)) = e.context.as_deref() {
        out.out(&format!(
            "{}{}\n",
            crate::error::context_line(project, session),
            crate::vocab::text::one_line(&e.message())
        ));
    } else {
        out.err(&e.plain(command));
    }
    e.kind.exit_code()
}

/// The commands that take `--json`: their invocation errors are documents under it.
const JSON_COMMANDS: [&str; 14] = [
    "send", "reply", "inbox", "ack", "feed", "profile", "register", "rename", "route", "status", "check", "watch",
    "mcp", "hooks",
];

/// A command line clap cannot read. Help and version are clap's own; a non-UTF-8 word is a
/// usage error in this project's words; the commands whose refusals the spec words
/// (`register`, `route`, `rename`) say what is wrong in those words with their usage
/// ([`Wrong`]); under `--json` (before any `--`) a command that takes it answers with the
/// `team.error` document (stderr empty, exit 2), and everything else is clap's usage text on
/// stderr, exit 2.
fn parse_error(e: clap::Error, args: Vec<OsString>, out: &mut Output) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // (clap ignores a closed stdout here itself)
        e.exit();
    }
    let words: Vec<String> =
        args.iter().skip(1).take_while(|a| *a != "--").map(|a| a.to_string_lossy().into_owned()).collect();
    let at = words.iter().position(|w| !w.starts_with('-'));
    let command = at.map(|i| words[i].clone()).unwrap_or_default();
    let json = JSON_COMMANDS.contains(&command.as_str()) && words.iter().any(|w| w == "--json");
    let follow_json = (command == "feed" && words.iter().any(|w| w == "--follow"))
        || (command == "status" && words.iter().any(|w| w == "--watch"));
    // the command's own words, `--` and what follows it too
    let rest: Vec<String> = match at {
        Some(i) => args.iter().skip(i + 2).map(|a| a.to_string_lossy().into_owned()).collect(),
        None => Vec::new(),
    };
    let err = if e.kind() == ErrorKind::InvalidUtf8 {
        let bad = args.iter().skip(1).find(|a| a.to_str().is_none()).map(|a| shown(a)).unwrap_or_default();
        TeamError::usage(format!("an argument is not UTF-8 text ({bad}); write every word as UTF-8"))
    } else if let Some(err) = own_refusal(&command, &e, &rest) {
        return report_error(&command, json, &err, out);
    } else if json && !follow_json {
        let text = e.render().to_string();
        TeamError::usage(text.lines().next().unwrap_or("").trim_start_matches("error: ").trim().to_string())
    } else {
        // clap's own usage text on stderr, exit 2
        e.exit();
    };
    let name = if command.is_empty() { "team".to_string() } else { command };
    if json {
        out.doc(&err.document(&name));
    } else {
        let prefix = if name == "team" { "team".to_string() } else { format!("team {name}") };
        out.err(&format!("{prefix}: {}\n", crate::vocab::text::one_line(&err.message())));
    }
    err.kind.exit_code()
}

/// What clap found wrong in a command's words, in the terms the spec's refusal sentences take
/// (each such command words them: `route::refusal`, `register::refusal`, `rename::refusal`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrong {
    /// An option the command does not take, as it was written (`--wait=3`, not clap's `--wait`).
    UnknownOption(String),
    /// A word past the last place for one.
    Unexpected(String),
    /// Required arguments left out, by value name (`seat`, `new-name`).
    Missing(Vec<String>),
    /// Arguments that do not go together.
    Conflict,
    /// An option given no value, as its usage names it (`--pane <id>`).
    NeedsValue(String),
}

impl Wrong {
    /// Reads clap's error; `words` are the command's own (after its name, `--` included).
    /// `None` for an error these sentences have no word for (clap's own text then stands).
    pub fn of(e: &clap::Error, words: &[String]) -> Option<Wrong> {
        use clap::error::{ContextKind, ContextValue, ErrorKind};
        let invalid: Vec<String> = match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(s)) => vec![s.clone()],
            Some(ContextValue::Strings(v)) => v.clone(),
            _ => Vec::new(),
        };
        let first = invalid.first().cloned().unwrap_or_default();
        let dashes = words.iter().position(|w| w == "--").unwrap_or(words.len());
        // clap names `--wait=3` `--wait`, `-xz` `-x`, and `--json=1` `--json`: find the word
        let short = first.len() == 2 && first.starts_with('-') && first != "--";
        let as_written = || {
            words[..dashes]
                .iter()
                .find(|w| {
                    **w == first
                        || w.starts_with(&format!("{first}="))
                        || (short && !w.starts_with("--") && w.starts_with(&first))
                })
                .cloned()
        };
        Some(match e.kind() {
            ErrorKind::UnknownArgument | ErrorKind::TooManyValues => match as_written() {
                Some(w) if w.starts_with('-') && w.len() > 1 => Wrong::UnknownOption(w),
                _ => Wrong::Unexpected(first),
            },
            ErrorKind::MissingRequiredArgument => Wrong::Missing(
                invalid.iter().map(|n| n.trim_start_matches('<').trim_end_matches('>').to_string()).collect(),
            ),
            ErrorKind::ArgumentConflict => Wrong::Conflict,
            ErrorKind::InvalidValue | ErrorKind::ValueValidation | ErrorKind::NoEquals => Wrong::NeedsValue(first),
            _ => return None,
        })
    }
}

impl Wrong {
    /// The sentence the spec's refusals say this in; `missing` words left-out arguments (by
    /// their value names), `conflict` arguments that do not go together.
    pub fn sentence(self, missing: impl FnOnce(&[String]) -> String, conflict: &str) -> String {
        match self {
            Wrong::UnknownOption(w) => format!("unknown option {w}"),
            Wrong::Unexpected(w) => format!("unexpected \"{w}\""),
            Wrong::Missing(names) => missing(&names),
            Wrong::Conflict => conflict.to_string(),
            Wrong::NeedsValue(name) => format!("{name} needs a value"),
        }
    }
}

/// The spec's refusal for a bad command line of a command that words its own (`None` for
/// the others, and for an error clap's text stands for).
fn own_refusal(command: &str, e: &clap::Error, words: &[String]) -> Option<TeamError> {
    let refusal = |wrong| match command {
        "route" => Some(route::refusal(wrong)),
        "register" => Some(register::refusal(wrong)),
        "rename" => Some(rename::refusal(wrong, words)),
        _ => None,
    };
    refusal(Wrong::of(e, words)?)
}

/// A word that is not UTF-8, shown with its invalid bytes as `\xNN`.
fn shown(a: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut s = String::from("\"");
    for chunk in a.as_bytes().utf8_chunks() {
        s.push_str(&crate::vocab::text::one_line(chunk.valid()));
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s.push('"');
    s
}

/// The command `team <words>` reads, or the refusal [`parse_error`] renders for it (`None`:
/// clap's own text stands).
#[cfg(test)]
fn parsed(words: &[&str]) -> Result<Command, Option<TeamError>> {
    let argv = std::iter::once("team").chain(words.iter().copied());
    Cli::try_parse_from(argv).map(|c| c.command).map_err(|e| {
        let rest: Vec<String> = words.iter().skip(1).map(|w| w.to_string()).collect();
        own_refusal(words.first().copied().unwrap_or(""), &e, &rest)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStringExt;

    fn refused(words: &[&str]) -> TeamError {
        parsed(words).err().flatten().expect("a refusal in the command's words")
    }

    #[test]
    fn clap_errors_are_read_as_what_is_wrong() {
        let wrong = |words: &[&str]| {
            let e = Cli::try_parse_from(std::iter::once("team").chain(words.iter().copied())).unwrap_err();
            let rest: Vec<String> = words.iter().skip(1).map(|w| w.to_string()).collect();
            Wrong::of(&e, &rest)
        };
        assert_eq!(wrong(&["route", "k", "--wait=3"]), Some(Wrong::UnknownOption("--wait=3".into())));
        assert_eq!(wrong(&["route", "k", "--json=1"]), Some(Wrong::UnknownOption("--json=1".into())));
        assert_eq!(wrong(&["rename", "-xz", "a", "b"]), Some(Wrong::UnknownOption("-xz".into())));
        assert_eq!(wrong(&["route", "k", "j"]), Some(Wrong::Unexpected("j".into())));
        assert_eq!(wrong(&["rename", "--", "a", "b", "-c"]), Some(Wrong::Unexpected("-c".into())), "after -- a word");
        assert_eq!(wrong(&["rename"]), Some(Wrong::Missing(vec!["seat".into(), "new-name".into()])));
        assert_eq!(wrong(&["route", "k", "--rules-item"]), Some(Wrong::Conflict));
        assert_eq!(wrong(&["register", "a", "--pane"]), Some(Wrong::NeedsValue("--pane <id>".into())));
        assert_eq!(wrong(&["register", "a", "--session="]), Some(Wrong::NeedsValue("--session <name>".into())));
    }

    #[test]
    fn help_and_dash_h_and_team_help_print_the_same_for_the_commands_with_their_own_help_flag() {
        use clap::CommandFactory;
        for name in ["route", "register", "rename"] {
            let mut cli = Cli::command().bin_name("team");
            cli.build();
            let short = cli.find_subcommand_mut(name).unwrap().render_help().to_string();
            let long = help_of(name);
            assert_eq!(long.trim_end(), short.trim_end(), "{name}");
            assert!(long.contains("  -h, --help") && long.contains("Print this help"), "{long}");
            assert!(long.contains(&format!("Usage: {}", USAGES[name])), "{long}");
        }
    }

    /// The usage line each command's refusals repeat, after `usage: `.
    static USAGES: std::sync::LazyLock<std::collections::HashMap<&str, &str>> = std::sync::LazyLock::new(|| {
        [("route", route::USAGE), ("register", register::USAGE), ("rename", rename::USAGE)]
            .into_iter()
            .map(|(c, u)| (c, u.trim_start_matches("usage: ")))
            .collect()
    });

    #[test]
    fn the_commands_that_word_their_refusals_say_them_with_their_usage() {
        let e = refused(&["register", "a", "--force"]);
        assert_eq!((e.kind, e.id.as_str()), (crate::error::Kind::Usage, "register.usage"));
        assert_eq!(e.plain("register"), format!("team register: unknown option --force\n{}\n", register::USAGE));
        assert_eq!(refused(&["route"]).plain("route"), format!("team route: a seat is required\n{}\n", route::USAGE));
        assert_eq!(refused(&["rename", "a", "b", "c"]).id_for("rename"), "rename.usage");
        assert_eq!(refused(&["route", "a", "b"]).id_for("route"), "route.usage");
        assert!(parsed(&["send"]).err().flatten().is_none(), "send's parse errors stay clap's");
    }

    #[test]
    fn a_non_utf8_word_is_shown_with_its_bytes() {
        assert_eq!(shown(&OsString::from_vec(b"fix \xff\x1b".to_vec())), "\"fix \\xff\\x1b\"");
    }
}
