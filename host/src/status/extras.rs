//! What `team status` shows under its table: each seat's MCP entry (`team mcp status`) and
//! each seat's hooks with its inbox (`team hooks status`). Read only; nothing is written, and
//! a file that cannot be read for a seat leaves its row out.

use super::doc::{HooksDoc, McpDoc, StatusDoc};
use crate::ctx::Ctx;
use crate::profiles::ProfileHost;
use crate::team_file::Loaded;

/// This very program, as an MCP entry or a hook should start it.
fn exe() -> String {
    std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_default()
}

/// Each seat's MCP entry (`team mcp status`); none when the files cannot be read for it.
pub fn mcp_rows(profiles: &ProfileHost, file: &Loaded) -> Vec<crate::mcp::install::Row> {
    let place_of = |cli: &str| crate::mcp::install::place_of(profiles, cli, &file.file.profiles);
    crate::mcp::install::run(file, &[], &exe(), crate::mcp::install::Action::Status, place_of).unwrap_or_default()
}

/// One seat's hooks as `team status` shows them.
pub struct HooksRow {
    pub seat: String,
    pub state: crate::hooks::State,
    pub last_handed: Option<String>,
    /// Messages waiting (or claimed) in the seat's inbox.
    pub waiting: usize,
}

/// Each seat's hooks (`team hooks status`), when they last handed a message, and its inbox.
pub fn hooks_rows(ctx: &Ctx, profiles: &ProfileHost, file: &Loaded) -> Vec<HooksRow> {
    let format_of = |cli: &str| crate::hooks::format_of(profiles, cli, &file.file.profiles);
    let rows = crate::hooks::run(file, &[], &exe(), crate::hooks::Action::Status, format_of).unwrap_or_default();
    let (config, f) = (&ctx.paths.config, &file.file);
    rows.into_iter()
        .map(|r| {
            let inbox = crate::mailbox::seat_box_at(config, &f.project, &file.root, &f.session, &r.seat);
            let waiting = inbox
                .map_or(0, |b| b.waiting().map(|w| w.len()).unwrap_or(0) + b.claims().map(|c| c.len()).unwrap_or(0));
            let last_handed = crate::hooks::last_seen(config, &f.project, &file.root, &r.seat);
            HooksRow { seat: r.seat, state: r.state, last_handed, waiting }
        })
        .collect()
}

/// Whether the MCP entries are shown: once some seat's CLI names the server (a team that never
/// installed it reads as before).
pub fn mcp_shown(rows: &[crate::mcp::install::Row]) -> bool {
    use crate::mcp::install::State;
    !rows.iter().all(|r| matches!(r.state, State::Missing | State::Unsupported))
}

/// Whether the hooks are shown: once some seat's checkout runs team's hooks or an inbox holds a
/// message (a team that never installed them reads as before).
pub fn hooks_shown(rows: &[HooksRow]) -> bool {
    use crate::hooks::State;
    !rows.iter().all(|r| matches!(r.state, State::Missing | State::Unsupported) && r.waiting == 0)
}

/// The `team.status` document `d` with the hooks and MCP entries, each where it is shown.
pub fn document(mut d: StatusDoc, mcp: &[crate::mcp::install::Row], hooks: &[HooksRow]) -> StatusDoc {
    if hooks_shown(hooks) {
        d.hooks = Some(
            hooks
                .iter()
                .map(|h| HooksDoc {
                    seat: h.seat.clone(),
                    state: h.state.clone(),
                    last_handed: h.last_handed.clone(),
                    waiting: h.waiting,
                })
                .collect(),
        );
    }
    if mcp_shown(mcp) {
        d.mcp = Some(mcp.iter().map(McpDoc::of).collect());
    }
    d
}
