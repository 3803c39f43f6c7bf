//! One look at a seat for the watch: its pane read by its profile (what it shows, what its box
//! holds, whether a row shows a drop read), the multiplexer's status, and the rows its CLI's
//! transcripts gained since the oldest send the look is about.
//!
//! Invariant: a look only reads — it types nothing and presses nothing; every keystroke the
//! watch ever sends goes through `typed::retrigger`, which reads the seat again under its lock.

use super::decide::{Look, Wanted};
use crate::mux::{AgentStatus, Mux};
use crate::profiles::{Composer, Probe, Profile, ProfileHost, State, TurnError};
use crate::typed::{drop_path, drop_ref, screen_of, trigger_line, whereabouts, TranscriptWatch};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
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
    ) -> Result<&mut Profile, String> {
        if !self.loaded.contains_key(cli) {
            let p = host.load(cli, pins).map_err(|e| e.message)?;
            self.loaded.insert(cli.to_string(), p);
        }
        Ok(self.loaded.get_mut(cli).expect("just loaded"))
    }
}

/// Where the seat is, as the team file says.
pub struct SeatAt<'a> {
    pub session: &'a str,
    pub seat: &'a str,
    pub cli: &'a str,
    pub root: &'a Path,
    pub pins: &'a BTreeMap<String, String>,
    /// The seat's registry record: its recorded pane comes first, as for a send.
    pub record: Option<&'a crate::registry::AgentRecord>,
}

/// Looks at one seat for what `wanted` asks about.
pub fn look(
    mux: &dyn Mux,
    profiles: &mut Profiles,
    host: &ProfileHost,
    at: &SeatAt,
    wanted: &Wanted,
) -> Result<Look, String> {
    let pane = crate::state::locate_with(mux, at.session, at.seat, at.record).map_err(|e| e.to_string())?;
    let profile = profiles.get(host, at.cli, at.pins)?;
    let d = profile.describe().clone();
    let screen = screen_of(mux.read(&pane).map_err(|e| e.to_string())?);
    let status = mux.status(&pane).map_err(|e| e.to_string())?.map(|s| s.status);
    let (cwd, home) = whereabouts(mux, &pane, &d.process_names);
    let trigger_of = |id: &str| {
        let drop = drop_path(at.root, at.session, at.seat, id);
        trigger_line(&drop_ref(&drop, at.root, cwd.as_deref()))
    };

    // The first reading decides the state; every waiting id gets its own probe for the row.
    let probe = match wanted.awaiting.first() {
        Some((id, _)) => Probe::new(id, &trigger_of(id)),
        None => Probe::default(),
    };
    let reading = profile.read(&screen, &probe).map_err(|e| e.message)?;
    let mut out = Look::default();
    let blocked = status == Some(AgentStatus::Blocked);
    out.working = matches!(reading.state, State::Working(_)) || status == Some(AgentStatus::Working);
    // Working is a sign only where no transcript can show what the seat read.
    out.status_is_a_sign = d.transcript_patterns.is_empty()
        || TranscriptWatch::since(&d.transcript_patterns, home.clone(), cwd.clone(), SystemTime::now())
            .files()
            .is_empty();
    out.free = reading.state == State::Idle && !out.working && !blocked;
    out.ready = out.free && reading.composer == Composer::Empty && reading.last_error != Some(TurnError::RateLimit);
    for (i, (id, _)) in wanted.awaiting.iter().enumerate() {
        let shown = if i == 0 {
            reading.drop_read
        } else {
            profile.read(&screen, &Probe::new(id, &trigger_of(id))).map(|r| r.drop_read).unwrap_or(false)
        };
        if shown {
            out.screen_read.insert(id.clone());
        }
    }
    // The transcripts written since the oldest waiting send, whole: the id names one send only.
    if let Some(oldest) = wanted.awaiting.iter().map(|(_, t)| *t).min() {
        if !d.transcript_patterns.is_empty() {
            // (a minute early: the send ends up to its 20 s window after the read could begin)
            let since = SystemTime::from(oldest) - std::time::Duration::from_secs(60);
            let mut w = TranscriptWatch::since(&d.transcript_patterns, home, cwd.clone(), since);
            let rows = w.new_rows().unwrap_or_default();
            if !rows.is_empty() {
                for (id, _) in &wanted.awaiting {
                    if profile.transcript_shows_drop_read(&rows, id).unwrap_or(false) {
                        out.transcript_read.insert(id.clone());
                    }
                }
            }
        }
    }
    Ok(out)
}
