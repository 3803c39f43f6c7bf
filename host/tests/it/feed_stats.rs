//! `team feed --stats` over a generated history of 10,000 lines (spread over `messages.jsonl.2`,
//! `.1` and the current file, with the receipts beside them): every figure checked against the
//! count the generator keeps as it writes — what each message's fate was decided to be — never
//! against the crate's own fold.

use crate::common::{self, World};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

const TEAM: &str = "format: 1
project: beacon
session: beacon
seats:
  - name: claude-keeper
    cli: claude-code
  - name: gpt-reviewer
    cli: codex
  - name: cursor-dev
    cli: cursor
  - name: grok-dev
    cli: grok-cli
";

/// (seat, the cli its lines name — `None`: a line of a leg that loaded no profile —, profile).
const KINDS: [(&str, Option<&str>, &str); 5] = [
    ("claude-keeper", Some("claude-code"), "0.1.0"),
    ("gpt-reviewer", Some("codex"), "0.1.0"),
    ("gpt-reviewer", Some("codex"), "0.2.0"),
    ("cursor-dev", Some("cursor"), "0.1.0"),
    ("grok-dev", None, "-"),
];

struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// What the generator expects for one (cli, profile).
#[derive(Default, Debug)]
struct Want {
    sends: u64,
    delivered: u64,
    read: u64,
    taken: u64,
    held: u64,
    not_submitted: u64,
    unreachable: u64,
    to_delivered: Vec<u64>,
    to_read: Vec<u64>,
}

fn nearest_rank(v: &mut [u64], p: f64) -> Option<u64> {
    if v.is_empty() {
        return None;
    }
    v.sort();
    let rank = (p * v.len() as f64).ceil() as usize;
    Some(v[rank.max(1) - 1])
}

