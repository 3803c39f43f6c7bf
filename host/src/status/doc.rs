//! The `team.status` document (`team status --json`), built from a [`StatusReport`] and the
//! hooks and MCP rows the command reads beside it, with the report's summary and its reasons
//! grouped by seat, which the table says too; its schema is generated from these types
//! (`crate::schema`).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Last, Reads, Row, StatusReport, Unplaced};
use crate::vocab::doc::{Document, FormatOne, Named};

use crate::mcp::install::State;

/// The document `team status --json` prints: one entry per seat of the roster `team send
/// --list` prints — its pane, its CLI, what its profile reads on that pane now, the
/// multiplexer's own status where it has one, and the last message to it from the history.
/// Nothing was typed to read it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints caller and unplaced; the spec's own examples predate them)
#[schemars(transform = crate::vocab::doc::not_required(&["caller", "unplaced"]))]
pub struct StatusDoc {
    pub schema: Named<StatusDoc>,
    pub format: FormatOne,
    /// The team file's project; null outside a checkout.
    pub project: Option<String>,
    pub session: Option<String>,
    pub seats: Vec<SeatDoc>,
    #[schemars(regex(pattern = r"^[0-9]+ seats?(: .+)?$"))]
    pub summary: String,
    /// Who ran it, as refusals name a caller: `the owner`, `seat rev of shop`, `unplaced (…)`,
    /// `a run with no terminal`.
    #[schemars(length(min = 1))]
    pub caller: String,
    /// The panes of the team's session that no seat holds and that run an agent CLI, each with
    /// the line that marks it as a seat's (tmux; herdr names its agents itself and lists none).
    pub unplaced: Vec<UnplacedDoc>,
    /// Each seat's hooks (team hooks status), present once some seat's checkout runs team's
    /// hooks or some inbox holds a message: the state, when the hooks last handed the seat a
    /// message (null: never), and how many messages wait in its inbox (docs/inbox.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hooks: Option<Vec<HooksDoc>>,
    /// Each seat's MCP entry (team mcp status): whether its CLI's project-level configuration
    /// runs this team's MCP server, and the file (null for a CLI with none); present once some
    /// seat's CLI names the server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp: Option<Vec<McpDoc>>,
}

impl Document for StatusDoc {
    const NAME: &'static str = "team.status";
    const FILE: &'static str = "status";
}

/// One seat of the roster.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints admitted_by; the spec's own examples predate it; host only for a seat of
// another machine)
#[schemars(transform = crate::vocab::doc::not_required(&["admitted_by", "host"]))]
pub struct SeatDoc {
    /// The seat's address as --list names it: its name, or <seat>@<team> for another team's
    /// seat.
    #[schemars(length(min = 1))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub team: String,
    #[schemars(length(min = 1))]
    pub cli: String,
    #[schemars(length(min = 1))]
    pub session: String,
    #[schemars(extend("enum" = ["herdr", "tmux"]))]
    pub multiplexer: &'static str,
    /// The seat's pane id; null when no pane is the seat's.
    pub pane: Option<String>,
    pub reads: Reads,
    /// herdr's own status of the seat's agent; null on tmux (which has none) or when it could
    /// not be read.
    pub multiplexer_status: Option<crate::mux::AgentStatus>,
    pub stopped: bool,
    /// The rule that admits this run's caller sending to the seat (`the owner`, `lead of
    /// beacon`, `own lead`, …); null when a send from this caller would be refused
    /// (docs/admission.md).
    pub admitted_by: Option<String>,
    /// The last history line to the seat; null when there is none.
    pub last: Option<Last>,
    /// The machine the seat runs on (its `host:` names another), where its pane was read by
    /// that machine's own team (over ssh): absent for a seat of this machine (docs/remote.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<super::far::FarHost>,
}

/// The profile's words as `reads` prints them (`Reads` derives its document through these):
/// a turn error's word, and a dialog's kind word with the profile's own name of an `other`.
pub mod words {
    use schemars::JsonSchema;
    use serde::{Serialize, Serializer};

    use crate::profiles::{DialogKind, TurnError};

    /// A turn error as its word: `rate_limit` or `provider_error` (`TurnError::word`).
    pub struct TurnErrorWord(pub TurnError);

    impl TurnErrorWord {
        fn word(&self) -> &'static str {
            self.0.word()
        }
    }

    crate::vocab::doc::words!(TurnErrorWord => [TurnError::RateLimit, TurnError::ProviderError].map(TurnError::word).to_vec());

    pub fn turn_error<S: Serializer>(e: &Option<TurnError>, s: S) -> Result<S::Ok, S::Error> {
        e.map(TurnErrorWord).serialize(s)
    }

    /// A dialog's kind: its word, and the profile's own name of an `other` dialog.
    #[derive(Serialize, JsonSchema)]
    pub struct KindDoc<'a> {
        #[schemars(extend("enum" = DialogKind::KNOWN.iter().map(DialogKind::word).chain(["other"]).collect::<Vec<_>>()))]
        pub kind: &'static str,
        /// The profile's own name of an `other` dialog.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schemars(length(min = 1))]
        pub name: Option<&'a str>,
    }

    pub fn dialog_kind<S: Serializer>(k: &DialogKind, s: S) -> Result<S::Ok, S::Error> {
        KindDoc { kind: k.word(), name: k.other_name() }.serialize(s)
    }
}

