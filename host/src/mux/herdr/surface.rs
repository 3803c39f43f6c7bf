//! What differs between the herdr versions `team` serves, in one place: the version read once
//! per run from `herdr --version`, the table of what that version's CLI offers ([`Surface`]),
//! and the session's own view of client and server (`herdr --session S status`).
//!
//! Invariant: the adapter never compares versions itself. It asks the [`Surface`] a question
//! (where is the title, how are recent rows read) and the answer is decided here, from the
//! measurements in `docs/herdr-0.8.2.md` (0.7.5 is where the agent surface changed).
//! Everything the two versions share — error shapes are told apart by their own form, not by
//! the version — stays out of this table.

use std::fmt;

/// A herdr release, `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// `herdr 0.8.2` (what `herdr --version` prints) or a bare `0.8.2`.
    pub fn parse(s: &str) -> Option<Version> {
        let word = s.split_whitespace().find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))?;
        // A pre-release or build suffix (`0.9.0-rc1`) does not change the surface.
        let core = word.split(['-', '+']).next()?;
        let mut parts = core.split('.').map(|p| p.parse::<u32>().ok());
        let v = Version(parts.next()??, parts.next()??, parts.next().unwrap_or(Some(0))?);
        parts.next().is_none().then_some(v)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The oldest herdr `team` serves.
pub const OLDEST: Version = Version(0, 7, 1);
/// The release of herdr's "live-agent CLI facade": `agent get` carries `terminal_title` and
/// `state_change_seq`, names are cleared on exit, and a text read of recent rows can make the
/// server scroll an idle full-screen CLI.
pub const FACADE: Version = Version(0, 7, 5);

/// Where the CLI's terminal (OSC) title is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleFrom {
    /// `agent explain <seat> --json`: the `region_preview` of the rule over `osc_title` (0.7.1
    /// shows the title nowhere else).
    Explain,
    /// `agent get <seat>` → `terminal_title` (one call fewer; ≥ 0.7.5).
    AgentGet,
}

/// How the recent rows are asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecentAs {
    /// `--source recent --lines N` (text): free on 0.7.1.
    Text,
    /// `--source recent --lines N --format ansi`: on ≥ 0.7.5 a *text* read of more rows than
    /// the screen has makes the server scroll an idle alternate-screen CLI with wheel events and
    /// back (270–480 ms, up to 5 s when the CLI starts working meanwhile), and every ANSI read of
    /// that pane waits behind it. An ANSI read never starts that collection.
    Ansi,
}

/// How a launched seat's pane gets the seat's name before its CLI draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// `agent rename <pane> <seat>` on the pane's plain shell, then the launch typed into it:
    /// 0.7.1 gives a shell an agent identity [agent-rename-shell.json], kept once the CLI runs.
    RenameShell,
    /// `agent start <seat> --kind K --pane P [-- args]`: ≥ 0.7.5 names only a pane whose agent
    /// it detected, and `agent start` holds the name from the launch on (herdr types the
    /// kind's executable and the args into the pane's shell) [agent-start.json].
    AgentStart,
}

/// herdr's own interactive agent kinds and the executable it types for each (`agent start
/// --kind K` types it into the pane's shell; measured for these four [agent-start*.json]). A
/// launch whose program is none of these is typed by `team`, and named once herdr sees its agent.
pub const KINDS: [(&str, &str); 4] =
    [("claude", "claude"), ("codex", "codex"), ("cursor", "cursor-agent"), ("agy", "agy")];

/// The kind whose executable is `program`.
pub fn kind_of(program: &str) -> Option<&'static str> {
    KINDS.iter().find(|(_, exe)| *exe == program).map(|(k, _)| *k)
}

/// A herdr older than [`OLDEST`]: nothing of its surface is assumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("herdr {0} is older than team supports (herdr {OLDEST} or newer)")]
pub struct TooOld(pub Version);

