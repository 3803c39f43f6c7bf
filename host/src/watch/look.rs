//! One look at a seat for the watch: its pane read by its profile (what it shows, what its box
//! holds, whether a row shows a drop read), the multiplexer's status, and the rows its CLI's
//! transcripts gained since the oldest send the look is about.
//!
//! Invariant: a look only reads — it types nothing and presses nothing; every keystroke the
//! watch ever sends goes through `typed::retrigger`, which reads the seat again under its lock.
//! A look is also how a retry cut off before its end was written is ended: by the drop-read it
//! finds for that id, never by typing again.

use super::decide::{Look, Wanted};
use crate::error::TeamError;
use crate::legs::typed::{drop_path, drop_ref, trigger_line, whereabouts, TranscriptWatch};
use crate::legs::SeatTarget;
use crate::mux::{AgentStatus, Mux};
use crate::profiles::{Composer, Probe, Profile, ProfileHost, State, TurnError};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::time::SystemTime;

/// The profiles a watch has loaded, one per CLI (a load compiles or deserializes a component:
/// done once, not on every pass).
#[derive(Default)]
pub struct Profiles {
    loaded: HashMap<String, Profile>,
}

impl Profiles {
    /// The profile of `cli` under the team's pins (loaded on first use).
    pub fn get(
        &mut self,
        host: &ProfileHost,
        cli: &str,
        pins: &BTreeMap<String, String>,
    ) -> Result<&mut Profile, TeamError> {
        if !self.loaded.contains_key(cli) {
            let p = host.load(cli, pins)?;
            self.loaded.insert(cli.to_string(), p);
        }
        Ok(self.loaded.get_mut(cli).expect("just loaded"))
    }
}

/// The first read of a transcript file written since a send: its last MiB.
const TAIL: u64 = 1 << 20;
/// The rows kept from one pass to be read again with the next ones (a read's request and its
/// result may come in two passes).
const CARRY: usize = 256 << 10;
/// The most rows, in bytes, handed to a profile in one call (its calls are bounded in time).
const CHUNK: usize = 512 << 10;

/// The transcript rows a watch has read, per seat, from one pass to the next: each pass hands
/// the profile only what is new (with the rows kept from before), and nothing when nothing is.
#[derive(Default)]
pub struct Transcripts {
    seats: HashMap<String, SeatRows>,
}

type Whereabouts = (Option<PathBuf>, Option<PathBuf>);

struct SeatRows {
    at: Whereabouts,
    watch: TranscriptWatch,
    carry: Vec<String>,
    asked: HashSet<String>,
}

impl Transcripts {
    fn rows_for(&mut self, seat: &str, patterns: &[String], at: Whereabouts, oldest: DateTime<Utc>) -> &mut SeatRows {
        let fresh = |at: Whereabouts| {
            // (a minute early: the send ends up to its 20 s window after the read could begin)
            let since = SystemTime::from(oldest) - std::time::Duration::from_secs(60);
            let watch = TranscriptWatch::since(patterns, at.0.clone(), at.1.clone(), since, TAIL);
            SeatRows { at, watch, carry: Vec::new(), asked: HashSet::new() }
        };
        let e = self.seats.entry(seat.to_string()).or_insert_with(|| fresh(at.clone()));
        // The seat's CLI was started again elsewhere: its transcripts are other files.
        if e.at != at {
            *e = fresh(at);
        }
        e
    }
}

impl SeatRows {
    /// The waiting ids the rows show read: every id against the new rows (with the rows kept),
    /// and an id not asked about before against the rows kept too.
    fn read(&mut self, profile: &mut Profile, awaiting: &[(String, DateTime<Utc>)]) -> Vec<String> {
        let new = self.watch.new_rows().unwrap_or_default();
        let unasked = awaiting.iter().any(|(id, _)| !self.asked.contains(id));
        if new.is_empty() && !unasked {
            return Vec::new();
        }
        let mut rows = std::mem::take(&mut self.carry);
        rows.extend(new);
        let mut shown = Vec::new();
        for (id, _) in awaiting {
            if chunks(&rows, CHUNK).any(|c| profile.transcript_shows_drop_read(c, id).unwrap_or(false)) {
                shown.push(id.clone());
            }
            self.asked.insert(id.clone());
        }
        self.carry = tail(rows, CARRY);
        shown
    }
}

/// Runs of consecutive rows of at most `max` bytes (a longer row alone), each starting at
/// most `max / 2` bytes into the one before, so any two rows within `max / 2` bytes of each
/// other share a run.
fn chunks(rows: &[String], max: usize) -> impl Iterator<Item = &[String]> {
    let cost = |r: &String| r.len() + 1;
    let mut out = Vec::new();
    let mut s = 0;
    while s < rows.len() {
        let (mut e, mut size) = (s, 0);
        while e < rows.len() && (e == s || size + cost(&rows[e]) <= max) {
            size += cost(&rows[e]);
            e += 1;
        }
        out.push(&rows[s..e]);
        if e == rows.len() {
            break;
        }
        let (mut n, mut half) = (s, 0);
        while n < e && half + cost(&rows[n]) <= max / 2 {
            half += cost(&rows[n]);
            n += 1;
        }
        s = n.max(s + 1);
    }
    out.into_iter()
}

