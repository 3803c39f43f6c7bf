//! `team demo` as a newcomer runs it: from a terminal, in any folder. It must deliver to both
//! fake seats, show the feed, and leave nothing behind (its folder and its tmux server).

use crate::common::World;

#[test]
fn the_demo_delivers_to_two_vendors_and_cleans_up() {
    let w = World::empty();
    let r = w.run(&["demo"], &w.base());
    assert_eq!(r.code, 0, "{r:?}");
    let out = &r.stdout;
    let first = out.lines().next().unwrap_or_default();
    let dir = first
        .strip_prefix("A throwaway project in ")
        .and_then(|s| s.strip_suffix(" with two fake seats in a private tmux session:"))
        .unwrap_or_else(|| panic!("first line: {first:?}"));
    for want in [
        "team demo, session \"demo\"\nkeeper: delivered\n",
        "team demo, session \"demo\"\nreviewer: delivered\n",
        "(keeper's terminal received one line: Please read the team message at .agents/send-drops/demo/keeper/",
        "(reviewer's terminal received one line: Please read the team message at .agents/send-drops/demo/reviewer/",
        "owner -> keeper",
        "owner -> reviewer",
        "2 events\n",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    let base = std::path::Path::new(dir).parent().unwrap();
    assert!(!base.exists(), "{} is left behind", base.display());
    // Nothing written to the world's own config: the demo keeps its history in its folder.
    assert!(!w.config.join("demo").exists());
    assert_eq!(std::fs::read_dir(&w.config).map(|d| d.count()).unwrap_or(0), 0);
}
