//! Who sent this (issue 17, "High" 1 and 2, and the low items on callers and panes): a forged
//! pane row, a reparented agent, a command the team's tmux server started, an unmarked pane, a
//! CLI no profile names, a stopped server, and pane words that name no pane. Each attack runs
//! the built `team` in a private world (its own tmux server) and checks the refusal and that
//! nothing was typed.

use super::{in_pane, scene, within};
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use std::time::Duration;

/// The lead, a reviewer and a third seat, fake seats taking lines, in session `beacon`.
fn three() -> super::Scene {
    scene(
        &[
            SeatSpec::new("claude-keeper", "claude-code", "takes-line"),
            SeatSpec::new("gpt-reviewer", "codex", "takes-line"),
            SeatSpec::new("third", "codex", "takes-line"),
        ],
        Some("claude-keeper"),
    )
}

/// The history lines written so far (every project folder of the world's config).
fn history(w: &World) -> String {
    let mut all = String::new();
    for e in std::fs::read_dir(&w.config).into_iter().flatten().flatten() {
        if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
            all.push_str(&t);
        }
    }
    all
}

/// Runs `line` in a pane of `tw` marked `mark`, detached from it by `setsid -f script`, as an
/// agent's shell tool could: the line's output and exit code, once it has ended.
fn detached_from_pane(tw: &TmuxWorld, w: &World, mark: &str, under: &str, line: &str) -> (String, i32) {
    let d = tw.path().join(format!("detached-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let (out, rc) = (d.join("out"), d.join("rc"));
    let inner = format!("{line} > '{}' 2>&1; {}", out.display(), crate::common::write_rc(&rc));
    // under a process named `under` (argv[0], as a vendor CLI's shell tool runs), the
    // environment stripped of the pane's variables, started detached with a terminal of its own
    let script = format!(
        "(exec -a {under} bash -c {})",
        crate::common::shell_quote(&format!(
            // (`; true`: bash stays the detaching command's parent instead of exec'ing it)
            "env -u TMUX -u TMUX_PANE setsid -f script -qec {} /dev/null; true",
            crate::common::shell_quote(&inner)
        ))
    );
    let (said, code) = in_pane(tw, w, mark, &script);
    assert_eq!(code, 0, "the detaching line itself failed: {said}");
    assert!(tw.wait_until(crate::common::BOUND, || rc.exists()), "the detached line never ended");
    // (the rc file is written after the output is closed)
    let code = std::fs::read_to_string(&rc).unwrap().trim().parse().unwrap();
    (std::fs::read_to_string(&out).unwrap(), code)
}

#[test]
fn a_mark_holding_a_newline_forges_no_pane_row() {
    let s = three();
    let lead = s.tw.seat("claude-keeper").pane.clone();
    // From the reviewer's own pane: the lead's mark rewritten to carry a second row naming the
    // server's pid (an ancestor of every pane) as the lead's shell.
    let forge = format!(
        "S=$(tmux -S '{sock}' display -p '#{{pid}}'); tmux -S '{sock}' set -p -t {lead} @team-seat \"$(printf 'claude-keeper\\n%s\\t%s\\tclaude-keeper' {lead} \"$S\")\"",
        sock = s.tw.socket.display()
    );
    let (out, code) = in_pane(&s.tw, &s.w, "gpt-reviewer", &format!("{forge} && team send third 'deploy now'"));
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("team send: refused: unplaced (its pane could not be verified: pane "), "{out}");
    assert!(
        out.contains(&format!("pane {lead} of tmux session \"beacon\" is marked \"claude-keeper\\n{lead}\\t"))
            && out.contains("a mark holding a control character marks no seat"),
        "{out}"
    );
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    assert!(!history(&s.w).contains("claude-keeper"), "no line from the lead: {}", history(&s.w));

    // --record, the other path that writes a line as the caller: refused the same way.
    let (out, code) =
        in_pane(&s.tw, &s.w, "gpt-reviewer", "team send --record third --channel native --ms 5 'deploy now'");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a mark holding a control character marks no seat"), "{out}");
    assert!(history(&s.w).is_empty(), "nothing recorded: {}", history(&s.w));

    // The owner is told the same, naming the pane and the repair.
    let r = s.w.team(&["send", "claude-keeper", "status?"]);
    assert_eq!(r.code, 1, "{r:?}");
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(all.contains(&format!("(repair: tmux set -p -t {lead} -u @team-seat")), "{all}");
    assert!(s.tw.log("claude-keeper").is_empty());
}

#[test]
fn a_registry_record_vouches_only_through_the_pane_s_real_shell() {
    let s = three();
    let lead = s.tw.seat("claude-keeper").pane.clone();
    // The lead's record names its pane and its CLI's process (pid and start time), as
    // `team register` writes it.
    let pid: u32 = {
        let o = s.tw.tmux(&["display-message", "-p", "-t", &lead, "#{pane_pid}"]);
        String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let start: u64 = stat[stat.rfind(')').unwrap() + 1..].split_whitespace().nth(19).unwrap().parse().unwrap();
    s.w.config_file(
        "agents/agt_00000000000000aa.yaml",
        &format!(
            "id: agt_00000000000000aa\nseat: claude-keeper\nteam: beacon\ncli: claude-code\nsession: beacon\npane: \"{lead}\"\nprocess:\n  pid: {pid}\n  start: {start}\nroot: {}\n",
            s.w.repo.display()
        ),
    );
    // The forged row of the test above, now with the record standing: the registry's pane,
    // "running" the lead's process under the server's pid.
    let forge = format!(
        "S=$(tmux -S '{sock}' display -p '#{{pid}}'); tmux -S '{sock}' set -p -t {lead} @team-seat \"$(printf 'claude-keeper\\n%s\\t%s\\tclaude-keeper' {lead} \"$S\")\"",
        sock = s.tw.socket.display()
    );
    let (out, code) = in_pane(&s.tw, &s.w, "gpt-reviewer", &format!("{forge} && team send third 'deploy now'"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a mark holding a control character marks no seat"), "{out}");
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    assert!(history(&s.w).is_empty(), "{}", history(&s.w));
    // With the mark put back, the record and the pane's real shell agree: the lead's own pane
    // is the lead, and the reviewer's is not.
    assert!(s.tw.tmux(&["set", "-p", "-t", &lead, "@team-seat", "claude-keeper"]).status.success());
    let (out, code) = in_pane(&s.tw, &s.w, "gpt-reviewer", "team send third 'deploy now'");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("may not send to third"), "{out}");
}

#[test]
fn an_agent_that_detaches_from_its_pane_is_not_the_owner() {
    let s = three();
    let (out, code) = detached_from_pane(&s.tw, &s.w, "gpt-reviewer", "codex", "team send third 'deploy now'");
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("team send: refused: unplaced (its terminal /dev/pts/"), "{out}");
    assert!(
        out.contains("is provided by script (pid ")
            && out.contains("which hangs directly off init: a process started detached (setsid -f, a double fork) is not the owner, whatever started it)"),
        "{out}"
    );
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    assert!(history(&s.w).is_empty(), "{}", history(&s.w));
}

#[test]
fn a_command_the_team_s_tmux_server_starts_is_not_the_owner() {
    let s = three();
    let d = s.tw.path().join("run-shell");
    std::fs::create_dir_all(&d).unwrap();
    let (out, rc) = (d.join("out"), d.join("rc"));
    let mut env = String::new();
    for (k, v) in s.w.env() {
        env.push_str(&format!("export {k}={}; ", crate::common::shell_quote(&v)));
    }
    let inner = format!(
        "{env}cd {}; team send third 'deploy now' > '{}' 2>&1; {}",
        crate::common::shell_quote(&s.w.repo.display().to_string()),
        out.display(),
        crate::common::write_rc(&rc)
    );
    // From the reviewer's pane: tmux itself runs the line, with a terminal of its own.
    let line = format!(
        "tmux -S '{}' run-shell -b {}",
        s.tw.socket.display(),
        crate::common::shell_quote(&format!("script -qec {} /dev/null", crate::common::shell_quote(&inner)))
    );
    let (said, code) = in_pane(&s.tw, &s.w, "gpt-reviewer", &line);
    assert_eq!(code, 0, "{said}");
    assert!(s.tw.wait_until(crate::common::BOUND, || rc.exists()), "the run-shell line never ended");
    let out = std::fs::read_to_string(&out).unwrap();
    assert_eq!(std::fs::read_to_string(&rc).unwrap().trim(), "1", "{out}");
    assert!(out.starts_with("team send: refused: unplaced (it runs inside the team's tmux server (pid "), "{out}");
    assert!(out.contains("but in no seat's pane"), "{out}");
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
}

#[test]
fn an_agent_outside_tmux_that_detaches_is_not_the_owner() {
    let s = three();
    let d = s.w.base().join("outside");
    std::fs::create_dir_all(&d).unwrap();
    let (out, rc) = (d.join("out"), d.join("rc"));
    let inner = format!("team send third 'deploy now' > '{}' 2>&1; {}", out.display(), crate::common::write_rc(&rc));
    // a process named codex at a terminal outside tmux, its command detached from it. The
    // terminal's shell stays until that command has ended, as an agent's does: a session
    // leader that exits at once hangs its terminal up, and its SIGHUP reaches the `setsid -f`
    // child before that child has left the session (0 of 30 such lines lost with the shell
    // waiting; 2 to 8 of 30 without, at load 0 to 3).
    let line = format!(
        "(exec -a codex bash -c {}); for _ in $(seq 1200); do [ -e {rc} ] && break; sleep 0.1; done",
        crate::common::shell_quote(&format!(
            "setsid -f script -qec {} /dev/null; true",
            crate::common::shell_quote(&inner)
        )),
        rc = crate::common::shell_quote(&rc.display().to_string())
    );
    let r = s.w.sh(&line);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.tw.wait_until(crate::common::BOUND, || rc.exists()), "the detached line never ended");
    let out = std::fs::read_to_string(&out).unwrap();
    assert_eq!(std::fs::read_to_string(&rc).unwrap().trim(), "1", "{out}");
    assert!(out.contains("which hangs directly off init"), "{out}");
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    // Not detached, the same agent is named as what it is.
    let r = s.w.sh("(exec -a codex bash -c \"team send third 'deploy now'; exit \\$?\")");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("unplaced (it is run by an agent (codex) outside tmux)"), "{r:?}");
}

