//! The inbox leg with the real CLIs (issue 20): `team hooks install` writes each seat's CLI
//! hooks in the checkout (Claude Code: `.claude/settings.local.json`; Codex: `.codex/hooks.json`
//! and its `codex_hooks` switch), the CLI runs `team hook <event>` as its child, and the hook
//! hands a waiting message to the model inside the turn — proven by what the mock was sent next.
//!
//! Per CLI: a working seat (the mock has the model run `sleep 2` again and again) gets the
//! message at its next tool call and the send says `delivered`; with the hooks removed the same
//! send takes today's typed leg (`delivered (queued, not yet confirmed)`); a permission dialog
//! and a draft get `held` in the inbox with no key typed, then the person's own answer or prompt
//! lets the next hook hand it; an idle seat is typed to as today, its `UserPromptSubmit` hook
//! handing the body with the trigger; two sends to one working seat are handed once each, in
//! order. Codex's `Hooks need review` screen is a dialog: nothing is typed into it.
//!
//! The ms from `team send` to its outcome and to the model request that carries the message are
//! printed (`eprintln!`, run with `--nocapture` to read them): the issue's note quotes them.
//! Nothing here asserts a time.

use super::checks::{id_of, CONTEXT};
use super::harness::{Cli, CodexOpts, RealWorld, Seat};
use super::mock::{Request, BOUND};
use serde_json::{json, Value};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The prompt that starts a turn of `sleep 2` tool calls (about 40 s of them).
const WORK: &str = "keep working on the build";

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// `team hooks install` as the owner; checks each CLI's file names the hook.
pub(super) fn install(rw: &RealWorld) {
    let r = rw.w.team(&["hooks", "install"]);
    eprintln!("team hooks install:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    let claude = std::fs::read_to_string(rw.w.repo.join(".claude/settings.local.json")).unwrap_or_default();
    let codex = std::fs::read_to_string(rw.w.repo.join(".codex/hooks.json")).unwrap_or_default();
    for (what, text) in [("Claude Code's settings.local.json", &claude), ("Codex's hooks.json", &codex)] {
        for event in ["post-tool-use", "stop", "user-prompt-submit"] {
            assert!(text.contains(&format!("hook {event}")), "{what} runs `team hook {event}`: {text}");
        }
    }
}

/// `team hooks remove` as the owner; checks nothing of `team hook` is left in either file.
fn remove(rw: &RealWorld) {
    let r = rw.w.team(&["hooks", "remove"]);
    eprintln!("team hooks remove:\n{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    for rel in [".claude/settings.local.json", ".codex/hooks.json"] {
        let text = std::fs::read_to_string(rw.w.repo.join(rel)).unwrap_or_default();
        assert!(!text.contains("hook post-tool-use"), "{rel} still runs the hook: {text}");
    }
}

/// Starts the seat's CLI at its prompt. Codex first shows `Hooks need review` for hooks it
/// has not trusted: the person trusts them (`2. Trust all and continue`), as docs/inbox.md says.
pub(super) fn start(rw: &RealWorld, cli: Cli, hooks: bool) -> Seat {
    match cli {
        Cli::Claude => rw.claude(cli.seat(), cli.seat()),
        Cli::Codex if !hooks => rw.codex(cli.seat(), cli.seat(), None, CodexOpts::default()),
        Cli::Codex => {
            let seat = rw.codex_started(cli.seat(), cli.seat(), None, CodexOpts::default());
            rw.wait_screen(&seat, "Codex's `Hooks need review`", |s| {
                s.contains("Hooks need review") && s.contains("2. Trust all and continue")
            });
            trust_hooks(rw, &seat);
            seat
        }
    }
}

/// The person answers Codex's `Hooks need review` with `2. Trust all and continue`: the digit
/// moves the selection there (or confirms it at once); Enter confirms only once the screen
/// shows option 2 selected (a key that came while the screen was not yet taking keys is pressed
/// again; Enter on option 1 would open the review pages). Waits for the prompt.
fn trust_hooks(rw: &RealWorld, seat: &Seat) {
    let t = Instant::now();
    loop {
        let s = rw.screen(seat);
        if !s.contains("Hooks need review") {
            break;
        }
        assert!(t.elapsed() < BOUND, "Codex never took the person's `2`:\n{s}");
        if s.contains("› 2. Trust all and continue") {
            person_keys(rw, seat, &["Enter"]);
        } else {
            person_keys(rw, seat, &["2"]);
        }
        (0..20).find(|_| {
            std::thread::sleep(Duration::from_millis(50));
            let now = rw.screen(seat);
            now != s
        });
    }
    rw.wait_screen(seat, "Codex's status line", |s| s.contains("› ") && s.contains("gpt-5.1-codex default ·"));
}

/// Keys a person presses in the seat's pane.
fn person_keys(rw: &RealWorld, seat: &Seat, keys: &[&str]) {
    for k in keys {
        let out = rw.tmux(&["send-keys", "-t", &seat.pane, k]);
        assert!(out.status.success(), "tmux send-keys: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Starts a turn of `sleep 2` calls; returns once the model has had its first tool output (the
/// turn is in its tool loop, its hooks have run once) and the screen says it works.
fn working(rw: &RealWorld, cli: Cli, seat: &Seat) {
    let steps: Vec<Value> =
        (0..20).map(|_| json!({ "bash": "sleep 2", "description": "Wait for the build" })).collect();
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": WORK, "steps": steps }],
    }));
    rw.prompt(seat, cli.api(), WORK);
    rw.mock.wait_result(cli.api(), WORK, 1);
    rw.wait_screen(seat, "the seat working", |s| s.contains("esc to interrupt"));
}

/// The texts the CLI added to the request for the model beside the conversation: Claude Code's
/// `role: system` messages (its hooks' `additional context`), Codex's `developer` messages.
pub(super) fn context(cli: Cli, r: &Request) -> Vec<String> {
    let text = |c: &Value| -> String {
        match c {
            Value::String(s) => s.clone(),
            Value::Array(a) => a.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n"),
            _ => String::new(),
        }
    };
    match cli {
        Cli::Claude => r.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "system")
            .map(|m| text(&m["content"]))
            .collect(),
        Cli::Codex => r.body["input"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["type"] == "message" && m["role"] == "developer")
            .map(|m| text(&m["content"]))
            .collect(),
    }
}

