//! The sign that a seat acted on a delivered line, per bundled vendor, read by `team watch` from
//! the real captures: each capture of `tests/data/screens/` drawn in a real tmux pane (its
//! `.ansi` printed at the capture's size), the vendor's real profile component reading it, and
//! the captured session transcripts of `tests/data/transcripts/` where the vendor writes one.
//!
//! | vendor | evidence the watch uses | tested on |
//! | --- | --- | --- |
//! | Claude Code | its session transcript (`~/.claude/projects/<cwd-dashed>/*.jsonl`: a Read result naming the drop); its screen's `Read 1 file` names no file | claude-code-2.1.197 `idle-after-file-read` + `read-drop-file.jsonl` |
//! | Codex | the screen (`└ Read <id>` under `• Explored`) and its session files (`~/.codex/sessions/…/rollout-*.jsonl`: a completed read `parsed_cmd` naming the drop) | codex-0.171.0 `idle-after-file-read`; `idle-empty-welcome` + `read-drop-file.jsonl` |
//! | grok-cli | the screen (`Contents of <path>`); it writes no session history | grok-cli-0.0.34 `idle-after-file-read` |
//! | cursor, agy, grok (Grok Build) | a screen row naming the drop outside a dialog (documented phrases only: no capture shows one), and the status: seen free after the send, later working (`ctrl+c to stop`, `esc to cancel`, the spinner row) | `*-synthetic` idle then working |
//!
//! These run the library's `Watch` in this process (two passes must share what the first saw);
//! `watch_tmux.rs` runs the binary against fake seats end to end.

use crate::common::tmux::TmuxWorld;
use crate::common::World;

use std::path::{Path, PathBuf};
use team::history::{self, MessageLine, Sign};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

struct Capture {
    w: World,
    tw: TmuxWorld,
    seat: String,
    pane: String,
    home: PathBuf,
    cwd: PathBuf,
    ctx: team::ctx::Ctx,
}

fn world(seat: &str, cli: &str) -> Capture {
    let tw = TmuxWorld::start("beacon", &[]);
    let w = World::empty();
    w.team_file(&format!(
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: {seat}\n    role: worker\n    cli: {cli}\n"
    ));
    let home = w.base().join("seat-home");
    let cwd = w.base().join("seat-cwd");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let home_env = format!("HOME={}", home.display());
    let opts = ["-n", seat, "-c", cwd.to_str().unwrap(), "-e", &home_env];
    let pane = crate::common::tmux::new_pane(|a| tw.tmux(a), "=beacon:", &opts, "sleep 600");
    assert!(tw.tmux(&["set", "-p", "-t", &pane, "@team-seat", seat]).status.success());
    let t = chrono::DateTime::parse_from_rfc3339(crate::common::NOW).unwrap().with_timezone(&chrono::Utc);
    let ctx = team::ctx::Ctx {
        cwd: Ok(std::path::PathBuf::from("/")),
        home: None,
        paths: team::paths::Paths { config: w.config.clone(), state: w.state.clone(), cache: w.cache.clone() },
        clock: team::clock::Clock::fixed(t).with_scale(0.05),
        ids: team::clock::Ids::random(),
        mux: team::mux::Hints::default(),
    };
    Capture { w, tw, seat: seat.into(), pane, home, cwd, ctx }
}

impl Capture {
    /// Draws `<dir>/<state>.ansi` in the seat's pane at the capture's own size.
    fn draw(&self, dir: &str, state: &str) {
        let base = data().join("screens").join(dir);
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(base.join(format!("{state}.meta.json"))).unwrap()).unwrap();
        let (cols, rows) = (meta["cols"].to_string(), meta["rows"].to_string());
        assert!(self.tw.tmux(&["resize-window", "-t", &self.pane, "-x", &cols, "-y", &rows]).status.success());
        let script = self.w.base().join(format!("draw-{state}.sh"));
        std::fs::write(
            &script,
            format!(
                "printf '\\033[H\\033[2J'; printf '%s' \"$(cat '{}')\"; exec sleep 600\n",
                base.join(format!("{state}.ansi")).display()
            ),
        )
        .unwrap();
        let cmd = format!("sh '{}'", script.display());
        // (the seat's own folder and HOME again: a respawned pane does not keep them)
        let home_env = format!("HOME={}", self.home.display());
        let cwd = self.cwd.to_str().unwrap();
        let args = ["respawn-pane", "-k", "-t", &self.pane, "-c", cwd, "-e", &home_env, &cmd];
        assert!(self.tw.tmux(&args).status.success());
        let want: Vec<String> = std::fs::read_to_string(base.join(format!("{state}.txt")))
            .unwrap()
            .lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        let shown = self.tw.wait_until(crate::common::BOUND, || {
            let got = self.tw.capture_plain(&self.pane);
            want.iter().all(|row| got.contains(row.as_str()))
        });
        assert!(shown, "{dir}/{state} never showed whole:\n{}", self.tw.capture_plain(&self.pane));
    }

    /// The history line of a delivered send the seat took and did not yet show acting on.
    fn taken(&self, id: &str, cli: &str) {
        let line = MessageLine {
            ts: crate::common::NOW.into(),
            from: "owner".into(),
            to: self.seat.clone(),
            body: "from the owner — admitted by: the owner\n\nhello".into(),
            id: id.into(),
            outcome: "delivered".into(),
            ms: Some(20_031),
            via: Some("typed".into()),
            note: Some("taken, not yet confirmed".into()),
            cli: Some(cli.into()),
            profile: Some("0.1.0".into()),
            ..MessageLine::default()
        };
        history::append_message(&self.w.config, "beacon", &self.w.repo, &line).unwrap();
    }

    fn watch<'a>(&'a self, host: &'a team::profiles::ProfileHost) -> team::watch::Watch<'a> {
        let team = team::team_file::find(&self.w.repo).unwrap().unwrap();
        let mux = Box::new(team::mux::tmux::Tmux::with_socket(self.tw.socket_str()));
        team::watch::Watch::with_mux(&self.ctx, host, team, mux)
    }

    fn receipts(&self) -> Vec<history::Receipt> {
        let dir = history::project_dir(&self.w.config, "beacon", &self.w.repo);
        history::read_receipts(&self.w.config, &dir).unwrap().0
    }

    /// Copies a captured transcript to `rel` under the seat's HOME.
    fn transcript(&self, captured: &str, rel: &str) {
        let to = self.home.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(data().join("transcripts").join(captured), to).unwrap();
    }
}

