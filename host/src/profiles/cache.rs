//! The cache of precompiled components: `<cache>/profiles/<wasmtime-version>/<key>.cwasm`.
//!
//! Invariant: a `.cwasm` is native code, so the host only ever deserializes files it wrote
//! itself into a folder only the user can write (0700, files 0600, no symlink on the way,
//! owned by the user). Never is a precompiled artifact taken from a user or a profile
//! package: the input is always the component's `.wasm` bytes, and the key binds the cached
//! code to those exact bytes (`sha256`) and to the engine that compiled them
//! (`precompile_compatibility_hash` — wasmtime version, target CPU features, codegen config
//! such as epoch interruption — plus the `team` version). A file that fails to deserialize is
//! recompiled and overwritten.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use wasmtime::component::Component;
use wasmtime::Engine;

use super::engine::WASMTIME_VERSION;

/// A `Hasher` whose output is stable: every write goes into sha256 (std's `DefaultHasher`
/// is not guaranteed stable across Rust releases).
struct StableHasher(Sha256);

impl Hasher for StableHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        // Unused: callers read the whole digest.
        0
    }
}

/// Hex of the sha256 of `bytes` (for dropped-in components; bundled ones carry theirs).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// What a lookup did, for tests and `check --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheUse {
    /// Deserialized a cached file.
    Hit,
    /// Compiled and wrote the file.
    Miss,
    /// A cached file was there but unusable; compiled and overwrote it.
    Replaced,
    /// Compiled; the cache could not be written (the reason is ignored: a cache is optional).
    Uncached,
}

impl CacheUse {
    /// `hit`, `miss`, `replaced` or `uncached`, for `--json`.
    pub fn word(self) -> &'static str {
        match self {
            CacheUse::Hit => "hit",
            CacheUse::Miss => "miss",
            CacheUse::Replaced => "replaced",
            CacheUse::Uncached => "uncached",
        }
    }
}

/// The cache for one engine.
pub struct Cache {
    root: PathBuf,
    engine_key: String,
}

impl Cache {
    /// The cache under `cache_root` (normally the run's `<cache>`, `Paths::cache`), keyed for `engine`.
    pub fn new(engine: &Engine, cache_root: PathBuf) -> Cache {
        let mut h = StableHasher(Sha256::new());
        engine.precompile_compatibility_hash().hash(&mut h);
        env!("CARGO_PKG_VERSION").hash(&mut h);
        Cache { root: cache_root, engine_key: hex(&h.0.finalize()) }
    }

    /// `<cache>/profiles/<wasmtime-version>`.
    pub fn dir(&self) -> PathBuf {
        self.root.join("profiles").join(WASMTIME_VERSION)
    }

    /// The file for a component with this sha256.
    pub fn path_for(&self, sha256: &str) -> PathBuf {
        let mut h = Sha256::new();
        h.update(self.engine_key.as_bytes());
        h.update(b"\0");
        h.update(sha256.as_bytes());
        self.dir().join(format!("{}.cwasm", hex(&h.finalize())))
    }

    /// The compiled component for `wasm` (whose sha256 is `sha256`): from the cache when a
    /// trusted file is there and deserializes, else compiled (and cached when possible).
    // The crate's one `unsafe`: wasmtime cannot check that native code is what it claims.
    #[allow(unsafe_code)]
    pub fn component(&self, engine: &Engine, wasm: &[u8], sha256: &str) -> wasmtime::Result<(Component, CacheUse)> {
        let path = self.path_for(sha256);
        let mut was_there = false;
        if self.trusted(&path) {
            was_there = true;
            // SAFETY: the file was written by this host (see `trusted`: our own folder,
            // owner-only modes, no symlink) from the component whose hash is in its name,
            // by an engine with the same compatibility hash; wasmtime checks the header and
            // refuses artifacts from another engine configuration.
            if let Ok(c) = unsafe { Component::deserialize_file(engine, &path) } {
                return Ok((c, CacheUse::Hit));
            }
        } else if path.symlink_metadata().is_ok() {
            was_there = true;
        }
        let compiled = engine.precompile_component(wasm)?;
        let how = match self.store(&path, &compiled) {
            Ok(()) if was_there => CacheUse::Replaced,
            Ok(()) => CacheUse::Miss,
            Err(_) => CacheUse::Uncached,
        };
        // SAFETY: these bytes were produced by `precompile_component` on this engine just now.
        let c = unsafe { Component::deserialize(engine, &compiled)? };
        Ok((c, how))
    }

