//! A seat on another machine that is a real CLI: the owner on machine A sends over the ssh
//! world's real sshd (`common::ssh::SshWorld`) to the real Claude Code 2.1.332 running on
//! machine B — as B's Unix user, in B's own tmux server, with B's own HOME written as a user
//! signed in once has it (`harness::signed_in_claude`), offline against the mock model server
//! started inside the ssh world's private network namespace (`Mock::start_in`), the only
//! loopback B's processes have.
//!
//! B runs the pinned install of `tests/real/install.sh` (a cache under the test user's home,
//! which B cannot enter): its single native binary is hard-linked (copied across file systems)
//! into the world's folder, root-owned and world-executable, outside B's home (so `give_b`
//! never changes the cache's owner).

use super::harness::{claude_env, claude_folder, cli_bin, one_world, signed_in_claude};
use super::mock::{Mock, BOUND};
use crate::common::ssh::SshWorld;
use crate::common::World;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A and B's team file: `far-claude`, a Claude Code seat on `lab` (B, as A's ssh config names
/// it); `home` is A, as B's ssh config names it (where B's answers go).
const TEAM: &str = "project: beacon
multiplexer: tmux
hosts:
  lab: b
  home: a
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: far-claude
    cli: claude-code
    host: lab
";

const SEAT: &str = "far-claude";

/// What a pane prints once its CLI has exited.
const EXITED: &str = "[the CLI exited with";

/// The real Claude Code running as machine B in B's tmux server; its processes are ended
/// with SIGTERM first (so it removes what it keeps in `/tmp`), before the world kills the rest
/// of B's; B's `/tmp/claude-<uid>` and `/tmp/cc-socks-<uid>` go with it.
struct ClaudeOnB<'a> {
    s: &'a SshWorld,
    pane: String,
    home: PathBuf,
}

impl ClaudeOnB<'_> {
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.s.b_tmux(&["capture-pane", "-p", "-t", &self.pane]).stdout).into_owned()
    }

    fn wait_screen(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let t = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if t.elapsed() > BOUND || s.contains(EXITED) {
                panic!("B's Claude Code never showed {what}; its pane shows:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The rows of Claude's transcripts for `repo` on B (its own naming of the folder).
    fn transcript(&self, repo: &Path) -> String {
        let folder = self.home.join(".claude/projects").join(claude_folder(repo));
        std::fs::read_dir(folder)
            .map(|rd| rd.flatten().map(|e| std::fs::read_to_string(e.path()).unwrap_or_default()).collect())
            .unwrap_or_default()
    }
}

impl Drop for ClaudeOnB<'_> {
    fn drop(&mut self) {
        use nix::sys::signal::{kill, Signal};
        let pids = || -> Vec<i32> {
            let mut v = vec![];
            for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
                let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else { continue };
                let comm = std::fs::read_to_string(e.path().join("comm")).unwrap_or_default();
                let status = std::fs::read_to_string(e.path().join("status")).unwrap_or_default();
                let uid = status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().next());
                if comm.trim() == "claude" && uid == Some(&self.s.b.uid.to_string()) {
                    v.push(pid);
                }
            }
            v
        };
        let t = Instant::now();
        while !pids().is_empty() && t.elapsed() < Duration::from_secs(10) {
            for p in pids() {
                let _ = kill(nix::unistd::Pid::from_raw(p), Signal::SIGTERM);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        for dir in ["claude", "cc-socks"] {
            let _ = std::fs::remove_dir_all(format!("/tmp/{dir}-{}", self.s.b.uid));
        }
    }
}

/// Starts the real Claude Code as B in B's tmux server (session `beacon`, the real tier's
/// terminal: tmux-256color, no status line), in B's checkout `repo`, marked `seat`, in manual
/// permission mode with `team reply` allowed (docs/agents.md); waits for its prompt.
fn claude_on_b<'a>(s: &'a SshWorld, repo: &Path, seat: &str) -> ClaudeOnB<'a> {
    let exe = cli_bin().join("claude").canonicalize().expect("the pinned claude");
    let dir = s.top.join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let claude = dir.join("claude");
    if std::fs::hard_link(&exe, &claude).is_err() {
        std::fs::copy(&exe, &claude).expect("copy the pinned claude where B reaches it");
    }
    let home = s.b.home.clone();
    signed_in_claude(&home, repo);
    let settings = json!({ "permissions": { "allow": [
        "Bash(team send:*)", "Bash(team reply:*)", "Bash(team ack:*)", "Bash(team inbox:*)"
    ] } });
    std::fs::write(home.join(".claude/settings.json"), settings.to_string()).unwrap();
    s.give_b(&home);
    let conf = s.top.join("b-tmux.conf");
    std::fs::write(&conf, "set -g default-terminal tmux-256color\nset -g status off\n").unwrap();
    let conf = conf.display().to_string();
    let out =
        s.b_tmux(&["-f", &conf, "new-session", "-d", "-s", "beacon", "-x", "120", "-y", "40", "-n", "keep", "sh"]);
    assert!(out.status.success(), "B's tmux: {}", String::from_utf8_lossy(&out.stderr));

    let path = format!("{}:{}:/usr/local/bin:/usr/bin:/bin", home.join(".local/bin").display(), dir.display());
    let mut env = vec![
        ("HOME".to_string(), home.display().to_string()),
        ("PATH".into(), path.clone()),
        ("LANG".into(), "C.UTF-8".into()),
        ("COLORTERM".into(), "truecolor".into()),
    ];
    env.extend(claude_env());
    let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let cwd = repo.display().to_string();
    let mut args = vec!["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=beacon:", "-n", seat, "-c", &cwd];
    for v in &vars {
        args.extend(["-e", v.as_str()]);
    }
    // (a window a detached client opens gets that client's PATH, whatever `-e` says)
    let cmd = format!(
        "export PATH={}; claude --permission-mode default; echo \"{EXITED} $?]\"; exec sh",
        crate::common::shell_quote(&path)
    );
    args.push(&cmd);
    let out = s.b_tmux(&args);
    assert!(out.status.success(), "B's Claude window: {}", String::from_utf8_lossy(&out.stderr));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(s.b_tmux(&["set", "-p", "-t", &pane, "@team-seat", seat]).status.success());
    let c = ClaudeOnB { s, pane, home };
    c.wait_screen("Claude Code's prompt", |t| t.contains("? for shortcuts") && t.contains("manual mode"));
    c
}

