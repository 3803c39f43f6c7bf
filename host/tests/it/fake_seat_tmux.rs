//! The tmux adapter and the fake seats together, in a private tmux server: seats are located
//! by their `@team-seat` mark, read, typed into and submitted through `mux::tmux::Tmux`, and
//! each mode's screens and received bytes are checked.

use team::mux;

use crate::common::tmux as tmux_world;

use mux::{Mux, MuxError};
use std::time::Duration;
use tmux_world::{SeatSpec, TmuxWorld};

/// How long a wait on a condition may take (the suite's one bound).
const SECS5: Duration = crate::common::BOUND;

fn adapter(w: &TmuxWorld) -> mux::tmux::Tmux {
    mux::tmux::Tmux::with_socket(w.socket_str())
}

/// Reads until `cond` holds on a capture (or the bound passes); returns the last capture.
fn read_until(m: &dyn Mux, p: &mux::PaneRef, cond: impl Fn(&mux::Capture) -> bool) -> mux::Capture {
    let t = std::time::Instant::now();
    loop {
        let c = m.read(p).expect("read");
        if cond(&c) || t.elapsed() > SECS5 {
            return c;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// True when `row` turns on faint (SGR 2) somewhere.
fn has_faint(row: &str) -> bool {
    let re = regex::Regex::new(r"\x1b\[([0-9;]*)m").unwrap();
    let faint = re.captures_iter(row).any(|c| c[1].split(';').any(|p| p == "2"));
    faint
}

fn has(c: &mux::Capture, text: &str) -> bool {
    c.plain.iter().any(|r| r.contains(text))
}

fn composer_claude(c: &mux::Capture) -> Option<String> {
    c.plain.iter().rev().find_map(|r| r.strip_prefix("❯\u{a0}").map(|s| s.trim_end().to_string()))
}

fn composer_codex(c: &mux::Capture) -> Option<String> {
    // the last `›` row above the status line
    let status = c.plain.iter().rposition(|r| r.starts_with("  gpt-5.1-codex"))?;
    c.plain[..status].iter().rposition(|r| r.starts_with("› ")).map(|i| c.plain[i][4..].to_string())
}

#[test]
fn locate_finds_marked_seats_and_names_what_is_missing() {
    let w = TmuxWorld::start(
        "beacon",
        &[SeatSpec::new("rev", "codex", "takes-line"), SeatSpec::new("lead", "claude-code", "takes-line")],
    );
    let m = adapter(&w);
    assert_eq!(m.name(), "tmux");
    let rev = m.locate("beacon", "rev").expect("rev");
    assert_eq!(rev.id, w.seat("rev").pane);
    assert_eq!((rev.session.as_str(), rev.seat.as_str()), ("beacon", "rev"));
    let lead = m.locate("beacon", "lead").expect("lead");
    assert_eq!(lead.id, w.seat("lead").pane);
    assert!(lead.shell_pid.is_some());

    let e = m.locate("beacon", "ghost").unwrap_err();
    assert!(matches!(e, MuxError::NoSeat(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "no pane of tmux session \"beacon\" is marked as seat \"ghost\" (from inside its pane: team mark ghost)"
    );
    let e = m.locate("nosuch", "rev").unwrap_err();
    assert!(matches!(e, MuxError::NoSession(_)), "{e:?}");
    // (naming the sessions that do have marked panes, with their seats)
    assert_eq!(
        e.to_string(),
        format!(
            "the tmux server at {} has no session \"nosuch\"; the sessions with marked panes are beacon (rev, lead)",
            w.socket_str()
        )
    );
    // a session name that is a prefix of another does not match it
    let e = m.locate("beac", "rev").unwrap_err();
    assert!(matches!(e, MuxError::NoSession(_)), "{e:?}");

    // two panes marked the same seat: refused, naming both
    let out = w.tmux(&["set", "-p", "-t", &w.seat("lead").pane, "@team-seat", "rev"]);
    assert!(out.status.success());
    let e = m.locate("beacon", "rev").unwrap_err();
    assert!(e.to_string().starts_with("2 panes of tmux session \"beacon\" are marked as seat \"rev\""), "{e}");

    let stopped = mux::tmux::Tmux::with_socket(w.path().join("nothing.sock").to_str().unwrap());
    let e = stopped.locate("beacon", "rev").unwrap_err();
    assert!(matches!(e, MuxError::ServerStopped(_)), "{e:?}");
    assert!(e.to_string().ends_with("nothing.sock is not running"), "{e}");

    let missing = mux::tmux::Tmux::new("/nonexistent/tmux", w.socket_str());
    let e = missing.locate("beacon", "rev").unwrap_err();
    assert_eq!(e, MuxError::ProgramMissing("tmux is not installed: no `/nonexistent/tmux`".into()));
}

#[test]
fn codex_takes_the_line_and_shows_the_drop_read() {
    let w = TmuxWorld::start("t1", &[SeatSpec::new("rev", "codex", "takes-line").delay(700)]);
    let m = adapter(&w);
    let p = m.locate("t1", "rev").unwrap();
    let c = m.read(&p).unwrap();
    assert_eq!((c.cols, c.rows), (120, 40));
    assert_eq!(c.title, "cproj2");
    assert_eq!(c.styled.len(), 40);
    assert_eq!(composer_codex(&c).as_deref(), Some("Ask Codex to do anything"));
    // the placeholder is faint
    let row = c.styled.iter().find(|r| mux::strip_ansi(r).starts_with("› Ask Codex")).unwrap();
    assert!(has_faint(row), "{row:?}");
    assert_eq!(m.status(&p).unwrap(), None);

    let trigger = "Read .agents/send-drops/t1/rev/0193c2d4e5 and follow it.";
    m.type_text(&p, trigger).unwrap();
    let c = read_until(&m, &p, |c| composer_codex(c).as_deref() == Some(trigger));
    assert_eq!(composer_codex(&c).as_deref(), Some(trigger));
    // Codex needs a pause between the text and Enter (paste-burst detection)
    std::thread::sleep(Duration::from_millis(80));
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| has(c, "• Working ("));
    assert!(has(&c, "• Working ("), "{:#?}", c.plain);
    assert!(c.title.starts_with(|ch: char| ('\u{2800}'..='\u{28ff}').contains(&ch)), "title {:?}", c.title);
    assert_eq!(composer_codex(&c).as_deref(), Some("Ask Codex to do anything"));
    let c = read_until(&m, &p, |c| has(c, "└ Read 0193c2d4e5"));
    assert!(has(&c, "• Explored"), "{:#?}", c.plain);
    assert!(has(&c, "└ Read 0193c2d4e5"), "{:#?}", c.plain);
    assert!(!has(&c, "• Working ("));
    assert!(!c.title.starts_with(|ch: char| ('\u{2800}'..='\u{28ff}').contains(&ch)), "title {:?}", c.title);
    assert_eq!(w.log("rev"), format!("{trigger}\r").into_bytes());
    // recent rows end with the screen's rows
    assert!(c.recent.iter().any(|r| r.contains("└ Read 0193c2d4e5")));
}

#[test]
fn typed_text_arrives_byte_for_byte_whatever_tmux_would_parse() {
    let w = TmuxWorld::start("t13", &[SeatSpec::new("lead", "claude-code", "clears-without-working")]);
    let m = adapter(&w);
    let p = m.locate("t13", "lead").unwrap();
    let texts = ["hello;", ";", "x\\;", "a ; b", "-n", "--", "#{pane_id}", "Enter", "C-c", "é → ❯ ✓", "$HOME `id`"];
    let mut want = Vec::new();
    for t in texts {
        m.type_text(&p, t).unwrap();
        want.extend_from_slice(t.as_bytes());
        assert!(
            w.wait_until(SECS5, || w.log("lead") == want),
            "{t:?}: got {:?}",
            String::from_utf8_lossy(&w.log("lead"))
        );
    }
    m.press_enter(&p).unwrap();
    want.push(b'\r');
    assert!(w.wait_until(SECS5, || w.log("lead") == want));
}

#[test]
fn plain_rows_match_tmux_plain_capture() {
    let w = TmuxWorld::start("t2", &[SeatSpec::new("lead", "claude-code", "takes-line")]);
    let m = adapter(&w);
    let p = m.locate("t2", "lead").unwrap();
    let c = m.read(&p).unwrap();
    let plain = w.capture_plain(&p.id);
    let want: Vec<&str> = plain.strip_suffix('\n').unwrap().split('\n').collect();
    assert_eq!(c.plain, want);
    assert_eq!(c.title, "✳ Claude Code");
    assert_eq!(composer_claude(&c).as_deref(), Some(""));
}

#[test]
fn codex_enter_in_the_same_burst_is_a_newline() {
    let w = TmuxWorld::start("t3", &[SeatSpec::new("rev", "codex", "takes-line")]);
    let m = adapter(&w);
    let p = m.locate("t3", "rev").unwrap();
    // one send-keys call: text and Enter arrive together
    let out = w.tmux(&["send-keys", "-t", &p.id, "-l", "--", "think hard\r"]);
    assert!(out.status.success());
    let c = read_until(&m, &p, |c| has(c, "› think hard"));
    assert!(has(&c, "› think hard"));
    // the Enter reached the seat and its answer is drawn: a newline, no turn
    let screen = w.acted_on("rev", b"think hard\r");
    assert!(!screen.contains("• Working ("), "{screen}");
    assert!(screen.contains("› think hard"), "{screen}");
}

#[test]
fn claude_takes_the_line_and_writes_the_transcript() {
    // a folder whose name holds the characters Claude Code spells as `-` besides `/` (the
    // measured `/tmp/w1/c_proj.x` → `-tmp-w1-c-proj-x`): the double spells it by its own rule
    // (host/fake-seat/src/vendor.rs), so a `team` that spells it otherwise fails here
    let mut w = TmuxWorld::start("t4", &[]);
    let cwd = w.path().join("proj/c_proj.x y");
    let seat = w.add_seat(SeatSpec::new("lead", "claude-code", "takes-line").delay(500).transcript().cwd(&cwd));
    let drops = seat.cwd.join(".agents/send-drops/t4/lead");
    std::fs::create_dir_all(&drops).unwrap();
    std::fs::write(drops.join("7f3e9a"), "from the owner — admitted by: the owner\n\nhello\n").unwrap();
    let m = adapter(&w);
    let p = m.locate("t4", "lead").unwrap();
    let trigger = "Read .agents/send-drops/t4/lead/7f3e9a and follow it.";
    m.type_text(&p, trigger).unwrap();
    let c = read_until(&m, &p, |c| composer_claude(c).as_deref() == Some(trigger));
    assert_eq!(composer_claude(&c).as_deref(), Some(trigger));
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| has(c, "Philosophising…"));
    assert!(has(&c, "esc to interrupt"), "{:#?}", c.plain);
    assert!(c.title.starts_with('⠂') || c.title.starts_with('⠐'), "{:?}", c.title);
    assert!(has(&c, &format!("❯ {trigger}")));
    let c = read_until(&m, &p, |c| has(c, "Read 1 file"));
    assert!(has(&c, "Read 1 file (ctrl+o to expand)"));
    assert_eq!(c.title, "✳ Claude Code");
    assert_eq!(w.log("lead"), format!("{trigger}\r").into_bytes());
    // the transcript: where Claude Code writes it, the read keyed on toolUseResult.file.filePath
    let proj = seat.home.join(".claude/projects").join(team::legs::typed::cwd_dashed(&seat.cwd));
    let files: Vec<_> = std::fs::read_dir(&proj).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).unwrap();
    let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["type"], "user");
    assert_eq!(rows[0]["message"]["content"], trigger);
    let read = rows.iter().find(|r| r.pointer("/toolUseResult/file/filePath").is_some()).expect("read row");
    assert_eq!(read["toolUseResult"]["file"]["filePath"], drops.join("7f3e9a").to_str().unwrap());
    assert!(read["toolUseResult"]["file"]["content"].as_str().unwrap().contains("hello"));
}

#[test]
fn ignores_the_first_enter() {
    let w = TmuxWorld::start("t5", &[SeatSpec::new("rev", "claude-code", "ignores-first-enter").delay(300)]);
    let m = adapter(&w);
    let p = m.locate("t5", "rev").unwrap();
    m.type_text(&p, "Read a/b/c1 now").unwrap();
    read_until(&m, &p, |c| composer_claude(c).as_deref() == Some("Read a/b/c1 now"));
    m.press_enter(&p).unwrap();
    w.acted_on("rev", b"Read a/b/c1 now\r");
    let c = m.read(&p).unwrap();
    assert_eq!(composer_claude(&c).as_deref(), Some("Read a/b/c1 now"), "{:#?}", c.plain);
    assert!(!has(&c, "Philosophising"));
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| has(c, "Philosophising"));
    assert!(has(&c, "Philosophising"));
    assert_eq!(composer_claude(&c).as_deref(), Some(""));
    assert_eq!(w.log("rev"), b"Read a/b/c1 now\r\r");
}

