//! Issue 29 item 2 on the real CLIs (Claude Code 2.1.332, Codex 0.171.0, offline): what a CLI
//! does with the answer of a hook killed after writing it, and what its transcript then shows —
//! the facts `team hook` settles a claim in doubt by (docs/inbox.md) — and the real `team hook`
//! killed between its answer and its record, settled on each CLI by that evidence.
//!
//! The facts: hooks of the test's own (scripts printing answers in team's words, ids `…01` to
//! `…06`), one per event killed (SIGKILL) right after writing its answer and one ending well;
//! the mock's request log says which answers reached the model; the transcript the hooks' input
//! named, judged with the bundled profile's `hook-context=` rows (`team::legs::inbox::hook::
//! evidence`), must show exactly those. `TEAM_CAPTURE_TO=<dir>` keeps the rows and inputs
//! (`tests/data/transcripts/<cli>/hook-context.jsonl` and `hook-inputs.jsonl` were made so).

use super::harness::{Cli, RealWorld, Seat};
use super::inbox::{context, install, last_n, lines_of, start};
use super::mock::BOUND;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use team::legs::inbox::hook::evidence::{judge, Rule, Verdict};
use team::legs::inbox::hook::HookInput;
use team::mailbox::store::Answering;

pub(super) fn id(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// The text team's hook would hand for message `n`.
pub(super) fn text(n: u32) -> String {
    format!(
        "A message for you from owner (admitted by the owner; id {}) — read it and act on it as your team's rules say:\n\nbody {n}",
        id(n)
    )
}

/// The rows the bundled profile of `cli` says hold what its model was sent.
fn rules(rw: &RealWorld, cli: Cli) -> Vec<Rule> {
    let host = team::profiles::ProfileHost::with_dirs(rw.w.config.clone(), rw.w.cache.clone());
    let p = host.load(cli.profile(), &Default::default()).unwrap_or_else(|e| panic!("{}", e.message()));
    Rule::from_features(&p.describe().features)
}

/// The hooks of the test: per event, the first run writes its answer and is killed, the second
/// ends well (UserPromptSubmit `…01`/`…02`, PostToolUse `…03`/`…04`, Stop `…05`/`…06`); each
/// keeps its input in `<dir>`.
fn hooks(rw: &RealWorld, cli: Cli, dir: &Path) {
    let d = dir.display();
    let ctx = |ev: &str, n: u32| json!({"hookSpecificOutput": {"hookEventName": ev, "additionalContext": text(n)}});
    let block = |n: u32| json!({"decision": "block", "reason": text(n)});
    for (n, a) in [
        (1, ctx("UserPromptSubmit", 1)),
        (2, ctx("UserPromptSubmit", 2)),
        (3, ctx("PostToolUse", 3)),
        (4, ctx("PostToolUse", 4)),
        (5, block(5)),
        (6, block(6)),
    ] {
        std::fs::write(dir.join(format!("answer-{n}.json")), format!("{a}\n")).unwrap();
    }
    let script = |name: &str, killed: u32, whole: u32| {
        format!(
            "#!/bin/sh\ncat > {d}/{name}-$$.json\n\
             if [ ! -e {d}/f{killed} ]; then touch {d}/f{killed}; cat {d}/answer-{killed}.json; kill -9 $$; fi\n\
             if [ ! -e {d}/f{whole} ]; then touch {d}/f{whole}; cat {d}/answer-{whole}.json; fi\n"
        )
    };
    use std::os::unix::fs::PermissionsExt;
    for (n, t) in [("ups", script("ups", 1, 2)), ("post", script("post", 3, 4)), ("stop", script("stop", 5, 6))] {
        let f = dir.join(format!("hook-{n}"));
        std::fs::write(&f, t).unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cmd = |n: &str| json!([{"type": "command", "command": format!("{d}/hook-{n}")}]);
    let file = json!({"hooks": {
        "PostToolUse": [{"matcher": "*", "hooks": cmd("post")}],
        "Stop": [{"hooks": cmd("stop")}],
        "UserPromptSubmit": [{"hooks": cmd("ups")}],
    }});
    let rel = match cli {
        Cli::Claude => ".claude/settings.local.json",
        Cli::Codex => ".codex/hooks.json",
    };
    std::fs::write(rw.w.repo.join(rel), file.to_string()).unwrap();
}

/// The answers the model was sent, by number (the mock's request log).
pub(super) fn reached(rw: &RealWorld) -> BTreeSet<u32> {
    // (the mock's request log: an answer the CLI took is in every later request of its turn)
    rw.mock
        .requests()
        .iter()
        .filter(|r| r.kind == "main")
        .flat_map(|r| {
            let b = r.body.to_string();
            (1..=6).filter(move |n| b.contains(&format!("{})", id(*n))))
        })
        .collect()
}

/// A hook killed after writing its answer: which answers reached the model, and the transcript
/// shows exactly those (judged with the profile's rows); the hook inputs name the session, the
/// turn and the transcript.
fn killed_hooks_answers(cli: Cli, taken: &[u32]) {
    let rw = RealWorld::start();
    let dir = rw.top().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    install(&rw);
    hooks(&rw, cli, &dir);
    let seat = start(&rw, cli, true);
    let steps: Vec<Value> = (0..3)
        .map(|_| json!({ "bash": "sleep 1", "description": "Wait for the build" }))
        .chain([json!({"text": "Done."})])
        .collect();
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [
        { "when": "keep working", "steps": steps },
        { "when": "second turn", "steps": [{ "bash": "sleep 1", "description": "Wait" }, {"text": "ok"}] },
    ]}));
    rw.prompt(&seat, cli.api(), "keep working");
    // the first turn's Stop hooks: Claude Code takes the killed one's block and goes on, then
    // the whole one's, then stops; Codex drops the killed one's and stops. Then the second
    // turn: its prompt's hook (the whole one), a tool call, and its Stop hooks.
    let (first, all) = match cli {
        Cli::Claude => (3, 4),
        Cli::Codex => (1, 3),
    };
    let stops = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("stop-"))
            .count()
    };
    let wait_stops = |n: usize| {
        let t = Instant::now();
        while stops() < n {
            assert!(t.elapsed() < BOUND, "{cli:?}: {n} Stop hooks ran (so far {})", stops());
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_stops(first);
    rw.wait_screen(&seat, "the prompt after the first turn", |s| !s.to_lowercase().contains("to interrupt"));
    rw.prompt(&seat, cli.api(), "second turn");
    wait_stops(all);
    rw.wait_screen(&seat, "the prompt after the second turn", |s| !s.to_lowercase().contains("to interrupt"));
    let got = reached(&rw);
    eprintln!("HANDOVER {cli:?}: the model got answers {got:?}");
    assert_eq!(got, taken.iter().copied().collect(), "{cli:?}: which answers reached the model");
    // the inputs
    let inputs = inputs(&dir);
    let parsed: Vec<HookInput> = inputs.iter().map(|t| HookInput::parse(t.as_bytes())).collect();
    let turns: BTreeSet<_> = parsed.iter().map(|i| i.turn.clone()).collect();
    let sessions: BTreeSet<_> = parsed.iter().map(|i| i.session_id.clone()).collect();
    let transcripts: BTreeSet<_> = parsed.iter().map(|i| i.transcript.clone()).collect();
    assert_eq!((turns.len(), sessions.len(), transcripts.len()), (2, 1, 1), "{cli:?}: {parsed:#?}");
    assert!(parsed.iter().all(|i| i.session_id.is_some() && i.turn.is_some()), "{parsed:#?}");
    let transcript: PathBuf = transcripts.into_iter().next().flatten().expect("the transcript named");
    // the evidence: exactly the answers the model got, read with the profile's rows
    let rules = rules(&rw, cli);
    let note = Answering {
        pid: 1,
        start: 1,
        event: "stop".into(),
        at_ms: 0,
        session: None,
        turn: None,
        transcript: Some(transcript.clone()),
        offset: 0,
        said: false,
        on_exit: false,
    };
    let shown: BTreeSet<u32> = (1..=6).filter(|n| judge(&note, &id(*n), &rules, None) == Verdict::Taken).collect();
    assert_eq!(shown, got, "{cli:?}: the transcript shows what the model got");
    if let Some(to) = std::env::var_os("TEAM_CAPTURE_TO") {
        capture(&Path::new(&to).join(cli.profile()), &transcript, &inputs);
    }
}

/// The hook inputs the test's hooks kept, in the order they ran.
pub(super) fn inputs(dir: &Path) -> Vec<String> {
    let mut v: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| ["ups-", "post-", "stop-"].iter().any(|p| e.file_name().to_string_lossy().starts_with(p)))
        .map(|e| (e.metadata().unwrap().modified().unwrap(), std::fs::read_to_string(e.path()).unwrap()))
        .collect();
    v.sort();
    v.into_iter().map(|(_, t)| t).collect()
}

