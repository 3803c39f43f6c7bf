//! Issue 17's lost edits and unbounded waits, against the built `team` in a private world:
//! `team rename` never writes over an edit made while it waited on tmux, two renames at once
//! both land, a rename waits (bounded) behind a send's seat lock; a compose seat's git is the
//! fixed search's, bounded, its origin one line, and the dry run reads the seat's own folder.
//!
//! A rename is held at its pane step with a tmux hook (`after-set-option` runs a shell that
//! waits for a file), so the moment an edit lands is chosen, not guessed.

use super::limits::{bounded, holds_open, team_pid, wait_for, Pending, GUARD};
use super::{scene, Scene};
use crate::common::tmux::{SeatSpec, TmuxWorld};
use crate::common::World;
use std::path::{Path, PathBuf};

// ------------------------------------------------------------------ item 5: rename

/// Two seats `a` and `b` in session `beacon`, and a hook holding every `set-option` (the
/// rename's pane step) until `go` exists; each one held appends a line to `reached`.
struct Held {
    s: Scene,
    reached: PathBuf,
    go: PathBuf,
}

fn held() -> Held {
    let s = scene(&[SeatSpec::new("a", "codex", "takes-line"), SeatSpec::new("b", "codex", "takes-line")], None);
    let reached = s.w.base().join("reached");
    let go = s.w.base().join("go");
    let hook = format!(
        "run-shell \"echo x >> '{}'; while [ ! -e '{}' ]; do sleep 0.02; done\"",
        reached.display(),
        go.display()
    );
    assert!(s.tw.tmux(&["set-hook", "-g", "after-set-option", &hook]).status.success());
    Held { s, reached, go }
}

impl Held {
    fn reached(&self) -> usize {
        std::fs::read_to_string(&self.reached).map(|t| t.lines().count()).unwrap_or(0)
    }
    fn mark(&self, seat: &str) -> String {
        let out = self.s.tw.tmux(&["show-options", "-p", "-v", "-t", &self.s.tw.seat(seat).pane, "@team-seat"]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
    fn file(&self) -> String {
        std::fs::read_to_string(self.s.w.repo.join(".agents/team.yaml")).unwrap()
    }
}

#[test]
fn a_team_file_edited_while_rename_waits_on_tmux_is_refused_and_keeps_the_edit() {
    let h = held();
    let w = &h.s.w;
    let rename = Pending::start(w, "team rename a a2");
    assert!(wait_for(GUARD, || h.reached() == 1 || rename.ended().is_some()), "the rename never reached its pane step");
    assert_eq!(rename.ended(), None, "the rename ended before its pane step");
    // the user edits the file while the rename waits on tmux
    let edited = format!("{}  - name: c\n    cli: codex\n", h.file());
    std::fs::write(w.repo.join(".agents/team.yaml"), &edited).unwrap();
    std::fs::write(&h.go, "").unwrap();
    let r = rename.wait(w, GUARD);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "team rename: {} changed since this rename read it (an edit, or another command writing it); nothing was renamed\nlook at the file, then run team rename a a2 again\n",
            w.repo.join(".agents/team.yaml").display()
        )
    );
    assert_eq!(h.file(), edited, "the edit is kept, byte for byte");
    assert_eq!(h.mark("a"), "a", "the pane's mark went back to the name the file gives it");
}

#[test]
fn two_renames_at_once_both_land() {
    let h = held();
    let w = &h.s.w;
    let first = Pending::start(w, "team rename a a2");
    assert!(
        wait_for(GUARD, || h.reached() == 1 || first.ended().is_some()),
        "the first rename never reached its pane step"
    );
    assert_eq!(first.ended(), None);
    let second = Pending::start(w, "team rename b b2");
    // the second reaches its own pane step (two read-edit-writes overlap), or waits for the
    // team file the first holds
    let locks = w.state.join("file-locks");
    let overlapped = wait_for(GUARD, || {
        h.reached() == 2
            || second.ended().is_some()
            || team_pid(w, &["rename", "b", "b2"]).is_some_and(|pid| holds_open(pid, &locks))
    });
    assert!(overlapped, "the second rename neither ran nor waited");
    std::fs::write(&h.go, "").unwrap();
    let (r1, r2) = (first.wait(w, GUARD), second.wait(w, GUARD));
    assert_eq!((r1.code, r2.code), (0, 0), "{r1:?}\n{r2:?}");
    assert_eq!(
        r1.stdout,
        "team beacon, session \"beacon\"\na: renamed to a2 — the file and pane %1\n"
            .replace("%1", &h.s.tw.seat("a").pane)
    );
    assert_eq!(
        r2.stdout,
        "team beacon, session \"beacon\"\nb: renamed to b2 — the file and pane %2\n"
            .replace("%2", &h.s.tw.seat("b").pane)
    );
    let f = h.file();
    assert!(f.contains("  - name: a2\n") && f.contains("  - name: b2\n"), "both renames are in the file:\n{f}");
    assert_eq!((h.mark("a"), h.mark("b")), ("a2".to_string(), "b2".to_string()));
}

