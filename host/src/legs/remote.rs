//! The remote leg: a seat whose `host:` is another machine, reached by running that machine's
//! own `team` over ssh (`crate::ssh`), which judges the sender again against its own team
//! file and runs its own leg there. Admission is judged here first, as for every send.
//!
//! Invariant: a hop that did not reach the far side's `team` (ssh could not connect, the host
//! key is not known, no `team` there, a far side that does not carry the hop) ends
//! `unreachable` with "nothing was sent" and its repair — true, because the far side runs
//! nothing before it has read the whole request; a seat whose `host:` is no ssh destination is
//! refused before ssh runs.
//!
//! Not yet built (docs/remote.md): the far side's hidden subcommand `hop deliver` (its re-judged
//! admission, its leg, its outcome document answered on stdout and its history line under the
//! same id) and the read-back by id after a cut. Until it is, every hop ends at the far side's
//! refusal of the unknown subcommand, said as such.

use std::time::Duration;

use crate::ssh::{Hop, Unreachable};
use crate::team_file::host::SeatHost;
use crate::vocab::outcome::Ended;

/// How long one hop may take as a whole (connect, the far side's leg, its answer).
pub const LIMIT: Duration = Duration::from_secs(60);

/// One send to a seat on another machine.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub host: &'a SeatHost,
    /// The message id: the far side's once-only key.
    pub id: &'a str,
    /// The sender as this side's admission found it (`owner`, `<seat>@<team>`).
    pub from: &'a str,
    pub seat: &'a str,
    /// The message as the seat is to read it (its sender header on top).
    pub text: &'a str,
}

/// The far side's words for a subcommand its `team` does not know (clap's).
const UNKNOWN_SUBCOMMAND: &str = "unrecognized subcommand";

/// Carries one message over the hop; how it ended.
pub fn deliver(state: &std::path::Path, r: &Request) -> Ended {
    let dest = match &r.host.dest {
        Ok(d) => d,
        Err(why) => {
            return Ended::refused(format!(
                "its host {:?} is not an ssh destination ({why}); nothing was sent",
                r.host.word
            ))
        }
    };
    let hop = Hop { dest, control: crate::ssh::control_dir(state) };
    let args = ["hop", "deliver", "--here", &r.host.word, "--id", r.id, "--from", r.from, "--to", r.seat];
    match hop.run(&args, r.text.as_bytes().to_vec(), LIMIT) {
        Err(u) => unreachable(&u, dest),
        Ok(a) => {
            let err = String::from_utf8_lossy(&a.stderr);
            if a.code == Some(2) && err.contains(UNKNOWN_SUBCOMMAND) {
                return Ended::unreachable(format!(
                    "the team on {dest} does not carry seats on another machine (it has no hop subcommand); nothing was sent — install a team there that does"
                ));
            }
            let first = err.lines().next().unwrap_or("").to_string();
            Ended::unreachable(format!(
                "the team on {dest} answered what this build cannot read (exit {}: {}); nothing was sent",
                a.code.map(|c| c.to_string()).unwrap_or_else(|| "by a signal".into()),
                crate::vocab::text::one_line(&first)
            ))
        }
    }
}

fn unreachable(u: &Unreachable, dest: &crate::vocab::host::Destination) -> Ended {
    Ended::unreachable(format!("{}; nothing was sent — {}", u.reason(dest), u.repair(dest)))
}
