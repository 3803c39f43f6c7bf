//! `team profile list | check | explain | test`, below the command line: which profiles are
//! installed and which one each seat would use, a vendor's validation of a component, the
//! reading of one captured screen, and the conformance run over a folder of screens. Each
//! returns a report with its verdict, said in `words`; `cli::profile` prints it (or `--json`).
//!
//! Invariant: these load only what they report on — `list` compiles dropped-in files (to
//! validate them) and no bundled one; `check` and `test` load the one file; `explain` loads
//! the one profile the current team would use for the cli (or the file it is given).

use std::path::PathBuf;

use crate::ctx::Ctx;
use crate::error::{self, TeamError};
use crate::profiles::{Available, ProfileHost};

mod check;
mod conformance;
pub mod doc;
pub mod doc_list;
mod explain;
mod words;

pub use check::{check, CheckReport, Step, StepFailure, StepName};
pub use conformance::{conformance, Checked, Conformance};
pub use explain::{explain, parse_size, Explained, Request};

/// What `team profile list` shows: every installed profile, and the current team's choice.
pub struct Listing {
    pub profiles: Vec<Available>,
    pub team: Option<TeamProfiles>,
}

/// The team file in scope and the profile each of its seats would use.
pub struct TeamProfiles {
    pub project: String,
    pub session: String,
    pub file: PathBuf,
    pub pins: std::collections::BTreeMap<String, String>,
    pub seats: Vec<SeatProfile>,
}

/// One seat's profile: the installed one `load` would use, or why none can be.
pub struct SeatProfile {
    pub seat: String,
    pub cli: String,
    pub pin: Option<String>,
    pub profile: error::Result<Available>,
}

/// The team file in scope (walking up from the cwd), if any.
fn current_team(ctx: &Ctx) -> error::Result<Option<crate::team_file::Loaded>> {
    let cwd = ctx.cwd()?;
    crate::team_file::find(&cwd)
}

/// `team profile list`: nothing bundled is loaded; a dropped-in file is validated.
pub fn list(host: &ProfileHost, ctx: &Ctx) -> error::Result<Listing> {
    let team = current_team(ctx)?;
    let profiles = host.available();
    let team = team.map(|t| {
        let seats = t
            .file
            .seats
            .iter()
            .map(|seat| SeatProfile {
                seat: seat.name.clone(),
                cli: seat.cli.clone(),
                pin: t.file.profiles.get(&seat.cli).cloned(),
                profile: host.resolve(&seat.cli, &t.file.profiles, &profiles).cloned(),
            })
            .collect();
        TeamProfiles {
            project: t.file.project.clone(),
            session: t.file.session.clone(),
            file: t.path.clone(),
            pins: t.file.profiles.clone(),
            seats,
        }
    });
    Ok(Listing { profiles, team })
}

/// A file named on the command line that is not there.
fn no_such_file(file: &std::path::Path) -> TeamError {
    TeamError::usage(format!("{}: no such file", file.display()))
}
