//! Urgent alerts coalesced: of one seat's alerts of one kind (40 sends to it held in five
//! seconds, 20 replies from it), the first in a [`WINDOW`] runs the notify command and the rest
//! are counted, not run. The count reaches the owner with the next alert of that kind past the
//! window (`… (and 39 more since 09:00:05)`) or in `team watch`'s digest, whichever comes first,
//! and is then cleared.
//!
//! Invariants: the book (`notify-coalesced.json` in the project's history folder) is read and
//! written under its lock, so two sends at once never both run for one key inside a window; a
//! book that cannot be locked, read or written lets the alert run (one alert too many, never one
//! lost); a count is cleared only by the run that carried it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use crate::history::ledger::instant;
use crate::team_file::notify::Event as Kind;

/// How long one seat's alerts of one kind are coalesced after the one that ran.
pub const WINDOW: Duration = Duration::from_secs(60);

const BOOK: &str = "notify-coalesced.json";
const LOCK: &str = "notify-coalesced.lock";
const MAX_BYTES: u64 = 256 * 1024;

/// One key's record: when its alert last ran, and what was held back since.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Entry {
    sent: String,
    #[serde(default)]
    held_back: u32,
    /// When the first alert held back came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    since: Option<String>,
    /// Who sent the last one held back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<String>,
}

type Book = BTreeMap<String, Entry>;

/// What to do with an urgent alert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admit {
    /// Run it; `earlier` alerts of its key were held back since `since`.
    Run { earlier: u32, since: Option<String> },
    /// Counted: an alert of its key ran inside the window.
    HeldBack,
}

/// The counts held back, for the digest: `(kind, seat, count, since, from)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub kind: Kind,
    pub seat: String,
    pub count: u32,
    pub since: String,
    pub from: String,
}

fn key(kind: Kind, seat: &str) -> String {
    format!("{}/{seat}", kind.word())
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn read(dir: &Path) -> Book {
    crate::fsx::read_capped(&dir.join(BOOK), MAX_BYTES)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn write(dir: &Path, book: &Book) {
    if let Ok(body) = serde_json::to_vec(book) {
        let _ = crate::fsx::write_atomic(&dir.join(BOOK), &body, 0o600);
    }
}

/// Runs `f` on the book of the history folder `dir` (made under `config` when missing) under
/// its lock; `None` when the book cannot be had.
fn with_book<T>(config: &Path, dir: &Path, f: impl FnOnce(&mut Book) -> T) -> Option<T> {
    let dir = crate::fsx::ensure_dirs(config, Path::new(dir.file_name()?), 0o700).ok()?;
    let _held = crate::lockfile::take(&dir.join(LOCK), "notify", Duration::from_secs(2), |_| true).ok()?;
    let mut book = read(&dir);
    let out = f(&mut book);
    write(&dir, &book);
    Some(out)
}

/// Whether the alert of `kind` about `seat` (sent by `from`) runs at `now`.
pub fn admit(config: &Path, dir: &Path, kind: Kind, seat: &str, from: &str, now: DateTime<Utc>) -> Admit {
    let window = chrono::Duration::from_std(WINDOW).unwrap_or_default();
    let decided = with_book(config, dir, |book| {
        let e = book.entry(key(kind, seat)).or_default();
        let last = instant(&e.sent);
        if last.is_some_and(|t| now >= t && now - t < window) {
            e.held_back += 1;
            e.since.get_or_insert_with(|| stamp(now));
            e.from = Some(from.to_string());
            return Admit::HeldBack;
        }
        let ran = Admit::Run { earlier: e.held_back, since: e.since.take() };
        *e = Entry { sent: stamp(now), ..Entry::default() };
        ran
    });
    decided.unwrap_or(Admit::Run { earlier: 0, since: None })
}

/// The counts held back and not yet carried, oldest first.
pub fn pending(dir: &Path) -> Vec<Pending> {
    let mut out: Vec<Pending> = read(dir)
        .into_iter()
        .filter(|(_, e)| e.held_back > 0)
        .filter_map(|(k, e)| {
            let (word, seat) = k.split_once('/')?;
            let kind = Kind::ALL.iter().copied().find(|x| x.word() == word)?;
            Some(Pending {
                kind,
                seat: seat.to_string(),
                count: e.held_back,
                since: e.since.unwrap_or(e.sent),
                from: e.from.unwrap_or_default(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.since.cmp(&b.since));
    out
}

/// Clears the counts a digest carried (only what it carried: alerts held back meanwhile stay).
pub fn carried(config: &Path, dir: &Path, done: &[Pending]) {
    with_book(config, dir, |book| {
        for p in done {
            if let Some(e) = book.get_mut(&key(p.kind, &p.seat)) {
                e.held_back = e.held_back.saturating_sub(p.count);
                if e.held_back == 0 {
                    e.since = None;
                    e.from = None;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        instant(s).unwrap()
    }

    #[test]
    fn one_seat_s_alerts_of_one_kind_run_once_a_window_and_the_rest_are_counted() {
        let d = tempfile::tempdir().unwrap();
        let config = d.path();
        let dir = config.join("beacon-0123abcd");
        let t0 = "2026-12-06T09:00:00Z";
        assert_eq!(admit(config, &dir, Kind::Held, "rev", "owner", at(t0)), Admit::Run { earlier: 0, since: None });
        for _ in 0..39 {
            assert_eq!(admit(config, &dir, Kind::Held, "rev", "lead", at("2026-12-06T09:00:05Z")), Admit::HeldBack);
        }
        // another seat, another kind: their own keys
        assert!(matches!(admit(config, &dir, Kind::Held, "keeper", "owner", at(t0)), Admit::Run { .. }));
        assert!(matches!(admit(config, &dir, Kind::Unreachable, "rev", "owner", at(t0)), Admit::Run { .. }));
        let p = pending(&dir);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(
            (p[0].kind, p[0].seat.as_str(), p[0].count, p[0].since.as_str(), p[0].from.as_str()),
            (Kind::Held, "rev", 39, "2026-12-06T09:00:05Z", "lead")
        );
        // past the window the next one runs and carries the count
        assert_eq!(
            admit(config, &dir, Kind::Held, "rev", "owner", at("2026-12-06T09:01:00Z")),
            Admit::Run { earlier: 39, since: Some("2026-12-06T09:00:05Z".into()) }
        );
        assert!(pending(&dir).is_empty());
    }

    #[test]
    fn a_digest_clears_what_it_carried_and_nothing_more() {
        let d = tempfile::tempdir().unwrap();
        let config = d.path();
        let dir = config.join("beacon-0123abcd");
        let t = at("2026-12-06T09:00:00Z");
        admit(config, &dir, Kind::ToOwner, "rev", "rev", t);
        admit(config, &dir, Kind::ToOwner, "rev", "rev", t);
        let carried_now = pending(&dir);
        admit(config, &dir, Kind::ToOwner, "rev", "rev", t);
        carried(config, &dir, &carried_now);
        assert_eq!(pending(&dir).iter().map(|p| p.count).collect::<Vec<_>>(), [1], "the one held back meanwhile stays");
    }
}
