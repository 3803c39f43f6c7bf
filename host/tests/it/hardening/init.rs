//! `team init` against what it must not touch (issue 17): a `.agents/.gitignore` that is a
//! link or a FIFO, and a subfolder that is a link out of the checkout. Everything is checked
//! before anything is written, and the run is rooted at the checkout it was started in.

use std::time::Duration;

use super::{files, within};
use crate::common::World;

/// `.agents/.gitignore` a link to a file outside, then a FIFO: refused (exit 1) with nothing
/// written — no team file left behind — the link's target untouched, and no hang on the FIFO.
#[test]
fn a_gitignore_that_is_a_link_or_a_fifo_refuses_init_before_anything_is_written() {
    let w = World::empty();
    let outside = w.base().join("outside-ignore");
    std::fs::write(&outside, "mine\n").unwrap();
    std::fs::create_dir_all(w.repo.join(".agents")).unwrap();
    std::os::unix::fs::symlink(&outside, w.repo.join(".agents/.gitignore")).unwrap();
    let r = w.team(&["init", "--seat", "keeper:claude-code"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(".agents/.gitignore is a symbolic link; refusing to follow it; nothing was written"),
        "{r:?}"
    );
    assert_eq!(files(&w.repo.join(".agents")), vec![std::path::PathBuf::from(".gitignore")]);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "mine\n");

    std::fs::remove_file(w.repo.join(".agents/.gitignore")).unwrap();
    nix::unistd::mkfifo(&w.repo.join(".agents/.gitignore"), nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let (r, _) = within(Duration::from_secs(30), || w.team(&["init", "--seat", "keeper:claude-code"]));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains(".agents/.gitignore is a FIFO; refusing to follow it; nothing was written"), "{r:?}");
    assert!(!w.repo.join(".agents/team.yaml").exists());
    // the schema copy is not written either
    assert_eq!(files(&w.repo.join(".agents")), vec![std::path::PathBuf::from(".gitignore")]);
}

/// A subfolder of the checkout that is a link to a folder outside it: `cd` into it (the
/// shell's logical path) and `team init` writes the checkout's `.agents`, never the target's.
#[test]
fn init_from_a_linked_subfolder_writes_the_checkout_s_file_not_the_link_target_s() {
    let w = World::empty();
    let outside = w.base().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, w.repo.join("linked")).unwrap();
    let r = w.sh("cd linked && team init --seat keeper:claude-code");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("team beacon, session \"beacon\"\nwrote ../.agents/team.yaml"), "{r:?}");
    assert_eq!(files(&outside), Vec::<std::path::PathBuf>::new(), "nothing is written through the link");
    assert!(w.repo.join(".agents/team.yaml").is_file());
    // and every command run from there finds that file
    let r = w.sh("cd linked && team check");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("team beacon, session \"beacon\"\n"), "{r:?}");
    // a second init there is refused: the checkout has its file
    let r = w.sh("cd linked && team init");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("../.agents/team.yaml already exists; nothing was written"), "{r:?}");
}
