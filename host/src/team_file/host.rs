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
//! Invariant: a [`Destination`] (`vocab::host`, where its grammar is) holds only `[user@]host` or `ssh://[user@]host[:port]` in a
//! closed alphabet (letters, digits, `.`, `_`, `-`; a bracketed IPv6 address in the URI form),
//! never starting with `-`, never holding whitespace, a control character, `%` or a quote: no
//! value the file can write is read by `ssh` as an option or expanded as a token. A host the
//! file writes that is not one loads as [`HostFault`] (kept, noted by `team check`); a send to
//! its seat is refused, never attempted.
//!
//! Which seats are this machine's own is not decided here: a seat with no `host:` is here; a
//! seat whose host is the one a hop arrived by (`Here`) is here on the far side of that hop.

use std::collections::BTreeMap;

pub use crate::vocab::host::{Destination, HostFault};

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

    /// The host words the owner of this machine wrote in `<config>/here`, one a line (`#`
    /// starts a comment): the seats of a team file whose `host:` is one of them are this
    /// machine's own, so a send run here to them is local, never a hop to itself. A file the
    /// owner wrote, never the environment, says which machine this is (docs/remote.md).
    pub fn of_config(config: &std::path::Path) -> Here {
        let text = std::fs::read(config.join("here")).unwrap_or_default();
        let text = String::from_utf8_lossy(&text[..text.len().min(64 * 1024)]).into_owned();
        let words = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        Here { words }
    }

    /// The word this machine answers to first (its owner's `<config>/here`, or the word a hop
    /// arrived by): what a hop from here tells the far side, so an answer can come back.
    pub fn first(&self) -> Option<&str> {
        self.words.first().map(String::as_str)
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

    #[test]
    fn this_machines_words_are_the_ones_its_owner_wrote() {
        let d = tempfile::tempdir().unwrap();
        let hosts = Hosts::default();
        assert!(!Here::of_config(d.path()).holds(Some(&hosts.resolve("lab", 1))), "no file: no host is here");
        std::fs::write(d.path().join("here"), "# this laptop\nlab  # as the team file names it\n\n").unwrap();
        let here = Here::of_config(d.path());
        assert!(here.holds(Some(&hosts.resolve("lab", 1))));
        assert!(!here.holds(Some(&hosts.resolve("other", 1))));
        assert!(here.holds(None));
    }
}
