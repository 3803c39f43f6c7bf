//! `team profile list | check | explain`, run as a process over the bundled and hostile
//! components; every `--json` document is validated against its schema in `schema/`.
//! Each test builds its own HOME, config, state and cache in a temp dir.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn screens() -> PathBuf {
    repo().join("tests/data/screens")
}

struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let w = World { dir: tempfile::tempdir().unwrap() };
        for d in ["home", "config", "state", "cache", "work/.git"] {
            fs::create_dir_all(w.dir.path().join(d)).unwrap();
        }
        w
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    fn team(&self, yaml: &str) {
        fs::create_dir_all(self.path("work/.agents")).unwrap();
        fs::write(self.path("work/.agents/team.yaml"), yaml).unwrap();
    }
    fn drop_in(&self, id: &str, name: &str, bytes: &[u8]) -> PathBuf {
        let d = self.path("config/profiles").join(id);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join(name), bytes).unwrap();
        d.join(name)
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        fs::write(self.path(name), bytes).unwrap();
        self.path(name)
    }
    fn team_cmd(&self, args: &[&str]) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_team"));
        c.args(args)
            .current_dir(self.path("work"))
            .env("HOME", self.path("home"))
            .env("TEAM_CONFIG_DIR", self.path("config"))
            .env("TEAM_STATE_DIR", self.path("state"))
            .env("TEAM_CACHE_DIR", self.path("cache"));
        for v in [
            "TMUX",
            "TMUX_PANE",
            "HERDR_PANE_ID",
            "HERDR_SESSION",
            "HERDR_SOCKET_PATH",
            "XDG_CACHE_HOME",
            "XDG_STATE_HOME",
        ] {
            c.env_remove(v);
        }
        c.output().unwrap()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Parses a `--json` run's stdout (stderr must be empty) and validates it against
