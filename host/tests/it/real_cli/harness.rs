//! One real-CLI world (`RealWorld`): the temp dir, the checkout, the team file, the mock model
//! server's private network namespace, the private tmux server started inside it, and the
//! seats — the real `claude` and `codex`, each in a marked pane with its own HOME written the
//! way `docs/offline-vendor-clis.md` says the CLI starts straight at its prompt, offline.
//!
//! One world runs at a time. Teardown stops every process of the world's network namespace by
//! pid (only this world's processes live there, Codex's app-server daemon among them): the CLIs
//! with SIGTERM first, so they clean up what they keep in `/tmp`, then the tmux server, then
//! SIGKILL for what is left.

use super::mock::{Mock, BOUND, PORT};
use crate::common::{self, World};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The repository's root.
pub fn repo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// What a pane prints once its CLI has exited (with the exit code after it).
const EXITED: &str = "[the CLI exited with";
const KEY: &str = "sk-ant-test-0000000000000000000000000000000000000000";
/// The pinned CLIs, as `tests/real/package-lock.json` holds them.
const PINNED: [(&str, &str, &str); 5] = [
    ("@anthropic-ai/claude-code", "2.1.332", "Claude Code"),
    ("@openai/codex", "0.171.0", "Codex"),
    ("@google/gemini-cli", "0.61.0", "Gemini CLI"),
    ("@qwen-code/qwen-code", "0.24.4", "Qwen Code"),
    ("@vibe-kit/grok-cli", "0.0.34", "grok-cli"),
];

/// `tests/real/node_modules/.bin`, once every pinned CLI is found installed there; fails the
/// test with the command that installs them otherwise.
pub fn cli_bin() -> PathBuf {
    let nm = repo_dir().join("tests/real/node_modules");
    let how = "run `bash tests/real/install.sh` (`bash .ci/run` runs it)";
    for (pkg, want, name) in PINNED {
        let pj = nm.join(pkg).join("package.json");
        let found = std::fs::read_to_string(&pj)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["version"].as_str().map(str::to_string));
        assert!(
            found.as_deref() == Some(want),
            "the real {name} {want} is not installed in {} (found: {}): {how}",
            nm.display(),
            found.as_deref().unwrap_or("nothing")
        );
    }
    // The Claude Code postinstall hard-links the native binary over its stub.
    let exe = nm.join("@anthropic-ai/claude-code/bin/claude.exe");
    let size = std::fs::metadata(&exe).map(|m| m.len()).unwrap_or(0);
    assert!(size > 50 << 20, "{} is a {size}-byte stub: the package's postinstall did not run; {how}", exe.display());
    assert!(
        nix::unistd::geteuid().is_root(),
        "the real-CLI tier runs its worlds in a private network namespace (unshare --net), which needs root"
    );
    for tool in ["unshare", "nsenter", "ip", "node", "tmux"] {
        let ok = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().unwrap().status.success();
        assert!(ok, "the real-CLI tier needs `{tool}` on PATH (bash .ci/run installs it)");
    }
    nm.join(".bin")
}

/// How a Codex seat runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct CodexOpts {
    /// Without `--no-daemon`: the shared `codex app-server` daemon runs its commands.
    pub daemon: bool,
    /// The exec-policy rule that runs `team send` outside the sandbox, with no dialog.
    pub rule: bool,
}

/// A started seat: a real CLI in a pane of the world's tmux server.
#[derive(Debug, Clone)]
pub struct Seat {
    pub name: String,
    pub pane: String,
    pub home: PathBuf,
}

pub struct RealWorld {
    pub mock: Mock,
    /// The team's world: the checkout, registry, state, cache; owner runs (`w.team`).
    pub w: World,
    pub sock: PathBuf,
    netns: String,
    /// The team's session: the drop folders' name.
    session: String,
    bin: PathBuf,
    /// One real-CLI world at a time (dropped last, after the teardown).
    _one: std::sync::MutexGuard<'static, ()>,
}

/// Held by the one real-CLI world running: a world starts two real CLIs and a mock, which load
/// both cores for seconds; two at once would also starve the suite's other tests.
static ONE_WORLD: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Held by a scenario that runs a real CLI in a world of its own (not a `RealWorld`: the ssh
/// world's machine B), for the same reason.
pub fn one_world() -> std::sync::MutexGuard<'static, ()> {
    ONE_WORLD.lock().unwrap_or_else(|e| e.into_inner())
}

