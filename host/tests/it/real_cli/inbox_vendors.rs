//! The inbox leg with the real Gemini CLI 0.61.0, Qwen Code 0.24.4 and GitHub Copilot CLI
//! 1.0.102: `team hooks install <seat>` writes the hooks where the seat's profile says its CLI
//! reads them (Gemini: `.gemini/settings.json`, `AfterTool`/`AfterAgent`/`BeforeAgent`; Qwen:
//! `.qwen/settings.json`, Claude's names; Copilot: `.github/copilot/settings.local.json`,
//! `postToolUse`/`agentStop`/`userPromptSubmitted`), beside the person's own settings (kept
//! byte for byte); the CLI runs `team hook <event>` as its child, and the hook hands a waiting
//! message to the model inside a turn of tool calls — proven by the model request that carries
//! it and the `delivered` line by the inbox leg. Prints (`--nocapture`) where in the request the hook's text sits and the ms from
//! the send to it: what each CLI hands the model, measured. Nothing here asserts a time.

use super::checks::{id_of, CONTEXT};
use super::harness::{RealWorld, Seat};
use super::inbox::{drop_for, hook_line, last_n, wait_delivered_by_inbox};
use super::vendors::Vendor;
use serde_json::{json, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// The prompt that starts a turn of `sleep 2` tool calls (about 40 s of them).
const WORK: &str = "keep working on the build";

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// The person's own project settings: the `sleep` of the scripted turn runs without asking.
pub(super) fn own_settings(v: Vendor) -> (&'static str, String) {
    match v {
        Vendor::Gemini => {
            (".gemini/settings.json", "{\n    \"tools\": {\"allowed\": [\"run_shell_command(sleep)\"]}\n}\n".into())
        }
        Vendor::Qwen => (".qwen/settings.json", "{\n\t\"permissions\": {\"allow\": [\"Bash(sleep *)\"]}\n}".into()),
        // (Copilot keeps its tool approvals out of project settings: the person starts it with
        // `--allow-tool`, [`launch_args`])
        Vendor::Copilot => (".github/copilot/settings.local.json", "{\n  \"showTimestamps\": true\n}\n".into()),
        _ => unreachable!("{v:?} has no hooks team writes"),
    }
}

/// The person's own options on the CLI's command line: Copilot runs the scripted `sleep`
/// without asking.
pub(super) fn launch_args(v: Vendor) -> &'static str {
    match v {
        Vendor::Copilot => "--allow-tool='shell(sleep)'",
        _ => "",
    }
}

/// The text of the JSON value in `v` that holds `needle`, innermost first (where in the
/// request the CLI put the hook's text).
fn holder(v: &Value, needle: &str) -> Option<String> {
    let inner = match v {
        Value::Array(a) => a.iter().find_map(|x| holder(x, needle)),
        Value::Object(o) => o.values().find_map(|x| holder(x, needle)),
        _ => None,
    };
    inner.or_else(|| v.to_string().contains(needle).then(|| v.to_string()))
}

/// The CLI's own name of the hook that runs after a tool call (Gemini CLI's `AfterTool`,
/// Copilot's `postToolUse`; Qwen Code keeps Claude's `PostToolUse`), which the delivered line
/// names.
fn after_tool(v: Vendor) -> &'static str {
    match v {
        Vendor::Gemini => "AfterTool",
        Vendor::Copilot => "postToolUse",
        _ => "PostToolUse",
    }
}

/// `team hooks install <seat>` beside the person's own settings, checked by its status; then
/// the seat's CLI started with the person's options.
fn hooked_seat(rw: &RealWorld, v: Vendor) -> Seat {
    let (rel, mine) = own_settings(v);
    rw.w.write(&rw.w.repo.join(rel), &mine);
    let r = rw.w.team(&["hooks", "install", v.seat()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("{}: missing → written", v.seat())), "{}", r.stdout);
    let text = std::fs::read_to_string(rw.w.repo.join(rel)).unwrap();
    for event in ["post-tool-use", "stop", "user-prompt-submit"] {
        assert!(text.contains(&format!("hook {event}")), "{rel} runs `team hook {event}`: {text}");
    }
    let st = rw.w.team(&["hooks", "status", v.seat()]);
    assert!(st.stdout.contains(&format!("{}: installed", v.seat())), "{}", st.stdout);
    rw.vendor_with(v, launch_args(v))
}

