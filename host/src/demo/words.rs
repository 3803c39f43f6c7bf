//! The words `team demo` says around the sends and the feed it runs: each step as it comes,
//! the commands that drive a kept demo and remove it, and what to do next.
//!
//! Invariant: words only (the sends' and the feed's own words are theirs); a kept demo's
//! paths are shell words, so each line can be pasted as it is.

use std::path::Path;

use super::tour::{on_path, shell_word, Kept, Step};

impl Step<'_> {
    /// One step of the demo, in words (the sends' and the feed's own words come from them).
    pub fn said(&self) -> String {
        match self {
            Step::Ready { project } => format!(
                "A throwaway project in {} with two fake seats in a private tmux session:
  keeper    draws real Claude Code screens
  reviewer  draws real Codex screens

",
                project.display()
            ),
            Step::Sending { seat, message } => format!("$ team send {seat} \"{message}\"\n"),
            Step::Received { seat, line: Some(line) } => format!("  ({seat}'s terminal received one line: {line})\n\n"),
            Step::Received { line: None, .. } | Step::FeedDone => "\n".into(),
            Step::Feed => "$ team feed\n".into(),
        }
    }
}

/// What to do after the demo, with one's own agents.
pub const NEXT: &str = "Next, with your own agents (each in a tmux or herdr pane):
  team init                  in your project: writes .agents/team.yaml; declare a seat per agent there
  team mark <seat>           inside each seat's tmux pane (herdr: herdr agent rename <pane> <seat>)
  team status                what each seat's screen shows now
  team send <seat> \"hello\"   one message, proven taken; team feed shows what happened
";

impl Kept {
    /// The commands that drive the kept demo and the ones that remove it (`me`: this team).
    pub fn said(&self, me: &Path) -> String {
        let q = |p: &Path| shell_word(&p.display().to_string());
        let team = on_path(me).unwrap_or_else(|| q(me));
        let sock = q(&self.socket);
        format!(
            "Kept the demo: its folder {base} and its tmux server {sock}. To drive it:
  cd {project}
  export TEAM_CONFIG_DIR={config} TEAM_STATE_DIR={state} TEAM_TMUX_SOCKET={sock}
  {team} status
  {team} send reviewer \"one more\"
  {team} feed
  tmux -S {sock} attach -t demo     (the seats themselves; ctrl-b d detaches)
To remove it:
  tmux -S {sock} kill-server; rm -rf {base}

",
            base = q(&self.dir),
            project = q(&self.project),
            config = q(&self.config),
            state = q(&self.state),
        )
    }
}