/// Whether the request's hook context holding `text` follows its latest tool call directly:
/// Claude Code puts a PostToolUse hook's text in a `role: system` message right after the
/// call's result (the request's last message); Codex puts it in a `developer` message between
/// the call and its output (measured: docs/inbox.md).
fn after_the_last_call(cli: Cli, r: &Request, text: &str) -> bool {
    let holds = |m: &Value| m.to_string().contains(text);
    match cli {
        Cli::Claude => {
            let msgs = r.body["messages"].as_array().cloned().unwrap_or_default();
            msgs.last().is_some_and(|m| m["role"] == "system" && holds(m))
        }
        Cli::Codex => {
            let items = r.body["input"].as_array().cloned().unwrap_or_default();
            let Some(out) = items.iter().rposition(|m| m["type"] == "function_call_output") else { return false };
            out > 0 && items[out - 1]["role"] == "developer" && holds(&items[out - 1])
        }
    }
}

/// The first model step after request `after` whose hook context holds `text`.
fn wait_carried(rw: &RealWorld, cli: Cli, after: u64, text: &str) -> Request {
    rw.mock.wait_for(&format!("a {} step whose hook context holds {text:?}", cli.api()), |r| {
        r.n > after && r.api == cli.api() && r.kind == "main" && context(cli, r).iter().any(|c| c.contains(text))
    })
}

/// The main requests of `cli` after request `after`, in order.
fn steps_after(rw: &RealWorld, cli: Cli, after: u64) -> Vec<Request> {
    rw.mock.main_requests(cli.api()).into_iter().filter(|r| r.n > after).collect()
}

/// The last request number so far.
pub(super) fn last_n(rw: &RealWorld) -> u64 {
    rw.mock.requests().last().map(|r| r.n).unwrap_or(0)
}

/// The history lines of the message `id`.
pub(super) fn lines_of(rw: &RealWorld, id: &str) -> Vec<Value> {
    rw.history().into_iter().filter(|l| l["id"].as_str() == Some(id)).collect()
}

