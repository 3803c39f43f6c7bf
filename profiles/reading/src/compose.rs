//! The compose vocabulary (WIT `team:profile/compose@0.2.0`): what a compose module is told and
//! what it asks the host to do, one action at a time.
//!
//! Invariant: a [`Key`] the host does not know stays [`Key::Unknown`] with its name, so a
//! module's request to press it is seen (and refused) rather than mapped to something else.

use std::fmt;

/// The repository a brief is typed for: the seat's folder's `git remote get-url origin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The origin URL as git prints it.
    pub origin: String,
    /// `owner/name`, read from the origin.
    pub slug: String,
}

impl Repo {
    /// The repo of an origin URL: `https://host/owner/name(.git)`, `ssh://git@host/owner/name`,
    /// `git@host:owner/name.git`. `None` when no `owner/name` can be read from it.
    pub fn from_origin(origin: &str) -> Option<Repo> {
        let o = origin.trim();
        let path = if let Some((_, rest)) = o.split_once("://") {
            rest.split_once('/')?.1
        } else if let Some((host, rest)) = o.split_once(':') {
            // scp-like `user@host:owner/name`; a bare local path has no `:`.
            if host.contains('/') {
                return None;
            }
            rest
        } else {
            return None;
        };
        let path = path.trim_end_matches('/');
        let path = path.strip_suffix(".git").unwrap_or(path);
        let mut parts = path.rsplit('/');
        let name = parts.next().filter(|s| !s.is_empty())?;
        let owner = parts.next().filter(|s| !s.is_empty())?;
        Some(Repo { origin: o.to_string(), slug: format!("{owner}/{name}") })
    }

    /// The repo's name (the part after `/`).
    pub fn name(&self) -> &str {
        self.slug.rsplit('/').next().unwrap_or(&self.slug)
    }
}

/// A key a compose module may ask the host to press.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Enter,
    Down,
    Up,
    Backspace,
    /// Ctrl+O (`codex cloud`'s environment chooser from the composer).
    CtrlO,
    /// A name the host does not press.
    Unknown(String),
}

impl Key {
    /// The keys the host presses for a compose module, and nothing else.
    pub const ALLOWED: [Key; 5] = [Key::Enter, Key::Down, Key::Up, Key::Backspace, Key::CtrlO];

    /// The key a WIT name names (`enter`, `down`, `up`, `backspace`, `ctrl-o`).
    pub fn from_name(name: &str) -> Key {
        Key::ALLOWED.into_iter().find(|k| k.name() == name).unwrap_or_else(|| Key::Unknown(name.to_string()))
    }

    /// The WIT name.
    pub fn name(&self) -> &str {
        match self {
            Key::Enter => "enter",
            Key::Down => "down",
            Key::Up => "up",
            Key::Backspace => "backspace",
            Key::CtrlO => "ctrl-o",
            Key::Unknown(n) => n,
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the CLI printed that proves the item was created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// The screen row that shows it.
    pub line: String,
    /// The item's id, when the screen showed it.
    pub task_id: Option<String>,
}

/// One thing for the host to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Type this text (printable characters only).
    Type(String),
    /// Press one key.
    Press(Key),
    /// Wait this many milliseconds, then read the screen again.
    Wait(u32),
    /// The item exists.
    Created(Evidence),
    /// Nothing more is done: the brief cannot be composed here.
    Refuse(String),
    /// The CLI did not take what was typed; what it said.
    Failed(String),
}

impl fmt::Display for Action {
    /// `type "…"`, `press down`, `wait 50 ms`, `created: …`, `refuse: …`, `failed: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Type(t) => write!(f, "type {t:?}"),
            Action::Press(k) => write!(f, "press {k}"),
            Action::Wait(ms) => write!(f, "wait {ms} ms"),
            Action::Created(e) => write!(f, "created: {}", e.line),
            Action::Refuse(r) => write!(f, "refuse: {r}"),
            Action::Failed(r) => write!(f, "failed: {r}"),
        }
    }
}

/// Where a compose run is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// How many actions the host has executed.
    pub index: u32,
    /// Milliseconds since the compose began.
    pub elapsed_ms: u32,
    /// The actions executed so far, oldest first.
    pub done: Vec<Action>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_of_every_form_name_their_repo() {
        for o in [
            "https://github.com/acme/team-beta.git",
            "https://github.com/acme/team-beta",
            "ssh://git@github.com/acme/team-beta.git",
            "git@github.com:acme/team-beta.git",
            "https://github.com/acme/team-beta/\n",
        ] {
            assert_eq!(Repo::from_origin(o).map(|r| r.slug), Some("acme/team-beta".to_string()), "{o}");
        }
        assert_eq!(Repo::from_origin("git@github.com:acme/team-beta.git").unwrap().name(), "team-beta");
        for o in ["", "/srv/git/repo", "https://github.com/", "https://github.com/only"] {
            assert_eq!(Repo::from_origin(o), None, "{o}");
        }
    }

    #[test]
    fn keys_outside_the_allowed_set_stay_unknown() {
        for k in Key::ALLOWED {
            assert_eq!(Key::from_name(k.name()), k);
        }
        assert_eq!(Key::from_name("escape"), Key::Unknown("escape".into()));
        assert_eq!(Action::Press(Key::CtrlO).to_string(), "press ctrl-o");
    }
}