/// The team file every scenario uses: claude-keeper leads, gpt-reviewer reviews.
pub const TEAM_FILE: &str = "format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: claude-keeper
    role: coordinator
    cli: claude-code
    leads: true
  - name: gpt-reviewer
    role: reviewer
    cli: codex
";

impl RealWorld {
    /// A world with no seats yet: the checkout (`<tmp>/my_team dir/beacon`), the mock in its own
    /// network namespace, and a tmux server (session `beacon`) started inside that namespace.
    pub fn start() -> RealWorld {
        RealWorld::start_with(TEAM_FILE)
    }

    /// [`RealWorld::start`] with another team file (session `beacon`).
    pub fn start_with(team_file: &str) -> RealWorld {
        let mut rw = RealWorld::bare(Path::new("my_team dir/beacon"), "beacon");
        let repo = rw.w.repo.clone();
        std::fs::create_dir_all(&repo).unwrap();
        let ok = Command::new("git").args(["init", "-q"]).current_dir(&repo).env("HOME", &rw.w.home).status().unwrap();
        assert!(ok.success(), "git init");
        rw.w.team_file(team_file);
        rw.sock = rw.top().join("tmux.sock");
        rw.w.extra_env.push(("TEAM_TMUX_SOCKET".into(), rw.sock.display().to_string()));
        let conf = rw.top().join("tmux.conf");
        std::fs::write(&conf, "set -g default-terminal tmux-256color\nset -g status off\n").unwrap();
        let out = Command::new("nsenter")
            .arg(rw.netns_arg())
            .arg("--")
            .arg("tmux")
            .arg("-S")
            .arg(&rw.sock)
            .arg("-f")
            .arg(&conf)
            .args(["new-session", "-d", "-s", "beacon", "-x", "120", "-y", "40", "-n", "keep", "sh"])
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", &rw.w.home)
            .env("LANG", "C.UTF-8")
            .output()
            .expect("run nsenter (util-linux)");
        assert!(out.status.success(), "tmux new-session in the namespace: {}", String::from_utf8_lossy(&out.stderr));
        rw
    }

