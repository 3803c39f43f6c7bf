//! The owner's approvals of a team file's `grant` section: `up:` records in `<config>/grants/`,
//! beside the send grants, checked the same way.
//!
//! Invariant: a grant in the repository alone is never verified; only a regular file in the
//! owner's grants folder (never a link or FIFO, nor anything in a linked folder) approves one.

use std::path::Path;

use serde::Deserialize;

use crate::fsx;

/// An owner-signed approval of a team file's `grant` section, read from
/// `<config>/grants/<file>.yaml` (`up:` beside the `send:` kind):
///
/// ```yaml
/// up:
///   seat: builder-1@labs     # the granted seat, spelled as the team file's grant spells it
///   team: beacon             # the team whose `up` (and register) it approves
///   scope: [up]
/// expires: "2026-10-17T00:00:00Z"
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UpApproval {
    pub file: String,
    pub seat: String,
    pub team: String,
    pub scope: Vec<String>,
    pub expires: chrono::DateTime<chrono::Utc>,
}

#[derive(Deserialize)]
struct RawUp {
    up: Option<RawUpBody>,
    expires: Option<String>,
}

#[derive(Deserialize)]
struct RawUpBody {
    seat: Option<String>,
    team: Option<String>,
    #[serde(default)]
    scope: Vec<String>,
}

/// Finds the approval of `team`'s grant to `seat` for `scope` in `<config>/grants/`, with the
/// send grants' checks: a regular file (a link or FIFO is not a grant, nor is a linked grants
/// folder), well formed, naming that seat and team, listing the scope, unexpired at `now`.
/// `Ok(file name)`, or why none verifies — the nearest miss when a file names the seat.
pub fn verify_up(
    dir: &Path,
    team: &str,
    seat: &str,
    scope: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<String, String> {
    let gdir = dir.join("grants");
    let none = || format!("no approval in {} names {seat} for team {team}", gdir.display());
    if let Err(e) = fsx::check_ladder(dir, &gdir) {
        return Err(e.to_string());
    }
    let Some(names) = super::grant_files(&gdir) else { return Err(none()) };
    let mut miss: Option<String> = None;
    for n in names {
        let text = match fsx::read_to_string(&gdir.join(&n)) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                miss.get_or_insert(format!("{n}: {e}"));
                continue;
            }
        };
        let Ok(raw) = serde_saphyr::from_str::<RawUp>(&text) else { continue };
        let Some(up) = raw.up else { continue };
        let (Some(s), Some(t)) = (up.seat, up.team) else { continue };
        if s.trim() != seat || t.trim() != team {
            continue;
        }
        let expires = match raw.expires.as_deref().map(|e| chrono::DateTime::parse_from_rfc3339(e.trim())) {
            Some(Ok(e)) => e.with_timezone(&chrono::Utc),
            _ => {
                miss.get_or_insert(format!("{n} has no expires: an RFC 3339 time"));
                continue;
            }
        };
        if expires <= now {
            miss.get_or_insert(format!("{n} expired at {}", raw.expires.unwrap_or_default().trim()));
            continue;
        }
        if !up.scope.iter().any(|w| w.trim() == scope) {
            miss.get_or_insert(format!("{n} does not list {scope} in its scope"));
            continue;
        }
        return Ok(n);
    }
    Err(miss.unwrap_or_else(none))
}

