//! What a first team file leads to, decided from the plan: who may reach whom once it is
//! written (its lead and the others), and the commands to run next, each with why — on tmux
//! `team up`, a first send and `team down`; on herdr the seats' panes named the way herdr names
//! them, then check, hooks, status and a first send.

use super::Plan;

impl Plan {
    /// Who reaches whom through the lead (`None` without seats).
    pub fn reach_line(&self) -> Option<String> {
        let lead = self.lead.as_deref()?;
        let others: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).filter(|n| *n != lead).collect();
        Some(match others.as_slice() {
            [] => format!("{lead} leads the team: every seat you add reaches it, and it reaches them (docs/admission.md)"),
            [one] => format!("{lead} leads the team: {lead} and {one} may message each other (docs/admission.md)"),
            [head @ .., last] => format!(
                "{lead} leads the team: {lead} may message {} and {last}, and each of them may message {lead}; they reach each other through {lead} (docs/admission.md)",
                head.join(", ")
            ),
        })
    }

    /// The commands to run next, in order, each with why (empty: said on an earlier line).
    pub fn next_steps(&self) -> Vec<(String, String)> {
        let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
        let each: Vec<&str> = if names.is_empty() { vec!["<seat>"] } else { names.clone() };
        let mut steps: Vec<(String, String)> = Vec::new();
        if self.seats.is_empty() {
            steps.push(("edit .agents/team.yaml".into(), "uncomment a seat per agent and name it".into()));
        }
        if self.multiplexer != Some("herdr") && !self.seats.is_empty() {
            // tmux: the team starts its own seats (docs/launch.md)
            steps.push((
                "team up".into(),
                format!(
                    "starts each seat's CLI in a pane of tmux session \"{}\", at its prompt, recorded, its hooks and MCP entry installed (a first-run dialog waits for you in its pane)",
                    self.session
                ),
            ));
            steps.push((
                format!("team send {} \"hello\"", each[0]),
                "one message, proven taken; team feed shows it".into(),
            ));
            steps.push(("team down".into(), "stops each seat its own way (never over a draft)".into()));
            return steps;
        }
        for (i, seat) in each.iter().enumerate() {
            if self.multiplexer == Some("herdr") {
                steps.push((
                    format!("herdr --session {} agent rename <pane> {seat}", self.session),
                    if i == 0 { "names the seat's pane (its CLI running in it)".into() } else { String::new() },
                ));
            } else {
                let why = if i == 0 {
                    format!(
                        "inside the seat's tmux pane, its CLI running (or: team mark {seat} --pane <id>; team status lists the panes)"
                    )
                } else {
                    "inside its own pane".to_string()
                };
                steps.push((format!("team mark {seat}"), why));
            }
        }
        steps.push(("team check".into(), "reads the file back, with a note for anything it would not act on".into()));
        steps.push((
            "team hooks install".into(),
            "lets each seat's CLI take messages mid-turn through its own hooks (docs/inbox.md)".into(),
        ));
        steps.push(("team status".into(), "what each seat's screen shows now".into()));
        let first = each[0];
        steps.push((format!("team send {first} \"hello\""), "one message, proven taken; team feed shows it".into()));
        steps
    }
}
