//! `team completions <bash|zsh|fish>`: the shell completion script for every command and flag
//! (clap_complete, from the same definitions the parser uses, so it never drifts from them);
//! the hidden demo seat (`demo-seat`, which `team demo` runs) is left out.
//!
//! Seat names are completed where a command takes a seat (`send`'s target and `--record`,
//! `register`, `route`, `rename`, `mark`, `feed --seat`): each script calls `team completions
//! seats`, which prints the seats of the team file the shell stands in — read when the key is
//! pressed, so a seat added to the file completes at once — and prints nothing elsewhere.

use clap::CommandFactory;

use crate::ctx::Ctx;
use crate::output::Output;

/// The shells a script is written for.
#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    /// The seats of the team file here, one per line (what the scripts complete with).
    #[value(hide = true)]
    Seats,
}

/// Arguments of `team completions`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Install: team completions bash > ~/.local/share/bash-completion/completions/team\n         \
team completions zsh > \"${fpath[1]}/_team\"\n         team completions fish > ~/.config/fish/completions/team.fish")]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The seats of the team file the run stands in, and their `@<nickname>`s, one per line;
/// nothing outside a checkout or when the file cannot be read (a completion never errs).
fn seats(ctx: &Ctx) -> String {
    let found = ctx.cwd.as_ref().ok().and_then(|cwd| crate::team_file::find(cwd).ok().flatten());
    found.map(|l| l.file.addresses().iter().map(|a| format!("{a}\n")).collect()).unwrap_or_default()
}

// Each script's own lines that complete a seat where a command takes one (each calls `team
// completions seats`, which reads the team file here).
const BASH_SEATS: &str = include_str!("completions/seats.bash");
const ZSH_SEATS: &str = include_str!("completions/seats.zsh");
const FISH_SEATS: &str = include_str!("completions/seats.fish");

/// The zsh script with the seat-taking arguments completed by `_team_seats`.
fn zsh_with_seats(script: &str) -> String {
    let mut s = String::with_capacity(script.len() + ZSH_SEATS.len());
    for line in script.lines() {
        let seat_arg = line.starts_with("'::target -- ")
            || line.starts_with("':seat -- ")
            || line.starts_with("'--record=[")
            || (line.starts_with("'--seat=[Only the events") && line.contains(":name:_default'"));
        if seat_arg && line.contains(":_default'") {
            s.push_str(&line.replacen(":_default'", ":_team_seats'", 1));
        } else {
            s.push_str(line);
        }
        s.push('\n');
    }
    match s.find("\n_team() {") {
        Some(i) => format!("{}{ZSH_SEATS}{}", &s[..i + 1], &s[i + 1..]),
        None => format!("{s}{ZSH_SEATS}"),
    }
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    let shell = match a.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
        Shell::Seats => {
            out.out(&seats(ctx));
            return 0;
        }
    };
    // The generators list hidden commands too: the script is made from the visible ones.
    let full = super::Cli::command();
    let mut cmd = clap::Command::new("team").version(super::VERSION);
    if let Some(about) = full.get_about() {
        cmd = cmd.about(about.clone());
    }
    for arg in full.get_arguments() {
        cmd = cmd.arg(arg.clone());
    }
    for sub in full.get_subcommands().filter(|s| !s.is_hide_set()) {
        // a help broken over lines for `--help` is one line in a script's descriptions
        cmd = cmd.subcommand(sub.clone().mut_args(|a| match a.get_help().map(|h| h.to_string()) {
            Some(h) if h.contains('\n') => a.help(h.replace('\n', " ")),
            _ => a,
        }));
    }
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "team", &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    let script = match a.shell {
        Shell::Bash => format!("{script}{BASH_SEATS}"),
        Shell::Zsh => zsh_with_seats(&script),
        _ => format!("{script}{FISH_SEATS}"),
    };
    out.verbatim(script.as_bytes());
    0
}
