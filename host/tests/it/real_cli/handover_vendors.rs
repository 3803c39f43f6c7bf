//! Issue 29 item 2 on the CLIs whose hooks landed after Claude Code's and Codex's — the real
//! Gemini CLI 0.61.0, Qwen Code 0.24.4 and GitHub Copilot CLI 1.0.102, offline: what each does
//! with the answer of a hook killed (SIGKILL) right after writing it, and what its transcript
//! then shows (`real_cli::handover` measures Claude Code and Codex the same way).
//!
//! The hooks are the test's own, in the places and under the names `team hooks install <seat>`
//! writes (its commands replaced): per event the first run writes its answer in the shape
//! `team hook` answers that CLI (`hookSpecificOutput` or Copilot's bare `additionalContext`;
//! `decision: block` at the turn's end) and is killed, the second ends well (prompt `…01`/`…02`,
//! after a tool `…03`/`…04`, turn end `…05`/`…06`). The mock's request log says which answers
//! reached the model. `TEAM_CAPTURE_TO=<dir>` keeps the transcript rows naming the answers and
//! the hook inputs (`tests/data/transcripts/<cli>/hook-context.jsonl`, `hook-inputs.jsonl`).
//!
//! Measured (2026-12-06, 4 runs per CLI, 3 killed and 3 whole answers a run):
//!
//! | CLI | killed answers the model got | whole answers it got |
//! | --- | --- | --- |
//! | Gemini CLI 0.61.0 | 12 of 12 (taken) | 12 of 12 |
//! | Qwen Code 0.24.4 | 12 of 12 (taken) | 12 of 12 |
//! | GitHub Copilot CLI 1.0.102 | 0 of 12 (dropped: `hook-answer=on-exit`) | 12 of 12 |
//!
//! Gemini's and Copilot's transcripts, read with their profiles' `hook-context=` rows, show
//! exactly the answers the model got; Qwen's profile names no rows yet (not asserted).

use super::handover::{capture, id, inputs, reached, receipts_of, text};
use super::harness::{RealWorld, Seat};
use super::inbox_vendors::{launch_args, own_settings};
use super::mock::BOUND;
use super::vendors::Vendor;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use team::legs::inbox::hook::evidence::{judge, Rule, Verdict};
use team::mailbox::store::Answering;

/// The features of the bundled profile of `v`.
pub(super) fn features(rw: &RealWorld, v: Vendor) -> Vec<String> {
    let host = team::profiles::ProfileHost::with_dirs(rw.w.config.clone(), rw.w.cache.clone());
    let p = host.load(v.profile(), &Default::default()).unwrap_or_else(|e| panic!("{}", e.message()));
    p.describe().features.clone()
}

/// The answer of the test's hook for message `n` at `event` (`team hook`'s word), in the shape
/// `team hook` answers `v` (docs/inbox.md).
fn answer(v: Vendor, event: &str, n: u32) -> Value {
    match (event, v) {
        ("stop", _) => json!({"decision": "block", "reason": text(n)}),
        (_, Vendor::Copilot) => json!({"additionalContext": text(n)}),
        ("post-tool-use", _) => {
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text(n)}})
        }
        _ => json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text(n)}}),
    }
}

/// Replaces each `… hook <event>` command in `v` (a hooks file) with `<dir>/hook-<event>`.
fn replace_commands(v: &mut Value, dir: &Path) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match (k.as_str(), x.as_str()) {
                    ("command", Some(c)) => {
                        let event = c.rsplit(" hook ").next().unwrap().to_string();
                        *x = json!(format!("{}/hook-{event}", dir.display()));
                    }
                    _ => replace_commands(x, dir),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| replace_commands(x, dir)),
        _ => {}
    }
}

