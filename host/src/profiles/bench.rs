//! The per-call benchmark (`bench/profiles.sh` runs it with `--release`): classify of a
//! 120×40 screen on a warm instance through the host, against the same profile crate
//! compiled natively, in one run. Ignored in ordinary test runs; it asserts nothing about
//! time (speed targets are measured, not asserted).

use super::*;
use profile_kit::fixtures;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median µs per call over `batches` batches of `per` calls.
fn measure(batches: usize, per: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..per {
        f();
    }
    median(
        (0..batches)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..per {
                    f();
                }
                t.elapsed().as_secs_f64() * 1e6 / per as f64
            })
            .collect(),
    )
}

#[test]
#[ignore = "benchmark: run by bench/profiles.sh with --release"]
fn bench_classify_warm_wasm_vs_native() {
    let dir = tempfile::tempdir().unwrap();
    // `TEAM_BENCH_CONFIG=<dir>` measures components dropped in under `<dir>/profiles/` (a
    // dropped-in file of the bundled version wins the tie), e.g. another guest build.
    let config =
        std::env::var_os("TEAM_BENCH_CONFIG").map(std::path::PathBuf::from).unwrap_or(dir.path().join("config"));
    let host = ProfileHost::with_dirs(config, dir.path().join("cache"));
    type Native = fn(&profile_kit::Screen) -> profile_kit::Reading;
    let cases: [(&str, &str, &str, Native); 4] = [
        ("codex", "codex-0.171.0", "idle-after-file-read", profile_codex::classify),
        ("codex", "codex-0.171.0", "working", profile_codex::classify),
        ("claude-code", "claude-code-2.1.197", "working", profile_claude_code::classify),
        ("grok-cli", "grok-cli-0.0.34", "idle-typed", profile_grok_cli::classify),
    ];
    println!("{:<40} {:>10} {:>10} {:>7}", "screen (120x40)", "wasm µs", "native µs", "ratio");
    for (cli, d, name, native) in cases {
        let f = fixtures::load(&fixtures::screens_dir().join(d), name).unwrap();
        assert_eq!((f.screen.cols, f.screen.rows), (120, 40), "{d}/{name}");
        let mut p = host.load(cli, &BTreeMap::new()).unwrap();
        let s = f.screen.clone();
        let wasm = measure(21, 200, || {
            std::hint::black_box(p.classify(std::hint::black_box(&s)).unwrap());
        });
        // Native gets the same screen clone the host makes to pass the screen in.
        let nat = measure(21, 200, || {
            let k = std::hint::black_box(&f.screen).clone();
            std::hint::black_box(native(&k));
        });
        let from = if p.source() == &Source::Bundled { "" } else { " (dropped in)" };
        println!("{:<40} {:>10.1} {:>10.1} {:>6.1}x{from}", format!("{d}/{name}"), wasm, nat, wasm / nat);
    }
    // Where the wasm time goes: the fixed cost of one call, and of passing the screen in (a
    // call whose guest work is nil: an empty id answers false at once).
    let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "working").unwrap();
    let s = f.screen.clone();
    let mut p = host.load("codex", &BTreeMap::new()).unwrap();
    let call = measure(21, 200, || {
        std::hint::black_box(p.transcript_shows_drop_read(&[], "x").unwrap());
    });
    let pass = measure(21, 200, || {
        std::hint::black_box(p.shows_drop_read(std::hint::black_box(&s), "", "").unwrap());
    });
    let clone = measure(21, 200, || {
        std::hint::black_box(std::hint::black_box(&s).clone());
    });
    println!(
        "overhead: call {call:.1} µs, call passing a 120x40 screen {pass:.1} µs, host-side screen clone {clone:.1} µs"
    );
}