/// Waits until the message `id` has a `delivered` line that went by the inbox leg; returns it.
fn wait_delivered_by_inbox(rw: &RealWorld, id: &str) -> Value {
    let t = Instant::now();
    loop {
        let lines = lines_of(rw, id);
        if let Some(l) = lines.iter().find(|l| l["outcome"] == "delivered" && l["via"] == "mcp-inbox") {
            return l.clone();
        }
        assert!(t.elapsed() < BOUND, "no `delivered` line via mcp-inbox for {id}: {lines:#?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The hook's team.log line for message `id` (written just after it answered the CLI: waited
/// for), which says how the hook found its seat.
fn hook_line(rw: &RealWorld, id: &str) -> String {
    let t = Instant::now();
    loop {
        let log = std::fs::read_to_string(rw.w.repo.join(".agents/team.log")).unwrap_or_default();
        if let Some(l) = log.lines().find(|l| l.contains(r#""command":"hook""#) && l.contains(id)) {
            return l.to_string();
        }
        assert!(t.elapsed() < BOUND, "no hook line for {id} in team.log:\n{log}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The one drop file for `seat` whose text holds `body`.
fn drop_for(rw: &RealWorld, seat: &str, body: &str) -> std::path::PathBuf {
    let found: Vec<_> =
        rw.drops(seat).into_iter().filter(|d| std::fs::read_to_string(d).unwrap_or_default().contains(body)).collect();
    assert_eq!(found.len(), 1, "one drop for {seat} holding {body:?}: {:?}", rw.drops(seat));
    found[0].clone()
}

/// (a) A working seat with the hooks: the send queues the message, the next PostToolUse hook
/// hands it, the send says `delivered` from the receipt. Prints the ms.
fn working_seat_gets_it_at_its_next_tool_call(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    let seat = start(&rw, cli, true);
    working(&rw, cli, &seat);
    let body = format!("{} please check the gate, inbox leg", cli.seat());
    let before = last_n(&rw);
    let t0 = now_ms();
    let run = rw.w.team(&["send", cli.seat(), &body]);
    let t1 = now_ms();
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\n{}: delivered (handed by its PostToolUse hook)\n", cli.seat()).as_str(), "", 0)
    );
    let carried = wait_carried(&rw, cli, before, &body);
    let drop = drop_for(&rw, cli.seat(), &body);
    let line = wait_delivered_by_inbox(&rw, &id_of(&drop));
    assert_eq!(line["from"], "owner", "{line}");
    // the real CLI's hook ran in the pane the send found (the pin: its shell among the hook's
    // ancestors), no multiplexer asked
    let hook = hook_line(&rw, &id_of(&drop));
    assert!(hook.contains("its pane's shell among its ancestors, the pane the send found"), "{hook}");
    // The model's next step after the hand-over carries it: the hook's text sits right after
    // the latest tool call (Claude: the last message, after its result; Codex: between the
    // call and its output), so it was handed at that call, the one just before this request.
    // Which step after the send that was depends on where in its `sleep 2` the send came and
    // on how long the send took to queue it (printed, never asserted: no timed assertions).
    assert!(after_the_last_call(cli, &carried, &body), "not at the latest call: {:#?}", carried.body);
    let steps = steps_after(&rw, cli, before);
    let at = steps.iter().position(|r| r.n == carried.n).unwrap();
    // the hook's text reached the model as the hook's own context, once
    let holding: Vec<String> = context(cli, &carried).into_iter().filter(|c| c.contains(&body)).collect();
    assert_eq!(holding.len(), 1, "{holding:#?}");
    eprintln!(
        "INBOX-MS {:?} working, inbox leg: send→outcome {} ms, send→carrying request {} ms (step {} after the send); context: {:?}",
        cli,
        t1 - t0,
        carried.at_ms - t0,
        at + 1,
        holding[0]
    );
}

/// (a') The same working seat with the hooks removed: today's typed leg, `delivered (queued, not
/// yet confirmed)`, the trigger fed to the model at its next tool call. Prints the ms.
fn working_seat_without_hooks_is_typed_to(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    remove(&rw);
    let seat = start(&rw, cli, false);
    working(&rw, cli, &seat);
    let body = format!("{} please check the gate, typed leg", cli.seat());
    let before = last_n(&rw);
    let t0 = now_ms();
    let run = rw.w.team(&["send", cli.seat(), &body]);
    let t1 = now_ms();
    assert_eq!(run.stderr, "", "{run:?}");
    assert!(run.stdout.starts_with(&format!("{CONTEXT}\n{}: delivered", cli.seat())), "{run:?}");
    let drop = drop_for(&rw, cli.seat(), &body);
    let id = id_of(&drop);
    let carried = rw.mock.wait_for("a step that carries the trigger", |r| {
        r.n > before && r.api == cli.api() && r.kind == "main" && r.body.to_string().contains(&id)
    });
    let lines = lines_of(&rw, &id);
    assert!(lines.iter().all(|l| l["via"] != "mcp-inbox"), "no hooks, no inbox leg: {lines:#?}");
    eprintln!(
        "INBOX-MS {:?} working, typed leg: {:?}: send→outcome {} ms, send→carrying request {} ms",
        cli,
        run.stdout.lines().last().unwrap_or(""),
        t1 - t0,
        carried.at_ms - t0
    );
}

/// (b) A permission dialog: the send leaves the message in the inbox, `held`, with no key; the
/// person answers the dialog, the command runs, and its PostToolUse hook hands the message.
fn dialog_holds_then_the_next_hook_hands_it(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    let seat = start(&rw, cli, true);
    let outside = rw.top().join("outside.txt");
    let step = match cli {
        // writing outside the working folder needs approval in manual mode; the command
        // succeeds (a failed call runs no PostToolUse hook: the message would ride the Stop)
        Cli::Claude => {
            json!({ "bash": format!("touch {}; echo checked", outside.display()), "description": "Check the box" })
        }
        Cli::Codex => {
            json!({ "bash": format!("touch {}", outside.display()), "escalated": "Check the box outside the workspace" })
        }
    };
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [{ "when": "check the box", "steps": [step, { "text": "Checked." }] }],
    }));
    rw.prompt(&seat, cli.api(), "check the box");
    let dialog_of = |s: &str| -> String {
        let rows: Vec<&str> = s.lines().collect();
        let at = match cli {
            Cli::Claude => rows.iter().rposition(|r| r.starts_with("────")),
            Cli::Codex => rows.iter().position(|r| r.contains("Would you like to run")),
        };
        rows[at.unwrap_or(0)..].join("\n")
    };
    let screen = match cli {
        Cli::Claude => rw.wait_screen(&seat, "the permission dialog", |s| {
            s.contains("Do you want to proceed?") && s.contains("❯ 1. Yes") && s.contains("Esc to cancel")
        }),
        Cli::Codex => rw.wait_screen(&seat, "the approval dialog", |s| {
            s.contains("Would you like to run the following command?") && s.contains("Press enter to confirm")
        }),
    };
    // (model steps only: Codex's title request for the turn may come late, on a loaded machine)
    let asked = rw.mock.main_requests(cli.api()).len();
    let before = last_n(&rw);

    let body = format!("{} the gate is green, behind a dialog", cli.seat());
    let t0 = now_ms();
    let run = rw.w.team(&["send", cli.seat(), &body]);
    let t1 = now_ms();
    eprintln!("INBOX-MS {cli:?} dialog: send→outcome {} ms: {}", t1 - t0, run.stdout.trim_end());
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{run:?}");
    let head = format!("{CONTEXT}\n{}: held (in {}'s inbox", cli.seat(), cli.seat());
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    assert!(run.stdout.contains("nothing was typed"), "{}", run.stdout);
    let drop = drop_for(&rw, cli.seat(), &body);
    let id = id_of(&drop);
    // reached: the send read the dialog and walked the inbox leg; zero keys: the dialog is as it
    // was, its command never ran, the model was sent nothing
    assert_eq!(dialog_of(&rw.screen(&seat)), dialog_of(&screen), "no key reached the dialog");
    assert_eq!(rw.mock.main_requests(cli.api()).len(), asked, "the model was sent nothing");
    assert!(!outside.exists(), "the dialog's command never ran");
    let lines = lines_of(&rw, &id);
    assert!(lines.iter().all(|l| l["outcome"] != "delivered"), "{lines:#?}");

    // The person answers: Yes (Claude's dialogs ignore keys for a moment after they appear, so
    // the key is pressed again while the dialog is still up).
    let key = if cli == Cli::Claude { "Enter" } else { "y" };
    let t = Instant::now();
    loop {
        person_keys(&rw, &seat, &[key]);
        let gone = (0..40).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            !dialog_of(&rw.screen(&seat)).contains(if cli == Cli::Claude {
                "Do you want to proceed?"
            } else {
                "Would you like to run"
            })
        });
        if gone {
            break;
        }
        assert!(t.elapsed() < BOUND, "the dialog never took the person's answer");
    }
    let carried = wait_carried(&rw, cli, before, &body);
    assert!(outside.exists(), "the person's Yes ran the command");
    let line = wait_delivered_by_inbox(&rw, &id);
    assert_eq!(line["from"], "owner", "{line}");
    // handed after the send's whole window: the pin no longer vouches, tmux placed the hook
    let hook = hook_line(&rw, &id);
    assert!(hook.contains("its pane found through the multiplexer"), "{hook}");
    assert_eq!(carried.results.len(), 1, "handed at the hook after the approved call: {:?}", carried.results);
    assert!(after_the_last_call(cli, &carried, &body), "not at the approved call: {:#?}", carried.body);
}

/// (c) A draft in the box: `held` in the inbox, the draft untouched; the person's Enter submits
/// the draft and the `UserPromptSubmit` hook hands the message with it.
fn draft_holds_then_the_persons_prompt_carries_it(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    let seat = start(&rw, cli, true);
    let draft = "half a thought about the gate";
    rw.type_draft(&seat, draft);
    let screen = rw.screen(&seat);
    let asked = rw.mock.main_requests(cli.api()).len();
    let before = last_n(&rw);

    let body = format!("{} review the gate, under a draft", cli.seat());
    let t0 = now_ms();
    let run = rw.w.team(&["send", cli.seat(), &body]);
    let t1 = now_ms();
    eprintln!("INBOX-MS {cli:?} draft: send→outcome {} ms: {}", t1 - t0, run.stdout.trim_end());
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{run:?}");
    let head = format!("{CONTEXT}\n{}: held (in {}'s inbox", cli.seat(), cli.seat());
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    let after = rw.screen(&seat);
    let draft_row = |s: &str| s.lines().filter(|r| r.contains(draft)).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(draft_row(&after), draft_row(&screen), "the draft is as it was");
    assert_eq!(draft_row(&after).len(), 1, "{after}");
    assert_eq!(rw.mock.main_requests(cli.api()).len(), asked, "the model was sent nothing");
    let drop = drop_for(&rw, cli.seat(), &body);
    let id = id_of(&drop);
    assert!(!after.contains(&id), "no trigger was typed:\n{after}");

    // The person sends the draft (Codex: an Enter ≥ 50 ms after the typing submits).
    person_keys(&rw, &seat, &["Enter"]);
    let carried = wait_carried(&rw, cli, before, &body);
    assert!(carried.prompt.contains(draft), "the person's prompt is the turn's: {:?}", carried.prompt);
    assert!(!carried.prompt.contains(&body), "the message rode beside the prompt, not in it");
    let first = steps_after(&rw, cli, before).into_iter().next().unwrap();
    assert_eq!(first.n, carried.n, "the turn's first request carries it");
    wait_delivered_by_inbox(&rw, &id);
}

/// (d) An idle seat with the hooks: typed as today (`delivered`), and the trigger's turn
/// carries the body through `UserPromptSubmit` from its first request.
fn idle_seat_is_typed_to(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    let _seat = start(&rw, cli, true);
    let before = last_n(&rw);
    let body = format!("{} the gate is green, idle", cli.seat());
    let t0 = now_ms();
    let run = rw.w.team(&["send", cli.seat(), &body]);
    let t1 = now_ms();
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (format!("{CONTEXT}\n{}: delivered\n", cli.seat()).as_str(), "", 0)
    );
    let drop = drop_for(&rw, cli.seat(), &body);
    let id = id_of(&drop);
    let trigger = super::checks::trigger(&rw, &drop);
    let first = rw.mock.wait_for("the trigger's turn", |r| {
        r.n > before && r.api == cli.api() && r.kind == "main" && r.prompt.contains(&trigger)
    });
    let lines = lines_of(&rw, &id);
    assert!(lines.iter().any(|l| l["outcome"] == "delivered" && l["via"] == "typed"), "{lines:#?}");
    let with_body = context(cli, &first).iter().any(|c| c.contains(&body));
    eprintln!(
        "INBOX-MS {:?} idle: send→outcome {} ms, send→trigger's first request {} ms; the body in its hook context: {with_body}",
        cli,
        t1 - t0,
        first.at_ms - t0
    );
    assert!(with_body, "UserPromptSubmit handed the body with the trigger: {:#?}", context(cli, &first));
}

