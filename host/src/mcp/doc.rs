//! The `team.mcp` document (`team mcp install | status | remove --json`), built from the
//! run's rows; its schema is generated from these types (`crate::schema`).

use schemars::JsonSchema;
use serde::Serialize;

use super::install::{Action, Done, Row, State};
use crate::vocab::doc::{Document, Named};

/// The document `team mcp install | status | remove [<seat>…] --json` prints (docs/mcp.md): the
/// team file's project and session, the action run, and one row per seat named (every seat when
/// none is): the seat's CLI, the file where that CLI reads project-level MCP servers (null for
/// a CLI with none), the entry's state before the action (status: now), the sentence the plain
/// output prints after it, and what install or remove did (null for status). A refusal prints
/// team.error instead.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [{
    "if": { "properties": { "action": { "const": "status" } } },
    "then": { "properties": { "seats": { "items": { "properties": { "done": { "const": null } } } } } }
}]))]
pub struct McpDoc {
    pub schema: Named<McpDoc>,
    pub action: Action,
    #[schemars(length(min = 1))]
    pub project: String,
    #[schemars(length(min = 1))]
    pub session: String,
    pub seats: Vec<SeatDoc>,
}

impl Document for McpDoc {
    const NAME: &'static str = "team.mcp";
    const FILE: &'static str = "mcp";
}

/// One seat's row.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatDoc {
    #[schemars(length(min = 1))]
    pub seat: String,
    #[schemars(length(min = 1))]
    pub cli: String,
    /// The absolute path of the file the seat's CLI reads, as its profile says (`mcp=<format>`:
    /// .mcp.json, .codex/config.toml, .gemini/settings.json, .qwen/settings.json,
    /// .grok/settings.json, opencode.json); null when the CLI reads no project-level MCP
    /// configuration team knows.
    #[schemars(length(min = 1))]
    pub file: Option<String>,
    /// installed: the entry runs this team's MCP server; missing: no `team` entry; stale: a
    /// `team` entry running another team binary; foreign: a `team` entry that is not team's
    /// server (left alone); unsupported: the CLI has no such file; unreadable: the file is not
    /// its format, or a link.
    pub state: State,
    #[schemars(length(min = 1))]
    pub detail: String,
    /// What install or remove did to the seat's file; null for status.
    pub done: Option<Done>,
}

/// The `team.mcp` document of `rows`.
pub fn document(action: Action, project: &str, session: &str, rows: &[Row]) -> McpDoc {
    McpDoc {
        schema: Named::new(),
        action,
        project: project.to_string(),
        session: session.to_string(),
        seats: rows
            .iter()
            .map(|r| SeatDoc {
                seat: r.seat.clone(),
                cli: r.cli.clone(),
                file: r.path.as_ref().map(|p| p.display().to_string()),
                state: r.state.clone(),
                detail: r.state.detail(r.place),
                done: r.done,
            })
            .collect(),
    }
}
