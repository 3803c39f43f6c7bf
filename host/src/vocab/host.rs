//! The grammar of an ssh destination (a seat's `host:`, an entry of the team file's `hosts:`):
//! [`Destination`], the one value `team` hands to `ssh` as its destination argument.
//!
//! Invariant: a [`Destination`] holds only `[user@]host` or `ssh://[user@]host[:port]` in a
//! closed alphabet — never a leading `-`, whitespace, a control character, `%` or a quote —
//! so no value can be read by `ssh` as an option or expanded as one of its tokens.

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
}
