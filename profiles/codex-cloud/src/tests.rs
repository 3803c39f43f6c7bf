//! The codex-cloud profile on the real screens: every fixture reads as its meta says, the
//! screens parse into what they show, and the compose module's decisions at each screen.

use super::*;
use crate::cloud::{parse, Page};
use profile_kit::{fixtures, Action, Evidence, Key, Repo, Step};

fn fixture(name: &str) -> fixtures::Fixture {
    fixtures::load(&fixtures::screens_dir().join("codex-cloud-0.171.0"), name).unwrap()
}

fn repo(slug: &str) -> Repo {
    Repo { origin: format!("https://github.com/{slug}.git"), slug: slug.into() }
}

/// What the module answers once a screen that never changes has been waited on: its waits
/// double from 10 ms, add up to 5 s or more, and take few reads (a loaded machine pays for
/// each read of the screen).
fn waited_out(b: &str, r: &Repo, screen: &Screen, mut done: Vec<Action>) -> Action {
    let (mut polls, mut ms) = (0, 0);
    loop {
        match compose_next(b, r, screen, &step(done.clone())) {
            Action::Wait(w) => {
                assert_eq!(w, if polls == 0 { 10 } else { (10u32 << polls.min(6)).min(640) }, "poll {polls}");
                polls += 1;
                ms += w;
                done.push(Action::Wait(w));
                assert!(polls <= 20, "{polls} polls");
            }
            other => {
                assert!(ms >= 5_000, "gave up after {ms} ms of waits");
                assert!(polls <= 20, "{polls} reads of the screen");
                return other;
            }
        }
    }
}

fn step(done: Vec<Action>) -> Step {
    Step { index: done.len() as u32, elapsed_ms: 0, done }
}

/// `old` replaced by `new` in one row of the screen, the row's width kept (padding eaten or
/// added after it), so the columns the parser reads stay where the capture drew them.
fn edit(mut s: Screen, old: &str, new: &str) -> Screen {
    for rows in [&mut s.plain, &mut s.styled] {
        for r in rows.iter_mut() {
            if let Some(at) = r.find(old) {
                let after = &r[at + old.len()..];
                let pad = after.len() - after.trim_start_matches(' ').len();
                let grow = new.chars().count() as isize - old.chars().count() as isize;
                let keep = (pad as isize - grow).max(0) as usize;
                *r = format!("{}{new}{}{}", &r[..at], " ".repeat(keep), &after[pad..]);
            }
        }
    }
    s
}

#[test]
fn every_codex_cloud_fixture_reads_as_its_meta_says() {
    let fx = fixtures::for_cli("codex-cloud").unwrap();
    assert_eq!(fx.len(), 13);
    let failures = fixtures::conformance(&fx, classify);
    assert!(failures.is_empty(), "{} of {} misread:\n{}", failures.len(), fx.len(), failures.join("\n"));
}

#[test]
fn the_screens_parse_into_what_their_metas_record() {
    for f in fixtures::for_cli("codex-cloud").unwrap() {
        let v = profile_kit::View::new(&f.screen);
        let c = parse(&v).unwrap_or_else(|| panic!("{} is not parsed", f.label()));
        let e = &f.meta["expect"];
        let page = match e["screen"].as_str().unwrap() {
            "task_list" => Some(Page::TaskList),
            "new_task" => Some(Page::NewTask),
            _ => None,
        };
        if let Some(page) = page {
            assert_eq!(c.page, page, "{}", f.label());
        }
        if let Some(env) = e.get("env") {
            assert_eq!(c.env.as_deref(), env.as_str(), "{}", f.label());
        }
        if let Some(search) = e.get("search") {
            assert_eq!(c.chooser.as_ref().unwrap().search, search.as_str().unwrap(), "{}", f.label());
        }
        if let Some(opts) = e.get("options").and_then(|o| o.as_array()) {
            let got: Vec<&str> = c.chooser.as_ref().unwrap().rows.iter().map(|r| r.label.as_str()).collect();
            let want: Vec<&str> = opts.iter().map(|o| o.as_str().unwrap()).collect();
            assert_eq!(got, want, "{}", f.label());
        }
        if let Some(sel) = e.get("selected").and_then(|s| s.as_str()) {
            assert_eq!(c.chooser.as_ref().unwrap().selected().unwrap().label, sel, "{}", f.label());
        }
    }
    let c = parse(&profile_kit::View::new(&fixture("env-chooser-full").screen)).unwrap();
    let ch = c.chooser.unwrap();
    let alpha = ch.rows.iter().find(|r| r.label == "acme/team-alpha").unwrap();
    assert_eq!(
        (alpha.id.as_str(), alpha.hint.as_deref(), alpha.pinned),
        ("env_team_alpha", Some("acme/team-alpha"), false)
    );
    assert!(ch.rows.iter().find(|r| r.label == "acme/widgets").unwrap().pinned);
    let c = parse(&profile_kit::View::new(&fixture("task-created").screen)).unwrap();
    assert_eq!(c.tasks[0].line, "[PENDING] Add a retry with backoff to the flaky login test in tests/lo");
    assert_eq!(c.tasks[0].env.as_deref(), Some("acme/team-beta"));
    assert!(c.status.starts_with("Submitted as task_e_b9b42497c872"));
}