/// The person's own settings and `team hooks install <seat>`, then its commands replaced by the
/// test's hooks: per event, the first run writes its answer and is killed, the second ends
/// well, later runs answer nothing; each keeps its input in `<dir>` (`ups-`, `post-`, `stop-<pid>.json`).
fn hooks(rw: &RealWorld, v: Vendor, dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let (rel, mine) = own_settings(v);
    rw.w.write(&rw.w.repo.join(rel), &mine);
    let r = rw.w.team(&["hooks", "install", v.seat()]);
    assert_eq!(r.code, 0, "{r:?}");
    let file = rw.w.repo.join(rel);
    let mut settings: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    replace_commands(&mut settings["hooks"], dir);
    std::fs::write(&file, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    let d = dir.display();
    for (event, short, killed, whole) in
        [("user-prompt-submit", "ups", 1, 2), ("post-tool-use", "post", 3, 4), ("stop", "stop", 5, 6)]
    {
        for n in [killed, whole] {
            std::fs::write(dir.join(format!("answer-{n}.json")), format!("{}\n", answer(v, event, n))).unwrap();
        }
        let script = format!(
            "#!/bin/sh\ncat > {d}/{short}-$$.json\n\
             if [ ! -e {d}/f{killed} ]; then touch {d}/f{killed}; cat {d}/answer-{killed}.json; kill -9 $$; fi\n\
             if [ ! -e {d}/f{whole} ]; then touch {d}/f{whole}; cat {d}/answer-{whole}.json; exit 0; fi\n\
             touch {d}/idle-{short}-$$\n"
        );
        let f = dir.join(format!("hook-{event}"));
        std::fs::write(&f, script).unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let now = std::fs::read_to_string(&file).unwrap();
    for event in ["user-prompt-submit", "post-tool-use", "stop"] {
        assert!(now.contains(&format!("{d}/hook-{event}")), "{rel} runs the test's {event} hook: {now}");
    }
}

/// How many files of `dir` start with `prefix`.
fn count(dir: &Path, prefix: &str) -> usize {
    std::fs::read_dir(dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().starts_with(prefix)).count()
}

/// The CLI's screen at its prompt with no turn running.
fn idle(v: Vendor, s: &str) -> bool {
    let working = ["esc to cancel", "esc esc", "to interrupt"];
    v.at_prompt(s) && !working.iter().any(|w| s.to_lowercase().contains(w))
}

/// The session files under the seat's HOME that name the test's answers (the CLI's transcript:
/// the profile's `transcript_patterns` say where each CLI keeps it).
fn transcripts(home: &Path) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "jsonl")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("00000000-0000-4000-8000-"))
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(home, &mut out);
    out
}

/// Types a prompt and submits it (Enter after the CLI's pause); returns once the mock received
/// a model step that carries it.
fn submit(rw: &RealWorld, seat: &Seat, v: Vendor, text: &str) {
    let before = rw.mock.requests().len();
    rw.type_draft(seat, text);
    std::thread::sleep(Duration::from_millis(400));
    assert!(rw.tmux(&["send-keys", "-t", &seat.pane, "Enter"]).status.success());
    rw.mock.wait_for(&format!("the prompt {text:?}"), |r| {
        r.n as usize > before && r.api == v.api() && r.kind == "main" && r.body.to_string().contains(text)
    });
}