/// `schema/<file>`.
fn document(o: &Output, schema_file: &str) -> Value {
    assert!(o.stderr.is_empty(), "stderr under --json: {}", stderr(o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    let schema: Value =
        serde_json::from_str(&fs::read_to_string(repo().join("schema").join(schema_file)).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{schema_file}: {errors:?}\n{doc:#}");
    assert_eq!(doc["format"], 1);
    doc
}

fn bundled(id: &str) -> &'static profile_artifacts::Bundled {
    profile_artifacts::BUNDLED.iter().find(|b| b.id == id).unwrap()
}

fn screen(rel: &str) -> String {
    screens().join(rel).display().to_string()
}

fn title(rel: &str) -> String {
    fs::read_to_string(screens().join(rel)).unwrap().trim_end_matches('\n').to_string()
}

// ------------------------------------------------------------------ explain

#[test]
fn explain_transcripts() {
    let w = World::new();
    trycmd::TestCases::new()
        .default_bin_name("team")
        .env("HOME", w.path("home").display().to_string())
        .env("TEAM_CONFIG_DIR", w.path("config").display().to_string())
        .env("TEAM_STATE_DIR", w.path("state").display().to_string())
        .env("TEAM_CACHE_DIR", w.path("cache").display().to_string())
        .case("tests/profile_explain/*.trycmd");
}

/// A `team.profile.explain` reading back in the kit's types, to check it with the fixtures'
/// own rules.
fn kit_reading(r: &Value) -> profile_kit::Reading {
    use profile_kit as k;
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let kind = match r["dialog"].as_str() {
        Some("other") => k::DialogKind::Other(s(&r["dialog_other"])),
        Some(w) => k::DialogKind::from_word(w).unwrap_or_else(|| panic!("unknown dialog word {w:?}")),
        None => k::DialogKind::Question,
    };
    k::Reading {
        state: match r["state"].as_str().unwrap() {
            "idle" => k::State::Idle,
            "working" => k::State::Working(s(&r["hint"])),
            "dialog" => k::State::Dialog(k::Dialog { kind, title: s(&r["dialog_title"]) }),
            "starting" => k::State::Starting,
            "exited" => k::State::Exited,
            _ => k::State::Unknown(s(&r["unknown"])),
        },
        composer: match r["composer"]["kind"].as_str().unwrap() {
            "empty" => k::Composer::Empty,
            "holds" => k::Composer::Holds(s(&r["composer"]["text"])),
            _ => k::Composer::Unreadable,
        },
        last_error: match r["last_error"].as_str() {
            Some("rate_limit") => Some(k::TurnError::RateLimit),
            Some("provider_error") => Some(k::TurnError::ProviderError),
            _ => None,
        },
        queued: r["queued"].as_array().unwrap().iter().map(|q| q.as_str().unwrap().to_string()).collect(),
        drop_read: false,
        why: s(&r["why"]),
    }
}

/// Every fixture through the whole process, from its `.ansi` capture alone (plain rows
/// derived by `Screen::from_ansi`, not read from the `.txt`): what a vendor running
/// `team profile explain` on a capture sees.
#[test]
fn explain_reads_every_fixture_capture_as_its_meta_says() {
    let w = World::new();
    let mut failures = Vec::new();
    let all = profile_kit::fixtures::all().unwrap();
    for f in &all {
        let dir = screens().join(&f.dir);
        let o = w.team_cmd(&[
            "profile",
            "explain",
            &f.cli,
            dir.join(format!("{}.ansi", f.name)).to_str().unwrap(),
            "--title",
            &f.screen.title,
            "--size",
            &format!("{}x{}", f.screen.cols, f.screen.rows),
            "--json",
        ]);
        if !o.status.success() {
            failures.push(format!("{}: {}", f.label(), stdout(&o)));
            continue;
        }
        let doc = document(&o, "profile-explain.schema.json");
        let r = kit_reading(&doc["reading"]);
        if let Err(m) = profile_kit::fixtures::check(&f.expect, &r) {
            failures.push(format!("{}: {m} (why: {})", f.label(), r.why));
        }
    }
    assert!(failures.is_empty(), "{} of {} captures misread:\n{}", failures.len(), all.len(), failures.join("\n"));
}

#[test]
fn explain_json_carries_the_reading_and_the_profile() {
    let w = World::new();
    let o = w.team_cmd(&[
        "profile",
        "explain",
        "codex",
        &screen("codex-0.171.0/permission-shell.ansi"),
        "--title",
        &title("codex-0.171.0/permission-shell.title"),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = document(&o, "profile-explain.schema.json");
    assert_eq!(doc["schema"]["name"], "team.profile.explain");
    assert_eq!(doc["reading"]["state"], "dialog");
    assert_eq!(doc["reading"]["dialog"], "permission");
    assert_eq!(doc["reading"]["composer"]["kind"], "unreadable");
    assert!(doc["reading"]["hint"].is_null());
    assert_eq!(doc["profile"]["id"], "codex");
    assert_eq!(doc["profile"]["version"], bundled("codex").version);
    assert_eq!(doc["profile"]["source"], "bundled");
    assert!(doc["why"].as_str().is_some_and(|w| !w.is_empty()));
    // Only the profile the command needed was compiled and cached.
    let cached: Vec<_> = fs::read_dir(w.path("cache/profiles/48.0.8")).unwrap().collect();
    assert_eq!(cached.len(), 1);

    let o =
        w.team_cmd(&["profile", "explain", "claude-code", &screen("claude-code-2.1.197/idle-typed.ansi"), "--json"]);
    let doc = document(&o, "profile-explain.schema.json");
    assert_eq!(doc["reading"]["state"], "idle");
    assert_eq!(doc["reading"]["composer"]["kind"], "holds");
}

#[test]
fn explain_uses_the_team_pin_or_refuses_naming_what_is_installed() {
    let w = World::new();
    let v = bundled("codex").version;
    w.team(&format!(
        "format: 1\nproject: beacon\nprofiles: {{ codex: \"={v}\" }}\nseats:\n  - name: cx\n    cli: codex\n"
    ));
    let o = w.team_cmd(&["profile", "explain", "codex", &screen("codex-0.171.0/idle-empty-welcome.ansi"), "--json"]);
    let doc = document(&o, "profile-explain.schema.json");
    assert_eq!(doc["profile"]["pin"], format!("={v}"));

    w.team("format: 1\nproject: beacon\nprofiles: { codex: \"7.1\" }\nseats:\n  - name: cx\n    cli: codex\n");
    let o = w.team_cmd(&["profile", "explain", "codex", &screen("codex-0.171.0/idle-empty-welcome.ansi")]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("team profile: refused: the team pins codex to \"7.1\" and no installed codex profile satisfies it; installed: codex {v} (bundled)\n")
    );
    let o = w.team_cmd(&["profile", "explain", "codex", &screen("codex-0.171.0/idle-empty-welcome.ansi"), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["error"]["id"], "profile.refused");
}

#[test]
fn explain_with_a_hostile_profile_is_an_error_reading_not_a_crash() {
    let w = World::new();
    let f = w.file("loop.wasm", profile_artifacts::hostile::ENDLESS_LOOP);
    let o = w.team_cmd(&[
        "profile",
        "explain",
        "hostile",
        &screen("codex-0.171.0/idle-empty-welcome.ansi"),
        "--profile",
        f.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("team profile: "), "{err}");
    assert!(err.contains("interrupt") || err.contains("not the hostile profile") || err.contains("is the "), "{err}");
}

// ------------------------------------------------------------------ check

#[test]
fn check_passes_a_bundled_component_and_refuses_hostile_ones() {
    let w = World::new();
    let f = w.file("codex.wasm", bundled("codex").bytes);
    let o = w.team_cmd(&["profile", "check", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.ends_with(&format!(
            "verdict   ok: {} can be used as the codex profile {}\n",
            f.display(),
            bundled("codex").version
        )),
        "{out}"
    );
    let o = w.team_cmd(&["profile", "check", f.to_str().unwrap(), "--json"]);
    let doc = document(&o, "profile-check.schema.json");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["profile"]["id"], "codex");
    assert_eq!(doc["profile"]["sha256"], bundled("codex").sha256);

    let cases: [(&str, &[u8], &str); 5] = [
        ("wasi.wasm", profile_artifacts::hostile::WASI_IMPORT, "it imports `wasi:"),
        ("wrong.wasm", profile_artifacts::hostile::WRONG_WORLD, "team:profile/classifier@0.1.0"),
        ("loop.wasm", profile_artifacts::hostile::ENDLESS_LOOP, "wasm trap: interrupt"),
        ("alloc.wasm", profile_artifacts::hostile::HUGE_ALLOC, "profile memory limit of 64 MiB"),
        ("trap.wasm", profile_artifacts::hostile::TRAP, "could not read the screen"),
    ];
    for (name, bytes, says) in cases {
        let f = w.file(name, bytes);
        let o = w.team_cmd(&["profile", "check", f.to_str().unwrap()]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}{}", stderr(&o));
        let verdict = out.lines().last().unwrap();
        assert!(verdict.starts_with(&format!("verdict   refused: {} cannot be used: ", f.display())), "{name}: {out}");
        assert!(verdict.contains(says), "{name}: {out}");
        let o = w.team_cmd(&["profile", "check", f.to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(1));
        let doc = document(&o, "profile-check.schema.json");
        assert_eq!(doc["ok"], false);
        assert!(doc["verdict"].as_str().unwrap().contains(says), "{name}: {doc:#}");
    }
    let o = w.team_cmd(&["profile", "check", "/nonexistent/x.wasm"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_holds_a_dropped_in_file_to_its_name() {
    let w = World::new();
    let f = w.drop_in("codex", "9.9.9.wasm", bundled("codex").bytes);
    let o = w.team_cmd(&["profile", "check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("but it is installed as codex/9.9.9.wasm"), "{}", stdout(&o));
}

// ------------------------------------------------------------------ list

#[test]
fn list_without_a_team_shows_every_installed_profile() {
    let w = World::new();
    let o = w.team_cmd(&["profile", "list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap().split_whitespace().collect::<Vec<_>>(),
        ["PROFILE", "VERSION", "SOURCE", "STATUS"]
    );
    for b in profile_artifacts::BUNDLED {
        let row = lines.next().unwrap();
        assert_eq!(row.split_whitespace().collect::<Vec<_>>(), [b.id, b.version, "bundled", "ok"]);
    }
    assert_eq!(lines.next(), None);
    // Listing compiles nothing bundled.
    assert!(!w.path("cache/profiles").exists());
}

#[test]
fn list_shows_dropped_in_files_and_what_each_seat_resolves_to() {
    let w = World::new();
    let codex = bundled("codex");
    w.drop_in("codex", "9.9.9.wasm", codex.bytes);
    w.drop_in("codex", &format!("{}.wasm", codex.version), codex.bytes);
    w.team(
        "format: 1\nproject: beacon\nsession: bsession\nprofiles: { cursor: \"42\" }\nseats:\n  - name: cx\n    cli: codex\n  - name: cu\n    cli: cursor\n  - name: cc\n    cli: claude-code\n",
    );
    let o = w.team_cmd(&["profile", "list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("team beacon, session \"bsession\"\n"), "{out}");
    let dropped = w.path("config/profiles/codex");
    assert!(
        out.contains(&format!(
            "{}/9.9.9.wasm  invalid: describe() says version {} but it is installed as 9.9.9",
            dropped.display(),
            codex.version
        )),
        "{out}"
    );
    let seat = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(seat("cx"), format!("cx codex - codex {v} ({}/{v}.wasm)", dropped.display(), v = codex.version));
    assert!(seat("cu").starts_with("cu cursor \"42\" refused: the team pins cursor to \"42\""), "{}", seat("cu"));
    assert_eq!(seat("cc"), format!("cc claude-code - claude-code {} (bundled)", bundled("claude-code").version));

    let o = w.team_cmd(&["profile", "list", "--json"]);
    let doc = document(&o, "profile-list.schema.json");
    assert_eq!(doc["team"]["project"], "beacon");
    let seats = doc["team"]["seats"].as_array().unwrap();
    assert_eq!(seats[0]["profile"]["source"], "path");
    assert!(seats[1]["profile"].is_null() && seats[1]["refusal"].as_str().unwrap().contains("\"42\""));
    let invalid: Vec<&Value> = doc["profiles"].as_array().unwrap().iter().filter(|p| p["valid"] == false).collect();
    assert_eq!(invalid.len(), 1);
}
