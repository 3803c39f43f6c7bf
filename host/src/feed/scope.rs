//! What one feed run reads: the team in view (or none: `--all`, or outside a checkout), its
//! history folders, its briefs' folder, its audit files, and the team file's seats that
//! `--seat` and `--stats` name.
//!
//! Invariant: a place the run names itself (`--audit`, `--briefs`) must be there — reading
//! nothing from it would look like an empty feed — and a `--seat` neither the team file nor
//! the history knows is a mistake said as one (exit 2), never an empty feed.

use std::path::{Path, PathBuf};

use super::{refusal, Event};
use crate::error::{self, TeamError};
use crate::history;

/// What the run asks to read beyond its checkout.
#[derive(Debug, Clone, Default)]
pub struct Want {
    /// Every project's history on this machine, not only the checkout's.
    pub all: bool,
    /// Desk audit lines from this `audit.jsonl` (or folder) instead of the lobby's.
    pub audit: Option<PathBuf>,
    /// Briefs from this folder instead of `<checkout>/briefs`.
    pub briefs: Option<PathBuf>,
}

/// What one run reads.
#[derive(Debug, Default)]
pub struct Scope {
    /// The single team the run names, `(project, session)` (`None` under `--all` or outside
    /// a checkout).
    pub team: Option<(String, String)>,
    /// History folders, each with the project name its events carry under `--all`.
    pub dirs: Vec<(Option<String>, PathBuf)>,
    pub briefs: Option<PathBuf>,
    pub audits: Vec<PathBuf>,
    /// (nickname, seat name) of the team file's seats, for `--seat @<nickname>`.
    pub nicknames: Vec<(String, String)>,
    /// (seat name, cli) of the team file's seats: the CLI `--stats` counts a line under when
    /// the line does not name one.
    pub clis: Vec<(String, String)>,
    /// `<config>`: the ladder a history read checks.
    pub config: PathBuf,
}

impl Scope {
    /// The scope of a run in `cwd` with the config folder `config`.
    pub fn of(want: &Want, cwd: &Path, config: &Path) -> error::Result<Scope> {
        let config = config.to_path_buf();
        for (flag, p) in [("--audit", &want.audit), ("--briefs", &want.briefs)] {
            if let Some(p) = p {
                if std::fs::symlink_metadata(p).is_err() {
                    return Err(TeamError::usage(format!("{flag} {}: no such file or folder", p.display())));
                }
            }
        }
        let loaded = if want.all { None } else { crate::team_file::find(cwd)? };
        let mut s = Scope { config: config.clone(), ..Scope::default() };
        match &loaded {
            Some(l) => {
                s.team = Some((l.file.project.clone(), l.file.session.clone()));
                s.dirs.push((None, history::project_dir(&config, &l.file.project, &l.root)));
                s.briefs = Some(want.briefs.clone().unwrap_or_else(|| l.root.join("briefs")));
                s.nicknames =
                    l.file.seats.iter().filter_map(|seat| Some((seat.nickname.clone()?, seat.name.clone()))).collect();
                s.clis = l.file.seats.iter().map(|seat| (seat.name.clone(), seat.cli.clone())).collect();
            }
            None => {
                s.dirs =
                    history::project_dirs(&config).map_err(refusal)?.into_iter().map(|(p, d)| (Some(p), d)).collect();
                s.briefs = want.briefs.clone();
            }
        }
        s.audits = match &want.audit {
            Some(p) => history::audit_files(p, None).map_err(refusal)?,
            None => history::audit_files(&config.join("lobby"), Some(&config)).map_err(refusal)?,
        };
        Ok(s)
    }

    /// The events `seat` sent or received (all of them with no seat); `check`: a seat neither
    /// the file nor these events know is refused ([`Scope::known_seat`]).
    pub fn of_seat(&self, mut events: Vec<Event>, seat: Option<&str>, check: bool) -> error::Result<Vec<Event>> {
        if let Some(seat) = seat {
            let seat = self.seat_name(seat);
            if check {
                self.known_seat(&seat, &events)?;
            }
            events.retain(|e| e.involves(&seat));
        }
        Ok(events)
    }

    /// `--seat <name>` names a seat of the team file, the owner, or a name the history holds;
    /// anything else is a mistake said as one (exit 2), with the nearest seat and the file's.
    pub fn known_seat(&self, seat: &str, events: &[Event]) -> error::Result<()> {
        let Some((project, _)) = &self.team else { return Ok(()) };
        let names: Vec<&str> = self.clis.iter().map(|(s, _)| s.as_str()).collect();
        if names.contains(&seat) || seat == "owner" || events.iter().any(|e| e.involves(seat)) {
            return Ok(());
        }
        let hint = crate::nearest::nearest(seat, names.iter().copied()).map(|n| format!(" (did you mean {n}?)"));
        let hint = hint.unwrap_or_default();
        Err(TeamError::usage(format!(
            "--seat {}: no seat of {project} has that name, and the history names no such sender or receiver{hint}; the file's seats are {}",
            crate::vocab::text::one_line(seat),
            if names.is_empty() { "none yet".to_string() } else { names.join(", ") }
        )))
    }

    /// The seat name `--seat` means: `@<nickname>` of a seat of the team file is that
    /// seat; anything else is taken as written.
    pub fn seat_name(&self, seat: &str) -> String {
        seat.strip_prefix('@')
            .and_then(|n| self.nicknames.iter().find(|(nick, _)| nick == n))
            .map(|(_, name)| name.clone())
            .unwrap_or_else(|| seat.to_string())
    }
}