/// Keeps the transcript's rows naming the answers, and the inputs, in `to` (the fixtures).
pub(super) fn capture(to: &Path, transcript: &Path, inputs: &[String]) {
    std::fs::create_dir_all(to).unwrap();
    let rows: String = std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .filter(|l| l.contains("00000000-0000-4000-8000-"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(to.join("hook-context.jsonl"), rows).unwrap();
    let ins: String = inputs.iter().map(|t| format!("{}\n", t.trim_end())).collect();
    std::fs::write(to.join("hook-inputs.jsonl"), ins).unwrap();
}

#[test]
fn claude_takes_a_killed_hook_s_answer_and_its_transcript_shows_it() {
    killed_hooks_answers(Cli::Claude, &[1, 2, 3, 4, 5, 6]);
}

#[test]
fn codex_drops_a_killed_hook_s_answer_and_its_transcript_shows_only_what_it_took() {
    killed_hooks_answers(Cli::Codex, &[2, 4, 6]);
}

/// The seat's inbox folder (the project's history folder below the world's config).
fn inbox_dir(rw: &RealWorld, cli: Cli) -> PathBuf {
    team::history::project_dir(&rw.w.config, "beacon", &rw.w.repo).join("inbox/beacon").join(cli.seat())
}

/// The history's lock, held by the test (made first when no send has made it yet).
fn hold_history_lock(rw: &RealWorld) -> nix::fcntl::Flock<std::fs::File> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let dir = team::history::project_dir(&rw.w.config, "beacon", &rw.w.repo);
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir).unwrap();
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(dir.join("messages.lock"))
        .unwrap();
    nix::fcntl::Flock::lock(f, nix::fcntl::FlockArg::LockExclusive).map_err(|(_, e)| e).unwrap()
}

