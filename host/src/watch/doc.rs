//! The lines of `team watch --json` (JSON Lines, `schema/watch.schema.json`): what a pass did
//! ([`Event`]) or what the run itself says ([`Run`]), each stamped with the schema, the
//! format, the time it was printed and the project watched. Their schema is generated from
//! these types (`crate::schema`).
//!
//! Invariant: a line prints the event's own members first (`event` leading), then the stamp;
//! never a message body.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Event, Pass};
use crate::vocab::doc::{Document, FormatOne, Named};

/// One line of `team watch --json`: JSON Lines, one object per line, since a watch runs until
/// it is stopped. Every line carries the schema, the format, the time it was printed and the
/// project watched; `event` says what it is. A watch prints one line per thing it does and
/// never a message body; a confirmation is recorded (receipts.jsonl) and printed by nobody.
/// An invocation that cannot start (no team file, a second watch) prints the team.error
/// document instead, on one line. See docs/watch.md.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineDoc<'a> {
    #[serde(flatten)]
    pub said: Said<'a>,
    pub schema: Named<LineDoc<'static>>,
    pub format: FormatOne,
    #[schemars(extend("format" = "date-time"))]
    pub ts: String,
    pub project: &'a str,
    pub session: &'a str,
}

impl Document for LineDoc<'_> {
    const NAME: &'static str = "team.watch";
    const FILE: &'static str = "watch";
}

/// What a line says: a thing a pass did, or what the run says of itself.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Said<'a> {
    Event(&'a Event),
    Run(Run),
}

/// What the run says of itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Run {
    /// The watch took the project's lock and began (not printed by --once).
    Started {
        #[schemars(range(min = 1))]
        pid: u32,
    },
    /// Something the pass could not do (the team file could not be read, a record could not
    /// be written), or lines of the history or the receipts passed over because their id is
    /// no message id; each is said once for the life of the watch, and it goes on.
    Problem { message: String },
    /// The end of the one pass of --once, with what it did.
    Pass { retried: usize, stopped: usize, never_acted_on: usize },
}

impl Pass {
    /// What the one pass of `--once` did: how many sends it retried, stopped retrying, and
    /// said were taken but never acted on.
    pub fn summary(&self) -> Run {
        let count = |f: fn(&Event) -> bool| self.events.iter().filter(|e| f(e)).count();
        Run::Pass {
            retried: count(|e| matches!(e, Event::Retried { .. } | Event::SentAgain { .. })),
            stopped: count(|e| matches!(e, Event::Stopped { .. })),
            never_acted_on: count(|e| matches!(e, Event::NeverActedOn { .. })),
        }
    }
}

impl<'a> LineDoc<'a> {
    /// The line of `said`, printed at `ts` by the watch of `project` and `session`.
    pub fn new(said: Said<'a>, ts: String, project: &'a str, session: &'a str) -> Self {
        LineDoc { said, schema: Named::new(), format: FormatOne, ts, project, session }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use std::path::PathBuf;

    /// A line as `cli::watch` printed it before the document was typed: the event's own
    /// members, then the stamp added to the object.
    fn stamped(mut v: Value) -> String {
        v["schema"] = json!({"name": "team.watch", "version": 1});
        v["format"] = json!(1);
        v["ts"] = json!("2026-11-29T09:00:00Z");
        v["project"] = json!("beacon");
        v["session"] = json!("s");
        serde_json::to_string(&v).unwrap()
    }

    fn line(said: Said<'_>) -> String {
        serde_json::to_string(&LineDoc::new(said, "2026-11-29T09:00:00Z".into(), "beacon", "s")).unwrap()
    }

    #[test]
    fn a_line_prints_the_event_then_the_stamp() {
        let retried = Event::Retried {
            seat: "rev".into(),
            from: "owner".into(),
            id: "id1".into(),
            n: 2,
            tries: 3,
            outcome: "held".into(),
            detail: Some("busy".into()),
            drop: PathBuf::from("/r/d"),
        };
        assert_eq!(line(Said::Event(&retried)), stamped(serde_json::to_value(&retried).unwrap()));
        assert_eq!(line(Said::Run(Run::Started { pid: 7 })), stamped(json!({"event": "started", "pid": 7})));
        assert_eq!(
            line(Said::Run(Run::Problem { message: "m".into() })),
            stamped(json!({"event": "problem", "message": "m"}))
        );
        let pass = Pass { events: vec![retried], ..Pass::default() };
        assert_eq!(
            line(Said::Run(pass.summary())),
            stamped(json!({"event": "pass", "retried": 1, "stopped": 0, "never_acted_on": 0}))
        );
    }
}
