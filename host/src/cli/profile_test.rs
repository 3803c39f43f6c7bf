//! `team profile test <component.wasm> <screens-dir>`: the conformance run a vendor makes before
//! dropping a new version in. The component is loaded as the host loads a dropped-in file, then
//! reads every screen of the folder whose meta names its id, and each reading is checked with
//! the fixtures' own rules (`profile_reading::fixtures::check`, the rules the bundled profiles'
//! tests use). Exit 1 when any screen reads wrong, or when the folder holds none for it.
//! Document: `team.profile.test` (schema/profile-test.schema.json).
//!
//! The folder is a vendor's, read as the host reads every file ([`Guarded`]): a link or FIFO
//! in it is refused (never followed, never opened), and no file past `fsx::TEXT_MAX` is read.

use std::path::Path;

use serde_json::{json, Value};

use super::profile::{labelled, reading_json, schema};
use crate::outcome::{self, render_json, TeamError};
use crate::profiles::ProfileHost;
use profile_reading::fixtures;

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
struct Checked {
    label: String,
    /// `Err(why)`: what read wrong.
    result: Result<(), String>,
    reading: Option<Value>,
    expect: Value,
}

pub fn run(host: &ProfileHost, file: &Path, screens: &Path, json: bool) -> outcome::Result<(String, i32)> {
    if !file.exists() {
        return Err(TeamError::usage(format!("{}: no such file", file.display())));
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
    let mut p = host.load_file(file)?;
    let d = p.describe().clone();
    let mine: Vec<&fixtures::Fixture> = all.iter().filter(|f| f.cli == d.id).collect();
    let skipped = all.len() - mine.len();
    let mut checked = Vec::new();
    for f in &mine {
        let (result, reading) = match p.classify(&f.screen) {
            Ok(r) => {
                (fixtures::check(&f.expect, &r).map_err(|m| format!("{m} (why: {})", r.why)), Some(reading_json(&r)))
            }
            Err(e) => (Err(e.message), None),
        };
        checked.push(Checked {
            label: f.label(),
            result,
            reading,
            expect: f.meta.get("expect").cloned().unwrap_or(Value::Null),
        });
    }
    let failed = checked.iter().filter(|c| c.result.is_err()).count();
    let ok = failed == 0 && !checked.is_empty();
    let verdict = if checked.is_empty() {
        format!("no screen of {} names cli \"{}\" in its meta; nothing was tested", screens.display(), d.id)
    } else if ok {
        format!("ok: {} {} reads all {} screens right", d.id, d.version, checked.len())
    } else {
        format!("{failed} of {} screens read wrong", checked.len())
    };
    let code = if ok { 0 } else { 1 };
    if json {
        let doc = json!({
            "schema": schema("team.profile.test"),
            "format": 1,
            "file": file.display().to_string(),
            "screens_dir": screens.display().to_string(),
            "profile": {"id": d.id, "version": d.version, "interface": p.line().export(), "has_compose": d.has_compose},
            "ok": ok,
            "passed": checked.len() - failed,
            "failed": failed,
            "skipped": skipped,
            "verdict": verdict,
            "screens": checked.iter().map(|c| json!({
                "screen": c.label,
                "ok": c.result.is_ok(),
                "why": c.result.as_ref().err(),
                "expect": c.expect,
                "reading": c.reading,
            })).collect::<Vec<_>>(),
        });
        return Ok((render_json(&doc), code));
    }
    let mut out = format!(
        "{} {} ({}) on {}: {} screens, {skipped} of other CLIs skipped\n",
        d.id,
        d.version,
        p.line().export(),
        screens.display(),
        checked.len()
    );
    for c in &checked {
        match &c.result {
            Ok(()) => out.push_str(&labelled("ok", &c.label)),
            Err(why) => out.push_str(&labelled("FAIL", &format!("{}: {why}", c.label))),
        }
    }
    out.push_str(&labelled("verdict", &verdict));
    Ok((out, code))
}
