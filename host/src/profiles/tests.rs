//! The host over the real, built components (`profile-artifacts`): conformance of every
//! screen fixture, the hostile components, the cache, dropped-in validation and pins.
//! Every test builds its own `<config>` and `<cache>` in a temp dir.

use super::*;
use profile_kit::fixtures;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;

struct World {
    dir: tempfile::TempDir,
    host: ProfileHost,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let host = ProfileHost::with_dirs(dir.path().join("config"), dir.path().join("cache"));
        World { dir, host }
    }
    fn config(&self) -> PathBuf {
        self.dir.path().join("config")
    }
    /// Drops `bytes` in as `<config>/profiles/<id>/<name>`.
    fn drop_in(&self, id: &str, name: &str, bytes: &[u8]) -> PathBuf {
        let d = self.config().join("profiles").join(id);
        fs::create_dir_all(&d).unwrap();
        let p = d.join(name);
        fs::write(&p, bytes).unwrap();
        p
    }
    /// Writes `bytes` to a file outside `<config>` (for `load_file`).
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        fs::write(&p, bytes).unwrap();
        p
    }
}

fn bundled(id: &str) -> &'static profile_artifacts::Bundled {
    profile_artifacts::BUNDLED.iter().find(|b| b.id == id).unwrap_or_else(|| panic!("{id} is not bundled"))
}

fn no_pins() -> BTreeMap<String, String> {
    BTreeMap::new()
}

fn pins(cli: &str, req: &str) -> BTreeMap<String, String> {
    BTreeMap::from([(cli.to_string(), req.to_string())])
}

// ------------------------------------------------------------------ conformance

#[test]
fn every_screen_fixture_reads_as_its_meta_says_through_the_built_components() {
    let w = World::new();
    let all = fixtures::all().unwrap();
    assert!(all.len() >= 100, "only {} fixtures", all.len());
    let mut loaded: BTreeMap<String, Profile> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut per_cli: BTreeMap<String, usize> = BTreeMap::new();
    for f in &all {
        let p = loaded.entry(f.cli.clone()).or_insert_with(|| {
            let p = w.host.load(&f.cli, &no_pins()).unwrap_or_else(|e| panic!("{}: {}", f.label(), e.message()));
            assert_eq!(p.source(), &Source::Bundled);
            p
        });
        let r = p.classify(&f.screen.clone()).unwrap_or_else(|e| panic!("{}: {}", f.label(), e.message()));
        if let Err(m) = fixtures::check(&f.expect, &r) {
            failures.push(format!("{}: {m} (why: {})", f.label(), r.why));
        }
        *per_cli.entry(f.cli.clone()).or_default() += 1;
    }
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), all.len(), failures.join("\n"));
    for cli in ["claude-code", "codex", "grok-cli"] {
        assert!(per_cli.get(cli).copied().unwrap_or(0) >= 10, "few {cli} fixtures: {per_cli:?}");
    }
}

#[test]
fn the_six_profiles_are_bundled_and_describe_themselves() {
    let w = World::new();
    for id in ["claude-code", "codex", "cursor", "agy", "grok-cli", "grok"] {
        let b = bundled(id);
        assert_eq!(cache::sha256_hex(b.bytes), b.sha256, "{id}: the build-time sha256 is the bytes' sha256");
        let p = w.host.load(id, &no_pins()).unwrap();
        assert_eq!(p.describe().id, id);
        assert_eq!(p.describe().version, b.version);
        assert_eq!(p.sha256(), b.sha256);
        assert!(p.describe().max_trigger > 0, "{id}");
    }
    // Listing bundled profiles compiles none of them.
    let listed = w.host.available();
    assert!(listed.iter().filter(|a| a.source == Source::Bundled).count() >= 6);
}

/// The codex profile built from the frozen `wit/v0.1`, loaded as a file.
fn codex_v0_1(w: &World) -> Profile {
    let p = w.file("codex-v0.1.wasm", profile_artifacts::legacy::CODEX_V0_1);
    let prof = w.host.load_file(&p).unwrap();
    assert_eq!(prof.line(), Line::V0_1);
    prof
}

