//! The profile tool's documents built from a guest's reading: `team.profile.explain` and
//! `team.profile.test`, and the reading they share ([`ReadingDoc`]); their schemas are
//! generated from these types (`crate::schema`).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::{Conformance, Explained};
use crate::profiles::Reading;
use crate::vocab::doc::{Document, FormatOne, Named};
use profile_reading::State;

/// What a profile reads on one screen.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints every member; the spec's shorter examples predate all but these four)
#[schemars(transform = crate::vocab::doc::not_required(&["dialog_other", "dialog_title", "unknown", "queued", "last_error", "why"]))]
pub struct ReadingDoc {
    #[schemars(extend("enum" = ["idle", "working", "dialog", "starting", "exited", "unknown"]))]
    pub state: &'static str,
    /// The working hint, when the state is working.
    pub hint: Option<String>,
    /// The dialog's kind when the state is dialog, else null: the stable JSON word (people read
    /// `vendor notice`, `provider error`, `rate limit`, `held-message`).
    #[schemars(extend("enum" = ["question", "permission", "trust", "vendor_notice", "provider_error", "rate_limit", "held_message", "other", null]))]
    pub dialog: Option<&'static str>,
    /// When dialog is `other`: the profile's own name for the dialog (team:profile@0.2.0's open
    /// dialog kind).
    pub dialog_other: Option<String>,
    pub dialog_title: Option<String>,
    pub unknown: Option<String>,
    pub composer: ComposerDoc,
    /// The lines the CLI shows it has queued to send when its turn ends, oldest first, each
    /// unwrapped; empty when none is shown.
    pub queued: Vec<String>,
    #[schemars(extend("enum" = ["rate_limit", "provider_error", null]))]
    pub last_error: Option<&'static str>,
    pub why: String,
}

/// The prompt's box.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComposerDoc {
    #[schemars(extend("enum" = ["empty", "holds", "unreadable"]))]
    pub kind: &'static str,
    pub text: Option<String>,
}

impl From<&Reading> for ReadingDoc {
    fn from(r: &Reading) -> ReadingDoc {
        let dialog = r.state.dialog();
        ReadingDoc {
            state: r.state.word(),
            hint: r.state.hint().map(str::to_string),
            dialog: dialog.map(|d| d.kind.word()),
            dialog_other: dialog.and_then(|d| d.kind.other_name()).map(str::to_string),
            dialog_title: dialog.map(|d| d.title.clone()),
            unknown: match &r.state {
                State::Unknown(w) => Some(w.clone()),
                _ => None,
            },
            composer: ComposerDoc { kind: r.composer.word(), text: r.composer.text().map(str::to_string) },
            queued: r.queued.clone(),
            last_error: r.last_error.map(|e| e.word()),
            why: r.why.clone(),
        }
    }
}

/// The document `team profile explain <cli> <screen> --json` prints: which profile read the
/// screen and what it reads there. Kept open (additional properties allowed) where the profile
/// host may add detail.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// (every run prints screen and why; the spec's shorter examples predate them)
#[schemars(transform = crate::vocab::doc::not_required(&["screen", "why"]))]
pub struct ExplainDoc {
    pub schema: Named<ExplainDoc>,
    pub format: FormatOne,
    pub profile: ExplainProfile,
    pub screen: ExplainScreen,
    pub reading: ReadingDoc,
    pub why: String,
}

impl Document for ExplainDoc {
    const NAME: &'static str = "team.profile.explain";
    const FILE: &'static str = "profile-explain";
}

/// The profile that read the screen.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = crate::vocab::doc::not_required(&["source", "path", "pin"]))]
pub struct ExplainProfile {
    #[schemars(length(min = 1))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub version: String,
    /// Where it comes from: bundled, or dropped in.
    pub source: &'static str,
    pub path: Option<String>,
    pub pin: Option<String>,
}

/// The screen read.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainScreen {
    pub file: String,
    pub cols: u32,
    pub rows: u32,
    pub title: String,
}

impl Explained {
    /// The `team.profile.explain` document.
    pub fn document(&self) -> ExplainDoc {
        let (profile, d) = (&self.profile, self.profile.describe());
        ExplainDoc {
            schema: Named::new(),
            format: FormatOne,
            profile: ExplainProfile {
                id: d.id.clone(),
                version: d.version.clone(),
                source: profile.source().word(),
                path: profile.source().path().map(|p| p.display().to_string()),
                pin: profile.pin().map(str::to_string),
            },
            screen: ExplainScreen {
                file: self.screen_file.display().to_string(),
                cols: self.screen.cols,
                rows: self.screen.rows,
                title: self.screen.title.clone(),
            },
            reading: ReadingDoc::from(&self.reading),
            why: self.reading.why.clone(),
        }
    }
}

/// The document `team profile test <component.wasm> <screens-dir> --json` prints: the component
/// run on every screen of the folder whose meta names its id, each reading checked against the
/// screen's `expect` with the fixtures' rules. `ok` is false (and the exit code 1) when any
/// screen reads wrong or none was tested.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestDoc {
    pub schema: Named<TestDoc>,
    pub format: FormatOne,
    pub file: String,
    pub screens_dir: String,
    pub profile: TestProfile,
    pub ok: bool,
    pub passed: usize,
    pub failed: usize,
    /// Screens whose meta names another cli.
    pub skipped: usize,
    pub verdict: String,
    pub screens: Vec<TestScreen>,
}

impl Document for TestDoc {
    const NAME: &'static str = "team.profile.test";
    const FILE: &'static str = "profile-test";
}

/// The component tested.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestProfile {
    #[schemars(length(min = 1))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub version: String,
    #[schemars(extend("enum" = ["team:profile/classifier@0.1.0", "team:profile/classifier@0.2.0"]))]
    pub interface: &'static str,
    pub has_compose: bool,
}

/// One screen checked.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestScreen {
    /// `<folder>/<name>`: the screen's folder and its name.
    pub screen: String,
    pub ok: bool,
    /// What read wrong (null when it read right).
    pub why: Option<String>,
    /// The screen's `expect` block, as its meta holds it.
    pub expect: Value,
    /// What the component read, in the shape of team.profile.explain's reading (null when the
    /// call failed).
    pub reading: Option<ReadingDoc>,
}

impl Conformance {
    /// The `team.profile.test` document; `verdict` is the run's last line.
    pub fn document(&self, verdict: String) -> TestDoc {
        let d = self.profile.describe();
        let failed = self.failed();
        TestDoc {
            schema: Named::new(),
            format: FormatOne,
            file: self.file.display().to_string(),
            screens_dir: self.screens_dir.display().to_string(),
            profile: TestProfile {
                id: d.id.clone(),
                version: d.version.clone(),
                interface: self.profile.line().export(),
                has_compose: d.has_compose,
            },
            ok: self.ok(),
            passed: self.checked.len() - failed,
            failed,
            skipped: self.skipped,
            verdict,
            screens: self
                .checked
                .iter()
                .map(|c| TestScreen {
                    screen: c.label.clone(),
                    ok: c.result.is_ok(),
                    why: c.result.as_ref().err().cloned(),
                    expect: c.expect.clone(),
                    reading: c.reading.as_ref().map(ReadingDoc::from),
                })
                .collect(),
        }
    }
}
