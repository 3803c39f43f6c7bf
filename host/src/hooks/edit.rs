//! The edits of one hook-configuration file: find, add and take out team's own hook entries
//! in a `{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}`
//! document (Claude Code's settings and Codex's hooks.json share the shape), and the
//! `[features] codex_hooks` switch in Codex's config.toml.
//!
//! Invariants: an entry is team's when its command is `<a program named team…> hook <event
//! word>` ([`ours`]); install adds a group of its own per event and never edits a user's
//! group; remove takes out team's entries only, and the groups, events and `hooks` object left
//! empty by that; the TOML switch carries a comment saying team wrote it, and only a switch
//! with that comment is taken out again (a switch the user set stays).

use serde_json::{json, Map, Value};

use super::CODEX_CONFIG;
use crate::project_files::config::{self, ConfigError};
pub use crate::project_files::config::{json_root, json_text};
use crate::vocab::hook_event::Event;

/// The comment on a `codex_hooks = true` team wrote.
pub const TOML_MARK: &str = "# written by `team hooks install` (team hooks remove takes it out)";

/// The command for `event`, running the `team` at `exe` (quoted for the shell when it must be).
pub fn command(exe: &str, event: Event) -> String {
    let plain = exe.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b));
    let exe = if plain { exe.to_string() } else { format!("'{}'", exe.replace('\'', r"'\''")) };
    format!("{exe} hook {}", event.word())
}

/// `(program, event)` when `cmd` is team's hook command: the program's file name starts with
/// `team` and the words after it are `hook <event word>`.
pub fn ours(cmd: &str) -> Option<(String, Event)> {
    let (exe, rest) = if let Some(q) = cmd.strip_prefix('\'') {
        let end = q.rfind('\'')?;
        (q[..end].replace(r"'\''", "'"), q[end + 1..].trim_start())
    } else {
        let (e, r) = cmd.split_once(' ')?;
        (e.to_string(), r)
    };
    let name = std::path::Path::new(&exe).file_name()?.to_string_lossy().into_owned();
    if !name.starts_with("team") {
        return None;
    }
    let event = rest.strip_prefix("hook ").and_then(|w| Event::from_word(w.trim()))?;
    Some((exe, event))
}

