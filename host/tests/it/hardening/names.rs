//! Hostile names and planted files: every word that becomes a path component is checked when
//! its file is read, the lock and drop paths are built only from checked words, and nothing
//! `team` writes ever lands outside its folders.

use super::files;
use crate::common::World;
use std::os::unix::fs::PermissionsExt;

const RULE: &str = "(letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63)";

/// The user's `~/.ssh/authorized_keys`, which the attack aims at.
fn keys(w: &World) -> std::path::PathBuf {
    let ssh = w.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    let k = ssh.join("authorized_keys");
    std::fs::write(&k, "ssh-ed25519 AAAAC3Nza… owner@laptop\n").unwrap();
    k
}

#[test]
fn a_team_file_session_naming_a_folder_outside_is_refused_at_read_and_touches_nothing() {
    let w = World::empty();
    let k = keys(&w);
    let ssh = w.home.join(".ssh").display().to_string();
    for session in [ssh.clone(), "../../../home/.ssh".to_string()] {
        w.team_file(&format!(
            "project: beacon\nsession: \"{session}\"\nmultiplexer: tmux\nseats:\n  - name: authorized_keys\n    cli: codex\n"
        ));
        let r = w.team(&["send", "authorized_keys", "hi"]);
        assert_eq!(r.code, 2, "{r:?}");
        assert_eq!(r.stderr, format!("team send: line 2: session \"{session}\" is not a session name {RULE}\n"));
        assert_eq!(std::fs::read_to_string(&k).unwrap(), "ssh-ed25519 AAAAC3Nza… owner@laptop\n");
        assert!(files(&w.state).is_empty(), "{:?}", files(&w.state));
        assert!(!w.repo.join(".agents/send-drops").exists());
    }
    // a seat or project name that climbs is refused the same way
    w.team_file("project: beacon\nseats:\n  - name: ../../x\n    cli: codex\n");
    let r = w.team(&["send", "x", "hi"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("team send: line 3: seat name \"../../x\" is not a seat name"), "{}", r.stderr);
    w.team_file("project: ../beacon\nteam: beacon\nseats:\n  - name: a\n    cli: codex\n");
    let r = w.team(&["send", "a", "hi"]);
    assert_eq!(r.stderr, format!("team send: line 1: project \"../beacon\" is not a project name {RULE}\n"));
}

#[test]
fn a_registry_word_naming_a_folder_outside_is_refused_at_read() {
    let w = World::beacon();
    let teams = w.config_file("teams.yaml", "teams:\n  api:\n    session: ../../../home/.ssh\n");
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "team send: {}: line 3: session \"../../../home/.ssh\" is not a session name {RULE}\n",
            teams.display()
        )
    );
    std::fs::write(&teams, "teams:\n  api:\n    root: relative/checkout\n").unwrap();
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run"]);
    assert!(
        r.stderr
            .ends_with("line 3: root \"relative/checkout\" is not an absolute folder path without '.' or '..' parts\n"),
        "{}",
        r.stderr
    );
    std::fs::remove_file(&teams).unwrap();
    // an agent record: its seat and session become the lock's path
    let rec = w.config_file(
        "agents/agt_00000000000000c1.yaml",
        &format!(
            "id: agt_00000000000000c1\nseat: authorized_keys\nteam: api\nsession: {}\n",
            w.home.join(".ssh").display()
        ),
    );
    let r = w.team(&["send", "agt_00000000000000c1", "hi"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!(
            "team send: {}: line 4: session \"{}\"",
            rec.display(),
            w.home.join(".ssh").display()
        )),
        "{}",
        r.stderr
    );
    assert!(files(&w.state).is_empty());
}

#[test]
fn a_file_planted_where_the_seat_lock_goes_is_never_written() {
    let w = World::beacon();
    let k = keys(&w);
    let dir = w.state.join("seat-locks/beacon");
    std::fs::create_dir_all(&dir).unwrap();
    // a hard link to the user's keys: opening it would be opening them
    std::fs::hard_link(&k, dir.join("gpt-reviewer")).unwrap();
    let r = w.team(&["send", "gpt-reviewer", "hi"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "team send: refused: gpt-reviewer: {} is not a seat lock (it has 2 links); refusing to use it; nothing was sent\n",
            dir.join("gpt-reviewer").display()
        )
    );
    // a symbolic link is refused, never followed
    std::fs::remove_file(dir.join("gpt-reviewer")).unwrap();
    std::os::unix::fs::symlink(&k, dir.join("gpt-reviewer")).unwrap();
    let r = w.team(&["send", "gpt-reviewer", "hi"]);
    assert!(r.stderr.contains("is a symbolic link; refusing to follow it"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&k).unwrap(), "ssh-ed25519 AAAAC3Nza… owner@laptop\n");
    assert!(!w.repo.join(".agents/send-drops").exists(), "a refused lock writes no drop");
}

#[test]
fn a_state_config_or_drop_folder_others_can_write_is_refused_naming_it() {
    let w = World::beacon();
    let loose = |p: &std::path::Path, mode| std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    loose(&w.state, 0o777);
    let r = w.team(&["send", "gpt-reviewer", "hi"]);
    assert_eq!(r.code, 1, "{r:?}");
    let s = w.state.display();
    assert!(
        r.stderr.contains(&format!("{s} is writable by every user (mode 777), who could plant files team reads there; refusing to use it (repair: chmod 700 {s})")),
        "{}",
        r.stderr
    );
    assert!(files(&w.state).is_empty(), "nothing made in a refused folder");
    loose(&w.state, 0o700);

    std::fs::create_dir_all(&w.config).unwrap();
    loose(&w.config, 0o775);
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run"]);
    assert_eq!(r.code, 2, "{r:?}");
    let c = w.config.display();
    assert!(
        r.stderr.contains(&format!("{c} is writable by its group (mode 775)"))
            && r.stderr.contains(&format!("(repair: chmod 700 {c})")),
        "{}",
        r.stderr
    );
    loose(&w.config, 0o700);

    let drops = w.repo.join(".agents/send-drops");
    std::fs::create_dir_all(&drops).unwrap();
    loose(&drops, 0o777);
    let r = w.team(&["send", "gpt-reviewer", "hi"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!("the drop folder could not be made: {} is writable by every user", drops.display())),
        "{}",
        r.stderr
    );
    assert!(files(&drops).is_empty());
}
