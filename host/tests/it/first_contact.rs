//! What a newcomer meets first, beyond the transcripts: the file `team init` writes is the
//! schema's; `team --version` names the commit; `team demo` ends with the next steps, and
//! `--keep` prints commands that really drive and then remove what it kept.

use crate::common;
use crate::common::World;
use serde_json::Value;

fn team_file_schema() -> Value {
    let p = common::schema_dir().join("team-file.schema.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn the_file_team_init_writes_is_valid_against_the_schema_it_names() {
    let w = World::empty();
    let r = w.team(&["init", "--seat", "keeper:claude-code", "--seat", "rev:codex"]);
    assert_eq!(r.code, 0, "{r:?}");
    let text = std::fs::read_to_string(w.repo.join(".agents/team.yaml")).unwrap();
    let first = text.lines().next().unwrap();
    let named = first.strip_prefix("# yaml-language-server: $schema=").expect("the schema line comes first");
    // the schema it names is there, beside the file, and is this build's
    let copy = w.repo.join(".agents").join(named);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&copy).unwrap()).unwrap();
    assert_eq!(schema, team_file_schema());
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let doc: Value = serde_saphyr::from_str(&text).unwrap();
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    // with no seat filled in, too (every example commented out)
    let w2 = World::empty();
    assert_eq!(w2.team(&["init"]).code, 0);
    let doc: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(w2.repo.join(".agents/team.yaml")).unwrap()).unwrap();
    assert!(v.is_valid(&doc), "{doc}");
    // and it loads clean: team check notes only what is still to do
    let r = w.team(&["check", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    let kinds: Vec<&str> = doc["notes"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["session"], "{doc}");
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let w = World::empty();
    let r = w.team(&["--version"]);
    assert_eq!(r.code, 0);
    let line = r.stdout.trim_end();
    let rest =
        line.strip_prefix(&format!("team {} (commit ", env!("CARGO_PKG_VERSION"))).unwrap_or_else(|| panic!("{line}"));
    let commit = rest.strip_suffix(')').unwrap();
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        // built from this checkout: the build script reran when HEAD moved
        Some(h) => assert_eq!(commit, h),
        None => assert_eq!(commit, "unknown"),
    }
}

#[test]
fn the_demo_ends_with_next_steps_and_keep_prints_commands_that_work() {
    let w = World::empty();
    let r = w.run(&["demo", "--keep"], &w.base());
    assert_eq!(r.code, 0, "{r:?}");
    let out = &r.stdout;
    let remove = out.lines().skip_while(|l| !l.starts_with("To remove it:")).nth(1).unwrap().trim().to_string();
    let base = remove.rsplit("rm -rf ").next().unwrap().to_string();
    // whatever fails below, the kept demo does not outlive the test
    struct Gone(String);
    impl Drop for Gone {
        fn drop(&mut self) {
            let _ = std::process::Command::new("tmux")
                .args(["-S", &format!("{}/tmux.sock", self.0), "kill-server"])
                .output();
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _gone = Gone(base.clone());
    assert!(out.contains("Next, with your own agents"), "{out}");
    assert!(out.contains("  team init "), "{out}");
    assert!(out.contains("  team mark <seat> "), "{out}");
    let drive: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Kept the demo: "))
        .skip(1)
        .take_while(|l| !l.starts_with("To remove it:"))
        .collect();
    let cd = drive[0].trim();
    let export = drive[1].trim();
    assert!(cd.starts_with("cd ") && export.starts_with("export TEAM_CONFIG_DIR="), "{out}");
    assert_eq!(drive[2].trim(), "team status", "team is first on the run's PATH: {out}");
    // (the demo's seats work a second on each message: wait for them to be idle again)
    let mut status = w.sh(&format!("{cd} && {export} && team status"));
    let until = std::time::Instant::now() + common::BOUND;
    while !status.stdout.contains("2 seats: 2 idle") && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(100));
        status = w.sh(&format!("{cd} && {export} && team status"));
    }
    assert_eq!(status.code, 0, "{status:?}");
    assert!(status.stdout.starts_with("team demo, session \"demo\"\n"), "{}", status.stdout);
    assert!(status.stdout.contains("2 seats: 2 idle"), "{}", status.stdout);
    let feed = w.sh(&format!("{cd} && {export} && team feed"));
    assert!(feed.stdout.ends_with("2 events\n"), "{feed:?}");
    assert!(std::path::Path::new(&base).exists());
    let gone = w.sh(&remove);
    assert_eq!(gone.code, 0, "{gone:?}");
    assert!(!std::path::Path::new(&base).exists(), "{base} is left after the printed removal");
    let sock = format!("{base}/tmux.sock");
    let alive = std::process::Command::new("tmux").args(["-S", &sock, "list-sessions"]).output().unwrap();
    assert!(!alive.status.success(), "the demo's tmux server outlived the printed removal");
}

