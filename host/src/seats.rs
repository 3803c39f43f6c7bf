//! `team seats [--json]`: the records the team keeps of its seats in its session (what `team
//! up` and `team register` wrote, `team down` stopped) — seat, stage, CLI, pane, pid, since,
//! launch line: the roster `team send`, `team watch` and `team down` address.
//!
//! Invariant: it reads the state file and nothing else; nothing is typed or written.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::TeamError;
use crate::state::State;
use crate::vocab::doc::{Document, FormatOne, Named};
use crate::vocab::table::table;
use crate::vocab::text::one_line;
use crate::workspace::Workspace;

/// One seat's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRecord {
    #[schemars(length(min = 1))]
    pub seat: String,
    /// `ready`, `stopped`, or the stage a launch wrote on the way.
    #[schemars(length(min = 1))]
    pub stage: String,
    pub cli: Option<String>,
    /// The CLI's version as its installed package named it when `team up` launched it.
    pub cli_version: Option<String>,
    pub pane: Option<String>,
    /// The recorded CLI process.
    pub pid: Option<u32>,
    /// When it was recorded (RFC 3339).
    pub since: Option<String>,
    /// The line its shell ran, when `team up` launched it.
    pub launch_line: Option<String>,
}

/// The document `team seats --json` prints: the project, the session, and every record of it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatsDoc {
    pub schema: Named<SeatsDoc>,
    pub format: FormatOne,
    #[schemars(length(min = 1))]
    pub project: String,
    #[schemars(length(min = 1))]
    pub session: String,
    pub seats: Vec<SeatRecord>,
}

impl Document for SeatsDoc {
    const NAME: &'static str = "team.seats";
    const FILE: &'static str = "seats";
}

/// The records of the checkout's session, in the file's seat order (a record of a seat the
/// file no longer declares last).
pub fn run_here(ws: &Workspace) -> Result<SeatsDoc, TeamError> {
    let file = ws.team_in_checkout()?;
    let f = &file.file;
    let st = State::load(&file.root)?;
    let mut recs = st.seats(&f.session);
    let order = |s: &str| f.seats.iter().position(|x| x.name == s).unwrap_or(usize::MAX);
    recs.sort_by_key(|(n, _)| order(n));
    let text = |r: &serde_json::Map<String, serde_json::Value>, k: &str| {
        r.get(k).and_then(serde_json::Value::as_str).map(str::to_string)
    };
    let seats = recs
        .into_iter()
        .map(|(name, r)| SeatRecord {
            seat: name,
            stage: text(&r.raw, "stage").unwrap_or_else(|| "unknown".into()),
            cli: r.cli.clone(),
            cli_version: text(&r.raw, "cli_version"),
            pane: r.pane.clone(),
            pid: r.process.map(|p| p.pid),
            since: text(&r.raw, "registered"),
            launch_line: text(&r.raw, "launch_line"),
        })
        .collect();
    Ok(SeatsDoc {
        schema: Named::new(),
        format: FormatOne,
        project: f.project.clone(),
        session: f.session.clone(),
        seats,
    })
}

/// The records as a table (`SEAT STAGE CLI PANE PID SINCE LAUNCH`), or the sentence that there
/// are none.
pub fn words(d: &SeatsDoc) -> String {
    if d.seats.is_empty() {
        return format!(
            "no seat of session \"{}\" is recorded; team up starts them, team register records one started by hand\n",
            one_line(&d.session)
        );
    }
    let dash = || "-".to_string();
    let mut rows = vec![["SEAT", "STAGE", "CLI", "PANE", "PID", "SINCE", "LAUNCH"].map(String::from).to_vec()];
    for s in &d.seats {
        rows.push(vec![
            one_line(&s.seat).into_owned(),
            one_line(&s.stage).into_owned(),
            match (&s.cli, &s.cli_version) {
                (Some(c), Some(v)) => format!("{} {}", one_line(c), one_line(v)),
                (Some(c), None) => one_line(c).into_owned(),
                (None, _) => dash(),
            },
            s.pane.as_deref().map(|c| one_line(c).into_owned()).unwrap_or_else(dash),
            s.pid.map(|p| p.to_string()).unwrap_or_else(dash),
            s.since.as_deref().map(|c| one_line(c).into_owned()).unwrap_or_else(dash),
            s.launch_line.as_deref().map(|c| one_line(c).into_owned()).unwrap_or_else(dash),
        ]);
    }
    table(&rows)
}