#[test]
fn clears_without_working() {
    let w = TmuxWorld::start("t6", &[SeatSpec::new("rev", "codex", "clears-without-working")]);
    let m = adapter(&w);
    let p = m.locate("t6", "rev").unwrap();
    m.type_text(&p, "Read a/b/d2 now").unwrap();
    read_until(&m, &p, |c| composer_codex(c).as_deref() == Some("Read a/b/d2 now"));
    std::thread::sleep(Duration::from_millis(80));
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| composer_codex(c).as_deref() == Some("Ask Codex to do anything"));
    assert_eq!(composer_codex(&c).as_deref(), Some("Ask Codex to do anything"));
    // the frame drawn once the Enter was acted on (a turn would start at that Enter)
    w.acted_on("rev", b"Read a/b/d2 now\r");
    let c = m.read(&p).unwrap();
    assert!(!has(&c, "Working"), "{:#?}", c.plain);
    assert!(!has(&c, "Read d2"));
    assert!(!c.title.starts_with(|ch: char| ('\u{2800}'..='\u{28ff}').contains(&ch)));
    assert_eq!(w.log("rev"), b"Read a/b/d2 now\r");
}

#[test]
fn dialogs_of_every_kind_are_drawn_and_keys_change_nothing() {
    let kinds = [
        ("claude-code", "permission", "Do you want to proceed?"),
        ("claude-code", "question", "Enter to select"),
        ("claude-code", "trust", "Yes, I trust this folder"),
        ("claude-code", "vendor-notice", "Do you want to use this API key?"),
        ("claude-code", "provider-error", "API Error: 500"),
        ("claude-code", "rate-limit", "What do you want to do?"),
        ("claude-code", "held-message", "Held message from another session"),
        ("codex", "permission", "Would you like to run the following command?"),
        ("codex", "question", "Question 1/1"),
        ("codex", "trust", "Trust this folder?"),
        ("codex", "vendor-notice", "Choose how you want to use Codex."),
        ("codex", "provider-error", "high demand"),
        ("codex", "rate-limit", "Approaching rate limits"),
    ];
    let specs: Vec<SeatSpec> = kinds
        .iter()
        .enumerate()
        .map(|(i, (cli, k, _))| SeatSpec::new(&format!("s{i}"), cli, &format!("dialog:{k}")))
        .collect();
    let w = TmuxWorld::start("t7", &specs);
    let m = adapter(&w);
    for (i, (cli, kind, text)) in kinds.iter().enumerate() {
        let name = format!("s{i}");
        let p = m.locate("t7", &name).unwrap();
        let c = read_until(&m, &p, |c| has(c, text));
        assert!(has(&c, text), "{cli} {kind}: {:#?}", c.plain);
        let before = c.plain.clone();
        m.type_text(&p, "x").unwrap();
        m.press_enter(&p).unwrap();
        // the keys reached the dialog and its answer to them is drawn: none
        w.acted_on(&name, b"x\r");
        assert_eq!(m.read(&p).unwrap().plain, before, "{cli} {kind} changed");
    }
}