fn working_seat_gets_it_at_its_next_tool_call(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let (rel, mine) = own_settings(v);
    let seat = hooked_seat(&rw, v);
    // Qwen refuses a standalone `sleep` unless a comment says it is meant (measured on 0.24.4:
    // `Blocked: standalone sleep 2 …`; a failed call runs no PostToolUse hook)
    let sleep = match v {
        Vendor::Qwen => "sleep 2 # intentional-sleep: wait for the build",
        _ => "sleep 2",
    };
    let steps: Vec<Value> = (0..20).map(|_| json!({ "bash": sleep })).collect();
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [{ "when": WORK, "steps": steps }] }));
    rw.prompt(&seat, v.api(), WORK);
    rw.mock.wait_result(v.api(), WORK, 1);

    let body = format!("{} please check the gate, inbox leg", v.seat());
    let before = last_n(&rw);
    let t0 = now_ms();
    let run = rw.w.team(&["send", v.seat(), &body]);
    let t1 = now_ms();
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\n{}: delivered (handed by its {} hook)\n", v.seat(), after_tool(v)).as_str(), "", 0)
    );
    let carried = rw.mock.wait_for(&format!("a {} step that carries {body:?}", v.api()), |r| {
        r.n > before && r.api == v.api() && r.kind == "main" && r.body.to_string().contains(&body)
    });
    let drop = drop_for(&rw, v.seat(), &body);
    let line = wait_delivered_by_inbox(&rw, &id_of(&drop));
    assert_eq!(line["from"], "owner", "{line}");
    let hook = hook_line(&rw, &id_of(&drop));
    // the hook's text reached the model once, in the request after a tool call
    assert_eq!(carried.body.to_string().matches(&body).count(), 1, "{:#?}", carried.body);
    assert!(!carried.results.is_empty(), "inside the turn, after a tool call: {:#?}", carried.body);
    eprintln!(
        "INBOX-MS {v:?} working, inbox leg: send→outcome {} ms, send→carrying request {} ms; hook: {hook}; held in: {}",
        t1 - t0,
        carried.at_ms - t0,
        holder(&carried.body, &body).unwrap_or_default()
    );

    // remove takes out team's hooks and no other byte: the person's settings as they were
    // (Gemini), or as the CLI left them — Qwen migrates its settings in place, adding
    // `"$version": 4` after the person's keys (measured on 0.24.4)
    let now = std::fs::read_to_string(rw.w.repo.join(rel)).unwrap();
    let r = rw.w.team(&["hooks", "remove", v.seat()]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = std::fs::read_to_string(rw.w.repo.join(rel)).unwrap();
    match v {
        Vendor::Qwen => {
            assert_eq!(after, mine.replacen("]}\n}", "]},\n\t\"$version\": 4\n}", 1), "before remove: {now}")
        }
        _ => assert_eq!(after, mine, "before remove: {now}"),
    }
}

/// The CLI's own name of the hook at a turn's end, which the delivered line names.
fn turn_end(v: Vendor) -> &'static str {
    match v {
        Vendor::Gemini => "AfterAgent",
        Vendor::Copilot => "agentStop",
        _ => "Stop",
    }
}

