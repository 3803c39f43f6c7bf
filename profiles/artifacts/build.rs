//! Builds the profile components for `wasm32-wasip2` with a nested cargo and embeds them.
//!
//! - One nested `cargo build --target wasm32-wasip2 --profile guest -p <all ten profiles>`, then
//!   one small invocation per hostile feature and one for the codex profile built from the
//!   frozen `wit/v0.1` (kit feature `wit-v0-1`): a crate's features cannot differ within one
//!   invocation.
//! - A separate target dir, `<outer target>/wasm-guests`: the outer cargo holds the lock on its
//!   own dir, so sharing it would deadlock. A file lock around build + copy keeps two worktrees
//!   sharing one target dir from copying each other's freshly built bytes.
//! - Flags meant for the host (RUSTFLAGS, CARGO_ENCODED_RUSTFLAGS, the outer target, profile and
//!   feature variables, …) are removed so they do not leak into the wasm build.
//! - Each component's sha256 is computed here, so the host never hashes bundled bytes at run time.
//! - Each component's description is its crate's own `describe()`, run natively here and
//!   embedded as JSON, so the host reads a bundled profile's vendor facts (`--list`, refusals)
//!   without loading any wasm; a host test checks it against the component's `describe()`.
//! - `TEAM_SKIP_WASM_BUILD=1` (for IDE check builds) embeds empty components instead.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// (crate, id, version, wasm file stem) of each shipping profile.
const PROFILES: &[(&str, &str, &str, &str)] = &[
    ("profile-claude-code", "claude-code", "0.1.0", "profile_claude_code"),
    ("profile-codex", "codex", "0.1.0", "profile_codex"),
    ("profile-cursor", "cursor", "0.1.0", "profile_cursor"),
    ("profile-agy", "agy", "0.1.0", "profile_agy"),
    ("profile-grok-cli", "grok-cli", "0.1.0", "profile_grok_cli"),
    ("profile-grok", "grok", "0.1.0", "profile_grok"),
    ("profile-gemini-cli", "gemini-cli", "0.1.0", "profile_gemini_cli"),
    ("profile-qwen-code", "qwen-code", "0.1.0", "profile_qwen_code"),
    ("profile-copilot", "copilot", "0.1.0", "profile_copilot"),
    ("profile-opencode", "opencode", "0.1.0", "profile_opencode"),
];

/// (feature of profile-hostile, constant name).
const HOSTILE: &[(&str, &str)] = &[
    ("endless-loop", "ENDLESS_LOOP"),
    ("huge-alloc", "HUGE_ALLOC"),
    ("trap", "TRAP"),
    ("wasi-import", "WASI_IMPORT"),
    ("wrong-world", "WRONG_WORLD"),
    ("compose-bad-key", "COMPOSE_BAD_KEY"),
    ("compose-control", "COMPOSE_CONTROL"),
    ("compose-endless", "COMPOSE_ENDLESS"),
    ("compose-spin", "COMPOSE_SPIN"),
    ("compose-lies", "COMPOSE_LIES"),
    ("native-channel", "NATIVE_CHANNEL"),
    ("long-pause", "LONG_PAUSE"),
    ("walk-patterns", "WALK_PATTERNS"),
];

/// (crate, id, version, wasm file stem) of each shipping profile with a compose module: built
/// in an invocation of its own, since the kit's `compose` feature changes its bindings' world.
const COMPOSERS: &[(&str, &str, &str, &str)] =
    &[("profile-codex-cloud", "codex-cloud", "0.1.0", "profile_codex_cloud")];

