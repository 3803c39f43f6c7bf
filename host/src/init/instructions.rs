//! `team init --agent-instructions`: the lines an agent reads about messaging its team, in the
//! instructions file its CLI reads at the checkout's root — `CLAUDE.md` for Claude Code,
//! `AGENTS.md` for Codex and the other CLIs (docs/first-team.md, docs/agents.md).
//!
//! Invariant: a file already there keeps every line: the block is added after them once, and
//! a file that already holds the block's heading is left as it is. Every path is checked (a
//! link or FIFO refuses the run) and every file read before the first write of the run.

use std::path::PathBuf;

use crate::error::{self, At, TeamError};
use crate::fsx;

use super::Plan;

/// The block's heading: a file that holds it already carries the block.
pub const INSTRUCTIONS_MARK: &str = "## Messaging the team (`team send`)";

/// What the run did to one instructions file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrote {
    Created,
    Added,
    AlreadyThere,
}

/// The instructions files a run writes, checked and read, not yet written.
#[derive(Debug, Default)]
pub struct Instructions {
    /// Each file with its text now (`None`: absent).
    files: Vec<(PathBuf, Option<String>)>,
    block: String,
}

/// The file each CLI reads its project instructions from.
fn file_for(cli: &str) -> &'static str {
    match cli {
        "claude-code" => "CLAUDE.md",
        _ => "AGENTS.md",
    }
}

/// The block itself, for `plan`'s team.
pub fn block(plan: &Plan) -> String {
    let lead = match &plan.lead {
        Some(l) => format!(
            "\n{l} leads this team: it may message every seat, and every seat may message it; a message\nbetween two other seats goes through {l}."
        ),
        None => String::new(),
    };
    format!(
        "{INSTRUCTIONS_MARK}

You are one seat of the team in `.agents/team.yaml`: each seat is an agent like you, in its own
terminal pane. To message a seat, run this with your shell tool (quote the message):

    team send <seat> \"<message>\"

`team send <seat> --file <path>` sends a long message from a file. `team send --list --json` lists
the seats and, for each, the rule that lets you message it (`admitted_by`; `null`: you may not).{lead}
`delivered` means the seat took the message; `held`, `not-submitted`, `unreachable` and `refused`
say why it did not, and the message stays on disk either way: do not send it twice.
A message to you arrives as one line naming a file: read that file. It says who sent the message
and the rule that let them, then the message, and its id is the file's name.
To answer it, reply to its sender about that message (whatever the rules above say):

    team reply <id> \"<answer>\"

When you have read a message and will act on it, and are not replying now, say so once:
`team ack <id>` (`--note \"<why not>\"` when you will not act on it). A reply acks its message.
`team inbox` lists the messages you have not acked or answered, each with its id.
Where your CLI offers the `team` MCP server's tools (`team mcp install` adds them), call them
instead: `team_send`, `team_reply`, `team_ack`, `team_inbox` and `team_list` do the same as these
commands, and need no shell.
"
    )
}

impl Instructions {
    /// Checks and reads every instructions file `plan`'s seats need (both when it has none).
    pub fn plan(plan: &Plan) -> error::Result<Instructions> {
        let mut names: Vec<&str> = plan.seats.iter().map(|s| file_for(&s.cli)).collect();
        if names.is_empty() {
            names = vec!["AGENTS.md", "CLAUDE.md"];
        }
        names.sort();
        names.dedup();
        let mut files = Vec::new();
        for n in names {
            let path = plan.root.join(n);
            let text =
                fsx::read_to_string(&path).map_err(|e| TeamError::refused(format!("{e}; nothing was written")))?;
            files.push((path, text));
        }
        Ok(Instructions { files, block: block(plan) })
    }

    /// Writes the block into each file that does not hold it yet.
    pub fn write(self) -> error::Result<Vec<(PathBuf, Wrote)>> {
        let mut out = Vec::new();
        for (path, old) in self.files {
            let (text, wrote) = match old {
                Some(t) if t.lines().any(|l| l.trim() == INSTRUCTIONS_MARK) => {
                    out.push((path, Wrote::AlreadyThere));
                    continue;
                }
                Some(t) => {
                    let sep = if t.is_empty() || t.ends_with("\n\n") {
                        ""
                    } else if t.ends_with('\n') {
                        "\n"
                    } else {
                        "\n\n"
                    };
                    (format!("{t}{sep}{}", self.block), Wrote::Added)
                }
                None => (self.block.clone(), Wrote::Created),
            };
            fsx::write_atomic(&path, text.as_bytes(), 0o644).at(&path)?;
            out.push((path, wrote));
        }
        Ok(out)
    }
}
