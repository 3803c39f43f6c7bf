//! `team feed` run as a user runs it: the built binary, in a fixture world built in a temp
//! dir (a checkout with the spec's team file, `<config>`, `<state>`, `<cache>`, `HOME`), with
//! history lines this test writes itself (the typed leg that writes them in real sends is
//! tested with `team send`).

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const TEAM_FILE: &str = r#"format: 1
project: beacon
coordinator: claude-keeper
operator: claude-keeper

trust:
  - ~/.config/team/lobby
  - ~/Code/beacon

workspace:
  mode: shared

seats:
  - role: coordinator
    name: claude-keeper
    label: coordinator
    cli: claude-code
    vendor: anthropic
    model: Claude Opus
    version: "5.5"
    launch: claude --model claude-opus-5-5

  - role: reviewer
    name: gpt-reviewer
    label: reviewer
    cli: codex
    vendor: openai
    model: GPT Sol
    version: "6"
    launch: codex -m gpt-6-sol
"#;

struct World {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
    config: PathBuf,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("beacon");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(root.join(".agents")).unwrap();
    std::fs::write(root.join(".agents/team.yaml"), TEAM_FILE).unwrap();
    for d in ["home", "state", "cache", "elsewhere"] {
        std::fs::create_dir_all(base.join(d)).unwrap();
    }
    let config = base.join("config");
    World { _tmp: tmp, base, root, config }
}

impl World {
    fn cmd(&self, cwd: &Path, args: &[&str]) -> Command {
        // (the hooked test binary: these worlds fix the clock with TEAM_NOW)
        let mut c = Command::new(crate::common::team_bin());
        c.args(args)
            .current_dir(cwd)
            .env("HOME", self.base.join("home"))
            .env("TEAM_CONFIG_DIR", &self.config)
            .env("TEAM_STATE_DIR", self.base.join("state"))
            .env("TEAM_CACHE_DIR", self.base.join("cache"))
            .env_remove("XDG_STATE_HOME")
            .env_remove("XDG_CACHE_HOME")
            // TIME is local time, dated when not today: the day of these tests' lines, in UTC
            .env("TEAM_NOW", "2026-11-29T12:00:00Z")
            .env("TZ", "UTC")
            .stdin(Stdio::null());
        for v in ["TMUX", "TMUX_PANE", "HERDR_PANE_ID", "HERDR_SESSION", "HERDR_SOCKET_PATH", "TEAM_ID_SEED"] {
            c.env_remove(v);
        }
        c
    }

    fn feed_in(&self, cwd: &Path, args: &[&str]) -> Output {
        let mut all = vec!["feed"];
        all.extend_from_slice(args);
        self.cmd(cwd, &all).output().unwrap()
    }

    fn feed(&self, args: &[&str]) -> Output {
        self.feed_in(&self.root, args)
    }

    /// `<config>/beacon-<first 8 hex of sha256(canonical root)>`, computed independently of
    /// the crate.
    fn history_dir(&self) -> PathBuf {
        let h = Sha256::digest(self.root.as_os_str().as_bytes());
        let hex: String = h.iter().take(4).map(|b| format!("{b:02x}")).collect();
        self.config.join(format!("beacon-{hex}"))
    }