/// The last rows of `rows` that fit in `max` bytes.
fn tail(mut rows: Vec<String>, max: usize) -> Vec<String> {
    let mut size = 0;
    let keep = rows.iter().rev().take_while(|r| {
        size += r.len() + 1;
        size <= max
    });
    let n = keep.count();
    rows.drain(..rows.len() - n);
    rows
}

/// Why a seat could not be looked at: its pane (found, read, its status) or its profile
/// (loaded, reading the screen).
#[derive(Debug, thiserror::Error)]
pub enum NotLooked {
    #[error("{0}")]
    Pane(#[from] crate::mux::MuxError),
    #[error("{}", .0.message())]
    Profile(#[from] TeamError),
}

/// Looks at one seat for what `wanted` asks about.
pub fn look(
    mux: &dyn Mux,
    profiles: &mut Profiles,
    transcripts: &mut Transcripts,
    host: &ProfileHost,
    at: &SeatTarget,
    wanted: &Wanted,
) -> Result<Look, NotLooked> {
    let pane = crate::state::locate_with(mux, at.session, at.seat, at.team, at.record)?;
    let profile = profiles.get(host, at.cli, at.pins)?;
    let d = profile.describe().clone();
    // The ids whose drop-read is looked for: delivered sends waiting for a sign, and retries
    // cut off before their end was written.
    let sought = wanted.sought();
    // the recent rows only when a drop-read is looked for (it may have scrolled off)
    let cap = if sought.is_empty() { mux.read_screen(&pane) } else { mux.read(&pane) };
    let screen = cap?.into_screen();
    let status = mux.status(&pane)?.map(|s| s.status);
    let (cwd, home) = whereabouts(mux, &pane, &d.process_names);
    // (the ids come from the checked history: one that is no message id has no drop and no probe)
    let trigger_of = |id: &str| {
        let drop = drop_path(at.root, at.session, at.seat, id).ok()?;
        Some(trigger_line(&drop_ref(&drop, at.root, cwd.as_deref())))
    };

    // The first reading decides the state; every sought id gets its own probe for the row.
    let probe = match sought.first().and_then(|(id, _)| Some((id, trigger_of(id)?))) {
        Some((id, trigger)) => Probe::new(id, &trigger),
        None => Probe::default(),
    };
    let reading = profile.read(&screen, &probe)?;
    let mut out = Look::default();
    let blocked = status == Some(AgentStatus::Blocked);
    out.working = matches!(reading.state, State::Working(_)) || status == Some(AgentStatus::Working);
    out.free = reading.state == State::Idle && !out.working && !blocked;
    out.ready = out.free && reading.composer == Composer::Empty && reading.last_error != Some(TurnError::RateLimit);
    for (i, (id, _)) in sought.iter().enumerate() {
        let shown = if i == 0 {
            reading.drop_read
        } else {
            trigger_of(id)
                .is_some_and(|t| profile.read(&screen, &Probe::new(id, &t)).map(|r| r.drop_read).unwrap_or(false))
        };
        if shown {
            out.screen_read.insert(id.clone());
        }
    }
    // The transcripts written since the oldest sought send: the id names one send only.
    if d.transcript_patterns.is_empty() {
        out.status_is_a_sign = true;
    } else if let Some(oldest) = sought.iter().map(|(_, t)| *t).min() {
        let rows = transcripts.rows_for(at.seat, &d.transcript_patterns, (home.clone(), cwd.clone()), oldest);
        // Working is a sign only where no transcript can show what the seat read.
        out.status_is_a_sign = rows.watch.files().is_empty();
        for id in rows.read(profile, &sought) {
            out.transcript_read.insert(id);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_handed_over_in_overlapping_runs() {
        let rows: Vec<String> = (0..10).map(|i| format!("row{i}")).collect(); // 5 bytes each
        let runs: Vec<&[String]> = chunks(&rows, 100).collect();
        assert_eq!(runs, vec![&rows[..]], "all fit in one");
        let runs: Vec<&[String]> = chunks(&rows, 20).collect();
        assert_eq!(runs.iter().map(|r| r.len()).collect::<Vec<_>>(), vec![4, 4, 4, 4]);
        assert_eq!((runs[1][0].as_str(), runs[3][3].as_str()), ("row2", "row9"));
        // every two neighbours share a run
        for w in rows.windows(2) {
            assert!(runs.iter().any(|r| r.contains(&w[0]) && r.contains(&w[1])), "{w:?}");
        }
        let long = vec!["x".repeat(50), "y".into()];
        assert_eq!(chunks(&long, 20).count(), 2, "a row longer than a run goes alone");
        assert_eq!(tail(rows.clone(), 12), vec!["row8".to_string(), "row9".to_string()]);
    }
}