#[test]
fn draft_placeholder_and_already_working_start_as_said() {
    let w = TmuxWorld::start(
        "t8",
        &[
            SeatSpec::new("draft", "claude-code", "draft"),
            SeatSpec::new("ph", "claude-code", "placeholder"),
            SeatSpec::new("busy", "claude-code", "already-working").delay(400),
            SeatSpec::new("cbusy", "codex", "already-working").delay(400),
        ],
    );
    let m = adapter(&w);
    let draft = m.locate("t8", "draft").unwrap();
    let c = m.read(&draft).unwrap();
    assert_eq!(composer_claude(&c).as_deref(), Some("please summarize the README in two lines"));
    assert!(!has(&c, "? for shortcuts"), "the footer's left part goes while text is in the box");

    let ph = m.locate("t8", "ph").unwrap();
    let c = m.read(&ph).unwrap();
    assert_eq!(composer_claude(&c).as_deref(), Some("Try \"how do I log an error?\""));
    let row = c.styled.iter().find(|r| mux::strip_ansi(r).starts_with("❯\u{a0}Try")).unwrap();
    assert!(has_faint(row) && row.contains("\x1b[7mT"), "{row:?}");
    m.type_text(&ph, "hi").unwrap();
    let c = read_until(&m, &ph, |c| composer_claude(c).as_deref() == Some("hi"));
    assert_eq!(composer_claude(&c).as_deref(), Some("hi"));

    let busy = m.locate("t8", "busy").unwrap();
    let c = m.read(&busy).unwrap();
    assert!(has(&c, "esc to interrupt") && has(&c, "Philosophising"), "{:#?}", c.plain);
    assert!(c.title.starts_with('⠂') || c.title.starts_with('⠐'));
    // a second into its turn, past its 400 ms delay, it still works: until a line comes
    let c = read_until(&m, &busy, |c| has(c, "Philosophising… (1s"));
    assert!(has(&c, "Philosophising… (1s"), "{:#?}", c.plain);
    assert!(has(&c, "esc to interrupt"), "still working until a line comes");
    m.type_text(&busy, "Read q/r/s3 please").unwrap();
    m.press_enter(&busy).unwrap();
    let c = read_until(&m, &busy, |c| has(c, "Press up to edit queued messages"));
    // Drawn as 2.1.295 draws a queued line: the line, the marker under it, then the spinner.
    let at = c.plain.iter().position(|r| r == "❯ Read q/r/s3 please").unwrap_or_else(|| panic!("{:#?}", c.plain));
    assert_eq!(c.plain[at + 1], "  ctrl+x ctrl+s to send now", "{:#?}", c.plain);
    let spinner = c.plain.iter().position(|r| r.contains("Philosophising…")).unwrap();
    assert!(spinner > at + 1, "the queued line sits above the spinner row: {:#?}", c.plain);
    let c = read_until(&m, &busy, |c| has(c, "Read 1 file"));
    assert!(has(&c, "Read 1 file"));
    assert!(has(&c, "❯ Read q/r/s3 please"), "the queued line is echoed when taken: {:#?}", c.plain);
    assert_eq!(c.title, "✳ Claude Code");

    let cbusy = m.locate("t8", "cbusy").unwrap();
    let c = m.read(&cbusy).unwrap();
    assert!(has(&c, "• Working ("));
    m.type_text(&cbusy, "Read q/r/s4 please").unwrap();
    std::thread::sleep(Duration::from_millis(80));
    m.press_enter(&cbusy).unwrap();
    let c = read_until(&m, &cbusy, |c| has(c, "└ Read s4"));
    assert!(has(&c, "└ Read s4"), "{:#?}", c.plain);
    assert_eq!(w.log("cbusy"), b"Read q/r/s4 please\r");
}

