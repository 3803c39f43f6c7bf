//! The `team.hooks` document (`team hooks install | status | remove --json`), built from the
//! run's rows; its schema is generated from these types (`crate::schema`).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Row, State};
use crate::project_files::Done;
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::leg::HookFormat;

/// team hooks install | status | remove --json: one row per seat of the team file (or per seat
/// named): whether its CLI runs team's hooks (`<team> hook post-tool-use | stop |
/// user-prompt-submit`) from the checkout's hook configuration, what install or remove did,
/// and when the hooks last handed the seat a message. docs/inbox.md.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HooksDoc {
    pub schema: Named<HooksDoc>,
    pub format: FormatOne,
    pub project: String,
    pub session: String,
    pub seats: Vec<SeatDoc>,
}

impl Document for HooksDoc {
    const NAME: &'static str = "team.hooks";
    const FILE: &'static str = "hooks";
}

/// One seat's row.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatDoc {
    pub seat: String,
    pub cli: String,
    /// The hook configuration format the CLI's profile names (`hooks=<format>` among its
    /// features); null when it names none.
    pub format: Option<HookFormat>,
    /// The hooks file (absolute), when the CLI has a format.
    pub file: Option<String>,
    /// Before install or remove acted (status: now).
    pub state: State,
    pub detail: String,
    /// What install or remove did; null for status.
    pub done: Option<Done>,
    /// When the seat's hooks last handed it a message (its newest handed receipt); null:
    /// never.
    pub last_handed: Option<String>,
}

/// The `team.hooks` document of `rows`; `seen` answers when a seat's hooks last handed it a
/// message.
pub fn document(project: &str, session: &str, rows: &[Row], seen: impl Fn(&str) -> Option<String>) -> HooksDoc {
    HooksDoc {
        schema: Named::new(),
        format: FormatOne,
        project: project.to_string(),
        session: session.to_string(),
        seats: rows
            .iter()
            .map(|r| SeatDoc {
                seat: r.seat.clone(),
                cli: r.cli.clone(),
                format: r.format,
                file: r.path.as_ref().map(|p| p.display().to_string()),
                state: r.state.clone(),
                detail: r.state.detail(r.format),
                done: r.done,
                last_handed: seen(&r.seat),
            })
            .collect(),
    }
}
