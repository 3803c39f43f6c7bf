//! What the profiles say about a seat's CLI — whether it carries the native channel, whether
//! its profile has a compose module — read from the profiles' descriptions, once per CLI and
//! pin in a run.
//!
//! Invariant: no vendor fact is a host constant. A seat whose `cli:` names no installed
//! profile is refused here, before anything is written, naming the installed profiles and
//! the nearest one; a pin nothing satisfies, or a profile that cannot be used, is refused in
//! the profile host's own words.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::error::{Kind, TeamError};
use crate::plan::Facts;
use crate::profiles::ProfileHost;

/// Why a seat's CLI has no facts: the sentence completes `<seat> …` (`runs "codx", which
/// names no installed profile …`), and a repair when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct NoFacts {
    pub kind: Kind,
    pub why: String,
    pub repair: Option<String>,
}

impl NoFacts {
    /// The refusal a send to `seat` gets (`refused: <seat> <why>; nothing was sent`).
    pub fn refusal(&self, seat: &str, what: &str) -> TeamError {
        let e = match self.kind {
            Kind::BadFile => TeamError::bad_file(format!("{seat} {}", self.why)),
            _ => TeamError::refused(format!("{seat} {}; nothing was {what}", self.why)),
        };
        match &self.repair {
            Some(r) => e.with_repair(r.clone()),
            None => e,
        }
    }
}

/// What was read for one `(cli, its pin)`.
type Read = Result<Facts, NoFacts>;

/// The facts of every CLI a run asks about, each read once.
pub struct FactsBook<'a> {
    profiles: &'a ProfileHost,
    seen: RefCell<HashMap<(String, Option<String>), Read>>,
}

impl<'a> FactsBook<'a> {
    pub fn new(profiles: &'a ProfileHost) -> Self {
        FactsBook { profiles, seen: RefCell::new(HashMap::new()) }
    }

    /// The facts of `cli` under the team's `pins`.
    pub fn of(&self, cli: &str, pins: &BTreeMap<String, String>) -> Result<Facts, NoFacts> {
        let key = (cli.to_string(), pins.get(cli).cloned());
        if let Some(f) = self.seen.borrow().get(&key) {
            return f.clone();
        }
        let got = self.read(cli, pins);
        self.seen.borrow_mut().insert(key, got.clone());
        got
    }

    fn read(&self, cli: &str, pins: &BTreeMap<String, String>) -> Result<Facts, NoFacts> {
        match self.profiles.description(cli, pins) {
            Ok((d, _)) => Ok(Facts {
                native_channel: d.native_channel,
                has_compose: d.has_compose,
                hooks: crate::vocab::leg::HookFormat::from_features(&d.features),
                hooks_installed: false,
            }),
            Err(_) if !self.profiles.installed_ids().contains(cli) => {
                Err(no_profile(cli, &self.profiles.installed_ids(), self.profiles.config_dir()))
            }
            Err(e) => Err(NoFacts {
                kind: e.kind,
                why: format!("runs {cli}, whose profile cannot be used: {}", e.sentence),
                repair: e.repair(),
            }),
        }
    }
}

fn no_profile(cli: &str, installed: &BTreeSet<String>, config: &std::path::Path) -> NoFacts {
    let list = if installed.is_empty() {
        "none".to_string()
    } else {
        installed.iter().cloned().collect::<Vec<_>>().join(", ")
    };
    let hint = match nearest(cli, installed) {
        Some(n) => format!(" (did you mean {n}?)"),
        None => String::new(),
    };
    let folder = if crate::profiles::store::valid_id(cli) {
        format!(", or drop its profile in as {}/profiles/{cli}/<version>.wasm", config.display())
    } else {
        String::new()
    };
    NoFacts {
        kind: Kind::Refused,
        why: format!("runs {}, which names no installed profile{hint}; the installed profiles are {list}", quoted(cli)),
        repair: Some(format!("write an installed profile's id as the seat's cli: in its team file{folder}")),
    }
}

/// `"codx"` as a refusal quotes a file's word (escaped, so the word cannot move the cursor).
fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// The installed id closest to `cli` (`crate::nearest`'s rule).
pub fn nearest<'i>(cli: &str, installed: &'i BTreeSet<String>) -> Option<&'i str> {
    crate::nearest::nearest(cli, installed.iter().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_nearest_installed_profile_is_named() {
        let installed = ids(&["agy", "claude-code", "codex", "cursor", "grok", "grok-cli"]);
        assert_eq!(nearest("codx", &installed), Some("codex"));
        assert_eq!(nearest("cdex", &installed), Some("codex"));
        assert_eq!(nearest("claude", &installed), Some("claude-code"));
        assert_eq!(nearest("grk", &installed), Some("grok"));
        assert_eq!(nearest("vim", &installed), None);
        assert_eq!(nearest("x", &installed), None);
    }

    #[test]
    fn no_profile_names_the_installed_and_the_way_out() {
        let n = no_profile("codx", &ids(&["claude-code", "codex"]), std::path::Path::new("/c"));
        let e = n.refusal("gpt-reviewer", "sent");
        assert_eq!(
            e.message(),
            "refused: gpt-reviewer runs \"codx\", which names no installed profile (did you mean codex?); the installed profiles are claude-code, codex; nothing was sent"
        );
        assert!(e.repair().unwrap().ends_with("/c/profiles/codx/<version>.wasm"));
        let n = no_profile("\u{1b}[2J", &ids(&[]), std::path::Path::new("/c"));
        assert!(n
            .why
            .starts_with("runs \"\\u{1b}[2J\", which names no installed profile; the installed profiles are none"));
        assert!(!n.repair.unwrap().contains("/c/profiles"), "a word that is no id names no folder");
    }
}
