//! `docs/first-team.md`, run as written, with the real Claude Code and Codex offline: the
//! page's own `sh` blocks are read from the page and run in order from one terminal outside the
//! team's tmux server (the owner's), so the test fails when the page and the product drift.
//!
//! What the page leaves to the user's hands is done the way `docs/offline-vendor-clis.md` says
//! it leaves the CLIs: signed in once (the mock as their model, the folder trusted) and `team`
//! on the login shell's PATH (`~/.profile`). The user's `tmux` is the world's own server: the
//! terminal's `TMUX_TMPDIR` is a folder of the world, so the page's plain `tmux` and `team`
//! both reach it, and it runs in the world's network namespace (every block does).
//!
//! Proved at the end: `team init` wrote each seat's launch as a line to edit; the first plain
//! `team up` (hooks and MCP installed) brought keeper (Claude Code) to its prompt with no
//! question and left rev (Codex) at its hooks question, as the page shows; answered as the page
//! says, the second `team up` recorded rev; the owner's message reached keeper, keeper asked
//! whom it may reach (`team_list`) and sent to rev (`team_send`), rev answered keeper with its
//! own `team_send` — each call's result as the calling model got it, its history line (`from`,
//! the admitting rule), and the receiving model's request carrying the message; the feed shows
//! the rows the page shows; each model was given the MCP server's instructions; `team down`
//! left no claude or codex process.

use super::checks::header;
use super::harness::{claude_env, signed_in_claude, signed_in_codex, RealWorld, Seat};
use crate::common::scene::wait;
use crate::common::{self, shell_quote, Run};
use serde_json::{json, Value};
use std::path::Path;

const PAGE: &str = "docs/first-team.md";
const CONTEXT: &str = "team shop, session \"shop\"";

/// One fenced block of the page: the `## ` heading above it, its language, its text.
#[derive(Debug, Clone)]
struct Block {
    section: String,
    lang: String,
    text: String,
}

/// The page's fenced blocks, in order.
fn page() -> Vec<Block> {
    let text = std::fs::read_to_string(super::harness::repo_dir().join(PAGE)).unwrap();
    let (mut out, mut section, mut open): (Vec<Block>, String, Option<Block>) = (vec![], String::new(), None);
    for line in text.lines() {
        match open.as_mut() {
            Some(b) if line.starts_with("```") => {
                out.push(b.clone());
                open = None;
            }
            Some(b) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            None if line.starts_with("```") => {
                open = Some(Block { section: section.clone(), lang: line[3..].trim().into(), text: String::new() })
            }
            None if line.starts_with("## ") => section = line[3..].to_string(),
            None => {}
        }
    }
    out
}

/// The `n`-th block (from 0) of the section whose heading starts with `section`, of language
/// `lang` (`""`: a block of output).
fn block<'a>(blocks: &'a [Block], section: &str, lang: &str, n: usize) -> &'a str {
    blocks
        .iter()
        .filter(|b| b.section.starts_with(section) && b.lang == lang)
        .nth(n)
        .map(|b| b.text.as_str())
        .unwrap_or_else(|| {
            panic!(
                "{PAGE} has no block #{n} of language {lang:?} under \"## {section}\": the page and this test drifted"
            )
        })
}

/// Runs one of the page's blocks in `cwd`, as the owner: from a terminal (a pseudo-terminal
/// the test holds), outside the tmux server, in the world's network namespace; `-e`: a block
/// stops at its first failing command, as a user would.
fn run(rw: &RealWorld, cwd: &Path, text: &str) -> Run {
    let line = format!("nsenter {} -- bash -e -c {}", rw.netns_arg(), shell_quote(text));
    rw.w.sh_in(&line, cwd)
}

fn ok(r: &Run, what: &str) {
    assert_eq!(r.code, 0, "{what}: {r:?}");
}

/// The one pane of window `window` of session `shop`, as a seat of the harness.
fn pane(rw: &RealWorld, window: &str) -> Seat {
    let out = rw.tmux(&["display-message", "-p", "-t", &format!("=shop:{window}"), "#{pane_id}"]);
    assert!(out.status.success(), "no window {window}: {}", String::from_utf8_lossy(&out.stderr));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Seat { name: window.into(), pane, home: rw.w.home.clone() }
}

