//! Who may run `team register` (docs/spec/team-register.md "Who may run it"): the owner; a seat of
//! this team; a caller the file's `delegates` section names for `up`; the seat the file's
//! `grant` names for `up`, where the approval in the owner's grants folder verifies it — the
//! fallback for a caller the rows above refused. `--session` is the owner's alone.
//!
//! Invariant: a grant in the repository alone is never verified; a file with no `grant`
//! section grants nothing, and a run the rows above admitted is neither refused nor audited by
//! the grant.

use chrono::{DateTime, Utc};

use crate::caller::Caller;
use crate::error::{Kind, TeamError};
use crate::registry;
use crate::team_file::TeamFile;

/// The sentence a run with no terminal (and no verified pane) is refused with.
pub const NO_TERMINAL: &str =
    "only the owner or a seat of this team runs this, from a terminal outside herdr or its own pane";

/// Why a caller may register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admitted {
    Owner,
    /// A seat of this team.
    OwnSeat,
    /// Named by the file's `delegates.up`.
    Delegate,
    /// The file's `grant`, approved by this grants-folder record.
    Grant(String),
}

impl Admitted {
    /// How the team.log line audits the write (`the owner`, `grant <file>`, …).
    pub fn words(&self) -> String {
        match self {
            Admitted::Owner => "the owner".into(),
            Admitted::OwnSeat => "a seat of this team".into(),
            Admitted::Delegate => "the file's delegates for up".into(),
            Admitted::Grant(f) => format!("grant {f}"),
        }
    }
}

fn refuse(id: &str, msg: String) -> TeamError {
    TeamError::new(Kind::Refused, msg).with_id(format!("register.{id}"))
}

/// Does one `delegates`/`grant` spelling name this caller: an agent id (its record's), a
/// `<seat>@<team>`, or a bare seat of this team?
fn names(spelling: &str, caller: &Caller, own_team: &str) -> bool {
    let Caller::Seat { team, seat, agent, .. } = caller else { return false };
    if crate::vocab::names::is_agent_id(spelling) {
        return agent.as_ref().is_some_and(|a| a.id == spelling);
    }
    let (s, t) = spelling.split_once('@').unwrap_or((spelling, own_team));
    s == seat && t == team
}

/// Judges the caller; `session_flag` is whether `--session` was given.
pub fn admit(
    file: &TeamFile,
    caller: &Caller,
    session_flag: bool,
    config: &std::path::Path,
    now: DateTime<Utc>,
) -> Result<Admitted, TeamError> {
    let who = caller.describe();
    match caller {
        Caller::NoTerminal => return Err(refuse("no-terminal", NO_TERMINAL.into())),
        Caller::Unreachable { why } => {
            return Err(TeamError::new(Kind::Unreachable, format!("unreachable: {why}; nothing was registered"))
                .with_id("register.unreachable"))
        }
        Caller::Blocked { why, repair } => {
            let mut e = refuse("caller", format!("{why}; nothing was registered"));
            e.hints.extend(repair.clone());
            return Err(e);
        }
        _ => {}
    }
    let session_owner =
        || refuse("session", format!("--session is the owner's, from a terminal outside herdr; this call is {who}"));
    let admitted = match caller {
        Caller::Owner => return Ok(Admitted::Owner),
        Caller::Seat { team, .. } if *team == file.team => Some(Admitted::OwnSeat),
        _ if file.delegates.up.as_ref().is_some_and(|l| l.iter().any(|d| names(d, caller, &file.team))) => {
            Some(Admitted::Delegate)
        }
        _ => None,
    };
    if let Some(a) = admitted {
        return if session_flag { Err(session_owner()) } else { Ok(a) };
    }
    let Some(g) = &file.grant else {
        return Err(match &file.delegates.up {
            Some(_) => {
                refuse("delegates", format!("only the owner or the approved delegate runs `up`; this call is {who}"))
            }
            None => refuse(
                "caller",
                format!("only the owner or a seat of this team registers a running seat; this call is {who}"),
            ),
        });
    };
    by_grant(g, file, caller, session_flag, config, now)
}

