//! The bells: `<config>/inbox-bells/<mux>-<server>-<pane>`, one small file per pane (of one
//! multiplexer server) a message was ever
//! queued for, naming the seat folders (`<project dir>/<session>/<seat>`, relative to
//! `<config>`) whose inboxes that pane's hook reads.
//!
//! A bell is a hint and nothing more: it is written by the send that queues a message for the
//! seat it located in that pane, read by the hook from the pane its own environment names,
//! and every line is checked against the folder grammar before it becomes a path. A pane id
//! two multiplexer servers share lists both seats (a few lines at most); a line that no
//! longer fits costs the hook one empty directory read.
//!
//! Invariants: the file is written whole (temp file and rename, 0600, no link followed); it
//! holds at most [`MAX_LINES`] lines, newest last; a line that is not `<project dir>/<session
//! word>/<seat name>` is passed over when read.

use std::io;
use std::path::{Path, PathBuf};

use sha2::Digest;

use crate::fsx;

/// The bells' folder inside `<config>`.
pub const BELLS: &str = "inbox-bells";
/// The most seat folders one bell names (a pane id shared by that many servers is a lot).
pub const MAX_LINES: usize = 8;
const MAX_BYTES: u64 = 4096;

/// The bell's file name for pane `pane` of the `mux` (`tmux`, `herdr`) server `server` (tmux:
/// its socket path; herdr: its session): `tmux-<8 hex naming the server>-12` for `%12`. Pane ids
/// repeat from one server to another (every tmux server has a `%1`): the server keeps two
/// projects' panes apart. A server that is a path is named by its real path, so the send (which
/// asks the multiplexer) and the hook (which reads its environment) name it alike.
pub fn key(mux: &str, server: &str, pane: &str) -> Option<String> {
    if !crate::vocab::names::valid_pane(pane) || !matches!(mux, "tmux" | "herdr") || server.is_empty() {
        return None;
    }
    let p: String = pane
        .trim_start_matches('%')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-') { c } else { '_' })
        .collect();
    let real = std::fs::canonicalize(server).map(|r| r.display().to_string()).unwrap_or_else(|_| server.to_string());
    let digest = sha2::Sha256::digest(real.as_bytes());
    let tag: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    (!p.is_empty()).then(|| format!("{mux}-{tag}-{p}"))
}

/// The bell this process's environment points at: `HERDR_PANE_ID` of the session
/// `HERDR_SESSION` inside herdr, `TMUX_PANE` of the server `TMUX` names inside tmux. A hint: it
/// names a file to read, never who the caller is.
pub fn hinted(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    let set = |k: &str| var(k).filter(|v| !v.is_empty());
    if let Some(p) = set("HERDR_PANE_ID") {
        return key("herdr", &set("HERDR_SESSION")?, &p);
    }
    let server = set("TMUX")?.split(',').next().map(str::to_string)?;
    set("TMUX_PANE").and_then(|p| key("tmux", &server, &p))
}

