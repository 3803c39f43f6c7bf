//! The mock model server as a scenario drives it: started as the first process of a private
//! network namespace (`unshare --net`, loopback up), scripted through `<dir>/script.json`,
//! read back through its request log `<dir>/requests.jsonl`, and held or released through
//! gate files (`<dir>/gates/<name>`). The server itself is `tests/real/mock/model-server.js`,
//! whose header documents the script's steps.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The port the mock listens on inside its namespace (each scenario has its own loopback).
pub const PORT: u16 = 8765;

/// The generous bound every wait of this tier uses: a condition, never a sleep.
pub const BOUND: Duration = crate::common::BOUND;

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct Request {
    pub n: u64,
    /// When the whole request had arrived, in ms since the epoch (the mock's clock: this machine's).
    pub at_ms: i64,
    /// `anthropic` | `openai` (Responses) | `chat` (Chat Completions) | `gemini` | `other`
    pub api: String,
    /// `main` (a model step of the turn) | `side` (a request the CLI makes on its own: a title,
    /// Gemini's router and summary calls, Qwen's suggestion and memory runs)
    pub kind: String,
    /// The turn's user prompt text.
    pub prompt: String,
    /// The tool outputs the model was given since that prompt, in order.
    pub results: Vec<String>,
    pub headers: Value,
    /// The request's whole JSON body.
    pub body: Value,
}

impl Request {
    /// Codex's `x-codex-turn-metadata` header (JSON: request kind, sandbox, sandbox mode).
    pub fn turn_metadata(&self) -> String {
        self.headers["x-codex-turn-metadata"].as_str().unwrap_or("").to_string()
    }
}

pub struct Mock {
    pub dir: PathBuf,
    child: Child,
}

impl Mock {
    /// Starts the server in a new network namespace with only loopback up; returns once it
    /// listens. Its pid names the namespace (`/proc/<pid>/ns/net`) the rest of the world joins.
    pub fn start(dir: &Path, root: &Path) -> Mock {
        let mut cmd = Command::new("unshare");
        cmd.args(["--net", "--", "/bin/sh", "-c", "ip link set lo up && exec node \"$0\" \"$1\" \"$2\""]);
        Mock::run(cmd, dir, root)
    }

    /// Starts the server inside the network namespace of another world, `net` being `nsenter`'s
    /// argument that joins it (the ssh world's: machine B's seats reach it there on
    /// `127.0.0.1:PORT`); returns once it listens. Only that world's loopback is up: nothing
    /// leaves the machine.
    pub fn start_in(net: &str, dir: &Path, root: &Path) -> Mock {
        assert!(net.starts_with("--net="), "{net}");
        let mut cmd = Command::new("nsenter");
        cmd.arg(net).args(["--", "node"]);
        Mock::run(cmd, dir, root)
    }

    /// Runs `cmd <server> <dir> <port>` (a command that ends in running node in a namespace with
    /// loopback up), scripted with no rules; waits until it listens.
    fn run(mut cmd: Command, dir: &Path, root: &Path) -> Mock {
        std::fs::create_dir_all(dir.join("gates")).unwrap();
        let server = super::harness::repo_dir().join("tests/real/mock/model-server.js");
        let log = std::fs::File::create(dir.join("server.log")).unwrap();
        let child = cmd
            .arg(&server)
            .arg(dir)
            .arg(PORT.to_string())
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("run unshare (util-linux)");
        let mut m = Mock { dir: dir.to_path_buf(), child };
        m.script(json!({ "root": root, "rules": [] }));
        let t = Instant::now();
        while !dir.join("ready").exists() {
            if let Ok(Some(st)) = m.child.try_wait() {
                panic!(
                    "the mock model server exited ({st}) before it listened: {}",
                    std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
                );
            }
            assert!(t.elapsed() < BOUND, "the mock model server never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
        m
    }

    /// The pid whose network namespace the world runs in.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Replaces the script (read by the server at every request).
    pub fn script(&self, script: Value) {
        let tmp = self.dir.join("script.json.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(&script).unwrap()).unwrap();
        std::fs::rename(&tmp, self.dir.join("script.json")).unwrap();
    }

    /// Opens a gate a held step waits on.
    pub fn open(&self, gate: &str) {
        std::fs::write(self.dir.join("gates").join(gate), "").unwrap();
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        let text = std::fs::read_to_string(self.dir.join("requests.jsonl")).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| Request {
                n: v["n"].as_u64().unwrap_or(0),
                at_ms: v["at"].as_i64().unwrap_or(0),
                api: v["api"].as_str().unwrap_or("").to_string(),
                kind: v["kind"].as_str().unwrap_or("").to_string(),
                prompt: v["prompt"].as_str().unwrap_or("").to_string(),
                results: v["results"]
                    .as_array()
                    .map(|a| a.iter().map(|r| r.as_str().unwrap_or("").to_string()).collect())
                    .unwrap_or_default(),
                headers: v["headers"].clone(),
                body: v["body"].clone(),
            })
            .collect()
    }

    /// The requests of one API (`anthropic`: Claude Code, `openai`: Codex, `chat`: Qwen Code,
    /// Copilot, opencode, `gemini`: Gemini CLI) that are model steps.
    pub fn main_requests(&self, api: &str) -> Vec<Request> {
        self.requests().into_iter().filter(|r| r.api == api && r.kind == "main").collect()
    }

    /// Waits for a request `pred` accepts and returns it; panics with the log's prompts after
    /// the bound.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&Request) -> bool) -> Request {
        let t = Instant::now();
        loop {
            if let Some(r) = self.requests().into_iter().find(|r| pred(r)) {
                return r;
            }
            if t.elapsed() > BOUND {
                let seen: Vec<String> = self
                    .requests()
                    .iter()
                    .map(|r| format!("#{} {} {} prompt={:?} results={:?}", r.n, r.api, r.kind, r.prompt, r.results))
                    .collect();
                panic!("the mock never received {what}; it received:\n{}", seen.join("\n"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the model step that hands the model the `k`-th tool output (from 1) of the
    /// turn whose prompt contains `prompt`, and returns that output.
    pub fn wait_result(&self, api: &str, prompt: &str, k: usize) -> String {
        let r = self.wait_for(&format!("a {api} step with tool output #{k} of the turn {prompt:?}"), |r| {
            r.api == api && r.kind == "main" && r.prompt.contains(prompt) && r.results.len() >= k
        });
        r.results[k - 1].clone()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
