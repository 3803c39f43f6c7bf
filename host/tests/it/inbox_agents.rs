//! An agent's send through the inbox leg (issue 29 item 6): a seat's own `team send`, run from
//! its marked pane as its shell tool would, to a fake seat whose CLI runs the installed hooks.
//! The agent is answered as soon as its message is safely queued — `queued` for a working
//! seat (exit 0, never `delivered` before the hook's receipt: the hook that hands it writes
//! that line), `held` at once for a seat at a dialog, which waits for a person — and a queued
//! message a seat never takes by a hook is the watch's, as a held one is. The owner's own send
//! keeps the window (`inbox_tmux`).

use crate::common;
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::tool::Tool;
use crate::common::World;
use crate::hardening::in_pane;
use serde_json::Value;

/// The scene: the lead (`lead`, a declared seat with no fake seat: its pane is the one
/// `in_pane` opens and marks) and a fake seat `rev` in `mode`, its hooks the checkout's as
/// `team hooks install` wrote them, a tool call every 150 ms while it works; the hooks' log
/// beside it.
struct Scene {
    base: common::scene::Scene,
    logs: tempfile::TempDir,
}

impl std::ops::Deref for Scene {
    type Target = common::scene::Scene;
    fn deref(&self) -> &common::scene::Scene {
        &self.base
    }
}

fn scene(mode: &str, scale: Option<&str>) -> Scene {
    let w = World::empty();
    w.team_file(
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: lead\n    role: lead\n    cli: claude-code\n    leads: true\n  - name: rev\n    role: worker\n    cli: claude-code\n",
    );
    common::scene::install_hooks(&w);
    let logs = tempfile::Builder::new().prefix("team-tmux-").tempdir().unwrap();
    let s = common::scene::hooked_seat(&w, logs.path(), "rev", "claude-code", mode);
    let tw = TmuxWorld::start("beacon", &[s]);
    Scene { base: common::scene::Scene::of(w, tw, scale), logs }
}

impl Scene {
    /// `team send rev <msg>` run by the lead from its own pane (no terminal, as an agent's
    /// shell tool runs it): its output and exit code.
    fn lead_sends(&self, msg: &str, seed: u32) -> (String, i32) {
        self.lead(&format!("TEAM_ID_SEED={seed} team send rev {} </dev/null", common::shell_quote(msg)))
    }
    /// Runs `line` in the lead's pane: a new one, the lead's earlier pane closed first (two
    /// panes marked one seat vouch for neither).
    fn lead(&self, line: &str) -> (String, i32) {
        let panes = self.tw.tmux(&["list-panes", "-a", "-F", "#{pane_id} #{@team-seat}"]);
        for l in String::from_utf8_lossy(&panes.stdout).lines() {
            if let Some(p) = l.strip_suffix(" lead") {
                assert!(self.tw.tmux(&["kill-pane", "-t", p]).status.success());
            }
        }
        in_pane(&self.tw, &self.w, "lead", line)
    }
    /// What rev's hooks handed its model, in order.
    fn handed(&self) -> Vec<(String, String)> {
        let text = std::fs::read_to_string(self.logs.path().join("rev.hooks")).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| Some((v["event"].as_str()?.to_string(), v["text"].as_str()?.to_string())))
            .collect()
    }
    /// The message files waiting in rev's inbox.
    fn waiting(&self) -> usize {
        let mut n = 0;
        for e in std::fs::read_dir(&self.w.config).into_iter().flatten().flatten() {
            let dir = e.path().join("inbox/beacon/rev");
            n += std::fs::read_dir(&dir).into_iter().flatten().flatten().filter(|f| f.path().is_file()).count();
        }
        n
    }
    /// The tokens of sends still waiting for a receipt (`sends/` of rev's inbox).
    fn tokens(&self) -> usize {
        let mut n = 0;
        for e in std::fs::read_dir(&self.w.config).into_iter().flatten().flatten() {
            let dir = e.path().join("inbox/beacon/rev/sends");
            n += std::fs::read_dir(&dir).into_iter().flatten().count();
        }
        n
    }
}

