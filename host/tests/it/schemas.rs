//! Every JSON Schema under `schema/` is a valid draft 2020-12 schema, compiles, accepts its
//! `schema/examples/<stem>.valid.*.json` documents (the spec's own examples among them) and
//! rejects its `<stem>.invalid.*.json` ones. `schema/tools/team_send.json` is checked the
//! same way through its `parameters` (examples `tools-team_send.*`).

use serde_json::Value;
use std::path::{Path, PathBuf};

fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema")
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// (stem, schema) for every `schema/<stem>.schema.json`, plus `tools-team_send` for the
/// tool's parameters.
fn schemas() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(schema_dir()).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".schema.json") {
            out.push((stem.to_string(), read_json(&p)));
        }
    }
    let tool = read_json(&schema_dir().join("tools/team_send.json"));
    out.push(("tools-team_send".to_string(), tool["parameters"].clone()));
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn examples(stem: &str, which: &str) -> Vec<PathBuf> {
    let prefix = format!("{stem}.{which}.");
    let mut v: Vec<PathBuf> = std::fs::read_dir(schema_dir().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
        .collect();
    v.sort();
    v
}

#[test]
fn the_documents_the_spec_names_have_schemas() {
    let stems: Vec<String> = schemas().into_iter().map(|s| s.0).collect();
    for want in [
        "error",
        "feed",
        "send",
        "send-list",
        "profile-explain",
        "profile-list",
        "profile-check",
        "tools-team_send",
        "team-file",
        "check",
        "status",
        "rename",
        "mcp",
    ] {
        assert!(stems.iter().any(|s| s == want), "schema/{want}.schema.json is missing");
    }
}

#[test]
fn every_schema_is_valid_and_judges_its_examples() {
    for (stem, schema) in schemas() {
        jsonschema::meta::validate(&schema).unwrap_or_else(|e| panic!("{stem}: not a valid schema: {e}"));
        assert_eq!(
            schema.get("$schema").and_then(Value::as_str).unwrap_or("https://json-schema.org/draft/2020-12/schema"),
            "https://json-schema.org/draft/2020-12/schema",
            "{stem}: not draft 2020-12"
        );
        let v = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{stem}: does not compile: {e}"));
        let valid = examples(&stem, "valid");
        let invalid = examples(&stem, "invalid");
        assert!(!valid.is_empty(), "{stem}: no valid example");
        assert!(!invalid.is_empty(), "{stem}: no invalid example");
        for p in valid {
            let doc = read_json(&p);
            let errors: Vec<String> = v.iter_errors(&doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
            assert!(errors.is_empty(), "{} should be valid: {errors:#?}", p.display());
        }
        for p in invalid {
            assert!(!v.is_valid(&read_json(&p)), "{} should be invalid", p.display());
        }
    }
}

/// The documents each schema names (`title`) are the ones its valid examples carry.
#[test]
fn titles_match_the_documents() {
    for (stem, schema) in schemas() {
        // (the tool's parameters and the team file are inputs, and a receipts line is a line of
        // a file, not documents a run prints)
        if stem.starts_with("tools-") || stem == "team-file" || stem == "receipts" {
            continue;
        }
        let title = schema["title"].as_str().unwrap();
        for p in examples(&stem, "valid") {
            assert_eq!(read_json(&p)["schema"]["name"], title, "{}", p.display());
        }
    }
}

/// The shipped tool definition keeps the harness's shape (name, risk, parameters) and says
/// how it maps onto `team send`.
#[test]
fn the_tool_definition_maps_onto_team_send() {
    let tool = read_json(&schema_dir().join("tools/team_send.json"));
    assert_eq!(tool["name"], "team_send");
    assert_eq!(tool["parameters"]["required"], serde_json::json!(["to", "message"]));
    let d = tool["description"].as_str().unwrap();
    assert!(d.contains("team send <to>"), "the description says how it maps: {d}");
}

/// Every team file the tests load (`host/tests/team_files/*.yaml`, the spec's beacon world,
/// what `team init` writes) is judged by `schema/team-file.schema.json` as the loader judges
/// it: the files that load are valid, and the ones refused for what a schema can say (a seat
/// with no `cli:`, a nickname `lead`, an unknown multiplexer, a bad delivery order, a seat
/// name outside the grammar) are invalid.
#[test]
fn the_team_files_are_judged_by_the_team_file_schema() {
    let schema = read_json(&schema_dir().join("team-file.schema.json"));
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/team_files");
    let schema_says_invalid = [
        "bad-leads-type",
        "bad-multiplexer",
        "bad-nickname-lead",
        "bad-no-cli",
        "bad-no-project",
        "bad-order-empty",
        "bad-order-twice",
        "bad-order-unknown",
        "bad-seat-name",
        "bad-hosts-name",
    ];
    let mut judged = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("yaml") {
            continue;
        }
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        let Ok(doc) = serde_saphyr::from_str::<Value>(&text) else {
            assert!(stem.starts_with("bad-yaml"), "{stem} is not YAML");
            continue;
        };
        judged += 1;
        let loads = std::fs::read_to_string(p.with_extension("expect")).unwrap().trim() == "ok";
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| format!("{e} at {}", e.instance_path())).collect();
        if loads {
            assert!(errors.is_empty(), "{stem} loads, but the schema refuses it: {errors:?}");
        } else if schema_says_invalid.contains(&stem.as_str()) {
            assert!(!errors.is_empty(), "{stem} is refused by the loader; the schema should refuse it too");
        }
    }
    assert!(judged >= 10);
    let beacon = serde_saphyr::from_str::<Value>(crate::common::BEACON).unwrap();
    assert!(v.is_valid(&beacon));
}

/// Every generated schema (`team::schema::documents`) is what its report type says today
/// (uv's way): a committed `schema/<file>.schema.json` that differs fails here, and
/// `SCHEMAS_OVERWRITE=1 cargo test -p team --test it schemas` rewrites them. The schemas still
/// written by hand are named, so what remains to generate is visible.
#[test]
fn the_generated_schemas_are_fresh() {
    let overwrite = std::env::var_os("SCHEMAS_OVERWRITE").is_some();
    let mut stale = Vec::new();
    for g in team::schema::documents() {
        let p = schema_dir().join(format!("{}.schema.json", g.file));
        let want = team::schema::render(&(g.build)());
        let have = std::fs::read_to_string(&p).unwrap_or_default();
        if have != want {
            if overwrite {
                std::fs::write(&p, &want).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            } else {
                stale.push(g.file);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated schemas: {stale:?}; rewrite them with\n    SCHEMAS_OVERWRITE=1 cargo test -p team --test it schemas"
    );
    // every schema file is either generated or named as still hand-written
    let generated: Vec<&str> = team::schema::documents().iter().map(|g| g.file).collect();
    for g in &generated {
        assert!(!team::schema::HAND_WRITTEN.contains(g), "{g} is generated and still listed as hand-written");
    }
    for (stem, _) in schemas() {
        if stem.starts_with("tools-") {
            continue;
        }
        assert!(
            generated.contains(&stem.as_str()) || team::schema::HAND_WRITTEN.contains(&stem.as_str()),
            "schema/{stem}.schema.json is neither generated (team::schema::documents) nor listed in team::schema::HAND_WRITTEN"
        );
    }
    eprintln!("schemas not generated yet: {:?}", team::schema::HAND_WRITTEN);
}
