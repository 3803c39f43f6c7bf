//! The owner's approval of this team's own MCP server for Claude Code, written where Claude Code
//! keeps a person's choices for one checkout: `.claude/settings.local.json` (Claude Code keeps it
//! out of git; a repository cannot approve anything through it for another person).
//! `"enabledMcpjsonServers": ["team"]` is what answering Claude's `New MCP server found in this
//! project: team` question writes; `permissions.allow` gets `mcp__team__<tool>` for every
//! messaging tool (not `team_add`/`team_stop`, which start processes: Claude asks before each),
//! as `Bash(team send:*)` is allowed for the shell path. Measured with Claude
//! Code 2.1.332 (`real_cli::up`): with both, it starts the server and calls its tools with no
//! question (docs/security.md says what this approves).
//!
//! Invariants: only ever for this server's own entry (install writes the approval only where
//! `.mcp.json`'s `team` is this team's — never for a `foreign` one); the file is merged through
//! `json_edit` (every other byte as it was; remove takes out exactly what install added, and
//! an array or object install created and left holding nothing else).

use serde_json::{json, Map, Value};

use super::install::NAME;
use super::tools::Tool;
use crate::project_files::config::ConfigError;
use crate::project_files::json_edit::{self, Edit, Step};

/// The file, relative to the checkout.
pub const FILE: &str = ".claude/settings.local.json";

const ENABLED: &str = "enabledMcpjsonServers";

/// The permission rule of each served tool (`mcp__team__team_send`, …).
pub fn tool_rules() -> Vec<String> {
    Tool::MESSAGING.iter().map(|t| format!("mcp__{NAME}__{}", t.name())).collect()
}

/// What the settings text does not approve yet: `team` (when not enabled) and each tool rule
/// not allowed, in that order. A file that is not the shape Claude reads is refused.
pub fn missing(text: Option<&str>) -> Result<Vec<String>, ConfigError> {
    let root = crate::project_files::config::json_root(text, FILE)?;
    let mut out = Vec::new();
    if !strings(&root, &[ENABLED])?.iter().any(|s| s == NAME) {
        out.push(NAME.to_string());
    }
    let allowed = strings(&root, &["permissions", "allow"])?;
    out.extend(tool_rules().into_iter().filter(|r| !allowed.contains(r)));
    Ok(out)
}

/// The strings of the array at `path` (none: no such array yet); another shape is refused.
fn strings(root: &Map<String, Value>, path: &[&str]) -> Result<Vec<String>, ConfigError> {
    let mut at = root;
    for (i, k) in path.iter().enumerate() {
        match at.get(*k) {
            None => return Ok(Vec::new()),
            Some(Value::Object(o)) if i + 1 < path.len() => at = o,
            Some(Value::Array(a)) if i + 1 == path.len() => {
                return Ok(a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
            }
            Some(_) => {
                let want = if i + 1 == path.len() { "an array" } else { "an object" };
                return Err(ConfigError::shape(FILE, path[..=i].join("."), want));
            }
        }
    }
    Ok(Vec::new())
}

/// The settings text with the approval added (`on`) or taken out; `Ok(None)`: nothing to change.
pub fn edited(text: Option<&str>, on: bool) -> Result<Option<String>, ConfigError> {
    json_edit::edit(text, FILE, |root| if on { next_add(root) } else { next_remove(root) })
}

/// The next edit that adds a missing part of the approval.
fn next_add(root: &Map<String, Value>) -> Result<Option<Edit>, ConfigError> {
    let enabled = strings(root, &[ENABLED])?;
    if !enabled.iter().any(|s| s == NAME) {
        return Ok(Some(match root.get(ENABLED) {
            None => Edit::Append { to: Vec::new(), key: Some(ENABLED.into()), value: json!([NAME]) },
            Some(_) => Edit::Append { to: json_edit::keys(&[ENABLED]), key: None, value: json!(NAME) },
        }));
    }
    let allowed = strings(root, &["permissions", "allow"])?;
    let want: Vec<String> = tool_rules().into_iter().filter(|r| !allowed.contains(r)).collect();
    let Some(first) = want.first() else { return Ok(None) };
    Ok(Some(match root.get("permissions") {
        None => Edit::Append { to: Vec::new(), key: Some("permissions".into()), value: json!({ "allow": want }) },
        Some(p) if p.get("allow").is_none() => {
            Edit::Append { to: json_edit::keys(&["permissions"]), key: Some("allow".into()), value: json!(want) }
        }
        Some(_) => Edit::Append { to: json_edit::keys(&["permissions", "allow"]), key: None, value: json!(first) },
    }))
}

/// The next edit that takes out a part of the approval (and an array or object it leaves
/// empty, when that array or object held nothing else).
fn next_remove(root: &Map<String, Value>) -> Result<Option<Edit>, ConfigError> {
    let rules = tool_rules();
    for (path, ours) in [(vec![ENABLED], vec![NAME.to_string()]), (vec!["permissions", "allow"], rules)] {
        let items = strings(root, &path)?;
        if let Some(i) = items.iter().position(|s| ours.contains(s)) {
            let mut at = json_edit::keys(&path);
            if items.len() == 1 {
                // the array held only ours: it goes too, and `permissions` if it held only that
                if path.len() == 2 && root["permissions"].as_object().is_some_and(|p| p.len() == 1) {
                    at.pop();
                }
                return Ok(Some(Edit::Remove(at)));
            }
            at.push(Step::Index(i));
            return Ok(Some(Edit::Remove(at)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_approval_is_added_beside_the_owner_s_settings_and_taken_out_byte_for_byte() {
        for mine in [
            None,
            Some("{\n\t\"permissions\": {\"allow\": [\"Bash(ls)\"]},\n\t\"hooks\": {}\n}\n"),
            Some("{\"enabledMcpjsonServers\": [\"other\"]}"),
            Some("{\"permissions\": {\"deny\": [\"Bash(rm:*)\"]}}\n"),
        ] {
            assert!(!missing(mine).unwrap().is_empty());
            let t = edited(mine, true).unwrap().unwrap();
            assert_eq!(missing(Some(&t)).unwrap(), Vec::<String>::new(), "{t}");
            assert_eq!(edited(Some(&t), true).unwrap(), None, "a second install changes nothing");
            let v: Value = serde_json::from_str(&t).unwrap();
            assert!(v[ENABLED].as_array().unwrap().contains(&json!("team")), "{t}");
            if let Some(m) = mine {
                let back = edited(Some(&t), false).unwrap().unwrap();
                assert_eq!(back, m, "remove gives the file back");
            }
        }
        let t = edited(None, true).unwrap().unwrap();
        let v: Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["permissions"]["allow"].as_array().unwrap().len(), Tool::MESSAGING.len(), "{t}");
    }

    #[test]
    fn a_setting_of_another_shape_is_refused_not_rewritten() {
        for bad in
            ["{\"enabledMcpjsonServers\": \"team\"}", "{\"permissions\": []}", "{\"permissions\": {\"allow\": 1}}"]
        {
            assert!(missing(Some(bad)).is_err(), "{bad}");
            assert!(edited(Some(bad), true).is_err(), "{bad}");
        }
    }
}
