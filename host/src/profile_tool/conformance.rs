//! `team profile test <component.wasm> <screens-dir>`: the conformance run a vendor makes
//! before dropping a new version in. The component is loaded as the host loads a dropped-in
//! file, then reads every screen of the folder whose meta names its id, and each reading is
//! checked with the fixtures' own rules (`profile_reading::fixtures::check`, the rules the
//! bundled profiles' tests use).
//!
//! The folder is a vendor's, read as the host reads every file ([`Guarded`]): a link or FIFO
//! in it is refused (never followed, never opened), and no file past `fsx::TEXT_MAX` is read.

use std::path::{Path, PathBuf};

use profile_reading::fixtures;
use serde_json::Value;

use crate::error::{self, TeamError};
use crate::profiles::{Profile, ProfileHost, Reading};

/// A screens folder read through `fsx`: a link or FIFO refused, each file capped.
struct Guarded;

impl fixtures::Files for Guarded {
    fn text(&self, path: &Path) -> Result<Option<String>, String> {
        crate::fsx::read_capped(path, crate::fsx::TEXT_MAX).map_err(|e| e.to_string())
    }
    fn is_folder(&self, path: &Path) -> Result<bool, String> {
        crate::fsx::check_entry(path).map_err(|e| e.to_string())?;
        Ok(std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()))
    }
}

/// One screen's result.
pub struct Checked {
    pub label: String,
    /// `Err(why)`: what read wrong.
    pub result: Result<(), String>,
    pub reading: Option<Reading>,
    /// The meta's `expect` block, as written.
    pub expect: Value,
}

/// What the run found.
pub struct Conformance {
    pub file: PathBuf,
    pub screens_dir: PathBuf,
    pub profile: Profile,
    /// Screens of other CLIs, not read.
    pub skipped: usize,
    pub checked: Vec<Checked>,
}

impl Conformance {
    pub fn failed(&self) -> usize {
        self.checked.iter().filter(|c| c.result.is_err()).count()
    }

    /// Every screen read right, and there was at least one.
    pub fn ok(&self) -> bool {
        self.failed() == 0 && !self.checked.is_empty()
    }

    /// The run's last line: every screen read right, how many did not, or none was tested.
    pub fn verdict(&self) -> String {
        let d = self.profile.describe();
        if self.checked.is_empty() {
            format!(
                "no screen of {} names cli \"{}\" in its meta; nothing was tested",
                self.screens_dir.display(),
                d.id
            )
        } else if self.ok() {
            format!("ok: {} {} reads all {} screens right", d.id, d.version, self.checked.len())
        } else {
            format!("{} of {} screens read wrong", self.failed(), self.checked.len())
        }
    }
}

/// `team profile test`: a missing file or folder, or screens that cannot be read, are usage
/// errors; a component that cannot be used is refused; anything else is a report.
pub fn conformance(host: &ProfileHost, file: &Path, screens: &Path) -> error::Result<Conformance> {
    if !file.exists() {
        return Err(super::no_such_file(file));
    }
    if !screens.is_dir() {
        return Err(TeamError::usage(format!(
            "{}: not a folder of screens (each `<name>.ansi`, `.title` and `.meta.json`)",
            screens.display()
        )));
    }
    let all = fixtures::load_tree_with(&Guarded, screens).map_err(|e| {
        TeamError::usage(format!("{}: the screens cannot be read: {e}", screens.display()))
            .with_repair("each screen is `<name>.ansi` + `<name>.title` + `<name>.meta.json` with an `expect` block (docs/writing-a-profile.md)")
    })?;
    let mut profile = host.load_file(file)?;
    let id = profile.describe().id.clone();
    let mine: Vec<&fixtures::Fixture> = all.iter().filter(|f| f.cli == id).collect();
    let skipped = all.len() - mine.len();
    let mut checked = Vec::new();
    for f in &mine {
        let (result, reading) = match profile.classify(&f.screen) {
            Ok(r) => (fixtures::check(&f.expect, &r).map_err(|m| format!("{m} (why: {})", r.why)), Some(r)),
            Err(e) => (Err(e.message()), None),
        };
        checked.push(Checked {
            label: f.label(),
            result,
            reading,
            expect: f.meta.get("expect").cloned().unwrap_or(Value::Null),
        });
    }
    Ok(Conformance { file: file.to_path_buf(), screens_dir: screens.to_path_buf(), profile, skipped, checked })
}
