//! The drop file and the one line that names it: where a message is written for its seat,
//! and how the trigger spells that place from the seat's own folder.
//!
//! Invariant: a drop file appears whole, mode 0600, in folders each 0700, and never replaces
//! another (its name is the message id): a send that cannot write it has typed nothing. A drop
//! path is only ever built from an id that follows the id grammar (`vocab::id`): one read
//! back from a file that does not is refused here, never joined into a path.

use std::path::{Path, PathBuf};

/// Why a drop file was not written (or its place cannot be named).
#[derive(Debug, thiserror::Error)]
pub enum DropError {
    /// The session or seat breaks the name rule (`names::check`'s sentence).
    #[error("the drop folder cannot be named: {0}")]
    BadFolderName(String),
    #[error("the drop file cannot be named: {0}")]
    BadId(#[from] crate::vocab::id::NotAnId),
    #[error("the drop folder could not be made: {0}")]
    Folder(std::io::Error),
    /// It could not be written, or a file stands there already (never replaced).
    #[error("the drop file could not be written: {0}")]
    Write(std::io::Error),
}

/// Writes the drop file: `<root>/.agents/send-drops/<session>/<seat>/<id>`, each folder 0700.
/// The names were checked when their files were read; a drop path is still built from
/// nothing else. `.agents` is the checkout's (its mode is the user's); `send-drops` and below
/// are `team`'s own and must be private.
pub fn write_drop(root: &Path, session: &str, seat: &str, id: &str, text: &str) -> Result<PathBuf, DropError> {
    use crate::vocab::names::{check, Kind};
    check(Kind::Session, session).and_then(|()| check(Kind::Seat, seat)).map_err(DropError::BadFolderName)?;
    crate::vocab::id::check_id(id)?;
    let agents = crate::fsx::ensure_dirs(root, Path::new(".agents"), 0o700).map_err(DropError::Folder)?;
    let dir = crate::fsx::ensure_private_dirs(&agents.join("send-drops"), &Path::new(session).join(seat), 0o700)
        .map_err(DropError::Folder)?;
    crate::fsx::sweep_stale_temps(&dir);
    let path = dir.join(id);
    crate::fsx::write_new(&path, text.as_bytes(), 0o600).map_err(DropError::Write)?;
    Ok(path)
}

/// Where [`write_drop`] puts the drop of message `id` for `seat` of `session` under `root`;
/// refused (the sentence says why) when `id` is no message id: an id from a file is never
/// joined into a path unchecked (`/etc/hostname` would replace the whole path).
pub fn drop_path(root: &Path, session: &str, seat: &str, id: &str) -> Result<PathBuf, DropError> {
    crate::vocab::id::check_id(id)?;
    Ok(root.join(".agents").join("send-drops").join(session).join(seat).join(id))
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

/// The words every trigger line starts with.
pub const TRIGGER_PREFIX: &str = "Please read the team message at ";

/// The trigger line for a drop path: one line, starting with a plain word no profile forbids.
pub fn trigger_line(drop_ref: &str) -> String {
    format!("{TRIGGER_PREFIX}{drop_ref}")
}

/// A box's text read back as a trigger of ours: `(the drop's path, its message id)`, when it
/// is one (however the box wrapped it: whitespace inside the path is dropped).
pub fn parse_trigger(text: &str) -> Option<(String, String)> {
    let fold: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let rest = fold.strip_prefix(TRIGGER_PREFIX.trim_end())?.trim();
    let path: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
    let id = path.rsplit('/').next()?.to_string();
    (path.contains("send-drops/") && crate::vocab::id::valid_id(&id)).then_some((path, id))
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
    fn a_trigger_is_read_back_from_a_box_however_it_wrapped() {
        let id = "00000000-0000-4007-8000-000000000000";
        let t = trigger_line(&format!(".agents/send-drops/s/a/{id}"));
        assert_eq!(parse_trigger(&t), Some((format!(".agents/send-drops/s/a/{id}"), id.to_string())));
        let wrapped = format!("Please read the team   message at .agents/send-dr\nops/s/a/{id}");
        assert_eq!(parse_trigger(&wrapped).map(|p| p.1), Some(id.to_string()));
        assert_eq!(parse_trigger("Please read the team message at my notes"), None);
        assert_eq!(parse_trigger("half a thought"), None);
    }

    #[test]
    fn a_drop_is_written_whole_once_with_its_modes() {
        let d = tempfile::tempdir().unwrap();
        let id = "00000000-0000-4007-8000-000000000000";
        let p = write_drop(d.path(), "s", "a", id, "from x\n\nbody").unwrap();
        assert_eq!(p, d.path().join(".agents/send-drops/s/a").join(id));
        assert_eq!(p, drop_path(d.path(), "s", "a", id).unwrap(), "one spelling of where a drop is");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "from x\n\nbody");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(p.parent().unwrap()), 0o700);
        let e = write_drop(d.path(), "s", "a", id, "again").unwrap_err().to_string();
        assert!(e.starts_with("the drop file could not be written: "), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "from x\n\nbody", "never replaced");
    }

    #[test]
    fn an_id_that_is_no_message_id_never_becomes_a_drop_path() {
        let d = tempfile::tempdir().unwrap();
        for bad in ["/etc/hostname", "../../x", "", "id1", "00000000-0000-4007-8000-00000000000/"] {
            let e = drop_path(d.path(), "s", "a", bad).unwrap_err().to_string();
            assert!(e.starts_with("the drop file cannot be named: \""), "{e}");
            assert!(write_drop(d.path(), "s", "a", bad, "x").is_err());
        }
        assert!(!d.path().join(".agents").exists(), "nothing made");
        let t = "Please read the team message at .agents/send-drops/s/a/..";
        assert_eq!(parse_trigger(t), None);
    }
}
