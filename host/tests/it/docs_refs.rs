//! Every reference in the repository resolves: a `*.md` path named in the docs, the README,
//! the code (comments and string literals alike), the schemas, the benchmarks and the CI
//! script names a file this repository has, and a `team <command>` names a command this build
//! ships. A maintainer has only the repository: a pointer to a file outside it, or to a
//! command the build does not carry, is a dead end.
//!
//! What is not checked, and why:
//! - `docs/spec/` and `docs/DESIGN.md` are copies of the contract and the architecture as
//!   their authors wrote them; their paths are checked, their command words are not (the spec
//!   names commands a later build will ship: `team up`, `team down`, …);
//! - a clause the spec says word for word (a refusal sentence the code must print exactly, such
//!   as `run team up first`) is the spec's, not a reference of ours;
//! - files named as data, not as references: a drop or brief under a temp folder, a path a
//!   test creates (`.join("notes.md")`), a URL;
//! - other projects' files, by name ([`OTHER_PROJECTS`]).

use std::path::{Path, PathBuf};

use regex::Regex;

/// Files of other projects the docs mention on purpose (never this repository's).
const OTHER_PROJECTS: &[(&str, &str)] = &[
    ("AGENTS.md", "the instructions file Codex reads"),
    ("CLAUDE.md", "the instructions file Claude Code reads"),
    ("GROK.md", "the instructions file grok-cli reads"),
    ("SKILL.md", "herdr's skill file, and Codex's bundled skills"),
    ("CHANGELOG.md", "herdr's changelog"),
    ("LICENSE.md", "an npm package's licence, in a lock file"),
    ("abc-123.md", "a drop file's name on a screen a profile test reads"),
];

/// The words after `team` that name no command in prose ("the team file", "team of", …) are
/// not looked at; these are the command names the project's documents use that this build
/// does not ship — anywhere outside the copies, one is a dangling reference.
const UNSHIPPED: &[&str] = &["doctor"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "node_modules" || name == "target" || name == ".cache" {
            continue;
        }
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&p, keep, out),
            Ok(t) if t.is_file() && keep(&p) => out.push(p),
            _ => {}
        }
    }
}

/// The files whose references are checked (relative to the repository).
fn scanned() -> Vec<PathBuf> {
    let root = repo();
    let ext = |p: &Path, exts: &[&str]| p.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e));
    let mut out = vec![
        root.join("README.md"),
        root.join("ARCHITECTURE.md"),
        root.join("tests/README.md"),
        root.join(".ci/run"),
        root.join("tests/data/screens/README.md"),
    ];
    walk(&root.join("docs"), &|p| ext(p, &["md"]), &mut out);
    walk(&root.join("host/src"), &|p| ext(p, &["rs"]), &mut out);
    walk(&root.join("host/tests/it"), &|p| ext(p, &["rs"]), &mut out);
    out.push(root.join("host/build.rs"));
    walk(&root.join("profiles"), &|p| ext(p, &["rs", "md", "toml"]), &mut out);
    walk(&root.join("wit"), &|p| ext(p, &["wit", "md"]), &mut out);
    walk(&root.join("schema"), &|p| ext(p, &["json"]), &mut out);
    walk(&root.join("bench"), &|p| ext(p, &["sh", "md", "rs"]), &mut out);
    walk(&root.join("tests/real"), &|p| ext(p, &["sh", "js", "md"]), &mut out);
    out.sort();
    out.dedup();
    // (this file names dangling references on purpose, to test the patterns)
    out.retain(|p| !p.ends_with("host/tests/it/docs_refs.rs"));
    out.into_iter().map(|p| p.strip_prefix(&root).unwrap().to_path_buf()).collect()
}

/// Is `rel` one of the verbatim copies (paths checked, command words not)?
fn is_copy(rel: &Path) -> bool {
    rel.starts_with("docs/spec") || rel == Path::new("docs/DESIGN.md")
}

fn spec_text() -> String {
    let mut t = String::new();
    for e in std::fs::read_dir(repo().join("docs/spec")).unwrap().flatten() {
        t.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
        t.push('\n');
    }
    t
}

/// The clause around byte `at` of `text`: up to the nearest `;`, `"`, brace or line end.
fn clause(text: &str, at: usize) -> &str {
    let stop = |c: char| matches!(c, ';' | '"' | '{' | '}' | '\n');
    let start = text[..at].rfind(stop).map(|i| i + 1).unwrap_or(0);
    let end = text[at..].find(stop).map(|i| at + i).unwrap_or(text.len());
    // (a string literal's closing `\n` is the line's end, not the clause's)
    text[start..end].trim().trim_end_matches("\\n").trim()
}

