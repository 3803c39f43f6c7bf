//! `team rename` end to end under tmux: the real binary against fake seats (real vendor
//! screens, the CLI's process, a fake Claude's live socket) in a private tmux server. A legacy
//! `lead` seat renamed — `team check`'s note gone, the pane's mark, a send to the new name
//! delivered and the old name no seat; a registered seat renamed — its agent id kept, found
//! under its new name by `team route`, `team status`, `team register` and `team send`; a mark
//! spelled `<seat>@<team>` kept in its spelling, and a pane that already has the new name
//! refused. Nothing is typed into any pane by a rename: each fake seat's log stays empty until
//! a send.

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use crate::register_tmux::{in_world, scene, Scene, SEATS};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;

/// A 0.4 team file: its lead seat is named `lead`, which the legacy `coordinator:` key names.
const LEGACY: &str = "\
format: 1
project: beacon
session: beacon
multiplexer: tmux
coordinator: lead   # the 0.4 lead key
seats:
  - name: lead      # the seat team check notes
    label: coordinator
    cli: claude-code
  - name: gpt-reviewer
    cli: codex
";

/// The beacon checkout with `text` as its team file, and the seats running in session `beacon`.
fn legacy_scene(text: &str, seats: &[SeatSpec]) -> Scene {
    let mut w = World::empty();
    std::fs::create_dir_all(w.base().join("run")).unwrap();
    let seats: Vec<SeatSpec> = seats.iter().map(|s| in_world(&w, s.clone())).collect();
    let tw = TmuxWorld::start("beacon", &seats);
    w.team_file(text);
    w.extra_env.extend(tw.env());
    Scene { w, tw }
}