/// The real `team hook` that claimed a message, noted it, wrote its answer to the CLI and now
/// waits at the history's lock to record it: its pid.
fn hook_waiting_to_record(rw: &RealWorld, cli: Cli) -> i32 {
    let dir = inbox_dir(rw, cli);
    let t = Instant::now();
    loop {
        let names: Vec<String> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let pid: Option<i32> = names
            .iter()
            .find_map(|n| n.split(".claimed-").nth(1))
            .and_then(|w| w.split('-').next())
            .and_then(|p| p.parse().ok());
        let noted = std::fs::read_dir(dir.join("answering")).is_ok_and(|mut rd| rd.next().is_some());
        let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
        if let Some(pid) = pid.filter(|p| {
            noted && locks.lines().any(|l| l.contains("->") && l.split_whitespace().any(|w| w == p.to_string()))
        }) {
            return pid;
        }
        assert!(t.elapsed() < BOUND, "no hook waits to record: {names:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The real hook, killed between its answer and its record, while the send waits: the test
/// holds the history's lock, a working seat's PostToolUse hook claims the message, notes it,
/// writes its answer and waits at its receipt; the test kills it and lets go.
fn killed_between_answer_and_record(rw: &RealWorld, cli: Cli, body: &str) -> (Seat, crate::common::Run) {
    let seat = start(rw, cli, true);
    let steps: Vec<Value> = (0..6)
        .map(|_| json!({ "bash": "sleep 2", "description": "Wait for the build" }))
        .chain([json!({"text": "Done."})])
        .collect();
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [
        { "when": "keep working", "steps": steps },
        { "when": "next turn", "steps": [{ "bash": "sleep 1", "description": "Wait" }, {"text": "ok"}] },
    ]}));
    rw.prompt(&seat, cli.api(), "keep working");
    rw.mock.wait_result(cli.api(), "keep working", 1);
    let lock = hold_history_lock(rw);
    std::thread::scope(|s| {
        let send = s.spawn(|| rw.w.team(&["send", cli.seat(), body]));
        let pid = hook_waiting_to_record(rw, cli);
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL).unwrap();
        drop(lock);
        (seat.clone(), send.join().unwrap())
    })
}

