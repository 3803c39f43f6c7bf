//! The writes of a rename, in order: the pane's name and sidebar (the one place an outside
//! program may refuse the name: then nothing else is written), the file, the state's record,
//! the launched pointer, the registry's records.
//!
//! Invariant: no edit of the file is ever written over — the file is compared with the text
//! the plan was made on before the pane is renamed and again before the file is written (the
//! pane step waits on the multiplexer), and a changed file puts the pane's name back and
//! renames nothing; a write that fails after the file's says what was renamed, and the same
//! run again finishes the rest.

use super::{edited_meanwhile, read_now, refuse, steps, Means, Plan, Step, SEND_WAIT};
use crate::error::TeamError;
use crate::mux::PaneInfo;
use crate::registry;
use crate::state;
use crate::team_file::Loaded;

/// The seat locks of the old name and the new, waited for behind a send up to [`SEND_WAIT`]:
/// no send types into the pane while it changes name.
pub(super) fn seat_locks(
    m: &Means,
    session: &str,
    old: &str,
    new: &str,
) -> Result<(crate::legs::typed::SeatLock, crate::legs::typed::SeatLock), TeamError> {
    let lock = |seat: &str| {
        crate::legs::typed::lock_seat(&m.ctx.paths.state, session, seat, "rename", SEND_WAIT)
            .map_err(|e| refuse("lock", format!("{e}; nothing was renamed")))
    };
    Ok((lock(old)?, lock(new)?))
}

/// Writes every planned place (the seat locks held); a note is added when the sidebar lines
/// could not be written.
pub(super) fn write(
    m: &Means,
    file: &Loaded,
    plan: &Plan,
    old: &str,
    new: &str,
    notes: &mut Vec<String>,
) -> Result<(), TeamError> {
    let (f, steps, text) = (&plan.before, &plan.steps, &plan.text);
    let (mux, session) = (m.mux, &f.session);
    // a hand edit takes no lock: the file must still be the text the plan was made on
    if read_now(file)?.as_deref() != Some(text.as_str()) {
        return Err(edited_meanwhile(file, old, new));
    }
    let pane_step = steps.iter().find_map(|s| match s {
        Step::Pane { pane, mark } => Some((pane, mark)),
        _ => None,
    });
    if let Some((pane, mark)) = pane_step {
        name_pane(m, plan, pane, mark, new, notes)?;
    }
    // a write that fails after the first: say what was renamed, and that the same run again
    // finishes the rest (it renames what still names the old seat)
    let part_way = |upto: &Step, e: TeamError| {
        let done = steps::done_before(steps, upto);
        TeamError::failed(format!("{}; {done} renamed, the rest still names {old}", e.message()))
            .with_id("rename.part-way")
            .with_repair(format!("run team rename {old} {new} again: it renames what still names {old}"))
    };
    // the pane goes back to the name the file still gives it
    let unname = || {
        if let Some((pane, _)) = pane_step {
            let _ = mux.name_pane(session, &pane.id, &pane.name);
        }
    };
    // the pane step waited on the multiplexer: an edit made meanwhile is never written over
    if read_now(file)?.as_deref() != Some(text.as_str()) {
        unname();
        return Err(edited_meanwhile(file, old, new));
    }
    if let Some(edited) = &plan.edited {
        if let Err(e) = crate::fsx::rewrite_keeping_mode(&file.path, edited.as_bytes()) {
            unname();
            return Err(TeamError::failed(format!("the team file could not be written ({e}); nothing was renamed"))
                .with_id("rename.write"));
        }
    }
    for step in steps {
        match step {
            Step::State => {
                let mut st = plan.state.clone();
                st.rename_seat(session, old, new);
                st.save(&file.root).map_err(|e| part_way(step, e))?;
            }
            Step::Launched => {
                state::rename_launched(&m.ctx.paths.state, session, old, new).map_err(|e| part_way(step, e))?;
            }
            Step::Registry { .. } => {
                registry::rename_seat(&m.ctx.paths.config, &f.team, old, new).map_err(|e| part_way(step, e))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Gives the pane its new name (refused when the multiplexer does not take it: nothing is
/// written then) and its sidebar lines from the edited file.
fn name_pane(
    m: &Means,
    plan: &Plan,
    pane: &PaneInfo,
    mark: &str,
    new: &str,
    notes: &mut Vec<String>,
) -> Result<(), TeamError> {
    let (mux, f) = (m.mux, &plan.before);
    let took = mux
        .name_pane(&f.session, &pane.id, mark)
        .map_err(|e| refuse("mux", format!("{} doesn't answer: {e}; nothing was renamed", mux.name())))?;
    if !took {
        return Err(refuse(
            "pane-name",
            format!("{} did not take the name {mark} for pane {}; nothing was renamed", mux.name(), pane.id),
        )
        .with_repair(format!("choose a name {} takes (docs/multiplexers.md)", mux.name())));
    }
    let after = crate::team_file::parse(plan.edited.as_deref().unwrap_or(&plan.text));
    if let Some(seat) = after.as_ref().ok().and_then(|a| a.seat(new).cloned()) {
        let (label, display) = crate::register::sidebar_lines(&f.team, &seat);
        let shown = PaneInfo { name: mark.to_string(), ..pane.clone() };
        if let Err(e) = mux.sidebar(&shown, &label, &display) {
            notes.push(format!("{new}: the sidebar lines could not be written ({e})"));
        }
    }
    Ok(())
}