    /// The world's parts every scenario shares: the top folder with home, config, state and
    /// cache (no checkout yet: `repo` is `<tmp>/<repo>`, made by the caller), the mock in its
    /// own network namespace, real ids and clock; no tmux server (`sock` is the caller's to set).
    /// `session` names the drop folders (`.agents/send-drops/<session>/`).
    pub fn bare(repo: &Path, session: &str) -> RealWorld {
        let bin = cli_bin();
        // (a scenario that failed poisoned nothing this one needs)
        let one = one_world();
        // Under /var/tmp: Codex's sandbox binds /tmp writable, and the world must see real denials.
        let tmp = tempfile::Builder::new().prefix("team-real-").tempdir_in("/var/tmp").unwrap();
        let top = tmp.path().canonicalize().unwrap();
        let repo = top.join(repo);
        let (home, config, state, cache) = (top.join("home"), top.join("config"), top.join("state"), top.join("cache"));
        for d in [&home, &state, &cache, &top.join("seats")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let mut w = World { tmp, repo: repo.clone(), home, config, state, cache, extra_env: Vec::new() };
        // Real ids and the real clock: several sends in one world, each its own drop.
        w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
        w.extra_env.push(("TEAM_NOW".into(), String::new()));

        let mock = Mock::start(&top.join("mock"), &repo);
        let netns = std::fs::read_link(format!("/proc/{}/ns/net", mock.pid())).unwrap().display().to_string();
        let ours = std::fs::read_link("/proc/self/ns/net").unwrap().display().to_string();
        assert_ne!(netns, ours, "the mock model server must run in a network namespace of its own");
        let sock = top.join("tmux.sock");
        RealWorld { mock, w, sock, netns, bin, session: session.into(), _one: one }
    }

    /// `nsenter`'s argument that joins the world's network namespace.
    pub fn netns_arg(&self) -> String {
        format!("--net=/proc/{}/ns/net", self.mock.pid())
    }

    /// `tests/real/node_modules/.bin`: where the pinned `claude` and `codex` are.
    pub fn cli_dir(&self) -> &Path {
        &self.bin
    }

    /// `<tmp>`: the world's top folder.
    pub fn top(&self) -> PathBuf {
        self.w.tmp.path().canonicalize().unwrap()
    }

    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.sock)
            .args(args)
            // (a window a client opens gets that client's PATH: only the world's own)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", &self.w.home)
            .env("LANG", "C.UTF-8")
            .output()
            .expect("run tmux")
    }

    /// The environment every seat's pane gets: its HOME, the pinned CLIs and `team` on PATH,
    /// the world's registry, state and cache.
    pub(super) fn seat_env(&self, home: &Path) -> Vec<(String, String)> {
        let team_dir = common::team_bin().parent().unwrap().display().to_string();
        vec![
            ("HOME".into(), home.display().to_string()),
            ("PATH".into(), format!("{team_dir}:{}:/usr/local/bin:/usr/bin:/bin", self.bin.display())),
            ("LANG".into(), "C.UTF-8".into()),
            ("COLORTERM".into(), "truecolor".into()),
            ("TEAM_CONFIG_DIR".into(), self.w.config.display().to_string()),
            ("TEAM_STATE_DIR".into(), self.w.state.display().to_string()),
            ("TEAM_CACHE_DIR".into(), self.w.cache.display().to_string()),
        ]
    }

    /// Opens a window running `command` from the pane's shell, in the checkout; marks the pane
    /// `@team-seat <mark>` unless `mark` is empty.
    pub fn window(&self, name: &str, mark: &str, env: &[(String, String)], command: &str) -> String {
        let repo = self.w.repo.display().to_string();
        let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut args = vec!["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=beacon:", "-n", name, "-c", &repo];
        for v in &vars {
            args.extend(["-e", v.as_str()]);
        }
        // tmux 3.3 gives a window started by a detached client that client's PATH, whatever
        // `-e` says: the pane's shell sets its own. `; exec sh`: the pane's shell stays the CLI's
        // parent, and the pane stays open after it.
        let path = env.iter().find(|(k, _)| k == "PATH").map(|(_, v)| v.as_str()).unwrap_or("/usr/bin:/bin");
        let cmd = format!("export PATH={}; {command}; echo \"{EXITED} $?]\"; exec sh", common::shell_quote(path));
        args.push(&cmd);
        let out = self.tmux(&args);
        assert!(out.status.success(), "tmux new-window: {}", String::from_utf8_lossy(&out.stderr));
        let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !mark.is_empty() {
            let out = self.tmux(&["set", "-p", "-t", &pane, "@team-seat", mark]);
            assert!(out.status.success(), "tmux set @team-seat: {}", String::from_utf8_lossy(&out.stderr));
        }
        pane
    }

    /// Starts the real Claude Code in a pane marked `mark`, in manual permission mode, with
    /// `team send`, `team reply`, `team ack` and `team inbox` allowed (docs/agents.md); waits
    /// for its prompt.
    pub fn claude(&self, name: &str, mark: &str) -> Seat {
        let home = self.top().join("seats").join(name);
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        signed_in_claude(&home, &self.w.repo);
        let settings = json!({ "permissions": { "allow": [
            "Bash(team send:*)", "Bash(team reply:*)", "Bash(team ack:*)", "Bash(team inbox:*)"
        ] } });
        std::fs::write(home.join(".claude/settings.json"), settings.to_string()).unwrap();
        let mut env = self.seat_env(&home);
        env.extend(claude_env());
        let pane = self.window(name, mark, &env, "claude --permission-mode default");
        let seat = Seat { name: name.into(), pane, home };
        self.wait_screen(&seat, "Claude Code's prompt", |s| s.contains("? for shortcuts") && s.contains("manual mode"));
        seat
    }

    /// Starts the real Codex in a pane marked `mark` (`""`: unmarked), with its own HOME
    /// (`CODEX_HOME=<home>/.codex`) unless `home` names another seat's; waits for its status line.
    pub fn codex(&self, name: &str, mark: &str, home: Option<&Path>, opts: CodexOpts) -> Seat {
        let seat = self.codex_started(name, mark, home, opts);
        // The composer comes first, the status line after it: ready only with the status line.
        self.wait_screen(&seat, "Codex's status line", |s| s.contains("› ") && s.contains("gpt-5.1-codex default ·"));
        seat
    }

    /// Starts Codex as [`RealWorld::codex`] does, without waiting for its prompt (a screen it
    /// shows before the prompt, such as `Hooks need review`, is the caller's to wait for).
    pub fn codex_started(&self, name: &str, mark: &str, home: Option<&Path>, opts: CodexOpts) -> Seat {
        let home = home.map(Path::to_path_buf).unwrap_or_else(|| self.top().join("seats").join(name));
        let codex_home = home.join(".codex");
        std::fs::create_dir_all(codex_home.join("rules")).unwrap();
        signed_in_codex(&codex_home, &self.w.repo);
        if opts.rule {
            std::fs::write(
                codex_home.join("rules/default.rules"),
                ["send", "reply", "ack", "inbox"]
                    .map(|c| format!("prefix_rule(pattern=[\"team\", \"{c}\"], decision=\"allow\")\n"))
                    .concat(),
            )
            .unwrap();
        }
        // Codex runs commands in a login shell's environment (/etc/profile resets PATH).
        let team_dir = common::team_bin().parent().unwrap().display().to_string();
        std::fs::write(home.join(".profile"), format!("export PATH=\"{team_dir}:$PATH\"\n")).unwrap();
        let mut env = self.seat_env(&home);
        env.push(("CODEX_HOME".into(), codex_home.display().to_string()));
        env.push(("MOCK_API_KEY".into(), "mock-key".into()));
        let cmd = if opts.daemon { "codex" } else { "codex --no-daemon" };
        let pane = self.window(name, mark, &env, cmd);
        Seat { name: name.into(), pane, home }
    }

    /// The pane's plain screen.
    pub fn screen(&self, seat: &Seat) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", &seat.pane]).stdout).into_owned()
    }

    /// Waits until the seat's screen satisfies `pred`; panics with the screen after the bound,
    /// or at once when the CLI has exited.
    pub fn wait_screen(&self, seat: &Seat, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let t = Instant::now();
        loop {
            let s = self.screen(seat);
            if pred(&s) {
                return s;
            }
            if t.elapsed() > BOUND || s.contains(EXITED) {
                panic!("{}'s pane never showed {what}; it shows:\n{s}", seat.name);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `text` into the seat's composer as a person would, without Enter; waits until the
    /// screen shows it.
    pub fn type_draft(&self, seat: &Seat, text: &str) {
        let out = self.tmux(&["send-keys", "-t", &seat.pane, "-l", "--", text]);
        assert!(out.status.success(), "tmux send-keys: {}", String::from_utf8_lossy(&out.stderr));
        self.wait_screen(seat, &format!("the typed {text:?}"), |s| s.contains(text));
    }

    /// Types a prompt and submits it; returns once the mock received the model step it starts.
    pub fn prompt(&self, seat: &Seat, api: &str, text: &str) {
        let before = self.mock.requests().len();
        self.type_draft(seat, text);
        // Codex takes an Enter that follows typed text within its paste-burst window as a
        // newline (docs/vendor-screens.md: >= 50 ms apart submits): a property of the CLI's input.
        std::thread::sleep(Duration::from_millis(250));
        let out = self.tmux(&["send-keys", "-t", &seat.pane, "Enter"]);
        assert!(out.status.success());
        self.mock.wait_for(&format!("the prompt {text:?}"), |r| {
            r.n as usize > before && r.api == api && r.kind == "main" && r.prompt.contains(text)
        });
    }

    /// Every line of the project's message history.
    pub fn history(&self) -> Vec<Value> {
        let mut out = vec![];
        for e in std::fs::read_dir(&self.w.config).into_iter().flatten().flatten() {
            if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
                out.extend(t.lines().map(|l| serde_json::from_str::<Value>(l).expect("a whole JSON line")));
            }
        }
        out
    }

    /// The drop files written for `seat`.
    pub fn drops(&self, seat: &str) -> Vec<PathBuf> {
        let dir = self.w.repo.join(".agents/send-drops").join(&self.session).join(seat);
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
        v.sort();
        v
    }

    /// The command lines of the processes living in this world's network namespace.
    pub fn processes(&self) -> Vec<String> {
        self.netns_pids()
            .into_iter()
            .filter_map(|p| std::fs::read(format!("/proc/{p}/cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " ").trim().to_string())
            .collect()
    }

    /// Pids of the processes living in this world's network namespace.
    fn netns_pids(&self) -> Vec<i32> {
        let mut v = vec![];
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else { continue };
            if std::fs::read_link(e.path().join("ns/net"))
                .map(|l| l.display().to_string() == self.netns)
                .unwrap_or(false)
            {
                v.push(pid);
            }
        }
        v
    }
}

impl Drop for RealWorld {
    fn drop(&mut self) {
        use nix::sys::signal::{kill, Signal};
        use nix::unistd::Pid;
        // The CLIs (and the mock) first, with SIGTERM, so they remove what they keep outside
        // the world (Claude's `/tmp/cc-socks/<pid>.sock`, Codex's daemon socket); then the tmux
        // server, whose panes' interactive shells ignore SIGTERM; then SIGKILL for anything left.
        let comm = |p: i32| std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
        let shell_or_tmux = |p: i32| {
            let c = comm(p);
            c.trim() == "sh" || c.starts_with("tmux")
        };
        let t = Instant::now();
        loop {
            let pids: Vec<i32> = self.netns_pids().into_iter().filter(|p| !shell_or_tmux(*p)).collect();
            if pids.is_empty() || t.elapsed() > BOUND {
                break;
            }
            let sig = if t.elapsed() > Duration::from_secs(10) { Signal::SIGKILL } else { Signal::SIGTERM };
            for p in pids {
                let _ = kill(Pid::from_raw(p), sig);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.tmux(&["kill-server"]);
        let t = Instant::now();
        loop {
            let pids = self.netns_pids();
            if pids.is_empty() || t.elapsed() > BOUND {
                break;
            }
            for p in pids {
                let _ = kill(Pid::from_raw(p), Signal::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // Claude's Bash tool output folder, named after the checkout.
        let uid = nix::unistd::geteuid();
        let _ = std::fs::remove_dir_all(format!("/tmp/claude-{uid}/{}", claude_folder(&self.w.repo)));
    }
}

/// What a user signed in to Claude Code once has in `home`, as `docs/offline-vendor-clis.md`
/// §1.4 says the CLI then starts at its prompt: onboarding done, the API key approved, and the
/// folder `repo` trusted.
pub fn signed_in_claude(home: &Path, repo: &Path) {
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let approved = &KEY[KEY.len() - 20..];
    let state = json!({
        "hasCompletedOnboarding": true,
        "customApiKeyResponses": { "approved": [approved], "rejected": [] },
        "projects": { repo.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    std::fs::write(home.join(".claude.json"), state.to_string()).unwrap();
}

/// The environment that points Claude Code at the mock, with the key it approves, and keeps
/// it from calling anything else (docs/offline-vendor-clis.md §1.2).
pub fn claude_env() -> Vec<(String, String)> {
    [
        ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{PORT}")),
        ("ANTHROPIC_API_KEY", KEY.to_string()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
        ("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1".into()),
        ("DISABLE_AUTOUPDATER", "1".into()),
        ("DISABLE_TELEMETRY", "1".into()),
        ("DISABLE_ERROR_REPORTING", "1".into()),
        ("CLAUDE_CODE_MAX_RETRIES", "2".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// What a user signed in to Codex once has in `codex_home` (unless a config is there
/// already): the mock as the model provider (its key in `MOCK_API_KEY`), the folder `repo`
/// trusted (docs/offline-vendor-clis.md §2.2), and `/tmp` (and `$TMPDIR`) not among its
/// sandbox's writable roots: the sandbox leaves empty `.git`, `.agents` and `.codex` mount
/// points in each writable root, and a test writes nothing outside its world.
pub fn signed_in_codex(codex_home: &Path, repo: &Path) {
    std::fs::create_dir_all(codex_home).unwrap();
    let config = format!(
        "model = \"gpt-5.1-codex\"\nmodel_provider = \"mock\"\ncheck_for_update_on_startup = false\n\n\
         [model_providers.mock]\nname = \"Mock\"\nbase_url = \"http://127.0.0.1:{PORT}/v1\"\n\
         env_key = \"MOCK_API_KEY\"\nwire_api = \"responses\"\nrequest_max_retries = 2\nstream_max_retries = 2\n\n\
         [analytics]\nenabled = false\n\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n\n\
         [projects.{:?}]\ntrust_level = \"trusted\"\n",
        repo.display().to_string()
    );
    if !codex_home.join("config.toml").exists() {
        std::fs::write(codex_home.join("config.toml"), config).unwrap();
    }
}

/// Claude Code's name for a working folder (its transcripts, its task outputs): every character
/// that is not an ASCII letter or digit turned into `-` (docs/offline-vendor-clis.md §1.7:
/// `/tmp/w1/c_proj.x` → `-tmp-w1-c-proj-x`).
pub fn claude_folder(cwd: &Path) -> String {
    cwd.display().to_string().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// The two CLIs as the scenarios name them: each one's seat in the spec's team, and the mock's
/// api word for its requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cli {
    Claude,
    Codex,
}

impl Cli {
    pub fn seat(self) -> &'static str {
        match self {
            Cli::Claude => "claude-keeper",
            Cli::Codex => "gpt-reviewer",
        }
    }

    pub fn api(self) -> &'static str {
        match self {
            Cli::Claude => "anthropic",
            Cli::Codex => "openai",
        }
    }

    /// The profile a team file's `cli:` names it by.
    pub fn profile(self) -> &'static str {
        match self {
            Cli::Claude => "claude-code",
            Cli::Codex => "codex",
        }
    }
}