#[test]
fn an_unmarked_pane_of_the_team_s_session_is_unplaced_whatever_runs_in_it() {
    let s = three();
    // a plain shell, and a CLI no profile names (aider): neither is the owner
    for line in ["team send third 'deploy now'", "(exec -a aider bash -c \"team send third 'deploy now'; exit \\$?\")"]
    {
        let (out, code) = in_pane(&s.tw, &s.w, "", line);
        assert_eq!(code, 1, "{out}");
        assert!(out.starts_with("team send: refused: unplaced (its tmux pane %"), "{out}");
        assert!(out.contains(" holds no seat) may not send to third"), "{out}");
    }
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    // The owner, at a terminal outside the server, still is.
    let r = s.w.team(&["send", "third", "hello"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.ends_with("third: delivered\n"), "{r:?}");
}

#[test]
fn a_stopped_tmux_server_is_unreachable_not_a_caller_question() {
    let s = three();
    let pid = String::from_utf8_lossy(&s.tw.tmux(&["display-message", "-p", "#{pid}"]).stdout).trim().to_string();
    let signal = |sig: &str| assert!(std::process::Command::new("kill").args([sig, &pid]).status().unwrap().success());
    signal("-STOP");
    let (r, _) = within(Duration::from_secs(60), || s.w.team(&["send", "third", "hello"]));
    signal("-CONT");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.starts_with("team send: unreachable: tmux did not answer within 5 s: the tmux server at "),
        "{r:?}"
    );
    assert!(r.stderr.contains("is not responding (stopped or hung); nothing was sent"), "{r:?}");
    assert!(!r.stderr.contains("unplaced") && !r.stderr.contains("may not send"), "{r:?}");
    assert!(s.tw.log("third").is_empty());
}