#[test]
fn a_rename_waits_briefly_for_a_send_s_seat_lock() {
    let s = scene(&[SeatSpec::new("a", "codex", "takes-line")], None);
    let w = &s.w;
    // a send holds the seat lock (as `typed::lock_seat` leaves it: its holder line, 32 bytes)
    let dir = w.state.join("seat-locks/beacon");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a");
    std::fs::write(&path, format!("{:<31}\n", "send 4242")).unwrap();
    let lock = std::fs::OpenOptions::new().read(true).write(true).open(&path).unwrap();
    lock.lock().unwrap();
    let rename = Pending::start(w, "team rename a a2");
    let reached = wait_for(GUARD, || {
        rename.ended().is_some() || team_pid(w, &["rename", "a", "a2"]).is_some_and(|pid| holds_open(pid, &path))
    });
    assert!(reached, "the rename never reached the seat lock");
    assert_eq!(rename.ended(), None, "the rename did not wait for the send's lock");
    drop(lock);
    let r = rename.wait(w, GUARD);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.ends_with(&format!("a: renamed to a2 — the file and pane {}\n", s.tw.seat("a").pane)),
        "{}",
        r.stdout
    );
}

// ------------------------------------------------------------------ item 6: compose git

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A compose seat `cloud` (the fake `codex cloud`) working in its own folder, whose origin is
/// `acme/seat-repo`; the team's checkout's origin is `acme/beacon`.
struct Cloud {
    w: World,
    tw: TmuxWorld,
    folder: PathBuf,
}

fn cloud() -> Cloud {
    let mut tw = TmuxWorld::start("beacon", &[]);
    let mut w = World::empty();
    git(&w.repo, &["remote", "add", "origin", "https://github.com/acme/beacon.git"]);
    let folder = w.base().join("seat-work");
    std::fs::create_dir_all(&folder).unwrap();
    git(&folder, &["init", "-q"]);
    git(&folder, &["remote", "add", "origin", "https://github.com/acme/seat-repo.git"]);
    w.team_file("format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n  - name: cloud\n    cli: codex-cloud\n");
    w.extra_env.extend(tw.env());
    w.extra_env.push(("TEAM_TIME_SCALE".into(), "0.5".into()));
    tw.add_seat(SeatSpec::new("cloud", "codex-cloud", "created-line-stays").cwd(&folder).delay(150));
    assert!(tw.wait_for_text("cloud", "Loaded tasks", crate::common::BOUND), "{}", tw.screen("cloud"));
    Cloud { w, tw, folder }
}

impl Cloud {
    fn bytes(&self) -> String {
        String::from_utf8_lossy(&self.tw.log("cloud")).into_owned()
    }
}

#[test]
fn the_dry_run_reads_the_seat_s_folder_with_the_git_of_the_fixed_search() {
    let mut c = cloud();
    // a `git` first on PATH that never answers: never the one run
    let bin = c.w.base().join("evil-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ran = c.w.base().join("fake-git-ran");
    std::fs::write(bin.join("git"), format!("#!/bin/sh\ntouch '{}'\nexec sleep 600\n", ran.display())).unwrap();
    std::fs::set_permissions(bin.join("git"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = c.w.env().into_iter().find(|(k, _)| k == "PATH").unwrap().1;
    c.w.extra_env.push(("PATH".into(), format!("{}:{path}", bin.display())));
    let r = bounded(&c.w, &["send", "cloud", "add a retry", "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!("compose 0: for acme/seat-repo (the origin of {})", c.folder.display())),
        "the seat's own folder, as the send reads it:\n{}",
        r.stdout
    );
    assert!(!ran.exists(), "the git the environment named was run");
    assert_eq!(c.bytes(), "", "a dry run types nothing");
}

#[test]
fn a_git_config_including_a_fifo_is_given_up_on_within_a_bound() {
    let c = cloud();
    let fifo = c.w.base().join("config.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let mut cfg = std::fs::OpenOptions::new().append(true).open(c.folder.join(".git/config")).unwrap();
    std::io::Write::write_all(&mut cfg, format!("[include]\n\tpath = {}\n", fifo.display()).as_bytes()).unwrap();
    let r = bounded(&c.w, &["send", "cloud", "add a retry to the flaky login test"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!(
            "team send: refused: cloud: git did not answer within 5 s in the seat's folder {}, so its repo is not known; nothing was typed; the message is at ",
            c.folder.display()
        )),
        "{r:?}"
    );
    assert_eq!(c.bytes(), "", "nothing was typed");
    // the seat lock is free again: a dry run goes on (and is bounded the same way)
    let r = bounded(&c.w, &["send", "cloud", "x", "--dry-run"]);
    assert!(r.stdout.contains("the send would be refused: git did not answer within 5 s"), "{}", r.stdout);
}

#[test]
fn an_origin_of_more_than_one_line_is_refused_before_anything_is_typed() {
    let c = cloud();
    git(&c.folder, &["config", "remote.origin.url", "https://github.com/acme/seat-repo.git\nevil/inject"]);
    let r = bounded(&c.w, &["send", "cloud", "add a retry to the flaky login test"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!(
            "team send: refused: cloud: the seat's folder {}'s origin is more than one line (\"https://github.com/acme/seat-repo.git\\nevil/inject\"); nothing was typed; the message is at ",
            c.folder.display()
        )),
        "{r:?}"
    );
    assert_eq!(c.bytes(), "", "nothing was typed");
}
