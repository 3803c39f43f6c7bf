//! Where profile components come from: bundled in the binary (`profile-artifacts`) and
//! dropped in by vendors as `<config>/profiles/<id>/<version>.wasm`.
//!
//! Invariant: discovery never runs guest code and never follows a symbolic link; a dropped-in
//! file whose name is not `<version>.wasm` is listed as invalid, not guessed at. Bundled
//! components carry their sha256 from build time, so nothing is hashed for them at run time.

use std::borrow::Cow;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::pins::Version;
use super::LoadError;

/// Where a profile component comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Embedded in the `team` binary.
    Bundled,
    /// A file: dropped in under `<config>/profiles/`, or named by `--profile`/`check`.
    Path(std::path::PathBuf),
}

impl Source {
    /// `bundled` or `path`, for `--json`.
    pub fn word(&self) -> &'static str {
        match self {
            Source::Bundled => "bundled",
            Source::Path(_) => "path",
        }
    }
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Bundled => None,
            Source::Path(p) => Some(p),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Bundled => f.write_str("bundled"),
            Source::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

/// One installed profile as `team profile list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Available {
    pub id: String,
    pub version: String,
    pub source: Source,
    /// `Ok` when the host would use it; `Err(why)` when it is refused.
    pub validity: Result<(), LoadError>,
}

/// The largest component file the host reads (a bundled profile is about 110 kB; the
/// largest a vendor might build with a heavy dependency, a few MB).
pub const MAX_COMPONENT_BYTES: u64 = 16 << 20;

/// One installed component, not yet loaded.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: String,
    /// The version as its path or bundle names it.
    pub version_text: String,
    /// The parsed version, or why it does not parse.
    pub version: Result<Version, LoadError>,
    pub source: Source,
    /// Bundled: the embedded bytes.
    embedded: Option<&'static [u8]>,
    /// Bundled: the sha256 known at build time.
    pub sha256: Option<&'static str>,
    /// Bundled: the description its `describe()` gives, as JSON, known at build time.
    pub description: Option<&'static str>,
}

impl Candidate {
    /// The component's bytes: embedded, or read from its file (no symlink followed).
    pub fn bytes(&self) -> Result<Cow<'static, [u8]>, LoadError> {
        match (self.embedded, &self.source) {
            (Some(b), _) => Ok(Cow::Borrowed(b)),
            (None, Source::Path(p)) => {
                read_component(p).map(Cow::Owned).map_err(|e| LoadError::Unreadable(e.to_string()))
            }
            (None, Source::Bundled) => Err(LoadError::NotBuilt),
        }
    }
}

/// A profile id as a team file's `cli:` names it: `[a-z0-9][a-z0-9._-]{0,62}`.
pub fn valid_id(id: &str) -> bool {
    let b = id.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'.' | b'_' | b'-'))
}

/// The bundled components (built for wasm32-wasip2 by `profile-artifacts`).
fn bundled() -> impl Iterator<Item = Candidate> {
    profile_artifacts::BUNDLED.iter().map(|b| Candidate {
        id: b.id.to_string(),
        version_text: b.version.to_string(),
        version: Version::parse(b.version).map_err(|e| LoadError::Misplaced(e.to_string())),
        source: Source::Bundled,
        embedded: Some(b.bytes),
        sha256: Some(b.sha256),
        description: Some(b.description),
    })
}

/// Every installed component, bundled first then dropped in (by id, then file name);
/// `only` restricts to one id (and then reads only that id's folder).
pub fn candidates(config: &Path, only: Option<&str>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = bundled().filter(|c| only.is_none_or(|id| c.id == id)).collect();
    out.extend(dropped_in(config, only));
    out
}

/// `claude-code 0.1.0 (bundled), …` for refusals.
pub fn installed_summary(config: &Path) -> String {
    let all = candidates(config, None);
    if all.is_empty() {
        return "none".into();
    }
    all.iter().map(|c| format!("{} {} ({})", c.id, c.version_text, c.source)).collect::<Vec<_>>().join(", ")
}

