//! `team completions <bash|zsh|fish>`: the shell completion script for every command and flag
//! (clap_complete, from the same definitions the parser uses, so it never drifts from them);
//! the hidden demo seat (`demo-seat`, which `team demo` runs) is left out.

use clap::CommandFactory;

use crate::output::Output;

/// The shells a script is written for.
#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
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

pub fn run(a: Args, out: &mut Output) -> i32 {
    let shell = match a.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
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
        cmd = cmd.subcommand(sub.clone());
    }
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "team", &mut script);
    out.verbatim(&script);
    0
}
