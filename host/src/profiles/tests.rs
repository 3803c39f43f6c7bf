//! Tests of the host over real components.

use super::*;

fn scratch() -> Option<Vec<u8>> {
    std::fs::read("/tmp/sg/target/wasm32-wasip2/release/sg.wasm").ok()
}

#[test]
fn scratch_component_loads() {
    let Some(bytes) = scratch() else { return };
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("x.wasm");
    std::fs::write(&p, &bytes).unwrap();
    let host = ProfileHost::with_dirs(d.path().join("config"), d.path().join("cache"));
    let engine = engine::engine().unwrap();
    let c = wasmtime::component::Component::new(engine, &bytes).unwrap();
    for (n, _) in c.component_type().imports(engine) { eprintln!("import {n}"); }
    for (n, _) in c.component_type().exports(engine) { eprintln!("export {n}"); }
    let mut prof = host.load_file(&p).unwrap();
    eprintln!("{:?} {:?}", prof.describe(), prof.cache_use());
    let mut s = Screen::from_ansi("a\nb\n", "");
    eprintln!("{:?}", prof.classify(&s));
    for t in ["loop", "alloc", "panic", ""] {
        s.title = t.into();
        let t0 = std::time::Instant::now();
        eprintln!("{t}: {:?} {:?}", prof.classify(&s).map_err(|e| e.message), t0.elapsed());
    }
    let prof2 = host.load_file(&p).unwrap();
    eprintln!("{:?}", prof2.cache_use());
}