#[test]
fn exited_seat_shows_a_shell_and_runs_nothing() {
    let w = TmuxWorld::start("t9", &[SeatSpec::new("gone", "claude-code", "exited")]);
    let m = adapter(&w);
    let p = m.locate("t9", "gone").unwrap();
    let c = m.read(&p).unwrap();
    assert!(has(&c, "Resume this session with:"));
    assert_eq!(c.plain.iter().rev().find(|r| !r.is_empty()).unwrap(), "seat@team:~/project$");
    m.type_text(&p, "touch pwned").unwrap();
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| has(c, "bash: touch: command not found"));
    assert!(has(&c, "seat@team:~/project$ touch pwned"));
    assert!(!w.seat("gone").cwd.join("pwned").exists());
    assert_eq!(w.log("gone"), b"touch pwned\r");
}

#[test]
fn narrow_cursor_wraps_its_working_hint_and_takes_the_line() {
    let w = TmuxWorld::start("t10", &[SeatSpec::new("cur", "cursor", "narrow-cursor").size(24, 20).delay(800)]);
    let m = adapter(&w);
    let p = m.locate("t10", "cur").unwrap();
    let c = m.read(&p).unwrap();
    assert_eq!((c.cols, c.rows), (24, 20));
    m.type_text(&p, "Read x/y/z5").unwrap();
    read_until(&m, &p, |c| has(c, "→ Read x/y/z5"));
    m.press_enter(&p).unwrap();
    let c = read_until(&m, &p, |c| has(c, "⬢ Reading…"));
    assert!(has(&c, "⬢ Reading…"), "{:#?}", c.plain);
    assert!(!has(&c, "ctrl+c to stop"), "the hint wraps: {:#?}", c.plain);
    let at = c.plain.iter().position(|r| r == "  ctrl+c to").unwrap_or_else(|| panic!("{:#?}", c.plain));
    assert_eq!(c.plain[at + 1], "  stop");
    assert!(has(&c, "│ → Plan, search,"), "the box is empty again: {:#?}", c.plain);
    let c = read_until(&m, &p, |c| has(c, "⬢ Read z5"));
    assert!(has(&c, "⬢ Read z5"));
    assert!(!has(&c, "ctrl+c to"));
    assert_eq!(w.log("cur"), b"Read x/y/z5\r");
}