#[test]
fn the_first_team_page_runs_as_written_with_the_real_claude_code_and_codex() {
    let blocks = page();
    let mut rw = RealWorld::bare(Path::new("work/shop"), "shop");
    let work = rw.top().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let repo = rw.w.repo.clone();

    // The user's terminal: team, tmux, claude and codex on PATH; a tmux of its own.
    let team_dir = common::team_bin().parent().unwrap().display().to_string();
    let path = format!("{team_dir}:{}:/usr/local/bin:/usr/bin:/bin", rw.cli_dir().display());
    let tmux_tmp = rw.top().join("tmux-tmp");
    std::fs::create_dir_all(&tmux_tmp).unwrap();
    rw.sock = tmux_tmp.join(format!("tmux-{}", nix::unistd::geteuid())).join("default");
    rw.w.extra_env.extend([
        ("PATH".to_string(), path),
        ("TMUX_TMPDIR".into(), tmux_tmp.display().to_string()),
        ("TERM".into(), "xterm-256color".into()),
        ("COLORTERM".into(), "truecolor".into()),
        ("MOCK_API_KEY".into(), "mock-key".into()),
    ]);
    rw.w.extra_env.extend(claude_env());

    // 0. What you need: the four commands found, on the login shell's PATH too; each CLI
    // signed in once (here: the mock as its model, the folder trusted).
    let r = run(&rw, &work, block(&blocks, "0.", "sh", 0));
    ok(&r, "step 0");
    assert_eq!(r.stdout.lines().count(), 4, "{r:?}");
    // (tmux starts each pane's shell as a login shell, whose /etc/profile sets PATH anew)
    let login_path = format!("{team_dir}:{}", rw.cli_dir().display());
    std::fs::write(rw.w.home.join(".profile"), format!("export PATH=\"{login_path}:$PATH\"\n")).unwrap();
    signed_in_claude(&rw.w.home, &repo);
    signed_in_codex(&rw.w.home.join(".codex"), &repo);

    // 1. The project and its team file (from the empty folder: `mkdir shop && cd shop`).
    let r = run(&rw, &work, block(&blocks, "1.", "sh", 0));
    ok(&r, "step 1");
    let text = std::fs::read_to_string(repo.join(".agents/team.yaml")).unwrap();
    let file: Value = serde_saphyr::from_str(&text).unwrap();
    let seats = file["seats"].as_array().unwrap();
    assert_eq!((seats[0]["name"].as_str(), seats[0]["leads"].as_bool()), (Some("keeper"), Some(true)), "{file}");
    assert_eq!(seats[1]["name"].as_str(), Some("rev"), "{file}");
    for line in ["    # launch: claude   #", "    # launch: codex --no-daemon   #"] {
        assert!(text.contains(line), "team init writes each seat's launch for the person to edit: {text}");
    }

    // 2. team up: hooks and MCP entries written first; Claude Code starts with no question (the
    // owner's approval team up wrote), Codex asks about the new hooks — the page's lines.
    let r = run(&rw, &repo, block(&blocks, "2.", "sh", 0));
    let keeper = pane(&rw, "keeper");
    let rev = pane(&rw, "rev");
    let at = |s: &str| s.replace("%0", &keeper.pane).replace("%1", &rev.pane);
    let want = at(block(&blocks, "2.", "", 0));
    assert_eq!((r.stdout.as_str(), r.code), (want.as_str(), 1), "the first `team up` is not what {PAGE} shows: {r:?}");
    // the person answers Codex's question as the page says: `2`, then Enter
    rw.wait_screen(&rev, "Codex's hooks question", |s| s.contains("Hooks need review"));
    super::up::answer_codex_hooks(&rw, &rev.pane);
    let r = run(&rw, &repo, block(&blocks, "2.", "sh", 1));
    ok(&r, "step 2, team up again");
    assert_eq!(r.stdout, at(block(&blocks, "2.", "", 1)), "the second `team up` is not what {PAGE} shows: {r:?}");

    // 3. Messages, through the MCP server's tools. keeper's model reads the owner's message,
    // asks whom it may reach (team_list), sends to rev (team_send); rev's reads keeper's and
    // answers keeper with its team_send; keeper's reads that. keeper's first read waits until
    // the script knows the first drop's id (so keeper's second message, rev's answer, only gets
    // read); rev's answer waits until keeper's turn has ended.
    let (to_rev, to_keeper) = ("is the parser branch ready?", "rev here: yes, the parser branch passes its tests");
    let names = ["team_send", "team_list", "team_inbox", "team_reply", "team_ack"].map(|t| format!("mcp__team__{t}"));
    let keeper_rule = |when: &str| {
        json!({ "when": when, "steps": [
            { "read": "@trigger", "hold": "keeper-reads" },
            { "tool": "ToolSearch", "input": { "query": format!("select:{}", names.join(",")) } },
            { "tool": "mcp__team__team_list", "input": {} },
            { "tool": "mcp__team__team_send", "input": { "to": ["rev"], "message": to_rev } },
            { "text": "Asked rev." },
        ]})
    };
    let rev_rule = json!({ "when": "send-drops/shop/rev/", "steps": [
        { "read": "@trigger" },
        { "tool": "team_send", "namespace": "mcp__team", "hold": "rev-answers",
          "input": { "to": ["keeper"], "message": to_keeper } },
        { "text": "Answered keeper." },
    ]});
    rw.mock.script(json!({ "root": repo, "rules": [keeper_rule("send-drops/shop/keeper/"), rev_rule.clone()] }));
    let send = block(&blocks, "3.", "sh", 0);
    let owner_body = send
        .trim()
        .strip_prefix("team send keeper \"")
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{PAGE}'s step 3 is no longer `team send keeper \"<message>\"`: {send}"));
    let r = run(&rw, &repo, send);
    assert_eq!((r.stdout.as_str(), r.code), (format!("{CONTEXT}\nkeeper: delivered\n").as_str(), 0), "{r:?}");
    let first = rw.drops("keeper")[0].clone();
    let first_id = super::checks::id_of(&first);
    rw.mock.script(json!({ "root": repo, "rules": [keeper_rule(&first_id), rev_rule] }));
    rw.mock.open("keeper-reads");

    // keeper: the owner's message read, whom it may reach, the send to rev and its outcome
    let trig = |d: &Path| format!("Please read the team message at {}", d.strip_prefix(&repo).unwrap().display());
    let read = rw.mock.wait_result("anthropic", &trig(&first), 1);
    assert!(read.contains(owner_body), "keeper's model was not given the owner's message: {read}");
    let list = rw.mock.wait_result("anthropic", &trig(&first), 3);
    let doc: Value = serde_json::from_str(&list).unwrap_or_else(|e| panic!("{e}: {list}"));
    let admits = |seat: &str| {
        doc["seats"].as_array().unwrap().iter().find(|s| s["name"] == seat).unwrap()["admitted_by"].clone()
    };
    assert_eq!(admits("rev"), "lead of shop", "{doc}");
    let out = rw.mock.wait_result("anthropic", &trig(&first), 4);
    let sent: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let row = &sent["recipients"][0];
    assert_eq!((row["seat"].as_str(), row["outcome"].as_str()), (Some("rev"), Some("delivered")), "{sent}");
    rw.wait_screen(&keeper, "keeper's turn ended", |s| s.contains("Asked rev.") && !s.contains("esc to interrupt"));

    // rev: keeper's message read; its answer to keeper and its outcome
    let to_rev_drop = rw.drops("rev");
    assert_eq!(to_rev_drop.len(), 1, "{to_rev_drop:?}");
    let read = rw.mock.wait_result("openai", &trig(&to_rev_drop[0]), 1);
    assert!(read.contains(to_rev), "rev's model was not given keeper's message: {read}");
    rw.mock.open("rev-answers");
    let out = rw.mock.wait_result("openai", &trig(&to_rev_drop[0]), 2);
    assert!(out.contains("\"delivered\"") && out.contains("\"keeper\""), "what rev's team_send gave it: {out}");

    // keeper: rev's answer read
    wait("rev's answer's drop", || rw.drops("keeper").len() == 2);
    let answer = rw.drops("keeper").into_iter().find(|d| *d != first).unwrap();
    let read = rw.mock.wait_result("anthropic", &trig(&answer), 1);
    assert!(read.contains(to_keeper), "keeper's model was not given rev's answer: {read}");

    // the history: who sent, to whom, admitted by which rule, each drop's id
    let h = rw.history();
    let rows: Vec<(String, String, String, String)> = h
        .iter()
        .map(|l| {
            let s = |k: &str| l[k].as_str().unwrap_or("").to_string();
            (s("from"), s("to"), s("outcome"), s("id"))
        })
        .collect();
    let id = |p: &Path| super::checks::id_of(p);
    assert_eq!(
        rows,
        vec![
            ("owner".into(), "keeper".into(), "delivered".into(), id(&first)),
            ("keeper".into(), "rev".into(), "delivered".into(), id(&to_rev_drop[0])),
            ("rev".into(), "keeper".into(), "delivered".into(), id(&answer)),
        ],
        "{h:#?}"
    );
    // team up recorded each seat: its sends name it by its agent id
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(repo.join(".agents/team.state.json")).unwrap()).unwrap();
    let agent = |seat: &str| state["sessions"]["shop"]["seats"][seat]["id"].as_str().unwrap().to_string();
    let recorded =
        |seat: &str, rule: &str| format!("from {} ({seat}, seat {seat}@shop) — admitted by: {rule}", agent(seat));
    for (line, (who, body)) in h.iter().zip([
        (header("owner", "the owner"), owner_body),
        (recorded("keeper", "lead of shop"), to_rev),
        (recorded("rev", "own lead"), to_keeper),
    ]) {
        assert_eq!(line["body"].as_str(), Some(format!("{who}\n\n{body}").as_str()), "{line}");
    }

    // the feed: the rows the page shows (its times and milliseconds aside)
    let follow = block(&blocks, "3.", "sh", 1);
    assert_eq!(follow.trim(), "team feed --follow", "{PAGE}'s step 3 follows the feed");
    let feed = run(&rw, &repo, "team feed");
    ok(&feed, "team feed");
    // (the page's agent ids stand for the ones team up recorded here)
    let rows = block(&blocks, "3.", "", 0)
        .replace("agt_3f9c0a7d51e2b846", &agent("keeper"))
        .replace("agt_8d2e61b0c4a97f13", &agent("rev"));
    for row in rows.lines().skip(1) {
        // TIME, KIND, SEAT, DETAIL: columns two spaces apart
        let cols: Vec<&str> = row.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
        let [_, kind, seat, detail] = cols[..] else { panic!("a feed row of {PAGE} that is not 4 columns: {row:?}") };
        let kind = kind.split(" in ").next().unwrap();
        let detail = detail.trim_end_matches('…').trim_end();
        assert!(
            feed.stdout.lines().any(|l| l.contains(kind) && l.contains(seat) && l.contains(detail)),
            "the feed has no row like {PAGE}'s {row:?} ({kind:?}, {seat:?}, {detail:?}):\n{}",
            feed.stdout
        );
    }

    // each model was given the MCP server's instructions (Claude's system prompt, Codex's
    // namespace description)
    let mark = "team_inbox lists the messages waiting for you with their ids";
    for api in ["anthropic", "openai"] {
        let given = rw.mock.main_requests(api).iter().any(|r| r.body.to_string().contains(mark));
        assert!(given, "the {api} model was never given the team MCP server's instructions");
    }

    // When you are done: both at empty prompts once keeper's last turn ended, team down
    super::up::wait_idle(&rw, "keeper");
    super::up::wait_idle(&rw, "rev");
    let done = block(&blocks, "When you are done", "sh", 0);
    let t = std::time::Instant::now();
    let r = run(&rw, &repo, done);
    eprintln!("team down: {} ms\n{}", t.elapsed().as_millis(), r.stdout);
    ok(&r, "team down");
    let left: Vec<String> =
        rw.processes().into_iter().filter(|c| c.contains("claude") || c.contains("codex")).collect();
    assert_eq!(left, Vec::<String>::new(), "a CLI outlived team down");
}
