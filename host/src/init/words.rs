//! The words `team init` says of what it wrote: the team file with its seats and multiplexer,
//! the `.gitignore`, the instructions files, what is missing around it, who reaches whom and
//! the commands to run next.
//!
//! Invariant: words only; a path or a name from outside is shown escaped (`one_line`).

use super::{MuxFrom, Plan, Written, Wrote, IGNORED};
use crate::error::context_line;
use crate::vocab::text::one_line;

impl Plan {
    /// What a run that wrote `w` says: the context line, what was written (with the seats and
    /// the multiplexer), the `.gitignore` and instructions files, the caveats, who reaches
    /// whom, and the next steps' table.
    pub fn said(&self, w: &Written) -> String {
        let rel = |path: &std::path::Path| crate::team_file::shown(path, &self.cwd);
        let mut t = context_line(&self.project, &self.session);
        let seats = match self.seats.len() {
            0 => "no seat yet: the examples in it are commented out".to_string(),
            n => format!(
                "{n} seat{}: {}",
                if n == 1 { "" } else { "s" },
                self.seats.iter().map(|s| format!("{} ({})", s.name, s.cli)).collect::<Vec<_>>().join(", ")
            ),
        };
        let mux = match (self.multiplexer, self.multiplexer_from) {
            (Some(m), MuxFrom::Installed) => format!(", multiplexer {m}: found installed"),
            (Some(m), _) => format!(", multiplexer {m}"),
            (None, _) => String::new(),
        };
        t.push_str(&format!("wrote {} ({seats}{mux})\n", one_line(&rel(&w.team_file))));
        if w.ignored_added.is_empty() {
            t.push_str(&format!("{} already keeps {} out of git\n", rel(&w.gitignore), IGNORED.join(", ")));
        } else {
            let verb = if w.gitignore_existed { "added to" } else { "wrote" };
            t.push_str(&format!("{verb} {} (keeps {} out of git)\n", rel(&w.gitignore), w.ignored_added.join(", ")));
        }
        for (path, wrote) in &w.instructions {
            let shown = one_line(&rel(path)).into_owned();
            t.push_str(&match wrote {
                Wrote::Created => format!("wrote {shown} (what an agent reads about team send)\n"),
                Wrote::Added => format!("added to {shown}: what an agent reads about team send\n"),
                Wrote::AlreadyThere => format!("{shown} already tells its agents about team send\n"),
            });
        }
        if !self.in_git {
            t.push_str("(this folder is not in a git checkout: team finds the file from here and the folders below)\n");
        }
        if self.multiplexer.is_none() {
            t.push_str(
                "(neither herdr nor tmux is installed: install one, and write it as multiplexer: in the file)\n",
            );
        }
        if let Some(line) = self.reach_line() {
            t.push_str(&format!("{}\n", one_line(&line)));
        }
        let steps = self.next_steps();
        t.push_str("next:\n");
        let rows: Vec<[String; 2]> = steps.into_iter().map(|(c, why)| [one_line(&c).into_owned(), why]).collect();
        t.push_str(&crate::vocab::table::table(&rows));
        t
    }
}