/// Every dangling reference, as `<file>:<line>: <what>`.
fn dangling() -> Vec<String> {
    let root = repo();
    let md = Regex::new(r"(?:\.\./)*(?:[A-Za-z0-9_.<>~-]+/)*[A-Za-z0-9_.-]+\.md\b").unwrap();
    let cmd = Regex::new(r"\bteam ([a-z][a-z-]*)\b").unwrap();
    let quoted = Regex::new(r"`team ([a-z][a-z-]*)").unwrap();
    let spec = spec_text();
    let shipped = team::cli::command_names();
    let mut bad = Vec::new();
    for rel in scanned() {
        let Ok(text) = std::fs::read_to_string(root.join(&rel)) else { continue };
        let line = |at: usize| text[..at].matches('\n').count() + 1;
        for m in md.find_iter(&text) {
            let r = m.as_str();
            let before = &text[..m.start()];
            let prev = before.chars().next_back();
            // a longer word this match is the tail of (`/tmp/drop/x.md`, `https://…/x.md`)
            if prev.is_some_and(|c| c.is_ascii_alphanumeric() || "/_.-".contains(c)) {
                continue;
            }
            if r.starts_with('/')
                || r.contains("/tmp/")
                || r.contains("-to-")
                || r.contains(".agents/")
                || r.contains('<')
                || before.ends_with("join(\"")
            {
                continue;
            }
            let name = r.rsplit('/').next().unwrap_or(r);
            if OTHER_PROJECTS.iter().any(|(n, _)| *n == name) {
                continue;
            }
            // relative to the file's folder, or (a name in prose: `DESIGN.md`) to a folder above
            // it, up to the repository's root
            let here = root.join(rel.parent().unwrap_or(Path::new("")));
            let found = here.ancestors().take_while(|d| d.starts_with(&root)).any(|d| d.join(r).exists());
            if !found {
                bad.push(format!("{}:{}: {r} is no file of this repository", rel.display(), line(m.start())));
            }
        }
        if is_copy(&rel) {
            continue;
        }
        for c in cmd.captures_iter(&text) {
            let word = c.get(1).unwrap();
            if !UNSHIPPED.contains(&word.as_str()) {
                continue;
            }
            let at = c.get(0).unwrap().start();
            let cl = clause(&text, at);
            if cl.len() >= 12 && spec.contains(cl) {
                continue;
            }
            bad.push(format!(
                "{}:{}: `team {}` is no command of this build ({cl:?})",
                rel.display(),
                line(at),
                word.as_str()
            ));
        }
        // a command spelled in code quotes must be one this build ships
        for c in quoted.captures_iter(&text) {
            let word = c.get(1).unwrap().as_str();
            if shipped.iter().any(|n| n == word) || UNSHIPPED.contains(&word) {
                continue;
            }
            let at = c.get(0).unwrap().start();
            bad.push(format!("{}:{}: `team {word}` is no command of this build", rel.display(), line(at)));
        }
    }
    bad
}

#[test]
fn every_reference_names_a_file_the_repository_has_or_a_command_it_ships() {
    let files = scanned();
    // the scan reaches what it is meant to reach
    for must in [
        "README.md",
        "ARCHITECTURE.md",
        "tests/README.md",
        "docs/agents.md",
        "host/src/admission.rs",
        "schema/route.schema.json",
        ".ci/run",
    ] {
        assert!(files.iter().any(|f| f == Path::new(must)), "{must} is not scanned");
    }
    let bad = dangling();
    assert!(bad.is_empty(), "dangling references:\n{}", bad.join("\n"));
}

#[test]
fn the_check_finds_a_dangling_path_and_a_missing_command() {
    // the patterns the test relies on catch what they must (and a spec clause is spared)
    let md = Regex::new(r"(?:\.\./)*(?:[A-Za-z0-9_.<>~-]+/)*[A-Za-z0-9_.-]+\.md\b").unwrap();
    let hits: Vec<&str> =
        md.find_iter("see docs/profiles.md and ../shared/docs/herdr-0.8.2.md").map(|m| m.as_str()).collect();
    assert_eq!(hits, vec!["docs/profiles.md", "../shared/docs/herdr-0.8.2.md"]);
    assert!(!repo().join("docs/profiles.md").exists());
    let text = "x: session \"s\" is not running; run team up first\"";
    let at = text.find("team up").unwrap();
    assert_eq!(clause(text, at), "run team up first");
    assert!(spec_text().contains("run team up first"));
    assert!(!spec_text().contains("team up or team register writes it"));
}

#[test]
fn the_spec_and_the_design_are_in_the_repository_as_their_authors_wrote_them() {
    // the copy keeps the spec's own README, every command's page and the harness tool
    for f in
        ["README.md", "team-send.md", "team-register.md", "team-route.md", "team-feed.md", "harness-team_send-tool.txt"]
    {
        assert!(repo().join("docs/spec").join(f).is_file(), "docs/spec/{f}");
    }
    // the spec's README points at ../DESIGN.md: the design is there
    let readme = std::fs::read_to_string(repo().join("docs/spec/README.md")).unwrap();
    assert!(readme.contains("../DESIGN.md"));
    assert!(repo().join("docs/DESIGN.md").is_file());
}
