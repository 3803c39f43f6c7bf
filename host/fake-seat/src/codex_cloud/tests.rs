//! The imitation against the real captures: each captured state drawn and compared row for
//! row, the failures, the search keys and the terminal's bytes.
use super::draw::draw;
use super::*;

fn capture(name: &str) -> Vec<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/screens/codex-cloud-0.171.0")
        .join(format!("{name}.txt"));
    let text = std::fs::read_to_string(p).unwrap();
    text.strip_suffix('\n').unwrap_or(&text).split('\n').map(|r| r.trim_end().to_string()).collect()
}

fn same(c: &Cloud, name: &str) {
    let got = draw(c, 120, 40).plain();
    let want = capture(name);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{name} row {i}");
    }
    assert_eq!(got.len(), want.len(), "{name}");
}

fn alpha() -> Cloud {
    Cloud::new(Mode::TakesTask, Some("acme/team-alpha"), Duration::ZERO)
}

#[test]
fn the_captured_screens_are_drawn_as_the_real_cli_drew_them() {
    let mut c = alpha();
    same(&c, "task-list-env-autodetected");
    c.key(Input::Char('o'));
    same(&c, "env-chooser-full");
    for ch in "team-al".chars() {
        c.key(Input::Char(ch));
    }
    same(&c, "env-chooser-filtered");
    let mut c = alpha();
    c.key(Input::Char('n'));
    same(&c, "new-task-empty");
    for ch in "Add a retry with backoff to the flaky login test in tests/login_test.py".chars() {
        c.key(Input::Char(ch));
    }
    same(&c, "new-task-typed");
    c.key(Input::CtrlO);
    same(&c, "new-task-env-chooser");
    for ch in "team-beta".chars() {
        c.key(Input::Char(ch));
    }
    c.key(Input::Down);
    same(&c, "new-task-env-chooser-filtered-selected");
    c.key(Input::Enter);
    c.status = "Loaded tasks".into();
    same(&c, "new-task-typed-env-switched");
    c.key(Input::Enter);
    assert_eq!(c.status, "Submitting new task…");
    assert!(c.composer.is_empty(), "the composer empties at once");
    let now = Instant::now();
    c.tick(now);
    assert!(c.status.starts_with("Submitted as task_e_"));
    c.status = "Submitted as task_e_b9b42497c872 — refreshing…".into();
    c.tasks[0].age = "56s ago".into();
    same(&c, "task-created");
    c.tick(now + Duration::from_millis(70));
    assert_eq!(c.status, "Loaded tasks");
}

#[test]
fn the_failures_empty_the_composer() {
    // A folder with no remote, and a backend with no environments.
    let mut c = Cloud::new(Mode::TakesTask, None, Duration::ZERO);
    c.envs.clear();
    same(&c, "task-list-no-env");
    c.key(Input::Char('n'));
    same(&c, "new-task-empty-no-env");
    for ch in "brief".chars() {
        c.key(Input::Char(ch));
    }
    c.key(Input::Enter);
    same(&c, "new-task-submit-no-env");
    let mut c = Cloud::new(Mode::SubmitFails, Some("acme/team-alpha"), Duration::ZERO);
    c.key(Input::Char('n'));
    for ch in "brief".chars() {
        c.key(Input::Char(ch));
    }
    c.key(Input::Enter);
    c.tick(Instant::now());
    same(&c, "new-task-submit-failed");
}

#[test]
fn search_keys_are_text_and_the_first_row_keeps_the_cursor() {
    let mut c = Cloud::new(Mode::Lookalike, Some("acme/team-beta"), Duration::ZERO);
    c.key(Input::Char('o'));
    for ch in "acme/team-beta".chars() {
        c.key(Input::Char(ch));
    }
    let (s, cur) = c.chooser.clone().unwrap();
    let rows: Vec<String> = c.matches(&s).iter().map(|e| e.map(|e| e.label.clone()).unwrap_or_default()).collect();
    assert_eq!(rows, ["", "acme/team-beta-staging", "acme/team-beta"], "the pinned look-alike sorts first");
    assert_eq!(cur, 0);
    c.key(Input::Char(' '));
    let (s, _) = c.chooser.clone().unwrap();
    assert_eq!(c.matches(&s).len(), 2, "the label and a space leave one row");
    c.key(Input::Char('j'));
    assert_eq!(c.chooser.as_ref().unwrap().0, "acme/team-beta j");
}

#[test]
fn keys_are_read_from_the_terminal_s_bytes() {
    let mut p = Vec::new();
    assert_eq!(
        keys(b"n\x0fab\x1b[B\x1b[A\x7f\r\x1b", &mut p),
        [
            Input::Char('n'),
            Input::CtrlO,
            Input::Char('a'),
            Input::Char('b'),
            Input::Down,
            Input::Up,
            Input::Backspace,
            Input::Enter,
            Input::Esc
        ]
    );
    assert_eq!(keys("é\x03".as_bytes(), &mut p), [Input::Char('é'), Input::CtrlC]);
    assert!(keys(b"\x1b[", &mut p).is_empty());
    assert_eq!(keys(b"B", &mut p), [Input::Down]);
}