/// The owner's grants in `<config>/grants/` that spell seat `seat` of `team` by its name — a
/// send grant's `from` or `to` as `<seat>@<team>` or `<session>/<seat>`, an `up` approval of
/// `team`'s grant to `<seat>` (or `<seat>@<team>`) — by file name. `lead@<team>` is the lead
/// address, never a seat's name. Only read: these are the owner's to rewrite (`team rename`
/// says which still name an old seat).
pub fn grants_naming(dir: &Path, team: &str, session: &str, seat: &str) -> Vec<String> {
    let full = format!("{seat}@{team}");
    let mut out: Vec<String> = super::send_grants(dir)
        .into_iter()
        .filter(|g| {
            [&g.from, &g.to].iter().any(|w| {
                (**w == full && seat != crate::vocab::names::RESERVED_LEAD)
                    || w.split_once('/') == Some((session, seat))
            })
        })
        .map(|g| g.file)
        .collect();
    let gdir = dir.join("grants");
    if fsx::check_ladder(dir, &gdir).is_ok() {
        for n in super::grant_files(&gdir).unwrap_or_default() {
            let Ok(Some(text)) = fsx::read_capped(&gdir.join(&n), fsx::RECORD_MAX) else { continue };
            let Ok(RawUp { up: Some(up), .. }) = serde_saphyr::from_str::<RawUp>(&text) else { continue };
            let (Some(s), Some(t)) = (up.seat, up.team) else { continue };
            if t.trim() == team && (s.trim() == seat || s.trim() == full) && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::send_grants;

    #[test]
    fn an_up_approval_is_verified_like_a_send_grant() {
        let d = tempfile::tempdir().unwrap();
        let g = d.path().join("grants");
        std::fs::create_dir_all(&g).unwrap();
        let now = chrono::DateTime::parse_from_rfc3339("2026-10-01T00:00:00Z").unwrap().with_timezone(&chrono::Utc);
        let check = || verify_up(d.path(), "beacon", "b@labs", "up", now);
        assert!(check().unwrap_err().starts_with("no approval in"), "{:?}", check());
        std::fs::write(
            g.join("a.yaml"),
            "up:\n  seat: b@labs\n  team: beacon\n  scope: [up]\nexpires: \"2026-09-01T00:00:00Z\"\n",
        )
        .unwrap();
        assert_eq!(check().unwrap_err(), "a.yaml expired at 2026-09-01T00:00:00Z");
        std::fs::write(
            g.join("b.yaml"),
            "up:\n  seat: b@labs\n  team: beacon\n  scope: [add]\nexpires: \"2027-01-01T00:00:00Z\"\n",
        )
        .unwrap();
        std::fs::write(
            g.join("c.yaml"),
            "up:\n  seat: b@labs\n  team: other\n  scope: [up]\nexpires: \"2027-01-01T00:00:00Z\"\n",
        )
        .unwrap();
        assert_eq!(check().unwrap_err(), "a.yaml expired at 2026-09-01T00:00:00Z");
        std::fs::write(
            g.join("d.yaml"),
            "up:\n  seat: b@labs\n  team: beacon\n  scope: [add, up]\nexpires: \"2027-01-01T00:00:00Z\"\n",
        )
        .unwrap();
        assert_eq!(check(), Ok("d.yaml".to_string()));
        // a link to a good approval is none, and neither is a send grant
        std::fs::rename(g.join("d.yaml"), d.path().join("d.yaml")).unwrap();
        std::os::unix::fs::symlink(d.path().join("d.yaml"), g.join("e.yaml")).unwrap();
        assert!(check().is_err());
        assert!(send_grants(d.path()).is_empty());
    }

    #[test]
    fn the_grants_that_spell_a_seat_by_its_name() {
        let d = tempfile::tempdir().unwrap();
        let g = d.path().join("grants");
        std::fs::create_dir_all(&g).unwrap();
        let exp = "expires: \"2027-01-01T00:00:00Z\"\n";
        std::fs::write(g.join("a.yaml"), format!("send:\n  from: rev@beacon\n  to: b@labs\n{exp}")).unwrap();
        std::fs::write(g.join("b.yaml"), format!("send:\n  from: b@labs\n  to: beacon/rev\n{exp}")).unwrap();
        std::fs::write(g.join("c.yaml"), format!("send:\n  from: b@labs\n  to: rev@other\n{exp}")).unwrap();
        std::fs::write(g.join("d.yaml"), format!("up:\n  seat: rev\n  team: beacon\n  scope: [up]\n{exp}")).unwrap();
        std::fs::write(g.join("e.yaml"), format!("up:\n  seat: rev\n  team: other\n  scope: [up]\n{exp}")).unwrap();
        std::fs::write(g.join("f.yaml"), format!("send:\n  from: b@labs\n  to: lead@beacon\n{exp}")).unwrap();
        assert_eq!(grants_naming(d.path(), "beacon", "beacon", "rev"), vec!["a.yaml", "b.yaml", "d.yaml"]);
        // lead@<team> is the lead address: it names no seat called lead
        assert!(grants_naming(d.path(), "beacon", "beacon", "lead").is_empty());
        assert!(grants_naming(&d.path().join("none"), "beacon", "beacon", "rev").is_empty());
    }
}
