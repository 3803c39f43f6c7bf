//! The Desk's audit lines: the guard's and the bridge's `audit.jsonl` files, read as events
//! beside the messages — `<config>/lobby/audit.jsonl` and `<config>/lobby/<any>/audit.jsonl`,
//! or the file or folder a run names.
//!
//! Invariants: reading writes nothing; a link or FIFO on the way is refused (`fsx`), never
//! followed; a line that is not a JSON object or has no time is skipped and counted, and a
//! line naming another project is left out. Each field is read by the first of its aliases:
//! time `ts`, `time`, `at`; actor `from`, `actor`, `caller`, `sender`; target `to`, `target`,
//! `seat`; action `action`, `event`, `decision`, `outcome`; text `detail`, `reason`,
//! `message`, `summary`.

use crate::fsx;
use serde_json::{Map, Value};
use std::io;
use std::path::{Path, PathBuf};

/// One audit line, its fields read by their aliases, the whole object kept as `record`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditLine {
    pub ts: String,
    pub from: Option<String>,
    pub to: Option<String>,
    pub action: Option<String>,
    pub detail: Option<String>,
    pub path: PathBuf,
    pub record: Value,
}

/// `path` itself when it is a file; `path/audit.jsonl` and `path/<any>/audit.jsonl` when it
/// is a folder. `ladder_base` (the `<config>` for the default lobby) has its ladder checked.
pub fn audit_files(path: &Path, ladder_base: Option<&Path>) -> io::Result<Vec<PathBuf>> {
    match ladder_base {
        Some(base) => fsx::check_ladder(base, path)?,
        None => {
            fsx::check_entry(path)?;
        }
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let top = path.join("audit.jsonl");
    if fsx::check_entry(&top)? {
        out.push(top);
    }
    let mut subs: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            subs.push(entry.path());
        }
    }
    subs.sort();
    for sub in subs {
        let p = sub.join("audit.jsonl");
        if fsx::check_entry(&p)? {
            out.push(p);
        }
    }
    Ok(out)
}

/// The audit lines of one file (a missing file holds none), and how many were skipped.
/// `project`: the run's project; lines naming another are left out.
pub fn read_audit(path: &Path, project: Option<&str>) -> io::Result<(Vec<AuditLine>, usize)> {
    let text = fsx::read_to_string(path)?.unwrap_or_default();
    Ok(parse_audit(&text, path, project))
}

fn first_str(obj: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| obj.get(*k).and_then(Value::as_str)).map(str::to_string)
}

/// The audit lines of `text` (the file at `path`), and how many were skipped.
pub fn parse_audit(text: &str, path: &Path, project: Option<&str>) -> (Vec<AuditLine>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(line) else {
            skipped += 1;
            continue;
        };
        let Some(ts) = first_str(&obj, &["ts", "time", "at"]) else {
            skipped += 1;
            continue;
        };
        if let (Some(p), Some(Value::String(lp))) = (project, obj.get("project")) {
            if lp != p {
                continue;
            }
        }
        out.push(AuditLine {
            ts,
            from: first_str(&obj, &["from", "actor", "caller", "sender"]),
            to: first_str(&obj, &["to", "target", "seat"]),
            action: first_str(&obj, &["action", "event", "decision", "outcome"]),
            detail: first_str(&obj, &["detail", "reason", "message", "summary"]),
            path: path.to_path_buf(),
            record: Value::Object(obj),
        });
    }
    (out, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_lines_are_read_by_their_aliases() {
        let text = r#"{"time":"2026-11-29T09:00:01Z","actor":"guard","target":"gpt-reviewer","decision":"denied","reason":"not  granted"}
not json
{"no":"time"}
{"ts":"2026-11-29T09:00:02Z","project":"other","action":"x"}
{"ts":"2026-11-29T09:00:03Z","project":"beacon","event":"bridged"}
"#;
        let (out, skipped) = parse_audit(text, Path::new("/l/audit.jsonl"), Some("beacon"));
        assert_eq!(skipped, 2);
        assert_eq!(out.len(), 2);
        let a = &out[0];
        assert_eq!(
            (a.ts.as_str(), a.from.as_deref(), a.to.as_deref()),
            ("2026-11-29T09:00:01Z", Some("guard"), Some("gpt-reviewer"))
        );
        assert_eq!((a.action.as_deref(), a.detail.as_deref()), (Some("denied"), Some("not  granted")));
        assert_eq!(a.record["reason"], "not  granted");
        assert_eq!(a.path, Path::new("/l/audit.jsonl"));
        let b = &out[1];
        assert_eq!((b.action.as_deref(), b.from.as_deref(), b.to.as_deref()), (Some("bridged"), None, None));
    }

    #[test]
    fn a_lobby_folder_holds_its_own_audit_and_its_subfolders() {
        let d = tempfile::tempdir().unwrap();
        let lobby = d.path().join("lobby");
        std::fs::create_dir_all(lobby.join("b")).unwrap();
        std::fs::create_dir_all(lobby.join("a")).unwrap();
        std::fs::write(lobby.join("audit.jsonl"), "").unwrap();
        std::fs::write(lobby.join("b/audit.jsonl"), "").unwrap();
        std::fs::write(lobby.join("a/audit.jsonl"), "").unwrap();
        assert_eq!(
            audit_files(&lobby, Some(d.path())).unwrap(),
            vec![lobby.join("audit.jsonl"), lobby.join("a/audit.jsonl"), lobby.join("b/audit.jsonl")]
        );
        assert!(audit_files(&d.path().join("none"), Some(d.path())).unwrap().is_empty());
        std::os::unix::fs::symlink(&lobby, d.path().join("link")).unwrap();
        assert!(audit_files(&d.path().join("link"), Some(d.path())).is_err());
    }
}
