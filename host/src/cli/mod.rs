//! Command-line definitions and dispatch; one file per command.
//!
//! Invariant: this is the only layer that prints. Each command returns its exit code.

use clap::{Parser, Subcommand};

pub mod demo;
pub mod fake_seat;
pub mod feed;
pub mod profile;
pub mod register;
pub mod route;
pub mod send;

#[derive(Parser, Debug)]
#[command(name = "team", version, about = "Reach the AI coding agents of a team in their terminal panes.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Send one message to one seat (or list the seats, or record a native delivery).
    Send(send::Args),
    /// Write the record for one seat that is already running, without touching it.
    Register(register::Args),
    /// Answer one seat's native-channel address (then deliver with your own tool, and record it).
    Route(route::Args),
    /// Read the project's message history.
    Feed(feed::Args),
    /// List, check and explain the vendor profiles that read the seats' screens.
    Profile(profile::Args),
    /// Run a throwaway team of fake seats and send to them: the first thing to try.
    Demo(demo::Args),
    /// A fake seat that draws a vendor's real screens (used by tests and the demo).
    #[command(hide = true)]
    FakeSeat(fake_seat::Args),
}

/// Parses the command line and runs the command; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return parse_error(e),
    };
    match cli.command {
        Command::Send(a) => send::run(a),
        Command::Register(a) => register::run(a),
        Command::Route(a) => route::run(a),
        Command::Feed(a) => feed::run(a),
        Command::Profile(a) => profile::run(a),
        Command::Demo(a) => demo::run(a),
        Command::FakeSeat(a) => fake_seat::run(a),
    }
}

/// Prints an error the way every command does: one `team.error` document on stdout under
/// `--json` (stderr stays empty), else `team <command>: <message>` on stderr.
pub fn report_error(command: &str, json: bool, e: &crate::outcome::TeamError) -> i32 {
    if json {
        print!("{}", crate::outcome::render_json(&e.document(command)));
    } else if let Some((project, session)) = &e.context {
        print!("{}{}\n", crate::outcome::context_line(project, session), e.message);
    } else {
        eprint!("{}", e.plain(command));
    }
    e.kind.exit_code()
}

/// A command line clap cannot read: under `team send … --json` the usage error is the
/// `team.error` document on stdout (stderr empty, exit 2); everything else is clap's own.
fn parse_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    let args: Vec<String> = std::env::args().collect();
    let is_send_json = args.get(1).map(String::as_str) == Some("send") && args.iter().any(|a| a == "--json");
    if !is_send_json || matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("").trim_start_matches("error: ").trim().to_string();
    let err = crate::outcome::TeamError::usage(first);
    report_error("send", true, &err)
}