/// The handed receipts of the message `id`.
pub(super) fn receipts_of(rw: &RealWorld, id: &str) -> Vec<Value> {
    let f = team::history::project_dir(&rw.w.config, "beacon", &rw.w.repo).join("receipts.jsonl");
    std::fs::read_to_string(f)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["id"] == id && r["receipt"] == "handed")
        .collect()
}

/// How many hook contexts of the latest model request hold `body` (each hand-over is one).
fn carried(rw: &RealWorld, cli: Cli, body: &str) -> usize {
    let last = rw.mock.main_requests(cli.api()).pop().expect("a request");
    context(cli, &last).iter().map(|c| c.matches(body).count()).sum()
}

/// Claude Code took the killed hook's answer: the next hook finds it in the transcript, records
/// the hand-over (the waiting send says `delivered`), and never hands it again.
#[test]
fn claude_a_real_hook_killed_between_answer_and_record_is_settled_by_its_transcript() {
    let cli = Cli::Claude;
    let rw = RealWorld::start();
    install(&rw);
    let body = "claude-keeper please check the gate, cut off";
    let (_, run) = killed_between_answer_and_record(&rw, cli, body);
    assert!(run.stdout.ends_with("claude-keeper: delivered (handed by its PostToolUse hook)\n"), "{run:?}");
    let drop = rw.drops(cli.seat()).pop().unwrap();
    let id = drop.file_name().unwrap().to_string_lossy().into_owned();
    let receipts = receipts_of(&rw, &id);
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert!(receipts[0]["note"].as_str().unwrap_or("").contains("transcript shows the answer taken"), "{receipts:?}");
    // its line rests on the transcript, not on a receipt the hook wrote (`team feed`: by transcript)
    let lines = lines_of(&rw, &id);
    let delivered: Vec<&Value> = lines.iter().filter(|l| l["outcome"] == "delivered").collect();
    assert_eq!(delivered.len(), 1, "{lines:#?}");
    assert_eq!(delivered[0]["by"], "transcript", "{lines:#?}");
    // the model had it once, from the killed hook, and no hook handed it again
    let before = last_n(&rw);
    rw.mock.wait_for("two more model steps", |r| r.n > before + 1);
    assert_eq!(carried(&rw, cli, body), 1);
    assert!(std::fs::read_dir(inbox_dir(&rw, cli)).unwrap().flatten().all(|e| !e.file_type().unwrap().is_file()));
}

