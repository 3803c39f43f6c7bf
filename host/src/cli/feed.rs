//! `team feed`: its arguments, and the printing of what `crate::feed` reads — the table of
//! the project's messages, briefs and Desk audit lines (or one `team.feed` document), each
//! follow pass that brings new entries, and `--stats`'s figures (`team.feed.stats`). What is
//! read, and how entries are joined, filtered and followed, is `crate::feed`'s, and so are its
//! words (`feed::words`); it writes nothing.
//!
//! Skipped lines are said on stderr (plain) or as `skipped` in the document (`--json`).

use crate::ctx::Ctx;
use crate::feed::words::{plain, skipped_note};
use crate::feed::{self, Follow, Query, Report, Scope, Want};
use crate::output::Output;
use std::path::PathBuf;

/// Arguments of `team feed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the events this seat sent or received (its name, or @<nickname> in a checkout).
    #[arg(long, value_name = "name")]
    seat: Option<String>,
    /// Only the last <n> events.
    #[arg(long, value_name = "n")]
    limit: Option<usize>,
    /// Every project's history on this machine, not only this checkout's.
    #[arg(long)]
    all: bool,
    /// Read Desk audit lines from this audit.jsonl (or folder) instead of the lobby's.
    #[arg(long, value_name = "path")]
    audit: Option<PathBuf>,
    /// Read briefs (<from>-to-<to>.md) from this folder instead of <checkout>/briefs.
    #[arg(long, value_name = "dir")]
    briefs: Option<PathBuf>,
    /// Keep reading; print each pass that brings new entries.
    #[arg(long, conflicts_with = "json")]
    follow: bool,
    /// Count, per CLI and profile version: sends, how they ended, ms to delivered and to read.
    #[arg(long, conflicts_with_all = ["follow", "limit"])]
    stats: bool,
    /// Print one team.feed document.
    #[arg(long)]
    json: bool,
}

impl Args {
    /// Whether the run was asked for JSON.
    pub fn json(&self) -> bool {
        self.json
    }
}

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let cwd = ctx.cwd()?;
    let want = Want { all: args.all, audit: args.audit.clone(), briefs: args.briefs.clone() };
    let scope = Scope::of(&want, &cwd, &ctx.paths.config)?;
    if args.stats {
        let stats = feed::stats::stats(&scope, args.seat.as_deref())?;
        if args.json {
            out.doc(&stats.document());
        } else {
            out.out(&stats.said());
            if let Some(note) = skipped_note(stats.skipped) {
                out.err(&note);
            }
        }
        return Ok(0);
    }
    let query = Query { seat: args.seat.clone(), limit: args.limit };
    // on a terminal the sender header is drawn faint, apart from the body it opens (the
    // piped text stays the spec's: header and body one space apart)
    let styled = out.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let now = || ctx.clock.now().with_timezone(&chrono::Local);
    if !args.follow {
        let r = feed::list(&scope, &query)?;
        if args.json {
            out.doc(&r.document(&scope));
        } else {
            print_plain(&scope, &r, now(), styled, out);
        }
        return Ok(0);
    }
    let mut follow = Follow::new(&scope, &query);
    loop {
        if let Some(r) = follow.pass()? {
            print_plain(&scope, &r, now(), styled, out);
        }
        // A follow runs until its reader goes away (`team feed --follow | head -3`).
        for _ in 0..10 {
            if out.closed() || out.reader_gone() {
                return Ok(0);
            }
            std::thread::sleep(ctx.clock.scaled(100));
        }
    }
}

fn print_plain(scope: &Scope, r: &Report, now: chrono::DateTime<chrono::Local>, styled: bool, out: &mut Output) {
    let (text, note) = plain(scope, &r.events, r.skipped, now, styled);
    // the faint header is the product's own styling, added after the cells were escaped
    if styled {
        out.out_styled(&text);
    } else {
        out.out(&text);
    }
    if let Some(n) = note {
        out.err(&n);
    }
}