#[test]
fn the_brief_is_one_line_within_the_limit_and_printable() {
    assert_eq!(
        brief_line("from lead — admitted by: own lead\n\nfix the\tparser\n").unwrap(),
        "from lead — admitted by: own lead / fix the parser"
    );
    assert!(brief_line(&"x".repeat(MAX_BRIEF + 1)).unwrap_err().contains(&MAX_BRIEF.to_string()));
    assert!(brief_line("a\u{1b}[31mred").unwrap_err().contains("U+001B"));
    assert!(brief_line(" \n \n").is_err());
    let a =
        compose_next("a\u{7}b", &repo("acme/team-beta"), &fixture("task-list-env-autodetected").screen, &step(vec![]));
    assert!(matches!(a, Action::Refuse(ref r) if r.contains("U+0007")), "{a:?}");
}

#[test]
fn from_the_task_list_it_opens_new_task_then_the_chooser_then_searches_the_repo() {
    let r = repo("acme/team-alpha");
    let b = "fix the flaky login test";
    assert_eq!(
        compose_next(b, &r, &fixture("task-list-env-autodetected").screen, &step(vec![])),
        Action::Type("n".into())
    );
    let done = vec![Action::Type("n".into())];
    assert_eq!(compose_next(b, &r, &fixture("new-task-empty").screen, &step(done.clone())), Action::Press(Key::CtrlO));
    let done = [done, vec![Action::Press(Key::CtrlO)]].concat();
    assert_eq!(
        compose_next(b, &r, &fixture("new-task-env-chooser").screen, &step(done.clone())),
        Action::Type("acme/team-alpha".into())
    );
    // The search lists one environment, the repo's: Down.
    let typed = [done.clone(), vec![Action::Type("acme/team-alpha".into())]].concat();
    let s = edit(fixture("env-chooser-filtered").screen, "Search: team-al", "Search: acme/team-alpha");
    assert_eq!(compose_next(b, &r, &s, &step(typed.clone())), Action::Press(Key::Down));
    // A look-alike left beside it: narrowed to the label and a space first (docs part C).
    let two = edit(
        s.clone(),
        "acme/team-alpha  env_team_alpha  acme/team-alpha",
        "acme/team-alpha  env_team_alpha  acme/team-alpha",
    );
    let two = edit(two, "All Environments (Global)", "All Environments (Global)");
    let mut rows = two.plain.clone();
    let at = rows.iter().position(|r| r.contains("env_team_alpha")).unwrap();
    rows.insert(
        at,
        rows[at]
            .replace("acme/team-alpha  env_team_alpha  acme/team-alpha", "acme/team-alpha-staging  env_stage       "),
    );
    rows.pop();
    let two = Screen { styled: Vec::new(), plain: rows, ..two };
    assert_eq!(compose_next(b, &r, &two, &step(typed.clone())), Action::Type(" ".into()));
    let spaced = [typed.clone(), vec![Action::Type(" ".into())]].concat();
    assert_eq!(compose_next(b, &r, &two, &step(spaced.clone())), Action::Wait(10));
    let a = waited_out(b, &r, &two, spaced);
    assert!(matches!(a, Action::Refuse(ref w) if w.contains("never collapses")), "{a:?}");
    // Down pressed and the cursor not moved yet: a redraw is waited for, Down is not repeated.
    let downed = [typed, vec![Action::Press(Key::Down)]].concat();
    assert_eq!(compose_next(b, &r, &s, &step(downed)), Action::Wait(10));
}

