//! The claim protocol: never twice, never lost — threads, processes, a claimer killed
//! mid-claim, a withdraw racing a claim.

use super::*;
use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};

fn msg(n: usize) -> Message {
    let id = format!("00000000-0000-4000-8000-{n:012x}");
    Message {
        drop: PathBuf::from(format!("/r/.agents/send-drops/beacon/rev/{id}")),
        id,
        from: "owner".into(),
        team: "beacon".into(),
        session: "beacon".into(),
        seat: "rev".into(),
        project: "beacon".into(),
        root: PathBuf::from("/r"),
        rule: "the owner".into(),
        header: "[from owner]".into(),
        body: format!("body {n}"),
        bytes: 6,
        queued_at: "2026-12-02T19:00:00Z".into(),
        sent_ms: 0,
        typed: false,
        pin: None,
        reply_to: None,
        hooks: None,
    }
}

fn seat_box(d: &Path) -> SeatBox {
    SeatBox::make(d, &crate::history::project_dir_name("beacon", Path::new("/r")), "beacon", "rev").unwrap()
}

fn me(n: u32) -> Claimer {
    // a live claimer: this process, told apart by a start time only tests use
    Claimer { pid: std::process::id(), start: n as u64 }
}

#[test]
fn queued_in_order_and_claimed_once() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    assert!(!SeatBox::anything(&b.dir), "the sub-folders are not messages");
    let keys: Vec<Key> = (0..5).map(|n| b.queue(&msg(n)).unwrap()).collect();
    assert!(SeatBox::anything(&b.dir));
    assert_eq!(b.waiting().unwrap(), keys, "queue order");
    let c = b.claim(&keys[0], me(1)).unwrap().unwrap();
    assert_eq!(b.claim(&keys[0], me(2)).unwrap(), None, "a second claim finds nothing");
    assert_eq!(b.read_claimed(&c).unwrap(), msg(0));
    assert_eq!(b.withdraw(&keys[0]).unwrap(), Withdraw::NotWaiting(Where::Claimed(c.clone())));
    b.handed(&c).unwrap();
    assert_eq!(b.find(keys[0].id()).unwrap(), Where::Handed(keys[0].clone()));
    assert_eq!(b.waiting().unwrap().len(), 4);
    let mode = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(p).unwrap().permissions().mode() & 0o777
    };
    assert_eq!(mode(&b.dir), 0o700);
    assert_eq!(mode(&b.dir.join(keys[1].waiting())), 0o600);
}

#[test]
fn a_withdrawn_message_is_never_claimed() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    let k = b.queue(&msg(1)).unwrap();
    assert_eq!(b.withdraw(&k).unwrap(), Withdraw::Withdrawn(k.clone()));
    assert_eq!(b.claim(&k, me(1)).unwrap(), None);
    assert_eq!(b.find(k.id()).unwrap(), Where::Withdrawn(k.clone()));
    assert_eq!(b.withdraw(&k).unwrap(), Withdraw::NotWaiting(Where::Withdrawn(k)));
}

#[test]
fn a_dead_claimer_s_claim_is_reoffered_unless_it_was_handed() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    let k1 = b.queue(&msg(1)).unwrap();
    let k2 = b.queue(&msg(2)).unwrap();
    let k3 = b.queue(&msg(3)).unwrap();
    let dead = Claimer { pid: u32::MAX - 7, start: 1 };
    b.claim(&k1, dead).unwrap().unwrap();
    b.claim(&k2, dead).unwrap().unwrap();
    let live = b.claim(&k3, Claimer::me()).unwrap().unwrap();
    assert!(SeatBox::anything(&b.dir), "a claim alone still wakes the hook");
    let handed_id = k2.id().to_string();
    let got = b.recover(Claimer::alive, |id| id == handed_id).unwrap();
    let c2 = Claim { key: k2.clone(), by: dead };
    assert_eq!(got, vec![Recovered::Reoffered(k1.clone()), Recovered::Receipted(c2.clone())]);
    assert_eq!(b.waiting().unwrap(), vec![k1]);
    assert_eq!(
        b.claims().unwrap(),
        vec![c2.clone(), live],
        "a live claimer's claim stands; a receipted one waits to be completed"
    );
    // the recoverer completes it, then moves it on
    let mine = b.take_over(&c2, me(3)).unwrap().unwrap();
    b.handed(&mine).unwrap();
    assert_eq!(b.find(k2.id()).unwrap(), Where::Handed(k2));
}

