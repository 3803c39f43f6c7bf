//! Where a seat runs: the seat's `host:` and the file's `hosts:` map, read into a
//! [`Destination`] that is handed to `ssh` as its destination argument.
//!
//! ```yaml
//! hosts:
//!   lab: owner@lab.example.net        # a name for a destination
//! seats:
//!   - name: reviewer
//!     cli: codex
//!     host: lab                       # a name of hosts:, or a destination written out
//! ```
//!
//! Invariant: a [`Destination`] holds only `[user@]host` or `ssh://[user@]host[:port]` in a
//! closed alphabet (letters, digits, `.`, `_`, `-`; a bracketed IPv6 address in the URI form),
//! never starting with `-`, never holding whitespace, a control character, `%` or a quote: no
//! value the file can write is read by `ssh` as an option or expanded as a token. A host the
//! file writes that is not one loads as [`HostFault`] (kept, noted by `team check`); a send to
//! its seat is refused, never attempted.
//!
//! Which seats are this machine's own is not decided here: a seat with no `host:` is here; a
//! seat whose host is the one a hop arrived by (`Here`) is here on the far side of that hop.

use std::collections::BTreeMap;

/// The most a destination may hold (a DNS name is at most 253, a user 32, the URI's parts).
const MAX: usize = 300;

/// An ssh destination, checked: safe to hand to `ssh` as its destination argument.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Destination(String);

impl Destination {
    /// Reads `text` as an ssh destination, or says why it is not one.
    pub fn parse(text: &str) -> Result<Destination, HostFault> {
        if text.is_empty() {
            return Err(HostFault::Empty);
        }
        if text.len() > MAX {
            return Err(HostFault::TooLong);
        }
        if text.starts_with('-') {
            return Err(HostFault::LeadingDash);
        }
        if let Some(c) = text.chars().find(|c| c.is_whitespace() || c.is_control()) {
            return Err(HostFault::Char(c));
        }
        match text.strip_prefix("ssh://") {
            Some(rest) => uri(rest)?,
            None => plain(text)?,
        }
        Ok(Destination(text.to_string()))
    }

    /// The destination as `ssh` takes it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `[user@]host`: no port (a port is written `ssh://host:port` or in `~/.ssh/config`).
fn plain(text: &str) -> Result<(), HostFault> {
    let host = user_part(text)?;
    hostname(host)
}

/// `[user@]host[:port]` after `ssh://`, the host possibly a bracketed IPv6 address.
fn uri(rest: &str) -> Result<(), HostFault> {
    let hostport = user_part(rest)?;
    let (host, port) = match hostport.strip_prefix('[') {
        Some(v6) => {
            let (addr, after) = v6.split_once(']').ok_or(HostFault::Host)?;
            if addr.is_empty() || !addr.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.') {
                return Err(HostFault::Host);
            }
            match after {
                "" => return Ok(()),
                p => (None, Some(p.strip_prefix(':').ok_or(HostFault::Host)?)),
            }
        }
        None => match hostport.split_once(':') {
            Some((h, p)) => (Some(h), Some(p)),
            None => (Some(hostport), None),
        },
    };
    if let Some(h) = host {
        hostname(h)?;
    }
    match port {
        None => Ok(()),
        Some(p) if p.len() <= 5 && !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => match p.parse::<u32>() {
            Ok(n) if (1..=65535).contains(&n) => Ok(()),
            _ => Err(HostFault::Port),
        },
        Some(_) => Err(HostFault::Port),
    }
}

/// Splits off `user@` (checked) and answers what follows it.
fn user_part(text: &str) -> Result<&str, HostFault> {
    match text.rsplit_once('@') {
        None => Ok(text),
        Some((user, host)) => {
            let ok = user.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && user.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
            if ok {
                Ok(host)
            } else {
                Err(HostFault::User)
            }
        }
    }
}

/// A host name, an IPv4 address or an `~/.ssh/config` alias: letters, digits, `.`, `_`, `-`,
/// starting with a letter or digit.
fn hostname(h: &str) -> Result<(), HostFault> {
    let ok = h.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && h.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(HostFault::Host)
    }
}

/// Why a host the file writes is not an ssh destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostFault {
    Empty,
    TooLong,
    /// `ssh` would read it as an option.
    LeadingDash,
    /// Whitespace or a control character.
    Char(char),
    User,
    Host,
    Port,
}

impl std::fmt::Display for HostFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostFault::Empty => f.write_str("it is empty"),
            HostFault::TooLong => write!(f, "it is longer than {MAX} characters"),
            HostFault::LeadingDash => f.write_str("it starts with '-', which ssh would read as an option"),
            HostFault::Char(c) => write!(f, "it holds {:?}, whitespace or a control character", c),
            HostFault::User => f.write_str("its user (before '@') is not letters, digits, '.', '_' or '-'"),
            HostFault::Host => f.write_str("its host is not a host name, an IPv4 address or [an IPv6 address]"),
            HostFault::Port => f.write_str("its port is not a number from 1 to 65535"),
        }
    }
}

