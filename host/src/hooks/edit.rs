//! The edits of one hook-configuration file: find, add and take out team's own hook entries
//! in a `{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}`
//! document (Claude Code's and Qwen Code's settings, Codex's hooks.json and Gemini CLI's
//! settings share the shape; each format names the events its way, `super::event_name`) or its
//! flat form `{"hooks": {"<event>": [{"type": "command", "command": …}]}}` (GitHub Copilot
//! CLI's, [`HookFormat::flat`]; a reader takes both forms in any file), and the
//! `[features] codex_hooks` switch in Codex's config.toml.
//!
//! Invariants: an entry is team's when its command is `<a program named team…> hook <event
//! word>` ([`ours`]); install adds a group of its own per event and never edits a user's
//! group; remove takes out team's entries only, and the groups, events and `hooks` object left
//! empty by that; every other byte of the JSON file stays as it was (`json_edit`: remove after
//! install gives the file back byte for byte); the TOML switch carries a comment saying team
//! wrote it, and only a switch with that comment is taken out again (a switch the user set
//! stays).

use serde_json::{json, Map, Value};

use super::{event_name, CODEX_CONFIG};
pub use crate::project_files::config::json_root;
use crate::project_files::config::{self, ConfigError};
use crate::project_files::json_edit::{self, Edit, Step};
use crate::vocab::hook_event::Event;
use crate::vocab::leg::HookFormat;

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
pub fn found(
    root: &Map<String, Value>,
    f: HookFormat,
    file: &'static str,
) -> Result<Vec<(Event, String)>, ConfigError> {
    let Some(hooks) = config::json_object(root, "hooks", file)? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (name, groups) in hooks {
        let Value::Array(groups) = groups else {
            return Err(ConfigError::shape(file, format!("hooks.{name}"), "a list"));
        };
        for g in groups {
            // (a bare command counts only where the CLI reads one: Claude's shape is groups)
            for h in entries(g, f.flat()) {
                let Some(cmd) = h.get("command").and_then(Value::as_str) else { continue };
                if let Some((exe, event)) = ours(cmd) {
                    if event_name(f, event) == name {
                        out.push((event, exe));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The commands of one item of an event's list: a group's `hooks`, or — `bare` — the item
/// itself when it is a command (the flat form).
fn entries(g: &Value, bare: bool) -> &[Value] {
    match g.get("hooks").and_then(Value::as_array) {
        Some(list) => list,
        None if bare && g.get("command").is_some() => std::slice::from_ref(g),
        None => &[],
    }
}

/// The text of the hooks file `text` (`None`: none yet) of format `f` with team's group for
/// each of `events` added under the format's name of it (matcher `*` where the event takes
/// one), after taking out any team entry already there (a stale path is replaced, never
/// doubled). Every byte of the user's stays as it was (`json_edit`).
pub fn installed(
    text: Option<&str>,
    f: HookFormat,
    events: &[Event],
    exe: &str,
    file: &'static str,
) -> Result<String, ConfigError> {
    let mut added = 0;
    let edited = json_edit::edit(text, file, |root| {
        let Some(&event) = events.get(added) else { return Ok(None) };
        if let Some(cut) = next_cut(root, Some(event_name(f, event))) {
            return Ok(Some(cut));
        }
        added += 1;
        let entry = json!({"type": "command", "command": command(exe, event)});
        let item = match (f.flat(), event == Event::PostToolUse) {
            (true, _) => entry,
            (false, true) => json!({"matcher": "*", "hooks": [entry]}),
            (false, false) => json!({"hooks": [entry]}),
        };
        addition(root, event_name(f, event), item, file).map(Some)
    })?;
    Ok(edited.unwrap_or_else(|| text.unwrap_or_default().to_string()))
}

/// The text with team's entries taken out, and the groups, event lists and `hooks` object left
/// empty by that (a container the user left empty stays as it is unless team's entry was in
/// it). `None`: there were none.
pub fn removed(text: Option<&str>, file: &'static str) -> Result<Option<String>, ConfigError> {
    json_edit::edit(text, file, |root| Ok(next_cut(root, None)))
}

/// The edit adding team's `group` (a group, or in the flat form the command itself) under the
/// event `name`.
fn addition(root: &Map<String, Value>, name: &str, group: Value, file: &'static str) -> Result<Edit, ConfigError> {
    Ok(match root.get("hooks") {
        None => Edit::Append { to: Vec::new(), key: Some("hooks".into()), value: json!({ name: [group] }) },
        Some(Value::Object(hooks)) => match hooks.get(name) {
            None => Edit::Append { to: json_edit::keys(&["hooks"]), key: Some(name.into()), value: json!([group]) },
            Some(Value::Array(_)) => Edit::Append { to: json_edit::keys(&["hooks", name]), key: None, value: group },
            Some(_) => return Err(ConfigError::shape_on_edit(file, format!("hooks.{name}"), "a list")),
        },
        Some(_) => return Err(ConfigError::shape_on_edit(file, "hooks", "an object")),
    })
}

/// The next edit taking out team's entries (of `only` that event, or all): the first of them in
/// file order, or — when it is all its container holds — the group, the event's list or the
/// `hooks` object its going would leave empty.
fn next_cut(root: &Map<String, Value>, only: Option<&str>) -> Option<Edit> {
    let Some(Value::Object(hooks)) = root.get("hooks") else { return None };
    for (name, groups) in hooks {
        let Value::Array(groups) = groups else { continue };
        if only.is_some_and(|e| e != name) {
            continue;
        }
        for (g, group) in groups.iter().enumerate() {
            // (remove takes team's command out of either form, whatever the file)
            let list = entries(group, true);
            let theirs = |h: &Value| h.get("command").and_then(Value::as_str).is_none_or(|c| ours(c).is_none());
            let Some(h) = list.iter().position(|h| !theirs(h)) else { continue };
            let (name, mut path) = (Step::Key(name.clone()), json_edit::keys(&["hooks"]));
            // (a flat command is a group of one: its going takes its list's item)
            match (list.len(), groups.len(), hooks.len()) {
                (1, 1, 1) => {}
                (1, 1, _) => path.push(name),
                (1, _, _) => path.extend([name, Step::Index(g)]),
                _ => path.extend([name, Step::Index(g), Step::Key("hooks".into()), Step::Index(h)]),
            }
            return Some(Edit::Remove(path));
        }
    }
    None
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
        let all = [Event::PostToolUse, Event::Stop, Event::UserPromptSubmit];
        let text = installed(Some(user), HookFormat::ClaudeSettings, &all, "/bin/team", "f").unwrap();
        let root = json_root(Some(&text), "f").unwrap();
        assert_eq!(found(&root, HookFormat::ClaudeSettings, "f").unwrap().len(), 3);
        assert_eq!(
            root["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "fmt.sh",
            "the user's group first, untouched"
        );
        assert_eq!(root["hooks"]["PostToolUse"][1]["matcher"], "*");
        // a second install with another path replaces, never doubles
        let again = installed(Some(&text), HookFormat::ClaudeSettings, &[Event::Stop], "/new/team", "f").unwrap();
        let root = json_root(Some(&again), "f").unwrap();
        assert_eq!(root["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert_eq!(root["hooks"]["Stop"][0]["hooks"][0]["command"], "/new/team hook stop");
        assert_eq!(removed(Some(&again), "f").unwrap().unwrap(), user);
        assert_eq!(removed(Some(user), "f").unwrap(), None, "nothing of team's: nothing to write");
        // a new file is written whole; taking team's out leaves an empty object
        let new = installed(None, HookFormat::ClaudeSettings, &[Event::Stop], "/bin/team", "f").unwrap();
        assert!(new.starts_with("{\n  \"hooks\": {\n    \"Stop\": ["), "{new}");
        assert_eq!(removed(Some(&new), "f").unwrap().unwrap(), "{\n}\n");
        assert!(
            installed(Some("[1]"), HookFormat::ClaudeSettings, &all, "t", "f").is_err()
                && installed(Some("{"), HookFormat::ClaudeSettings, &all, "t", "f").is_err()
        );
        assert!(found(&json_root(Some(r#"{"hooks": 1}"#), "f").unwrap(), HookFormat::ClaudeSettings, "f").is_err());
        assert_eq!(
            installed(Some(r#"{"hooks": 1}"#), HookFormat::ClaudeSettings, &all, "t", "f").unwrap_err().to_string(),
            "f's hooks is not an object"
        );
    }

    #[test]
    fn a_team_entry_in_a_user_s_group_goes_alone() {
        let user = r#"{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "/x/team hook stop"}, {"type": "command", "command": "say"}]}, {"hooks": []}]}}"#;
        assert_eq!(
            removed(Some(user), "f").unwrap().unwrap(),
            r#"{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "say"}]}, {"hooks": []}]}}"#,
            "the user's own group, and the group they left empty, stay"
        );
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
