//! No silent loss and no litter: a history line that cannot be written is said in the
//! outcome and in team.log (and `--record` stays a refusal); the temp files of a sender
//! killed mid-write are swept by the next send.

use super::scene;
use crate::common::tmux::SeatSpec;
use crate::common::World;
use std::path::{Path, PathBuf};

fn history_dir(config: &Path) -> PathBuf {
    std::fs::read_dir(config)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("beacon-"))
        .expect("the project's history folder")
        .path()
}

#[test]
fn a_history_line_that_cannot_be_written_is_said_never_lost_silently() {
    let mut s = scene(&[SeatSpec::new("rev", "codex", "takes-line")], None);
    // a fresh message id for every send (a seeded one repeats from run to run)
    s.w.extra_env.push(("TEAM_ID_SEED".into(), String::new()));
    let r = s.w.team(&["send", "rev", "first"]);
    assert_eq!(r.code, 0, "{r:?}");
    let dir = history_dir(&s.w.config);
    let elsewhere = s.w.base().join("elsewhere");
    std::fs::write(&elsewhere, "").unwrap();
    let current = dir.join("messages.jsonl");
    let full = || std::fs::write(&current, "x".repeat(1 << 20)).unwrap();
    let link = |p: &Path| std::os::unix::fs::symlink(&elsewhere, p).unwrap();
    // (what is planted, whether the current file is full enough to rotate, what is said)
    type Plant<'a> = Box<dyn Fn() + 'a>;
    let cases: Vec<(&str, Plant, &str)> = vec![
        (
            "messages.jsonl",
            Box::new(|| {
                std::fs::remove_file(&current).unwrap();
                link(&current);
            }),
            "messages.jsonl is a symbolic link; refusing to follow it",
        ),
        (
            "messages.lock",
            Box::new(|| {
                std::fs::remove_file(&current).ok();
                std::fs::remove_file(dir.join("messages.lock")).unwrap();
                nix::unistd::mkfifo(&dir.join("messages.lock"), nix::sys::stat::Mode::S_IRWXU).unwrap();
            }),
            "messages.lock is a FIFO; refusing to follow it",
        ),
        (
            "messages.jsonl.1",
            Box::new(|| {
                std::fs::remove_file(dir.join("messages.lock")).unwrap();
                full();
                link(&dir.join("messages.jsonl.1"));
            }),
            "messages.jsonl.1 is a symbolic link; refusing to follow it",
        ),
        (
            "messages.jsonl.2",
            Box::new(|| {
                std::fs::remove_file(dir.join("messages.jsonl.1")).unwrap();
                full();
                link(&dir.join("messages.jsonl.2"));
            }),
            "messages.jsonl.2 is a symbolic link; refusing to follow it",
        ),
    ];
    for (n, (what, plant, says)) in cases.into_iter().enumerate() {
        plant();
        let body = format!("body {n}");
        let r = s.w.team(&["send", "rev", &body]);
        assert_eq!(r.code, 0, "{what}: {r:?}");
        assert!(
            r.stdout.contains("rev: delivered")
                && r.stdout.contains("; its history line was not written: ")
                && r.stdout.contains(says),
            "{what}: {}",
            r.stdout
        );
        let log = std::fs::read_to_string(s.w.repo.join(".agents/team.log")).unwrap();
        let line = log.lines().last().unwrap();
        assert!(line.contains("history line not written: ") && line.contains(says), "{what}: {line}");
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "", "{what}: nothing written through the link");
    }
    // --record stays a refusal: a delivery that cannot be written down is not recorded
    let w = World::beacon();
    assert_eq!(w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "one"]).code, 0);
    let cur = history_dir(&w.config).join("messages.jsonl");
    std::fs::remove_file(&cur).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &cur).unwrap();
    let r = w.team(&["send", "--record", "claude-keeper", "--channel", "native", "--ms", "5", "two"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("the delivery could not be written down") && r.stderr.contains("is a symbolic link"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_temp_files_of_a_sender_killed_mid_write_are_swept() {
    let s = scene(&[SeatSpec::new("rev", "codex", "takes-line")], None);
    let dir = s.w.repo.join(".agents/send-drops/beacon/rev");
    std::fs::create_dir_all(&dir).unwrap();
    for d in [s.w.repo.join(".agents/send-drops"), s.w.repo.join(".agents/send-drops/beacon"), dir.clone()] {
        std::fs::set_permissions(&d, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    }
    // what `write_temp` leaves when its writer dies between create and rename: a pid that no
    // longer runs (above the kernel's pid_max)
    let stale = dir.join(".0f1e2d3c-4b5a-4968-8776-655443322110.tmp.4194305.0123456789abcdef0123456789abcdef");
    std::fs::write(&stale, vec![b'x'; 4 << 20]).unwrap();
    let keep = dir.join("notes.txt");
    std::fs::write(&keep, "mine").unwrap();
    let r = s.w.team(&["send", "rev", "hello"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!stale.exists(), "the leftover was swept");
    assert!(keep.exists(), "nothing else is touched");
}
