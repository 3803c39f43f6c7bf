use super::*;

fn pane(id: &str, name: &str) -> PaneInfo {
    PaneInfo {
        id: id.into(),
        session: "beacon".into(),
        shell_pid: None,
        name: name.into(),
        label: None,
        workspace: None,
        agent_session: None,
    }
}

fn line(seat: &str, o: Outcome) -> String {
    words::line(Verb::Up, &SeatLine { seat: seat.into(), outcome: o })
}

#[test]
fn each_outcome_is_said_in_the_issue_s_words() {
    assert_eq!(
        line("keeper", Outcome::Up { cli: "claude-code".into(), version: Some("2.1.332".into()), pane: "%0".into() }),
        "keeper: up (claude-code 2.1.332 in %0, idle)"
    );
    // a CLI whose installed package names no version says so, and none is made up
    assert_eq!(
        line("rev", Outcome::Up { cli: "codex".into(), version: None, pane: "%1".into() }),
        "rev: up (codex in %1, idle; version unknown)"
    );
    assert_eq!(
        line("rev", Outcome::Waiting { pane: "%1".into(), dialog: "a trust dialog".into() }),
        "rev: waiting for you (a trust dialog in pane %1; answer it there, then team up again)"
    );
    assert_eq!(line("rev", Outcome::Already { pane: "%1".into() }), "rev: already running (pane %1)");
    assert_eq!(
        line("rev", Outcome::Exited { pane: "%1".into(), last: vec!["a\x1b[2J".into(), "$".into()] }),
        "rev: exited (its last screen lines in pane %1: a\\x1b[2J / $)"
    );
    let add = words::line(
        Verb::Add,
        &SeatLine { seat: "rev".into(), outcome: Outcome::NotReady { pane: "%1".into(), shows: "x".into(), secs: 5 } },
    );
    assert_eq!(add, "rev: not ready after 5 s (pane %1: x); team add rev again once it is at its prompt");
}

#[test]
fn a_pane_no_record_holds_refuses_the_whole_session() {
    let d = tempfile::tempdir().unwrap();
    let mut st = State::load(d.path()).unwrap();
    let f = d.path().join(".agents/team.yaml");
    st.launching("beacon", "keeper", &f, "claude-code", "%0", "claude");
    let panes = [pane("%0", "keeper"), pane("%3", "rev"), pane("%4", "")];
    let e = unrecorded(&st, "beacon", &panes, ["keeper", "rev"].into_iter()).unwrap_err();
    assert_eq!(e.id, "up.unrecorded");
    assert_eq!(
        e.message(),
        "session \"beacon\" has panes this file's state does not record: %3 (marked rev), %4; nothing was started"
    );
    let hints = e.hints.join("\n");
    assert!(
        hints.contains("team register rev --pane %3") && hints.contains("team register <seat> --pane %4"),
        "{hints}"
    );
    // a stopped record holds no pane; the recorded one alone is no refusal
    st.set_stopped("beacon", "keeper", "t");
    assert!(unrecorded(&st, "beacon", &panes[..1], ["keeper"].into_iter()).is_err());
    assert!(unrecorded(&State::load(d.path()).unwrap(), "beacon", &[], ["keeper"].into_iter()).is_ok());
}

#[test]
fn the_document_carries_the_version_a_launch_read_and_none_it_did_not() {
    let up = |version: Option<&str>| Outcome::Up {
        cli: "codex".into(),
        version: version.map(Into::into),
        pane: "%1".into(),
    };
    let r = Report {
        verb: Verb::Up,
        project: "beacon".into(),
        session: "beacon".into(),
        dry_run: false,
        notes: Vec::new(),
        seats: vec![
            SeatLine { seat: "rev".into(), outcome: up(Some("0.171.0")) },
            SeatLine { seat: "odd".into(), outcome: up(None) },
            SeatLine { seat: "keeper".into(), outcome: Outcome::Already { pane: "%0".into() } },
        ],
    };
    let d = serde_json::to_value(r.document()).unwrap();
    let v: Vec<_> = d["seats"].as_array().unwrap().iter().map(|s| s.get("cli_version").cloned()).collect();
    assert_eq!(v, [Some(serde_json::json!("0.171.0")), None, None], "{d}");
}
