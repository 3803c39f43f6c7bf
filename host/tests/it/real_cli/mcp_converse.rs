//! A conversation through `team mcp`'s tools alone, on the real CLIs (issue 22,
//! docs/mcp.md, docs/conversations.md): the asker's model calls `team_send`; the other seat's
//! model, woken by the trigger typed into its pane, calls `team_inbox` and answers the id the
//! inbox gave it with `team_reply`; the asker's model, woken by the reply's trigger, reads the
//! reply's drop and calls `team_ack` on the reply's id. Codex runs in its default sandbox with
//! no exec-policy rule and `--no-daemon`: nothing but its MCP server can reach the other pane.
//!
//! The ids are the product's (real ids): the mock fills them in when it answers
//! (`@result:1:/items/0/id`, the id the inbox returned; `@trigger-id`, the drop the trigger
//! named; tests/real/mock/model-server.js). Each check reads what the models were given (the
//! mock's request log: every tool result is the command's `--json` document), the history and
//! the receipts (`team feed --json`).

use super::checks::{header, trigger};
use super::harness::{Cli, CodexOpts, RealWorld, Seat};
use super::mcp::{codex_tools, install};
use super::mock::Request;
use serde_json::{json, Value};

/// What a scenario does through each CLI's way of calling a tool.
impl Cli {
    /// A mock step calling the server's `tool` (Claude Code offers it as `mcp__team__<tool>`,
    /// Codex 0.171 in the namespace `mcp__team`).
    fn call(self, tool: &str, input: Value) -> Value {
        match self {
            Cli::Claude => json!({ "tool": format!("mcp__team__{tool}"), "input": input }),
            Cli::Codex => json!({ "tool": tool, "namespace": "mcp__team", "input": input }),
        }
    }

    /// The steps that come before a turn's first call of the server's tools. Claude Code 2.1.332
    /// defers an MCP server's tools: its system prompt names them (`mcp__team__team_send`, …)
    /// and says calling one before its schema is loaded fails, and `ToolSearch` with
    /// `select:<name>,…` loads them — a model's first call is that search. Codex lists them
    /// whole in every request.
    fn load(self) -> Vec<Value> {
        match self {
            Cli::Claude => {
                let names: Vec<String> = TOOLS.iter().map(|t| format!("mcp__team__{t}")).collect();
                vec![json!({ "tool": "ToolSearch", "input": { "query": format!("select:{}", names.join(",")) } })]
            }
            Cli::Codex => vec![],
        }
    }

    /// The `structuredContent` the CLI handed its model as a tool's output (Codex after its
    /// call's wall time and an `Output:` line).
    fn doc(self, out: &str) -> Value {
        let text = match self {
            Cli::Claude => Some(out),
            Cli::Codex => out.split_once("Output:\n").map(|(_, j)| j),
        };
        text.and_then(|j| serde_json::from_str(j.trim()).ok())
            .unwrap_or_else(|| panic!("what the {self:?} model got back is no JSON document: {out}"))
    }

    fn start(self, rw: &RealWorld) -> Seat {
        match self {
            Cli::Claude => rw.claude("claude-keeper", "claude-keeper"),
            // the default sandbox, no exec-policy rule: only the MCP server reaches a pane
            Cli::Codex => rw.codex("gpt-reviewer", "gpt-reviewer", None, CodexOpts { daemon: false, rule: false }),
        }
    }
}

/// The server's tools.
const TOOLS: [&str; 5] = ["team_send", "team_list", "team_inbox", "team_reply", "team_ack"];

/// A sentence of the server's `initialize` instructions, which both CLIs give their model.
const INSTRUCTED: &str = "team_inbox lists the messages waiting for you with their ids";

/// The tool names the CLI's last model request offered (Codex: `mcp__team.<tool>`), once its
/// first request was checked to carry the server's instructions (Codex: the namespace's
/// description; Claude Code: its system prompt, which names the tools as deferred ones).
fn offered(rw: &RealWorld, cli: Cli) -> Vec<String> {
    let requests = rw.mock.main_requests(cli.api());
    let first = requests.first().map(|r| r.body.to_string()).unwrap_or_default();
    assert!(first.contains(INSTRUCTED), "the {cli:?} model is given the server's instructions: {first}");
    if cli == Cli::Codex {
        return codex_tools(rw);
    }
    assert!(first.contains("The following MCP servers have provided instructions"), "{first}");
    assert!(first.contains("The following deferred tools are now available via ToolSearch"), "{first}");
    for t in TOOLS {
        assert!(first.contains(&format!("mcp__team__{t}")), "Claude's system prompt names {t} as deferred");
    }
    let last = requests.last().map(|r| r.body["tools"].clone()).unwrap_or(Value::Null);
    last.as_array().into_iter().flatten().filter_map(|t| t["name"].as_str().map(str::to_string)).collect()
}