/// Machine A: the owner's world (registry, `<config>/here` naming it `home`), served to B over
/// the world's sshd (B's answers land in A's team state).
fn machine_a(s: &mut SshWorld) -> World {
    let w = World::empty();
    w.team_file(TEAM);
    w.config_file("teams.yaml", &format!("format: 1\nteams:\n  beacon:\n    root: {}\n", w.repo.display()));
    w.config_file("here", "home\n");
    let env: Vec<(String, String)> = w
        .env()
        .into_iter()
        .filter(|(k, _)| ["TEAM_CONFIG_DIR", "TEAM_STATE_DIR", "TEAM_CACHE_DIR"].contains(&k.as_str()))
        .collect();
    s.serve_a(&env);
    w
}

/// The one line `lines` holds with `id`.
fn line_of(lines: Vec<Value>, id: &str, whose: &str) -> Value {
    let mut v: Vec<Value> = lines.into_iter().filter(|l| l["id"] == id).collect();
    assert_eq!(v.len(), 1, "one line with id {id} in {whose}'s history: {v:#?}");
    v.remove(0)
}

/// The owner on A sends to the real Claude Code on B: `delivered`, with one history line on
/// each machine under the same id, and proven on B as the local tier proves it — B's `team`
/// judged it (its own line: `via: typed`, Claude's screen working after Enter), the model was
/// handed the trigger and then the body, and Claude's transcript on B holds the trigger and its
/// Read of the drop, which the host's transcript reader and the claude-code profile read as that
/// drop read. Then Claude answers with `team reply <id>` through its Bash tool, and B's `team`
/// takes the hop back: the answer lands in A's owner inbox (`team inbox` on A lists it),
/// admitted on A by `reply to <id>` against A's own history. Then a second send, once Claude is
/// idle again, over the control connection the first opened, which Claude answers through the
/// MCP tool `team_reply` (its own `team mcp` on B, installed there by `team mcp install`): the
/// same way back.
///
/// Measured (debug build, 2 cores, load average 6–15 from other builds; the `SSH-REAL-MS`
/// lines on stderr): the owner's first `team send` to `delivered`, over a fresh ssh connection,
/// 2.0–3.5 s in 11 runs (median 2.56 s), of which B's typed leg (its line's `ms`) 1.3–2.6 s — a
/// fresh Claude's first prompt is slow to show working: the local tier's first send to an idle
/// Claude took 3.4–3.7 s in the same hour — and A's side with the handshake 0.5–1.0 s; the
/// second send 0.45–0.99 s in 8 runs (median 0.54 s), of which B's leg 0.33–0.82 s, so the hop
/// over the reused connection 0.11–0.17 s.
#[test]
fn the_owner_on_a_reaches_a_real_claude_code_on_b_and_its_team_reply_comes_back() {
    cli_bin();
    let _one = one_world();
    let mut s = SshWorld::start();
    s.install_team_on_b();
    let b_repo = s.b_team(TEAM);
    mcp_on_b(&s, &b_repo);
    let w = machine_a(&mut s);
    let mock = Mock::start_in(&s.enter()[0], &s.top.join("mock"), &b_repo);
    // Claude's read waits at a gate until the test knows the message's id and has put it in
    // Claude's reply command (the k-th step answers the request after k tool results).
    let answer = "green on lab since 09:00";
    let rule = |id: &str| {
        json!({ "when": format!("send-drops/beacon/{SEAT}/"), "steps": [
            { "read": "@trigger", "hold": "reads" },
            { "bash": format!("team reply {id} '{answer}'"), "description": "Answer the owner" },
            { "text": "Answered." },
        ]})
    };
    mock.script(json!({ "root": b_repo, "rules": [rule("<unknown yet>")] }));
    let claude = claude_on_b(&s, &b_repo, SEAT);

    // The host's own reader of Claude's transcripts, as B's typed leg makes it: the claude-code
    // profile's patterns, expanded for B's home and B's checkout.
    let host = team::profiles::ProfileHost::with_dirs(w.base().join("pconfig"), w.base().join("pcache"));
    let (desc, _) = host.description("claude-code", &Default::default()).unwrap();
    let mut watch = team::legs::typed::transcript::TranscriptWatch::begin(
        &desc.transcript_patterns,
        Some(claude.home.clone()),
        Some(b_repo.clone()),
    );

    let body = "is the gate green on lab?";
    let (id, ms, b_ms) = owner_sends(&s, &w, "7", body);
    eprintln!("SSH-REAL-MS the owner's first send on A to the real Claude Code on B, to delivered: {ms} ms (B's typed leg {b_ms} ms)");
    // B's drop, and the trigger B's team typed into Claude, as Claude's model got it
    let trigger = format!("Please read the team message at .agents/send-drops/beacon/{SEAT}/{id}");
    let asked = mock.wait_for("the trigger as Claude's prompt", |r| {
        r.api == "anthropic" && r.kind == "main" && r.prompt.contains(&trigger)
    });
    assert_eq!(asked.prompt.lines().last(), Some(trigger.as_str()), "{:?}", asked.prompt);
    // Claude's transcript on B holds the trigger it submitted
    let t = Instant::now();
    while !claude.transcript(&b_repo).contains(&trigger) {
        assert!(t.elapsed() < BOUND, "B's transcript lacks the trigger: {}", claude.transcript(&b_repo));
        std::thread::sleep(Duration::from_millis(100));
    }

    // Claude reads the drop: its Read's output holds the body…
    mock.script(json!({ "root": b_repo, "rules": [rule(&id)] }));
    mock.open("reads");
    let read = mock.wait_result("anthropic", &trigger, 1);
    assert!(read.contains(body), "Claude's model was not given the body: {read}");
    // …and B's transcript holds that read: the host's reader finds the rows where Claude's own
    // naming puts them, and the profile reads them as this drop read
    let t = Instant::now();
    let mut seen = Vec::new();
    while !seen.iter().any(|r: &String| r.contains(&id) && r.contains("toolUseResult")) {
        assert!(t.elapsed() < BOUND, "no read of the drop in B's transcripts {:?}", watch.files());
        seen.extend(watch.new_rows().unwrap_or_default());
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut profile = host.load("claude-code", &Default::default()).unwrap();
    assert!(profile.transcript_shows_drop_read(&seen, &id).unwrap(), "{seen:?}");

    // Claude answers with `team reply <id>`: B's team hops back to A, into A's owner inbox
    let out = mock.wait_result("anthropic", &trigger, 2);
    assert!(out.contains("owner: delivered"), "what Claude's Bash tool printed: {out}");
    answered_on_a(&s, &w, &id, body, answer);

    // A second send once Claude is idle again, over the control connection the first opened,
    // answered through the MCP tool `team_reply` of Claude's own `team mcp` on B
    mock.wait_for("Claude's last step of the turn", |r| r.prompt.contains(&trigger) && r.results.len() >= 2);
    claude.wait_screen("Claude idle after its answer", |t| t.contains("Answered.") && !t.contains("esc to interrupt"));
    let answer2 = "the docs on lab are green too";
    mock.script(json!({ "root": b_repo, "rules": [{ "when": format!("send-drops/beacon/{SEAT}/"), "steps": [
        { "read": "@trigger" },
        { "tool": "mcp__team__team_reply", "input": { "id": "@trigger-id", "message": answer2 } },
        { "text": "Answered again." },
    ]}]}));
    let again = "and the docs on lab?";
    let (id2, ms, b_ms) = owner_sends(&s, &w, "8", again);
    eprintln!("SSH-REAL-MS the second send, over the reused connection: {ms} ms (B's typed leg {b_ms} ms)");
    let trigger2 = format!("Please read the team message at .agents/send-drops/beacon/{SEAT}/{id2}");
    assert!(mock.wait_result("anthropic", &trigger2, 1).contains(again), "the second body read on B");
    let out = mock.wait_result("anthropic", &trigger2, 2);
    assert!(out.contains("owner: delivered"), "what Claude's team_reply tool answered: {out}");
    answered_on_a(&s, &w, &id2, again, answer2);
}

/// Runs `team mcp install far-claude` as B in B's checkout (the entry in `.mcp.json`, naming
/// B's `team`, and Claude's approval of it in `.claude/settings.local.json`).
fn mcp_on_b(s: &SshWorld, repo: &Path) {
    let team = s.b.home.join(".local/bin/team");
    let line = format!("cd '{}' && '{}' mcp install {SEAT}", repo.display(), team.display());
    let out = s.b_cmd("sh").args(["-c", &line]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(&format!("{SEAT}: missing → written")), "{said}");
}

/// The owner's `team send <SEAT> <body>` on A (ids seeded from `seed`: each run starts from its
/// seed, and B takes an id once only): `delivered`, one line on each machine under one id,
/// B's by its typed leg, from the owner of `home`, B's drop holding the body. Returns the id,
/// the send's wall time and B's leg's (its line's `ms`).
fn owner_sends(s: &SshWorld, w: &World, seed: &str, body: &str) -> (String, u128, Value) {
    let before = w.history().len();
    let t = Instant::now();
    let r = w.sh(&format!("env TEAM_ID_SEED={seed} {}", s.a_team_line(&format!("send {SEAT} '{body}'"))));
    let ms = t.elapsed().as_millis();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.ends_with(&format!("{SEAT}: delivered\n")), "{r:?}");
    let a = w.history();
    assert_eq!(a.len(), before + 1, "{a:#?}");
    let a = a[before].clone();
    let id = a["id"].as_str().expect("the send's id").to_string();
    assert_eq!((a["outcome"].as_str(), a["via"].as_str()), (Some("delivered"), Some("ssh")), "{a}");
    let b = line_of(s.b_history(), &id, "B");
    assert_eq!(
        (b["from"].as_str(), b["to"].as_str(), b["outcome"].as_str(), b["via"].as_str()),
        (Some("owner"), Some(SEAT), Some("delivered"), Some("typed")),
        "{b}"
    );
    assert_eq!(b["from_host"], "home", "{b}");
    // (an idle Claude shows working after Enter: B's typed leg reads that off its screen)
    assert!(["screen", "transcript"].contains(&b["by"].as_str().unwrap_or("")), "{b}");
    assert!(b["body"].as_str().unwrap_or("").ends_with(body), "{b}");
    let drop = s.b.home.join("beacon/.agents/send-drops/beacon").join(SEAT).join(&id);
    let text = std::fs::read_to_string(&drop).unwrap_or_else(|e| panic!("B's drop {}: {e}", drop.display()));
    assert!(text.ends_with(body), "{text}");
    (id, ms, b["ms"].clone())
}