/// One line: `<project dir>/<session>/<seat>`, each part checked.
fn line_ok(line: &str) -> bool {
    let mut parts = line.split('/');
    let (Some(p), Some(s), Some(seat), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let project_ok = p.rsplit_once('-').is_some_and(|(name, hash)| {
        !name.is_empty()
            && !name.starts_with('.')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
            && hash.len() == 8
            && hash.bytes().all(|b| b.is_ascii_hexdigit())
    });
    project_ok && crate::vocab::names::valid_word(s) && crate::vocab::names::valid_name(seat)
}

/// The line for a seat folder.
pub fn line(project_dir: &str, session: &str, seat: &str) -> String {
    format!("{project_dir}/{session}/{seat}")
}

/// The seat folders the bell `key` names (absolute), oldest first. A missing bell names none.
pub fn read(config: &Path, key: &str) -> Vec<PathBuf> {
    let path = config.join(BELLS).join(key);
    let Ok(Some(text)) = fsx::read_capped(&path, MAX_BYTES) else { return Vec::new() };
    text.lines()
        .filter(|l| line_ok(l))
        .map(|l| {
            let mut parts = l.split('/');
            let (p, s, seat) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            config.join(p).join("inbox").join(s).join(seat)
        })
        .collect()
}

/// Makes the bell `key` name `line` (kept once, moved last; the oldest dropped past
/// [`MAX_LINES`]). Unchanged when it already ends with that line: no write.
pub fn ring(config: &Path, key: &str, line: &str) -> io::Result<()> {
    if !line_ok(line) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{line} names no seat folder")));
    }
    let dir = fsx::ensure_private_dirs(config, Path::new(BELLS), 0o700)?;
    let path = dir.join(key);
    let text = fsx::read_capped(&path, MAX_BYTES)?.unwrap_or_default();
    let existing: Vec<&str> = text.lines().collect();
    if existing.last() == Some(&line) && existing.iter().filter(|l| **l == line).count() == 1 {
        return Ok(());
    }
    let mut lines: Vec<&str> = existing.into_iter().filter(|l| line_ok(l) && *l != line).collect();
    lines.push(line);
    let keep = &lines[lines.len().saturating_sub(MAX_LINES)..];
    fsx::write_atomic(&path, format!("{}\n", keep.join("\n")).as_bytes(), 0o600)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_from_pane_ids_of_one_server_and_name_one_file() {
        let tag = |server: &str| {
            let d = sha2::Sha256::digest(server.as_bytes());
            d.iter().take(4).map(|b| format!("{b:02x}")).collect::<String>()
        };
        let a = "/nonexistent/tmux-0/default";
        assert_eq!(key("tmux", a, "%12"), Some(format!("tmux-{}-12", tag(a))));
        assert_eq!(key("herdr", "beacon", "w1:p2"), Some(format!("herdr-{}-w1_p2", tag("beacon"))));
        // issue 29 item 4: two servers' `%1` are two bells
        assert_ne!(key("tmux", a, "%1"), key("tmux", "/nonexistent/other.sock", "%1"));
        assert_eq!(key("tmux", a, "../x"), None);
        assert_eq!(key("screen", a, "%1"), None);
        assert_eq!(key("tmux", "", "%1"), None, "no server, no bell");
        // a socket's real path names it, however it was reached
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("sock");
        std::fs::write(&real, "").unwrap();
        std::os::unix::fs::symlink(&real, d.path().join("link")).unwrap();
        let via_link = d.path().join("link").display().to_string();
        assert_eq!(
            key("tmux", &via_link, "%1"),
            key("tmux", &real.canonicalize().unwrap().display().to_string(), "%1")
        );
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(
            hinted(env(&[("TMUX", "/nonexistent/tmux-0/default,77,0"), ("TMUX_PANE", "%3")])),
            key("tmux", a, "%3")
        );
        assert_eq!(hinted(env(&[("TMUX_PANE", "%3")])), None, "a pane of no server names no bell");
        assert_eq!(
            hinted(env(&[("TMUX_PANE", "%3"), ("HERDR_PANE_ID", "w1:p1"), ("HERDR_SESSION", "beacon")])),
            key("herdr", "beacon", "w1:p1")
        );
        assert_eq!(hinted(env(&[])), None);
    }

    /// Under herdr the send rings the bell of the `pane_id` herdr's own agent list reports for
    /// the seat, and the hook reads the bell of the `HERDR_PANE_ID` herdr puts in the pane's
    /// environment: the recorded outputs of herdr 0.7.1 and 0.8.2 (tests/data) show both in one
    /// grammar (`w<workspace>:p<n>`), and `herdr pane current`, which answers from that
    /// variable, reports it as its `pane_id` — so the two keys meet.
    #[test]
    fn under_herdr_the_send_s_pane_id_and_the_hook_s_variable_name_one_bell() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
        let grammar = |id: &str| {
            id.strip_prefix('w').and_then(|r| r.split_once(":p")).is_some_and(|(w, p)| {
                !w.is_empty() && !p.is_empty() && (w.to_owned() + p).bytes().all(|b| b.is_ascii_digit())
            })
        };
        for version in ["herdr-0.7.1", "herdr-0.8.2"] {
            let dir = data.join(version);
            let env = std::fs::read_to_string(dir.join("pane-env.txt")).unwrap();
            let var = env.lines().find_map(|l| l.strip_prefix("HERDR_PANE_ID=")).expect("the pane's variable");
            assert!(grammar(var), "{version}: {var}");
            let current: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join("pane-current-env.json")).unwrap()).unwrap();
            let answered = current["result"]["pane"]["pane_id"].as_str().expect("pane current's pane_id");
            assert!(grammar(answered), "{version}: {answered}");
            let mut listed = 0;
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if !name.starts_with("agent-list") || !name.ends_with(".json") {
                    continue;
                }
                let text = std::fs::read_to_string(e.path()).unwrap();
                for (i, _) in text.match_indices("\"pane_id\":\"") {
                    let id = &text[i + 11..];
                    let id = &id[..id.find('"').unwrap()];
                    assert!(grammar(id), "{version}/{name}: {id}");
                    listed += 1;
                }
            }
            assert!(listed > 0, "{version}: agent list reported panes");
            // the hook's key from the variables is the send's key from the same pane's id and
            // the session every herdr call names (the recordings' session is in the pane's env)
            let session = env.lines().find_map(|l| l.strip_prefix("HERDR_SESSION=")).expect("the pane's session");
            let from_env = hinted(|k| match k {
                "HERDR_PANE_ID" => Some(var.to_string()),
                "HERDR_SESSION" => Some(session.to_string()),
                _ => None,
            });
            assert_eq!(from_env, key("herdr", session, var), "{version}");
            assert!(from_env.is_some_and(|k| k.ends_with(&format!("-{}", var.replace(':', "_")))));
        }
    }

    #[test]
    fn a_bell_names_seat_folders_checked_and_bounded() {
        let d = tempfile::tempdir().unwrap();
        assert!(read(d.path(), "tmux-3").is_empty());
        ring(d.path(), "tmux-3", "beacon-0000abcd/beacon/rev").unwrap();
        ring(d.path(), "tmux-3", "beacon-0000abcd/beacon/rev").unwrap();
        assert_eq!(read(d.path(), "tmux-3"), vec![d.path().join("beacon-0000abcd/inbox/beacon/rev")]);
        for bad in ["../../etc/x/y", "beacon-0000abcd/beacon/../x", "x/y", "beacon-zz/beacon/rev"] {
            assert!(ring(d.path(), "tmux-3", bad).is_err(), "{bad}");
        }
        std::fs::write(d.path().join(BELLS).join("tmux-4"), "../../etc/passwd/x\nbeacon-0000abcd/beacon/rev\n")
            .unwrap();
        assert_eq!(read(d.path(), "tmux-4").len(), 1);
        for n in 0..12 {
            ring(d.path(), "tmux-3", &format!("beacon-0000abcd/beacon/s{n}")).unwrap();
        }
        let got = read(d.path(), "tmux-3");
        assert_eq!(got.len(), MAX_LINES);
        assert!(got.last().unwrap().ends_with("s11"));
    }
}