#[test]
fn the_cursor_on_the_repo_row_is_chosen_and_the_header_must_name_it() {
    let r = repo("acme/team-beta");
    let b = "Add a retry with backoff to the flaky login test in tests/login_test.py";
    let base = vec![
        Action::Type("n".into()),
        Action::Press(Key::CtrlO),
        Action::Type("acme/team-beta ".into()),
        Action::Press(Key::Down),
    ];
    let s =
        edit(fixture("new-task-env-chooser-filtered-selected").screen, "Search: team-beta", "Search: acme/team-beta");
    assert_eq!(compose_next(b, &r, &s, &step(base.clone())), Action::Press(Key::Enter));
    let chosen = [base, vec![Action::Press(Key::Enter)]].concat();
    // The header still names team-alpha: a redraw is waited for, then refused.
    let stale = fixture("new-task-empty").screen;
    assert_eq!(compose_next(b, &r, &stale, &step(chosen.clone())), Action::Wait(10));
    let a = waited_out(b, &r, &stale, chosen.clone());
    assert!(matches!(a, Action::Refuse(ref why) if why.contains("names acme/team-alpha")), "{a:?}");
    // Header right, composer empty: the brief is typed.
    let beta_empty = edit(fixture("new-task-empty").screen, "acme/team-alpha", "acme/team-beta");
    assert_eq!(compose_next(b, &r, &beta_empty, &step(chosen.clone())), Action::Type(b.into()));
    // The composer holds it: the paste burst is waited out, then Enter.
    let typed = [chosen, vec![Action::Type(b.into())]].concat();
    let held = fixture("new-task-typed-env-switched").screen;
    assert_eq!(compose_next(b, &r, &held, &step(typed.clone())), Action::Wait(60));
    let paused = [typed, vec![Action::Wait(60)]].concat();
    assert_eq!(compose_next(b, &r, &held, &step(paused.clone())), Action::Press(Key::Enter));
    // Delivered: the transient `Submitted as` line, else the new top [PENDING] row.
    let submitted = [paused, vec![Action::Press(Key::Enter)]].concat();
    let created = fixture("task-created").screen;
    assert_eq!(
        compose_next(b, &r, &created, &step(submitted.clone())),
        Action::Created(Evidence {
            line: "Submitted as task_e_b9b42497c872 — refreshing…".into(),
            task_id: Some("task_e_b9b42497c872".into())
        })
    );
    let listed = edit(created, "Submitted as task_e_b9b42497c872 — refreshing…", "Loaded tasks");
    // The row alone gets one more look (a frame may show the list before the line under it)…
    assert_eq!(compose_next(b, &r, &listed, &step(submitted.clone())), Action::Wait(11));
    // …and is the evidence when that look shows it alone again.
    let looked = [submitted.clone(), vec![Action::Wait(11)]].concat();
    assert_eq!(
        compose_next(b, &r, &listed, &step(looked)),
        Action::Created(Evidence {
            line: "[PENDING] Add a retry with backoff to the flaky login test in tests/lo".into(),
            task_id: None
        })
    );
    // A failed submit empties the composer: failed, naming what the CLI said.
    let failed = edit(fixture("new-task-submit-failed").screen, "acme/team-alpha", "acme/team-beta");
    let a = compose_next(b, &r, &failed, &step(submitted));
    assert!(matches!(a, Action::Failed(ref why) if why.contains("Submit failed: http error")), "{a:?}");
}

#[test]
fn refusals_before_the_brief() {
    let b = "brief";
    let list = fixture("new-task-env-chooser").screen;
    let done = vec![Action::Type("n".into()), Action::Press(Key::CtrlO), Action::Type("acme/other".into())];
    // Not held: the search lists nothing of the repo.
    let s = edit(fixture("env-chooser-filtered").screen, "Search: team-al", "Search: acme/other");
    let a = compose_next(b, &repo("acme/other"), &s, &step(done));
    assert!(matches!(a, Action::Refuse(ref why) if why.contains("holds no environment for acme/other")), "{a:?}");
    // Held twice: the label of one and the repo hint of another.
    let s = edit(list.clone(), "acme/team-beta  env_team_beta", "acme/team-beta  env_team_beta  acme/team-alpha");
    let done = vec![Action::Type("n".into()), Action::Press(Key::CtrlO), Action::Type("acme/team-alpha".into())];
    let s = edit(s, "Search:", "Search: acme/team-alpha");
    let a = compose_next(b, &repo("acme/team-alpha"), &s, &step(done));
    assert!(matches!(a, Action::Refuse(ref why) if why.contains("more than one environment")), "{a:?}");
    // Someone's draft in the New Task composer is never touched.
    let a = compose_next(b, &repo("acme/team-alpha"), &fixture("new-task-typed").screen, &step(vec![]));
    assert!(matches!(a, Action::Refuse(ref why) if why.contains("already holds text")), "{a:?}");
    // No repository, and a pane that is not codex cloud.
    let a = compose_next(b, &Repo { origin: String::new(), slug: String::new() }, &list, &step(vec![]));
    assert!(matches!(a, Action::Refuse(_)));
    let shell = Screen::from_plain("$ codex cloud\nbye\nuser@host:~/w$ ", "");
    assert!(
        matches!(compose_next(b, &repo("acme/x"), &shell, &step(vec![])), Action::Refuse(ref w) if w.contains("shell prompt"))
    );
}

#[test]
fn the_description_says_it_composes() {
    let d = describe();
    assert!(d.has_compose && d.id == "codex-cloud" && d.max_trigger == 0);
    assert_eq!(plan(&repo("acme/team-beta")).len(), 7);
}
