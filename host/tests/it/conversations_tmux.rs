//! Conversations against fake seats in a private tmux server (docs/conversations.md): a lead
//! asks a worker, the worker answers with `team reply`, the lead is woken by the reply and
//! `team feed` shows the pair threaded; a broadcast to four seats one of which holds a draft;
//! the owner notified once per urgent event, and the digest batched.
//!
//! The seats are the transcripts' (`fake_seats`, run through the prelude), and a command of a
//! seat runs from a pane marked as that seat (`as_seat`): the caller is found, never claimed.

use crate::common::{self, World};
use serde_json::Value;

fn seat_world(file: Option<&str>, seats: &str) -> World {
    World::with_fake_seats(file, &format!("--tool {seats}"))
}

/// The plain screen of the pane marked `seat` in the seats' server.
fn screen(w: &World, seat: &str) -> String {
    let r = w.sh(&format!(
        "s=\"$TEAM_TMUX_SOCKET\"; p=$(tmux -S \"$s\" list-panes -a -F '#{{pane_id}} #{{@team-seat}}' | awk '$2==\"{seat}\"{{print $1}}'); tmux -S \"$s\" capture-pane -p -J -t \"$p\""
    ));
    r.stdout
}

use crate::common::scene::wait;

const Q: &str = "00000000-0000-4007-8000-000000000000";
const A: &str = "00000000-0000-4008-8000-000000000000";

#[test]
fn a_lead_asks_a_worker_the_worker_replies_and_the_lead_is_woken_by_it() {
    let w = seat_world(None, "claude-keeper:claude-code gpt-reviewer:codex");
    let r = w.sh("in_seat claude-keeper team send gpt-reviewer \"is the gate green?\"");
    assert_eq!((r.code, r.stdout.lines().last()), (0, Some("gpt-reviewer: delivered")), "{r:?}");

    // the worker finds it in its inbox, with the id to answer
    let r = w.sh("in_seat gpt-reviewer team inbox --json");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    common::validate(&doc).unwrap();
    assert_eq!(doc["items"][0]["id"], Q, "{doc}");
    assert_eq!(doc["items"][0]["first_line"], "is the gate green?");

    // its reply: admitted by its own rule, delivered to the lead's pane
    let r = w.sh(&format!("in_seat gpt-reviewer env TEAM_ID_SEED=8 team reply {Q} \"green since 09:00\" --json"));
    assert_eq!(r.code, 0, "{r:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    common::validate(&doc).unwrap();
    assert_eq!((doc["seat"].as_str(), doc["status"].as_str()), (Some("claude-keeper"), Some("delivered")), "{doc}");
    assert_eq!(doc["ids"]["sent"], A);

    // the lead was woken: the trigger naming the reply's drop reached its pane
    let drop = w.repo.join(".agents/send-drops/beacon/claude-keeper").join(A);
    wait("the reply's trigger on the lead's screen", || screen(&w, "claude-keeper").contains(A));
    let text = std::fs::read_to_string(&drop).unwrap();
    assert!(
        text.contains(&format!(
            "admitted by: reply to {Q}\nin-reply-to: {Q} (is the gate green?)\n\ngreen since 09:00"
        )),
        "{text}"
    );

    // written down: the reply's line carries reply_to, and the question is acked by it
    let h = w.history();
    assert_eq!(h.len(), 2, "{h:#?}");
    assert_eq!((h[1]["from"].as_str(), h[1]["to"].as_str()), (Some("gpt-reviewer"), Some("claude-keeper")));
    assert_eq!(h[1]["reply_to"], Q);
    let r = w.sh("in_seat gpt-reviewer team inbox");
    assert!(r.stdout.ends_with("0 waiting for gpt-reviewer\n"), "{r:?}");

    // the feed threads the pair: the reply right under its question, marked
    let r = w.team(&["feed"]);
    let rows: Vec<&str> = r.stdout.lines().collect();
    let q = rows.iter().position(|l| l.contains("claude-keeper -> gpt-reviewer")).unwrap();
    assert!(rows[q].contains("acked 09:00:00"), "{}", r.stdout);
    assert!(rows[q + 1].contains("gpt-reviewer -> claude-keeper") && rows[q + 1].contains("↳ from "), "{}", r.stdout);
    let r = w.team(&["feed", "--json"]);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["events"][0]["acked"]["note"], format!("replied {A}"));
}

/// Four seats of one team, the lead first; the fourth seat's box holds a draft.
const FOUR: &str = "project: beacon
notify:
  command: [sh, -c, 'printf \"%s\\n\" \"$1\" >> \"$NOTIFY_LOG\"; cat >> \"$NOTIFY_LOG.json\"', notify]
  digest: [delivered, acked]
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: a
    cli: codex
  - name: b
    cli: claude-code
  - name: c
    cli: codex
  - name: d
    cli: codex
";