#[test]
fn an_agent_s_send_to_a_working_seat_is_queued_at_once_and_the_hook_writes_the_delivery() {
    let s = scene("already-working", None);
    let (out, code) = s.lead_sends("review the branch", 7);
    let h = s.history();
    let id = h[0]["id"].as_str().unwrap().to_string();
    assert_eq!(code, 0, "{out}");
    let drop = s.drop_of("rev");
    assert_eq!(
        out,
        format!(
            "team beacon, session \"beacon\"\nrev: queued in rev's inbox (id {id}): its CLI takes it at its next tool call or turn end; nothing was typed; the message is at {}\n",
            drop.display()
        )
    );
    // the send's own line says queued, never delivered; no token: the hook owns the delivery
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("queued"), Some("mcp-inbox")), "{h:?}");
    assert_eq!(h[0]["from"], "lead");
    assert_eq!(s.tokens(), 0, "the send waits for no receipt");
    assert_eq!(s.bytes("rev"), "", "nothing typed into a working seat");
    // the next PostToolUse hook hands it, once, and writes the delivered line itself
    s.wait("the hook's delivered line", || s.history().iter().any(|l| l["outcome"] == "delivered"));
    let h = s.history();
    assert_eq!(h.len(), 2, "the send's line and the hook's: {h:?}");
    assert_eq!((h[1]["id"].as_str(), h[1]["via"].as_str()), (Some(id.as_str()), Some("mcp-inbox")), "{h:?}");
    assert_eq!((h[1]["from"].as_str(), h[1]["note"].as_str()), (Some("lead"), Some("handed by its PostToolUse hook")));
    s.wait("the hand-over in the seat's log", || !s.handed().is_empty());
    let handed = s.handed();
    assert_eq!(handed.len(), 1, "{handed:?}");
    assert!(handed[0].1.starts_with("A message for you from lead (admitted by lead of beacon; id "), "{}", handed[0].1);
    assert_eq!(s.waiting(), 0);
    // --json: the team.send document says queued, exit 0
    let (out, code) = s.lead("TEAM_ID_SEED=8 team send rev 'and the tests' --json </dev/null");
    assert_eq!(code, 0, "{out}");
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    common::validate(&doc).unwrap();
    assert_eq!((doc["status"].as_str(), doc["channel"].as_str()), (Some("queued"), Some("mcp-inbox")), "{doc}");
    assert!(doc["action_summary"].as_str().unwrap().starts_with("rev: queued in rev's inbox (id "), "{doc}");
    // the feed shows both, the delivery last
    let feed = s.w.team(&["feed", "--json"]);
    assert_eq!(feed.code, 0, "{feed:?}");
    assert!(
        feed.stdout.contains("\"queued\"") && feed.stdout.contains("handed by its PostToolUse hook"),
        "{}",
        feed.stdout
    );
}

#[test]
fn an_agent_s_send_to_a_seat_at_a_dialog_is_held_at_once_and_the_owner_told() {
    // no time scale: the window is the spec's 20 s, which an agent's send does not wait out
    let s = scene("dialog:permission", None);
    let log = s.w.base().join("notify.log");
    let file = std::fs::read_to_string(s.w.repo.join(".agents/team.yaml")).unwrap();
    s.w.team_file(&format!(
        "{file}notify:\n  command: [sh, -c, 'printf \"%s\\n\" \"$1\" >> \"{}\"', notify]\n",
        log.display()
    ));
    s.w.trust_notify();
    let (out, code) = s.lead_sends("review the branch", 7);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("rev: held (in rev's inbox: its CLI takes it at its next tool call or turn end; nothing was typed (it shows a permission dialog: it rides the next hook after the dialog is answered); the message is at "),
        "{out}"
    );
    assert_eq!((s.waiting(), s.tokens()), (1, 0), "queued, and no send waits for its receipt");
    assert_eq!(s.bytes("rev"), "", "zero keys at a dialog");
    let h = s.history();
    assert_eq!((h[0]["outcome"].as_str(), h[0]["via"].as_str()), (Some("held"), Some("mcp-inbox")), "{h:?}");
    let told = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(told.starts_with("lead -> rev: held ("), "the owner is told at once: {told}");
}

#[test]
fn a_queued_message_no_hook_takes_is_the_watch_s_as_a_held_one_is() {
    // hooks installed, but the CLI runs none: the seat works, then finishes its turn
    let s = scene("already-working,no-hooks,ends-when-told", Some("0.05"));
    let (out, code) = s.lead_sends("review the branch", 7);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("rev: queued in rev's inbox (id "), "{out}");
    let id = s.history()[0]["id"].as_str().unwrap().to_string();
    let watch = crate::watch_tmux::start_watch(&s.w, &s.tw, &[]);
    let mark = || {
        std::fs::read_dir(&s.w.config)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().join("watch-seen-working").join(&id).exists())
    };
    assert!(s.tw.wait_until(common::BOUND, mark), "the watch never marked the seat seen working");
    assert_eq!(s.bytes("rev"), "", "nothing typed into a working seat");
    std::fs::write(s.logs.path().join("rev.end"), "").unwrap();
    let said = "rev: a send from lead waited in its inbox while the seat worked and finished its turn, and its CLI ran none of team's hooks (team hooks status rev); it is typed instead";
    let typed_and_said = || s.history().len() == 2 && watch.stdout().contains(said);
    assert!(s.tw.wait_until(common::BOUND, typed_and_said), "{}{}", watch.stdout(), watch.stderr());
    assert_eq!(s.bytes("rev").matches("Please read the team message at ").count(), 1, "typed once");
    let h = s.history();
    assert_eq!((h[1]["outcome"].as_str(), h[1]["via"].as_str()), (Some("delivered"), Some("typed")), "{h:?}");
    assert_eq!(s.waiting(), 0, "withdrawn from the inbox before the trigger");
}

