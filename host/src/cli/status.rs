//! `team status`: one row per seat (the roster `team send --list` prints) — its pane, its CLI,
//! what its profile reads there now, the multiplexer's own status where it has one, the last
//! message to it — as a table or one `team.status` document; `--watch` redraws it every second.
//!
//! It types nothing and writes nothing: `crate::status` only locates and reads, and
//! `status::words` says it.

use super::Ran;
use crate::ctx::Ctx;
use crate::output::Output;
use crate::status::words::{extras_said, plain};
use crate::status::{self, extras};
use crate::workspace::Workspace;

/// Arguments of `team status`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one team.status document.
    #[arg(long)]
    pub json: bool,
    /// Redraw every second (on a terminal; elsewhere, print the table again when it changes).
    #[arg(long, conflicts_with = "json")]
    pub watch: bool,
}

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> Ran {
    // a run outside a checkout has no team to read: exit 2 saying where the file was looked
    // for, as team check and team send --list do
    let ws = Workspace::new(ctx);
    let here = status::Here::of(&ws)?;
    let read = || here.read();
    if !a.watch {
        let r = read();
        let (mcp, hooks) = (here.mcp_rows(), here.hooks_rows());
        if a.json {
            out.doc(&extras::document(r.document(r.summary()), &mcp, &hooks));
        } else {
            out.out(&format!("{}{}", plain(&r), extras_said(&mcp, &hooks)));
        }
        return Ok(0);
    }
    // A watch runs until its reader goes away (or it is stopped).
    let terminal = out.is_terminal();
    let mut last = String::new();
    loop {
        let text = plain(&read());
        if terminal {
            out.redraw(&format!("{text}(every 1 s; ctrl-c stops)\n"));
        } else if text != last {
            out.out(&text);
        }
        last = text;
        for _ in 0..10 {
            if out.closed() || out.reader_gone() {
                return Ok(0);
            }
            std::thread::sleep(ctx.clock.scaled(100));
        }
    }
}
