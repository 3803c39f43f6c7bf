//! The places a rename reaches, as steps, and their words in one place: the dry run's plan
//! lines, the closing line's parts, the team.log detail.

use crate::mux::PaneInfo;

/// One place `team rename` changes (or would change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The team file's values that spell the seat: `line 9 (name:)`, …
    File { sites: Vec<String> },
    /// The file already declares the new name and no longer the old one: a rename an earlier
    /// run left half done, or a file renamed by hand. The other places follow it.
    FileAlready,
    /// The pane the multiplexer names the seat, named anew (`mark`: the name it is given, in
    /// the spelling the old one had: `<new>` or `<new>@<team>`).
    Pane { pane: PaneInfo, mark: String },
    /// No pane is named the seat; `why` says where none was found.
    NoPane { why: String },
    /// The seat's record in `.agents/team.state.json`.
    State,
    /// The seat's pane in the session's launched pointer under the state dir.
    Launched,
    /// The registry's agent records (their ids kept) and the team's roster line.
    Registry { agents: Vec<String>, roster: bool },
}

impl Step {
    /// The word `--json` carries.
    pub fn word(&self) -> &'static str {
        match self {
            Step::File { .. } | Step::FileAlready => "file",
            Step::Pane { .. } | Step::NoPane { .. } => "pane",
            Step::State => "state",
            Step::Launched => "launched",
            Step::Registry { .. } => "registry",
        }
    }

    /// What the step does, for the dry run's plan and the `--json` steps: `.agents/team.yaml
    /// line 4 (coordinator:) and line 9 (name:)`, `pane %3 (tmux's @team-seat mark)`, …
    pub fn detail(&self, mux: &str, session: &str) -> String {
        match self {
            Step::File { sites } => format!(".agents/team.yaml {}", and(sites)),
            Step::FileAlready => ".agents/team.yaml already declares the new name; it is not written".into(),
            Step::Pane { pane, mark } => match mux {
                "tmux" => format!("pane {}'s @team-seat mark in tmux session \"{session}\" (to {mark})", pane.id),
                _ => format!(
                    "pane {}'s agent name in {mux} session \"{session}\" (to {mark}), and its sidebar line",
                    pane.id
                ),
            },
            Step::NoPane { why } => format!("no pane: {why}"),
            Step::State => format!("its record of session \"{session}\" in .agents/team.state.json"),
            Step::Launched => format!("its pane in session \"{session}\"'s launched record (the state dir)"),
            Step::Registry { agents, roster } => {
                let mut parts = Vec::new();
                if !agents.is_empty() {
                    let s = if agents.len() == 1 { "" } else { "s" };
                    parts.push(format!("its registry record{s} {} (the id kept)", agents.join(", ")));
                }
                if *roster {
                    parts.push("its line in the team's roster (teams.yaml)".into());
                }
                and(&parts)
            }
        }
    }

    /// The dry run's line for the step: `lead: would rename <detail>`.
    pub fn plan_line(&self, seat: &str, mux: &str, session: &str) -> String {
        match self {
            Step::NoPane { why } => format!("{seat}: no pane to rename ({why})"),
            Step::FileAlready => format!("{seat}: the file already declares the new name; it is not written"),
            other => format!("{seat}: would rename {}", other.detail(mux, session)),
        }
    }

    /// The closing line's part for the step, when it names one: `the file`, `pane %3`, …
    fn part(&self) -> Option<String> {
        match self {
            Step::File { .. } => Some("the file".into()),
            Step::Pane { pane, .. } => Some(format!("pane {}", pane.id)),
            Step::State => Some("its state record".into()),
            Step::Registry { agents, roster } => Some(match agents.first() {
                Some(id) => format!("its registry record ({id})"),
                None if *roster => "its roster line".into(),
                None => return None,
            }),
            Step::FileAlready | Step::NoPane { .. } | Step::Launched => None,
        }
    }
}

