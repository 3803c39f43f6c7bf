//! The CLI's own version as a launch can know it honestly: read from the package the running
//! CLI's program was installed from, never from the screen (a banner scrolls away, and a test
//! double draws a real one), never by running the CLI again (`claude --version` on the PATH may
//! be another install than the one in the pane), never from the team file (its `version:` is
//! the model's, as the spec's example writes `model: Claude Opus`, `version: "5.5"`).
//!
//! The rule (docs/launch.md): the recorded CLI process and, at most [`ANCESTORS`] up, the
//! processes that started it (Codex's npm launcher, `node …/bin/codex.js`, starts its native
//! binary); for each, its program — `/proc/<pid>/exe`, and its first argument when that is a
//! file (a script an interpreter runs) — and the npm package holding it: the folder right
//! under a `node_modules` (or a `node_modules/@scope`) whose `package.json` has a `version`
//! and a `bin` entry named as one of the profile's process names. The first such package
//! names the version.
//!
//! Invariant: no version is made up — a program in no such package (a native installer's
//! layout, a test double) has none, and says so.

use std::path::{Path, PathBuf};

/// How many processes above the CLI's are looked at.
pub const ANCESTORS: usize = 3;

/// The version of the CLI the process `pid` runs, its profile's process names `names`.
pub fn of_process(pid: u32, names: &[String]) -> Option<String> {
    let mut at = Some(pid);
    for _ in 0..=ANCESTORS {
        let p = at.filter(|p| *p > 1)?;
        if let Some(v) = programs(p).iter().find_map(|prog| installed(prog, names)) {
            return Some(v);
        }
        at = crate::mux::procfs::parent_of(p);
    }
    None
}

/// The files process `pid` runs: its executable, and its first argument when that names a
/// file (resolved against its working folder).
fn programs(pid: u32) -> Vec<PathBuf> {
    let proc = PathBuf::from(format!("/proc/{pid}"));
    let mut out: Vec<PathBuf> = std::fs::read_link(proc.join("exe")).into_iter().collect();
    let args = std::fs::read(proc.join("cmdline")).unwrap_or_default();
    if let Some(first) = args.split(|b| *b == 0).nth(1).and_then(|a| std::str::from_utf8(a).ok()) {
        let p = Path::new(first);
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::fs::read_link(proc.join("cwd")).map(|c| c.join(p)).unwrap_or_default()
        };
        if let Ok(real) = std::fs::canonicalize(&p) {
            if real.is_file() {
                out.push(real);
            }
        }
    }
    out
}

/// The version of the npm package holding `program`, when that package installs a command
/// named as one of `names`.
pub fn installed(program: &Path, names: &[String]) -> Option<String> {
    for dir in program.ancestors().skip(1) {
        let parent = dir.parent()?;
        let under_modules = parent.file_name().is_some_and(|n| n == "node_modules")
            || (parent.file_name().is_some_and(|n| n.to_string_lossy().starts_with('@'))
                && parent.parent().and_then(Path::file_name).is_some_and(|n| n == "node_modules"));
        if !under_modules {
            continue;
        }
        // the innermost package folder decides: a package nested in another is its own
        let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
        let pkg: serde_json::Value = serde_json::from_str(&text).ok()?;
        let version = pkg.get("version")?.as_str()?.trim();
        let commands: Vec<String> = match pkg.get("bin")? {
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            serde_json::Value::String(_) => {
                let name = pkg.get("name")?.as_str()?;
                vec![name.rsplit('/').next().unwrap_or(name).to_string()]
            }
            _ => return None,
        };
        let named = commands.iter().any(|c| names.iter().any(|n| n == c));
        let fits = !version.is_empty() && version.chars().all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c));
        return (named && fits).then(|| version.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(root: &Path, dir: &str, json: &str, program: &str) -> PathBuf {
        let d = root.join(dir);
        std::fs::create_dir_all(d.join("bin")).unwrap();
        std::fs::write(d.join("package.json"), json).unwrap();
        let p = d.join(program);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "").unwrap();
        p
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_installed_package_names_the_version_or_nothing_does() {
        let t = tempfile::tempdir().unwrap();
        // Claude Code 2.1.332 as npm lays it out (its native binary under bin/)
        let claude = package(
            t.path(),
            "node_modules/@anthropic-ai/claude-code",
            r#"{"name":"@anthropic-ai/claude-code","version":"2.1.332","bin":{"claude":"bin/claude.exe"}}"#,
            "bin/claude.exe",
        );
        assert_eq!(installed(&claude, &names(&["claude", "claude.exe"])).as_deref(), Some("2.1.332"));
        // Codex 0.171.0: the launcher script's package; its native binary's platform package
        // installs no command, so it names nothing (its `0.171.0-linux-x64` is not the CLI's)
        let launcher = package(
            t.path(),
            "node_modules/@openai/codex",
            r#"{"name":"@openai/codex","version":"0.171.0","bin":{"codex":"bin/codex.js"}}"#,
            "bin/codex.js",
        );
        assert_eq!(installed(&launcher, &names(&["codex"])).as_deref(), Some("0.171.0"));
        let native = package(
            t.path(),
            "node_modules/@openai/codex-linux-x64",
            r#"{"name":"@openai/codex","version":"0.171.0-linux-x64"}"#,
            "vendor/x86_64-unknown-linux-musl/bin/codex",
        );
        assert_eq!(installed(&native, &names(&["codex"])), None);
        // a package whose command is not the CLI's (npx, run by `npx claude`) names nothing
        let npm = package(
            t.path(),
            "node_modules/npm",
            r#"{"name":"npm","version":"10.9.0","bin":{"npm":"bin/npm-cli.js","npx":"bin/npx-cli.js"}}"#,
            "bin/npx-cli.js",
        );
        assert_eq!(installed(&npm, &names(&["claude"])), None);
        // a `bin` given as one path installs the package's own name
        let solo =
            package(t.path(), "node_modules/qwen", r#"{"name":"qwen","version":"0.24.4","bin":"cli.js"}"#, "cli.js");
        assert_eq!(installed(&solo, &names(&["qwen"])).as_deref(), Some("0.24.4"));
        // a program in no package (a test double, a native installer's folder) has none
        let fake = t.path().join("target/debug/fake-seat");
        std::fs::create_dir_all(fake.parent().unwrap()).unwrap();
        std::fs::write(&fake, "").unwrap();
        assert_eq!(installed(&fake, &names(&["claude"])), None);
        // a version that is no version word is not shown
        let odd =
            package(t.path(), "node_modules/odd", "{\"name\":\"odd\",\"version\":\"1\\u001b[31m\",\"bin\":\"x\"}", "x");
        assert_eq!(installed(&odd, &names(&["odd"])), None);
    }

    #[test]
    fn a_process_outside_any_package_has_no_version() {
        // this test binary runs from target/, in no npm package
        assert_eq!(of_process(std::process::id(), &names(&["claude"])), None);
    }
}
