//! The MCP face's seats (issue 30): `team_add` starts one seat of the team file into the
//! running session as `team add` starts it, `team_stop` stops seats as `team down` stops them —
//! and what a launch installs before a seat's CLI starts (its hooks, `team hooks install`, and
//! its MCP entry, `team mcp install`), shared with `team up` and `team add`.
//!
//! Invariants: a tool runs the command's own use-case (`up::run_here`, `down::run_here`), so it
//! starts only a seat the file declares, through the launch the owner approved or the profile
//! declares, and stops a seat only at an idle prompt with an empty composer; the caller is
//! judged first as `team up` is judged, narrowed among the team's own seats to its lead
//! (`register::who::admit_lead`), and a refused caller starts, presses and writes nothing. A
//! file that cannot be written stops nothing: it is said, and the seat starts without it (the
//! CLI reads these files at its start, so they are written before it).

use std::time::Duration;

use crate::caller::Caller;
use crate::ctx::Ctx;
use crate::error::TeamError;
use crate::project_files::Action;
use crate::workspace::Workspace;

/// How long `team_add` waits, in all, for the seat to reach its prompt: below the 60 s a
/// client gives a tool call by default (Codex's `tool_timeout_sec`), so the answer arrives.
pub const ADD_BOUND: Duration = Duration::from_secs(40);

/// Installs the hooks (`hooks`) and the MCP entry (`mcp`) of the seats `names`; answers the
/// lines to say about what could not be written.
pub fn prepare(ws: &Workspace, names: &[String], hooks: bool, mcp: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if hooks {
        if let Err(e) = crate::hooks::run_here(ws, names, Action::Install) {
            notes.push(format!("the seats' hooks were not installed: {}", e.message()));
        }
    }
    if mcp {
        if let Err(e) = super::install::run_here(ws, names, Action::Install) {
            notes.push(format!("the seats' MCP entries were not installed: {}", e.message()));
        }
    }
    notes
}

/// `team_add`: the seat `seat` of the file, started into the team's session as `team add
/// <seat>` starts it (hooks and MCP entry installed first), for `caller` — the caller this
/// call found.
pub fn add(ctx: &Ctx, caller: &Caller, seat: &str) -> Result<crate::up::Report, TeamError> {
    let ws = Workspace::new(ctx);
    admit(&ws, caller, "add")?;
    let prepare = |names: &[String]| prepare(&ws, names, true, true);
    let req = crate::up::Request {
        verb: crate::up::Verb::Add,
        seat: Some(seat.to_string()),
        dry_run: false,
        timeout: ADD_BOUND,
    };
    crate::up::run_here(&crate::up::Means { ws: &ws, prepare: &prepare }, &req)
}

/// `team_stop`: the seats `seats`, stopped as `team down <seat>…` stops them (never forced).
pub fn stop(ctx: &Ctx, caller: &Caller, seats: Vec<String>) -> Result<crate::down::Report, TeamError> {
    let ws = Workspace::new(ctx);
    admit(&ws, caller, "down")?;
    crate::down::run_here(&ws, &crate::down::Request { seats, force: false, dry_run: false })
}

/// Judges the caller for the command `verb` (`add`, `down`): `register::who::admit_lead`, its
/// refusal under the command's id (`add.lead`, `down.delegates`, …) and in its words.
fn admit(ws: &Workspace, caller: &Caller, verb: &str) -> Result<(), TeamError> {
    let file = ws.team_in_checkout()?;
    crate::register::who::admit_lead(&file.file, caller, &ws.ctx.paths.config, ws.ctx.clock.now()).map(|_| ()).map_err(
        |e| {
            let row = e.id.strip_prefix("register.").unwrap_or(&e.id).to_string();
            let msg = if row == "caller" {
                format!(
                    "only the owner, the team's lead or a delegate for `up` starts or stops the team's seats; this call is {}",
                    caller.describe()
                )
            } else {
                e.message()
            };
            let mut out = TeamError::new(e.kind, msg).with_id(format!("{verb}.{row}"));
            out.hints = e.hints;
            out
        },
    )
}