impl Scene {
    fn rename(&self, args: &[&str]) -> common::Run {
        let mut a = vec!["rename"];
        a.extend_from_slice(args);
        self.w.team(&a)
    }
    fn mark(&self, pane: &str) -> String {
        let out = self.tw.tmux(&["show-options", "-p", "-v", "-t", pane, "@team-seat"]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
    fn file(&self) -> String {
        std::fs::read_to_string(self.w.repo.join(".agents/team.yaml")).unwrap()
    }
}

#[test]
fn a_legacy_lead_seat_is_renamed_and_reached_by_its_new_name() {
    let s = legacy_scene(LEGACY, &[SeatSpec::new("lead", "claude-code", "takes-line")]);
    let pane = s.pane("lead");
    let path = s.w.repo.join(".agents/team.yaml");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();

    let r = s.w.team(&["check"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("line 7: seat \"lead\" takes the word reserved for lead@<team>"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "\n  team rename lead <new-name> (the file, its pane and its records follow; --dry-run names each step)\n"
        ),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("not in this build"), "{}", r.stdout);

    // a dry run changes nothing
    let r = s.rename(&["lead", "keeper2", "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    let would = format!("lead: would be renamed to keeper2 — the file and pane {pane}; nothing was written\n");
    assert!(r.stdout.ends_with(&would), "{}", r.stdout);
    assert_eq!((s.file(), s.mark(&pane)), (LEGACY.to_string(), "lead".to_string()));

    let r = s.rename(&["lead", "keeper2"]);
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (
            format!("team beacon, session \"beacon\"\nlead: renamed to keeper2 — the file and pane {pane}\n").as_str(),
            "",
            0
        )
    );
    assert!(s.tw.log("lead").is_empty(), "the rename typed nothing into the pane");
    // the file: the two values that name the seat, the comments kept, the mode kept
    assert_eq!(
        s.file(),
        LEGACY
            .replace("coordinator: lead   #", "coordinator: keeper2   #")
            .replace("  - name: lead      #", "  - name: keeper2      #")
    );
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(s.mark(&pane), "keeper2");
    let r = s.w.team(&["check"]);
    assert_eq!(r.stdout, "team beacon, session \"beacon\"\n.agents/team.yaml: 2 seats, 0 notes\n", "{r:?}");

    // the new name is the seat's address; the old one is no seat
    let r = s.w.team(&["send", "keeper2", "hello"]);
    assert_eq!((r.stdout.as_str(), r.code), ("team beacon, session \"beacon\"\nkeeper2: delivered\n", 0), "{r:?}");
    let typed = String::from_utf8_lossy(&s.tw.log("lead")).into_owned();
    assert!(typed.contains(".agents/send-drops/beacon/keeper2/"), "{typed}");
    let r = s.w.team(&["send", "lead", "hello"]);
    assert_eq!(
        (r.stderr.as_str(), r.code),
        ("team send: refused: lead: it is not a declared seat; the file's seats are keeper2, gpt-reviewer\n", 1)
    );
    // lead@<team> is the address of the seat the file names as lead: the renamed one
    let r = s.w.team(&["send", "lead@beacon", "hi", "--dry-run"]);
    assert!(r.stdout.contains("keeper2: dry-run: claude-code via"), "{r:?}");

    // a seat no pane holds: the file is renamed, and the line says no pane was
    let r = s.rename(&["gpt-reviewer", "rev"]);
    assert_eq!(
        r.stdout,
        "team beacon, session \"beacon\"\ngpt-reviewer: renamed to rev — the file; no pane was renamed (no pane of tmux session \"beacon\" is marked gpt-reviewer)\n",
        "{r:?}"
    );
    assert!(s.file().contains("  - name: rev\n"));
    let log = s.log();
    let renames: Vec<Value> =
        log.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|l| l["command"] == "rename").collect();
    assert_eq!(renames.len(), 2, "{log}");
    assert_eq!((renames[0]["seat"].as_str(), renames[0]["outcome"].as_str()), (Some("lead"), Some("renamed")));
    assert_eq!(renames[0]["caller"], "the owner");
}

#[test]
fn a_registered_seat_keeps_its_agent_id_and_is_found_by_its_new_name() {
    let s = scene(
        SEATS,
        &[
            SeatSpec::new("claude-keeper", "claude-code", "takes-line"),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line"),
        ],
    );
    let pane = s.pane("claude-keeper");
    assert_eq!(s.register(&["claude-keeper"]).code, 0);
    let id = s.state()["sessions"]["beacon"]["seats"]["claude-keeper"]["id"].as_str().unwrap().to_string();

    let r = s.rename(&["claude-keeper", "keeper", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(
        doc["action_summary"],
        format!(
            "claude-keeper: renamed to keeper — the file, pane {pane}, its state record and its registry record ({id})"
        )
    );
    assert_eq!((doc["pane"].as_str(), doc["agents"][0].as_str()), (Some(pane.as_str()), Some(id.as_str())));
    let steps: Vec<&str> = doc["steps"].as_array().unwrap().iter().map(|s| s["step"].as_str().unwrap()).collect();
    assert_eq!(steps, vec!["file", "pane", "state", "launched", "registry"]);
    assert!(s.tw.log("claude-keeper").is_empty() && s.tw.log("gpt-reviewer").is_empty(), "nothing typed");

    // the records: the new name, the same id, the old name gone
    let st = s.state();
    assert_eq!(st["sessions"]["beacon"]["seats"]["keeper"]["id"], id.as_str());
    assert_eq!(st["sessions"]["beacon"]["seats"]["keeper"]["pane"], pane.as_str());
    assert!(st["sessions"]["beacon"]["seats"].get("claude-keeper").is_none());
    assert!(s.agent("keeper").contains(&format!("id: {id}\n")));
    let teams = std::fs::read_to_string(s.w.config.join("teams.yaml")).unwrap();
    assert!(teams.contains("- seat: keeper\n") && !teams.contains("claude-keeper"), "{teams}");
    let launched = std::fs::read_to_string(s.w.state.join("launched/beacon.json")).unwrap();
    assert!(launched.contains("\"keeper\"") && !launched.contains("claude-keeper"), "{launched}");

    // route, status, register and send find it under the new name
    let r = s.w.team(&["route", "keeper"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("keeper: agent {id}, session ")), "{}", r.stdout);
    assert!(r.stdout.contains(" (live)\n"), "{}", r.stdout);
    assert_eq!(s.w.team(&["route", "claude-keeper"]).code, 1);
    let r = s.w.team(&["status", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    let row = doc["seats"].as_array().unwrap().iter().find(|r| r["name"] == "keeper").cloned().unwrap();
    assert_eq!((row["pane"].as_str(), row["reads"]["state"].as_str()), (Some(pane.as_str()), Some("idle")), "{row}");
    assert!(!doc["seats"].as_array().unwrap().iter().any(|r| r["name"] == "claude-keeper"));
    let r = s.register(&["keeper"]);
    assert_eq!(
        r.stdout,
        format!(
            "keeper: already registered — pane {pane}; the record was refreshed from the file, nothing relaunched\n"
        ),
        "{r:?}"
    );
    assert_eq!(s.state()["sessions"]["beacon"]["seats"]["keeper"]["id"], id.as_str(), "the repair keeps the id");
    assert!(s.tw.log("claude-keeper").is_empty(), "nothing typed before the send");
    let r = s.w.team(&["send", "keeper", "hello"]);
    assert!(r.stdout.ends_with("keeper: delivered\n"), "{r:?}");
}

#[test]
fn a_mark_spelled_with_the_team_keeps_its_spelling_and_a_taken_name_is_refused() {
    let s = legacy_scene(
        LEGACY,
        &[
            SeatSpec::new("lead", "claude-code", "takes-line").mark("lead@beacon"),
            SeatSpec::new("stray", "codex", "takes-line").mark("keeper2"),
        ],
    );
    let (pane, stray) = (s.pane("lead"), s.pane("stray"));
    let r = s.rename(&["lead", "keeper2"]);
    assert_eq!(
        (r.stderr.as_str(), r.code),
        (
            format!(
                "team rename: pane {stray} is already named keeper2 in session \"beacon\"; nothing was renamed\nunmark it first: tmux set -p -u -t {stray} @team-seat\n"
            )
            .as_str(),
            1
        )
    );
    assert_eq!((s.file(), s.mark(&pane)), (LEGACY.to_string(), "lead@beacon".to_string()), "nothing changed");
    assert!(s.tw.tmux(&["set", "-p", "-u", "-t", &stray, "@team-seat"]).status.success());
    let r = s.rename(&["lead", "keeper2"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(s.mark(&pane), "keeper2@beacon");
    let r = s.w.team(&["send", "keeper2", "hello"]);
    assert!(r.stdout.ends_with("keeper2: delivered\n"), "{r:?}");
    assert!(s.tw.log("stray").is_empty());
}
