//! The caller, verified: a pane that `TMUX_PANE` names makes the caller its seat only when
//! `team` runs inside that pane; naming a marked pane from outside is a claimed identity and
//! is refused.

use crate::common::World;

#[test]
fn naming_a_marked_pane_from_outside_it_is_refused_as_a_claimed_identity() {
    let mut w = World::beacon();
    let pane = w.tmux_pane();
    w.mark_pane("claude-keeper");
    let sock = w.base().join("tmux.sock").display().to_string();
    // From outside the pane, with the variables a process inside it would see.
    w.extra_env.push(("TMUX".into(), format!("{sock},0,0")));
    w.extra_env.push(("TMUX_PANE".into(), pane.clone()));
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with("team send: refused: "), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "a claimed identity: TMUX_PANE names pane {pane}, but this process does not run inside it"
        )),
        "{}",
        r.stderr
    );
    // Without the claim the same terminal is the owner's.
    w.extra_env.retain(|(k, _)| k != "TMUX" && k != "TMUX_PANE");
    let r = w.team(&["send", "gpt-reviewer", "hi", "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
}