/// The newcomer's path, end to end, on tmux with two fake seats drawing Claude Code's and
/// Codex's real screens: `team init --seat keeper:claude-code --seat rev:codex` in a fresh
/// checkout, the CLIs already running in unmarked panes, `team status` naming each pane's
/// `team mark <seat> --pane <id>` line, those lines run as printed — then keeper's pane sends
/// to rev and rev's to keeper, each as an agent's shell tool runs it (a process below the
/// pane's shell, no terminal), and both are delivered. Nothing is edited by hand.
#[test]
fn from_team_init_to_each_seat_sending_to_the_other() {
    use crate::common::shell_quote;
    use crate::common::tmux::{SeatSpec, TmuxWorld};

    let mut w = World::empty();
    let dir = w.base().join("sends");
    std::fs::create_dir_all(&dir).unwrap();
    // each seat's "shell tool": waits for its go, then runs team send from below the pane's
    // shell, with no terminal, in the world's environment and the pane's TMUX/TMUX_PANE (as
    // an agent's shell tool has them) — not the tmux server's, which is the test process's
    // own; the two sends get ids of their own (the world's seed would give both the same)
    w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let tool = |seat: &str, to: &str| -> String {
        let mut env = String::new();
        for (k, v) in w.env() {
            env.push_str(&format!("{k}={} ", shell_quote(&v)));
        }
        let (out, rc) = (dir.join(format!("{seat}.out")), dir.join(format!("{seat}.rc")));
        // (inside the pane, $TMUX names the pane's own server)
        format!(
            "tmux wait-for go-{seat}; cd {repo} && env -i {env}TMUX=\"$TMUX\" TMUX_PANE=\"$TMUX_PANE\" TEAM_TMUX_SOCKET=\"${{TMUX%%,*}}\" setsid -w team send {to} {msg} </dev/null >{out} 2>&1; {rc}",
            repo = shell_quote(&w.repo.display().to_string()),
            msg = shell_quote(&format!("hello {to}, from {seat}")),
            out = shell_quote(&out.display().to_string()),
            rc = common::write_rc(&rc),
        )
    };
    let tw = TmuxWorld::start(
        "beacon",
        &[
            SeatSpec::new("keeper", "claude-code", "takes-line").mark("").cwd(&w.repo).beside(&tool("keeper", "rev")),
            SeatSpec::new("rev", "codex", "takes-line").mark("").cwd(&w.repo).beside(&tool("rev", "keeper")),
        ],
    );
    w.extra_env.extend(tw.env());

    // 1. the team file: keeper leads, so the two may message each other
    let r = w.team(&["init", "--seat", "keeper:claude-code", "--seat", "rev:codex"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("keeper leads the team: keeper and rev may message each other"), "{}", r.stdout);
    // (on tmux init names team up, which starts the seats itself; these CLIs were started by
    // hand before the team managed the session: team status names the line that marks each)
    assert!(r.stdout.contains("\n  team up "), "{}", r.stdout);

    // 2. team status lists the two unmarked panes, each with its line
    let r = w.team(&["status"]);
    assert_eq!(r.code, 0, "{r:?}");
    let marks: Vec<String> = r
        .stdout
        .lines()
        .filter_map(|l| l.find("team mark ").map(|i| l[i..].trim().to_string()))
        .filter(|l| l.contains("--pane"))
        .collect();
    let keeper_pane = tw.seat("keeper").pane.clone();
    let rev_pane = tw.seat("rev").pane.clone();
    assert_eq!(
        marks,
        vec![format!("team mark keeper --pane {keeper_pane}"), format!("team mark rev --pane {rev_pane}")],
        "{}",
        r.stdout
    );

    // 3. the lines, run as printed
    for line in &marks {
        let r = w.sh(line);
        assert_eq!(r.code, 0, "{line}: {r:?}");
    }
    let r = w.team(&["status"]);
    assert!(!r.stdout.contains("no seat holds"), "{}", r.stdout);

    // 4. each seat's own tool sends to the other: both delivered
    for (seat, to) in [("keeper", "rev"), ("rev", "keeper")] {
        assert!(tw.tmux(&["wait-for", "-S", &format!("go-{seat}")]).status.success());
        let rc = dir.join(format!("{seat}.rc"));
        assert!(tw.wait_until(common::BOUND, || rc.exists()), "{seat}'s send never ended");
        let out = std::fs::read_to_string(dir.join(format!("{seat}.out"))).unwrap();
        assert_eq!(std::fs::read_to_string(&rc).unwrap().trim(), "0", "{seat} -> {to}: {out}");
        assert_eq!(out, format!("team beacon, session \"beacon\"\n{to}: delivered\n"));
        // the receiving fake seat took the trigger line
        let log = std::fs::read_to_string(&tw.seat(to).log).unwrap_or_default();
        assert!(log.contains(".agents/send-drops/beacon/"), "{to} got: {log:?}");
    }

    // 5. the feed shows both, each with the rule that admitted it
    let r = w.team(&["feed"]);
    assert!(
        r.stdout.contains("keeper -> rev") && r.stdout.contains("admitted by: lead of beacon hello rev, from keeper"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("rev -> keeper") && r.stdout.contains("admitted by: own lead hello keeper, from rev"),
        "{}",
        r.stdout
    );
}
