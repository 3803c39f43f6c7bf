//! `team hop`: the far side of a send to a seat on another machine (docs/remote.md), run by
//! the near side's `team` over ssh, not by hand. `hop deliver` reads the versioned request
//! document on stdin and answers its outcome document; `hop status <id>` answers what became
//! of an id here, or, with `--host`, asks that host over ssh; `hop seats <team>` reads this
//! machine's seats of a team for another machine's `team status`. This file decides nothing.

use std::io::Read;

use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::legs::remote::doc;
use crate::output::Output;
use crate::send::{hop, Means};
use crate::workspace::Workspace;

/// Arguments of `team hop`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum What {
    /// Take one message handed over ssh (its request document on stdin), once per id.
    Deliver,
    /// Say that a team of this hop protocol runs here, and its version.
    Ping,
    /// Read the seats of a team that run here (as `team status --json` reads them), for
    /// another machine's `team status`: the hello line, then the team.status document.
    Seats {
        team: String,
        /// The host word the asking machine names this one by (the seats under it are read).
        #[arg(long, value_name = "host")]
        here: String,
    },
    /// What became of a message id handed here (or, with --host, on that host).
    Status {
        id: String,
        /// Ask this host (a name of the team file's hosts:, or an ssh destination) over ssh.
        #[arg(long, value_name = "host")]
        host: Option<String>,
    },
}

/// The largest request a far side reads: the largest body a send carries, and room for the rest.
const MAX_REQUEST: u64 = (crate::send::MAX_BODY as u64) * 7 + 64 * 1024;

pub fn run(a: Args, ctx: &Ctx, out: &mut Output) -> super::Ran {
    let ws = Workspace::new(ctx);
    let m = Means::of(&ws);
    let answer = match a.what {
        What::Ping => {
            out.json_line(&doc::Hello::here());
            return Ok(0);
        }
        What::Seats { team, here } => {
            // the hello first: a far side that cannot read its seats still says what it is
            out.json_line(&doc::Hello::here());
            out.json_line(&crate::status::far::here(&ws, &team, &here)?);
            return Ok(0);
        }
        What::Deliver => {
            let mut text = Vec::new();
            std::io::stdin()
                .take(MAX_REQUEST)
                .read_to_end(&mut text)
                .map_err(|e| TeamError::usage(format!("the request could not be read: {e}")))?;
            let req = request(&text)?;
            hop::deliver_here(&m, &req, &crate::converse::owner::across)
        }
        What::Status { id, host: None } => hop::status_here(&m, &id),
        What::Status { id, host: Some(word) } => {
            let hosts = ws.file()?.map(|l| l.file.hosts.clone()).unwrap_or_default();
            let dest = hosts.resolve(&word, 0).dest.map_err(|f| {
                TeamError::usage(format!("{word:?} is no host of the team file and no ssh destination ({f})"))
            })?;
            crate::legs::remote::status(&ctx.paths.state, &dest, &id)?
        }
    };
    out.json_line(&answer);
    Ok(0)
}

/// The request document; one of another protocol is answered (refused), never acted on.
fn request(text: &[u8]) -> Result<doc::Request, TeamError> {
    match serde_json::from_slice::<doc::Request>(text) {
        Ok(r) => Ok(r),
        Err(e) => {
            let v: serde_json::Value = serde_json::from_slice(text).unwrap_or_default();
            match v.get("hop").and_then(serde_json::Value::as_u64) {
                Some(h) if h != u64::from(doc::PROTOCOL) => Ok(doc::Request {
                    hop: h as u32,
                    team_version: String::new(),
                    id: v.get("id").and_then(|i| i.as_str()).unwrap_or("").to_string(),
                    here: String::new(),
                    team: String::new(),
                    seat: String::new(),
                    from: doc::From::Owner,
                    from_host: None,
                    body: String::new(),
                    reply_to: None,
                }),
                _ => Err(TeamError::usage(format!("the request is no hop document: {e}"))),
            }
        }
    }
}