/// (e) Two sends to one working seat: both handed, in the order sent, each once.
fn two_sends_are_handed_in_order_once_each(cli: Cli) {
    let rw = RealWorld::start();
    install(&rw);
    let seat = start(&rw, cli, true);
    working(&rw, cli, &seat);
    let before = last_n(&rw);
    let (a, b) = (format!("{} first of two", cli.seat()), format!("{} second of two", cli.seat()));
    let (ra, rb) = std::thread::scope(|s| {
        let first = s.spawn(|| rw.w.team(&["send", cli.seat(), &a]));
        // the second once the first has written its drop (it queues right after)
        let t = Instant::now();
        while !rw.drops(cli.seat()).iter().any(|d| std::fs::read_to_string(d).unwrap_or_default().contains(&a)) {
            assert!(t.elapsed() < BOUND, "the first send wrote no drop");
            std::thread::sleep(Duration::from_millis(20));
        }
        let second = rw.w.team(&["send", cli.seat(), &b]);
        (first.join().unwrap(), second)
    });
    for (r, _) in [(&ra, &a), (&rb, &b)] {
        assert_eq!(
            (r.stdout.as_str(), r.stderr.as_str(), r.code),
            (format!("{CONTEXT}\n{}: delivered (handed by its PostToolUse hook)\n", cli.seat()).as_str(), "", 0)
        );
    }
    let ca = wait_carried(&rw, cli, before, &a);
    let cb = wait_carried(&rw, cli, before, &b);
    assert!(ca.n <= cb.n, "the first rode request #{}, the second #{}", ca.n, cb.n);
    eprintln!("INBOX-MS {cli:?} two sends: the first rode request #{}, the second #{}", ca.n, cb.n);
    if ca.n == cb.n {
        let all = context(cli, &ca).join("\n");
        assert!(all.find(&a).unwrap() < all.find(&b).unwrap(), "in order: {all}");
    }
    // once each: the turn's latest request holds each in one hook context, one time
    let last = steps_after(&rw, cli, before).pop().unwrap();
    for m in [&a, &b] {
        let n: usize = context(cli, &last).iter().map(|c| c.matches(m.as_str()).count()).sum();
        assert_eq!(n, 1, "{m:?} handed {n} times: {:#?}", context(cli, &last));
        let id = id_of(&drop_for(&rw, cli.seat(), m));
        wait_delivered_by_inbox(&rw, &id);
        let delivered = lines_of(&rw, &id).into_iter().filter(|l| l["outcome"] == "delivered").count();
        assert_eq!(delivered, 1, "one delivered line for {id}");
    }
}