#[test]
fn the_send_and_the_hook_agree_on_who_writes_the_line() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    let t = b.token(&msg(1).id);
    t.make().unwrap();
    assert_eq!(t.taken(), None);
    assert!(t.take_for_hook("post-tool-use"));
    assert_eq!(t.taken().as_deref(), Some("post-tool-use"));
    assert!(!t.end_wait(), "the hook won: the send says delivered");
    t.clear("post-tool-use");
    let t2 = b.token(&msg(2).id);
    t2.make().unwrap();
    assert!(t2.end_wait(), "the send stopped waiting first: it says held");
    assert!(!t2.take_for_hook("stop"), "and the hook writes the line");
    // a send that died while waiting leaves its token: the hook writes the line
    let t3 = b.token(&msg(3).id);
    fs::write(b.dir.join(SENDS).join(&msg(3).id), format!("{} 1", u32::MAX - 5)).unwrap();
    assert!(!t3.take_for_hook("stop"));
    assert_eq!(t3.taken(), None);
}

#[test]
fn names_that_are_not_ours_are_passed_over() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    fs::write(b.dir.join("../../../x.json"), "{}").ok();
    fs::write(b.dir.join("notes.json"), "{}").unwrap();
    fs::write(b.dir.join("00000000000000000001-/etc.json"), "{}").ok();
    assert!(b.waiting().unwrap().is_empty());
    assert!(SeatBox::anything(&b.dir), "anything is only a hint; the slow path reads the names");
    assert!(seat_rel("beacon", "../x").is_none() && seat_rel("a/b", "rev").is_none());
}

#[test]
fn a_link_on_the_ladder_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let elsewhere = d.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.path().join("beacon-0000abcd")).unwrap();
    assert!(SeatBox::make(d.path(), "beacon-0000abcd", "beacon", "rev").is_err());
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// Many claimers at once, and a withdrawer among them: every message ends in exactly one
/// place, each claimed message by exactly one claimer.
fn race(b: &SeatBox, n: usize, claimers: usize, withdraw_every: usize) -> (BTreeMap<String, usize>, usize) {
    let keys: Vec<Key> = (0..n).map(|i| b.queue(&msg(i)).unwrap()).collect();
    let barrier = Arc::new(Barrier::new(claimers + 1));
    let handles: Vec<_> = (0..claimers)
        .map(|w| {
            let (b, keys, barrier) = (b.clone(), keys.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut got = Vec::new();
                for k in &keys {
                    if let Some(c) = b.claim(k, me(w as u32)).unwrap() {
                        got.push(c.key.id().to_string());
                    }
                }
                got
            })
        })
        .collect();
    barrier.wait();
    let mut withdrawn = 0;
    for k in keys.iter().step_by(withdraw_every.max(1)) {
        if let Withdraw::Withdrawn(_) = b.withdraw(k).unwrap() {
            withdrawn += 1;
        }
    }
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for h in handles {
        for id in h.join().unwrap() {
            *count.entry(id).or_default() += 1;
        }
    }
    (count, withdrawn)
}

#[test]
fn claimers_in_threads_and_a_withdraw_never_hand_twice_and_lose_nothing() {
    for round in 0..5 {
        let d = tempfile::tempdir().unwrap();
        let b = seat_box(d.path());
        let (count, withdrawn) = race(&b, 200, 4, 3);
        assert!(count.values().all(|&c| c == 1), "round {round}: a message claimed twice");
        assert_eq!(count.len() + withdrawn, 200, "round {round}: a message lost");
        let claims = b.claims().unwrap();
        let wd = fs::read_dir(b.dir.join(WITHDRAWN)).unwrap().count();
        assert_eq!((claims.len(), wd, b.waiting().unwrap().len()), (count.len(), withdrawn, 0));
    }
}

const CHILD_ENV: &str = "TEAM_INBOX_TEST_CHILD";

