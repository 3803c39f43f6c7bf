//! `team profile list | check | explain | test`: the installed vendor profiles, a vendor's
//! validation of a component, the tool that reads a captured screen, and the conformance run
//! of a component over a folder of screens.
//!
//! The use-cases are `profile_tool`'s (which says what each loads) and so are their words
//! (`profile_tool::words`); this parses, calls and prints.
//! Documents:
//! `team.profile.list`, `team.profile.check`, `team.profile.explain`, `team.profile.test`
//! (schema/profile-*.schema.json), each with `schema: {name, version}` and `format: 1`.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Subcommand};

use super::Ran;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::profile_tool;
use crate::vocab::doc::render_json;
use crate::workspace::Workspace;

/// Arguments of `team profile`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Every installed profile (bundled and dropped in) and which one each seat of the current team uses.
    List {
        /// Print one `team.profile.list` document.
        #[arg(long)]
        json: bool,
    },
    /// Validate a profile component as the host would before using it.
    Check {
        /// The component (`.wasm`).
        file: PathBuf,
        /// Print one `team.profile.check` document.
        #[arg(long)]
        json: bool,
    },
    /// Read a captured screen with a profile and say what it shows and why.
    Explain {
        /// The cli whose profile reads the screen (`claude-code`, `codex`, …).
        cli: String,
        /// A screen file: ANSI (`tmux capture-pane -e -p`, `herdr pane read --format ansi`) or plain text.
        screen: PathBuf,
        /// The terminal title the pane showed.
        #[arg(long)]
        title: Option<String>,
        /// The pane size as COLSxROWS (default: the widest row by the number of rows).
        #[arg(long, value_name = "COLSxROWS")]
        size: Option<String>,
        /// Read with this component instead of the one the team would use.
        #[arg(long, value_name = "FILE.wasm")]
        profile: Option<PathBuf>,
        /// Print one `team.profile.explain` document.
        #[arg(long)]
        json: bool,
    },
    /// Read every screen of a folder with a component and say which read as its meta says (exit 1 if any does not).
    Test {
        /// The component (`.wasm`).
        file: PathBuf,
        /// A folder of `<name>.ansi` + `.title` + `.meta.json` (+ `.txt`) screens, or of such folders.
        screens: PathBuf,
        /// Print one `team.profile.test` document.
        #[arg(long)]
        json: bool,
    },
}

impl Args {
    /// Whether the run was asked for one JSON document.
    pub fn json(&self) -> bool {
        match &self.command {
            Cmd::List { json } | Cmd::Check { json, .. } | Cmd::Explain { json, .. } | Cmd::Test { json, .. } => *json,
        }
    }
}

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    let ws = Workspace::new(ctx);
    let host = ws.profiles();
    // (a document is already JSON: its control characters are escaped by serde_json)
    let (text, code) = match args.command {
        Cmd::List { json } => {
            let l = profile_tool::list(host, ctx)?;
            (if json { render_json(&l.document()) } else { l.said() }, 0)
        }
        Cmd::Check { file, json } => {
            let r = profile_tool::check(host, &file)?;
            let code = if r.failed().is_none() { 0 } else { 1 };
            (if json { render_json(&r.document(r.verdict())) } else { r.said() }, code)
        }
        Cmd::Explain { cli, screen, title, size, profile, json } => {
            let size = size.as_deref().map(profile_tool::parse_size).transpose()?;
            let req = profile_tool::Request {
                cli: &cli,
                screen: &screen,
                title: title.as_deref(),
                size,
                profile: profile.as_deref(),
            };
            let e = profile_tool::explain(host, ctx, &req)?;
            (if json { render_json(&e.document()) } else { e.said() }, 0)
        }
        // exit 1 when any screen read wrong or none was read
        Cmd::Test { file, screens, json } => {
            let r = profile_tool::conformance(host, &file, &screens)?;
            let code = if r.ok() { 0 } else { 1 };
            (if json { render_json(&r.document(r.verdict())) } else { r.said() }, code)
        }
    };
    out.out(&text);
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        let parse_size = profile_tool::parse_size;
        assert_eq!(parse_size("120x40").unwrap(), (120, 40));
        assert!(parse_size("120").is_err());
        assert!(parse_size("0x4").is_err());
    }
}
