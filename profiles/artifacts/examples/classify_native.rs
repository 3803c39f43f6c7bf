//! Native classify timings for every bundled profile over 120×40 fixture screens (and the
//! 30–60-column synthetic ones): the first call in this process ("cold": nothing to build, so it
//! should match a warm call) and the median of warm calls. `bench/profiles-native.sh` runs it
//! with `--release`; nothing here asserts a time.

use std::time::Instant;

use profile_kit::fixtures;
use profile_kit::{Reading, Screen};

type Classify = fn(&Screen) -> Reading;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let cases: [(&str, &str, &str, Classify); 13] = [
        ("claude-code", "claude-code-2.1.332", "working", profile_claude_code::classify),
        ("claude-code", "claude-code-2.1.197", "permission-bash", profile_claude_code::classify),
        ("codex", "codex-0.171.0", "working", profile_codex::classify),
        ("codex", "codex-0.171.0", "idle-after-file-read", profile_codex::classify),
        ("grok-cli", "grok-cli-0.0.34", "idle-typed", profile_grok_cli::classify),
        ("grok-cli", "grok-cli-0.0.34", "permission-bash", profile_grok_cli::classify),
        ("gemini-cli", "gemini-cli-0.61.0", "working", profile_gemini_cli::classify),
        ("qwen-code", "qwen-code-0.24.4", "permission-shell", profile_qwen_code::classify),
        ("copilot", "copilot-1.0.102", "working", profile_copilot::classify),
        ("opencode", "opencode-1.18.33", "idle-after-reply", profile_opencode::classify),
        ("cursor", "cursor-synthetic", "working", profile_cursor::classify),
        ("agy", "agy-synthetic", "permission", profile_agy::classify),
        ("grok", "grok-synthetic", "working-waiting", profile_grok::classify),
    ];
    println!(
        "{:<12} {:<42} {:>8} {:>10} {:>10} {:>10} {:>6}",
        "profile", "screen", "size", "cold µs", "warm µs", "view µs", "escs"
    );
    for (id, dir, name, classify) in cases {
        let f = fixtures::load(&fixtures::screens_dir().join(dir), name).unwrap();
        let s = &f.screen;
        let t = Instant::now();
        let r = std::hint::black_box(classify(std::hint::black_box(s)));
        let cold = t.elapsed().as_secs_f64() * 1e6;
        fixtures::check(&f.expect, &r).unwrap_or_else(|m| panic!("{dir}/{name}: {m}"));
        let mut batches = Vec::new();
        for _ in 0..21 {
            let t = Instant::now();
            for _ in 0..200 {
                std::hint::black_box(classify(std::hint::black_box(s)));
            }
            batches.push(t.elapsed().as_secs_f64() * 1e6 / 200.0);
        }
        let mut view = Vec::new();
        for _ in 0..21 {
            let t = Instant::now();
            for _ in 0..200 {
                std::hint::black_box(profile_kit::View::new(std::hint::black_box(s)));
            }
            view.push(t.elapsed().as_secs_f64() * 1e6 / 200.0);
        }
        let esc: usize = s.styled.iter().map(|r| r.matches('\x1b').count()).sum();
        println!(
            "{:<12} {:<42} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>6}",
            id,
            format!("{dir}/{name}"),
            format!("{}x{}", s.cols, s.rows),
            cold,
            median(batches),
            median(view),
            esc
        );
    }
}
