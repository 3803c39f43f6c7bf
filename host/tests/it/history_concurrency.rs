//! The message history under concurrent writers, through the product's own path: 8 real
//! shells each run `team send --record` 500 times at once in the spec's beacon world, so
//! 4,000 `team` processes append to one `messages.jsonl` and it rotates at 1 MB on the way.
//! Every line of `messages.jsonl`, `.1` and `.2` parses, none is lost or doubled, each
//! writer's lines keep its order, no file passes 1 MB, and `team.log` has one whole line
//! per run. (The same property with a small rotation limit and two rotations is the unit
//! test `history::tests::concurrent_appends_across_rotation`.)

use crate::common::World;
use serde_json::Value;

const WRITERS: usize = 8;
const PER_WRITER: usize = 500;
const LIMIT: u64 = 1024 * 1024;

#[test]
fn eight_processes_times_500_records_across_a_rotation() {
    let w = World::beacon();
    // ~120 characters of body: 4,000 lines come to about 1.3 MB — one rotation, all kept.
    let pad = "x".repeat(100);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..WRITERS)
            .map(|k| {
                let w = &w;
                let pad = &pad;
                s.spawn(move || {
                    let script = format!(
                        "for n in $(seq 0 {last}); do team send --record claude-keeper --channel native --ms \"$n\" \"writer {k} line $n {pad}\" >/dev/null || echo \"writer {k} line $n failed\"; done",
                        last = PER_WRITER - 1
                    );
                    w.run_pty_merged(&script, &w.repo)
                })
            })
            .collect();
        for h in handles {
            let out = h.join().unwrap();
            assert_eq!(out, "", "a run failed");
        }
    });

    let dirs: Vec<_> = std::fs::read_dir(&w.config)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("beacon-"))
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let dir = &dirs[0];
    let mut next = [0usize; WRITERS];
    let mut total = 0;
    for name in ["messages.jsonl.2", "messages.jsonl.1", "messages.jsonl"] {
        let p = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&p) else { continue };
        assert!(std::fs::metadata(&p).unwrap().len() <= LIMIT, "{name} passed 1 MB");
        assert!(text.ends_with('\n'), "{name} ends in a torn line");
        for line in text.lines() {
            let v: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: torn or unparsable line ({e}): {line}"));
            assert_eq!(v["outcome"], "delivered");
            assert_eq!(v["via"], "native");
            let body = v["body"].as_str().unwrap();
            let rest = body.split("writer ").nth(1).unwrap_or_else(|| panic!("{body}"));
            let mut it = rest.split(' ');
            let k: usize = it.next().unwrap().parse().unwrap();
            assert_eq!(it.next(), Some("line"));
            let n: usize = it.next().unwrap().parse().unwrap();
            assert_eq!(n, next[k], "writer {k}: line {n} out of order or doubled");
            assert_eq!(v["ms"], n as u64);
            next[k] += 1;
            total += 1;
        }
    }
    assert_eq!(next, [PER_WRITER; WRITERS], "lines lost");
    assert_eq!(total, WRITERS * PER_WRITER);
    assert!(dir.join("messages.jsonl.1").exists(), "the history never rotated");

    let log = std::fs::read_to_string(w.repo.join(".agents/team.log")).unwrap();
    assert_eq!(log.lines().count(), WRITERS * PER_WRITER);
    for line in log.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("team.log: torn line ({e}): {line}"));
        assert_eq!(v["outcome"], "recorded");
        assert!(!line.contains(&pad), "team.log carries a body");
    }
}
