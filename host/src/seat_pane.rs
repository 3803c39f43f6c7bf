//! Reading a pane as a seat, without touching it: the CLI process in front of the pane's shell
//! (the one the seat's profile names) and the screen its profile reads. `register` refuses a
//! pane that fails either; `route` asks the first to know the pane runs the recorded CLI.
//!
//! Invariant: nothing here types, presses or writes; a pane is only read.

use crate::mux::{Mux, PaneInfo, Proc};
use crate::profiles::{Profile, State};

/// Why a pane's processes are not the seat's CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoCli {
    /// Nothing runs in front of the pane's shell.
    Nothing,
    /// Something does, and it is not the CLI the profile names.
    Other,
}

/// The pane's CLI process: a process below its shell that the profile's `process_names`
/// name; else, where the CLI is the pane's own first program (started with no shell: herdr
/// 0.7.1's `agent start <name> -- <argv>`), that program — whatever children it runs (Claude
/// Code runs `git` and `sh` at its prompt); else herdr's agent label standing for a name (a
/// wrapper it reads through), the first process below the shell. `procs` is the tree below
/// the shell (below the CLI itself when it is the pane's first program), `own` the pane's
/// first process.
pub fn cli_process(procs: &[Proc], own: Option<Proc>, names: &[String], label: Option<&str>) -> Result<Proc, NoCli> {
    let named = |p: &Proc| names.contains(&p.name);
    if let Some(p) = procs.iter().find(|p| named(p)) {
        return Ok(p.clone());
    }
    // the pane's own program is the CLI: its children are its own (a child taken for it would
    // carry no session of the CLI's: no socket, no session name)
    if let Some(o) = own.filter(named) {
        return Ok(o);
    }
    if procs.is_empty() {
        return Err(NoCli::Nothing);
    }
    if label.is_some_and(|l| names.iter().any(|n| n == l)) {
        return Ok(procs[0].clone());
    }
    Err(NoCli::Other)
}

/// The processes of a pane: the tree below its shell, and its own first process.
pub fn processes(
    mux: &dyn Mux,
    pane: &PaneInfo,
    seat: &str,
) -> Result<(Vec<Proc>, Option<Proc>), crate::mux::MuxError> {
    // herdr's own view of a pane lists its first process when that is the foreground (a shell
    // the CLI left, or a CLI started with no shell): that is the pane's own process, not one
    // in front of it
    let (own, procs): (Vec<Proc>, Vec<Proc>) =
        mux.foreground_processes(&pane.pane_ref(seat))?.into_iter().partition(|p| Some(p.pid) == pane.shell_pid);
    let own = own
        .into_iter()
        .next()
        .map(completed)
        .or_else(|| pane.shell_pid.map(crate::mux::proc_info))
        .filter(|p| !p.name.is_empty());
    Ok((procs, own))
}

/// herdr's view of a process names it without its HOME. Where `/proc` shows that very process
/// (the same name at that pid), its HOME (and a cwd herdr left out) is read there: a CLI herdr
/// 0.7.1 started with no shell and no child has no tree below it, so herdr's view is all there
/// is, and the CLI's sessions entry lies under its own HOME, which need not be the caller's.
fn completed(p: Proc) -> Proc {
    if p.home.is_some() {
        return p;
    }
    let real = crate::mux::proc_info(p.pid);
    if real.name != p.name {
        return p;
    }
    Proc { home: real.home, cwd: p.cwd.or(real.cwd), ..p }
}

/// How a refusal words a reading that is not the seat at its prompt.
pub fn reading_words(s: &State) -> String {
    match s {
        State::Idle => "idle".into(),
        State::Working(_) => "working".into(),
        State::Dialog(d) => {
            let kind = d.kind.label();
            if d.title.is_empty() {
                format!("a {kind} dialog")
            } else {
                format!("a {kind} dialog: {}", d.title)
            }
        }
        State::Starting => "the CLI is still starting".into(),
        State::Exited => "the CLI has exited".into(),
        State::Unknown(why) if why.is_empty() => "a screen this version does not recognise".into(),
        State::Unknown(why) => format!("a screen this version does not recognise: {why}"),
    }
}

/// Why a pane is not the seat at its prompt (its words name what it shows instead).
#[derive(Debug, thiserror::Error)]
pub enum NotAtPrompt {
    /// The multiplexer could not give its screen.
    #[error("its screen could not be read: {0}")]
    Unread(crate::mux::MuxError),
    /// The profile could not read the screen (a trap, a timeout).
    #[error("{}", .0.message())]
    Unreadable(crate::error::TeamError),
    /// It shows something else than a prompt (a dialog, a shell, …).
    #[error("{}", reading_words(.0))]
    Shows(State),
}

/// Reads the pane's screen through the seat's profile: `Ok(state)` when it is the seat at its
/// prompt (idle or working), `Err(why)` naming what it shows instead.
pub fn at_prompt(mux: &dyn Mux, pane: &PaneInfo, seat: &str, profile: &mut Profile) -> Result<State, NotAtPrompt> {
    let cap = mux.read_screen(&pane.pane_ref(seat)).map_err(NotAtPrompt::Unread)?;
    let reading = profile.classify(&cap.into_screen()).map_err(NotAtPrompt::Unreadable)?;
    match reading.state {
        s @ (State::Idle | State::Working(_)) => Ok(s),
        other => Err(NotAtPrompt::Shows(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pid: u32, name: &str) -> Proc {
        Proc { pid, name: name.into(), cwd: None, home: None }
    }

    #[test]
    fn herdr_s_view_of_a_process_gets_its_home_only_from_that_very_process() {
        let me = crate::mux::proc_info(std::process::id());
        assert!(me.home.is_some(), "this test process has a HOME");
        let seen = Proc { home: None, cwd: None, ..me.clone() };
        assert_eq!(completed(seen).home, me.home);
        // another name at that pid (a reused pid, another namespace's): nothing is taken from it
        let other = Proc { pid: std::process::id(), name: "claude".into(), cwd: None, home: None };
        assert_eq!(completed(other.clone()), other);
    }

    #[test]
    fn the_cli_is_the_process_the_profile_names() {
        let names = vec!["claude".to_string(), "claude.exe".to_string()];
        assert_eq!(cli_process(&[p(2, "node"), p(3, "claude")], None, &names, None), Ok(p(3, "claude")));
        assert_eq!(cli_process(&[], None, &names, None), Err(NoCli::Nothing));
        // the pane's own first program, started with no shell
        assert_eq!(cli_process(&[], Some(p(1, "claude")), &names, None), Ok(p(1, "claude")));
        assert_eq!(cli_process(&[], Some(p(1, "bash")), &names, None), Err(NoCli::Nothing));
        assert_eq!(cli_process(&[p(2, "codex")], None, &names, None), Err(NoCli::Other));
        // the pane's own program is the CLI, with children of its own: the CLI, not a child
        // (herdr 0.7.1's `agent start`; before: `git`, by the label)
        let kids = [p(4, "git"), p(5, "sh")];
        assert_eq!(cli_process(&kids, Some(p(1, "claude")), &names, Some("claude")), Ok(p(1, "claude")));
        assert_eq!(cli_process(&kids, Some(p(1, "bash")), &names, None), Err(NoCli::Other));
        // herdr's label reads a wrapper as the CLI
        assert_eq!(cli_process(&[p(2, "node")], None, &names, Some("claude")), Ok(p(2, "node")));
        assert_eq!(cli_process(&[p(2, "node")], None, &names, Some("codex")), Err(NoCli::Other));
    }
}