/// The requests of `api` in the turn whose prompt holds `prompt`.
fn turn(rw: &RealWorld, api: &str, prompt: &str) -> Vec<Request> {
    rw.mock.main_requests(api).into_iter().filter(|r| r.prompt.contains(prompt)).collect()
}

#[test]
fn claude_asks_through_team_send_codex_answers_through_team_reply_and_claude_acks() {
    conversation(Cli::Claude, Cli::Codex, "lead of beacon", None);
}

#[test]
fn codex_asks_through_team_send_claude_answers_through_team_reply_and_codex_acks() {
    conversation(Cli::Codex, Cli::Claude, "own lead", None);
}

/// The asker's box holds a draft when the answer comes: the reply is `held`, and the replying
/// model is told so by a successful call (not a tool error); the question stays unanswered.
#[test]
fn a_reply_held_by_claudes_draft_is_a_successful_call_that_says_held() {
    conversation(Cli::Claude, Cli::Codex, "lead of beacon", Some("half a thought about the gate"));
}

#[test]
fn a_reply_held_by_codexs_draft_is_a_successful_call_that_says_held() {
    conversation(Cli::Codex, Cli::Claude, "own lead", Some("half a thought about the gate"));
}

/// `asker` asks `replier` through `team_send` (admitted by `rule`); `replier` reads its inbox
/// and answers through `team_reply`; `asker` reads the answer and acks it through `team_ack`.
/// With a `draft` typed into the asker's box once its turn is over, the reply is held there.
fn conversation(asker: Cli, replier: Cli, rule: &str, draft: Option<&str>) {
    let rw = RealWorld::start();
    install(&rw);
    let (a_seat, r_seat) = (asker.seat(), replier.seat());
    // (started in the order of every real-CLI scenario: Claude Code, then Codex)
    let (claude, codex) = (Cli::Claude.start(&rw), Cli::Codex.start(&rw));
    let (asker_pane, replier_pane) = if asker == Cli::Claude { (claude, codex) } else { (codex, claude) };

    let question = format!("{r_seat}, is the parser branch ready? (asked through team_send)");
    let answer = "yes: the parser branch passes its tests (answered through team_reply)";
    let note = "merging the parser branch now";
    let (ask, asker_woken, replier_woken) =
        ("ask the other seat", format!("send-drops/beacon/{a_seat}/"), format!("send-drops/beacon/{r_seat}/"));
    // (each turn's first calls: the CLI's loading of the tools, if it has one)
    let (la, lr) = (asker.load().len(), replier.load().len());
    let mut replier_steps = replier.load();
    replier_steps.extend([
        replier.call("team_inbox", json!({})),
        replier.call("team_reply", json!({ "id": format!("@result:{}:/items/0/id", lr + 1), "message": answer })),
        json!({ "text": "Answered." }),
    ]);
    // (held until the asker's model has the send's result: one turn at a time)
    replier_steps[0] = merge(replier_steps[0].clone(), json!({ "hold": "replier-reads" }));
    let mut asker_steps = asker.load();
    asker_steps
        .extend([asker.call("team_send", json!({ "to": [r_seat], "message": question })), json!({ "text": "Asked." })]);
    rw.mock.script(json!({
        "root": rw.w.repo,
        "rules": [
            { "when": ask, "steps": asker_steps },
            // woken by the question's trigger: the inbox, then the answer to the id it listed
            { "when": replier_woken, "steps": replier_steps },
            // woken by the reply's trigger: its drop read, then acked by the id the drop bears
            { "when": asker_woken, "steps": [
                { "read": "@trigger" },
                asker.call("team_ack", json!({ "id": "@trigger-id", "note": note })),
                { "text": "Acked." },
            ]},
        ],
    }));
    rw.prompt(&asker_pane, asker.api(), ask);

    // the asker's model: the send's result, one recipient delivered
    let sent = asker.doc(&rw.mock.wait_result(asker.api(), ask, la + 1));
    if let Some(draft) = draft {
        rw.wait_screen(&asker_pane, "the asker's turn over", |s| s.contains("Asked."));
        rw.type_draft(&asker_pane, draft);
    }
    let asker_requests = rw.mock.main_requests(asker.api()).len();
    rw.mock.open("replier-reads");
    assert_eq!(sent["from"], a_seat, "{sent}");
    let row = &sent["recipients"][0];
    assert_eq!((row["outcome"].as_str(), row["seat"].as_str()), (Some("delivered"), Some(r_seat)), "{sent}");
    let q = row["id"].as_str().unwrap_or_else(|| panic!("no id: {sent}")).to_string();
    let asked = rw.drops(r_seat);
    assert_eq!(asked.iter().map(|d| super::checks::id_of(d)).collect::<Vec<_>>(), [q.as_str()], "one drop, the id");

    // the replier's model, woken by the trigger naming that drop: its inbox lists the question
    let woke = trigger(&rw, &asked[0]);
    let inbox = replier.doc(&rw.mock.wait_result(replier.api(), &woke, lr + 1));
    crate::common::validate(&inbox).unwrap_or_else(|e| panic!("{e}: {inbox}"));
    assert_eq!(inbox["schema"]["name"], "team.inbox", "{inbox}");
    assert_eq!(inbox["who"], r_seat, "the inbox is the seat's the pane is: {inbox}");
    let items = inbox["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(items.len(), 1, "{inbox}");
    assert_eq!(
        (items[0]["id"].as_str(), items[0]["from"].as_str(), items[0]["what"].as_str()),
        (Some(q.as_str()), Some(a_seat), Some("message")),
        "{inbox}"
    );
    assert_eq!(items[0]["first_line"].as_str(), Some(question.as_str()), "{inbox}");

    // …and its reply, to that id, delivered to the asker
    let reply = replier.doc(&rw.mock.wait_result(replier.api(), &woke, lr + 2));
    crate::common::validate(&reply).unwrap_or_else(|e| panic!("{e}: {reply}"));
    assert_eq!(reply["schema"]["name"], "team.reply", "{reply}");
    if let Some(draft) = draft {
        return held(&rw, (&asker_pane, asker, draft, asker_requests), replier, &reply, &q);
    }
    assert_eq!(
        (reply["status"].as_str(), reply["seat"].as_str(), reply["reply_to"].as_str()),
        (Some("delivered"), Some(a_seat), Some(q.as_str())),
        "{reply}"
    );
    let a = reply["ids"]["sent"].as_str().unwrap_or_else(|| panic!("no reply id: {reply}")).to_string();
    let answered = rw.drops(a_seat);
    assert_eq!(answered.iter().map(|d| super::checks::id_of(d)).collect::<Vec<_>>(), [a.as_str()], "one reply drop");
    let reply_drop = std::fs::read_to_string(&answered[0]).unwrap();
    let reply_rule = format!("reply to {q}");
    assert_eq!(
        reply_drop,
        format!("{}\nin-reply-to: {q} ({question})\n\n{answer}", header(r_seat, &reply_rule)),
        "the reply's drop"
    );

    // the asker's model, woken by the reply's trigger: it read the drop, then acked that id
    let woke_back = trigger(&rw, &answered[0]);
    let read = rw.mock.wait_result(asker.api(), &woke_back, 1);
    for line in [header(r_seat, &reply_rule), format!("in-reply-to: {q}"), answer.to_string()] {
        assert!(read.contains(&line), "the {asker:?} model's read of the reply lacks {line:?}: {read}");
    }
    let ack = asker.doc(&rw.mock.wait_result(asker.api(), &woke_back, 2));
    crate::common::validate(&ack).unwrap_or_else(|e| panic!("{e}: {ack}"));
    assert_eq!(ack["schema"]["name"], "team.ack", "{ack}");
    assert_eq!(
        (ack["status"].as_str(), ack["id"].as_str(), ack["by"].as_str(), ack["note"].as_str()),
        (Some("acked"), Some(a.as_str()), Some(a_seat), Some(note)),
        "{ack}"
    );

    // written down: the question, then the reply tied to it, each from the seat its pane is
    let h = rw.history();
    assert_eq!(h.len(), 2, "{h:#?}");
    let fields = |l: &Value| {
        [&l["from"], &l["to"], &l["id"], &l["outcome"], &l["reply_to"]].map(|v| v.as_str().map(str::to_string))
    };
    let s = |v: &str| Some(v.to_string());
    assert_eq!(fields(&h[0]), [s(a_seat), s(r_seat), s(&q), s("delivered"), None], "{}", h[0]);
    assert_eq!(fields(&h[1]), [s(r_seat), s(a_seat), s(&a), s("delivered"), s(&q)], "{}", h[1]);
    assert_eq!(h[0]["body"].as_str(), Some(format!("{}\n\n{question}", header(a_seat, rule)).as_str()));

    // the receipts: the question acked by the reply, the reply by the asker's team_ack
    let r = rw.w.team(&["feed", "--json"]);
    let feed: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    let acked: Vec<(Option<&str>, Option<&str>)> = feed["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["acked"]["ts"].is_string())
        .map(|e| (e["id"].as_str(), e["acked"]["note"].as_str()))
        .collect();
    let replied = format!("replied {a}");
    assert_eq!(acked, [(Some(q.as_str()), Some(replied.as_str())), (Some(a.as_str()), Some(note))], "{feed:#}");

    // what each CLI offered its model, and how long the hops took (the mock's clock)
    let offered = [offered(&rw, Cli::Claude), offered(&rw, Cli::Codex)];
    for (cli, tools) in [Cli::Claude, Cli::Codex].iter().zip(&offered) {
        for t in TOOLS {
            assert!(tools.iter().any(|o| o.ends_with(t)), "{cli:?} offers {t}: {tools:?}");
        }
    }
    let at = |api: &str, prompt: &str, k: usize| {
        turn(&rw, api, prompt).iter().find(|r| r.results.len() == k).map(|r| r.at_ms).unwrap_or(0)
    };
    let (t_send, t_sent) = (at(asker.api(), ask, la), at(asker.api(), ask, la + 1));
    let (t_reply, t_replied) = (at(replier.api(), &woke, lr + 1), at(replier.api(), &woke, lr + 2));
    let t_landed = at(asker.api(), &woke_back, 0);
    eprintln!(
        "MCP-CONVERSE {asker:?} asks {replier:?}: asked → the asker's model woken by the answer {} ms \
         (team_send call {} ms; team_reply call {} ms; reply called → asker's model woken {} ms); \
         tools offered: {offered:?}",
        t_landed - t_send,
        t_sent - t_send,
        t_replied - t_reply,
        t_landed - t_reply
    );
    eprintln!("asker's screen:\n{}\nreplier's screen:\n{}", rw.screen(&asker_pane), rw.screen(&replier_pane));
}

/// The reply `reply` (to `q`) was held by the draft in the asker's box: the call said so (Claude
/// Code marks a tool error `is_error`: this result is not marked), the draft is as typed, no
/// trigger was typed, the asker's model was sent nothing past its first `requests`, the history
/// holds the reply `held`, and nothing was acked (a reply not delivered acks nothing).
fn held(
    rw: &RealWorld,
    (pane, asker, draft, requests): (&Seat, Cli, &str, usize),
    replier: Cli,
    reply: &Value,
    q: &str,
) {
    let a_seat = asker.seat();
    assert_eq!(
        (reply["status"].as_str(), reply["seat"].as_str(), reply["reply_to"].as_str()),
        (Some("held"), Some(a_seat), Some(q)),
        "{reply}"
    );
    let a = reply["ids"]["sent"].as_str().unwrap_or_else(|| panic!("no reply id: {reply}")).to_string();
    if replier == Cli::Claude {
        let last = rw.mock.main_requests("anthropic").pop().map(|r| r.body).unwrap_or(Value::Null);
        let results: Vec<&Value> = last["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter(|b| b["type"] == "tool_result" && b["content"].to_string().contains("team.reply"))
            .collect();
        assert_eq!(results.len(), 1, "{last}");
        assert_ne!(results[0]["is_error"], json!(true), "a held reply is no tool error: {}", results[0]);
    }
    let screen = rw.screen(pane);
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains(draft)).collect();
    assert_eq!(rows.len(), 1, "the draft is there once, as typed:\n{screen}");
    assert!(!screen.contains(&a), "no trigger was typed:\n{screen}");
    assert_eq!(rw.mock.main_requests(asker.api()).len(), requests, "the asker's model was sent nothing");
    let h = rw.history();
    assert_eq!(h.len(), 2, "{h:#?}");
    assert_eq!(
        (h[1]["id"].as_str(), h[1]["outcome"].as_str(), h[1]["reply_to"].as_str(), h[1]["from"].as_str()),
        (Some(a.as_str()), Some("held"), Some(q), Some(replier.seat())),
        "{}",
        h[1]
    );
    let r = rw.w.team(&["feed", "--json"]);
    let feed: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    let acked = feed["events"].as_array().into_iter().flatten().filter(|e| e["acked"]["ts"].is_string()).count();
    assert_eq!(acked, 0, "a reply not delivered acks nothing: {feed:#}");
    eprintln!("MCP-CONVERSE held: {}\nasker's screen:\n{screen}", reply["action_summary"]);
}

/// `step` with the keys of `more` added.
fn merge(mut step: Value, more: Value) -> Value {
    if let (Some(s), Some(m)) = (step.as_object_mut(), more.as_object()) {
        s.extend(m.clone());
    }
    step
}