/// The cause of a flake the narrow-cursor send once showed under load (`unreachable (the pane
/// could not be read as cursor …)`): a window resized after its seat drew shows that seat's
/// old frame cut and reflowed by tmux until the seat redraws — no input box at all. The world
/// waits for a whole frame drawn at the pane's size; this shows it tells the two apart.
#[test]
fn a_resized_pane_counts_as_drawn_only_once_the_seat_redrew_it() {
    use nix::sys::signal::{kill, Signal};
    let mut w = TmuxWorld::start("t15", &[]);
    let seat = w.add_seat(SeatSpec::new("cur", "cursor", "narrow-cursor"));
    assert!(w.shows_whole_frame(&seat));
    let out = w.tmux(&["display-message", "-p", "-t", &seat.pane, "#{pane_pid}"]);
    let sh = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let kids = std::fs::read_to_string(format!("/proc/{sh}/task/{sh}/children")).unwrap();
    let fake = nix::unistd::Pid::from_raw(kids.split_whitespace().next().unwrap().parse().unwrap());
    kill(fake, Signal::SIGSTOP).unwrap();
    let out = w.tmux(&["resize-window", "-t", &seat.pane, "-x", "30", "-y", "24"]);
    assert!(out.status.success());
    let stale = w.capture_plain(&seat.pane);
    let not_yet = !w.shows_whole_frame(&seat);
    kill(fake, Signal::SIGCONT).unwrap();
    assert!(not_yet, "a frame drawn at 120 columns passed for one at 30:\n{stale}");
    assert!(!stale.lines().any(|r| r.starts_with("│ →")), "the reflowed frame has no input box:\n{stale}");
    assert!(w.wait_until(Duration::from_secs(20), || w.shows_whole_frame(&seat)), "{}", w.capture_plain(&seat.pane));
    let now = w.capture_plain(&seat.pane);
    assert!(now.lines().any(|r| r == "│ → Plan, search, build anyt │"), "{now}");
}