/// The child role of `claimers_in_processes_…`: claims every waiting message of the folder it
/// is given, printing each id it won.
#[test]
#[ignore = "child role of claimers_in_processes_never_hand_twice"]
fn inbox_child_claimer() {
    let Ok(dir) = std::env::var(CHILD_ENV) else { return };
    let b = SeatBox::at(PathBuf::from(dir));
    let go = b.dir.join("go");
    while !go.exists() {
        std::thread::yield_now();
    }
    for k in b.waiting().unwrap() {
        if let Some(c) = b.claim(&k, Claimer::me()).unwrap() {
            println!("WON {}", c.key.id());
        }
    }
}

fn child(dir: &Path) -> std::process::Child {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "mailbox::store::tests::inbox_child_claimer",
            "--include-ignored",
            "--test-threads=1",
            "--nocapture",
            "-q",
        ])
        .env(CHILD_ENV, dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn claimers_in_processes_never_hand_twice() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    for i in 0..300 {
        b.queue(&msg(i)).unwrap();
    }
    let kids: Vec<_> = (0..3).map(|_| child(&b.dir)).collect();
    fs::write(b.dir.join("go"), "").unwrap();
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for k in kids {
        let out = k.wait_with_output().unwrap();
        assert!(out.status.success());
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some(id) = line.strip_prefix("WON ") {
                *count.entry(id.to_string()).or_default() += 1;
            }
        }
    }
    assert_eq!(count.len(), 300, "every message claimed");
    assert!(count.values().all(|&c| c == 1), "none twice");
    // the claims name three processes, each dead now: recovery offers every one again,
    // exactly once however many recoverers run
    let b2 = b.clone();
    let t = std::thread::spawn(move || b2.recover(Claimer::alive, |_| false).unwrap().len());
    let here = b.recover(Claimer::alive, |_| false).unwrap().len();
    assert_eq!(here + t.join().unwrap(), 300);
    assert_eq!(b.waiting().unwrap().len(), 300);
}

#[test]
fn a_claimer_killed_mid_claim_loses_nothing() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    for i in 0..2000 {
        b.queue(&msg(i)).unwrap();
    }
    let mut k = child(&b.dir);
    fs::write(b.dir.join("go"), "").unwrap();
    // killed once it has claimed some (whatever it was doing then)
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while b.claims().unwrap().is_empty() && std::time::Instant::now() < deadline {
        std::thread::yield_now();
    }
    k.kill().unwrap();
    k.wait().unwrap();
    let claimed = b.claims().unwrap().len();
    assert!(claimed > 0, "the child was killed after claiming");
    let back = b.recover(Claimer::alive, |_| false).unwrap().len();
    assert_eq!(back, claimed);
    assert_eq!(b.waiting().unwrap().len(), 2000, "nothing lost");
    assert!(b.claims().unwrap().is_empty());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Any interleaving of claims, withdraws, deaths and recoveries: a message is handed at
    /// most once, a withdrawn one never, and each ends waiting, claimed, handed or withdrawn.
    #[test]
    fn any_sequence_keeps_every_message_once(ops in proptest::collection::vec((0usize..6, 0usize..4), 1..60)) {
        let d = tempfile::tempdir().unwrap();
        let b = seat_box(d.path());
        let keys: Vec<Key> = (0..4).map(|i| b.queue(&msg(i)).unwrap()).collect();
        let dead = Claimer { pid: u32::MAX - 9, start: 3 };
        let mut handed: BTreeMap<String, usize> = BTreeMap::new();
        let mut withdrawn = std::collections::BTreeSet::new();
        for (op, i) in ops {
            let k = &keys[i];
            match op {
                0 => { if let Some(c) = b.claim(k, me(1)).unwrap() {
                    proptest::prop_assert!(!withdrawn.contains(k.id()));
                    b.handed(&c).unwrap();
                    *handed.entry(k.id().to_string()).or_default() += 1;
                } }
                1 => { b.claim(k, dead).unwrap(); }
                2 => { if let Withdraw::Withdrawn(_) = b.withdraw(k).unwrap() { withdrawn.insert(k.id().to_string()); } }
                3 => { b.recover(Claimer::alive, |id| handed.contains_key(id)).unwrap(); }
                _ => { b.find(k.id()).unwrap(); }
            }
        }
        proptest::prop_assert!(handed.values().all(|&n| n == 1));
        for k in &keys {
            let w = b.find(k.id()).unwrap();
            proptest::prop_assert!(w != Where::Nowhere, "lost {}", k.id());
            if withdrawn.contains(k.id()) { proptest::prop_assert_eq!(w, Where::Withdrawn(k.clone())); }
        }
    }
}

