//! The scene most scenario tests build: a team world whose seats are fake seats in a private
//! tmux session `beacon`, and what they read back from it — the history, the receipts, a
//! seat's drops, the bytes a seat received, team.log — with one bounded wait.
//!
//! A module's own scene adds its methods in an `impl Scene` block of its own (one crate), or
//! wraps this one where it keeps more (the inbox tests' hook logs).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::tmux::{SeatSpec, TmuxWorld};
use super::World;

/// A team world and the private tmux session its seats run in.
pub struct Scene {
    pub w: World,
    pub tw: TmuxWorld,
}

/// The team file of project and session `beacon` on tmux naming `seats` as `(name, cli)`, each
/// with the lines `extra(name)` gives (e.g. `    role: worker\n`).
pub fn beacon_file<'a>(seats: impl IntoIterator<Item = (&'a str, &'a str)>, extra: impl Fn(&str) -> String) -> String {
    let mut file = String::from("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n");
    for (name, cli) in seats {
        file.push_str(&format!("  - name: {name}\n{}    cli: {cli}\n", extra(name)));
    }
    file
}

/// `beacon_file` where every seat is a worker: the file most scenes use.
pub fn workers_file(seats: &[SeatSpec]) -> String {
    beacon_file(seats.iter().map(|s| (s.name.as_str(), s.cli.as_str())), |_| "    role: worker\n".into())
}

impl Scene {
    /// Starts `seats` in a private tmux session `beacon` and a world whose team file is
    /// `file`; `scale` shortens the product's waits (`TEAM_TIME_SCALE`).
    pub fn start(seats: &[SeatSpec], file: &str, scale: Option<&str>) -> Scene {
        let tw = TmuxWorld::start("beacon", seats);
        let w = World::empty();
        w.team_file(file);
        Scene::of(w, tw, scale)
    }

    /// A scene of a world and a started tmux session: the world asks that server.
    pub fn of(mut w: World, tw: TmuxWorld, scale: Option<&str>) -> Scene {
        w.extra_env.extend(tw.env());
        if let Some(scale) = scale {
            w.extra_env.push(("TEAM_TIME_SCALE".into(), scale.into()));
        }
        Scene { w, tw }
    }

    /// What seat `seat`'s pane received, as text.
    pub fn bytes(&self, seat: &str) -> String {
        String::from_utf8_lossy(&self.tw.log(seat)).into_owned()
    }

    /// The project's history folder (there is one project in the world).
    pub fn project_dir(&self) -> Option<PathBuf> {
        std::fs::read_dir(&self.w.config)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("beacon-")))
    }

    /// Every line of the project's `name` (a JSON Lines file), none when it is not there.
    pub fn jsonl(&self, name: &str) -> Vec<Value> {
        let Some(dir) = self.project_dir() else { return vec![] };
        jsonl(&dir.join(name))
    }

    /// Every history line of the world, in file order.
    pub fn history(&self) -> Vec<Value> {
        self.w.history()
    }

    pub fn receipts(&self) -> Vec<Value> {
        self.jsonl("receipts.jsonl")
    }

    /// The drop files of `seat`, sorted.
    pub fn drops(&self, seat: &str) -> Vec<PathBuf> {
        let dir = self.w.repo.join(".agents/send-drops/beacon").join(seat);
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
        v.sort();
        v
    }

    /// The one drop file of `seat`.
    pub fn drop_of(&self, seat: &str) -> PathBuf {
        let mut v = self.drops(seat);
        assert_eq!(v.len(), 1, "one drop for {seat}");
        v.remove(0)
    }

    /// The checkout's team.log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.w.repo.join(".agents/team.log")).unwrap_or_default()
    }

    /// Types keys into a seat's pane as a person would (`tmux send-keys`).
    pub fn keys(&self, seat: &str, keys: &[&str]) {
        let pane = self.tw.seat(seat).pane.clone();
        let mut args = vec!["send-keys", "-t", pane.as_str()];
        args.extend(keys);
        assert!(self.tw.tmux(&args).status.success());
    }

    /// Waits (bounded by `common::BOUND`) until `cond` holds.
    pub fn wait(&self, what: &str, cond: impl FnMut() -> bool) {
        wait(what, cond);
    }
}

/// Every line of a JSON Lines file, none when it is not there.
pub fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect()
}

/// The trigger a seat must receive, once, for the drop at `drop`.
pub fn trigger_for(drop: &Path) -> String {
    format!("Please read the team message at {}", drop.display())
}

/// Polls `cond` every 20 ms until it holds; fails naming `what` past `common::BOUND`.
pub fn wait(what: &str, mut cond: impl FnMut() -> bool) {
    let t = std::time::Instant::now();
    while !cond() {
        assert!(t.elapsed() < super::BOUND, "waited {:?} for {what}", super::BOUND);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The pid named by the one watch lock under `<state>/watch/`, when a watch holds it.
pub fn watch_holder(state: &Path) -> Option<i32> {
    let e = std::fs::read_dir(state.join("watch")).ok()?.flatten().next()?;
    let text = std::fs::read_to_string(e.path()).ok()?;
    text.strip_prefix("watch ")?.trim().parse().ok()
}

/// `team hooks install` in the world's checkout; it must succeed.
pub fn install_hooks(w: &World) {
    let installed = w.team(&["hooks", "install"]);
    assert_eq!(installed.code, 0, "{}{}", installed.stdout, installed.stderr);
}

/// Fake seat `name` of `cli` as the inbox tests run it: in the world's checkout, a 400 ms turn,
/// with the world's `TEAM_` variables but not its clock (`TEAM_NOW`), running the checkout's
/// installed hooks as its CLI would, a tool call every 150 ms while it works, every hook run
/// logged to `<dir>/<name>.hooks`. `mode`'s flags after a comma: `no-hooks` — a CLI that runs
/// no hook although they are installed (Codex before the person trusts them; its hooks file
/// `<dir>/no-hooks.json` names none); `ends-when-told` — an open-ended turn ends once
/// `<dir>/<name>.end` exists.
pub fn hooked_seat(w: &World, dir: &Path, name: &str, cli: &str, mode: &str) -> SeatSpec {
    let mut flags = mode.split(',');
    let mode = flags.next().unwrap_or("");
    let flags: Vec<&str> = flags.collect();
    let hooks = match (cli, flags.contains(&"no-hooks")) {
        (_, true) => dir.join("no-hooks.json"),
        ("codex", _) => w.repo.join(".codex/hooks.json"),
        _ => w.repo.join(".claude/settings.local.json"),
    };
    let mut s = SeatSpec::new(name, cli, mode).cwd(&w.repo).delay(400);
    if cli == "codex" {
        // Codex keeps its session's rollout always, and names it in every hook's input: what it
        // took from a hook is read there (it takes a hook's answer only from a hook that exits)
        s = s.transcript();
    }
    for (k, v) in w.env() {
        if k.starts_with("TEAM_") && k != "TEAM_NOW" {
            s = s.env(&k, &v);
        }
    }
    if flags.contains(&"ends-when-told") {
        s = s.arg("--turn-ends-when", &dir.join(format!("{name}.end")).display().to_string());
    }
    s.arg("--hooks", &hooks.display().to_string())
        .arg("--tool-ms", "150")
        .arg("--hook-log", &dir.join(format!("{name}.hooks")).display().to_string())
}
