//! The owner-signed send grants of `<config>/grants/`: read as plain files only, each a
//! `send:` pair (`from`, `to`) with an `expires` time. What is not a grant this build reads is
//! passed over — and said, where a refusal lists the grants it found for the pair.

use std::path::Path;

use serde::Deserialize;

use crate::fsx;

/// One owner-signed send grant, as read from `<config>/grants/<file>.yaml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Grant {
    /// The file name (`builder-to-lead.yaml`): the rule's name in the header and history.
    pub file: String,
    pub from: String,
    pub to: String,
    pub expires: chrono::DateTime<chrono::Utc>,
}

#[derive(Deserialize)]
struct RawGrant {
    send: Option<RawPair>,
    expires: Option<String>,
}

#[derive(Deserialize)]
struct RawPair {
    from: Option<String>,
    to: Option<String>,
}

/// Reads the send grants in `<config>/grants/`, in file-name order. Only well-formed send
/// grants are returned: a symbolic link, FIFO, unreadable or malformed file, one without a
/// `send:` pair (a standing create-grant), or one whose `expires` does not parse, is not a
/// grant — it is passed over as if absent. A symlinked `grants/` folder holds no grant.
pub fn send_grants(dir: &Path) -> Vec<Grant> {
    read_send_grants(dir).0
}

/// As [`send_grants`], with the files that were passed over and why (a refusal names them):
/// a link or unreadable file, and a `send:` grant this build cannot read. A file with no
/// `send:` pair is another kind of grant and is not listed.
pub fn read_send_grants(dir: &Path) -> (Vec<Grant>, Vec<(String, String)>) {
    let gdir = dir.join("grants");
    if fsx::check_ladder(dir, &gdir).is_err() || !gdir.is_dir() {
        return (Vec::new(), Vec::new());
    }
    let Some(names) = grant_files(&gdir) else { return (Vec::new(), Vec::new()) };
    let (mut out, mut passed) = (Vec::new(), Vec::new());
    let bad = "its send: grant is not one this build reads (send: from:, to:, and expires: an RFC 3339 time)";
    for n in names {
        let text = match fsx::read_capped(&gdir.join(&n), fsx::RECORD_MAX) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                let kind = std::fs::symlink_metadata(gdir.join(&n)).map(|m| m.file_type());
                let why = match kind {
                    Ok(k) if k.is_symlink() => {
                        "it is a symbolic link, and a grant is read only from a plain file".into()
                    }
                    _ => format!("it cannot be read as a plain file ({e})"),
                };
                passed.push((n, why));
                continue;
            }
        };
        let Ok(raw) = serde_saphyr::from_str::<RawGrant>(&text) else {
            passed.push((n, "it is not YAML this build reads".into()));
            continue;
        };
        let Some(pair) = raw.send else { continue };
        let (Some(from), Some(to), Some(exp)) = (pair.from, pair.to, raw.expires) else {
            passed.push((n, bad.into()));
            continue;
        };
        let Ok(expires) = chrono::DateTime::parse_from_rfc3339(exp.trim()) else {
            passed.push((n, bad.into()));
            continue;
        };
        out.push(Grant {
            file: n,
            from: from.trim().to_string(),
            to: to.trim().to_string(),
            expires: expires.with_timezone(&chrono::Utc),
        });
    }
    (out, passed)
}

/// The grant files of `gdir` (`*.yaml`, `*.yml`, not hidden), sorted; `None` when the folder
/// cannot be listed. The caller has checked the folder's ladder.
pub(crate) fn grant_files(gdir: &Path) -> Option<Vec<String>> {
    let rd = std::fs::read_dir(gdir).ok()?;
    let mut names: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| (n.ends_with(".yaml") || n.ends_with(".yml")) && !n.starts_with('.'))
        .collect();
    names.sort();
    Some(names)
}
