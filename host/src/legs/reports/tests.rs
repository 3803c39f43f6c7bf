use super::*;

/// Codex 0.171.0's report, as measured (/work/shared/docs/agent-status-reports.md).
fn codex(state: &str) -> Vec<u8> {
    format!("\x1b]7501;state={state}:app=codex\x1b\\").into_bytes()
}

fn scan(pieces: &[&[u8]]) -> Vec<String> {
    let mut s = Scanner::default();
    let mut out = Vec::new();
    for p in pieces {
        s.feed(p, &mut |p| out.push(p.to_string()));
    }
    out
}

#[test]
fn the_scanner_finds_a_report_wherever_the_pieces_cut_it() {
    let mut stream = b"\x1b[2J\x1b[1;1Hhello ".to_vec();
    stream.extend(codex("working"));
    stream.extend(b"\x1b]0;title\x07 more \x1b]7501;state=idle:app=codex\x07");
    stream.extend(codex("blocked"));
    let want = ["state=working:app=codex", "state=idle:app=codex", "state=blocked:app=codex"];
    assert_eq!(scan(&[&stream]), want);
    for cut in 1..stream.len() {
        let (a, b) = stream.split_at(cut);
        assert_eq!(scan(&[a, b]), want, "cut at {cut}");
    }
}

#[test]
fn a_cut_or_overlong_sequence_is_dropped_and_the_next_one_read() {
    let mut stream = b"\x1b]7501;state=work".to_vec();
    stream.extend(codex("idle"));
    assert_eq!(scan(&[&stream]), ["state=idle:app=codex"]);
    let mut long = b"\x1b]7501;state=idle:msg=".to_vec();
    long.extend(vec![b'A'; MAX_PAYLOAD + 10]);
    long.extend(b"\x1b\\");
    long.extend(codex("working"));
    assert_eq!(scan(&[&long]), ["state=working:app=codex"]);
    // the other OSCs a CLI writes are not reports
    assert!(scan(&[b"\x1b]7502;state=idle\x07\x1b]750;state=idle\x07"]).is_empty());
}

#[test]
fn a_payload_says_its_state_and_app_and_the_handshake_says_nothing() {
    assert_eq!(payload("state=blocked:app=codex"), Some(("blocked".into(), "codex".into())));
    assert_eq!(payload("app=claude:state=blocked:kind=permission"), Some(("blocked".into(), "claude".into())));
    assert_eq!(payload("?"), None);
    assert_eq!(payload("app=codex"), None);
    // a word with a space or a newline would break the file's lines: not a state
    assert_eq!(payload("state=idle\n1 blocked"), None);
    assert_eq!(payload("state=a b"), None);
}

fn filtered(stream: &[u8], path: &Path) -> Vec<Report> {
    pipe(path, &mut &stream[..]).unwrap();
    // the filter has ended: its pid is this test's own, which runs; read as it wrote
    read(path)
}

#[test]
fn the_filter_keeps_the_last_reports_numbered_on_and_a_dead_filter_says_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FOLDER).join("tmux-0000-1");
    let mut stream = Vec::new();
    for i in 0..(KEEP + 3) {
        stream.extend(codex(if i % 2 == 0 { "working" } else { "idle" }));
    }
    let got = filtered(&stream, &path);
    assert_eq!(got.len(), KEEP);
    assert_eq!(got.first().unwrap().seq, 4);
    assert_eq!(got.last().unwrap(), &Report { seq: KEEP as u64 + 3, state: "working".into(), app: "codex".into() });
    // a second filter on the same file numbers on from the last report
    let again = filtered(&codex("blocked"), &path);
    assert_eq!(again.last().unwrap().seq, KEEP as u64 + 4);
    // a file whose filter is gone is no report
    let text = std::fs::read_to_string(&path).unwrap();
    let dead = text.replacen(&format!("pid={}", std::process::id()), "pid=4294967294", 1);
    std::fs::write(&path, dead).unwrap();
    assert!(read(&path).is_empty());
}

#[test]
fn a_look_says_a_working_it_would_have_missed_between_two_looks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let write = |reports: &[(u64, &str)]| {
        let rs: Vec<Report> =
            reports.iter().map(|(n, s)| Report { seq: *n, state: s.to_string(), app: "codex".into() }).collect();
        std::fs::write(&path, render(std::process::id(), &rs)).unwrap();
    };
    let mut w = Witness::new(path.clone());
    assert_eq!(w.look(), None);
    write(&[(1, "idle")]);
    assert_eq!(w.look(), Some((Status::Idle, 1)));
    // a short turn began and ended between two looks
    write(&[(1, "idle"), (2, "working"), (3, "idle")]);
    assert_eq!(w.look(), Some((Status::Working, 2)));
    assert_eq!(w.look(), Some((Status::Idle, 3)));
    // blocked now outranks a working that came before it
    write(&[(1, "idle"), (2, "working"), (3, "idle"), (4, "working"), (5, "blocked")]);
    assert_eq!(w.look(), Some((Status::Blocked, 5)));
}

#[test]
fn the_pipe_command_quotes_its_paths() {
    let c = pipe_command(Path::new("/opt/it's/team"), Path::new("/s/status-reports/tmux-ab-3"));
    assert_eq!(c, "exec '/opt/it'\\''s/team' status-pipe '/s/status-reports/tmux-ab-3'");
}
