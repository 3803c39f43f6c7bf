//! `team status` across machines: a seat whose `host:` is another machine is read there, by
//! that machine's own `team` (`team hop seats <team> --here <word>`, run over ssh as every hop:
//! `crate::ssh`, non-interactive, the reused control connection, the connect timeout), which
//! answers two lines — the hop hello (its protocol and version) and the very `team.status`
//! document its `team status --json` prints, of the seats of that team the word holds there.
//!
//! Invariants:
//! - read-only on both sides: the far side locates and reads (`status` in [`Scope::Far`]), asks
//!   no other machine and writes nothing;
//! - one ssh run per (host, team) a `team status` run meets, bounded by [`LIMIT`]; a host that
//!   does not answer, a far `team` without the read or of another hop protocol, is said in the
//!   seat's `unknown` reason, never read as `not found`; a far `team` of another version is
//!   read and said (the row's `host`);
//! - the far reading is the far profile's, carried by its document's words (`reads`), never
//!   guessed here.

use std::collections::HashMap;
use std::time::Duration;

use serde::Deserialize;

use super::Reads;
use crate::error::{Kind, TeamError};
use crate::legs::remote::doc::{self as hop, Hello};
use crate::mux::AgentStatus;
use crate::profiles::{DialogKind, TurnError};
use crate::team_file::host::{Here, SeatHost};

/// How long a far read may take as a whole: the connect, and the far side's own reading of its
/// seats' screens.
pub const LIMIT: Duration = Duration::from_secs(crate::ssh::CONNECT_TIMEOUT.as_secs() + 15);

/// The far side's words for a subcommand its `team` does not know (clap's).
const UNKNOWN_SUBCOMMAND: &str = "unrecognized subcommand";

/// Which seats a `status` run reads.
#[derive(Clone, Copy)]
pub enum Scope<'s> {
    /// This machine's run: its own seats read here, another machine's read there over ssh.
    Near,
    /// The far side of a read (`team hop seats`): only `team`'s seats the word `here` holds,
    /// read here; nothing asked over ssh.
    Far { team: &'s str, here: &'s Here },
}

/// The machine a seat's row was read on, when not this one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FarHost {
    /// The seat's `host:` as the team file writes it.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The ssh destination it names; null when it names none.
    pub destination: Option<String>,
    /// The far side's `team` version, when it answered.
    pub team_version: Option<String>,
}

impl FarHost {
    /// Whether the far side runs another `team` version than this one.
    pub fn other_version(&self) -> Option<&str> {
        self.team_version.as_deref().filter(|v| *v != hop::version())
    }
}

/// One seat of the far document (`team.status`'s `seats`), as read here: only what a row takes.
#[derive(Debug, Deserialize)]
struct FarSeat {
    name: String,
    multiplexer: String,
    pane: Option<String>,
    reads: Wire,
    multiplexer_status: Option<String>,
}

/// The far document, as read here.
#[derive(Debug, Deserialize)]
struct FarDoc {
    seats: Vec<FarSeat>,
}

/// `reads` as the document carries it (`Reads`' serialized form).
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
enum Wire {
    Idle { last_error: Option<String> },
    Working { hint: String },
    Dialog { kind: String, name: Option<String>, title: String },
    Draft { text: String },
    Starting,
    Exited,
    Unknown { why: String },
    NotFound { why: String },
    Unreadable { why: String },
}

impl Wire {
    fn reads(self, host: &str) -> Reads {
        match self {
            Wire::Idle { last_error } => Reads::Idle {
                last_error: last_error
                    .and_then(|w| [TurnError::RateLimit, TurnError::ProviderError].into_iter().find(|e| e.word() == w)),
            },
            Wire::Working { hint } => Reads::Working { hint },
            Wire::Dialog { kind, name, title } => {
                let kind = match (DialogKind::from_word(&kind), name) {
                    (Some(k), _) => k,
                    (None, Some(n)) => DialogKind::Other(n),
                    (None, None) => DialogKind::Other(kind),
                };
                Reads::Dialog { kind, title }
            }
            Wire::Draft { text } => Reads::Draft { text },
            Wire::Starting => Reads::Starting,
            Wire::Exited => Reads::Exited,
            Wire::Unknown { why } => Reads::Unknown { why: format!("on {host}: {why}") },
            Wire::NotFound { why } => Reads::NotFound { why: format!("on {host}: {why}") },
            Wire::Unreadable { why } => Reads::Unreadable { why: format!("on {host}: {why}") },
        }
    }
}