/// The fallback: the file's `grant`, for a caller the rows refused.
fn by_grant(
    g: &crate::team_file::FileGrant,
    file: &TeamFile,
    caller: &Caller,
    session_flag: bool,
    config: &std::path::Path,
    now: DateTime<Utc>,
) -> Result<Admitted, TeamError> {
    let who = caller.describe();
    let pane_ok = match (&g.pane, caller) {
        (None, _) => true,
        (Some(p), Caller::Seat { pane, .. }) => p == pane,
        _ => false,
    };
    if !names(&g.seat, caller, &file.team) || !pane_ok {
        return Err(refuse("grant-seat", format!("only the seat the grant names runs this: this call is {who}")));
    }
    if !g.scope.iter().any(|s| s == "up") {
        return Err(refuse("grant-scope", "the grant does not list `up`".into()));
    }
    let approval = registry::verify_up(config, &file.team, &g.seat, "up", now)
        .map_err(|why| refuse("grant-approval", format!("a grant needs a verified approval: {why}")))?;
    if session_flag {
        return Err(refuse("session-grant", "--session is the owner's; the granted seat cannot use it".into()));
    }
    Ok(Admitted::Grant(approval))
}

/// Judges an agent that starts or stops seats through the MCP face (`team_add`, `team_stop`):
/// as [`admit`] judges `up`, save that among this team's own seats only the one the file marks
/// as its lead (`leads: true`, or the legacy `coordinator:`) is admitted by being a seat; any
/// other seat of the team needs the file's `delegates.up` or its `grant`, as a caller of
/// another team does. The refusal of such a seat is the row `lead`.
pub fn admit_lead(
    file: &TeamFile,
    caller: &Caller,
    config: &std::path::Path,
    now: DateTime<Utc>,
) -> Result<Admitted, TeamError> {
    let admitted = admit(file, caller, false, config, now)?;
    let Caller::Seat { seat, .. } = caller else { return Ok(admitted) };
    if admitted != Admitted::OwnSeat || file.seat(seat).is_some_and(|s| s.leads) {
        return Ok(admitted);
    }
    if file.delegates.up.as_ref().is_some_and(|l| l.iter().any(|d| names(d, caller, &file.team))) {
        return Ok(Admitted::Delegate);
    }
    match &file.grant {
        Some(g) => by_grant(g, file, caller, false, config, now),
        None => Err(refuse(
            "lead",
            format!(
                "only the owner, the team's lead or a delegate for `up` starts or stops the team's seats; this call is {}, which the file does not mark as its lead",
                caller.describe()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::AgentRecord;

    fn file(extra: &str) -> TeamFile {
        crate::team_file::parse(&format!("project: beacon\nseats:\n  - name: a\n    cli: codex\n{extra}")).unwrap()
    }

    fn seat(team: &str, seat: &str) -> Caller {
        let agent = Some(AgentRecord {
            id: "agt_00000000000000b1".into(),
            seat: seat.into(),
            team: team.into(),
            ..Default::default()
        });
        Caller::Seat { team: team.into(), seat: seat.into(), agent, pane: "w2:p1".into() }
    }

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-10-01T00:00:00Z").unwrap().with_timezone(&Utc)
    }

    fn judge(f: &TeamFile, c: &Caller, session: bool, dir: &std::path::Path) -> Result<Admitted, String> {
        admit(f, c, session, dir, now()).map_err(|e| format!("{}: {}", e.id, e.message()))
    }

    #[test]
    fn the_rows_of_the_table() {
        let d = tempfile::tempdir().unwrap();
        let f = file("");
        assert_eq!(judge(&f, &Caller::Owner, true, d.path()), Ok(Admitted::Owner));
        assert_eq!(judge(&f, &seat("beacon", "a"), false, d.path()), Ok(Admitted::OwnSeat));
        assert_eq!(
            judge(&f, &seat("beacon", "a"), true, d.path()).unwrap_err(),
            "register.session: --session is the owner's, from a terminal outside herdr; this call is seat a of beacon"
        );
        assert_eq!(
            judge(&f, &Caller::NoTerminal, false, d.path()).unwrap_err(),
            format!("register.no-terminal: {NO_TERMINAL}")
        );
        let un = Caller::Unplaced { why: "it is run by an agent (claude) outside herdr".into() };
        assert_eq!(
            judge(&f, &un, false, d.path()).unwrap_err(),
            "register.caller: only the owner or a seat of this team registers a running seat; this call is unplaced (it is run by an agent (claude) outside herdr)"
        );
    }

    #[test]
    fn delegates_then_the_grant_as_the_fallback() {
        let d = tempfile::tempdir().unwrap();
        let b = seat("labs", "b");
        let f = file("delegates:\n  up: [b@labs]\n");
        assert_eq!(judge(&f, &b, false, d.path()), Ok(Admitted::Delegate));
        let f = file("delegates:\n  up: [agt_00000000000000b1]\n");
        assert_eq!(judge(&f, &b, false, d.path()), Ok(Admitted::Delegate));
        let f = file("delegates:\n  up: [c@labs]\n");
        assert_eq!(
            judge(&f, &b, false, d.path()).unwrap_err(),
            "register.delegates: only the owner or the approved delegate runs `up`; this call is seat b of labs"
        );
        // the grant: another seat, no `up`, no approval, then an approval
        let f = file("delegates:\n  up: [c@labs]\ngrant:\n  seat: c@labs\n  scope: [up]\n");
        assert_eq!(
            judge(&f, &b, false, d.path()).unwrap_err(),
            "register.grant-seat: only the seat the grant names runs this: this call is seat b of labs"
        );
        let f = file("grant:\n  seat: b@labs\n  pane: w9:p9\n  scope: [up]\n");
        assert!(judge(&f, &b, false, d.path()).unwrap_err().starts_with("register.grant-seat:"));
        let f = file("grant:\n  seat: b@labs\n  scope: [add]\n");
        assert_eq!(judge(&f, &b, false, d.path()).unwrap_err(), "register.grant-scope: the grant does not list `up`");
        let f = file("grant:\n  seat: b@labs\n  pane: w2:p1\n  scope: [up]\n");
        let e = judge(&f, &b, false, d.path()).unwrap_err();
        assert!(e.starts_with("register.grant-approval: a grant needs a verified approval: no approval in"), "{e}");
        let g = d.path().join("grants");
        std::fs::create_dir_all(&g).unwrap();
        std::fs::write(
            g.join("b-up.yaml"),
            "up:\n  seat: b@labs\n  team: beacon\n  scope: [up]\nexpires: \"2027-01-01T00:00:00Z\"\n",
        )
        .unwrap();
        assert_eq!(judge(&f, &b, false, d.path()), Ok(Admitted::Grant("b-up.yaml".into())));
        assert_eq!(
            judge(&f, &b, true, d.path()).unwrap_err(),
            "register.session-grant: --session is the owner's; the granted seat cannot use it"
        );
        // a caller the delegates admit is not the grant's
        let f = file("delegates:\n  up: [b@labs]\ngrant:\n  seat: c@labs\n  scope: []\n");
        assert_eq!(judge(&f, &b, false, d.path()), Ok(Admitted::Delegate));
    }

    #[test]
    fn an_agent_starts_seats_as_the_lead_a_delegate_or_the_grant() {
        let d = tempfile::tempdir().unwrap();
        let lead_file = |extra: &str| {
            crate::team_file::parse(&format!(
                "project: beacon\nseats:\n  - name: a\n    cli: codex\n    leads: true\n  - name: b\n    cli: codex\n{extra}"
            ))
            .unwrap()
        };
        let judge = |f: &TeamFile, c: &Caller| {
            admit_lead(f, c, d.path(), now()).map_err(|e| format!("{}: {}", e.id, e.message()))
        };
        let f = lead_file("");
        assert_eq!(judge(&f, &Caller::Owner), Ok(Admitted::Owner));
        assert_eq!(judge(&f, &seat("beacon", "a")), Ok(Admitted::OwnSeat));
        assert_eq!(
            judge(&f, &seat("beacon", "b")).unwrap_err(),
            "register.lead: only the owner, the team's lead or a delegate for `up` starts or stops the team's seats; this call is seat b of beacon, which the file does not mark as its lead"
        );
        // a non-lead seat the delegates name, or the grant names with `up` and an approval
        assert_eq!(judge(&lead_file("delegates:\n  up: [b]\n"), &seat("beacon", "b")), Ok(Admitted::Delegate));
        let e = judge(&lead_file("grant:\n  seat: b\n  scope: [up]\n"), &seat("beacon", "b")).unwrap_err();
        assert!(e.starts_with("register.grant-approval:"), "{e}");
        assert_eq!(
            judge(&lead_file("grant:\n  seat: b\n  scope: [add]\n"), &seat("beacon", "b")).unwrap_err(),
            "register.grant-scope: the grant does not list `up`"
        );
        // the rows `up` refuses are refused the same
        assert!(judge(&f, &seat("labs", "z")).unwrap_err().starts_with("register.caller:"));
        assert!(judge(&f, &Caller::NoTerminal).unwrap_err().starts_with("register.no-terminal:"));
    }
}
