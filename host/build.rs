//! Names the commit the binary is built from (`team --version`): `TEAM_COMMIT` is the short
//! hash git gives for HEAD, or `unknown` when the source is not a git checkout (a crate
//! tarball). Rebuilt when HEAD moves, never on every build.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

/// Asks cargo to rerun when `path` changes — only for a path that exists (a missing one would
/// rerun the script on every build).
fn watch(path: &str) {
    if std::path::Path::new(path).exists() {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=TEAM_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        watch(&format!("{dir}/HEAD"));
    }
    if let (Some(common), Some(head)) =
        (git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]), git(&["symbolic-ref", "-q", "HEAD"]))
    {
        watch(&format!("{common}/{head}"));
        watch(&format!("{common}/packed-refs"));
    }
}
