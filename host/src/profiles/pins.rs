//! Profile versions and the team file's pins (`profiles: {codex: "1.4"}`).
//!
//! **Settled** pin grammar (npm-style X-ranges, chosen because a pin names the version a team
//! *trusts*: a vendor's next minor release may read screens differently, so it is not picked
//! up silently):
//! - a bare partial version matches every version with that prefix: `"1.4"` = `>=1.4.0,
//!   <1.5.0`; `"1"` = `>=1.0.0, <2.0.0`; `"1.4.2"` = exactly `1.4.2`; `"*"` or `""` = any;
//! - `^1.4` (same major, or same minor below 1.0), `~1.4` (same minor), `=1.4.2`,
//!   `>=`, `>`, `<=`, `<` with a version, partial versions filled with zeros;
//! - several comparators joined by `,` (or spaces) must all hold: `">=1.2, <1.6"`.
//!
//! A pre-release version (`1.5.0-beta.1`) is chosen only by a requirement that names a
//! pre-release of the same `major.minor.patch`, so a pin never slides onto a beta.
//! Invariant: resolution picks the highest satisfying version, deterministically.
//!
//! The versions and their precedence, and the matching, are the `semver` crate's; what is
//! this module's own is the grammar above, read into `semver`'s comparators: a bare pin is
//! `semver`'s `=` (which fills a partial version as a range: `=1.4` is `>=1.4.0, <1.5.0`),
//! never Cargo's default caret.

use std::fmt;

/// A semantic version `major.minor.patch[-pre]`, build metadata dropped (it never orders).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(semver::Version);

impl Version {
    /// Parses a full `x.y.z[-pre][+build]` (a leading `v` allowed); partial versions are
    /// refused here.
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        match semver::Version::parse(t) {
            Ok(mut v) => {
                v.build = semver::BuildMetadata::EMPTY;
                Ok(Version(v))
            }
            Err(_) if is_partial(t) => Err(VersionError::Partial(s.to_string())),
            Err(_) => Err(VersionError::NotAVersion(s.to_string())),
        }
    }
}

/// Why a word is not a version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// `1`, `1.4`: parts missing (a pin may say that; a version may not).
    #[error("\"{0}\" is not a full version (major.minor.patch)")]
    Partial(String),
    #[error("\"{0}\" is not a version")]
    NotAVersion(String),
}

/// Why a pin cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PinError {
    /// `>=` with nothing after it.
    #[error("\"{text}\": `{op}` without a version")]
    OperatorAlone { text: String, op: String },
    /// A comparator whose version does not start with a digit.
    #[error("pin \"{text}\": \"{version}\" is not a version")]
    NotAVersion { text: String, version: String },
    /// What semver's own grammar refused, in its words.
    #[error("pin \"{text}\": {why}")]
    Grammar { text: String, why: String },
}