#[test]
fn foreground_processes_are_the_fake_with_its_cwd_and_home() {
    let w = TmuxWorld::start("t11", &[SeatSpec::new("rev", "codex", "takes-line")]);
    let m = adapter(&w);
    let p = m.locate("t11", "rev").unwrap();
    let procs = m.foreground_processes(&p).unwrap();
    let seat = w.seat("rev");
    // the fake runs under its CLI's process name, as the real one does (host/fake-seat/src/native.rs)
    let fake = procs.iter().find(|pr| pr.name == "codex").unwrap_or_else(|| panic!("{procs:#?}"));
    assert_eq!(fake.cwd.as_deref(), Some(seat.cwd.canonicalize().unwrap().as_path()));
    assert_eq!(fake.home.as_deref(), Some(seat.home.as_path()));
    // herdr would watch it as codex: HERDR_AGENT is in the environment herdr reads
    let environ = std::fs::read(format!("/proc/{}/environ", fake.pid)).unwrap();
    assert!(environ.split(|b| *b == 0).any(|kv| kv == b"HERDR_AGENT=codex"));
}

/// Runs the `caller_probe` below with `envs`, writing its answer to `out`.
fn probe(w: &TmuxWorld, envs: &[(&str, &str)], out: &std::path::Path) -> String {
    let mut c = std::process::Command::new(std::env::current_exe().unwrap());
    c.args(["--exact", "fake_seat_tmux::caller_probe", "--ignored", "--nocapture"])
        .env("TEAM_TMUX_SOCKET", w.socket_str())
        .env_remove("TMUX_PANE")
        .env("PROBE_OUT", out);
    for (k, v) in envs {
        c.env(k, v);
    }
    let run = c.output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn the_caller_s_pane_is_the_session_s_pane_whose_shell_it_descends_from() {
    let w = TmuxWorld::start("t12", &[SeatSpec::new("rev", "codex", "takes-line")]);
    let pane = w.seat("rev").pane.clone();
    // This test process runs outside the pane: naming it is a claim, refused.
    let outside = probe(&w, &[("TMUX_PANE", &pane)], &w.path().join("outside.txt"));
    assert!(outside.starts_with("Unverified: TMUX_PANE names pane"), "{outside}");
    assert!(outside.contains("does not descend from that pane's shell"), "{outside}");

    // The same probe run inside a pane marked as seat `probe` — with no terminal at all, as an
    // agent's shell tool runs it, and with no TMUX_PANE: the process tree finds the pane.
    let inside = w.path().join("inside.txt");
    let cmd = format!(
        "tmux -S '{sock}' wait-for go-probe; env -u TMUX_PANE TEAM_TMUX_SOCKET='{sock}' PROBE_OUT='{out}' setsid -w '{exe}' --exact fake_seat_tmux::caller_probe --ignored --nocapture </dev/null >/dev/null 2>&1; exec sh",
        sock = w.socket_str(),
        out = inside.display(),
        exe = std::env::current_exe().unwrap().display()
    );
    let out = w.tmux(&["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=t12:", "-n", "probe", &cmd]);
    assert!(out.status.success());
    let probe_pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    w.tmux(&["set", "-p", "-t", &probe_pane, "@team-seat", "probe"]);
    w.tmux(&["wait-for", "-S", "go-probe"]);
    assert!(w.wait_until(Duration::from_secs(20), || inside.exists()
        && std::fs::read_to_string(&inside).unwrap().ends_with('\n')));
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), format!("Some: {probe_pane} t12 probe\n"));

    // No TMUX_PANE, outside every pane: no pane of the session holds this process.
    assert_eq!(probe(&w, &[], &w.path().join("none.txt")), "None\n");
    // A session the server does not have: not the team's either.
    assert_eq!(probe(&w, &[("TMUX_PANE", &pane), ("PROBE_SESSION", "other")], &w.path().join("other.txt")), "None\n");

    // In another pid namespace (as bubblewrap runs an agent's commands) the pane's shell is
    // hidden: a sandbox in the way, never a claim.
    let hidden = w.path().join("hidden.txt");
    let run = std::process::Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc"])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "fake_seat_tmux::caller_probe", "--ignored", "--nocapture"])
        .env("TEAM_TMUX_SOCKET", w.socket_str())
        .env("TMUX_PANE", &pane)
        .env("PROBE_OUT", &hidden)
        .output()
        .unwrap();
    assert!(run.status.success(), "unshare (tests run as root, as CI does): {}", String::from_utf8_lossy(&run.stderr));
    let got = std::fs::read_to_string(&hidden).unwrap();
    assert!(
        got.starts_with(&format!("Sandboxed: TMUX_PANE names pane {pane} of session \"t12\", but its shell (pid ")),
        "{got}"
    );
    assert!(got.contains("is hidden from this process: it runs in another pid namespace"), "{got}");
}

/// Run by the test above (in and outside a pane): writes what `pane_of_caller` answered for
/// session `t12` (or `$PROBE_SESSION`).
#[test]
#[ignore]
fn caller_probe() {
    let Some(out) = std::env::var_os("PROBE_OUT") else { return };
    let m = mux::tmux::Tmux::from_hints(&mux::Hints::read(|k| std::env::var_os(k)));
    let session = std::env::var("PROBE_SESSION").unwrap_or_else(|_| "t12".into());
    let pids: Vec<u32> = mux::procfs::ancestry().iter().map(|a| a.pid).collect();
    let line = match m.pane_of_caller(&session, &pids).map(|l| l.pane) {
        Ok(Some(p)) => format!("Some: {} {} {}\n", p.id, p.session, p.seat),
        Ok(None) => "None\n".to_string(),
        Err(MuxError::Unverified(s)) => format!("Unverified: {s}\n"),
        Err(MuxError::Sandboxed(s)) => format!("Sandboxed: {s}\n"),
        Err(e) => format!("Err: {e:?}\n"),
    };
    std::fs::write(out, line).unwrap();
}