/// What the steps before `upto` renamed, for a write that failed there: `the file and pane %3
/// were`, `the file was`.
pub fn done_before(steps: &[Step], upto: &Step) -> String {
    let parts: Vec<String> = steps.iter().take_while(|s| *s != upto).filter_map(Step::part).collect();
    match parts.len() {
        0 => "nothing was".into(),
        1 => format!("{} was", parts[0]),
        _ => format!("{} were", and(&parts)),
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The closing line: `lead: renamed to keeper2 — the file, pane %3, its state record and its
/// registry record (agt_…)`, with `; no pane was renamed (<why>)` when no pane is named the
/// seat; a dry run's `would be renamed to … ; nothing was written`.
pub fn closing(seat: &str, new: &str, steps: &[Step], dry_run: bool) -> String {
    let parts: Vec<String> = steps.iter().filter_map(Step::part).collect();
    let head = if dry_run { "would be renamed to" } else { "renamed to" };
    let mut line = format!("{seat}: {head} {new}");
    if !parts.is_empty() {
        line.push_str(&format!(" — {}", and(&parts)));
    }
    if steps.contains(&Step::FileAlready) {
        line.push_str(&format!("; the file already named it {new}"));
    }
    if let Some(Step::NoPane { why }) = steps.iter().find(|s| matches!(s, Step::NoPane { .. })) {
        line.push_str(&format!("; no pane {} renamed ({why})", if dry_run { "would be" } else { "was" }));
    }
    if dry_run {
        line.push_str("; nothing was written");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str) -> PaneInfo {
        PaneInfo {
            id: id.into(),
            session: "beacon".into(),
            shell_pid: None,
            name: "lead".into(),
            label: None,
            workspace: None,
            agent_session: None,
        }
    }

    #[test]
    fn the_closing_line_names_each_place() {
        let steps = vec![
            Step::File { sites: vec!["line 4 (coordinator:)".into(), "line 9 (name:)".into()] },
            Step::Pane { pane: pane("%3"), mark: "keeper2".into() },
            Step::State,
            Step::Launched,
            Step::Registry { agents: vec!["agt_00000000000000a1".into()], roster: true },
        ];
        assert_eq!(
            closing("lead", "keeper2", &steps, false),
            "lead: renamed to keeper2 — the file, pane %3, its state record and its registry record (agt_00000000000000a1)"
        );
        assert_eq!(
            closing("lead", "keeper2", &steps[..1], true),
            "lead: would be renamed to keeper2 — the file; nothing was written"
        );
        let none = vec![Step::File { sites: vec![] }, Step::NoPane { why: "tmux has no session \"beacon\"".into() }];
        assert_eq!(
            closing("lead", "keeper2", &none, false),
            "lead: renamed to keeper2 — the file; no pane was renamed (tmux has no session \"beacon\")"
        );
        assert_eq!(done_before(&steps, &Step::State), "the file and pane %3 were");
        assert_eq!(done_before(&steps[..1], &Step::State), "the file was");
        assert_eq!(done_before(&steps, &steps[0]), "nothing was");
        let resumed = vec![Step::FileAlready, Step::Registry { agents: vec![], roster: true }];
        assert_eq!(
            closing("lead", "keeper2", &resumed, false),
            "lead: renamed to keeper2 — its roster line; the file already named it keeper2"
        );
    }

    #[test]
    fn the_details_of_the_plan() {
        let f = Step::File { sites: vec!["line 4 (coordinator:)".into(), "line 9 (name:)".into()] };
        assert_eq!(f.detail("tmux", "beacon"), ".agents/team.yaml line 4 (coordinator:) and line 9 (name:)");
        let p = Step::Pane { pane: pane("%3"), mark: "keeper2@beacon".into() };
        assert_eq!(
            p.detail("tmux", "beacon"),
            "pane %3's @team-seat mark in tmux session \"beacon\" (to keeper2@beacon)"
        );
        let p = Step::Pane { pane: pane("w1:p2"), mark: "rev".into() };
        assert_eq!(
            p.detail("herdr", "beacon"),
            "pane w1:p2's agent name in herdr session \"beacon\" (to rev), and its sidebar line"
        );
        let r = Step::Registry { agents: vec!["agt_1".into(), "agt_2".into()], roster: true };
        assert_eq!(
            r.detail("tmux", "beacon"),
            "its registry records agt_1, agt_2 (the id kept) and its line in the team's roster (teams.yaml)"
        );
    }
}