/// `1` or `1.4`: a version with parts missing, not a malformed one.
fn is_partial(t: &str) -> bool {
    let parts: Vec<&str> = t.split('.').collect();
    parts.len() < 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

impl std::ops::Deref for Version {
    type Target = semver::Version;
    fn deref(&self) -> &semver::Version {
        &self.0
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A parsed version requirement (see the module doc for the grammar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    text: String,
    req: semver::VersionReq,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

const OPERATORS: [&str; 7] = [">=", "<=", "^", "~", "=", ">", "<"];

impl Requirement {
    pub fn parse(text: &str) -> Result<Requirement, PinError> {
        let words: Vec<&str> = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
        let mut comparators = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let (op, mut version) = split_op(words[i]);
            // An operator written apart from its version (`>= 1.2`).
            if version.is_empty() && !op.is_empty() {
                i += 1;
                version = words
                    .get(i)
                    .ok_or_else(|| PinError::OperatorAlone { text: text.to_string(), op: op.to_string() })?;
            }
            i += 1;
            if op.is_empty() && (version == "*" || version == "x") {
                continue;
            }
            let version = version.strip_prefix('v').unwrap_or(version);
            let version = version.trim_end_matches(".*").trim_end_matches(".x");
            if !version.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(PinError::NotAVersion { text: text.to_string(), version: version.to_string() });
            }
            // A bare version is a prefix (`semver`'s `=`), not Cargo's default caret.
            comparators.push(format!("{}{version}", if op.is_empty() { "=" } else { op }));
        }
        let req = if comparators.is_empty() {
            semver::VersionReq::STAR
        } else {
            semver::VersionReq::parse(&comparators.join(", "))
                .map_err(|e| PinError::Grammar { text: text.to_string(), why: e.to_string() })?
        };
        Ok(Requirement { text: text.trim().to_string(), req })
    }

    /// Whether `v` satisfies every comparator; a pre-release only when some comparator
    /// names a pre-release of the same `major.minor.patch`.
    pub fn matches(&self, v: &Version) -> bool {
        self.req.matches(&v.0)
    }
}

/// The operator a word opens with, and the rest; `""` when it opens with none.
fn split_op(w: &str) -> (&str, &str) {
    for op in OPERATORS {
        if let Some(rest) = w.strip_prefix(op) {
            return (op, rest);
        }
    }
    ("", w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }
    fn m(req: &str, ver: &str) -> bool {
        Requirement::parse(req).unwrap().matches(&v(ver))
    }

    #[test]
    fn versions_order_by_semver_precedence() {
        assert!(v("1.10.0") > v("1.9.9"));
        assert!(v("1.0.0") > v("1.0.0-rc.1"));
        assert!(v("1.0.0-alpha.2") < v("1.0.0-alpha.10"));
        assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1"));
        assert!(v("1.0.0-1") < v("1.0.0-a"));
        assert!(Version::parse("1.4").is_err());
        assert!(Version::parse("01.4.0").is_err());
        assert!(Version::parse("1.4.x").is_err());
        assert_eq!(v("v1.2.3+abc").to_string(), "1.2.3");
    }

    #[test]
    fn a_bare_partial_pin_is_a_prefix() {
        assert!(m("1.4", "1.4.0"));
        assert!(m("1.4", "1.4.9"));
        assert!(!m("1.4", "1.5.0"));
        assert!(!m("1.4", "1.3.9"));
        assert!(!m("1.4", "2.0.0"));
        assert!(m("1", "1.9.0"));
        assert!(!m("1", "2.0.0"));
        assert!(m("1.4.2", "1.4.2"));
        assert!(!m("1.4.2", "1.4.3"));
        assert!(m("1.4.x", "1.4.7"));
        assert!(m("*", "0.0.1"));
        assert!(m("", "3.0.0"));
    }

    #[test]
    fn operators_and_conjunctions() {
        assert!(m("^1.4", "1.9.0"));
        assert!(!m("^1.4", "2.0.0"));
        assert!(m("^0.2.3", "0.2.9"));
        assert!(!m("^0.2.3", "0.3.0"));
        assert!(m("~1.4", "1.4.5"));
        assert!(!m("~1.4", "1.5.0"));
        assert!(m(">=1.2, <1.6", "1.5.9"));
        assert!(!m(">=1.2, <1.6", "1.6.0"));
        assert!(m(">= 1.2", "1.2.0"));
        assert!(m(">1.4", "1.5.0"));
        assert!(!m(">1.4", "1.4.9"));
        assert!(m("<=1.4", "1.4.9"));
        assert!(!m("<=1.4", "1.5.0"));
        assert!(m("=1.4.2", "1.4.2"));
        assert!(m("^0.0.3", "0.0.3") && !m("^0.0.3", "0.0.4"));
        assert!(m("^0.0", "0.0.9") && !m("^0.0", "0.1.0"));
        assert!(m("~1", "1.9.0") && !m("~1", "2.0.0"));
        assert!(m("~1.4.2", "1.4.9") && !m("~1.4.2", "1.5.0"));
        assert!(m("<1.4", "1.3.9") && !m("<1.4", "1.4.0"));
        assert!(m("v1.4", "1.4.3"));
        assert_eq!(Requirement::parse(">= 1.2, <1.6").unwrap().to_string(), ">= 1.2, <1.6");
        assert!(Requirement::parse("!1.4").is_err());
        assert!(Requirement::parse("1.4.2.1").is_err());
        assert!(Requirement::parse(">=").is_err());
    }

    #[test]
    fn pre_releases_only_when_named() {
        assert!(!m("1.5", "1.5.0-beta.1"));
        assert!(!m("*", "1.5.0-beta.1"));
        assert!(m("=1.5.0-beta.1", "1.5.0-beta.1"));
        assert!(m(">=1.5.0-beta.1", "1.5.0-beta.2"));
        assert!(!m(">=1.5.0-beta.1", "1.6.0-beta.2"));
    }
}