/// What one herdr version's CLI offers a client: the adapter's only source of version facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    pub version: Version,
    pub title: TitleFrom,
    pub recent: RecentAs,
    pub naming: Naming,
}

impl Surface {
    /// The surface of `version`; an older herdr than [`OLDEST`] is refused with the sentence.
    pub fn of(version: Version) -> Result<Surface, TooOld> {
        if version < OLDEST {
            return Err(TooOld(version));
        }
        let facade = version >= FACADE;
        Ok(Surface {
            version,
            title: if facade { TitleFrom::AgentGet } else { TitleFrom::Explain },
            recent: if facade { RecentAs::Ansi } else { RecentAs::Text },
            naming: if facade { Naming::AgentStart } else { Naming::RenameShell },
        })
    }
}

/// One side of `herdr status`: its version and protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    pub version: Option<Version>,
    pub protocol: Option<u32>,
}

/// What `herdr --session S status` says (both 0.7.1 and 0.8.x print this text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionStatus {
    pub client: Side,
    /// `None` when the server is not running.
    pub server: Option<Side>,
    /// `compatible: yes|no` under `server:`; absent when the server is not running.
    pub compatible: Option<bool>,
}

impl SessionStatus {
    /// Parses the `client:` and `server:` sections; `None` when the text has neither.
    pub fn parse(text: &str) -> Option<SessionStatus> {
        let mut section = "";
        let (mut client, mut server) = (Side { version: None, protocol: None }, Side { version: None, protocol: None });
        let (mut running, mut compatible, mut seen) = (false, None, false);
        for line in text.lines() {
            if !line.starts_with(' ') {
                section = line.trim_end_matches(':').trim();
                seen |= section == "client" || section == "server";
                continue;
            }
            let Some((key, value)) = line.trim().split_once(':') else { continue };
            let value = value.trim();
            let side = match section {
                "client" => &mut client,
                "server" => &mut server,
                _ => continue,
            };
            match key {
                "version" => side.version = Version::parse(value),
                "protocol" => side.protocol = value.parse().ok(),
                "status" if section == "server" => running = value == "running",
                "compatible" if section == "server" => compatible = Some(value == "yes"),
                _ => {}
            }
        }
        seen.then_some(SessionStatus { client, server: running.then_some(server), compatible })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_from_what_herdr_prints() {
        assert_eq!(Version::parse("herdr 0.8.2\n"), Some(Version(0, 8, 2)));
        assert_eq!(Version::parse("herdr 0.7.1"), Some(Version(0, 7, 1)));
        assert_eq!(Version::parse("0.9.0-rc1"), Some(Version(0, 9, 0)));
        assert_eq!(Version::parse("herdr"), None);
        assert_eq!(Version::parse("herdr 1.2.3.4"), None);
    }

    #[test]
    fn the_surface_changes_at_the_facade_release_and_nowhere_else() {
        let s = |v| Surface::of(v).unwrap();
        assert_eq!((s(Version(0, 7, 1)).title, s(Version(0, 7, 1)).recent), (TitleFrom::Explain, RecentAs::Text));
        assert_eq!((s(Version(0, 7, 4)).title, s(Version(0, 7, 4)).recent), (TitleFrom::Explain, RecentAs::Text));
        assert_eq!((s(Version(0, 7, 5)).title, s(Version(0, 7, 5)).recent), (TitleFrom::AgentGet, RecentAs::Ansi));
        assert_eq!((s(Version(0, 8, 2)).title, s(Version(0, 8, 2)).recent), (TitleFrom::AgentGet, RecentAs::Ansi));
        assert_eq!((s(Version(0, 7, 4)).naming, s(Version(0, 7, 5)).naming), (Naming::RenameShell, Naming::AgentStart));
        assert_eq!(
            Surface::of(Version(0, 6, 9)).unwrap_err().to_string(),
            "herdr 0.6.9 is older than team supports (herdr 0.7.1 or newer)"
        );
    }
}