/// A hook killed after writing its answer, on the real CLI of `v`: which answers reached the
/// model (asserted to be `taken`), and what its transcript shows, judged with the bundled
/// profile's `hook-context=` rows (asserted to be exactly what the model got when the profile
/// names such rows). Prints the figures (`HANDOVER <cli>`).
fn killed_hooks_answers(v: Vendor, taken: &[u32]) {
    let rw = RealWorld::start_vendors();
    let dir = rw.top().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    hooks(&rw, v, &dir);
    let seat: Seat = rw.vendor_with(v, launch_args(v));
    // Qwen refuses a standalone `sleep` unless a comment says it is meant (inbox_vendors)
    let sleep = match v {
        Vendor::Qwen => "sleep 1 # intentional-sleep: wait for the build",
        _ => "sleep 1",
    };
    let steps: Vec<Value> = (0..3).map(|_| json!({ "bash": sleep })).chain([json!({"text": "Done."})]).collect();
    // (Qwen sends a prompt hook's text as a user message after the prompt's, which the mock
    // then reads as the turn's prompt: the rules know the prompts by those texts too)
    let second = json!([{ "bash": sleep }, {"text": "ok"}]);
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [
        { "when": "keep working", "steps": steps },
        { "when": "body 1", "steps": steps },
        { "when": "second turn", "steps": second },
        { "when": "body 2", "steps": second },
    ]}));
    submit(&rw, &seat, v, "keep working");
    // the first turn's end: a CLI that takes the killed hook's block goes on, then takes the
    // whole one's, goes on, and stops (three turn-end hooks); one that drops it stops (one).
    // The second turn: its prompt, a tool call and its turn-end hooks.
    let (first, all) = if taken.contains(&5) { (3, 4) } else { (1, 3) };
    let wait_stops = |n: usize| {
        let t = Instant::now();
        while count(&dir, "stop-") < n {
            assert!(t.elapsed() < BOUND, "{v:?}: {n} turn-end hooks ran (so far {})", count(&dir, "stop-"));
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_stops(first);
    rw.wait_screen(&seat, "the prompt after the first turn", |s| idle(v, s));
    submit(&rw, &seat, v, "second turn");
    wait_stops(all);
    rw.wait_screen(&seat, "the prompt after the second turn", |s| idle(v, s));
    let got = reached(&rw);
    let ins = inputs(&dir);
    let parsed: Vec<team::legs::inbox::hook::HookInput> =
        ins.iter().map(|t| team::legs::inbox::hook::HookInput::parse(t.as_bytes())).collect();
    let found = transcripts(&seat.home);
    eprintln!(
        "HANDOVER {v:?}: the model got answers {got:?} (killed: 1, 3, 5); turn-end hooks {}; transcripts {found:?}; inputs {parsed:#?}",
        count(&dir, "stop-")
    );
    if let (Some(to), Some(t)) = (std::env::var_os("TEAM_CAPTURE_TO"), found.first()) {
        capture(&Path::new(&to).join(v.profile()), t, &ins);
    }
    assert_eq!(got, taken.iter().copied().collect(), "{v:?}: which answers reached the model");
    // the evidence the host settles by: the transcript (the one the hooks named, else the one
    // under the seat's HOME) read with the profile's rows shows exactly what the model got
    let rules = Rule::from_features(&features(&rw, v));
    if rules.is_empty() {
        return;
    }
    let named: BTreeSet<PathBuf> = parsed.iter().filter_map(|i| i.transcript.clone()).collect();
    let transcript = named.into_iter().next().or_else(|| found.first().cloned()).expect("a transcript");
    let note = Answering {
        pid: 1,
        start: 1,
        event: "stop".into(),
        at_ms: 0,
        session: None,
        turn: None,
        transcript: Some(transcript),
        offset: 0,
        said: false,
        on_exit: false,
    };
    let shown: BTreeSet<u32> = (1..=6).filter(|n| judge(&note, &id(*n), &rules, None) == Verdict::Taken).collect();
    assert_eq!(shown, got, "{v:?}: the transcript shows what the model got");
}

#[test]
fn gemini_a_killed_hook_s_answer() {
    killed_hooks_answers(Vendor::Gemini, &[1, 2, 3, 4, 5, 6]);
}

#[test]
fn qwen_a_killed_hook_s_answer() {
    killed_hooks_answers(Vendor::Qwen, &[1, 2, 3, 4, 5, 6]);
}

#[test]
fn copilot_a_killed_hook_s_answer() {
    killed_hooks_answers(Vendor::Copilot, &[2, 4, 6]);
}

/// Copilot takes a hook's answer only from a hook that exits. Its postToolUse hook here is the
/// installed `team hook post-tool-use` in a script whose shell kills itself once `team hook`
/// has exited (while the test's flag file stands): the answer left whole, and Copilot dropped
/// it — the window between a receipt and the exit, made certain. The send does not say
/// delivered (its profile says `hook-answer=on-exit`: nothing is recorded before the
/// transcript shows the answer taken; before it did, the send said `pilot: delivered (handed by
/// its postToolUse hook)` for an answer the model never got). Copilot's hook input names no
/// turn: the claim stays in doubt, said once, never said delivered, never handed twice.
#[test]
fn copilot_a_real_hook_killed_after_team_hook_exited_is_never_said_delivered() {
    use std::os::unix::fs::PermissionsExt;
    let v = Vendor::Copilot;
    let rw = RealWorld::start_vendors();
    let (rel, mine) = own_settings(v);
    rw.w.write(&rw.w.repo.join(rel), &mine);
    assert_eq!(rw.w.team(&["hooks", "install", v.seat()]).code, 0);
    // the installed postToolUse command, wrapped
    let file = rw.w.repo.join(rel);
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let cmd = s["hooks"]["postToolUse"][0]["command"].as_str().unwrap().to_string();
    let dir = rw.top().join("wrap");
    std::fs::create_dir_all(&dir).unwrap();
    let flag = dir.join("kill");
    let script = dir.join("team-then-killed");
    std::fs::write(&script, format!("#!/bin/sh\n{cmd}\nif [ -e {} ]; then kill -9 $$; fi\n", flag.display())).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    s["hooks"]["postToolUse"][0]["command"] = json!(format!("{} hook post-tool-use", script.display()));
    std::fs::write(&file, s.to_string()).unwrap();
    std::fs::write(&flag, "").unwrap();
    let seat = rw.vendor_with(v, launch_args(v));
    let steps: Vec<Value> = (0..6).map(|_| json!({ "bash": "sleep 2" })).chain([json!({"text": "Done."})]).collect();
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [
        { "when": "keep working", "steps": steps },
        { "when": "next turn", "steps": [{ "bash": "sleep 1" }, {"text": "ok"}] },
    ]}));
    submit(&rw, &seat, v, "keep working");
    rw.mock.wait_result(v.api(), "keep working", 1);
    super::up::wait_reads(&rw, v.seat(), "working");
    let body = "pilot please check the gate, cut off";
    let run = rw.w.team(&["send", v.seat(), body]);
    assert!(run.stdout.contains("pilot: held (in pilot's inbox: its hook answered"), "{run:?}");
    let drop = rw.drops(v.seat()).pop().unwrap();
    let id = drop.file_name().unwrap().to_string_lossy().into_owned();
    assert!(receipts_of(&rw, &id).is_empty(), "not said delivered");
    let log = || std::fs::read_to_string(rw.w.repo.join(".agents/team.log")).unwrap_or_default();
    let t = Instant::now();
    while !log().contains("\"outcome\":\"in doubt\"") {
        assert!(t.elapsed() < BOUND, "said in doubt: {}", log());
        std::thread::sleep(Duration::from_millis(100));
    }
    // the turn ends (its hooks whole again), and a next turn with a tool call: still in doubt
    std::fs::remove_file(&flag).unwrap();
    rw.mock
        .wait_for("the turn's end", |r| r.kind == "main" && r.prompt.contains("keep working") && r.results.len() >= 6);
    rw.wait_screen(&seat, "the prompt", |s| idle(v, s));
    submit(&rw, &seat, v, "next turn");
    rw.mock.wait_for("the next turn's tool output", |r| {
        r.kind == "main" && r.prompt.contains("next turn") && !r.results.is_empty()
    });
    rw.wait_screen(&seat, "the prompt after the next turn", |s| idle(v, s));
    assert!(rw.mock.requests().iter().all(|r| !r.body.to_string().contains(body)), "the model never got it");
    assert!(receipts_of(&rw, &id).is_empty(), "never said delivered");
    assert_eq!(log().matches("\"outcome\":\"in doubt\"").count(), 1, "said once: {}", log());
    let lines = super::inbox::lines_of(&rw, &id);
    assert!(lines.iter().all(|l| l["outcome"] != "delivered"), "{lines:#?}");
}
