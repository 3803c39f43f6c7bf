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
    // by `comm` first, then by the command line: a launcher named by its script (`node
    // …/.bin/codex`) never stands for the CLI process it runs (`codex`)
    let by_comm = |p: &Proc| names.contains(&p.name);
    let by_argv = |p: &Proc| program_names(p.pid).iter().any(|n| names.contains(n));
    for named in [&by_comm as &dyn Fn(&Proc) -> bool, &by_argv] {
        if let Some(p) = procs.iter().find(|p| named(p)) {
            return Ok(p.clone());
        }
        // the pane's own program is the CLI: its children are its own (a child taken for it
        // would carry no session of the CLI's: no socket, no session name)
        if let Some(o) = own.as_ref().filter(|o| named(o)) {
            return Ok(o.clone());
        }
    }
    if procs.is_empty() {
        return Err(NoCli::Nothing);
    }
    if label.is_some_and(|l| names.iter().any(|n| n == l)) {
        return Ok(procs[0].clone());
    }
    Err(NoCli::Other)
}

/// Programs that run a CLI given as a script: the process is the runner (`comm` is `node`),
/// the CLI is the script it was given (`node <prefix>/node_modules/.bin/gemini`).
const SCRIPT_RUNNERS: &[&str] = &["node", "nodejs", "bun", "deno", "python", "python3"];

/// The names a process's command line gives the program it runs, besides its `comm`: the file
/// name of argv[0] (Copilot's single executable renames its process `MainThread`; argv[0] is
/// `…/copilot`), and after a script runner the script's (`node …/.bin/qwen`, whose `comm` is
/// `node`). Empty where the command line cannot be read.
fn program_names(pid: u32) -> Vec<String> {
    let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else { return Vec::new() };
    let argv: Vec<String> =
        raw.split(|b| *b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
    let file = |a: &str| a.rsplit('/').next().unwrap_or(a).to_string();
    let Some(first) = argv.first().map(|a| file(a)) else { return Vec::new() };
    let mut out = vec![first.clone()];
    if SCRIPT_RUNNERS.contains(&first.as_str()) {
        out.extend(argv.iter().skip(1).find(|a| !a.starts_with('-')).map(|a| file(a)));
    }
    out
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

    /// A real process whose `comm` is not its CLI's name; killed on drop.
    struct Running(std::process::Child);
    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    #[test]
    fn a_cli_run_by_node_or_renamed_by_its_own_thread_is_named_by_its_command_line() {
        use std::os::unix::process::CommandExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("node_modules/.bin");
        std::fs::create_dir_all(&bin).unwrap();
        // `node <prefix>/node_modules/.bin/gemini` (Gemini CLI, Qwen Code, the Copilot loader):
        // `comm` is the runner's; here python3 stands for node, a runner all the same
        std::fs::write(bin.join("gemini"), "import time\ntime.sleep(30)\n").unwrap();
        let script =
            Running(std::process::Command::new("python3").arg("-u").arg(bin.join("gemini")).spawn().expect("python3"));
        // Copilot's single executable: `comm` is its thread's `MainThread`, argv[0] `…/copilot`
        let renamed =
            Running(std::process::Command::new("sleep").arg0(dir.path().join("copilot")).arg("30").spawn().unwrap());
        // (each once the child has exec'd its program and the kernel has set its command
        // line, which comes a moment after its new comm; a `python3` on PATH may be a wrapper
        // — pyenv's shim is a bash script named python3 — that execs the real one after it)
        let proc_of = |r: &Running, comm: &str, argv0: &str| {
            let t = std::time::Instant::now();
            loop {
                let p = crate::mux::proc_info(r.0.id());
                if p.name == comm && program_names(p.pid).first().map(String::as_str) == Some(argv0) {
                    return p;
                }
                assert!(t.elapsed() < std::time::Duration::from_secs(10), "{comm} never ran: {p:?}");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        };
        // their comm is not their CLI's name
        let (s, c) = (proc_of(&script, "python3", "python3"), proc_of(&renamed, "sleep", "copilot"));
        let gemini = vec!["gemini".to_string()];
        assert_eq!(cli_process(std::slice::from_ref(&s), None, &gemini, None), Ok(s.clone()));
        assert_eq!(cli_process(std::slice::from_ref(&c), None, &["copilot".to_string()], None), Ok(c.clone()));
        // a process named by its comm wins over one named by its command line only (Codex's
        // `node …/.bin/codex` launcher and the `codex` it runs): the CLI itself
        let child = Proc { pid: c.pid, name: "copilot".into(), cwd: None, home: None };
        let copilot = vec!["copilot".to_string()];
        assert_eq!(cli_process(&[c.clone(), child.clone()], None, &copilot, None), Ok(child.clone()));
        assert_eq!(cli_process(std::slice::from_ref(&c), Some(child.clone()), &copilot, None), Ok(child));
        // another CLI's names do not take them; nor does a script given to a non-runner
        assert_eq!(cli_process(&[s.clone(), c.clone()], None, &["qwen".to_string()], None), Err(NoCli::Other));
        assert_eq!(cli_process(std::slice::from_ref(&c), None, &["30".to_string()], None), Err(NoCli::Other));
    }
}