#[test]
fn a_broadcast_holds_at_the_draft_and_delivers_the_rest_and_the_owner_hears_once() {
    let mut w = seat_world(Some(FOUR), "keeper:claude-code a:codex b:claude-code c:codex d:codex:draft");
    w.trust_notify();
    let log = w.base().join("notify.log");
    w.extra_env.push(("NOTIFY_LOG".into(), log.display().to_string()));

    let r = w.sh("in_seat keeper team send all \"the gate is green\"");
    assert_eq!(r.code, 1, "one seat held: {r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "team beacon, session \"beacon\"");
    assert_eq!(&lines[1..4], ["a: delivered", "b: delivered", "c: delivered"], "{r:?}");
    assert!(lines[4].starts_with("d: held ("), "{r:?}");
    assert_eq!(lines[5], "3 of 4 delivered; 1 held");
    let h = w.history();
    assert_eq!(h.len(), 4, "one line per seat: {h:#?}");
    let ids: std::collections::HashSet<&str> = h.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 4, "each seat its own id");

    // the owner was told once, at once, of the held one — and not of the delivered ones
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().count(), 1, "{told}");
    assert!(told.starts_with("keeper -> d: held ("), "{told}");
    let doc: Value =
        serde_json::from_str(std::fs::read_to_string(format!("{}.json", log.display())).unwrap().trim()).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!((doc["tier"].as_str(), doc["events"][0]["event"].as_str()), (Some("urgent"), Some("held")));

    // the watch's digest batches the three deliveries and an ack into one run
    let r = w.sh(&format!("in_seat a team ack {} --note on-it", h[0]["id"].as_str().unwrap()));
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.team(&["watch", "--once"]);
    assert_eq!(r.code, 0, "{r:?}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().collect::<Vec<_>>()[1..], ["digest: 3 delivered, 1 acked"], "{told}");
    // a second pass has nothing new: no digest, and the held send is not told again
    let r = w.team(&["watch", "--once"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), told);
}

#[test]
fn a_reply_to_the_owner_waits_in_the_owners_inbox_and_notifies_the_owner() {
    let mut w = seat_world(Some(FOUR), "keeper:claude-code");
    w.trust_notify();
    let log = w.base().join("notify.log");
    w.extra_env.push(("NOTIFY_LOG".into(), log.display().to_string()));
    let r = w.team(&["send", "keeper", "is the gate green?"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED=8 team reply {Q} \"green\""));
    assert_eq!(r.code, 0, "{r:?}");
    let inbox = w.repo.join(".agents/owner-inbox").join(A);
    assert!(
        r.stdout.contains(&format!("owner: left in the owner's inbox at .agents/owner-inbox/{A} (reply to {Q}")),
        "{r:?}"
    );
    assert!(std::fs::read_to_string(&inbox).unwrap().ends_with("\n\ngreen"));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "keeper replied to you: green\n");
    let r = w.team(&["inbox"]);
    assert!(r.stdout.contains(&format!("{A}  reply to {Q}  keeper")), "{r:?}");
    let r = w.team(&["ack", A]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.team(&["inbox"]);
    assert!(r.stdout.ends_with("0 waiting for owner\n"), "{r:?}");
}

#[test]
fn a_hanging_notify_command_is_bounded_and_said_once() {
    let file = FOUR.replace(
        "command: [sh, -c, 'printf \"%s\\n\" \"$1\" >> \"$NOTIFY_LOG\"; cat >> \"$NOTIFY_LOG.json\"', notify]",
        "command: [sh, -c, 'sleep 60', notify]\n  timeout: 1",
    );
    let w = seat_world(Some(&file), "keeper:claude-code c:codex:draft d:codex:draft");
    w.trust_notify();
    let r = w.sh("in_seat keeper team send d \"first\"");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("d: held ("), "the outcome stands: {r:?}");
    assert!(r.stderr.contains("did not end within 1 s and was stopped"), "said: {r:?}");
    // another seat's alert runs (one seat's alerts of one kind are coalesced) and fails again
    let r = w.sh("in_seat keeper env TEAM_ID_SEED=8 team send c \"second\"");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("c: held ("), "{r:?}");
    assert!(!r.stderr.contains("notify"), "said once: {r:?}");
}

/// issue 29 item 5: forty sends held at one seat ran the notify command forty times. One seat's
/// alerts of one kind now run once a window; the rest are counted, and the digest says the count.
#[test]
fn one_seat_s_held_sends_tell_the_owner_once_and_the_digest_counts_the_rest() {
    let mut w = seat_world(Some(FOUR), "keeper:claude-code d:codex:draft");
    w.trust_notify();
    let log = w.base().join("notify.log");
    w.extra_env.push(("NOTIFY_LOG".into(), log.display().to_string()));
    for i in 0..5 {
        let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED={} team send d \"try {i}\"", 20 + i));
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.stdout.contains("d: held ("), "{r:?}");
    }
    assert_eq!(w.history().len(), 5, "every send written down");
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().count(), 1, "once: {told}");
    assert!(told.starts_with("keeper -> d: held ("), "{told}");
    let r = w.team(&["watch", "--once"]);
    assert_eq!(r.code, 0, "{r:?}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().collect::<Vec<_>>()[1..], ["digest: 4 held"], "{told}");
    let docs = std::fs::read_to_string(format!("{}.json", log.display())).unwrap();
    let digest: Value = serde_json::from_str(docs.lines().last().unwrap()).unwrap();
    common::validate(&digest).unwrap();
    assert_eq!(digest["tier"], "digest");
    assert!(digest["events"][0]["text"].as_str().unwrap().starts_with("4 more held for d since "), "{digest}");
    // carried once: the next pass has nothing to say
    let r = w.team(&["watch", "--once"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), told);
}