#[test]
fn a_0_1_component_still_loads_and_reads_every_codex_fixture() {
    let w = World::new();
    let mut old = codex_v0_1(&w);
    let mut new = w.host.load("codex", &no_pins()).unwrap();
    assert_eq!(new.line(), Line::V0_2);
    let fx = fixtures::for_cli("codex").unwrap();
    let mut failures = Vec::new();
    for f in &fx {
        let r = old.classify(&f.screen).unwrap();
        if let Err(m) = fixtures::check(&f.expect, &r) {
            failures.push(format!("{}: {m} (why: {})", f.label(), r.why));
        }
        // Both lines read the same, word for word.
        assert_eq!(r, new.classify(&f.screen).unwrap(), "{}", f.label());
    }
    assert!(failures.is_empty(), "{} of {} misread through 0.1:\n{}", failures.len(), fx.len(), failures.join("\n"));
    // The drop read takes 0.1's second call and lands in the same field.
    let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "idle-after-file-read").unwrap();
    let probe = Probe::new("7b2e5d10-3c4a-4f86-a1d9-0e6f52c8b3a7", "read the drop file");
    assert!(old.read(&f.screen, &probe).unwrap().drop_read);
    assert!(new.read(&f.screen, &probe).unwrap().drop_read);
    assert!(!old.read(&f.screen, &Probe::new("11111111-2222-4333-8444-555555555555", "x")).unwrap().drop_read);
}

#[test]
fn a_queued_line_crosses_the_0_1_boundary_in_the_why_and_comes_out_as_the_field() {
    let w = World::new();
    let mut codex = codex_v0_1(&w);
    assert!(codex.describe().features.iter().any(|f| f == profile_reading::QUEUED_LINE_FEATURE));
    let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "working-queued").unwrap();
    let r = codex.classify(&f.screen).unwrap();
    assert_eq!(r.queued, ["also check the tests"]);
    assert!(!r.why.contains("queued:"), "{}", r.why);
    // A why that merely looks like the convention, from a component that does not declare the
    // feature, is left alone.
    let no_feature = v0_1::reading_from(
        v0_1::team::profile::types::Reading {
            state: v0_1::team::profile::types::State::Idle,
            composer: v0_1::team::profile::types::Composer::Empty,
            last_error: None,
            why: "x; queued: `y`".into(),
        },
        &[],
    );
    assert!(no_feature.queued.is_empty() && no_feature.why == "x; queued: `y`");
}

#[test]
fn an_open_dialog_kind_crosses_0_2_with_its_name() {
    use v0_2::team::profile::types as t2;
    let other = |kind| t2::Reading {
        state: t2::State::Dialog(t2::Dialog { kind, title: "Approve the plan?".into() }),
        composer: t2::Composer::Unreadable,
        last_error: None,
        queued: vec![],
        drop_read: false,
        why: String::new(),
    };
    let r = v0_2::reading_from(other(t2::DialogKind::Other("plan approval".into())));
    let d = r.state.dialog().unwrap();
    assert_eq!((d.kind.word(), d.kind.label()), ("other", "plan approval"));
}

