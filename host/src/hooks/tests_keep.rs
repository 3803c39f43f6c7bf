//! `team hooks install | remove` keep every byte of the user's hooks file: properties over
//! settings files laid out any way a user may have them (`json_edit::testing`).

use proptest::prelude::*;

use super::edit::{installed, removed};
use super::{file_of, EVENTS};
use crate::project_files::json_edit::testing::{any_string, any_style, members, only_taken_out, write, Style, J};
use crate::project_files::json_edit::Step;
use crate::vocab::leg::HookFormat;

const FILE: &str = ".claude/settings.local.json";

fn entry(command: &str) -> J {
    J::obj(&[("type", J::s("command")), ("command", J::s(command))])
}

/// A user's hook command (never team's), or — when `team` — team's of some path and event.
fn any_command(team: bool) -> impl Strategy<Value = String> {
    let exe = prop::sample::select(vec!["/bin/team", "/opt/x/team", "'/a b/team'", "team-hooked"]);
    let event = prop::sample::select(vec!["stop", "post-tool-use", "user-prompt-submit"]);
    let user = prop_oneof![
        prop::sample::select(vec!["say done", "fmt.sh", "/bin/teamster", "/x/team stop"]).prop_map(str::to_string),
        any_string(),
    ];
    if team {
        (exe, event).prop_map(|(e, v)| format!("{e} hook {v}")).boxed()
    } else {
        user.boxed()
    }
}

/// An item of an event's list: a group ([`any_claude_group`]) or, in the flat form (GitHub
/// Copilot CLI's), a command itself, maybe with a key of the user's own.
fn any_group(with_team: bool) -> impl Strategy<Value = J> {
    let flat =
        (any::<bool>(), any_command(false), any_command(true), any::<bool>()).prop_map(move |(t, u, ours, timeout)| {
            let J::Obj(mut ms) = entry(if t && with_team { &ours } else { &u }) else { unreachable!() };
            if timeout {
                ms.push(("timeoutSec".to_string(), J::Lit("30".into())));
            }
            J::Obj(ms)
        });
    prop_oneof![any_claude_group(with_team), flat]
}

/// A group: an optional matcher and its hooks (of team's, `team` picks which), and maybe a key
/// of the user's own.
fn any_claude_group(with_team: bool) -> impl Strategy<Value = J> {
    let entries = prop::collection::vec(
        (any::<bool>(), any_command(false), any_command(true))
            .prop_map(move |(t, u, ours)| (t && with_team, entry(if t && with_team { &ours } else { &u }))),
        1..3,
    );
    (entries, any::<Option<bool>>()).prop_map(|(es, extra)| {
        let mut ms = Vec::new();
        if extra.is_some() {
            ms.push(("matcher".to_string(), J::s("Bash")));
        }
        ms.push(("hooks".to_string(), J::Arr(es.into_iter().map(|(_, e)| e).collect())));
        if extra == Some(true) {
            ms.push(("timeout".to_string(), J::Lit("30".into())));
        }
        J::Obj(ms)
    })
}

/// A settings file: the user's own keys, and maybe `hooks` with some events, none empty where
/// install writes (an empty `hooks`, or an empty list of one of team's events, is taken out
/// with team's entries: said in docs/inbox.md).
fn any_settings(with_team: bool) -> impl Strategy<Value = J> {
    let event = prop::sample::select(vec![
        "PostToolUse",
        "Stop",
        "UserPromptSubmit",
        "PreToolUse",
        "SessionStart",
        "AfterTool",
        "AfterAgent",
        "BeforeAgent",
        "BeforeTool",
        "postToolUse",
        "agentStop",
        "userPromptSubmitted",
        "preToolUse",
    ]);
    let events = prop::collection::vec((event, prop::collection::vec(any_group(with_team), 1..3)), 1..4);
    let other = prop::collection::vec(
        (
            prop::sample::select(vec!["model", "permissions", "env", "\"odd\" key", "mcpServers"])
                .prop_map(str::to_string),
            any_string().prop_map(J::Str),
        ),
        0..3,
    );
    (other, prop::option::of(events), any::<prop::sample::Index>()).prop_map(|(mut ms, hooks, at)| {
        if let Some(events) = hooks {
            let evs = members(events.into_iter().map(|(e, gs)| (e.to_string(), J::Arr(gs))).collect());
            ms.insert(at.index(ms.len() + 1), ("hooks".into(), J::Obj(evs)));
        }
        J::Obj(members(ms))
    })
}

fn is_ours(j: &J) -> bool {
    let J::Obj(ms) = j else { return false };
    ms.iter().any(|(k, v)| k == "command" && matches!(v, J::Str(c) if super::edit::ours(c).is_some()))
}