const TARGET: &str = "wasm32-wasip2";

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.join("../..").canonicalize().expect("workspace root");
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());

    // Relative paths (cargo reads them from this package's root): several worktrees share one
    // target dir and the same build-script hash, so absolute paths would make one checkout watch
    // another's files.
    for p in ["../reading", "../kit", "../hostile", "../../wit", "../../Cargo.toml", "../../Cargo.lock"] {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rerun-if-changed=../template/src");
    println!("cargo:rerun-if-changed=../template/Cargo.toml");
    for (krate, _, _, _) in PROFILES.iter().chain(COMPOSERS) {
        let dir = krate.trim_start_matches("profile-");
        println!("cargo:rerun-if-changed=../{dir}/src");
        println!("cargo:rerun-if-changed=../{dir}/Cargo.toml");
    }
    println!("cargo:rerun-if-env-changed=TEAM_SKIP_WASM_BUILD");
    // The hostile components, the frozen-line codex and the template exist for tests only
    // (feature `test-components`, which every test build of the host turns on): an install
    // builds the eleven shipping profiles in two nested invocations, not sixteen.
    let test_components = env::var_os("CARGO_FEATURE_TEST_COMPONENTS").is_some();

    let skip = env::var("TEAM_SKIP_WASM_BUILD").map(|v| !v.is_empty() && v != "0").unwrap_or(false);
    if skip {
        println!("cargo:warning=TEAM_SKIP_WASM_BUILD is set: bundled profile components are empty");
        for (_, id, _, _) in PROFILES.iter().chain(COMPOSERS) {
            fs::write(out_dir.join(format!("{id}.wasm")), b"").unwrap();
        }
        for (feature, _) in HOSTILE {
            fs::write(out_dir.join(format!("hostile-{feature}.wasm")), b"").unwrap();
        }
        fs::write(out_dir.join("codex-v0.1.wasm"), b"").unwrap();
        fs::write(out_dir.join("template.wasm"), b"").unwrap();
    } else {
        check_target_installed();
        let guests_dir = guests_target_dir(&out_dir);
        fs::create_dir_all(&guests_dir).unwrap();
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(guests_dir.join(".team-build.lock"))
            .expect("open the wasm-guests lock file");
        lock.lock().expect("lock the wasm-guests dir");

        let built = guests_dir.join(TARGET).join("guest");
        let mut args: Vec<String> = Vec::new();
        for (krate, _, _, _) in PROFILES {
            args.push("-p".into());
            args.push(krate.to_string());
        }
        // The template a vendor copies is built (and tested) with them; it is not bundled.
        if test_components {
            args.extend(["-p".into(), "profile-template".into()]);
        }
        nested_cargo(&root, &guests_dir, &args);
        if test_components {
            copy(&built.join("profile_template.wasm"), &out_dir.join("template.wasm"));
        }
        for (_, id, _, stem) in PROFILES {
            copy(&built.join(format!("{stem}.wasm")), &out_dir.join(format!("{id}.wasm")));
        }
        for (krate, id, _, stem) in COMPOSERS {
            nested_cargo(&root, &guests_dir, &["-p".into(), krate.to_string()]);
            copy(&built.join(format!("{stem}.wasm")), &out_dir.join(format!("{id}.wasm")));
        }
        for (feature, _) in HOSTILE.iter().filter(|_| test_components) {
            nested_cargo(
                &root,
                &guests_dir,
                &["-p".into(), "profile-hostile".into(), "--features".into(), feature.to_string()],
            );
            copy(&built.join("profile_hostile.wasm"), &out_dir.join(format!("hostile-{feature}.wasm")));
        }
        if test_components {
            nested_cargo(
                &root,
                &guests_dir,
                &["-p".into(), "profile-codex".into(), "--features".into(), "wit-v0-1".into()],
            );
            copy(&built.join("profile_codex.wasm"), &out_dir.join("codex-v0.1.wasm"));
        }
        drop(lock);
    }

    let mut code = String::new();
    code.push_str("/// The shipping profiles, built for wasm32-wasip2 at build time.\n");
    code.push_str("pub static BUNDLED: &[Bundled] = &[\n");
    for (_, id, version, _) in PROFILES.iter().chain(COMPOSERS) {
        let path = out_dir.join(format!("{id}.wasm"));
        let sha = sha256_file(&path);
        let description = description_json(id);
        writeln!(
            code,
            "    Bundled {{ id: {id:?}, version: {version:?}, bytes: include_bytes!({:?}), sha256: {sha:?}, description: {description:?} }},",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n\n");
    if test_components {
        test_modules(&mut code, &out_dir);
    }
    fs::write(out_dir.join("bundled.rs"), code).unwrap();
}

/// The test-only components' modules (`hostile`, `legacy`, `TEMPLATE`).
fn test_modules(code: &mut String, out_dir: &Path) {
    code.push_str("/// Deliberately misbehaving components for the host's sandbox tests. Never load them for real.\n");
    code.push_str("pub mod hostile {\n");
    for (feature, name) in HOSTILE {
        let path = out_dir.join(format!("hostile-{feature}.wasm"));
        writeln!(code, "    /// profile-hostile built with feature `{feature}`.").unwrap();
        writeln!(code, "    pub static {name}: &[u8] = include_bytes!({:?});", path.display().to_string()).unwrap();
    }
    code.push_str("}\n\n");
    code.push_str("/// Components of released interface lines the host must still load (tests only; never bundled).\n");
    code.push_str("pub mod legacy {\n");
    code.push_str("    /// The codex profile built from the frozen `wit/v0.1` (team:profile@0.1.0).\n");
    let path = out_dir.join("codex-v0.1.wasm");
    writeln!(code, "    pub static CODEX_V0_1: &[u8] = include_bytes!({:?});", path.display().to_string()).unwrap();
    code.push_str("}\n\n");
    code.push_str("/// `profiles/template`, the crate a vendor copies, built as they will build it (not bundled).\n");
    let path = out_dir.join("template.wasm");
    writeln!(code, "pub static TEMPLATE: &[u8] = include_bytes!({:?});", path.display().to_string()).unwrap();
}

/// `<outer target dir>/wasm-guests`, found from OUT_DIR (`<target>[/<triple>]/<profile>/build/<pkg>-<hash>/out`).
fn guests_target_dir(out_dir: &Path) -> PathBuf {
    // out → <pkg>-<hash> → build → <profile> → <target>[/<triple>]
    let profile_dir = out_dir.ancestors().nth(3).expect("OUT_DIR has the usual shape");
    let mut target = profile_dir.parent().expect("target dir").to_path_buf();
    if target.file_name().map(|n| n == env::var("TARGET").unwrap_or_default().as_str()).unwrap_or(false) {
        target = target.parent().unwrap().to_path_buf();
    }
    target.join("wasm-guests")
}

fn check_target_installed() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc).args(["--print", "sysroot"]).output();
    let sysroot = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => return, // let the nested build report whatever is wrong
    };
    let lib = Path::new(&sysroot).join("lib/rustlib").join(TARGET).join("lib");
    if !lib.is_dir() {
        panic!(
            "\n\nThe Rust target `{TARGET}` is not installed, and team's bundled profiles are built for it.\n\
             Install it with:\n\n    rustup target add {TARGET}\n\n\
             (rust-toolchain.toml lists it, so a rustup-managed toolchain normally adds it itself.)\n\
             Looked for {}.\n",
            lib.display()
        );
    }
}