/// A pane no seat holds that runs an agent CLI.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnplacedDoc {
    #[schemars(length(min = 1))]
    pub pane: String,
    /// The profile whose process names the CLI runs under.
    #[schemars(length(min = 1))]
    pub cli: String,
    #[schemars(length(min = 1))]
    pub process: String,
    /// The file's seats of that CLI no pane was found for: the seats this pane may be.
    #[schemars(inner(length(min = 1)))]
    pub seats: Vec<String>,
    #[schemars(regex(pattern = r"^team mark \S+ --pane \S+$"))]
    pub mark: String,
}

/// One seat's hooks.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HooksDoc {
    #[schemars(length(min = 1))]
    pub seat: String,
    pub state: crate::hooks::State,
    pub last_handed: Option<String>,
    /// Messages waiting (or claimed) in the seat's inbox.
    pub waiting: usize,
}

/// One seat's MCP entry.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpDoc {
    #[schemars(length(min = 1))]
    pub seat: String,
    pub state: State,
    pub file: Option<String>,
}

impl McpDoc {
    pub fn of(r: &crate::mcp::install::Row) -> McpDoc {
        McpDoc { seat: r.seat.clone(), state: r.state.clone(), file: r.path.as_ref().map(|p| p.display().to_string()) }
    }
}

fn seat(row: &Row) -> SeatDoc {
    SeatDoc {
        name: row.name.clone(),
        team: row.team.clone(),
        cli: row.cli.clone(),
        session: row.session.clone(),
        multiplexer: row.multiplexer,
        pane: row.pane.clone(),
        reads: row.reads.clone(),
        multiplexer_status: row.mux_status,
        stopped: row.stopped,
        admitted_by: row.admitted_by.clone(),
        last: row.last.clone(),
        host: row.host.clone(),
    }
}

fn unplaced(u: &Unplaced) -> UnplacedDoc {
    UnplacedDoc {
        pane: u.pane.clone(),
        cli: u.cli.clone(),
        process: u.process.clone(),
        seats: u.seats.clone(),
        mark: u.mark_line(),
    }
}

impl StatusReport {
    /// `6 seats: 2 idle, 1 working, …` (the states in a fixed order): the line a plain run
    /// closes its table with, and the document's `summary`.
    pub fn summary(&self) -> String {
        let n = self.rows.len();
        let mut s = format!("{n} seat{}", if n == 1 { "" } else { "s" });
        let order = ["idle", "working", "dialog", "draft", "starting", "exited", "unknown", "not-found", "unreadable"];
        let parts: Vec<String> = order
            .iter()
            .filter_map(|w| {
                let c = self.rows.iter().filter(|row| row.reads.word() == *w).count();
                (c > 0).then(|| format!("{c} {}", w.replace('-', " ")))
            })
            .collect();
        if !parts.is_empty() {
            s.push_str(": ");
            s.push_str(&parts.join(", "));
        }
        s
    }

    /// Each reason a screen is not read, with every seat it holds for (a missing session is
    /// every seat's), in the order the reasons first appear (grouped through a map, so n
    /// seats with n reasons of their own take linear time).
    pub fn whys(&self) -> Vec<(&str, Vec<&str>)> {
        let mut whys: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for row in &self.rows {
            if let Some(why) = row.reads.why() {
                let i = *at.entry(why).or_insert_with(|| {
                    whys.push((why, Vec::new()));
                    whys.len() - 1
                });
                whys[i].1.push(&row.name);
            }
        }
        whys
    }

    /// The `team.status` document; `summary` is the line a plain run closes with.
    pub fn document(&self, summary: String) -> StatusDoc {
        StatusDoc {
            schema: Named::new(),
            format: FormatOne,
            project: self.context.as_ref().map(|c| c.0.clone()),
            session: self.context.as_ref().map(|c| c.1.clone()),
            seats: self.rows.iter().map(seat).collect(),
            summary,
            caller: self.caller.clone(),
            unplaced: self.unplaced.iter().map(unplaced).collect(),
            hooks: None,
            mcp: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::{DialogKind, TurnError};

    #[test]
    fn reads_prints_the_state_then_its_members() {
        let json = |r: Reads| serde_json::to_string(&r).unwrap();
        assert_eq!(json(Reads::Idle { last_error: None }), r#"{"state":"idle","last_error":null}"#);
        assert_eq!(
            json(Reads::Idle { last_error: Some(TurnError::RateLimit) }),
            r#"{"state":"idle","last_error":"rate_limit"}"#
        );
        assert_eq!(
            json(Reads::Dialog { kind: DialogKind::VendorNotice, title: "Sign in".into() }),
            r#"{"state":"dialog","kind":"vendor_notice","title":"Sign in"}"#
        );
        assert_eq!(
            json(Reads::Dialog { kind: DialogKind::Other("plan approval".into()), title: "t".into() }),
            r#"{"state":"dialog","kind":"other","name":"plan approval","title":"t"}"#
        );
        assert_eq!(json(Reads::Starting), r#"{"state":"starting"}"#);
        assert_eq!(json(Reads::NotFound { why: "w".into() }), r#"{"state":"not-found","why":"w"}"#);
    }
}