    fn write_history(&self, file: &str, lines: &[Value]) {
        let dir = self.history_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(dir.join(file)).unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

fn spec_line() -> Value {
    json!({"ts":"2026-11-29T09:00:00Z","from":"owner","to":"gpt-reviewer",
           "body":"from the owner — admitted by: the owner\n\nthe gate is green",
           "id":"00000000-0000-4007-8000-000000000000","outcome":"delivered","ms":0,"via":"typed",
           "failed":["native: codex carries no native channel","mcp-inbox: its CLI has no team hooks installed"]})
}

fn line(ts: &str, from: &str, to: &str, body: &str) -> Value {
    json!({"ts":ts,"from":from,"to":to,"body":body,"id":id_of(body),"outcome":"delivered"})
}

/// A message id (the grammar the reader checks) named by `body`: its FNV-1a hash.
fn id_of(body: &str) -> String {
    let h = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    format!("00000000-0000-4000-8000-{:012x}", h & 0xffff_ffff_ffff)
}

fn validator(name: &str) -> jsonschema::Validator {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema").join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).unwrap()
}

fn assert_valid(schema: &str, doc: &Value) {
    let v = validator(schema);
    let errors: Vec<String> = v.iter_errors(doc).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{doc:#}\n{errors:#?}");
}

/// Every file and folder under `dir`, with its size: what "writes nothing" is checked by.
fn snapshot(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            out.push((p.clone(), m.len()));
            if m.is_dir() {
                out.extend(snapshot(&p));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn empty_history_prints_the_context_line_and_0_events() {
    let w = world();
    let o = w.feed(&[]);
    assert_eq!(text(&o.stdout), "team beacon, session \"beacon\"\n0 events\n");
    assert_eq!(text(&o.stderr), "");
    assert_eq!(o.status.code(), Some(0));
    assert!(!w.config.exists(), "a read created <config>");
}

#[test]
fn the_spec_table_after_a_send_and_with_seat() {
    let w = world();
    w.write_history("messages.jsonl", &[spec_line()]);
    let before = snapshot(&w.base);
    let want = "team beacon, session \"beacon\"\n\
                \x20 TIME      KIND                           SEAT                   DETAIL\n\
                \x20 09:00:00  delivered (via typed in 0 ms)  owner -> gpt-reviewer  from the owner — admitted by: the owner the gate is green\n\
                1 event\n";
    for args in [&[][..], &["--seat", "gpt-reviewer"][..]] {
        let o = w.feed(args);
        assert_eq!(text(&o.stdout), want, "{args:?}");
        assert_eq!(o.status.code(), Some(0));
    }
    let o = w.feed(&["--seat", "claude-keeper"]);
    assert_eq!(text(&o.stdout), "team beacon, session \"beacon\"\n0 events\n");
    assert_eq!(snapshot(&w.base), before, "feed wrote something");
}

#[test]
fn rotated_files_read_oldest_first_and_limit_keeps_the_last() {
    let w = world();
    w.write_history("messages.jsonl.2", &[line("2026-11-29T08:00:00Z", "owner", "claude-keeper", "one")]);
    w.write_history("messages.jsonl.1", &[line("2026-11-29T08:01:00Z", "claude-keeper", "gpt-reviewer", "two")]);
    w.write_history("messages.jsonl", &[line("2026-11-29T08:02:00Z", "gpt-reviewer", "claude-keeper", "three")]);
    let o = w.feed(&[]);
    let out = text(&o.stdout);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 6, "{out}");
    assert!(rows[2].ends_with("one") && rows[3].ends_with("two") && rows[4].ends_with("three"), "{out}");
    assert_eq!(rows[5], "3 events");
    let o = w.feed(&["--limit", "2"]);
    let out = text(&o.stdout);
    assert!(!out.contains("one") && out.contains("two") && out.ends_with("three\n2 events\n"), "{out}");
    let o = w.feed(&["--seat", "owner"]);
    assert!(text(&o.stdout).ends_with("one\n1 event\n"));
}

#[test]
fn json_is_one_team_feed_document() {
    let w = world();
    w.write_history("messages.jsonl", &[spec_line(), line("2026-11-29T09:01:00Z", "owner", "claude-keeper", "x")]);
    let o = w.feed(&["--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stderr), "");
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("feed.schema.json", &doc);
    assert_eq!(doc["project"], "beacon");
    assert_eq!(doc["session"], "beacon");
    assert_eq!(doc["events"][0], spec_line());
    assert!(doc["events"][1].get("via").is_none() && doc["events"][1].get("failed").is_none());
    // Pretty-printed, as every --json run.
    assert!(text(&o.stdout).starts_with("{\n  \"schema\": {\n"));

    let empty = world().feed(&["--json"]);
    let doc: Value = serde_json::from_slice(&empty.stdout).unwrap();
    assert_valid("feed.schema.json", &doc);
    assert_eq!(doc["events"], json!([]));
}

#[test]
fn a_named_audit_or_briefs_place_that_is_not_there_is_a_usage_error() {
    let w = world();
    let o = w.feed(&["--audit", "/nonexistent/audit.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stdout), "");
    assert_eq!(text(&o.stderr), "team feed: --audit /nonexistent/audit.jsonl: no such file or folder\n");
    let o = w.feed(&["--briefs", "/nonexistent", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), "");
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("error.schema.json", &doc);
    assert_eq!(doc["error"]["id"], "feed.usage");
}

#[test]
fn follow_with_json_is_a_usage_error_without_a_document() {
    let w = world();
    let o = w.feed(&["--follow", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stdout), "");
    let err = text(&o.stderr);
    assert!(err.contains("--follow") && err.contains("--json") && err.contains("Usage:"), "{err}");
}

#[test]
fn all_and_outside_a_checkout_read_every_project_without_a_context_line() {
    let w = world();
    w.write_history("messages.jsonl", &[spec_line()]);
    // A second project's folder.
    let other = w.config.join("api-0123abcd");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("messages.jsonl"), format!("{}\n", line("2026-11-29T08:00:00Z", "lead", "dev", "early")))
        .unwrap();
    // Not a project folder: ignored.
    std::fs::create_dir_all(w.config.join("lobby")).unwrap();
    for o in [w.feed(&["--all"]), w.feed_in(&w.base.join("elsewhere"), &[])] {
        let out = text(&o.stdout);
        assert!(!out.starts_with("team "), "{out}");
        let rows: Vec<&str> = out.lines().collect();
        assert!(rows[1].ends_with("early") && rows[2].ends_with("the gate is green"), "{out}");
        assert_eq!(rows[3], "2 events");
    }
    let o = w.feed(&["--all", "--json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("feed.schema.json", &doc);
    assert!(doc["project"].is_null() && doc["session"].is_null());
    assert_eq!(doc["events"][0]["project"], "api");
    assert_eq!(doc["events"][1]["project"], "beacon");
}

#[test]
fn a_symlink_or_fifo_at_the_log_is_refused_not_followed() {
    let w = world();
    let dir = w.history_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let target = w.base.join("secret.jsonl");
    std::fs::write(&target, format!("{}\n", spec_line())).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("messages.jsonl")).unwrap();
    let o = w.feed(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "");
    let err = text(&o.stderr);
    assert!(err.starts_with("team feed: refused: ") && err.contains("symbolic link"), "{err}");
    let o = w.feed(&["--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), "");
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("error.schema.json", &doc);
    assert_eq!(doc["error"]["id"], "feed.refused");

    std::fs::remove_file(dir.join("messages.jsonl")).unwrap();
    nix::unistd::mkfifo(&dir.join("messages.jsonl"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let o = w.feed(&[]);
    assert_eq!(o.status.code(), Some(1), "a FIFO must be refused, not opened");
    assert!(text(&o.stderr).contains("FIFO"));

    // A link standing for the project folder itself.
    std::fs::remove_file(dir.join("messages.jsonl")).unwrap();
    std::fs::remove_dir(&dir).unwrap();
    let real = w.base.join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, &dir).unwrap();
    assert_eq!(w.feed(&[]).status.code(), Some(1));
}

#[test]
fn unreadable_lines_are_skipped_and_said() {
    let w = world();
    let dir = w.history_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("messages.jsonl"), format!("garbage\n{}\n", spec_line())).unwrap();
    let o = w.feed(&[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).ends_with("1 event\n"));
    assert_eq!(text(&o.stderr), "team feed: skipped 1 unreadable line\n");
    let o = w.feed(&["--json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["skipped"], 1);
    assert_eq!(text(&o.stderr), "");
}

fn set_mtime(p: &Path, secs: u64) {
    let f = std::fs::File::options().write(true).open(p).unwrap();
    f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)).unwrap();
}

#[test]
fn briefs_and_audit_lines_join_the_feed() {
    let w = world();
    w.write_history("messages.jsonl", &[spec_line()]);
    let briefs = w.root.join("briefs");
    std::fs::create_dir_all(&briefs).unwrap();
    let brief = briefs.join("claude-keeper-to-gpt-reviewer.md");
    std::fs::write(&brief, "# Review the gate\n\nRead host/src.\n").unwrap();
    // 2026-11-29T08:30:00Z: before the message.
    set_mtime(&brief, 1_795_941_000);
    let lobby = w.config.join("lobby/guard");
    std::fs::create_dir_all(&lobby).unwrap();
    std::fs::write(
        lobby.join("audit.jsonl"),
        "{\"ts\":\"2026-11-29T09:30:00Z\",\"actor\":\"guard\",\"target\":\"claude-keeper\",\"decision\":\"denied\",\"reason\":\"no grant\"}\n",
    )
    .unwrap();
    let o = w.feed(&[]);
    assert_eq!(
        text(&o.stdout),
        "team beacon, session \"beacon\"\n\
         \x20 TIME      KIND                           SEAT                           DETAIL\n\
         \x20 08:30:00  brief                          claude-keeper -> gpt-reviewer  claude-keeper-to-gpt-reviewer.md: # Review the gate\n\
         \x20 09:00:00  delivered (via typed in 0 ms)  owner -> gpt-reviewer          from the owner — admitted by: the owner the gate is green\n\
         \x20 09:30:00  audit (denied)                 guard -> claude-keeper         no grant\n\
         3 events\n"
    );
    let o = w.feed(&["--json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("feed.schema.json", &doc);
    assert_eq!(doc["events"][0]["kind"], "brief");
    assert_eq!(doc["events"][2]["record"]["reason"], "no grant");

    // --briefs and --audit name other places, and only those are read.
    let other_briefs = w.base.join("other-briefs");
    std::fs::create_dir_all(&other_briefs).unwrap();
    let b2 = other_briefs.join("owner-to-claude-keeper.md");
    std::fs::write(&b2, "Plan the week.\n").unwrap();
    set_mtime(&b2, 1_795_941_000);
    let audit = w.base.join("bridge-audit.jsonl");
    std::fs::write(&audit, "{\"time\":\"2026-11-29T10:00:00Z\",\"from\":\"bridge\",\"to\":\"gpt-reviewer\",\"event\":\"bridged\",\"message\":\"a frame\"}\n").unwrap();
    let o = w.feed(&[
        "--briefs",
        other_briefs.to_str().unwrap(),
        "--audit",
        audit.to_str().unwrap(),
        "--seat",
        "gpt-reviewer",
    ]);
    let out = text(&o.stdout);
    assert!(!out.contains("Review the gate") && !out.contains("no grant") && !out.contains("Plan the week"), "{out}");
    assert!(
        out.contains("audit (bridged)") && out.contains("bridge -> gpt-reviewer") && out.ends_with("2 events\n"),
        "{out}"
    );
    let o = w.feed(&["--briefs", other_briefs.to_str().unwrap(), "--seat", "claude-keeper"]);
    assert!(text(&o.stdout).contains("owner-to-claude-keeper.md: Plan the week."));
}

#[test]
fn follow_prints_each_pass_that_brings_new_entries_and_writes_nothing() {
    let w = world();
    w.write_history("messages.jsonl", &[line("2026-11-29T08:00:00Z", "owner", "gpt-reviewer", "first")]);
    let mut child = w
        .cmd(&w.root, &["feed", "--follow"])
        .env("TEAM_TIME_SCALE", "0.05")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            if tx.send(l.unwrap()).is_err() {
                break;
            }
        }
    });
    let wait_for = |want: &str| -> Vec<String> {
        let mut got = Vec::new();
        let deadline = std::time::Instant::now() + crate::common::BOUND;
        while std::time::Instant::now() < deadline {
            if let Ok(l) = rx.recv_timeout(std::time::Duration::from_millis(100)) {
                let done = l == want;
                got.push(l);
                if done {
                    return got;
                }
            }
        }
        panic!("never saw {want:?}; saw {got:?}");
    };
    let first = wait_for("1 event");
    assert_eq!(first[0], "team beacon, session \"beacon\"");
    assert!(first[2].ends_with("first"));
    let before = snapshot(&w.base);
    w.write_history(
        "messages.jsonl",
        &[
            line("2026-11-29T08:05:00Z", "gpt-reviewer", "owner", "second"),
            line("2026-11-29T08:06:00Z", "owner", "gpt-reviewer", "third"),
        ],
    );
    let second = wait_for("2 events");
    assert_eq!(second[0], "team beacon, session \"beacon\"");
    assert!(second[1].starts_with("  TIME"));
    assert!(second[2].ends_with("second") && second[3].ends_with("third"), "{second:?}");
    // A quiet pass prints nothing: a pass begun after that output reads the history again
    // (the follow's bytes read, /proc/<pid>/io `rchar`, grow by the file's size) with nothing
    // new in it; then a fourth entry, and the next lines are its pass's alone.
    let rchar = || -> u64 {
        let io = std::fs::read_to_string(format!("/proc/{}/io", child.id())).unwrap();
        io.lines().find_map(|l| l.strip_prefix("rchar: ")).unwrap().trim().parse().unwrap()
    };
    let size = std::fs::metadata(w.history_dir().join("messages.jsonl")).unwrap().len();
    let (r0, t) = (rchar(), std::time::Instant::now());
    while rchar() < r0 + size {
        assert!(t.elapsed() < crate::common::BOUND, "the follow never read the history again");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    w.write_history("messages.jsonl", &[line("2026-11-29T08:07:00Z", "owner", "gpt-reviewer", "fourth")]);
    let after_append = snapshot(&w.base);
    let fourth = wait_for("1 event");
    assert_eq!(fourth.len(), 4, "the quiet pass printed something: {fourth:?}");
    assert!(fourth[0].starts_with("team beacon") && fourth[2].ends_with("fourth"), "{fourth:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_ne!(before, after_append);
    assert_eq!(snapshot(&w.base), after_append, "following grew or created something");
}

/// `team feed` with its stdout on a terminal and no `NO_COLOR` (every other test pipes it): the
/// sender header is drawn faint by the product's own SGR sequences, written raw, while an escape
/// sequence in a message's body is still shown escaped.
#[test]
fn on_a_terminal_the_feed_s_own_faint_is_drawn_and_a_body_s_escape_is_shown() {
    use std::io::Read;
    let w = world();
    let mut l = spec_line();
    l["body"] = json!("from the owner — admitted by: the owner\n\nthe gate \u{1b}[2J is green");
    w.write_history("messages.jsonl", &[l]);
    let pty = crate::common::pty();
    let mut c = w.cmd(&w.root, &["feed"]);
    c.env_remove("NO_COLOR")
        .stdin(Stdio::from(pty.slave.try_clone().unwrap()))
        .stdout(Stdio::from(pty.slave.try_clone().unwrap()))
        .stderr(Stdio::from(pty.slave));
    let mut child = c.spawn().unwrap();
    drop(c);
    let mut master = std::fs::File::from(pty.master);
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    // the terminal's end reads until the run's side is closed (EIO once the run has exited)
    while let Ok(n) = master.read(&mut chunk) {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&chunk[..n]);
    }
    assert!(child.wait().unwrap().success());
    let got = String::from_utf8(got).unwrap().replace("\r\n", "\n");
    assert!(
        got.contains("owner -> gpt-reviewer  \x1b[2mfrom the owner — admitted by: the owner\x1b[22m the gate \\x1b[2J is green\n"),
        "the product's faint raw, the body's escape shown: {got:?}"
    );
    assert_eq!(got.matches('\x1b').count(), 2, "no raw escape but the product's own two: {got:?}");
}
