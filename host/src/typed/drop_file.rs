//! The drop file and the one line that names it: where a message is written for its seat,
//! and how the trigger spells that place from the seat's own folder.
//!
//! Invariant: a drop file appears whole, mode 0600, in folders each 0700, and never replaces
//! another (its name is the message id): a send that cannot write it has typed nothing.

use std::path::{Path, PathBuf};

/// Writes the drop file: `<root>/.agents/send-drops/<session>/<seat>/<id>`, each folder 0700.
pub fn write_drop(root: &Path, session: &str, seat: &str, id: &str, text: &str) -> Result<PathBuf, String> {
    let rel = Path::new(".agents").join("send-drops").join(session).join(seat);
    let dir =
        crate::fsx::ensure_dirs(root, &rel, 0o700).map_err(|e| format!("the drop folder could not be made: {e}"))?;
    let path = dir.join(id);
    crate::fsx::write_new(&path, text.as_bytes(), 0o600)
        .map_err(|e| format!("the drop file could not be written: {e}"))?;
    Ok(path)
}

/// Where [`write_drop`] puts the drop of message `id` for `seat` of `session` under `root`.
pub fn drop_path(root: &Path, session: &str, seat: &str, id: &str) -> PathBuf {
    root.join(".agents").join("send-drops").join(session).join(seat).join(id)
}

/// How the trigger names the drop: relative to the seat's folder when the seat works inside
/// the team's checkout, absolute otherwise.
pub fn drop_ref(drop: &Path, root: &Path, seat_cwd: Option<&Path>) -> String {
    let (Some(cwd), Ok(rel)) = (seat_cwd, drop.strip_prefix(root)) else {
        return drop.display().to_string();
    };
    let Ok(inner) = cwd.strip_prefix(root) else {
        return drop.display().to_string();
    };
    let ups = inner.components().count();
    let mut p = PathBuf::new();
    for _ in 0..ups {
        p.push("..");
    }
    p.push(rel);
    p.display().to_string()
}

/// The trigger line for a drop path: one line, starting with a plain word no profile forbids.
pub fn trigger_line(drop_ref: &str) -> String {
    format!("Please read the team message at {drop_ref}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn drop_refs_are_relative_inside_the_checkout_only() {
        let root = Path::new("/r");
        let drop = Path::new("/r/.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(root)), ".agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(Path::new("/r/sub"))), "../.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, Some(Path::new("/elsewhere"))), "/r/.agents/send-drops/s/a/1");
        assert_eq!(drop_ref(drop, root, None), "/r/.agents/send-drops/s/a/1");
    }

    #[test]
    fn a_drop_is_written_whole_once_with_its_modes() {
        let d = tempfile::tempdir().unwrap();
        let p = write_drop(d.path(), "s", "a", "id1", "from x\n\nbody").unwrap();
        assert_eq!(p, d.path().join(".agents/send-drops/s/a/id1"));
        assert_eq!(p, drop_path(d.path(), "s", "a", "id1"), "one spelling of where a drop is");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "from x\n\nbody");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(p.parent().unwrap()), 0o700);
        let e = write_drop(d.path(), "s", "a", "id1", "again").unwrap_err();
        assert!(e.starts_with("the drop file could not be written: "), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "from x\n\nbody", "never replaced");
    }
}