fn ts(second: u64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339("2026-11-29T08:00:00Z").unwrap()
        + chrono::Duration::seconds(second as i64);
    t.with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[test]
fn stats_over_ten_thousand_lines_match_an_independent_count() {
    let w = World::empty();
    w.team_file(TEAM);
    let mut rng = Rng(20261201);
    let mut lines: Vec<Value> = Vec::new();
    let mut receipts: Vec<Value> = Vec::new();
    // Follow-up lines wait a few messages: the history interleaves them.
    let mut later: Vec<(usize, Value)> = Vec::new();
    let mut want: BTreeMap<(String, String), Want> = BTreeMap::new();
    let mut clock = 0u64;
    let mut n = 0usize;
    while lines.len() < 10_000 {
        n += 1;
        clock += 1 + rng.next(3);
        let (seat, cli, profile) = KINDS[rng.next(KINDS.len() as u64) as usize];
        let key_cli = cli.map(str::to_string).unwrap_or_else(|| match seat {
            "grok-dev" => "grok-cli".to_string(),
            _ => unreachable!(),
        });
        let wt = want.entry((key_cli, profile.to_string())).or_default();
        wt.sends += 1;
        let id = format!("00000000-0000-4000-8000-{n:012x}");
        let ms = 50 + rng.next(20_000);
        let base = |outcome: &str, when: u64, ms: u64| {
            let mut l = json!({"ts": ts(when), "from": "owner", "to": seat,
                "body": format!("from the owner — admitted by: the owner\n\nmessage {n} {}", "x".repeat(rng_len(n))),
                "id": id, "outcome": outcome, "ms": ms, "via": "typed",
                "failed": ["native: the CLI carries no native channel", "mcp-inbox: its CLI has no team hooks installed"]});
            if let Some(c) = cli {
                l["cli"] = json!(c);
                l["profile"] = json!(profile);
            }
            l
        };
        let fate = if cli.is_none() { 7 } else { rng.next(8) };
        match fate {
            // delivered, confirmed by the send
            0 | 1 => {
                lines.push(base("delivered", clock, ms));
                wt.delivered += 1;
                wt.read += 1;
                wt.to_delivered.push(ms);
                wt.to_read.push(ms);
            }
            // taken; the watch later finds the sign
            2 => {
                let mut l = base("delivered", clock, ms);
                l["note"] = json!("taken, not yet confirmed");
                lines.push(l);
                let r = ms + 1_000 + rng.next(60_000);
                later.push((n + 3, json!({"ts": ts(clock + 60), "id": id, "to": seat, "receipt": "read", "sign": "transcript", "ms": r})));
                wt.delivered += 1;
                wt.read += 1;
                wt.to_delivered.push(ms);
                wt.to_read.push(r);
            }
            // taken; never acted on (the watch's later line), or nothing yet
            3 => {
                let mut l = base("delivered", clock, ms);
                l["note"] = json!("queued, not yet confirmed");
                lines.push(l);
                if rng.next(2) == 0 {
                    let mut never = base("delivered", clock + 1800, 0);
                    never["note"] = json!("taken but never acted on");
                    never.as_object_mut().unwrap().remove("ms");
                    never.as_object_mut().unwrap().remove("via");
                    later.push((n + 2, never));
                }
                wt.delivered += 1;
                wt.taken += 1;
                wt.to_delivered.push(ms);
            }
            // held, then delivered by the watch's second try
            4 => {
                let held_ms = 20 + rng.next(100);
                let mut l = base("held", clock, held_ms);
                l.as_object_mut().unwrap().remove("via");
                lines.push(l);
                let mut r1 = base("held", clock + 10, 30);
                r1["retry"] = json!(1);
                r1.as_object_mut().unwrap().remove("via");
                later.push((n + 1, r1));
                let mut r2 = base("delivered", clock + 40, ms);
                r2["retry"] = json!(2);
                later.push((n + 4, r2));
                wt.delivered += 1;
                wt.read += 1;
                wt.to_delivered.push(40_000 + held_ms);
                wt.to_read.push(40_000 + held_ms);
            }
            // held for good: three retries and a stop
            5 => {
                let mut l = base("held", clock, 40);
                l.as_object_mut().unwrap().remove("via");
                lines.push(l);
                for k in 1..=3 {
                    let mut r = base("held", clock + 10 * k, 30);
                    r["retry"] = json!(k);
                    r.as_object_mut().unwrap().remove("via");
                    later.push((n + k as usize, r));
                }
                later.push((n + 4, json!({"ts": ts(clock + 31), "id": id, "to": seat, "receipt": "retries-stopped", "why": "after 3 tries"})));
                wt.held += 1;
            }
            6 => {
                lines.push(base("not-submitted", clock, ms));
                wt.not_submitted += 1;
            }
            _ => {
                let mut l = base("unreachable", clock, ms);
                l.as_object_mut().unwrap().remove("via");
                lines.push(l);
                wt.unreachable += 1;
            }
        }
        // Due follow-ups go in now, in the order they fall due.
        let (due, rest): (Vec<_>, Vec<_>) = later.drain(..).partition(|(at, _)| *at <= n);
        later = rest;
        for (_, v) in due {
            if v.get("receipt").is_some() {
                receipts.push(v);
            } else {
                lines.push(v);
            }
        }
    }
    for (_, v) in later.drain(..) {
        if v.get("receipt").is_some() {
            receipts.push(v);
        } else {
            lines.push(v);
        }
    }
    assert!(lines.len() >= 10_000);

    // The history in its three files, oldest first, and the receipts beside it.
    let h = Sha256::digest(w.repo.as_os_str().as_bytes());
    let dir: PathBuf =
        w.config.join(format!("beacon-{}", h.iter().take(4).map(|b| format!("{b:02x}")).collect::<String>()));
    std::fs::create_dir_all(&dir).unwrap();
    let third = lines.len() / 3;
    for (name, part) in [
        ("messages.jsonl.2", &lines[..third]),
        ("messages.jsonl.1", &lines[third..2 * third]),
        ("messages.jsonl", &lines[2 * third..]),
    ] {
        let mut f = std::fs::File::create(dir.join(name)).unwrap();
        for l in part {
            writeln!(f, "{l}").unwrap();
        }
    }
    let mut f = std::fs::File::create(dir.join("receipts.jsonl")).unwrap();
    for r in &receipts {
        writeln!(f, "{r}").unwrap();
    }

    let r = w.team(&["feed", "--stats", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{}", r.stdout);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), want.len(), "{rows:#?}");
    let mut total_sends = 0;
    for row in rows {
        let key = (row["cli"].as_str().unwrap().to_string(), row["profile"].as_str().unwrap().to_string());
        let wt = want.get_mut(&key).unwrap_or_else(|| panic!("an unexpected row {key:?}"));
        let got = |k: &str| row[k].as_u64().unwrap();
        assert_eq!(
            [
                got("sends"),
                got("delivered"),
                got("read"),
                got("taken_not_confirmed"),
                got("held"),
                got("not_submitted"),
                got("unreachable"),
                got("other")
            ],
            [wt.sends, wt.delivered, wt.read, wt.taken, wt.held, wt.not_submitted, wt.unreachable, 0],
            "{key:?}"
        );
        for (field, values) in [("ms_to_delivered", &mut wt.to_delivered), ("ms_to_read", &mut wt.to_read)] {
            let n = values.len() as u64;
            let spread = json!({"median": nearest_rank(values, 0.5), "p90": nearest_rank(values, 0.9), "n": n});
            assert_eq!(row[field], spread, "{key:?} {field}");
        }
        total_sends += wt.sends;
    }
    assert_eq!(doc["total"]["sends"], total_sends);
    assert_eq!(total_sends as usize, n);

    // The plain table carries the same figures, one row per cli and profile and a total.
    let r = w.team(&["feed", "--stats"]);
    assert_eq!(r.code, 0);
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(out[0], "team beacon, session \"beacon\"");
    assert!(
        out[1].starts_with(
            "  CLI          PROFILE  SENDS  DELIVERED  READ  TAKEN  ACKED  HELD  NOT-SUBMITTED  UNREACHABLE"
        ),
        "{}",
        out[1]
    );
    assert_eq!(out.len(), 2 + want.len() + 1 + 1, "{}", r.stdout);
    assert!(out[out.len() - 2].starts_with("  all "), "{}", r.stdout);
    assert_eq!(out[out.len() - 1], format!("{n} sends"));
    let codex = out.iter().find(|l| l.starts_with("  codex        0.2.0")).unwrap();
    let k = &want[&("codex".to_string(), "0.2.0".to_string())];
    assert!(codex.contains(&format!(" {} ", k.sends)), "{codex}");

    // --seat narrows it to one seat's messages; --all reads every project.
    let r = w.team(&["feed", "--stats", "--json", "--seat", "grok-dev"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), 1);
    assert_eq!(doc["rows"][0]["cli"], "grok-cli");
    let r = w.team(&["feed", "--stats", "--json", "--all"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert!(doc["project"].is_null());
    assert_eq!(doc["total"]["sends"], total_sends);
    assert!(
        doc["rows"].as_array().unwrap().iter().any(|r| r["cli"] == "-"),
        "outside its checkout a line naming no cli is -"
    );
}

/// Bodies of a few lengths, so the lines are not all alike.
fn rng_len(n: usize) -> usize {
    (n * 7919) % 200
}

#[test]
fn an_empty_history_has_no_rows() {
    let w = World::empty();
    w.team_file(TEAM);
    let r = w.team(&["feed", "--stats"]);
    assert_eq!((r.stdout.as_str(), r.code), ("team beacon, session \"beacon\"\n0 sends\n", 0));
    let r = w.team(&["feed", "--stats", "--follow"]);
    assert_eq!(r.code, 2, "--stats counts once: {r:?}");
}