#[test]
fn claude_working_gets_the_message_at_its_next_tool_call() {
    working_seat_gets_it_at_its_next_tool_call(Cli::Claude);
}

#[test]
fn codex_working_gets_the_message_at_its_next_tool_call() {
    working_seat_gets_it_at_its_next_tool_call(Cli::Codex);
}

#[test]
fn claude_working_without_hooks_is_typed_to_and_queued() {
    working_seat_without_hooks_is_typed_to(Cli::Claude);
}

#[test]
fn codex_working_without_hooks_is_typed_to() {
    working_seat_without_hooks_is_typed_to(Cli::Codex);
}

#[test]
fn claude_dialog_holds_in_the_inbox_then_the_next_hook_hands_it() {
    dialog_holds_then_the_next_hook_hands_it(Cli::Claude);
}

#[test]
fn codex_dialog_holds_in_the_inbox_then_the_next_hook_hands_it() {
    dialog_holds_then_the_next_hook_hands_it(Cli::Codex);
}

#[test]
fn claude_draft_holds_then_the_persons_prompt_carries_it() {
    draft_holds_then_the_persons_prompt_carries_it(Cli::Claude);
}

#[test]
fn codex_draft_holds_then_the_persons_prompt_carries_it() {
    draft_holds_then_the_persons_prompt_carries_it(Cli::Codex);
}