/// Team's commands found under each event (in file order), or why the file's shape is not one
/// a hook configuration has.
pub fn found(root: &Map<String, Value>, file: &'static str) -> Result<Vec<(Event, String)>, ConfigError> {
    let Some(hooks) = config::json_object(root, "hooks", file)? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (name, groups) in hooks {
        let Value::Array(groups) = groups else {
            return Err(ConfigError::shape(file, format!("hooks.{name}"), "a list"));
        };
        for g in groups {
            let Some(list) = g.get("hooks").and_then(Value::as_array) else { continue };
            for h in list {
                let Some(cmd) = h.get("command").and_then(Value::as_str) else { continue };
                if let Some((exe, event)) = ours(cmd) {
                    if Event::from_vendor(name) == Some(event) {
                        out.push((event, exe));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Adds team's group for `event` (matcher `*` where the event takes one), after taking out any
/// team entry already there (a stale path is replaced, never doubled).
pub fn add(root: &mut Map<String, Value>, event: Event, exe: &str, file: &'static str) -> Result<(), ConfigError> {
    remove(root, Some(event));
    let hooks = config::json_object_mut(root, "hooks", file)?;
    let groups = hooks.entry(event.vendor()).or_insert_with(|| json!([]));
    let Value::Array(groups) = groups else {
        return Err(ConfigError::shape_on_edit(file, format!("hooks.{}", event.vendor()), "a list"));
    };
    let entry = json!({"type": "command", "command": command(exe, event)});
    let group = match event {
        Event::PostToolUse => json!({"matcher": "*", "hooks": [entry]}),
        _ => json!({"hooks": [entry]}),
    };
    groups.push(group);
    Ok(())
}

/// Takes out team's entries (of `only` that event, or all), and the groups, event lists and
/// `hooks` object they leave empty. `true` when anything was taken out.
pub fn remove(root: &mut Map<String, Value>, only: Option<Event>) -> bool {
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else { return false };
    let mut changed = false;
    for (name, groups) in hooks.iter_mut() {
        let Value::Array(groups) = groups else { continue };
        if only.is_some_and(|e| e.vendor() != name) {
            continue;
        }
        for g in groups.iter_mut() {
            let Some(Value::Array(list)) = g.get_mut("hooks") else { continue };
            let before = list.len();
            list.retain(|h| h.get("command").and_then(Value::as_str).is_none_or(|c| ours(c).is_none()));
            changed |= list.len() != before;
        }
        groups.retain(|g| !g.get("hooks").and_then(Value::as_array).is_some_and(Vec::is_empty));
    }
    hooks.retain(|_, v| !v.as_array().is_some_and(Vec::is_empty));
    if hooks.is_empty() {
        root.remove("hooks");
    }
    changed
}

/// Codex's switch: `Some(true)` on, `Some(false)` set off, `None` absent; `Err` when the text
/// is no TOML or `features` is no table.
pub fn codex_switch(text: Option<&str>) -> Result<Option<bool>, ConfigError> {
    let doc = config::toml_doc(text, CODEX_CONFIG)?;
    let features = config::toml_table(&doc, "features", CODEX_CONFIG)?;
    Ok(features.and_then(|t| t.get("codex_hooks")).map(|v| v.as_bool().unwrap_or(false)))
}

/// The config.toml with the switch on (marked as team's), or — `on == false` — with team's
/// switch taken out (a switch the user wrote stays). `None`: nothing to change.
pub fn codex_switched(text: Option<&str>, on: bool) -> Result<Option<String>, ConfigError> {
    let mut doc = config::toml_doc(text, CODEX_CONFIG)?;
    if on {
        if codex_switch(text)? == Some(true) {
            return Ok(None);
        }
        let features = doc.entry("features").or_insert(toml_edit::table());
        let Some(t) = features.as_table_mut() else {
            return Err(ConfigError::shape_on_edit(CODEX_CONFIG, "features", "a table"));
        };
        t.insert("codex_hooks", toml_edit::value(true));
        if let Some(mut key) = t.key_mut("codex_hooks") {
            key.leaf_decor_mut().set_prefix(format!("{TOML_MARK}\n"));
        }
        return Ok(Some(doc.to_string()));
    }
    let Some(t) = doc.get_mut("features").and_then(|f| f.as_table_mut()) else { return Ok(None) };
    let marked = t
        .key("codex_hooks")
        .and_then(|k| k.leaf_decor().prefix())
        .and_then(|p| p.as_str())
        .is_some_and(|p| p.contains(TOML_MARK));
    if !marked {
        return Ok(None);
    }
    t.remove("codex_hooks");
    if t.is_empty() {
        doc.remove("features");
    }
    Ok(Some(doc.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_recognised_and_quoted() {
        assert_eq!(command("/usr/local/bin/team", Event::Stop), "/usr/local/bin/team hook stop");
        assert_eq!(command("/a b/team", Event::Stop), "'/a b/team' hook stop");
        assert_eq!(ours("'/a b/team' hook stop"), Some(("/a b/team".into(), Event::Stop)));
        assert_eq!(ours("/x/team-hooked hook post-tool-use"), Some(("/x/team-hooked".into(), Event::PostToolUse)));
        assert_eq!(ours("/x/notify hook stop"), None);
        assert_eq!(ours("/x/team hook lunch"), None);
    }

    #[test]
    fn install_merges_and_remove_takes_out_exactly_what_it_put_in() {
        let user = r#"{"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}}"#;
        let mut root = json_root(Some(user), "f").unwrap();
        let original = root.clone();
        for e in [Event::PostToolUse, Event::Stop, Event::UserPromptSubmit] {
            add(&mut root, e, "/bin/team", "f").unwrap();
        }
        let got = found(&root, "f").unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(
            root["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "fmt.sh",
            "the user's group first, untouched"
        );
        assert_eq!(root["hooks"]["PostToolUse"][1]["matcher"], "*");
        // a second install with another path replaces, never doubles
        add(&mut root, Event::Stop, "/new/team", "f").unwrap();
        assert_eq!(root["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert!(remove(&mut root, None));
        assert_eq!(root, original);
        let mut empty = json_root(None, "f").unwrap();
        add(&mut empty, Event::Stop, "/bin/team", "f").unwrap();
        remove(&mut empty, None);
        assert!(empty.is_empty());
        assert!(json_root(Some("[1]"), "f").is_err() && json_root(Some("{"), "f").is_err());
        assert!(found(&json_root(Some(r#"{"hooks": 1}"#), "f").unwrap(), "f").is_err());
    }

    #[test]
    fn the_codex_switch_is_marked_and_only_team_s_is_taken_out() {
        let mine = "# my config\nmodel = \"m\"\n";
        let on = codex_switched(Some(mine), true).unwrap().unwrap();
        assert!(on.starts_with(mine), "{on}");
        assert_eq!(codex_switch(Some(&on)).unwrap(), Some(true));
        assert_eq!(codex_switched(Some(&on), true).unwrap(), None, "already on");
        assert_eq!(codex_switched(Some(&on), false).unwrap().unwrap(), mine);
        let users = "[features]\ncodex_hooks = true\n";
        assert_eq!(codex_switched(Some(users), false).unwrap(), None, "the user's switch stays");
        assert!(codex_switch(Some("features = 1")).is_err());
    }
}
