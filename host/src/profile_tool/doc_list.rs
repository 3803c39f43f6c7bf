//! The `team.profile.list` and `team.profile.check` documents; their schemas are generated
//! from these types (`crate::schema`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::doc::ReadingDoc;
use super::{CheckReport, Listing, StepName};
use crate::profiles::{Available, CacheUse};
use crate::vocab::doc::{Document, FormatOne, Named};

crate::vocab::doc::words!(StepName: Load, Describe, Smoke);
crate::vocab::doc::words!(CacheUse: Hit, Miss, Replaced, Uncached);

/// The document `team profile list --json` prints: every installed profile (bundled or dropped
/// in) and whether the host would use it, and — inside a checkout — which profile each seat of
/// the team file resolves to. Kept open where the profile host may add detail.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDoc {
    pub schema: Named<ListDoc>,
    pub format: FormatOne,
    pub profiles: Vec<ProfileRow>,
    /// The team file in scope and the profile each of its seats resolves to; null outside a
    /// checkout.
    pub team: Option<TeamDoc>,
}

impl Document for ListDoc {
    const NAME: &'static str = "team.profile.list";
    const FILE: &'static str = "profile-list";
}

/// One installed profile.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileRow {
    #[schemars(length(min = 1))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub version: String,
    /// Where it comes from: bundled, or dropped in.
    pub source: &'static str,
    pub path: Option<String>,
    /// Whether the host would use it.
    pub valid: bool,
    /// Why it is refused (null when valid).
    pub why: Option<String>,
}

/// The team file in scope.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamDoc {
    pub project: String,
    pub session: String,
    pub file: String,
    pub pins: BTreeMap<String, String>,
    pub seats: Vec<SeatDoc>,
}

/// One seat's profile: the one it would use, or why none can be.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatDoc {
    pub seat: String,
    pub cli: String,
    pub pin: Option<String>,
    pub profile: Option<SeatProfileDoc>,
    pub refusal: Option<String>,
}

/// The installed profile a seat resolves to.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatProfileDoc {
    pub id: String,
    pub version: String,
    pub source: &'static str,
    pub path: Option<String>,
}

fn row(a: &Available) -> ProfileRow {
    ProfileRow {
        id: a.id.clone(),
        version: a.version.clone(),
        source: a.source.word(),
        path: a.source.path().map(|p| p.display().to_string()),
        valid: a.validity.is_ok(),
        why: a.validity.as_ref().err().map(ToString::to_string),
    }
}

impl Listing {
    /// The `team.profile.list` document.
    pub fn document(&self) -> ListDoc {
        ListDoc {
            schema: Named::new(),
            format: FormatOne,
            profiles: self.profiles.iter().map(row).collect(),
            team: self.team.as_ref().map(|t| TeamDoc {
                project: t.project.clone(),
                session: t.session.clone(),
                file: t.file.display().to_string(),
                pins: t.pins.clone(),
                seats: t
                    .seats
                    .iter()
                    .map(|s| SeatDoc {
                        seat: s.seat.clone(),
                        cli: s.cli.clone(),
                        pin: s.pin.clone(),
                        profile: s.profile.as_ref().ok().map(|a| SeatProfileDoc {
                            id: a.id.clone(),
                            version: a.version.clone(),
                            source: a.source.word(),
                            path: a.source.path().map(|p| p.display().to_string()),
                        }),
                        refusal: s.profile.as_ref().err().map(|e| e.message()),
                    })
                    .collect(),
            }),
        }
    }
}

/// The document `team profile check <file.wasm> --json` prints: each step a vendor's component
/// passes or fails (load, describe, smoke) and the verdict. Kept open where the profile host
/// may add detail.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckDoc {
    pub schema: Named<CheckDoc>,
    pub format: FormatOne,
    pub file: String,
    pub ok: bool,
    #[schemars(length(min = 1))]
    pub verdict: String,
    pub steps: Vec<StepDoc>,
    /// The component's description, when it loaded.
    pub profile: Option<CheckProfile>,
    /// What the profile read on a blank 120x40 screen (the same shape as
    /// team.profile.explain's reading); null when it did not get that far.
    pub smoke: Option<ReadingDoc>,
}

impl Document for CheckDoc {
    const NAME: &'static str = "team.profile.check";
    const FILE: &'static str = "profile-check";
}

/// One step and what it found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    pub step: StepName,
    pub ok: bool,
    pub detail: String,
}

/// The loaded component: its description, digest, cache use and interface.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints every member; the spec's shorter example predates all but id and version)
#[schemars(transform = crate::vocab::doc::not_required(&[
    "sha256", "cache", "interface", "clis", "process_names", "native_channel", "max_trigger",
    "working_hints", "enter_pause_ms", "queues_while_working", "forbidden_starts", "has_compose",
    "transcript_patterns", "features",
]))]
pub struct CheckProfile {
    #[schemars(length(min = 1))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub version: String,
    pub sha256: String,
    pub cache: CacheUse,
    #[schemars(extend("enum" = ["team:profile/classifier@0.1.0", "team:profile/classifier@0.2.0"]))]
    pub interface: &'static str,
    pub clis: Vec<String>,
    pub process_names: Vec<String>,
    pub native_channel: bool,
    pub max_trigger: u32,
    pub working_hints: Vec<String>,
    pub enter_pause_ms: u32,
    pub queues_while_working: bool,
    pub forbidden_starts: Vec<String>,
    pub has_compose: bool,
    pub transcript_patterns: Vec<String>,
    pub features: Vec<String>,
}

impl CheckReport {
    /// The `team.profile.check` document; `verdict` is the run's last line.
    pub fn document(&self, verdict: String) -> CheckDoc {
        CheckDoc {
            schema: Named::new(),
            format: FormatOne,
            file: self.file.display().to_string(),
            ok: self.failed().is_none(),
            verdict,
            steps: self
                .steps
                .iter()
                .map(|s| StepDoc {
                    step: s.name,
                    ok: s.result.is_ok(),
                    detail: match &s.result {
                        Ok(d) => d.clone(),
                        Err(d) => d.to_string(),
                    },
                })
                .collect(),
            profile: self.profile.as_ref().map(|p| {
                let d = p.describe();
                CheckProfile {
                    id: d.id.clone(),
                    version: d.version.clone(),
                    sha256: p.sha256().to_string(),
                    cache: p.cache_use(),
                    interface: p.line().export(),
                    clis: d.clis.clone(),
                    process_names: d.process_names.clone(),
                    native_channel: d.native_channel,
                    max_trigger: d.max_trigger,
                    working_hints: d.working_hints.clone(),
                    enter_pause_ms: d.enter_pause_ms,
                    queues_while_working: d.queues_while_working,
                    forbidden_starts: d.forbidden_starts.clone(),
                    has_compose: d.has_compose,
                    transcript_patterns: d.transcript_patterns.clone(),
                    features: d.features.clone(),
                }
            }),
            smoke: self.smoke.as_ref().map(ReadingDoc::from),
        }
    }
}