#[test]
fn claude_idle_is_typed_to_and_its_prompt_hook_hands_the_body() {
    idle_seat_is_typed_to(Cli::Claude);
}

#[test]
fn codex_idle_is_typed_to_and_its_prompt_hook_hands_the_body() {
    idle_seat_is_typed_to(Cli::Codex);
}

#[test]
fn claude_two_sends_are_handed_in_order_once_each() {
    two_sends_are_handed_in_order_once_each(Cli::Claude);
}

#[test]
fn codex_two_sends_are_handed_in_order_once_each() {
    two_sends_are_handed_in_order_once_each(Cli::Codex);
}

/// (f) Codex's `Hooks need review` screen is a dialog: the send types nothing into it (no hook
/// is trusted, so the message waits in the inbox, or the send says unreachable), the screen and
/// Codex's config are as they were, the model is sent nothing. Once the person trusts the hooks
/// and prompts, a message left in the inbox rides that prompt.
#[test]
fn codex_hooks_review_screen_is_a_dialog_and_gets_no_key() {
    let rw = RealWorld::start();
    install(&rw);
    let cli = Cli::Codex;
    let seat = rw.codex_started(cli.seat(), cli.seat(), None, CodexOpts::default());
    let screen = rw.wait_screen(&seat, "Codex's `Hooks need review`", |s| {
        s.contains("Hooks need review") && s.contains("enter confirm · esc skip")
    });
    let config = seat.home.join(".codex/config.toml");
    let config_before = std::fs::read_to_string(&config).unwrap();
    let asked = rw.mock.main_requests(cli.api()).len();

    let body = "review the gate, behind the hooks review";
    let run = rw.w.team(&["send", cli.seat(), body]);
    eprintln!("INBOX-MS Codex hooks review: {}", run.stdout.trim_end());
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{run:?}");
    let held = format!("{CONTEXT}\ngpt-reviewer: held (in gpt-reviewer's inbox");
    let unreachable = format!("{CONTEXT}\ngpt-reviewer: unreachable (the pane shows a trust dialog");
    assert!(run.stdout.starts_with(&held) || run.stdout.starts_with(&unreachable), "{}", run.stdout);
    // read as what it is: the codex profile's trust dialog, titled by its first line
    assert!(run.stdout.contains("trust dialog"), "{}", run.stdout);
    let drop = drop_for(&rw, cli.seat(), body);
    let id = id_of(&drop);
    let review = |s: &str| -> String {
        let rows: Vec<&str> = s.lines().collect();
        let at = rows.iter().position(|r| r.contains("Hooks need review")).unwrap_or(0);
        rows[at..].join("\n")
    };
    assert_eq!(review(&rw.screen(&seat)), review(&screen), "no key reached the review screen");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), config_before, "nothing was trusted or refused");
    assert_eq!(rw.mock.main_requests(cli.api()).len(), asked, "the model was sent nothing");

    if run.stdout.starts_with(&held) {
        // The person trusts the hooks and prompts: the message waiting rides the prompt.
        trust_hooks(&rw, &seat);
        assert!(std::fs::read_to_string(&config).unwrap().contains("trusted_hash"), "the person trusted them");
        let before = last_n(&rw);
        rw.mock.script(json!({ "root": rw.w.repo, "rules": [] }));
        rw.prompt(&seat, cli.api(), "good morning");
        wait_carried(&rw, cli, before, body);
        wait_delivered_by_inbox(&rw, &id);
    }
}
