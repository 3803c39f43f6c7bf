//! `team profile test <component.wasm> <screens-dir>`'s words and document: the conformance
//! run itself is `profile_tool::conformance`. Exit 1 when any screen reads wrong, or when the
//! folder holds none for it. Document: `team.profile.test` (schema/profile-test.schema.json).

use super::profile::labelled;
use crate::profile_tool::Conformance;
use crate::vocab::doc::render_json;

/// The run's words or document, and its exit code (1 when any screen read wrong or none was read).
pub fn render(r: &Conformance, json: bool) -> (String, i32) {
    let d = r.profile.describe();
    let verdict = r.verdict();
    let code = if r.ok() { 0 } else { 1 };
    if json {
        let doc = r.document(verdict);
        return (render_json(&doc), code);
    }
    let mut out = format!(
        "{} {} ({}) on {}: {} screens, {} of other CLIs skipped\n",
        d.id,
        d.version,
        r.profile.line().export(),
        r.screens_dir.display(),
        r.checked.len(),
        r.skipped
    );
    for c in &r.checked {
        match &c.result {
            Ok(()) => out.push_str(&labelled("ok", &c.label)),
            Err(why) => out.push_str(&labelled("FAIL", &format!("{}: {why}", c.label))),
        }
    }
    out.push_str(&labelled("verdict", &verdict));
    (out, code)
}