fn nested_cargo(root: &Path, target_dir: &Path, extra: &[String]) {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .arg("build")
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .args(["--target", TARGET, "--profile", "guest"])
        // 128-bit SIMD (on by default in wasmtime): the guests' scans of screen text vectorise.
        .args(["--config", "target.wasm32-wasip2.rustflags=[\"-C\", \"target-feature=+simd128\"]"])
        .arg("--target-dir")
        .arg(target_dir)
        .args(extra);
    // Nothing meant for the outer (host) build may reach the wasm build.
    for (k, _) in env::vars_os() {
        let k = k.to_string_lossy().into_owned();
        let leak = (k.starts_with("CARGO_") && k != "CARGO_HOME" && k != "CARGO_MAKEFLAGS" && k != "CARGO_NET_OFFLINE")
            || matches!(
                k.as_str(),
                "RUSTFLAGS"
                    | "RUSTDOCFLAGS"
                    | "RUSTC_WRAPPER"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "OUT_DIR"
                    | "TARGET"
                    | "HOST"
                    | "PROFILE"
                    | "OPT_LEVEL"
                    | "DEBUG"
                    | "NUM_JOBS"
                    | "RUSTC_LINKER"
            );
        if leak {
            cmd.env_remove(&k);
        }
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("could not run the nested cargo for the wasm profiles: {e}"));
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let hint = if stderr.contains("may not be installed")
            || stderr.contains("can't find crate for `core`")
            || stderr.contains("can't find crate for `std`")
        {
            format!("\nThe `{TARGET}` target seems missing: run `rustup target add {TARGET}`.\n")
        } else {
            String::new()
        };
        panic!("building the wasm profile components failed ({:?}):\n{stderr}{hint}", extra);
    }
}