/// Codex takes a hook's answer only from a hook that exits. Its PostToolUse hook here is the
/// installed `team hook post-tool-use` in a script whose shell kills itself once `team hook`
/// has exited (while the test's flag file stands): the answer left whole, and Codex dropped it
/// — the window between a receipt and the exit, made certain. The send does not say delivered
/// (nothing is recorded before the transcript shows the answer taken); within the turn the
/// claim stays in doubt; the next turn's hook gives it back and hands it, once, and the
/// hand-over is recorded once the transcript shows it.
#[test]
fn codex_a_real_hook_killed_after_team_hook_exited_is_handed_in_its_next_turn() {
    use std::os::unix::fs::PermissionsExt;
    let cli = Cli::Codex;
    let rw = RealWorld::start();
    install(&rw);
    // the installed PostToolUse command, wrapped (before the start: Codex reviews it with the rest)
    let file = rw.w.repo.join(".codex/hooks.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let cmd = v["hooks"]["PostToolUse"][0]["hooks"][0]["command"].as_str().unwrap().to_string();
    let dir = rw.top().join("wrap");
    std::fs::create_dir_all(&dir).unwrap();
    let flag = dir.join("kill");
    // (named as team's own, `team…` then `hook <event>`: `team hooks status` counts it installed)
    let script = dir.join("team-then-killed");
    std::fs::write(&script, format!("#!/bin/sh\n{cmd}\nif [ -e {} ]; then kill -9 $$; fi\n", flag.display())).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    v["hooks"]["PostToolUse"][0]["hooks"][0]["command"] = json!(format!("{} hook post-tool-use", script.display()));
    std::fs::write(&file, v.to_string()).unwrap();
    std::fs::write(&flag, "").unwrap();
    let seat = start(&rw, cli, true);
    let steps: Vec<Value> = (0..6)
        .map(|_| json!({ "bash": "sleep 2", "description": "Wait for the build" }))
        .chain([json!({"text": "Done."})])
        .collect();
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [
        { "when": "keep working", "steps": steps },
        { "when": "next turn", "steps": [{ "bash": "sleep 1", "description": "Wait" }, {"text": "ok"}] },
    ]}));
    rw.prompt(&seat, cli.api(), "keep working");
    rw.mock.wait_result(cli.api(), "keep working", 1);
    rw.wait_screen(&seat, "the seat working", |s| s.contains("esc to interrupt"));
    let body = "gpt-reviewer please check the gate, cut off";
    let run = rw.w.team(&["send", cli.seat(), body]);
    assert!(run.stdout.contains("gpt-reviewer: held (in gpt-reviewer's inbox: its hook answered"), "{run:?}");
    let drop = rw.drops(cli.seat()).pop().unwrap();
    let id = drop.file_name().unwrap().to_string_lossy().into_owned();
    assert!(receipts_of(&rw, &id).is_empty(), "not said delivered");
    let t = Instant::now();
    while !std::fs::read_to_string(rw.w.repo.join(".agents/team.log"))
        .unwrap_or_default()
        .contains("\"outcome\":\"in doubt\"")
    {
        assert!(t.elapsed() < BOUND, "said in doubt");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(rw.mock.requests().iter().all(|r| !r.body.to_string().contains(body)), "the model never got it");
    assert!(receipts_of(&rw, &id).is_empty(), "not said delivered");
    // the turn ends; the hooks run whole again; the person's next prompt: its hook finds the
    // CLI in another turn, the transcript without the message — not taken — and hands it
    std::fs::remove_file(&flag).unwrap();
    rw.mock
        .wait_for("the turn's end", |r| r.kind == "main" && r.prompt.contains("keep working") && r.results.len() >= 6);
    rw.wait_screen(&seat, "the prompt", |s| !s.to_lowercase().contains("to interrupt"));
    rw.prompt(&seat, cli.api(), "next turn");
    let with = rw.mock.wait_for("a request that carries it", |r| r.kind == "main" && r.body.to_string().contains(body));
    assert!(with.prompt.contains("next turn"), "in the next turn: {:?}", with.prompt);
    let t = Instant::now();
    while receipts_of(&rw, &id).is_empty() {
        assert!(t.elapsed() < BOUND, "recorded once the transcript shows it");
        std::thread::sleep(Duration::from_millis(100));
    }
    let receipts = receipts_of(&rw, &id);
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert!(receipts[0]["note"].as_str().unwrap_or("").contains("transcript shows the answer taken"), "{receipts:?}");
    let lines = lines_of(&rw, &id);
    assert_eq!(lines.iter().filter(|l| l["outcome"] == "delivered").count(), 1, "{lines:#?}");
    assert!(lines.iter().any(|l| l["outcome"] == "delivered" && l["by"] == "transcript"), "{lines:#?}");
    let log = std::fs::read_to_string(rw.w.repo.join(".agents/team.log")).unwrap();
    assert!(log.contains("its CLI has begun another turn of the same session"), "{log}");
    assert_eq!(carried(&rw, cli, body), 1);
}