/// issue 29 item 1: a checked-in team file's `notify:` command ran with no trust step (a clone
/// and a send that ended held ran `sh -c 'id > …'`). Now it runs only once the owner approved
/// those very words for this checkout: until then the run says so once, with the repair, and
/// `team check` lists it; a seat cannot approve it; a changed command needs approving again.
#[test]
fn a_team_file_s_notify_command_runs_only_once_the_owner_approved_it() {
    let file = FOUR.replace(
        "command: [sh, -c, 'printf \"%s\\n\" \"$1\" >> \"$NOTIFY_LOG\"; cat >> \"$NOTIFY_LOG.json\"', notify]",
        "command: [sh, -c, 'id > \"$WORLD/pwned\"', notify]",
    );
    assert!(file.contains("pwned"), "{file}");
    let w = seat_world(Some(&file), "keeper:claude-code c:codex:draft d:codex:draft");
    let pwned = w.base().join("pwned");
    let r = w.sh("in_seat keeper team send d \"first\"");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("d: held ("), "the send was reached and held: {r:?}");
    assert!(
        r.stderr.contains("is not approved for this checkout, so it was not run; the owner approves it, once they have read it, with: team trust notify"),
        "{r:?}"
    );
    assert!(!pwned.exists(), "an unapproved command ran");
    // said once
    let r = w.sh("in_seat keeper env TEAM_ID_SEED=8 team send c \"second\"");
    assert!(r.stdout.contains("c: held ("), "{r:?}");
    assert!(!r.stderr.contains("notify"), "said once: {r:?}");
    // team check lists it, with the repair
    let r = w.team(&["check"]);
    assert!(r.stdout.contains("notify: runs sh -c id > \"$WORLD/pwned\" notify — not approved for this checkout, so it does not run\n  the owner approves it, once they have read it, with: team trust notify\n"), "{r:?}");
    let r = w.team(&["trust"]);
    assert!(r.stdout.contains(" — not approved\n"), "{r:?}");
    // a seat cannot approve what its own team file runs
    let r = w.sh("in_seat keeper team trust notify");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("only the owner approves a command the team file runs"), "{r:?}");
    assert!(!pwned.exists());
    // the owner approves it: it runs
    let r = w.team(&["trust", "notify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("notify: approved for ") && r.stdout.ends_with(": sh -c id > \"$WORLD/pwned\" notify\n"),
        "{r:?}"
    );
    let r = w.sh("in_seat keeper env TEAM_ID_SEED=9 team send d \"third\"");
    assert!(r.stdout.contains("d: held ("), "{r:?}");
    assert!(pwned.exists(), "the approved command ran: {r:?}");
    let r = w.team(&["check"]);
    assert!(r.stdout.contains("— approved for this checkout\n"), "{r:?}");
    // a changed command needs approving again
    w.team_file(&file.replace("/pwned", "/pwned2"));
    let r = w.team(&["check"]);
    assert!(
        r.stdout.contains("the approval is of other words (sh -c id > \"$WORLD/pwned\" notify), so it does not run"),
        "{r:?}"
    );
    let r = w.sh("in_seat keeper env TEAM_ID_SEED=10 team send c \"fourth\"");
    assert!(r.stdout.contains("c: held ("), "{r:?}");
    assert!(r.stderr.contains("is not approved for this checkout"), "{r:?}");
    assert!(!w.base().join("pwned2").exists(), "a changed command ran unapproved");
}

/// issue 29 item 5: twenty `team reply` to one owner message left twenty files in the owner's
/// inbox and ran twenty alerts. A question is answered once: a further reply is refused with
/// the way out, and `--again` answers once more when the asker asked for more.
#[test]
fn a_question_is_answered_once_unless_again() {
    let w = seat_world(Some(FOUR), "keeper:claude-code");
    let r = w.team(&["send", "keeper", "is the gate green?"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED=8 team reply {Q} \"green\""));
    assert_eq!(r.code, 0, "{r:?}");
    let inbox = w.repo.join(".agents/owner-inbox");
    let files = || std::fs::read_dir(&inbox).map(|d| d.count()).unwrap_or(0);
    assert_eq!(files(), 1);
    let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED=9 team reply {Q} \"still green\""));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!("you already answered {Q} (reply {A}, delivered); a question is answered once: send a new message, or reply with --again when the asker asked for more; nothing was sent")),
        "{r:?}"
    );
    assert_eq!(files(), 1, "nothing was sent");
    let r = w.sh(&format!("in_seat keeper env TEAM_ID_SEED=10 team reply {Q} --again \"and the docs too\""));
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(files(), 2, "answered once more");
}