/// The paths remove takes out: each team entry, or the highest group, event or `hooks` all of
/// whose content is team's.
fn gone(doc: &J) -> Vec<Vec<Step>> {
    let J::Obj(root) = doc else { return Vec::new() };
    let Some((_, J::Obj(events))) = root.iter().find(|(k, _)| k == "hooks") else { return Vec::new() };
    let hooks = vec![Step::Key("hooks".into())];
    let mut out = Vec::new();
    let mut whole_events = 0;
    for (name, groups) in events {
        let J::Arr(groups) = groups else { continue };
        let ev = [hooks.clone(), vec![Step::Key(name.clone())]].concat();
        let mut parts = Vec::new();
        let mut whole_groups = 0;
        for (g, group) in groups.iter().enumerate() {
            let J::Obj(gm) = group else { continue };
            let path = [ev.clone(), vec![Step::Index(g)]].concat();
            let Some((_, J::Arr(list))) = gm.iter().find(|(k, _)| k == "hooks") else {
                // a command of the flat form: a group of one
                if is_ours(group) {
                    whole_groups += 1;
                    parts.push(path);
                }
                continue;
            };
            if !list.is_empty() && list.iter().all(is_ours) {
                whole_groups += 1;
                parts.push(path);
            } else {
                let each = list.iter().enumerate().filter(|(_, h)| is_ours(h));
                parts.extend(
                    each.map(|(h, _)| [path.clone(), vec![Step::Key("hooks".into()), Step::Index(h)]].concat()),
                );
            }
        }
        if whole_groups == groups.len() {
            whole_events += 1;
            out.push(ev);
        } else {
            out.extend(parts);
        }
    }
    if whole_events == events.len() {
        return vec![hooks];
    }
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// `v` without the elements at `paths` (in text order: taken out last first).
fn without(mut v: serde_json::Value, paths: &[Vec<Step>]) -> serde_json::Value {
    for p in paths.iter().rev() {
        let (last, parent) = p.split_last().unwrap();
        let parent = parent.iter().fold(&mut v, |v, s| match s {
            Step::Key(k) => &mut v[k.as_str()],
            Step::Index(i) => &mut v[*i],
        });
        match last {
            Step::Key(k) => drop(parent.as_object_mut().unwrap().shift_remove(k)),
            Step::Index(i) => drop(parent.as_array_mut().unwrap().remove(*i)),
        }
    }
    v
}

fn is_subsequence(short: &str, long: &str) -> bool {
    let mut l = long.bytes();
    short.bytes().all(|c| l.any(|d| d == c))
}

fn text(doc: &J, style: &Style) -> String {
    write(doc, style).text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Whatever the layout: install only adds bytes, and remove after install gives the file
    /// back byte for byte — after a second install from another path too.
    #[test]
    fn remove_after_install_is_the_file_byte_for_byte(
        doc in any_settings(false),
        style in any_style(),
        f in prop::sample::select(HookFormat::ALL.to_vec()),
    ) {
        let mine = text(&doc, &style);
        let file = file_of(f);
        let on = installed(Some(&mine), f, &EVENTS, "/bin/team", file).unwrap();
        prop_assert!(is_subsequence(&mine, &on), "{mine:?} -> {on:?}");
        let root = crate::project_files::config::json_root(Some(&on), file).unwrap();
        prop_assert_eq!(super::edit::found(&root, f, file).unwrap().len(), 3);
        prop_assert_eq!(removed(Some(&on), FILE).unwrap().unwrap(), mine.clone());
        let moved = installed(Some(&on), f, &EVENTS, "/new/team", file).unwrap();
        prop_assert_eq!(removed(Some(&moved), FILE).unwrap().unwrap(), mine.clone());
        prop_assert_eq!(removed(Some(&mine), FILE).unwrap(), None);
    }

    /// Team's entries wherever they stand (a group of their own, beside a user's hook in the
    /// user's group, under any event): remove takes out those entries, or the group, event or
    /// `hooks` they alone fill, with the commas and whitespace beside them, and no other byte.
    #[test]
    fn remove_takes_out_team_s_entries_and_no_other_byte(doc in any_settings(true), style in any_style()) {
        let w = write(&doc, &style);
        let paths = gone(&doc);
        let spans: Vec<_> = w.spans.iter().filter(|(p, _)| paths.contains(p)).map(|(_, s)| s.clone()).collect();
        prop_assert_eq!(spans.len(), paths.len());
        match removed(Some(&w.text), FILE).unwrap() {
            None => prop_assert!(paths.is_empty()),
            Some(after) => {
                prop_assert!(only_taken_out(&w.text, &after, &spans), "{:?} -> {after:?}", w.text);
                prop_assert_eq!(json(&after), without(json(&w.text), &paths), "{:?} -> {:?}", w.text, after);
                prop_assert_eq!(removed(Some(&after), FILE).unwrap(), None);
            }
        }
    }
}

#[test]
fn a_file_the_editor_cannot_edit_safely_is_refused() {
    for (text, why) in [
        ("{\"hooks\": {} // mine\n}", ".claude/settings.local.json is not JSON ("),
        ("{\"a\": 1,}", ".claude/settings.local.json is not JSON (trailing comma"),
        ("{\"hooks\": {\"Stop\": []}, \"hooks\": {}}", ".claude/settings.local.json names hooks twice; fix or move it"),
    ] {
        let e = installed(Some(text), HookFormat::ClaudeSettings, &EVENTS, "/bin/team", FILE).unwrap_err().to_string();
        assert!(e.starts_with(why), "{text}: {e}");
    }
}
