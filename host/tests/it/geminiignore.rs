//! `team hooks install | remove` and a Gemini CLI seat's `.geminiignore`: its profile names the
//! file (`ignore-file=.geminiignore`), install appends `!.agents/send-drops/` to the checkout's
//! root file keeping every byte of the person's, once; remove takes out that line alone; a
//! run for seats whose CLI names no ignore file leaves it alone.

use crate::common::World;

const TEAM: &str = "format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: gem
    cli: gemini-cli
  - name: gem2
    cli: gemini-cli
";

#[test]
fn a_gemini_seat_s_hooks_lift_the_drops_out_of_its_ignore_rules_and_give_the_file_back() {
    let w = World::empty();
    w.team_file(TEAM);
    let file = w.repo.join(".geminiignore");
    let mine = "# mine\r\nnode_modules/\ndist";
    w.write(&file, mine);

    // keeper's CLI names no ignore file: its hooks leave the file alone
    let r = w.team(&["hooks", "install", "keeper"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.contains(".geminiignore"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), mine);

    let r = w.team(&["hooks", "install"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(".geminiignore: → written (the line `!.agents/send-drops/`, so that the file tools of gem, gem2's CLI read the message drops)"),
        "{}",
        r.stdout
    );
    let with = format!("{mine}\n!.agents/send-drops/\n");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), with);
    let r = w.team(&["hooks", "install", "gem"]);
    assert!(r.stdout.contains(".geminiignore: → unchanged"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), with, "once");

    let r = w.team(&["hooks", "remove"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(".geminiignore: → removed"), "{}", r.stdout);
    // the person's bytes, and the newline install put after their last line
    assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("{mine}\n"));
}

#[test]
fn with_no_file_of_its_own_the_line_comes_and_goes_with_the_file() {
    let w = World::empty();
    w.team_file(TEAM);
    let file = w.repo.join(".geminiignore");
    assert_eq!(w.team(&["hooks", "install", "gem"]).code, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "!.agents/send-drops/\n");
    assert_eq!(w.team(&["hooks", "remove", "gem"]).code, 0);
    assert!(!file.exists(), "the file install made goes with its line");
}