    /// A cached file is trusted only when every rung from `<cache>` down is a real folder or
    /// file (no symlink), the folders are not writable by others, and the file is ours and
    /// not writable by others.
    fn trusted(&self, path: &Path) -> bool {
        if crate::fsx::check_ladder(&self.root, path).is_err() {
            return false;
        }
        let uid = nix::unistd::getuid().as_raw();
        let ok = |p: &Path, want_dir: bool| match p.symlink_metadata() {
            Ok(m) => m.is_dir() == want_dir && m.uid() == uid && m.mode() & 0o022 == 0,
            Err(_) => false,
        };
        let dir = self.dir();
        ok(&dir, true) && ok(dir.parent().unwrap_or(&dir), true) && ok(path, false)
    }

    fn store(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let rel = Path::new("profiles").join(WASMTIME_VERSION);
        crate::fsx::ensure_dirs(&self.root, &rel, 0o700)?;
        // Something planted where the artifact goes (a symlink, a FIFO) is removed, not
        // followed: the rename below then puts a file of ours there.
        if let Ok(m) = path.symlink_metadata() {
            if !m.is_file() {
                std::fs::remove_file(path)?;
            }
        }
        crate::fsx::write_atomic(path, bytes, 0o600)
    }
}

/// Where the description of the component with this sha256 is kept:
/// `<cache>/profiles/describe/<key>.json`, key = sha256 of the `team` version and the
/// component's sha256. `describe()` runs with no clock, no randomness but a fixed seed and
/// no input, so its answer is a function of the component bytes alone; it is written only
/// after the component passed validation, so a hit also says "this component validated".
pub fn description_path(cache_root: &Path, sha256: &str) -> PathBuf {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(b"\0");
    h.update(sha256.as_bytes());
    cache_root.join("profiles").join("describe").join(format!("{}.json", hex(&h.finalize())))
}

/// The cached description, when one is there and parses (anything else is a miss).
pub fn read_description(cache_root: &Path, sha256: &str) -> Option<super::Description> {
    let p = description_path(cache_root, sha256);
    crate::fsx::check_ladder(cache_root, &p).ok()?;
    let text = crate::fsx::read_to_string(&p).ok()??;
    serde_json::from_str(&text).ok()
}

/// Records a validated component's description (best effort: a cache is optional).
pub fn write_description(cache_root: &Path, sha256: &str, d: &super::Description) {
    let p = description_path(cache_root, sha256);
    let Ok(text) = serde_json::to_string(d) else { return };
    if crate::fsx::ensure_dirs(cache_root, Path::new("profiles/describe"), 0o700).is_ok() {
        let _ = crate::fsx::write_atomic(&p, text.as_bytes(), 0o600);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_hasher_is_sha256_of_the_written_bytes() {
        let mut h = StableHasher(Sha256::new());
        h.write(b"abc");
        assert_eq!(hex(&h.0.finalize()), sha256_hex(b"abc"));
        assert_eq!(sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    #[test]
    fn the_key_depends_on_the_component_and_is_stable() {
        let engine = super::super::engine::engine().unwrap();
        let d = tempfile::tempdir().unwrap();
        let a = Cache::new(engine, d.path().to_path_buf());
        let b = Cache::new(engine, d.path().to_path_buf());
        assert_eq!(a.path_for("00"), b.path_for("00"));
        assert_ne!(a.path_for("00"), a.path_for("01"));
        assert!(a.path_for("00").starts_with(d.path().join("profiles").join(WASMTIME_VERSION)));
    }
}