/// The answer to the owner's `id` (`question`) came back from B: one line on A (from the seat,
/// to the owner, via the owner inbox, from `lab`), the owner inbox file threaded to the
/// question, B's line of it (via ssh) under the same id, and `team inbox` on A lists it.
fn answered_on_a(s: &SshWorld, w: &World, id: &str, question: &str, answer: &str) {
    let back: Vec<Value> = w.history().into_iter().filter(|l| l["reply_to"] == id).collect();
    assert_eq!(back.len(), 1, "{:#?}", w.history());
    let rid = back[0]["id"].as_str().unwrap().to_string();
    assert_eq!(
        (back[0]["from"].as_str(), back[0]["to"].as_str(), back[0]["via"].as_str(), back[0]["from_host"].as_str()),
        (Some(SEAT), Some("owner"), Some("owner-inbox"), Some("lab")),
        "{}",
        back[0]
    );
    let left = std::fs::read_to_string(w.repo.join(".agents/owner-inbox").join(&rid)).expect("in A's owner inbox");
    assert!(
        left.contains(&format!("admitted by: reply to {id}\nin-reply-to: {id} ({question})\n\n{answer}")),
        "{left}"
    );
    let b_back = line_of(s.b_history(), &rid, "B");
    assert_eq!((b_back["to"].as_str(), b_back["via"].as_str()), (Some("owner"), Some("ssh")), "{b_back}");
    let inbox = w.team(&["inbox"]);
    assert!(inbox.stdout.contains(&rid) && inbox.stdout.contains(answer), "{inbox:?}");
}
