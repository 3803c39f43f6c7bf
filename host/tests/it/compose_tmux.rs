//! The compose leg end to end: the real `codex-cloud` compose module (and hostile ones) driving
//! the fake `codex cloud` in a private tmux server through `team::legs::compose`. Each test asserts
//! the outcome and the exact bytes the fake seat received: the brief once and one Enter after
//! it when delivered, no byte of the brief (and no Enter after it) for every refusal, nothing
//! at all for a folder with no origin or a hostile module stopped at its first ask.

use crate::common::tmux::{SeatSpec, TmuxWorld};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use team::legs::compose::{self, ComposeSend};
use team::legs::SeatTarget;
use team::mux::tmux::Tmux;
use team::profiles::{Action, Key, ProfileHost};
use team::vocab::outcome::Outcome;

/// The drop's whole text, as a send writes it: the sender header, a blank line, the body.
const BRIEF: &str = "from the owner — admitted by: the owner\n\nPlease add a retry to the flaky login test";
/// What the composer is typed: the brief as one line.
const LINE: &str = "from the owner — admitted by: the owner / Please add a retry to the flaky login test";

struct Cloud {
    tw: TmuxWorld,
    root: PathBuf,
    host: ProfileHost,
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A fake `codex cloud` seat in `mode`, working in a checkout whose origin is `origin` (none:
/// a folder with no git at all).
fn cloud(mode: &str, origin: Option<&str>) -> Cloud {
    let mut tw = TmuxWorld::start("cloud", &[]);
    let root = tw.path().join("checkout");
    std::fs::create_dir_all(&root).unwrap();
    if let Some(o) = origin {
        git(&root, &["init", "-q"]);
        git(&root, &["remote", "add", "origin", o]);
    }
    tw.add_seat(SeatSpec::new("cloud", "codex-cloud", mode).cwd(&root).delay(150));
    assert!(tw.wait_for_text("cloud", "Loaded tasks", Duration::from_secs(10)), "{}", tw.screen("cloud"));
    let host = ProfileHost::with_dirs(tw.path().join("config"), tw.path().join("cache"));
    Cloud { tw, root, host }
}

impl Cloud {
    fn send(&self) -> compose::Report {
        self.send_as("0f1e2d3c-4b5a-4968-8776-655443322110")
    }
    /// A send of message `id` (each send its own drop file).
    fn send_as(&self, id: &str) -> compose::Report {
        let pins = BTreeMap::new();
        let at = SeatTarget {
            session: "cloud",
            team: "cloud",
            seat: "cloud",
            cli: "codex-cloud",
            root: &self.root,
            pins: &pins,
            record: None,
        };
        let req = ComposeSend { at, text: BRIEF, id };
        let tmux = Tmux::with_socket(self.tw.socket_str());
        let state = self.tw.path().join("state");
        let clock = team::clock::Clock::real();
        let means = compose::Means { mux: &tmux, profiles: &self.host, clock: &clock, state: &state };
        compose::deliver(&req, &means)
    }
    fn bytes(&self) -> String {
        String::from_utf8_lossy(&self.tw.log("cloud")).into_owned()
    }
    /// Runs a hostile compose component against the seat's pane.
    fn hostile(&self, bytes: &[u8]) -> compose::Run {
        let file = self.tw.path().join("hostile.wasm");
        std::fs::write(&file, bytes).unwrap();
        let mut module = self.host.load_file(&file).unwrap();
        assert!(module.describe().has_compose);
        let tmux = Tmux::with_socket(self.tw.socket_str());
        let pane = team::mux::Mux::locate(&tmux, "cloud", "cloud").unwrap();
        let mut port = compose::MuxPane { mux: &tmux, pane };
        let repo = team::profiles::Repo::from_origin("https://github.com/acme/team-beta.git").unwrap();
        compose::run(&mut port, &mut module, BRIEF, &repo, &compose::BOUNDS, &team::clock::Clock::real())
    }
}

/// No byte of the brief reached the seat, and no Enter after anything of it.
fn nothing_of_the_brief(c: &Cloud) {
    let b = c.bytes();
    assert!(!b.contains("from the owner") && !b.contains("flaky login"), "the brief was typed: {b:?}");
}

#[test]
fn delivered_by_the_submitted_as_line_with_its_task_id() {
    let c = cloud("created-line-stays", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(e) = r.run.created.as_ref().filter(|_| r.run.ended.is_delivered()) else {
        panic!("{:?}\n{}", r.run, c.tw.screen("cloud"))
    };
    assert!(e.line.starts_with("Submitted as task_e_"), "{e:?}");
    assert_eq!(r.task_id(), e.task_id.as_deref());
    assert!(r.task_id().unwrap().starts_with("task_e_"));
    assert_eq!(r.repo.as_ref().unwrap().slug, "acme/team-beta");
    // n, Ctrl+O, the search, Down, Enter, the brief once, one Enter after it.
    let b = c.bytes();
    assert_eq!(b, format!("n\x0facme/team-beta\x1b[B\r{LINE}\r"), "{b:?}");
    let drop = r.drop.unwrap();
    assert_eq!(std::fs::read_to_string(&drop).unwrap(), BRIEF);
    assert!(c.tw.screen("cloud").contains("[PENDING] from the owner"));
}

#[test]
fn delivered_by_the_new_pending_row_when_the_line_is_missed() {
    let c = cloud("created-line-missed", Some("git@github.com:acme/team-beta.git"));
    let r = c.send();
    let Some(e) = r.run.created.as_ref().filter(|_| r.run.ended.is_delivered()) else {
        panic!("{:?}\n{}", r.run, c.tw.screen("cloud"))
    };
    assert!(e.line.starts_with("[PENDING] from the owner — admitted by: the owner /"), "{e:?}");
    assert_eq!(r.task_id(), None);
    assert_eq!(c.bytes().matches(LINE).count(), 1);
}

#[test]
fn a_look_alike_environment_is_narrowed_with_a_space_before_down() {
    let c = cloud("lookalike", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    assert!(r.run.created.is_some() && r.run.ended.is_delivered(), "{:?}\n{}", r.run, c.tw.screen("cloud"));
    let b = c.bytes();
    assert!(b.starts_with("n\x0facme/team-beta \x1b[B\r"), "{b:?}");
    assert!(
        c.tw.screen("cloud").contains("acme/team-beta  •"),
        "the task went to team-beta, not the staging look-alike"
    );
}

#[test]
fn a_folder_with_no_origin_is_refused_with_zero_bytes_typed_and_the_drop_kept() {
    let c = cloud("takes-task", None);
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("has no git origin") && why.contains("nothing was typed"), "{why}");
    // the report carries the drop; the send's walk adds its place to the reason once
    assert!(!why.contains("the message is at"), "{why}");
    assert!(r.drop.as_ref().unwrap().exists());
    assert_eq!(c.bytes(), "", "not one byte");
}

#[test]
fn a_chooser_that_does_not_hold_the_repo_is_refused_before_the_brief() {
    let c = cloud("takes-task", Some("https://github.com/acme/unknown.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("holds no environment for acme/unknown"), "{why}");
    assert!(!r.run.brief_typed);
    nothing_of_the_brief(&c);
    assert!(!c.bytes().contains('\r'), "no Enter: {:?}", c.bytes());
}

#[test]
fn a_chooser_holding_two_matches_is_refused_before_the_brief() {
    let c = cloud("two-matches", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("more than one environment for acme/team-beta"), "{why}");
    nothing_of_the_brief(&c);
    assert!(!c.bytes().contains('\r'));
}

/// A refusal in the environment chooser, found on the task list: Esc closes the chooser the
/// compose opened, and the New Task page under it is left as it stands (Esc there cancels it
/// without a redraw, and a second Esc on the list quits `codex cloud`: docs/grok-and-compose.md
/// part C) — said in the outcome and shown by the screen. Found on that New Task page, the next
/// refusal leads the pane back to it, proven by the screen.
#[test]
fn a_refusal_in_the_chooser_closes_it_and_says_where_the_pane_was_left() {
    let c = cloud("two-matches", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("more than one environment for acme/team-beta"), "{why}");
    assert!(
        why.contains("; the pane was left where it stands: the New Task page and its composer (Esc closes only a dialog the compose opened"),
        "{why}"
    );
    nothing_of_the_brief(&c);
    // n, Ctrl+O, the search, then one Esc: the chooser closed, and nothing after it
    assert_eq!(c.bytes(), "n\x0facme/team-beta\x1b");
    let screen = c.tw.screen("cloud");
    assert!(screen.contains("New Task") && !screen.contains("Select Environment"), "{screen}");

    let r = c.send_as("0f1e2d3c-4b5a-4968-8776-655443322111");
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(
        why.contains(
            "; the pane was led back to where the compose found it (1 × Esc): the New Task page and its composer"
        ),
        "{why}"
    );
    assert_eq!(c.bytes(), "n\x0facme/team-beta\x1b\x0facme/team-beta\x1b", "no n: the page was used as it was");
    let screen = c.tw.screen("cloud");
    assert!(screen.contains("New Task") && !screen.contains("Select Environment"), "{screen}");
}

#[test]
fn a_chooser_that_never_collapses_is_refused_before_the_brief() {
    let c = cloud("never-collapses", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("never collapses on acme/team-beta"), "{why}");
    nothing_of_the_brief(&c);
    assert!(!c.bytes().contains('\r') && !c.bytes().contains("\x1b[B"), "neither Down nor Enter: {:?}", c.bytes());
}

#[test]
fn a_header_that_does_not_name_the_chosen_environment_is_refused_before_the_brief() {
    let c = cloud("header-stays", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::Refused) else { panic!("{:?}", r.run) };
    assert!(why.contains("after choosing acme/team-beta the New Task header names"), "{why}");
    nothing_of_the_brief(&c);
}

#[test]
fn a_failed_submit_is_not_submitted_naming_what_the_cli_said_and_the_drop_stays() {
    let c = cloud("submit-fails", Some("https://github.com/acme/team-beta.git"));
    let r = c.send();
    let Some(why) = said(&r.run, Outcome::NotSubmitted) else { panic!("{:?}\n{}", r.run, c.tw.screen("cloud")) };
    assert!(why.contains("Submit failed: http error"), "{why}");
    assert_eq!(std::fs::read_to_string(r.drop.unwrap()).unwrap(), BRIEF);
    assert_eq!(c.bytes().matches(LINE).count(), 1, "typed once, never again");
}

#[test]
fn the_plan_names_each_step_for_the_repo() {
    let c = cloud("takes-task", Some("https://github.com/acme/team-beta.git"));
    let mut p = c.host.load("codex-cloud", &BTreeMap::new()).unwrap();
    let repo = team::profiles::Repo::from_origin("https://github.com/acme/team-beta.git").unwrap();
    let plan = compose::plan(&mut p, &repo).unwrap();
    assert_eq!(plan.len(), 7);
    assert!(plan[2].contains("acme/team-beta") && plan[6].contains("Submitted as"), "{plan:?}");
    assert_eq!(c.bytes(), "", "a plan types nothing");
}

#[test]
fn hostile_compose_modules_are_stopped_within_their_bounds_with_nothing_further_typed() {
    use profile_artifacts::hostile;
    let c = cloud("takes-task", Some("https://github.com/acme/team-beta.git"));
    // A key outside the allowed set, control text, a forged `created`, a spin in the guest:
    // stopped at the first ask, not one byte typed.
    for (name, bytes, says) in [
        ("bad key", hostile::COMPOSE_BAD_KEY, "asked to press `escape`"),
        ("control", hostile::COMPOSE_CONTROL, "control character U+0003"),
        ("lies", hostile::COMPOSE_LIES, "before the brief was submitted"),
        ("spin", hostile::COMPOSE_SPIN, "ran past its 100 ms budget"),
    ] {
        let run = c.hostile(bytes);
        let Some(why) = stopped(&run) else { panic!("{name}: {:?}", run.ended) };
        assert!(why.contains(says), "{name}: {why}");
        assert!(run.done.is_empty(), "{name}: {:?}", run.done);
        assert_eq!(c.bytes(), "", "{name}");
    }
    // Typing forever: stopped at the bound on typing actions, and nothing after it.
    let run = c.hostile(hostile::COMPOSE_ENDLESS);
    let Some(why) = stopped(&run) else { panic!("{:?}", run.ended) };
    assert!(why.contains("more than 40 times"), "{why}");
    assert_eq!(run.done.len(), 40);
    assert!(run.done.iter().all(|a| *a == Action::Type("x".into())));
    // Nothing further: a marker typed after the run reaches the seat after anything the run
    // typed (one pane, one order), so the log up to the marker is all the run typed.
    let pane = c.tw.seat("cloud").pane.clone();
    assert!(c.tw.tmux(&["send-keys", "-t", &pane, "-l", "#"]).status.success());
    assert!(c.tw.wait_until(Duration::from_secs(20), || c.bytes().ends_with('#')), "{:?}", c.bytes());
    assert_eq!(c.bytes(), format!("{}#", "x".repeat(40)), "exactly the bound, nothing further");
    let _ = Key::Enter;
}

/// `team send` end to end to a `codex-cloud` seat: `--list` says REACH compose, `--dry-run`
/// names the compose plan, and the send is delivered through the compose leg with the history
/// line `via: compose` and the created task's id.
#[test]
fn team_send_to_a_compose_seat_goes_via_compose() {
    use crate::common::World;
    let tw = TmuxWorld::start("cloudteam", &[]);
    let mut w = World::empty();
    git(&w.repo, &["init", "-q"]);
    git(&w.repo, &["remote", "add", "origin", "https://github.com/acme/team-beta.git"]);
    w.team_file(
        "format: 1\nproject: cloudteam\nsession: cloudteam\nmultiplexer: tmux\nseats:\n  - name: cloud\n    role: worker\n    cli: codex-cloud\n",
    );
    w.extra_env.extend(tw.env());
    w.extra_env.push(("TEAM_TIME_SCALE".into(), "0.5".into()));
    let mut tw = tw;
    tw.add_seat(SeatSpec::new("cloud", "codex-cloud", "created-line-stays").cwd(&w.repo).delay(150));
    assert!(tw.wait_for_text("cloud", "Loaded tasks", Duration::from_secs(10)));

    let list = w.team(&["send", "--list"]);
    assert!(list.stdout.lines().any(|l| l.contains("cloud") && l.trim_end().ends_with("compose")), "{}", list.stdout);

    let dry = w.team(&["send", "cloud", "add a retry", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}{}", dry.stdout, dry.stderr);
    assert!(dry.stdout.contains("via a 0600 drop file and its compose module's screens"), "{}", dry.stdout);
    assert!(dry.stdout.contains("compose 0: for acme/team-beta"), "{}", dry.stdout);
    assert!(dry.stdout.contains("Submitted as <task id>"), "{}", dry.stdout);
    assert_eq!(String::from_utf8_lossy(&tw.log("cloud")), "", "a dry run types nothing");

    let r = w.team(&["send", "cloud", "add a retry to the flaky login test", "--json"]);
    assert_eq!(r.code, 0, "{}{}\n{}", r.stdout, r.stderr, tw.screen("cloud"));
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    crate::common::validate(&doc).unwrap();
    assert_eq!(doc["status"], "delivered", "{doc:#}");
    assert!(doc["note"].as_str().unwrap().starts_with("created task_e_"), "{doc:#}");
    let bytes = String::from_utf8_lossy(&tw.log("cloud")).into_owned();
    assert!(bytes.contains("add a retry to the flaky login test\r"), "{bytes:?}");
    assert!(!bytes.contains("Please read the team message"), "no trigger line: {bytes:?}");
    let mut lines = Vec::new();
    for e in std::fs::read_dir(&w.config).unwrap().flatten() {
        if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
            lines.extend(t.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()));
        }
    }
    let line = lines.last().expect("a history line");
    assert_eq!((line["via"].as_str(), line["outcome"].as_str()), (Some("compose"), Some("delivered")), "{line}");
    assert!(line["note"].as_str().unwrap().starts_with("created task_e_"), "{line}");
}

/// The run's reason, when it ended with `outcome`.
fn said(run: &compose::Run, outcome: Outcome) -> Option<&str> {
    (run.ended.outcome == outcome).then(|| run.ended.reason())
}

/// Why the compose module was stopped, when it was (nothing of the brief typed).
fn stopped(run: &compose::Run) -> Option<&str> {
    said(run, Outcome::Unreachable)?.strip_prefix("the compose module was stopped: ")
}