/// A reply's scene: `lead` idle (it takes a typed line) and `rev` working all along whose CLI
/// runs none of team's hooks (so nothing takes a message from its inbox; `hooks`: it runs them,
/// a tool call every 150 ms), both in the checkout with hooks installed, each with a shell tool
/// (`common::tool`) below its pane's shell.
struct Replies {
    base: common::scene::Scene,
    lead: Tool,
    rev: Tool,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for Replies {
    type Target = common::scene::Scene;
    fn deref(&self) -> &common::scene::Scene {
        &self.base
    }
}

fn replies(hooks: bool) -> Replies {
    let w = World::empty();
    w.team_file(
        "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: lead\n    role: lead\n    cli: claude-code\n    leads: true\n  - name: rev\n    role: worker\n    cli: claude-code\n",
    );
    common::scene::install_hooks(&w);
    let dir = tempfile::Builder::new().prefix("team-tmux-").tempdir().unwrap();
    let (lead, rev) = (Tool::new(dir.path().join("lead")), Tool::new(dir.path().join("rev")));
    let l = SeatSpec::new("lead", "claude-code", "takes-line").cwd(&w.repo).delay(300).beside(&lead.beside());
    let mode = if hooks { "already-working" } else { "already-working,no-hooks" };
    let r = common::scene::hooked_seat(&w, dir.path(), "rev", "claude-code", mode).beside(&rev.beside());
    let tw = TmuxWorld::start("beacon", &[l, r]);
    Replies { base: common::scene::Scene::of(w, tw, None), lead, rev, _dir: dir }
}

const Q: &str = "00000000-0000-4007-8000-000000000000";
const A: &str = "00000000-0000-4008-8000-000000000000";

/// issue 29 item 6's class: a reply from an agent (`team reply` through its shell tool) to a
/// seat mid-turn waited out the inbox leg's 20 s window whoever sent it, and ended `held`,
/// exit 1. An agent's reply is answered as its send is: `queued` as soon as it is safely in
/// the asker's inbox, exit 0; and it counts as the question's answer.
#[test]
fn an_agent_s_reply_to_a_working_seat_is_queued_at_once() {
    let s = replies(false);
    let asked = s.rev.run(&s.w, "TEAM_ID_SEED=7 team send lead 'is the gate green?'");
    assert_eq!((asked.code, asked.out.lines().last()), (0, Some("lead: delivered")), "{asked:?}");
    let r = s.lead.run(&s.w, &format!("TEAM_ID_SEED=8 team reply {Q} 'green since 09:00'"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.out.contains(&format!("rev: queued in rev's inbox (id {A}): its CLI takes it at its next tool call or turn end; nothing was typed; the message is at ")),
        "{r:?}"
    );
    // the spec's window is 20 s (no time scale here): an agent's reply does not wait it out
    assert!(r.took < std::time::Duration::from_secs(10), "the reply held its caller {:?}", r.took);
    let h = s.history();
    let line = h.iter().find(|l| l["id"] == A).unwrap_or_else(|| panic!("{h:?}"));
    assert_eq!((line["outcome"].as_str(), line["reply_to"].as_str()), (Some("queued"), Some(Q)), "{h:?}");
    assert_eq!(s.bytes("rev").matches("Please read").count(), 0, "nothing typed into a working seat");
    // a queued reply is the answer: a second one is refused with the way out
    let again = s.lead.run(&s.w, &format!("TEAM_ID_SEED=9 team reply {Q} 'still green'"));
    assert_eq!(again.code, 1, "{again:?}");
    assert!(
        again.err.contains(&format!("you already answered {Q} (reply {A}, queued); a question is answered once")),
        "{again:?}"
    );
    // --json (--again): the team.reply document says queued
    let j = s.lead.run(&s.w, &format!("TEAM_ID_SEED=10 team reply {Q} --again 'and the docs' --json"));
    assert_eq!(j.code, 0, "{j:?}");
    assert!(j.took < std::time::Duration::from_secs(10), "{j:?}");
    let doc: Value = serde_json::from_str(&j.out).unwrap_or_else(|e| panic!("{e}: {j:?}"));
    common::validate(&doc).unwrap();
    assert_eq!((doc["status"].as_str(), doc["channel"].as_str()), (Some("queued"), Some("mcp-inbox")), "{doc}");
}

/// The same through the MCP tool `team_reply` (the agent's CLI runs `team mcp` below its pane).
#[test]
fn an_agent_s_mcp_reply_to_a_working_seat_is_queued_at_once() {
    use crate::mcp_stdio::{call, hello, input, result};
    let s = replies(false);
    let asked = s.rev.run(&s.w, "TEAM_ID_SEED=7 team send lead 'is the gate green?'");
    assert_eq!((asked.code, asked.out.lines().last()), (0, Some("lead: delivered")), "{asked:?}");
    let mut lines = hello();
    lines.push(call(2, "team_reply", serde_json::json!({"id": Q, "message": "green since 09:00"})));
    let file = input(&s.w, "reply.jsonl", &lines);
    let r = s.lead.run(&s.w, &format!("TEAM_ID_SEED=8 team mcp < {file}"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.took < std::time::Duration::from_secs(10), "the tool call was held {:?}", r.took);
    let all = crate::mcp_stdio::answers(&r.out);
    let (err, text, doc) = result(&all, 2);
    assert!(!err, "{text}");
    assert!(text.starts_with(&format!("rev: queued in rev's inbox (id {A}): ")), "{text}");
    assert_eq!(doc["status"].as_str(), Some("queued"), "{doc}");
}

/// The hook that hands a queued reply writes its `delivered` line as the reply's own line is
/// written: answering the question (`reply_to`), so the feed threads both under it.
#[test]
fn the_hook_s_delivered_line_of_a_queued_reply_names_its_question() {
    let s = replies(true);
    let asked = s.rev.run(&s.w, "TEAM_ID_SEED=7 team send lead 'is the gate green?'");
    assert_eq!((asked.code, asked.out.lines().last()), (0, Some("lead: delivered")), "{asked:?}");
    let r = s.lead.run(&s.w, &format!("TEAM_ID_SEED=8 team reply {Q} 'green since 09:00'"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.out.contains(&format!("rev: queued in rev's inbox (id {A}): ")), "{r:?}");
    let delivered = || s.history().into_iter().find(|l| l["id"] == A && l["outcome"] == "delivered");
    s.wait("the hook's delivered line", || delivered().is_some());
    let line = delivered().unwrap();
    assert_eq!((line["reply_to"].as_str(), line["from"].as_str()), (Some(Q), Some("lead")), "{line}");
    assert_eq!(line["note"].as_str(), Some("handed by its PostToolUse hook"), "{line}");
}

/// Every other way an agent reaches the legs stays as its caller says: `team send all` and the
/// MCP `team_send` to `["all"]` from the lead's shell tool, rev working with no hook run, are
/// answered `queued` for rev at once (a regression guard: `send::carry` is the one way).
#[test]
fn an_agent_s_broadcast_and_mcp_send_to_a_working_seat_are_queued_at_once() {
    use crate::mcp_stdio::{call, hello, input, result};
    let s = replies(false);
    let all = s.lead.run(&s.w, "TEAM_ID_SEED=7 team send all 'the gate is green'");
    assert_eq!(all.code, 0, "{all:?}");
    assert!(all.took < std::time::Duration::from_secs(10), "the broadcast held its caller {:?}", all.took);
    assert!(all.out.contains("rev: queued in rev's inbox (id "), "{all:?}");
    assert!(all.out.contains("0 of 1 delivered; 1 queued"), "{all:?}");
    let mut lines = hello();
    lines.push(call(2, "team_send", serde_json::json!({"to": ["all"], "message": "and the docs"})));
    let file = input(&s.w, "send.jsonl", &lines);
    let r = s.lead.run(&s.w, &format!("TEAM_ID_SEED=8 team mcp < {file}"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.took < std::time::Duration::from_secs(10), "the tool call was held {:?}", r.took);
    let answers = crate::mcp_stdio::answers(&r.out);
    let (err, text, doc) = result(&answers, 2);
    assert!(!err, "{text}");
    assert_eq!(doc["recipients"][0]["outcome"].as_str(), Some("queued"), "{doc}");
    let h = s.history();
    assert!(h.iter().all(|l| l["outcome"] == "queued"), "{h:?}");
    assert_eq!(s.bytes("rev").matches("Please read").count(), 0, "nothing typed into a working seat");
}