/// A seat's `host:` as the file writes it, and what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatHost {
    /// The word as written: a name of `hosts:`, or a destination written out. This is the
    /// host's identity in the team (the far side of a hop is told it).
    pub word: String,
    /// The destination it names, or why it names none.
    pub dest: Result<Destination, HostFault>,
    /// The line of the seat's `host:` key.
    pub line: usize,
}

/// The file's `hosts:` map, each destination read (a bad one kept with its fault and line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hosts {
    pub named: BTreeMap<String, (Result<Destination, HostFault>, usize)>,
}

impl Hosts {
    /// The host a seat's `host:` word names: the `hosts:` entry of that name, else the word
    /// read as a destination.
    pub fn resolve(&self, word: &str, line: usize) -> SeatHost {
        let dest = match self.named.get(word) {
            Some((d, _)) => d.clone(),
            None => Destination::parse(word),
        };
        SeatHost { word: word.to_string(), dest, line }
    }
}

/// The host words this run stands on: a seat whose `host:` is one of them is here. Empty for
/// an ordinary run (only seats with no `host:` are here); the far side of a hop stands on the
/// word the hop arrived by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Here {
    words: Vec<String>,
}

impl Here {
    /// A run standing on `word` (the far side of a hop that came by it).
    pub fn on(word: &str) -> Here {
        Here { words: vec![word.to_string()] }
    }

    /// Whether a seat with this `host:` (none: the seat is on every machine's own) is here.
    pub fn holds(&self, host: Option<&SeatHost>) -> bool {
        match host {
            None => true,
            Some(h) => self.words.contains(&h.word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_ssh_takes() {
        for ok in [
            "lab",
            "lab.example.net",
            "owner@lab",
            "o.w-n_er@10.0.0.7",
            "ssh://owner@lab:2222",
            "ssh://lab",
            "ssh://[::1]:22",
            "ssh://owner@[fe80::1]",
        ] {
            assert_eq!(Destination::parse(ok).map(|d| d.to_string()), Ok(ok.to_string()), "{ok}");
        }
    }

    /// The class of argument injection: anything ssh could read as an option, or a shell or
    /// ssh token, or split at whitespace.
    #[test]
    fn anything_ssh_could_read_as_an_option_is_refused() {
        let cases: &[(&str, HostFault)] = &[
            ("", HostFault::Empty),
            ("-oProxyCommand=touch /tmp/x", HostFault::LeadingDash),
            ("-lroot", HostFault::LeadingDash),
            ("lab -oProxyCommand=x", HostFault::Char(' ')),
            ("lab\t", HostFault::Char('\t')),
            ("lab\n-oX", HostFault::Char('\n')),
            ("lab\u{1b}[2J", HostFault::Char('\u{1b}')),
            ("lab\u{a0}x", HostFault::Char('\u{a0}')),
            ("-@lab", HostFault::LeadingDash),
            ("x@-lab", HostFault::Host),
            ("lab;rm", HostFault::Host),
            ("lab:22", HostFault::Host),
            ("%h", HostFault::Host),
            ("'lab'", HostFault::Host),
            ("us er@lab", HostFault::Char(' ')),
            ("u$x@lab", HostFault::User),
            ("ssh://lab:0", HostFault::Port),
            ("ssh://lab:99999", HostFault::Port),
            ("ssh://lab:x", HostFault::Port),
            ("ssh://lab/path", HostFault::Host),
            ("ssh://-oX", HostFault::Host),
            ("ssh://[::1", HostFault::Host),
        ];
        for (text, fault) in cases {
            assert_eq!(Destination::parse(text), Err(*fault), "{text:?}");
        }
        assert_eq!(Destination::parse(&"a".repeat(301)), Err(HostFault::TooLong));
    }

    #[test]
    fn a_seat_host_names_a_hosts_entry_or_is_a_destination() {
        let mut hosts = Hosts::default();
        hosts.named.insert("lab".into(), (Destination::parse("owner@lab.example.net"), 2));
        let h = hosts.resolve("lab", 7);
        assert_eq!(h.dest.unwrap().as_str(), "owner@lab.example.net");
        assert_eq!(hosts.resolve("other@box", 8).dest.unwrap().as_str(), "other@box");
        assert_eq!(hosts.resolve("-x", 9).dest, Err(HostFault::LeadingDash));
    }

    #[test]
    fn here_holds_the_seats_without_host_and_the_hops_own() {
        let hosts = Hosts::default();
        let lab = hosts.resolve("lab", 3);
        assert!(Here::default().holds(None));
        assert!(!Here::default().holds(Some(&lab)));
        assert!(Here::on("lab").holds(Some(&lab)));
        assert!(Here::on("lab").holds(None));
        assert!(!Here::on("lab2").holds(Some(&lab)));
    }
}
