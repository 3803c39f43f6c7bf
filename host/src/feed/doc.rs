//! The `team.feed` and `team.feed.stats` documents, built from a listing's [`Report`] and the
//! `--stats` figures ([`Stats`]); their schemas are generated from these types
//! (`crate::schema`).
//!
//! Invariant: a document prints what the report holds and nothing more; `skipped` is left out
//! when nothing was skipped, and `project`/`session` are `null` when the run names no single
//! team (`--all`, or outside a checkout).

use schemars::JsonSchema;
use serde::Serialize;

use super::stats::Stats;
use super::{Event, Report, Scope, Skipped};
use crate::history::stats::Row;
use crate::vocab::doc::{Document, FormatOne, Named};

/// The document `team feed --json` prints: the project's message history (messages.jsonl,
/// .1, .2), its briefs and the Desk audit lines, oldest first. project and session are null
/// when the run names no single team (--all, or outside a checkout); message events then
/// carry their project.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedDoc<'a> {
    pub schema: Named<FeedDoc<'static>>,
    pub format: FormatOne,
    pub project: Option<&'a str>,
    pub session: Option<&'a str>,
    pub events: &'a [Event],
    /// How many lines of the history, receipts or audit files could not be read — those that
    /// do not parse, and those whose id is no message id (passed over, never shown:
    /// docs/watch.md); absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub skipped: Option<usize>,
}

impl Document for FeedDoc<'_> {
    const NAME: &'static str = "team.feed";
    const FILE: &'static str = "feed";
}

/// The document `team feed --stats --json` prints: delivery figures per CLI and profile
/// version over the history in view (one project's, or every project's with --all or outside
/// a checkout). One message id is one send however many lines it has (its retries, the
/// watch's later line). A line that names no cli is counted under the team file's cli for its
/// seat (in a checkout) or "-"; one that names no profile under "-". Percentiles are
/// nearest-rank over the spans present. See docs/watch.md.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsDoc<'a> {
    pub schema: Named<StatsDoc<'static>>,
    pub format: FormatOne,
    pub project: Option<&'a str>,
    pub session: Option<&'a str>,
    pub rows: &'a [Row],
    /// Every row together (cli "all", profile "-").
    pub total: &'a Row,
    /// How many lines of the history or receipts could not be read — those that do not parse,
    /// and those whose id is no message id; absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub skipped: Option<usize>,
}

impl Document for StatsDoc<'_> {
    const NAME: &'static str = "team.feed.stats";
    const FILE: &'static str = "feed-stats";
}

/// `(project, session)` as the documents print them.
fn team(t: &Option<(String, String)>) -> (Option<&str>, Option<&str>) {
    t.as_ref().map(|(p, s)| (Some(p.as_str()), Some(s.as_str()))).unwrap_or_default()
}

/// The count a document prints, when anything was skipped.
fn skipped(s: Skipped) -> Option<usize> {
    (s.lines > 0).then_some(s.lines)
}

impl Report {
    /// The `team.feed` document of this listing of `scope`.
    pub fn document<'a>(&'a self, scope: &'a Scope) -> FeedDoc<'a> {
        let (project, session) = team(&scope.team);
        FeedDoc {
            schema: Named::new(),
            format: FormatOne,
            project,
            session,
            events: &self.events,
            skipped: skipped(self.skipped),
        }
    }
}

impl Stats {
    /// The `team.feed.stats` document.
    pub fn document(&self) -> StatsDoc<'_> {
        let (project, session) = team(&self.team);
        StatsDoc {
            schema: Named::new(),
            format: FormatOne,
            project,
            session,
            rows: &self.rows,
            total: &self.total,
            skipped: skipped(self.skipped),
        }
    }
}
