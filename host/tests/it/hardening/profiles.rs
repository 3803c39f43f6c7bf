//! Dropped-in profiles the host must bound: a pause before Enter of 49 days, transcript
//! patterns that walk the whole file system, a big component that exports nothing.

use super::within;
use crate::common::World;

fn check(w: &World, name: &str, bytes: &[u8]) -> crate::common::Run {
    let f = w.base().join(name);
    std::fs::write(&f, bytes).unwrap();
    let (r, _) = within(crate::common::BOUND, || w.team(&["profile", "check", f.to_str().unwrap()]));
    r
}

/// The precompiled components under `dir`, at any depth.
fn cwasm_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(cwasm_files(&p));
        } else if p.extension().is_some_and(|x| x == "cwasm") {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_profile_declaring_a_49_day_pause_before_enter_is_refused() {
    let w = World::beacon();
    let r = check(&w, "pause.wasm", profile_artifacts::hostile::LONG_PAUSE);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("describe() declares a pause of 4294967295 ms before Enter; the host allows at most 2000 ms"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_profile_whose_transcript_patterns_walk_the_file_system_is_refused() {
    let w = World::beacon();
    // (refused as declared, before any pattern is used: `check`'s bound is a hang guard only)
    let r = check(&w, "walk.wasm", profile_artifacts::hostile::WALK_PATTERNS);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("describe() declares the transcript pattern \"/*/*/*/*/*/*.jsonl\", which does not start at {home}/ or {cwd}/"), "{}", r.stdout);
}

/// A valid component that exports nothing, holding one core module whose only function is
/// `nops` no-ops long: cheap to parse, slow to compile.
fn big_component(nops: usize) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }
    fn section(id: u8, body: &[u8], out: &mut Vec<u8>) {
        out.push(id);
        leb(body.len(), out);
        out.extend_from_slice(body);
    }
    let mut func = vec![0u8]; // no locals
    func.extend(std::iter::repeat_n(0x01u8, nops)); // nop
    func.push(0x0b); // end
    let mut code = vec![1u8];
    leb(func.len(), &mut code);
    code.extend(func);
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    section(1, &[1, 0x60, 0, 0], &mut module); // one type: () -> ()
    section(3, &[1, 0], &mut module); // one function of it
    section(10, &code, &mut module);
    let mut c = b"\0asm\x0d\0\x01\0".to_vec();
    section(1, &module, &mut c); // a core module section
    c
}

#[test]
fn a_big_component_exporting_nothing_is_refused_before_it_is_compiled() {
    let w = World::beacon();
    let wasm = big_component(15 << 20);
    assert!(wasm.len() > 15 << 20 && wasm.len() < 16 << 20);
    let r = check(&w, "big.wasm", &wasm);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("it exports nothing"), "{}", r.stdout);
    // never compiled: a compiled component leaves its native code in the cache
    // (`<cache>/profiles/<wasmtime>/<key>.cwasm`, host/src/profiles/cache.rs), and there is none
    let compiled = cwasm_files(&w.cache);
    assert!(compiled.is_empty(), "big.wasm was compiled: {compiled:?}");
    // (the control: a component that is compiled leaves one)
    check(&w, "walk.wasm", profile_artifacts::hostile::WALK_PATTERNS);
    assert_eq!(cwasm_files(&w.cache).len(), 1, "a compiled component leaves its .cwasm in {}", w.cache.display());
    // past the size cap it is not even read
    let r = check(&w, "huge.wasm", &big_component(17 << 20));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("17825835 bytes is larger than a profile may be (16 MiB)"), "{}", r.stdout);
}