/// Waits until the seat's inbox holds the message `id` (`<config>/…/inbox/…/<key>-<id>.json`).
fn wait_queued(rw: &RealWorld, id: &str) {
    fn holds(dir: &std::path::Path, id: &str) -> bool {
        std::fs::read_dir(dir).into_iter().flatten().flatten().any(|e| {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            (p.is_dir() && holds(&p, id))
                || (name.ends_with(&format!("-{id}.json")) && p.to_string_lossy().contains("/inbox/"))
        })
    }
    let t = std::time::Instant::now();
    while !holds(&rw.w.config, id) {
        assert!(t.elapsed() < crate::common::BOUND, "the inbox never held {id}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A message sent while the model's last step of a turn runs (no tool call left to carry it):
/// the send queues it, the CLI's hook at the turn's end blocks the stop with it, and the CLI
/// gives it to its model as it goes on — proven by the request that carries it and the line
/// naming the CLI's own event. Prints where the text sits and the ms.
fn working_seat_gets_it_at_its_turn_end(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let seat = hooked_seat(&rw, v);
    let last = "finish the answer";
    let step = json!({ "text": "The build is green.", "hold": "last-words" });
    rw.mock.script(json!({ "root": rw.w.repo, "rules": [{ "when": last, "steps": [step] }] }));
    rw.prompt(&seat, v.api(), last);
    // the send is made to a seat whose screen shows its turn (a CLI under load draws it a
    // moment after its request left: a send before that finds it idle and types)
    super::up::wait_reads(&rw, v.seat(), "working");

    let body = format!("{} one more thing, at the turn's end", v.seat());
    let before = last_n(&rw);
    let t0 = now_ms();
    let (run, t1) = std::thread::scope(|s| {
        let send = s.spawn(|| {
            let r = rw.w.team(&["send", v.seat(), &body]);
            (r, now_ms())
        });
        let t = std::time::Instant::now();
        while rw.drops(v.seat()).is_empty() {
            assert!(t.elapsed() < crate::common::BOUND, "no drop for {}", v.seat());
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        wait_queued(&rw, &id_of(&drop_for(&rw, v.seat(), &body)));
        // the model's last words: the turn ends with the message waiting
        rw.mock.open("last-words");
        send.join().unwrap()
    });
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\n{}: delivered (handed by its {} hook)\n", v.seat(), turn_end(v)).as_str(), "", 0)
    );
    let carried = rw.mock.wait_for(&format!("a {} step that carries {body:?}", v.api()), |r| {
        r.n > before && r.api == v.api() && r.kind == "main" && r.body.to_string().contains(&body)
    });
    let id = id_of(&drop_for(&rw, v.seat(), &body));
    let line = wait_delivered_by_inbox(&rw, &id);
    assert_eq!(line["from"], "owner", "{line}");
    let hook = hook_line(&rw, &id);
    assert!(hook.contains(&format!("{} hook", turn_end(v))), "{hook}");
    assert_eq!(carried.body.to_string().matches(&body).count(), 1, "{:#?}", carried.body);
    eprintln!(
        "INBOX-MS {v:?} turn end, inbox leg: send→outcome {} ms, send→carrying request {} ms; prompt: {:?}; held in: {}",
        t1 - t0,
        carried.at_ms - t0,
        carried.prompt,
        holder(&carried.body, &body).unwrap_or_default()
    );
}

/// An idle seat with the hooks: the send types its trigger (`delivered`), and the CLI's prompt
/// hook (Copilot's userPromptSubmitted, Gemini CLI's BeforeAgent, Qwen Code's
/// UserPromptSubmit) hands the body with it: the trigger's first request — before any tool ran
/// — holds the body once. Prints where.
fn idle_seat_is_typed_to_and_its_prompt_hook_hands_the_body(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let _seat = hooked_seat(&rw, v);
    let before = last_n(&rw);
    let body = format!("{} the gate is green, idle", v.seat());
    let t0 = now_ms();
    let run = rw.w.team(&["send", v.seat(), &body]);
    let said = run.stdout.strip_prefix(&format!("{CONTEXT}\n{}: delivered", v.seat()));
    assert!(said.is_some() && run.stderr.is_empty() && run.code == 0, "{run:?}");
    let drop = drop_for(&rw, v.seat(), &body);
    let trigger = super::checks::trigger(&rw, &drop);
    // (Qwen sends the hook's text as a user message of its own after the prompt's)
    let first = rw.mock.wait_for("the trigger's turn", |r| {
        r.n > before && r.api == v.api() && r.kind == "main" && r.body.to_string().contains(&trigger)
    });
    let lines = super::inbox::lines_of(&rw, &id_of(&drop));
    assert!(lines.iter().any(|l| l["outcome"] == "delivered" && l["via"] == "typed"), "{lines:#?}");
    assert!(first.results.is_empty(), "{first:#?}");
    eprintln!(
        "INBOX-MS {v:?} idle: {:?} send→trigger's first request {} ms; held in: {}",
        run.stdout,
        first.at_ms - t0,
        holder(&first.body, &body).unwrap_or_default()
    );
    let log = std::fs::read_to_string(rw.w.repo.join(".agents/team.log")).unwrap_or_default();
    assert_eq!(
        first.body.to_string().matches(&body).count(),
        1,
        "the prompt hook handed the body once; team.log:\n{log}"
    );
}

#[test]
fn copilot_idle_is_typed_to_and_its_prompt_hook_hands_the_body() {
    idle_seat_is_typed_to_and_its_prompt_hook_hands_the_body(Vendor::Copilot);
}

#[test]
fn gemini_idle_is_typed_to_and_its_prompt_hook_hands_the_body() {
    idle_seat_is_typed_to_and_its_prompt_hook_hands_the_body(Vendor::Gemini);
}

#[test]
fn qwen_idle_is_typed_to_and_its_prompt_hook_hands_the_body() {
    idle_seat_is_typed_to_and_its_prompt_hook_hands_the_body(Vendor::Qwen);
}

#[test]
fn copilot_gets_a_message_at_its_turn_end() {
    working_seat_gets_it_at_its_turn_end(Vendor::Copilot);
}

#[test]
fn gemini_gets_a_message_at_its_turn_end() {
    working_seat_gets_it_at_its_turn_end(Vendor::Gemini);
}

#[test]
fn qwen_gets_a_message_at_its_turn_end() {
    working_seat_gets_it_at_its_turn_end(Vendor::Qwen);
}

#[test]
fn gemini_gets_a_message_at_its_next_tool_call() {
    working_seat_gets_it_at_its_next_tool_call(Vendor::Gemini);
}

#[test]
fn qwen_gets_a_message_at_its_next_tool_call() {
    working_seat_gets_it_at_its_next_tool_call(Vendor::Qwen);
}

#[test]
fn copilot_gets_a_message_at_its_next_tool_call() {
    working_seat_gets_it_at_its_next_tool_call(Vendor::Copilot);
}

/// The first read of the drop a send to a Gemini seat names, in a checkout that keeps
/// `send-drops/` out of git (as `team init` does), with `geminiignore` as the root
/// `.geminiignore` (none: `None`): the tool's output of the trigger turn's first read.
fn gemini_first_read(geminiignore: Option<&str>) -> String {
    let rw = RealWorld::start_vendors();
    if let Some(text) = geminiignore {
        rw.w.write(&rw.w.repo.join(".geminiignore"), text);
    }
    let _seat = rw.vendor(Vendor::Gemini);
    let body = "the gate is green";
    let run = rw.w.team(&["send", Vendor::Gemini.seat(), body]);
    assert_eq!(run.code, 0, "{run:?}");
    let drop = drop_for(&rw, Vendor::Gemini.seat(), body);
    let trig = super::checks::trigger(&rw, &drop);
    let read = rw.mock.wait_for("the trigger turn's first tool output", |r| {
        r.api == "gemini" && r.kind == "main" && r.prompt.contains(&trig) && !r.results.is_empty()
    });
    read.results[0].clone()
}

/// Measured for the question whether `team` should write a root `.geminiignore`: Gemini CLI's
/// `read_file` refuses a drop `.agents/.gitignore` names (the model then reads it with `cat`),
/// and a root `.geminiignore` line `!.agents/send-drops/` lifts that: the first read returns
/// the drop (Gemini puts `.geminiignore`'s patterns after the checkout's git ignore rules).
#[test]
fn gemini_read_file_refuses_an_ignored_drop_and_a_root_geminiignore_lifts_it() {
    let plain = gemini_first_read(None);
    let unignored = gemini_first_read(Some("!.agents/send-drops/\n"));
    eprintln!("GEMINIIGNORE none: {plain:?}\nGEMINIIGNORE !.agents/send-drops/: {unignored:?}");
    assert!(plain.contains("is ignored by configured ignore patterns"), "{plain}");
    assert_eq!(unignored, "from the owner — admitted by: the owner\n\nthe gate is green");
}