fn dropped_in(config: &Path, only: Option<&str>) -> Vec<Candidate> {
    let root = config.join("profiles");
    // A symlinked or missing rung between <config> and profiles/ means nothing is dropped in.
    if crate::fsx::check_ladder(config, &root).is_err() || !root.is_dir() {
        return Vec::new();
    }
    let ids: Vec<String> = match only {
        // A cli that is not an id names no folder (and never a path such as `../x`).
        Some(id) if !valid_id(id) => return Vec::new(),
        Some(id) => vec![id.to_string()],
        None => sorted_names(&root),
    };
    let mut out = Vec::new();
    for id in ids {
        let dir = root.join(&id);
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            _ => continue,
        }
        for name in sorted_names(&dir) {
            let Some(stem) = name.strip_suffix(".wasm") else { continue };
            let path = dir.join(&name);
            let version = if !valid_id(&id) {
                Err(format!("its folder name \"{id}\" is not a profile id"))
            } else {
                match fs::symlink_metadata(&path) {
                    Ok(m) if m.file_type().is_symlink() => {
                        Err("it is a symbolic link; refusing to follow it".to_string())
                    }
                    Ok(m) if !m.is_file() => Err("it is not a regular file".to_string()),
                    Ok(_) => Version::parse(stem).map_err(|_| {
                        format!("its file name is not <version>.wasm (\"{stem}\" is not a version such as 1.4.0)")
                    }),
                    Err(e) => Err(e.to_string()),
                }
            }
            .map_err(LoadError::Misplaced);
            out.push(Candidate {
                id: id.clone(),
                version_text: stem.to_string(),
                version,
                source: Source::Path(path),
                embedded: None,
                sha256: None,
                description: None,
            });
        }
    }
    out
}

fn sorted_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = match fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

/// Reads a component file: no symlink at the file, a regular file, at most
/// `MAX_COMPONENT_BYTES`.
pub fn read_component(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::fsx::check_entry(path)?;
    let mut f = OpenOptions::new().read(true).custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK).open(path)?;
    let m = f.metadata()?;
    if !m.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"));
    }
    if m.len() > MAX_COMPONENT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} bytes is larger than a profile may be ({} MiB)", m.len(), MAX_COMPONENT_BYTES >> 20),
        ));
    }
    let mut v = Vec::with_capacity(m.len() as usize);
    f.read_to_end(&mut v)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_seat_name_grammar() {
        assert!(valid_id("claude-code"));
        assert!(valid_id("grok-cli"));
        assert!(!valid_id("Codex"));
        assert!(!valid_id("-x"));
        assert!(!valid_id(""));
        assert!(!valid_id("a/b"));
    }

    #[test]
    fn dropped_in_files_are_listed_with_their_path_version() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("profiles");
        fs::create_dir_all(p.join("codex")).unwrap();
        fs::create_dir_all(p.join("Bad")).unwrap();
        fs::write(p.join("codex/1.5.0.wasm"), b"x").unwrap();
        fs::write(p.join("codex/latest.wasm"), b"x").unwrap();
        fs::write(p.join("codex/notes.txt"), b"x").unwrap();
        fs::write(p.join("Bad/1.0.0.wasm"), b"x").unwrap();
        std::os::unix::fs::symlink(p.join("codex/1.5.0.wasm"), p.join("codex/1.6.0.wasm")).unwrap();
        let got = dropped_in(d.path(), None);
        let names: Vec<(String, String, bool)> =
            got.iter().map(|c| (c.id.clone(), c.version_text.clone(), c.version.is_ok())).collect();
        assert_eq!(
            names,
            vec![
                ("Bad".into(), "1.0.0".into(), false),
                ("codex".into(), "1.5.0".into(), true),
                ("codex".into(), "1.6.0".into(), false),
                ("codex".into(), "latest".into(), false),
            ]
        );
        assert!(got[2].version.as_ref().unwrap_err().to_string().contains("symbolic link"));
        assert_eq!(dropped_in(d.path(), Some("codex")).len(), 3);
        assert!(dropped_in(d.path(), Some("cursor")).is_empty());
        assert!(dropped_in(&d.path().join("profiles/codex"), Some("..")).is_empty());
    }

    #[test]
    fn a_symlinked_profiles_folder_is_ignored() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("elsewhere");
        fs::create_dir_all(real.join("codex")).unwrap();
        fs::write(real.join("codex/1.0.0.wasm"), b"x").unwrap();
        std::os::unix::fs::symlink(&real, d.path().join("profiles")).unwrap();
        assert!(dropped_in(d.path(), None).is_empty());
    }
}
