//! The daily log: `<root>/.agents/team.log`, one JSON line per command that ran — the command,
//! the caller, the seat, how it ended, and sizes.
//!
//! Invariant: a log line never carries a body (there is no field for one), and it is one
//! `write(2)` on an `O_APPEND` file, so concurrent runs never tear a line.

use super::{write_once, DIR_MODE, FILE_MODE};
use crate::fsx;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::Path;

/// One line of `<root>/.agents/team.log`: what ran, who ran it, which seat, how it ended,
/// and sizes. There is no body field on purpose.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct LogLine {
    pub command: String,
    pub caller: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    pub outcome: String,
    /// The body's size in bytes (never the body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<usize>,
    /// A short qualifier (a refusal's reason, "unverified", the drop's id); never the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The log line as written: `{"ts": …}` followed by the [`LogLine`] fields, one JSON object.
#[derive(Serialize)]
struct StampedLog<'a> {
    ts: &'a str,
    #[serde(flatten)]
    line: &'a LogLine,
}

/// Appends one line to `<root>/.agents/team.log` (0600, O_NOFOLLOW, one `write(2)` on an
/// O_APPEND file, so concurrent runs never tear a line). `.agents` is created 0700 when
/// missing; a symlink or FIFO at `.agents` or the log is refused. `ts` is the run's clock.
pub fn append_log(root: &Path, ts: &str, line: &LogLine) -> io::Result<()> {
    let agents = fsx::ensure_dirs(root, Path::new(".agents"), DIR_MODE)?;
    let path = agents.join("team.log");
    let mut bytes = serde_json::to_vec(&StampedLog { ts, line }).map_err(io::Error::other)?;
    bytes.push(b'\n');
    let mut f = fsx::open_append(&path, FILE_MODE)?;
    write_once(&mut f, &bytes, &path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn append_log_writes_no_body_and_is_0600() {
        let d = tempfile::tempdir().unwrap();
        let l = LogLine {
            command: "send".into(),
            caller: "owner".into(),
            seat: Some("gpt-reviewer".into()),
            outcome: "delivered".into(),
            bytes: Some(17),
            detail: None,
        };
        append_log(d.path(), "2026-10-01T09:00:00Z", &l).unwrap();
        append_log(d.path(), "2026-10-01T09:00:00Z", &l).unwrap();
        let p = d.path().join(".agents/team.log");
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        let text = fs::read_to_string(&p).unwrap();
        assert_eq!(text.lines().count(), 2);
        let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(v["command"], "send");
        assert_eq!(v["bytes"], 17);
        assert!(v.get("ts").is_some() && v.get("body").is_none());
        // A link at the log is refused.
        let d2 = tempfile::tempdir().unwrap();
        fs::create_dir(d2.path().join(".agents")).unwrap();
        std::os::unix::fs::symlink(d.path().join("x"), d2.path().join(".agents/team.log")).unwrap();
        assert!(append_log(d2.path(), "2026-10-01T09:00:00Z", &l).is_err());
    }
}
