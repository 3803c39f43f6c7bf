//! The launch facts a profile's description declares among its `features` — vendor facts, never
//! host constants: how its CLI is started (`launch=<shell line>`: `launch=claude`,
//! `launch=codex --no-daemon`) and how it is asked to leave at an empty prompt (`exit=<step>
//! …`: each step a key word of `vocab::key` or `type:<text>`, typed as one literal piece;
//! `exit=type:/exit enter`, `exit=ctrl-c`). docs/launch.md lists what each profile declares and
//! where it was measured.
//!
//! Invariant: a declaration this build cannot read whole (an unknown key word, an empty step,
//! a step list with nothing in it) declares nothing: the host never presses part of an exit it
//! cannot read, nor guesses a launch.

use crate::vocab::key::Key;

use super::Description;

/// The feature naming the CLI's own launch line.
pub const LAUNCH_FEATURE: &str = "launch=";
/// The feature naming the CLI's way out at an empty prompt.
pub const EXIT_FEATURE: &str = "exit=";

/// The feature saying the CLI writes its own OSC 7501 status reports whenever its stdout is a
/// terminal (Codex 0.171.0; docs/status-reports.md): `team up` pipes its pane's output so the
/// typed leg can read them. A CLI that reports only when its probe is answered (Claude Code)
/// does not declare it: a tmux pane never answers.
pub const STATUS_REPORTS_FEATURE: &str = "status-reports=osc7501";

/// Whether the description declares that its CLI writes OSC 7501 status reports.
pub fn reports_status(d: &Description) -> bool {
    d.features.iter().any(|f| f == STATUS_REPORTS_FEATURE)
}

/// One step of a CLI's way out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitStep {
    /// Typed literally, with no Enter.
    Type(String),
    /// Pressed on its own (an Enter after typed text waits the profile's enter pause first).
    Key(Key),
}

impl ExitStep {
    /// The step as a sentence names it (`/exit`, `Enter`).
    pub fn shown(&self) -> String {
        match self {
            ExitStep::Type(t) => t.clone(),
            ExitStep::Key(k) => k.name().to_string(),
        }
    }
}

/// The launch line the description declares (`None`: it declares none, or an empty one).
pub fn launch_line(d: &Description) -> Option<String> {
    d.features
        .iter()
        .find_map(|f| f.strip_prefix(LAUNCH_FEATURE))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.chars().any(char::is_control))
        .map(str::to_string)
}

/// The way out the description declares, whole (`None`: none, or one this build cannot read).
pub fn exit_steps(d: &Description) -> Option<Vec<ExitStep>> {
    let words = d.features.iter().find_map(|f| f.strip_prefix(EXIT_FEATURE))?;
    let steps: Option<Vec<ExitStep>> = words
        .split_whitespace()
        .map(|w| match w.strip_prefix("type:") {
            Some(t) if !t.is_empty() && !t.chars().any(char::is_control) => Some(ExitStep::Type(t.to_string())),
            Some(_) => None,
            None => Key::from_word(w).map(ExitStep::Key),
        })
        .collect();
    steps.filter(|s| !s.is_empty())
}

/// A way out as a sentence names it: `/exit, then Enter`.
pub fn shown(steps: &[ExitStep]) -> String {
    steps.iter().map(ExitStep::shown).collect::<Vec<_>>().join(", then ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(features: &[&str]) -> Description {
        Description { features: features.iter().map(|s| s.to_string()).collect(), ..Default::default() }
    }

    #[test]
    fn the_launch_and_the_way_out_are_read_whole_or_not_at_all() {
        let d = desc(&["hooks=claude-settings", "launch=claude", "exit=type:/exit enter"]);
        assert_eq!(launch_line(&d).as_deref(), Some("claude"));
        assert_eq!(exit_steps(&d), Some(vec![ExitStep::Type("/exit".into()), ExitStep::Key(Key::Enter)]));
        assert_eq!(shown(&exit_steps(&d).unwrap()), "/exit, then Enter");
        assert_eq!(exit_steps(&desc(&["exit=ctrl-c"])), Some(vec![ExitStep::Key(Key::CtrlC)]));
        // an unknown key, an empty text, nothing at all: no way out is declared
        assert_eq!(exit_steps(&desc(&["exit=ctrl-c ctrl-z"])), None);
        assert_eq!(exit_steps(&desc(&["exit=type: enter"])), None);
        assert_eq!(exit_steps(&desc(&["exit="])), None);
        assert_eq!(exit_steps(&desc(&[])), None);
        assert_eq!(launch_line(&desc(&["launch=  "])), None);
        assert_eq!(launch_line(&desc(&["launch=a\nb"])), None);
    }
}