/// One pass confirms `id` by `sign`, and says nothing.
fn confirmed_by(c: &Capture, watch: &mut team::watch::Watch, id: &str, sign: Sign) {
    let pass = watch.pass().unwrap();
    assert!(pass.events.is_empty(), "a confirmation is printed by nobody: {:?}", pass.events);
    assert_eq!(pass.confirmed, 1, "{:?}", c.receipts());
    let r = c.receipts();
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].id.as_str(), r[0].sign, r[0].to.as_str()), (id, Some(sign), c.seat.as_str()));
    assert_eq!(r[0].ms, Some(20_031), "from the send's start (a fixed clock: its span alone)");
    // Confirmed once: a later pass adds nothing.
    assert_eq!(watch.pass().unwrap().confirmed, 0);
}

#[test]
fn claude_code_is_confirmed_by_its_transcript_and_not_by_its_screen() {
    let c = world("claude-keeper", "claude-code");
    c.draw("claude-code-2.1.197", "idle-after-file-read");
    let id = "9d3a6c1e-52f7-4b08-8e41-c7a0b5d2f913";
    c.taken(id, "claude-code");
    let host = team::profiles::ProfileHost::new(&c.ctx.paths);
    let mut watch = c.watch(&host);
    // `Read 1 file` names no file: the screen alone is no sign.
    assert_eq!(watch.pass().unwrap().confirmed, 0);
    let dashed = team::legs::typed::cwd_dashed(&c.cwd);
    c.transcript("claude-code-2.1.197/read-drop-file.jsonl", &format!(".claude/projects/{dashed}/s.jsonl"));
    confirmed_by(&c, &mut watch, id, Sign::Transcript);
}

#[test]
fn codex_is_confirmed_by_its_screen() {
    let c = world("gpt-reviewer", "codex");
    c.draw("codex-0.171.0", "idle-after-file-read");
    let host = team::profiles::ProfileHost::new(&c.ctx.paths);
    // Another send's id is not on that screen.
    c.taken("11111111-2222-4333-8444-555555555555", "codex");
    let mut watch = c.watch(&host);
    assert_eq!(watch.pass().unwrap().confirmed, 0);
    let c2 = world("gpt-reviewer", "codex");
    c2.draw("codex-0.171.0", "idle-after-file-read");
    let id = "7b2e5d10-3c4a-4f86-a1d9-0e6f52c8b3a7";
    c2.taken(id, "codex");
    let host2 = team::profiles::ProfileHost::new(&c2.ctx.paths);
    let mut watch2 = c2.watch(&host2);
    confirmed_by(&c2, &mut watch2, id, Sign::Screen);
}

#[test]
fn codex_is_confirmed_by_its_session_file() {
    let c = world("gpt-reviewer", "codex");
    c.draw("codex-0.171.0", "idle-empty-welcome");
    let id = "2c8f4e91-7a05-4d3b-b6e2-5f19a0c7d846";
    c.taken(id, "codex");
    let host = team::profiles::ProfileHost::new(&c.ctx.paths);
    let mut watch = c.watch(&host);
    assert_eq!(watch.pass().unwrap().confirmed, 0);
    c.transcript(
        "codex-0.171.0/read-drop-file.jsonl",
        ".codex/sessions/2026/11/29/rollout-2026-11-29T19-56-56-x.jsonl",
    );
    confirmed_by(&c, &mut watch, id, Sign::Transcript);
}

#[test]
fn grok_cli_is_confirmed_by_its_screen() {
    let c = world("grok-dev", "grok-cli");
    c.draw("grok-cli-0.0.34", "idle-after-file-read");
    let id = "7c2e1a90-3f4b-4d6e-8a1c-5b9d0e2f4a67";
    c.taken(id, "grok-cli");
    let host = team::profiles::ProfileHost::new(&c.ctx.paths);
    let mut watch = c.watch(&host);
    confirmed_by(&c, &mut watch, id, Sign::Screen);
}

/// cursor, agy and Grok Build: seen free after the send, then working.
#[test]
fn cursor_agy_and_grok_build_are_confirmed_by_their_status() {
    for (cli, dir, idle, working) in [
        ("cursor", "cursor-synthetic", "idle-empty", "working"),
        ("agy", "agy-synthetic", "idle", "working"),
        ("grok", "grok-synthetic", "idle-empty", "working-tool"),
    ] {
        let c = world("seat", cli);
        let id = "5e0c9a1b-0d7e-4f21-9b3a-6c8d2e4f1a70";
        c.taken(id, cli);
        let host = team::profiles::ProfileHost::new(&c.ctx.paths);
        let mut watch = c.watch(&host);
        // Working before the watch saw it free proves nothing (its turn may be another's).
        c.draw(dir, working);
        assert_eq!(watch.pass().unwrap().confirmed, 0, "{cli}");
        c.draw(dir, idle);
        assert_eq!(watch.pass().unwrap().confirmed, 0, "{cli}");
        c.draw(dir, working);
        confirmed_by(&c, &mut watch, id, Sign::Status);
    }
}
