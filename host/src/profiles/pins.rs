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

use std::cmp::Ordering;
use std::fmt;

/// A semantic version `major.minor.patch[-pre][+build]` (build metadata ignored in ordering).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Pre-release identifiers, empty for a release.
    pub pre: Vec<String>,
}

impl Version {
    /// Parses a full `x.y.z[-pre][+build]`; partial versions are refused here.
    pub fn parse(s: &str) -> Result<Version, String> {
        let (v, partial) = parse_partial(s)?;
        if partial < 3 {
            return Err(format!("\"{s}\" is not a full version (major.minor.patch)"));
        }
        Ok(v)
    }

    fn triple(&self) -> (u64, u64, u64) {
        (self.major, self.minor, self.patch)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        Ok(())
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.triple().cmp(&other.triple()).then_with(|| cmp_pre(&self.pre, &other.pre))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Semver precedence of pre-release lists: a release is above any pre-release; numeric
/// identifiers compare numerically and sort below alphanumeric ones.
fn cmp_pre(a: &[String], b: &[String]) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    for (x, y) in a.iter().zip(b) {
        let o = match (x.parse::<u64>(), y.parse::<u64>()) {
            (Ok(m), Ok(n)) => m.cmp(&n),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            (Err(_), Err(_)) => x.cmp(y),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// Parses a possibly partial version; returns it (missing parts as 0) and how many of
/// major/minor/patch were given (1..=3).
fn parse_partial(s: &str) -> Result<(Version, usize), String> {
    let bad = || format!("\"{s}\" is not a version");
    let s = s.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let s = s.split('+').next().unwrap_or(s);
    let (core, pre) = match s.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (s, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut nums = [0u64; 3];
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || (p.len() > 1 && p.starts_with('0')) {
            return Err(bad());
        }
        nums[i] = p.parse().map_err(|_| bad())?;
    }
    let pre: Vec<String> = match pre {
        Some(p) => {
            if parts.len() < 3 {
                return Err(bad());
            }
            let ids: Vec<String> = p.split('.').map(str::to_string).collect();
            if ids.iter().any(|i| i.is_empty() || !i.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')) {
                return Err(bad());
            }
            ids
        }
        None => Vec::new(),
    };
    Ok((Version { major: nums[0], minor: nums[1], patch: nums[2], pre }, parts.len()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Gt,
    Ge,
    Lt,
    Le,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Comparator {
    op: Op,
    v: Version,
}

impl Comparator {
    fn matches(&self, v: &Version) -> bool {
        let o = v.cmp(&self.v);
        match self.op {
            Op::Eq => o == Ordering::Equal,
            Op::Gt => o == Ordering::Greater,
            Op::Ge => o != Ordering::Less,
            Op::Lt => o == Ordering::Less,
            Op::Le => o != Ordering::Greater,
        }
    }
}

/// A parsed version requirement (see the module doc for the grammar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    text: String,
    all: Vec<Comparator>,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn upper(v: &Version) -> Version {
    Version { major: v.major, minor: v.minor, patch: v.patch, pre: vec!["0".into()] }
}

impl Requirement {
    pub fn parse(text: &str) -> Result<Requirement, String> {
        let mut all = Vec::new();
        let words: Vec<String> = tokens(text);
        let mut i = 0;
        while i < words.len() {
            let w = &words[i];
            // An operator written apart from its version (`>= 1.2`).
            let (op, rest) = split_op(w);
            let rest = if rest.is_empty() && !op.is_empty() {
                i += 1;
                words.get(i).cloned().ok_or_else(|| format!("\"{text}\": `{op}` without a version"))?
            } else {
                rest.to_string()
            };
            i += 1;
            if op.is_empty() && (rest == "*" || rest == "x") {
                continue;
            }
            let rest = rest.trim_end_matches(".*").trim_end_matches(".x").to_string();
            let (v, n) = parse_partial(&rest).map_err(|e| format!("pin \"{text}\": {e}"))?;
            let bump = |n: usize, v: &Version| -> Version {
                match n {
                    1 => Version { major: v.major + 1, minor: 0, patch: 0, pre: vec![] },
                    2 => Version { major: v.major, minor: v.minor + 1, patch: 0, pre: vec![] },
                    _ => Version { major: v.major, minor: v.minor, patch: v.patch + 1, pre: vec![] },
                }
            };
            let lower = |v: &Version| Comparator { op: Op::Ge, v: v.clone() };
            match op {
                "" | "=" if n == 3 => all.push(Comparator { op: Op::Eq, v }),
                "" | "=" => {
                    all.push(lower(&v));
                    all.push(Comparator { op: Op::Lt, v: upper(&bump(n, &v)) });
                }
                "^" => {
                    let hi = if v.major > 0 || n == 1 {
                        bump(1, &v)
                    } else if v.minor > 0 || n == 2 {
                        bump(2, &v)
                    } else {
                        bump(3, &v)
                    };
                    all.push(lower(&v));
                    all.push(Comparator { op: Op::Lt, v: upper(&hi) });
                }
                "~" => {
                    let hi = if n == 1 { bump(1, &v) } else { bump(2, &v) };
                    all.push(lower(&v));
                    all.push(Comparator { op: Op::Lt, v: upper(&hi) });
                }
                ">=" => all.push(lower(&v)),
                ">" if n == 3 => all.push(Comparator { op: Op::Gt, v }),
                ">" => all.push(lower(&bump(n, &v))),
                "<" => all.push(Comparator { op: Op::Lt, v: upper(&v) }),
                "<=" if n == 3 => all.push(Comparator { op: Op::Le, v }),
                "<=" => all.push(Comparator { op: Op::Lt, v: upper(&bump(n, &v)) }),
                _ => return Err(format!("pin \"{text}\": unknown operator `{op}`")),
            }
        }
        Ok(Requirement { text: text.trim().to_string(), all })
    }

    /// Whether `v` satisfies every comparator; a pre-release only when some comparator
    /// names a pre-release of the same `major.minor.patch`.
    pub fn matches(&self, v: &Version) -> bool {
        if !v.pre.is_empty()
            && !self.all.iter().any(|c| !c.v.pre.is_empty() && c.v.pre != ["0"] && c.v.triple() == v.triple())
        {
            return false;
        }
        self.all.iter().all(|c| c.matches(v))
    }
}

fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

fn split_op(w: &str) -> (&str, &str) {
    for op in [">=", "<=", "^", "~", "=", ">", "<"] {
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