/// What one far read found: the far `team`'s version and its rows by seat name, or why the
/// host gave none.
#[derive(Debug)]
pub struct Read {
    version: Option<String>,
    seats: Result<HashMap<String, FarSeat>, String>,
}

/// Reads `team`'s seats of the host `h` there, over ssh.
pub fn read(state: &std::path::Path, h: &SeatHost, team: &str) -> Read {
    let dest = match &h.dest {
        Ok(d) => d,
        Err(f) => {
            return Read { version: None, seats: Err(format!("its host {:?} is no ssh destination ({f})", h.word)) }
        }
    };
    let on = format!("{} ({dest})", h.word);
    let ssh = crate::ssh::Hop { dest, control: crate::ssh::control_dir(state) };
    let answer = match ssh.run(&["hop", "seats", team, "--here", &h.word], Vec::new(), LIMIT) {
        Ok(a) => a,
        Err(u) => {
            return Read {
                version: None,
                seats: Err(format!("it runs on {on}, which does not answer: {}", u.reason(dest))),
            }
        }
    };
    let text = String::from_utf8_lossy(&answer.stdout);
    let mut lines = text.lines();
    let hello = lines.next().and_then(|l| serde_json::from_str::<Hello>(l).ok());
    let err = String::from_utf8_lossy(&answer.stderr);
    let said = crate::vocab::text::one_line(err.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")).into_owned();
    let Some(hello) = hello else {
        let why = if answer.code == Some(2) && err.contains(UNKNOWN_SUBCOMMAND) {
            format!("it runs on {on}, whose team does not read its seats for another machine (it has no hop seats) — install the same team on both machines")
        } else {
            format!("it runs on {on}, whose team gave no reading ({said})")
        };
        return Read { version: None, seats: Err(why) };
    };
    let version = Some(hello.team_version.clone());
    if hello.hop != hop::PROTOCOL {
        let why = format!(
            "it runs on {on}, whose team is {} and speaks hop protocol {}, this one is {} and speaks {} — install the same team on both machines",
            hello.team_version,
            hello.hop,
            hop::version(),
            hop::PROTOCOL
        );
        return Read { version, seats: Err(why) };
    }
    let seats = match lines.next().map(serde_json::from_str::<FarDoc>) {
        Some(Ok(d)) => Ok(d.seats.into_iter().map(|s| (s.name.clone(), s)).collect()),
        _ => Err(format!("it runs on {on}, whose team could not read its seats: {said}")),
    };
    Read { version, seats }
}

/// The far reads (looks) of one `team status` run: one for each (host word, team), made when a row
/// first needs it.
#[derive(Debug, Default)]
pub struct Looks(HashMap<(String, String), Read>);

impl Looks {
    /// The row of `seat` of `team` on the host `h` (that host read over ssh once a run).
    pub fn row(&mut self, state: &std::path::Path, h: &SeatHost, team: &str, seat: &str) -> FarRow {
        let read = self.0.entry((h.word.clone(), team.to_string())).or_insert_with(|| self::read(state, h, team));
        row(read, h, seat)
    }
}

/// A seat's row as its own machine read it.
#[derive(Debug)]
pub struct FarRow {
    pub pane: Option<String>,
    pub reads: Reads,
    /// The far multiplexer's own status of the seat's agent.
    pub status: Option<AgentStatus>,
    /// The multiplexer the far side read it on, when it said one this build knows.
    pub multiplexer: Option<&'static str>,
    pub host: FarHost,
}

/// The row of `seat` (of the host `h`) from the host's read.
pub fn row(read: &Read, h: &SeatHost, seat: &str) -> FarRow {
    let host = FarHost {
        name: h.word.clone(),
        destination: h.dest.as_ref().ok().map(ToString::to_string),
        team_version: read.version.clone(),
    };
    let none = |reads| FarRow { pane: None, reads, status: None, multiplexer: None, host: host.clone() };
    match &read.seats {
        Err(why) => none(Reads::Unknown { why: why.clone() }),
        Ok(seats) => match seats.get(seat) {
            Some(s) => FarRow {
                pane: s.pane.clone(),
                reads: s.reads.clone().reads(&h.word),
                status: s.multiplexer_status.as_deref().map(AgentStatus::parse),
                multiplexer: ["herdr", "tmux"].into_iter().find(|m| *m == s.multiplexer),
                host: host.clone(),
            },
            None => none(Reads::NotFound {
                why: format!("it runs on {}, whose team file has no seat {seat} there", h.word),
            }),
        },
    }
}

/// The far side of a read (`team hop seats <team> --here <word>`, after its hello): the
/// `team.status` document of `team`'s seats the word holds on this machine, the team found
/// through this machine's own registry and read in its own team file.
pub fn here(ws: &crate::workspace::Workspace, team: &str, word: &str) -> Result<super::doc::StatusDoc, TeamError> {
    let reg = ws.reg()?;
    let on = format!("the machine {word}");
    let root = reg.team(team).and_then(|t| t.root.clone()).ok_or_else(|| {
        TeamError::new(
            Kind::Refused,
            format!("{on} has no team {team} in its registry (team up there, in its checkout, first)"),
        )
    })?;
    let file = crate::team_file::find(&root)?.filter(|l| l.file.team == team).ok_or_else(|| {
        TeamError::new(Kind::BadFile, format!("{on} has no team file of {team} at {}", root.display()))
    })?;
    let caller = ws.caller_of(reg, Some(&file));
    let here = Here::on(word);
    let r =
        super::status(ws.ctx, ws.profiles(), Some(&file), reg, ws.mux_for(), &caller, Scope::Far { team, here: &here });
    Ok(r.document(r.summary()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The far document's `reads` round-trips into the same reading (its words are `Reads`').
    #[test]
    fn a_far_reading_reads_back_as_the_far_profile_said_it() {
        for r in [
            Reads::Idle { last_error: None },
            Reads::Idle { last_error: Some(TurnError::RateLimit) },
            Reads::Working { hint: "esc to interrupt".into() },
            Reads::Dialog { kind: DialogKind::Permission, title: "Allow?".into() },
            Reads::Dialog { kind: DialogKind::Other("plan approval".into()), title: "t".into() },
            Reads::Draft { text: "half a thought".into() },
            Reads::Starting,
            Reads::Exited,
        ] {
            let w: Wire = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
            assert_eq!(w.reads("lab"), r);
        }
        // a row takes the far side's pane, reading and multiplexer; a seat it did not list is
        // not found there, said as such
        let doc: FarDoc = serde_json::from_str(r#"{"seats":[{"name":"rev","team":"beacon","multiplexer":"herdr","pane":"w1:p2","reads":{"state":"working","hint":"esc"},"multiplexer_status":"working","stopped":false}]}"#).unwrap();
        let read = Read {
            version: Some("0.1.0".into()),
            seats: Ok(doc.seats.into_iter().map(|s| (s.name.clone(), s)).collect()),
        };
        let h = crate::team_file::host::Hosts::default().resolve("lab", 0);
        let f = row(&read, &h, "rev");
        assert_eq!(
            (f.pane.as_deref(), f.multiplexer, f.status),
            (Some("w1:p2"), Some("herdr"), Some(AgentStatus::Working))
        );
        assert_eq!(f.reads, Reads::Working { hint: "esc".into() });
        assert!(matches!(row(&read, &h, "other").reads, Reads::NotFound { .. }));
        let w: Wire = serde_json::from_str(r#"{"state":"not-found","why":"no pane"}"#).unwrap();
        assert_eq!(w.reads("lab"), Reads::NotFound { why: "on lab: no pane".into() });
    }
}