// Each bundled profile's own `describe()`, compiled into this build script from its crate's
// `src/describe.rs` (which needs only the kit's `Description` and `strings`). The profile crates
// themselves are not build-dependencies: cargo would share their units with the host's
// dev-dependencies, built against another profile-kit.
#[path = "../agy/src/describe.rs"]
mod describe_agy;
#[path = "../claude-code/src/describe.rs"]
mod describe_claude_code;
#[path = "../codex/src/describe.rs"]
mod describe_codex;
#[path = "../codex-cloud/src/describe.rs"]
mod describe_codex_cloud;
#[path = "../copilot/src/describe.rs"]
mod describe_copilot;
#[path = "../cursor/src/describe.rs"]
mod describe_cursor;
#[path = "../gemini-cli/src/describe.rs"]
mod describe_gemini_cli;
#[path = "../grok/src/describe.rs"]
mod describe_grok;
#[path = "../grok-cli/src/describe.rs"]
mod describe_grok_cli;
#[path = "../opencode/src/describe.rs"]
mod describe_opencode;
#[path = "../qwen-code/src/describe.rs"]
mod describe_qwen_code;

/// The profile's own `describe()`, as the JSON object the host reads (field names as WIT's
/// `description`, `_` for `-`).
fn description_json(id: &str) -> String {
    let d: profile_kit::Description = match id {
        "claude-code" => describe_claude_code::describe(),
        "codex" => describe_codex::describe(),
        "cursor" => describe_cursor::describe(),
        "agy" => describe_agy::describe(),
        "grok-cli" => describe_grok_cli::describe(),
        "grok" => describe_grok::describe(),
        "gemini-cli" => describe_gemini_cli::describe(),
        "qwen-code" => describe_qwen_code::describe(),
        "copilot" => describe_copilot::describe(),
        "opencode" => describe_opencode::describe(),
        "codex-cloud" => describe_codex_cloud::describe(),
        other => panic!("no describe() is wired for the bundled profile {other}"),
    };
    serde_json::json!({
        "id": d.id,
        "version": d.version,
        "clis": d.clis,
        "process_names": d.process_names,
        "native_channel": d.native_channel,
        "max_trigger": d.max_trigger,
        "working_hints": d.working_hints,
        "enter_pause_ms": d.enter_pause_ms,
        "queues_while_working": d.queues_while_working,
        "forbidden_starts": d.forbidden_starts,
        "has_compose": d.has_compose,
        "transcript_patterns": d.transcript_patterns,
        "features": d.features,
    })
    .to_string()
}

fn copy(from: &Path, to: &Path) {
    fs::copy(from, to).unwrap_or_else(|e| panic!("copy {} → {}: {e}", from.display(), to.display()));
}

fn sha256_file(p: &Path) -> String {
    let bytes = fs::read(p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()));
    let digest = Sha256::digest(&bytes);
    let mut s = String::with_capacity(64);
    for b in digest {
        write!(s, "{b:02x}").unwrap();
    }
    s
}
