//! A `team send` invocation's words checked into the [`Ask`] the use-case runs: which of
//! `--list`, `--record`, a send to one seat or to `all`, with its body read (words, a file,
//! or standard input). Every refusal here is a usage error (exit 2) whose repair is
//! [`USAGE`].

use std::path::PathBuf;

use super::{body, Ask};
use crate::error::{self, TeamError};
use crate::vocab::leg::Leg;

/// `team send`'s usage, the repair of each of its usage errors.
pub const USAGE: &str = "usage: team send <target> <message> [--wait] [--timeout <s>] [--json] [--dry-run]\n       team send <target> --file <path> [--wait] [--timeout <s>] [--json] [--dry-run]\n       team send --record <seat> --channel native --ms <N> [<message> | --file <path>] [--json] [--dry-run]\n       team send --list [--json]";

/// The words of a `team send` invocation, as the command line read them.
#[derive(Debug, Default, Clone)]
pub struct Words {
    pub target: Option<String>,
    pub message: Vec<String>,
    pub file: Option<PathBuf>,
    pub wait: bool,
    pub timeout: Option<String>,
    pub dry_run: bool,
    pub list: bool,
    pub record: Option<String>,
    pub channel: Option<String>,
    pub ms: Option<String>,
}

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE)
}

impl Ask {
    /// Checks the invocation: every error is a usage error (exit 2), but a body file that
    /// cannot be read.
    pub fn of(a: &Words) -> error::Result<Ask> {
        if let Some(t) = &a.timeout {
            match t.trim().parse::<u64>() {
                Ok(n) if (1..=86_400).contains(&n) => {}
                _ => {
                    return Err(usage(format!(
                        "--timeout takes a whole number of seconds from 1 to 86400, not \"{t}\""
                    )))
                }
            }
        }
        if a.list {
            return list(a);
        }
        if let Some(seat) = &a.record {
            return record(a, seat);
        }
        if a.channel.is_some() || a.ms.is_some() {
            return Err(usage("--channel and --ms go with --record"));
        }
        let Some(target) = a.target.clone() else {
            return Err(usage("a target seat is required"));
        };
        if !a.message.is_empty() && a.file.is_some() {
            return Err(usage("a message and --file together: give the body one way"));
        }
        let body = match &a.file {
            Some(p) => body::of_file(p)?,
            None if a.message.is_empty() => {
                return Err(usage("a message is required: words after the seat, or --file <path>"))
            }
            None => body::of_words(a.message.join(" "))?,
        };
        if body.trim().is_empty() {
            return Err(usage("the message is empty: nothing to send"));
        }
        if target == crate::vocab::names::RESERVED_ALL {
            if a.wait || a.timeout.is_some() {
                return Err(usage("--wait and --timeout go with one seat, not with all"));
            }
            return Ok(Ask::All { body });
        }
        Ok(Ask::Send { target, body, wait: a.wait })
    }
}

/// `--list`: nothing else but `--json`.
fn list(a: &Words) -> error::Result<Ask> {
    if a.target.is_some()
        || !a.message.is_empty()
        || a.file.is_some()
        || a.record.is_some()
        || a.wait
        || a.timeout.is_some()
        || a.dry_run
    {
        return Err(usage("--list takes no target, message, --file, --record, --wait, --timeout or --dry-run"));
    }
    if a.channel.is_some() || a.ms.is_some() {
        return Err(usage("--channel and --ms go with --record"));
    }
    Ok(Ask::List)
}

/// `--record <seat> --channel native --ms <N>`, with an optional body.
fn record(a: &Words, seat: &str) -> error::Result<Ask> {
    if a.wait || a.timeout.is_some() {
        return Err(usage(
            "--wait and --timeout are refused beside --record: a recorded delivery has already happened",
        ));
    }
    match a.channel.as_deref().map(|c| (c, Leg::from_word(c))) {
        Some((_, Some(Leg::Native))) => {}
        Some((c, _)) => return Err(usage(format!("--channel takes native only, not \"{c}\""))),
        None => return Err(usage("--record needs --channel native")),
    }
    let ms = match a.ms.as_deref() {
        None => return Err(usage("--record needs --ms <N>, the span the sender measured")),
        Some(m) => m
            .trim()
            .parse::<u64>()
            .map_err(|_| usage(format!("--ms takes a whole number of milliseconds, not \"{m}\"")))?,
    };
    let mut words: Vec<String> = a.target.iter().cloned().collect();
    words.extend(a.message.iter().cloned());
    if !words.is_empty() && a.file.is_some() {
        return Err(usage("a message and --file together: give the body one way"));
    }
    let body = match &a.file {
        Some(p) => Some(body::of_file(p)?),
        None if words.is_empty() => None,
        None => Some(body::of_words(words.join(" "))?),
    };
    Ok(Ask::Record { target: seat.to_string(), body, ms })
}