#[test]
fn a_pane_word_that_names_no_pane_marks_nothing() {
    let s = three();
    // a fourth seat the file declares and no pane holds yet
    let file = std::fs::read_to_string(s.w.repo.join(".agents/team.yaml")).unwrap();
    s.w.team_file(&format!("{file}  - name: fourth\n    cli: codex\n"));
    let before = String::from_utf8_lossy(&s.tw.tmux(&["list-panes", "-a", "-F", "#{pane_id}=#{@team-seat}"]).stdout)
        .into_owned();
    for word in ["beacon:9", "", "../../x", "beacon:0.9", "%999"] {
        let r = s.w.team(&["mark", "fourth", "--pane", word]);
        assert_eq!(r.code, 1, "{word:?}: {r:?}");
        assert!(r.stderr.contains("nothing was marked"), "{word:?}: {r:?}");
        assert!(
            r.stderr.contains("names no tmux pane") || r.stderr.contains(&format!("has no pane {word}")),
            "{word:?}: {r:?}"
        );
    }
    let after = String::from_utf8_lossy(&s.tw.tmux(&["list-panes", "-a", "-F", "#{pane_id}=#{@team-seat}"]).stdout)
        .into_owned();
    assert_eq!(before, after, "no pane's mark changed");
    // A word naming a pane there is marks it.
    let free = String::from_utf8_lossy(
        &s.tw
            .tmux(&[
                "new-window",
                "-d",
                "-P",
                "-F",
                "#{session_name}:#{window_index}.#{pane_index}",
                "-t",
                "=beacon:",
                "sleep 600",
            ])
            .stdout,
    )
    .trim()
    .to_string();
    let r = s.w.team(&["mark", "fourth", "--pane", &free]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// A person's own tmux server — not the team's — kept in the foreground (`tmux -D`) as this
/// test's child, as a desktop's session manager keeps one: its panes' terminal program is then
/// not a process hanging off init. `opened` panes are opened first: ten, and the pane a line
/// runs in has an id the team's server has no pane of; none, and it has the id of one of the
/// team's (`TMUX_PANE` names a pane of this server, the same id there).
struct OwnTmux {
    sock: std::path::PathBuf,
    server: std::process::Child,
}

impl OwnTmux {
    fn start(w: &World, opened: usize) -> OwnTmux {
        let sock = w.base().join("own-tmux.sock");
        let server = std::process::Command::new("tmux")
            .args(["-D", "-f", "/dev/null", "-S"])
            .arg(&sock)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", &w.home)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run tmux -D");
        let own = OwnTmux { sock, server };
        assert!(until(|| own.sock.exists()), "tmux -D never listened");
        assert!(own.tmux(&["new-session", "-d", "-s", "own", "-x", "120", "-y", "30", "sleep 600"]).status.success());
        for _ in 0..opened {
            assert!(own.tmux(&["new-window", "-d", "-t", "own:", "sleep 600"]).status.success());
        }
        own
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new("tmux")
            .arg("-S")
            .arg(&self.sock)
            .args(args)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .output()
            .unwrap()
    }

    /// Runs a bash line in a new pane of this server with the world's environment (and the
    /// pane's own TMUX, TMUX_PANE): the line's output and exit code.
    fn run(&self, w: &World, name: &str, line: &str) -> (String, i32) {
        let d = w.base().join(format!("own-{name}"));
        std::fs::create_dir_all(&d).unwrap();
        let script = crate::common::pane_script(w, &d, "", line);
        std::fs::write(d.join("run.sh"), script).unwrap();
        let run = format!("bash '{}'", d.join("run.sh").display());
        crate::common::tmux::new_pane(|a| self.tmux(a), "own:", &[], &run);
        let rc = d.join("rc");
        assert!(until(|| rc.exists()), "the line never ended");
        crate::common::pane_said(&d)
    }
}

/// Waits, bounded, until `cond` holds.
fn until(mut cond: impl FnMut() -> bool) -> bool {
    let t = std::time::Instant::now();
    while t.elapsed() < crate::common::BOUND {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

impl Drop for OwnTmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

#[test]
fn an_agent_cli_no_profile_names_in_a_person_s_own_tmux_pane_is_not_the_owner() {
    let s = three();
    let own = OwnTmux::start(&s.w, 10);
    // the person, at a shell in a pane of their own tmux: the owner
    let (out, code) = own.run(&s.w, "person", "TEAM_ID_SEED=21 team send third 'hello from the owner'");
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("third: delivered\n"), "{out}");
    // the same pane running an agent CLI no profile names, whose tool runs the line (no pane
    // of the team's session, a terminal provided by the person's tmux): not the owner
    for (n, (name, cli)) in [("aider", "aider"), ("new", "vendorcli")].into_iter().enumerate() {
        let line = format!("(exec -a {cli} bash -c \"TEAM_ID_SEED={n} team send third 'deploy now' </dev/null 2>&1 | cat; exit \\${{PIPESTATUS[0]}}\")");
        let (out, code) = own.run(&s.w, name, &line);
        assert_eq!(code, 1, "{cli}: {out}");
        assert!(out.starts_with("team send: refused: unplaced (it is run by "), "{cli}: {out}");
        assert!(out.contains(cli) && out.contains("may not send to third"), "{cli}: {out}");
    }
    let h = history(&s.w);
    assert!(h.contains("hello from the owner") && !h.contains("deploy now"), "only the owner's send: {h}");
}

#[test]
fn an_agent_cli_no_profile_names_at_a_terminal_is_not_the_owner() {
    let s = three();
    for (n, cli) in ["aider", "pi", "vendorcli"].into_iter().enumerate() {
        let r = s.w.sh(&format!("(exec -a {cli} bash -c \"TEAM_ID_SEED={n} team send third 'deploy now' </dev/null 2>&1 | cat; exit \\${{PIPESTATUS[0]}}\")"));
        assert_eq!(r.code, 1, "{cli}: {r:?}");
        assert!(r.stdout.starts_with("team send: refused: unplaced (it is run by "), "{cli}: {r:?}");
        assert!(r.stdout.contains(cli), "{cli}: {r:?}");
    }
    assert!(s.tw.log("third").is_empty(), "nothing was typed into third");
    assert!(history(&s.w).is_empty(), "{}", history(&s.w));
    // the person's own shell, the same terminal: the owner
    let r = s.w.team(&["send", "third", "hello"]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// A person at a shell in their own tmux, whose pane's id (`%1`) is also a pane of the team's
/// server: the id is that server's numbering, and the person's `$TMUX` names their own server,
/// so it claims nothing on the team's — the owner, not "a claimed identity".
#[test]
fn a_person_s_own_tmux_pane_whose_id_the_team_s_server_also_has_is_the_owner() {
    let s = three();
    let own = OwnTmux::start(&s.w, 0);
    let (out, code) = own.run(
        &s.w,
        "person",
        "{ echo \"pane $TMUX_PANE\"; TEAM_ID_SEED=21 team send third 'hello from the owner'; }",
    );
    let pane = out.lines().next().and_then(|l| l.strip_prefix("pane ")).unwrap_or_default().to_string();
    let team_panes = s.tw.tmux(&["list-panes", "-a", "-F", "#{pane_id}"]);
    let team_panes = String::from_utf8_lossy(&team_panes.stdout);
    assert!(
        team_panes.lines().any(|p| p == pane),
        "the person's pane {pane} is no id of the team's server: {team_panes}"
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("third: delivered\n"), "{out}");
    assert!(history(&s.w).contains("\"from\":\"owner\""), "{}", history(&s.w));
    // a pane of the team's own server named by TMUX_PANE from outside it is still a claim
    let pid = s.tw.tmux(&["display-message", "-p", "#{pid}"]);
    let pid = String::from_utf8_lossy(&pid.stdout).trim().to_string();
    let r = s.w.sh(&format!(
        "TMUX_PANE={pane} TMUX={},{pid},0 TEAM_ID_SEED=22 team send third 'claimed' </dev/null",
        s.tw.socket.display()
    ));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("a claimed identity: TMUX_PANE names pane"), "{r:?}");
}