/// issue 29 (forged inbox files): a message file is input — one that names another seat, a
/// checkout its project folder does not hash, or a drop outside the send's own place is never
/// read as a message (so never handed, and never names a folder to write to), and it blocks
/// none of the genuine messages queued after it.
#[test]
fn a_message_that_does_not_belong_where_it_lies_is_never_read_and_blocks_nothing() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    let forged = [
        Message { drop: PathBuf::from("/etc/passwd"), ..msg(1) },
        Message {
            root: PathBuf::from("/elsewhere"),
            drop: PathBuf::from(format!("/elsewhere/.agents/send-drops/beacon/rev/{}", msg(2).id)),
            ..msg(2)
        },
        Message {
            seat: "lead".into(),
            drop: PathBuf::from(format!("/r/.agents/send-drops/beacon/lead/{}", msg(3).id)),
            ..msg(3)
        },
        Message {
            root: PathBuf::from("r"),
            drop: PathBuf::from(format!("r/.agents/send-drops/beacon/rev/{}", msg(4).id)),
            ..msg(4)
        },
    ];
    for m in &forged {
        b.queue(m).unwrap();
    }
    b.queue(&msg(5)).unwrap();
    let keys = b.waiting().unwrap();
    assert_eq!(keys.len(), 5, "every file is there");
    let read: Vec<Result<Message, String>> = keys.iter().map(|k| b.read(k).map_err(|e| e.to_string())).collect();
    for (r, why) in read.iter().take(4).zip([
        "its drop file is not where a send writes it",
        "its project and checkout are not its project folder's",
        "its session and seat are not its folder's",
        "its project and checkout are not its project folder's",
    ]) {
        assert!(r.as_ref().is_err_and(|e| e.ends_with(why)), "{r:?} / {why}");
    }
    assert_eq!(read[4].as_ref().map(|m| m.id.clone()), Ok(msg(5).id), "the genuine one after them reads");
}

/// issue 29: a dead claimer's claim whose answer may have left (its note stands) is neither
/// offered again nor moved on: it is left in doubt, and one settler alone takes it over.
#[test]
fn a_dead_claimer_s_noted_claim_is_left_in_doubt() {
    let d = tempfile::tempdir().unwrap();
    let b = seat_box(d.path());
    let k1 = b.queue(&msg(1)).unwrap();
    let k2 = b.queue(&msg(2)).unwrap();
    let dead = Claimer { pid: u32::MAX - 7, start: 1 };
    let c1 = b.claim(&k1, dead).unwrap().unwrap();
    let c2 = b.claim(&k2, dead).unwrap().unwrap();
    let note = Answering {
        pid: dead.pid,
        start: dead.start,
        event: "stop".into(),
        at_ms: 1,
        session: None,
        turn: None,
        transcript: None,
        offset: 0,
        said: false,
        on_exit: false,
    };
    b.answering(&c1, &note).unwrap();
    assert_eq!(b.note(&c1).unwrap(), Some(note.clone()));
    let got = b.recover(Claimer::alive, |_| false).unwrap();
    assert_eq!(got, vec![Recovered::InDoubt(c1.clone()), Recovered::Reoffered(k2.clone())]);
    assert_eq!(b.claims().unwrap(), vec![c1.clone()], "left where it is");
    // one settler takes it over; a second finds it gone
    let mine = b.take_over(&c1, me(1)).unwrap().unwrap();
    assert_eq!(b.take_over(&c1, me(2)).unwrap(), None);
    assert_eq!(b.note(&mine).unwrap(), Some(note), "the note is the message's");
    // given back: the note goes first, then it waits again
    b.unclaim(&mine).unwrap();
    assert_eq!(b.note(&mine).unwrap(), None);
    assert_eq!(b.waiting().unwrap(), vec![k1, k2]);
    let _ = c2;
}
