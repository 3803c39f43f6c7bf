//! A first start in a folder the CLI has never trusted, for the real Gemini CLI 0.61.0, GitHub
//! Copilot CLI 1.0.102 and Qwen Code 0.24.4: the seat's HOME holds its sign-in and no trust of
//! the checkout, so the CLI opens on its own folder-trust question. The seat's profile reads
//! that screen as a trust dialog; the owner's send says `unreachable`, names the dialog and
//! presses nothing: the question is still on screen as it was, nothing was trusted (the CLI's
//! trust record is as it was), the model was sent nothing. Qwen Code asks only when the person
//! turned its folder trust on (`security.folderTrust.enabled`, off by default in 0.24.4: read
//! from its bundle); opencode has no folder trust at all (docs/more-vendors.md).

use super::checks::{one_drop, one_history, CONTEXT};
use super::harness::{RealWorld, Seat};
use super::mcp_vendors::read;
use super::mock::BOUND;
use super::vendors::Vendor;
use std::path::{Path, PathBuf};
use team::profiles::{DialogKind, State};

/// The file where the CLI records the folders its person trusted.
fn trust_record(v: Vendor, seat: &Seat) -> PathBuf {
    seat.home.join(match v {
        Vendor::Gemini => ".gemini/trustedFolders.json",
        Vendor::Qwen => ".qwen/trustedFolders.json",
        Vendor::Copilot => ".copilot/config.json",
        Vendor::Opencode => unreachable!("opencode has no folder trust"),
    })
}

/// The trust question's rows, from its question down to its last drawn row (the blank rows under
/// it vary: once, Gemini CLI drew the same box 13 rows higher during the send, by itself).
fn question(v: Vendor, screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.trim_end().lines().map(str::trim_end).collect();
    let at = rows.iter().position(|r| r.contains(v.trust_phrase())).unwrap_or(rows.len());
    rows[at..].iter().map(|r| r.to_string()).collect()
}

/// `TEAM_CAPTURE_TO=<dir>` keeps the screen as `team` reads it — `<dir>/<profile>/untrusted-
/// trust-dialog.{ansi,txt,title}` and the cursor — for `tests/data/screens/` (whose
/// `.meta.json` a person writes).
fn keep(rw: &RealWorld, v: Vendor, seat: &Seat) {
    let Some(to) = std::env::var_os("TEAM_CAPTURE_TO") else { return };
    let to = Path::new(&to).join(v.profile());
    std::fs::create_dir_all(&to).unwrap();
    let out = |args: &[&str]| rw.tmux(args).stdout;
    let fmt = "#{cursor_x} #{cursor_y} #{cursor_flag} #{pane_width} #{pane_height}";
    for (ext, args) in [
        ("ansi", vec!["capture-pane", "-p", "-e", "-t", &seat.pane]),
        ("txt", vec!["capture-pane", "-p", "-t", &seat.pane]),
        ("title", vec!["display-message", "-p", "-t", &seat.pane, "#{pane_title}"]),
        ("cursor", vec!["display-message", "-p", "-t", &seat.pane, fmt]),
    ] {
        std::fs::write(to.join(format!("untrusted-trust-dialog.{ext}")), out(&args)).unwrap();
    }
}

fn an_untrusted_folder_s_trust_question_is_unreachable_and_gets_no_key(v: Vendor) {
    let rw = RealWorld::start_vendors();
    let seat = rw.vendor_untrusted(v);
    rw.wait_screen(&seat, "the folder-trust question", |s| v.at_trust(s));
    // The screen the send must leave as it is: once two looks 100 ms apart agree (the CLI may
    // still be drawing what comes with the question).
    let mut screen = rw.screen(&seat);
    let t = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let again = rw.screen(&seat);
        if again == screen {
            break;
        }
        assert!(t.elapsed() < BOUND, "{}'s screen never settled:\n{again}", seat.name);
        screen = again;
    }
    keep(&rw, v, &seat);
    let reading = read(&rw, v, &seat);
    let State::Dialog(d) = &reading.state else { panic!("{:?} ({})\n{screen}", reading.state, reading.why) };
    assert_eq!(d.kind, DialogKind::Trust, "{d:?} ({})\n{screen}", reading.why);
    let record = trust_record(v, &seat);
    let recorded = std::fs::read_to_string(&record).ok();
    let asked = rw.mock.requests().len();

    let body = "the gate is green";
    let run = rw.w.team(&["send", v.seat(), body]);
    let drop = one_drop(&rw, v.seat(), "owner", "the owner", body);
    assert_eq!((run.stderr.as_str(), run.code), ("", 1), "{}", run.stdout);
    let head = format!("{CONTEXT}\n{}: unreachable (the pane shows a trust dialog", v.seat());
    assert!(run.stdout.starts_with(&head), "{}", run.stdout);
    let tail = format!("; nothing was pressed; the message is at {})\n", drop.display());
    assert!(run.stdout.ends_with(&tail), "{}", run.stdout);
    one_history(&rw, "owner", v.seat(), "unreachable", "the owner", body, &drop);

    assert!(!question(v, &screen).is_empty(), "{screen}");
    assert_eq!(question(v, &rw.screen(&seat)), question(v, &screen), "the question is as it was: no key reached it");
    assert_eq!(std::fs::read_to_string(&record).ok(), recorded, "nothing was trusted: {}", record.display());
    assert_eq!(rw.mock.requests().len(), asked, "the model was sent nothing");
}

/// Gemini CLI's boxed `Do you trust the files in this folder?`, `1. Trust folder` preselected.
#[test]
fn gemini_in_an_untrusted_folder_asks_about_trust_and_the_send_presses_nothing() {
    an_untrusted_folder_s_trust_question_is_unreachable_and_gets_no_key(Vendor::Gemini);
}

/// Copilot's `Confirm folder trust`, `❯ 1. Yes` focused.
#[test]
fn copilot_in_an_untrusted_folder_asks_about_trust_and_the_send_presses_nothing() {
    an_untrusted_folder_s_trust_question_is_unreachable_and_gets_no_key(Vendor::Copilot);
}

/// Qwen Code with its folder trust turned on.
#[test]
fn qwen_in_an_untrusted_folder_asks_about_trust_and_the_send_presses_nothing() {
    an_untrusted_folder_s_trust_question_is_unreachable_and_gets_no_key(Vendor::Qwen);
}
