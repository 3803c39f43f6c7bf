//! The per-call benchmark (`bench/profiles.sh` runs it with `--release`): classify of a
//! 120×40 screen on a warm instance through the host, against the same profile crate
//! compiled natively, in one run. Ignored in ordinary test runs; it asserts nothing about
//! time (speed targets are measured, not asserted).

use super::*;
use profile_kit::fixtures;
use std::path::Path;
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

/// One line of the table: a profile's times through the host against the native crate's.
struct Line {
    /// Classify alone, through the host and natively.
    wasm: f64,
    nat: f64,
    /// One look of a send (the reading and the drop read), through the host and natively.
    look: f64,
    nat_look: f64,
}

impl Line {
    fn print(&self, screen: &str, line: &str, from: &str) {
        let Line { wasm, nat, look, nat_look } = self;
        println!(
            "{screen:<40} {line:>9} {wasm:>9.1} {nat:>9.1} {:>6.1}x {look:>10.1} {nat_look:>10.1} {:>6.1}x{from}",
            wasm / nat,
            look / nat_look
        );
    }
}

type Native = fn(&profile_kit::Screen) -> profile_kit::Reading;
type NativeRead = fn(&profile_kit::Screen, &str, &str) -> bool;

/// A send in flight asks about a drop: the probe every look of the typed leg carries.
const PROBE: (&str, &str) = ("7b2e5d10-3c4a-4f86-a1d9-0e6f52c8b3a7", "Please read the team message at .agents/x.md");

#[test]
#[ignore = "benchmark: run by bench/profiles.sh with --release"]
fn bench_classify_warm_wasm_vs_native() {
    let dir = tempfile::tempdir().unwrap();
    // `TEAM_BENCH_CONFIG=<dir>` measures components dropped in under `<dir>/profiles/` (a
    // dropped-in file of the bundled version wins the tie), e.g. another guest build.
    let config =
        std::env::var_os("TEAM_BENCH_CONFIG").map(std::path::PathBuf::from).unwrap_or(dir.path().join("config"));
    let host = ProfileHost::with_dirs(config, dir.path().join("cache"));
    let cases: [(&str, &str, &str, Native, NativeRead); 4] = [
        ("codex", "codex-0.171.0", "idle-after-file-read", profile_codex::classify, profile_codex::shows_drop_read),
        ("codex", "codex-0.171.0", "working", profile_codex::classify, profile_codex::shows_drop_read),
        (
            "claude-code",
            "claude-code-2.1.197",
            "working",
            profile_claude_code::classify,
            profile_claude_code::shows_drop_read,
        ),
        ("grok-cli", "grok-cli-0.0.34", "idle-typed", profile_grok_cli::classify, profile_grok_cli::shows_drop_read),
    ];
    println!(
        "{:<40} {:>9} {:>9} {:>9} {:>7} {:>10} {:>10} {:>7}",
        "screen (120x40)", "line", "wasm µs", "native", "ratio", "look µs", "native", "ratio"
    );
    for (cli, d, name, native, native_read) in cases {
        bench_case(&host, dir.path(), cli, d, name, native, native_read);
    }
    overhead(&host);
}

/// One screen of one CLI: its line of the table (and, for codex, the line of the same logic
/// built from the frozen wit/v0.1 beside it).
fn bench_case(host: &ProfileHost, dir: &Path, cli: &str, d: &str, name: &str, native: Native, read: NativeRead) {
    let (id, trigger) = PROBE;
    let probe = Probe::new(id, trigger);
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
    // One look of a send: the reading and the drop read.
    let look = measure(21, 200, || {
        std::hint::black_box(p.read(std::hint::black_box(&s), &probe).unwrap());
    });
    let nat_look = measure(21, 200, || {
        let k = std::hint::black_box(&f.screen).clone();
        std::hint::black_box((native(&k), read(&k, id, trigger)));
    });
    let from = if p.source() == &Source::Bundled { "" } else { " (dropped in)" };
    let screen = format!("{d}/{name}");
    Line { wasm, nat, look, nat_look }.print(&screen, &format!("{:?}", p.line()), from);
    if cli == "codex" {
        // The same profile logic built from the frozen wit/v0.1: rows as lists of strings,
        // and a look that costs two calls.
        let file = dir.join("codex-v0.1.wasm");
        std::fs::write(&file, profile_artifacts::legacy::CODEX_V0_1).unwrap();
        let mut old = host.load_file(&file).unwrap();
        let wasm = measure(21, 200, || {
            std::hint::black_box(old.classify(std::hint::black_box(&s)).unwrap());
        });
        let look = measure(21, 200, || {
            std::hint::black_box(old.read(std::hint::black_box(&s), &probe).unwrap());
        });
        Line { wasm, nat, look, nat_look }.print(&screen, &format!("{:?}", old.line()), "");
    }
}

/// Where the wasm time goes: the fixed cost of one call, and of passing the screen in (a call
/// whose guest work is nil: an empty id answers false at once).
fn overhead(host: &ProfileHost) {
    let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "working").unwrap();
    let s = f.screen.clone();
    let mut p = host.load("codex", &BTreeMap::new()).unwrap();
    let call = measure(21, 200, || {
        std::hint::black_box(p.transcript_shows_drop_read(&[], "x").unwrap());
    });
    let clone = measure(21, 200, || {
        std::hint::black_box(std::hint::black_box(&s).clone());
    });
    let join = measure(21, 200, || {
        std::hint::black_box(v0_2::screen_to(std::hint::black_box(&s)));
    });
    // A read whose logic stops at its first row (codex-cloud finds no Cloud Tasks box on a
    // Codex chat screen): what a 0.2 look costs before any profile logic.
    let mut cloud = host.load("codex-cloud", &BTreeMap::new()).unwrap();
    let bare = measure(21, 200, || {
        std::hint::black_box(cloud.classify(std::hint::black_box(&s)).unwrap());
    });
    let bare_native = measure(21, 200, || {
        let k = std::hint::black_box(&f.screen).clone();
        std::hint::black_box(profile_codex_cloud::classify(&k));
    });
    println!("a look that stops at once: wasm {bare:.1} µs, native {bare_native:.1} µs");
    // What the guest does with a 0.2 screen before its logic runs: split the rows back out.
    let joined = v0_2::screen_to(&s);
    let split = measure(21, 200, || {
        let j = std::hint::black_box(&joined);
        std::hint::black_box((
            profile_reading::split_rows(&j.styled),
            profile_reading::split_rows(&j.plain),
            profile_reading::split_rows(&j.recent),
        ));
    });
    println!(
        "overhead: one call {call:.1} µs; host-side screen clone {clone:.1} µs; 0.2 screen (rows joined) {join:.1} µs; rows split back (native) {split:.1} µs"
    );
}