#[test]
fn drop_reads_show_on_the_codex_screen_and_in_transcripts() {
    let w = World::new();
    let mut codex = w.host.load("codex", &no_pins()).unwrap();
    let f = fixtures::load(&fixtures::screens_dir().join("codex-0.171.0"), "idle-after-file-read").unwrap();
    let s = f.screen.clone();
    let id = "7b2e5d10-3c4a-4f86-a1d9-0e6f52c8b3a7";
    assert!(codex.shows_drop_read(&s, id, "read the drop file").unwrap());
    assert!(!codex.shows_drop_read(&s, "11111111-2222-4333-8444-555555555555", "read the drop file").unwrap());
    // The trigger's own echo names the id but is not a read.
    let trigger = format!("Read /tmp/drop/{id}.txt and follow it");
    let echo = Screen::from_ansi(&format!("› {trigger}\n\n• Working (1s • esc to interrupt)\n"), "");
    assert!(!codex.shows_drop_read(&echo, id, &trigger).unwrap());

    let rows: Vec<String> = fs::read_to_string(fixtures::transcripts_dir().join("codex-0.171.0/read-drop-file.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(codex.transcript_shows_drop_read(&rows, "2c8f4e91-7a05-4d3b-b6e2-5f19a0c7d846").unwrap());
    assert!(!codex.transcript_shows_drop_read(&rows, "11111111-2222-4333-8444-555555555555").unwrap());
    assert!(!codex.transcript_shows_drop_read(&[], "2c8f4e91-7a05-4d3b-b6e2-5f19a0c7d846").unwrap());
}

// ------------------------------------------------------------------ hostile components

/// Loads `bytes` as a file and classifies a blank screen; the error from whichever step failed.
fn load_and_classify(w: &World, name: &str, bytes: &[u8]) -> Result<Reading, String> {
    let p = w.file(name, bytes);
    let mut prof = w.host.load_file(&p).map_err(|e| e.message())?;
    let blank = Screen {
        styled: vec![String::new(); 40],
        plain: vec![String::new(); 40],
        cols: 120,
        rows: 40,
        ..Screen::default()
    };
    prof.classify(&blank).map_err(|e| e.message())
}

#[test]
fn an_endless_loop_is_interrupted() {
    let w = World::new();
    let e = load_and_classify(&w, "loop.wasm", profile_artifacts::hostile::ENDLESS_LOOP).unwrap_err();
    assert!(e.starts_with("this profile could not read the screen: "), "{e}");
    assert!(e.contains("budget") && e.contains("wasm trap: interrupt"), "{e}");
}

#[test]
fn a_huge_allocation_is_refused_naming_the_limit() {
    let w = World::new();
    let e = load_and_classify(&w, "alloc.wasm", profile_artifacts::hostile::HUGE_ALLOC).unwrap_err();
    assert!(e.starts_with("this profile could not read the screen: "), "{e}");
    assert!(e.contains("profile memory limit of 64 MiB"), "{e}");
}

#[test]
fn a_trap_is_an_error_reading_and_the_instance_is_remade() {
    let w = World::new();
    let p = w.file("trap.wasm", profile_artifacts::hostile::TRAP);
    let mut prof = w.host.load_file(&p).unwrap();
    let s = Screen::from_ansi("anything\n", "");
    let e = prof.classify(&s).unwrap_err();
    assert!(e.message().starts_with("this profile could not read the screen: "), "{}", e.message());
    assert!(!prof.instance.is_live(), "a trapped instance is dropped");
    // The next call runs on a fresh instance: it answers (or traps again) without a crash.
    let again = prof.classify(&s).unwrap_err();
    assert_eq!(again.message(), e.message());
    // A call that does not trap is served by a fresh instance.
    assert!(!prof.transcript_shows_drop_read(&[], "x").unwrap());
    assert!(prof.instance.is_live());
}

#[test]
fn after_an_interrupt_the_next_call_gets_a_fresh_instance_and_a_full_budget() {
    let w = World::new();
    let p = w.file("loop.wasm", profile_artifacts::hostile::ENDLESS_LOOP);
    let mut prof = w.host.load_file(&p).unwrap();
    let s = Screen::from_ansi("x\n", "");
    assert!(prof.classify(&s).unwrap_err().message().contains("wasm trap: interrupt"));
    assert!(!prof.instance.is_live());
    // A call that does not loop (0.2's `read` classifies, so it would loop again).
    assert!(!prof.transcript_shows_drop_read(&[], "id").unwrap());
    assert!(prof.classify(&s).unwrap_err().message().contains("wasm trap: interrupt"));
}

#[test]
fn the_wrong_world_is_refused_at_load_naming_the_missing_export() {
    let w = World::new();
    let p = w.file("wrong.wasm", profile_artifacts::hostile::WRONG_WORLD);
    let e = w.host.load_file(&p).err().expect("refused").message();
    assert!(e.contains("is not a usable profile") && e.contains("team:profile/classifier@0.1.0"), "{e}");
}

#[test]
fn a_wasi_import_is_refused_at_load_naming_the_import() {
    let w = World::new();
    let p = w.file("wasi.wasm", profile_artifacts::hostile::WASI_IMPORT);
    let e = w.host.load_file(&p).err().expect("refused").message();
    assert!(e.contains("it imports `wasi:"), "{e}");
    assert!(
        e.contains("a capability the host does not give profiles") || e.contains("capabilities the host does not give"),
        "{e}"
    );
    assert!(!e.contains("`wasi:random/insecure-seed"), "the seed is given: {e}");
}

#[test]
fn garbage_is_not_a_component() {
    let w = World::new();
    let p = w.file("junk.wasm", b"\0asm not really");
    let e = w.host.load_file(&p).err().expect("refused").message();
    assert!(e.contains("not a valid WebAssembly component"), "{e}");
}

// ------------------------------------------------------------------ cache

fn cache_files(w: &World) -> Vec<PathBuf> {
    let d = w.dir.path().join("cache/profiles").join(engine::WASMTIME_VERSION);
    let mut v: Vec<PathBuf> =
        fs::read_dir(&d).map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

#[test]
fn the_cache_misses_then_hits_and_recompiles_a_corrupted_file() {
    let w = World::new();
    let p = w.host.load("codex", &no_pins()).unwrap();
    assert_eq!(p.cache_use(), CacheUse::Miss);
    let files = cache_files(&w);
    assert_eq!(files.len(), 1, "{files:?}");
    let f = &files[0];
    assert_eq!(fs::metadata(f).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(fs::metadata(f.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    assert!(f.extension().unwrap() == "cwasm");

    // A warm load writes nothing (every write is an fsync a warm run must not pay).
    let stamps = |w: &World| -> Vec<(PathBuf, std::time::SystemTime)> {
        let mut v = Vec::new();
        for sub in ["cache/profiles/describe", &format!("cache/profiles/{}", engine::WASMTIME_VERSION)] {
            for e in fs::read_dir(w.dir.path().join(sub)).unwrap() {
                let e = e.unwrap();
                v.push((e.path(), e.metadata().unwrap().modified().unwrap()));
            }
        }
        v.sort();
        v
    };
    let before = stamps(&w);
    assert_eq!(before.len(), 2, "{before:?}");
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(w.host.load("codex", &no_pins()).unwrap().cache_use(), CacheUse::Hit);
    assert_eq!(stamps(&w), before);

    // Garbage, then a truncated artifact: both recompiled and overwritten, then hit again.
    let good = fs::read(f).unwrap();
    fs::write(f, b"definitely not an ELF file").unwrap();
    let mut p = w.host.load("codex", &no_pins()).unwrap();
    assert_eq!(p.cache_use(), CacheUse::Replaced);
    assert_eq!(fs::read(f).unwrap(), good, "the recompiled artifact is written back");
    fs::write(f, &good[..good.len() / 2]).unwrap();
    assert_eq!(w.host.load("codex", &no_pins()).unwrap().cache_use(), CacheUse::Replaced);
    assert_eq!(w.host.load("codex", &no_pins()).unwrap().cache_use(), CacheUse::Hit);
    // And the profile from a replaced artifact reads.
    assert!(p.classify(&Screen::from_ansi("\n", "")).is_ok());
}

#[test]
fn a_cache_file_others_can_write_is_not_trusted() {
    let w = World::new();
    w.host.load("cursor", &no_pins()).unwrap();
    let f = cache_files(&w).remove(0);
    fs::set_permissions(&f, fs::Permissions::from_mode(0o666)).unwrap();
    assert_eq!(w.host.load("cursor", &no_pins()).unwrap().cache_use(), CacheUse::Replaced);
    assert_eq!(fs::metadata(&f).unwrap().permissions().mode() & 0o777, 0o600);
    // A symlink planted in place of the artifact is never deserialized.
    let elsewhere = w.dir.path().join("planted.cwasm");
    fs::copy(&f, &elsewhere).unwrap();
    fs::remove_file(&f).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &f).unwrap();
    assert_ne!(w.host.load("cursor", &no_pins()).unwrap().cache_use(), CacheUse::Hit);
}

#[test]
fn a_precompiled_artifact_from_a_user_is_never_accepted() {
    let w = World::new();
    w.host.load("codex", &no_pins()).unwrap();
    // Our own cached native code, handed back as if it were a profile: refused, not run.
    let cwasm = fs::read(cache_files(&w).remove(0)).unwrap();
    let p = w.file("codex.cwasm", &cwasm);
    let e = w.host.load_file(&p).err().expect("refused").message();
    assert!(e.contains("not a valid WebAssembly component"), "{e}");
    w.drop_in("codex", "9.0.0.wasm", &cwasm);
    let listed = w.host.available();
    let a = listed.iter().find(|a| a.version == "9.0.0").unwrap();
    assert!(a.validity.as_ref().unwrap_err().to_string().contains("not a valid WebAssembly component"), "{a:?}");
}

#[test]
fn a_bundled_description_is_read_without_loading_anything() {
    let w = World::new();
    for b in profile_artifacts::BUNDLED {
        let (d, src) = w.host.description(b.id, &no_pins()).unwrap();
        assert_eq!(src, Source::Bundled);
        // The embedded description is the component's own describe().
        let loaded = w.host.load(b.id, &no_pins()).unwrap();
        assert_eq!(&d, loaded.describe(), "{}: the embedded description differs from describe()", b.id);
    }
    let fresh = World::new();
    fresh.host.description("claude-code", &no_pins()).unwrap();
    assert!(!fresh.dir.path().join("cache").exists(), "nothing compiled, nothing written");
}

#[test]
fn a_description_is_read_from_the_cache_without_running_wasm() {
    let w = World::new();
    // A dropped-in file of the bundled version wins; its first read loads it once.
    let codex = bundled("codex");
    let path = w.drop_in("codex", &format!("{}.wasm", codex.version), codex.bytes);
    let (d, src) = w.host.description("codex", &no_pins()).unwrap();
    assert_eq!((d.id.as_str(), src), ("codex", Source::Path(path.clone())));
    // Remove the compiled code: a second read must not compile (or need) it.
    for f in cache_files(&w) {
        fs::remove_file(f).unwrap();
    }
    let (again, src) = w.host.description("codex", &no_pins()).unwrap();
    assert_eq!((again, src), (d, Source::Path(path)));
    assert!(cache_files(&w).is_empty(), "no compile for a cached description");
    // An invalid candidate is never cached as valid.
    w.drop_in("codex", "9.9.9.wasm", codex.bytes);
    assert_eq!(w.host.description("codex", &no_pins()).unwrap().0.version, codex.version);
}

#[test]
fn the_key_covers_the_component_bytes() {
    let w = World::new();
    w.host.load("codex", &no_pins()).unwrap();
    w.host.load("agy", &no_pins()).unwrap();
    assert_eq!(cache_files(&w).len(), 2);
}

// ------------------------------------------------------------------ dropped-in, pins

#[test]
fn dropped_in_components_are_validated_before_use() {
    let w = World::new();
    let codex = bundled("codex");
    w.drop_in("codex", &format!("{}.wasm", codex.version), codex.bytes);
    w.drop_in("codex", "9.9.9.wasm", codex.bytes); // describe() says another version
    w.drop_in("cursor", &format!("{}.wasm", codex.version), codex.bytes); // another id
    w.drop_in("codex", "9.0.0.wasm", profile_artifacts::hostile::WASI_IMPORT);
    w.drop_in("codex", "8.0.0.wasm", profile_artifacts::hostile::WRONG_WORLD);
    w.drop_in("codex", "latest.wasm", codex.bytes);
    let all = w.host.available();
    let get = |id: &str, v: &str| {
        all.iter()
            .find(|a| a.id == id && a.version == v && a.source != Source::Bundled)
            .unwrap_or_else(|| panic!("{id} {v} in {all:?}"))
    };
    assert_eq!(get("codex", codex.version).validity, Ok(()));
    let why = |id: &str, v: &str| get(id, v).validity.clone().unwrap_err().to_string();
    // each refusal is told apart by its kind, whatever its words
    let kind = |id: &str, v: &str| get(id, v).validity.clone().unwrap_err().word();
    assert_eq!(
        [kind("codex", "9.9.9"), kind("codex", "9.0.0"), kind("codex", "8.0.0"), kind("codex", "latest")],
        ["bad-description", "forbidden-import", "incompatible-line", "misplaced"]
    );
    assert!(why("codex", "9.9.9").contains("says version"), "{}", why("codex", "9.9.9"));
    assert!(why("cursor", codex.version).contains("says id \"codex\""), "{}", why("cursor", codex.version));
    assert!(why("codex", "9.0.0").contains("imports `wasi:"), "{}", why("codex", "9.0.0"));
    assert!(why("codex", "8.0.0").contains("team:profile/classifier@0.1.0"), "{}", why("codex", "8.0.0"));
    assert!(why("codex", "latest").contains("<version>.wasm"), "{}", why("codex", "latest"));

    // Loading skips every invalid higher version and says so.
    let p = w.host.load("codex", &no_pins()).unwrap();
    assert_eq!(p.describe().version, codex.version);
    assert!(matches!(p.source(), Source::Path(_)), "a dropped-in file wins a tie with the bundled one");
    assert_eq!(p.notes().len(), 3, "{:?}", p.notes());
    let r = w.host.resolve("codex", &no_pins(), &all).unwrap();
    assert_eq!((r.version.as_str(), &r.source), (codex.version, p.source()));
}

#[test]
fn pins_choose_the_highest_satisfying_version_or_refuse_naming_what_is_installed() {
    let w = World::new();
    let codex = bundled("codex");
    let v = pins::Version::parse(codex.version).unwrap();
    let exact = format!("={}", codex.version);
    let p = w.host.load("codex", &pins("codex", &exact)).unwrap();
    assert_eq!(p.source(), &Source::Bundled);
    assert_eq!(p.pin(), Some(exact.as_str()));
    let prefix = format!("{}.{}", v.major, v.minor);
    assert_eq!(w.host.load("codex", &pins("codex", &prefix)).unwrap().describe().version, codex.version);
    // A pin on another cli does not matter.
    assert!(w.host.load("codex", &pins("cursor", "99")).is_ok());

    let e = w.host.load("codex", &pins("codex", "99")).err().expect("refused");
    assert_eq!(e.kind, error::Kind::Refused);
    assert_eq!(
        e.message(),
        format!("refused: the team pins codex to \"99\" and no installed codex profile satisfies it; installed: codex {} (bundled)", codex.version)
    );
    let e = w.host.load("codex", &pins("codex", "!!")).err().expect("bad pin");
    assert_eq!(e.kind, error::Kind::BadFile);
    let e = w.host.load("vim", &no_pins()).err().expect("nothing for vim");
    assert!(
        e.message().starts_with("refused: no profile for cli \"vim\" is installed; installed: "),
        "{}",
        e.message()
    );
    assert!(e.message().contains(&format!("codex {} (bundled)", codex.version)), "{}", e.message());
}

#[test]
fn selection_orders_dropped_in_versions_by_the_pin() {
    let w = World::new();
    for name in ["1.3.0.wasm", "1.4.2.wasm", "1.4.10.wasm", "1.5.0.wasm", "2.0.0-beta.1.wasm"] {
        w.drop_in("acme", name, b"not loaded by select");
    }
    let all = store::candidates(&w.config(), Some("acme"));
    let order = |req: Option<&str>| -> Vec<String> {
        let p = req.map(|r| pins("acme", r)).unwrap_or_default();
        select(&w.config(), "acme", &p, &all)
            .map(|v| v.iter().map(|c| c.version_text.clone()).collect())
            .unwrap_or_else(|e| vec![e.message()])
    };
    assert_eq!(order(None), ["1.5.0", "1.4.10", "1.4.2", "1.3.0", "2.0.0-beta.1"]);
    assert_eq!(order(Some("1.4")), ["1.4.10", "1.4.2"]);
    assert_eq!(order(Some("^1.3")), ["1.5.0", "1.4.10", "1.4.2", "1.3.0"]);
    assert_eq!(order(Some("=2.0.0-beta.1")), ["2.0.0-beta.1"]);
    assert_eq!(
        order(Some("1.6"))[0].split("; installed:").next().unwrap(),
        "refused: the team pins acme to \"1.6\" and no installed acme profile satisfies it"
    );
    // None of them is a component: loading reports each, bundled or not.
    let e = w.host.load("acme", &pins("acme", "1.4")).err().unwrap().message();
    assert!(e.starts_with("refused: no installed acme profile can be used: acme 1.4.10 ("), "{e}");
    assert!(e.contains("not a valid WebAssembly component"), "{e}");
}

#[test]
fn load_file_does_not_hold_a_file_to_its_name() {
    let w = World::new();
    let p = w.file("whatever-name.wasm", bundled("grok-cli").bytes);
    let prof = w.host.load_file(&p).unwrap();
    assert_eq!(prof.describe().id, "grok-cli");
    assert_eq!(prof.source(), &Source::Path(p));
}
