//! `team profile list | check | explain | test`: the installed vendor profiles, a vendor's
//! validation of a component, the tool that reads a captured screen, and the conformance run
//! of a component over a folder of screens.
//!
//! The use-cases are `profile_tool`'s (which says what each loads); this parses and renders.
//! Documents:
//! `team.profile.list`, `team.profile.check`, `team.profile.explain`, `team.profile.test`
//! (schema/profile-*.schema.json), each with `schema: {name, version}` and `format: 1`.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Subcommand};

use super::Ran;
use crate::ctx::Ctx;
use crate::error;
use crate::output::Output;
use crate::profile_tool::{self, CheckReport, Explained, Listing};
use crate::vocab::doc::render_json;
use crate::vocab::text::one_line;
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
    let res = match args.command {
        Cmd::List { json } => profile_tool::list(host, ctx).map(|l| (render_list(&l, json), 0)),
        Cmd::Check { file, json } => profile_tool::check(host, &file).map(|r| render_check(&r, json)),
        Cmd::Explain { cli, screen, title, size, profile, json } => {
            let res = size.as_deref().map(profile_tool::parse_size).transpose().and_then(|size| {
                let req = profile_tool::Request {
                    cli: &cli,
                    screen: &screen,
                    title: title.as_deref(),
                    size,
                    profile: profile.as_deref(),
                };
                profile_tool::explain(host, ctx, &req)
            });
            res.map(|e| (render_explain(&e, json), 0))
        }
        Cmd::Test { file, screens, json } => {
            profile_tool::conformance(host, &file, &screens).map(|r| super::profile_test::render(&r, json))
        }
    };
    // (a document is already JSON: its control characters are escaped by serde_json)
    let (text, code) = res?;
    out.out(&text);
    Ok(code)
}

/// Formats rows as columns separated by two spaces (the last column unpadded); every cell is
/// shown escaped (ids, versions and reasons come from files and components).
fn table(rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| one_line(c).into_owned()).collect()).collect();
    crate::vocab::table::layout(&rows, "")
}

/// One `label     value` line; labels are padded to one width in every command's output. The
/// value is shown on one line, escaped: a profile's words never reach the terminal raw.
pub(super) fn labelled(label: &str, value: &str) -> String {
    format!("{label:<9} {}\n", one_line(value))
}

// ---------------------------------------------------------------- list

fn render_list(l: &Listing, json: bool) -> String {
    if json {
        let doc = l.document();
        return render_json(&doc);
    }
    let mut out = String::new();
    if let Some(t) = &l.team {
        out.push_str(&error::context_line(&t.project, &t.session));
    }
    let mut rows = vec![vec!["PROFILE".to_string(), "VERSION".into(), "SOURCE".into(), "STATUS".into()]];
    for a in &l.profiles {
        rows.push(vec![
            a.id.clone(),
            a.version.clone(),
            a.source.to_string(),
            match &a.validity {
                Ok(()) => "ok".to_string(),
                Err(why) => format!("invalid: {why}"),
            },
        ]);
    }
    out.push_str(&table(&rows));
    if let Some(t) = &l.team {
        out.push('\n');
        let mut rows = vec![vec!["SEAT".to_string(), "CLI".into(), "PIN".into(), "PROFILE".into()]];
        for s in &t.seats {
            rows.push(vec![
                s.seat.clone(),
                s.cli.clone(),
                s.pin.clone().map(|p| format!("\"{p}\"")).unwrap_or_else(|| "-".into()),
                match &s.profile {
                    Ok(a) => format!("{} {} ({})", a.id, a.version, a.source),
                    Err(e) => e.message(),
                },
            ]);
        }
        out.push_str(&table(&rows));
    }
    out
}

// ---------------------------------------------------------------- check

fn render_check(r: &CheckReport, json: bool) -> (String, i32) {
    let ok = r.failed().is_none();
    let verdict = r.verdict();
    let code = if ok { 0 } else { 1 };
    if json {
        let doc = r.document(verdict);
        return (render_json(&doc), code);
    }
    let mut out = String::new();
    for s in &r.steps {
        match &s.result {
            Ok(d) => out.push_str(&labelled(s.name.word(), &format!("ok: {d}"))),
            Err(d) => out.push_str(&labelled(s.name.word(), &format!("failed: {d}"))),
        }
    }
    out.push_str(&labelled("verdict", &verdict));
    (out, code)
}

// ---------------------------------------------------------------- explain

fn render_explain(e: &Explained, json: bool) -> String {
    let (profile, reading, d) = (&e.profile, &e.reading, e.profile.describe());
    if json {
        let doc = e.document();
        return render_json(&doc);
    }
    let mut out = format!(
        "{} {} ({}) reads {}:\n",
        one_line(&d.id),
        one_line(&d.version),
        one_line(&profile.source().to_string()),
        one_line(&e.screen_file.display().to_string())
    );
    out.push_str(&labelled("state", &reading.state.to_string()));
    out.push_str(&labelled("composer", &reading.composer.to_string()));
    for q in &reading.queued {
        out.push_str(&labelled("queued", &format!("\"{q}\"")));
    }
    out.push_str(&labelled("error", reading.last_error.map(|e| e.label()).unwrap_or("none")));
    out.push_str(&labelled("why", &reading.why));
    for n in profile.notes() {
        out.push_str(&labelled("note", n));
    }
    out
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

    #[test]
    fn table_pads_all_but_the_last_column() {
        let t = table(&[vec!["a".into(), "bb".into(), "c".into()], vec!["ddd".into(), "e".into(), "".into()]]);
        assert_eq!(t, "a    bb  c\nddd  e\n");
    }
}
