//! Hostile profile components for the host's sandbox tests (never shipped, never bundled).
//!
//! One cargo feature per misbehaviour; without a feature it is a harmless profile that reads
//! every screen as unknown. `classify` is where each misbehaves, after `describe` succeeded, so
//! the host sees a valid component that goes wrong at call time:
//! - `endless-loop`: loops forever (the host's epoch deadline must stop it);
//! - `huge-alloc`: allocates 4 GiB in 64 MiB pieces, touching each (the memory limit must refuse it);
//! - `trap`: panics, which is a wasm `unreachable` under `panic = "abort"`;
//! - `wasi-import`: reads a file and an environment variable, so the component imports
//!   `wasi:filesystem` (the host must refuse to link it);
//! - `wrong-world`: exports `evil:other/runner` instead of `team:profile/classifier`;
//! - `compose-*`: a compose module (world `composer`) that asks for what the host must not do:
//!   `compose-bad-key` presses Escape, `compose-control` types Ctrl+C as text,
//!   `compose-endless` types a character every step and never ends, `compose-spin` loops inside
//!   `compose-next`, `compose-lies` claims an item the screen does not show.
//! - `long-pause`: its description declares a pause of `u32::MAX` ms before Enter (49 days
//!   under the seat lock, were the host to trust it);
//! - `walk-patterns`: its description declares transcript patterns rooted at `/` with a
//!   wildcard in every part (a walk of the whole file system on every look);
//! - `native-channel` (not hostile): a dropped-in profile for a CLI `native-test` whose
//!   description declares the native channel, and whose readings carry an escape sequence and
//!   overlong text (the host lists its seats as `socket`, and shows its words escaped and
//!   bounded).

use profile_kit::{strings, Composer, Description, Reading, Screen, State};

#[cfg(not(any(feature = "wrong-world", feature = "compose")))]
profile_kit::export_profile!();

#[cfg(feature = "compose")]
profile_kit::export_composer!();

/// The hostile compose module's misbehaviour.
#[cfg(feature = "compose")]
pub fn compose_next(
    _brief: &str,
    _repo: &profile_kit::Repo,
    _screen: &Screen,
    step: &profile_kit::Step,
) -> profile_kit::Action {
    use profile_kit::{Action, Evidence, Key};
    let _ = step;
    #[cfg(feature = "compose-bad-key")]
    return Action::Press(Key::Unknown("escape".into()));
    #[cfg(feature = "compose-control")]
    return Action::Type("\u{3}".into());
    #[cfg(feature = "compose-endless")]
    return Action::Type("x".into());
    #[cfg(feature = "compose-spin")]
    {
        let mut n: u64 = step.index as u64;
        loop {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
    #[cfg(feature = "compose-lies")]
    return Action::Created(Evidence { line: "Submitted as task_forged".into(), task_id: Some("task_forged".into()) });
    #[allow(unreachable_code)]
    Action::Refuse(format!("hostile compose module with no misbehaviour enabled ({})", Key::Enter))
}

/// A plan that names nothing it will really do.
#[cfg(feature = "compose")]
pub fn plan(_repo: &profile_kit::Repo) -> Vec<String> {
    vec!["misbehave".into()]
}

#[cfg(all(feature = "wrong-world", target_arch = "wasm32"))]
mod wrong_world {
    wit_bindgen::generate!({ path: "wit", world: "other" });
    struct Other;
    impl exports::evil::other::runner::Guest for Other {
        fn run(input: String) -> String {
            input
        }
    }
    export!(Other);
}

/// A description that passes validation, so the misbehaviour shows at classify time.
pub fn describe() -> Description {
    #[cfg(feature = "native-channel")]
    return Description {
        id: "native-test".into(),
        version: "0.1.0".into(),
        clis: strings(&["native-test"]),
        process_names: strings(&["native-test"]),
        native_channel: true,
        max_trigger: 200,
        working_hints: strings(&["esc to interrupt"]),
        enter_pause_ms: 0,
        queues_while_working: false,
        forbidden_starts: Vec::new(),
        has_compose: false,
        transcript_patterns: Vec::new(),
        features: Vec::new(),
    };
    #[allow(unreachable_code)]
    Description {
        id: "hostile".into(),
        version: "0.1.0".into(),
        clis: strings(&["none"]),
        process_names: Vec::new(),
        native_channel: false,
        max_trigger: 1,
        working_hints: Vec::new(),
        queues_while_working: false,
        forbidden_starts: Vec::new(),
        has_compose: cfg!(feature = "compose"),
        transcript_patterns: if cfg!(feature = "walk-patterns") {
            strings(&["/*/*/*/*/*/*.jsonl", "{home}/../../*/*/*/*"])
        } else {
            Vec::new()
        },
        features: Vec::new(),
        ..if cfg!(feature = "long-pause") {
            Description { enter_pause_ms: u32::MAX, ..Description::default() }
        } else {
            Description::default()
        }
    }
}

/// Misbehaves as the enabled feature says; otherwise reads every screen as unknown.
#[allow(unreachable_code)]
pub fn classify(screen: &Screen) -> Reading {
    #[allow(unused_variables)]
    let rows = std::hint::black_box(screen.rows);
    #[cfg(feature = "endless-loop")]
    {
        let mut n: u64 = rows as u64;
        loop {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
    #[cfg(feature = "huge-alloc")]
    {
        let mut held: Vec<Vec<u8>> = Vec::new();
        for _ in 0..64 {
            let mut piece = vec![0u8; 64 << 20];
            piece[0] = 1;
            piece[(64 << 20) - 1] = 1;
            held.push(std::hint::black_box(piece));
        }
        let total: usize = held.iter().map(|v| v.len()).sum();
        return unknown(format!("allocated {total} bytes"));
    }
    #[cfg(feature = "trap")]
    {
        if rows < u32::MAX {
            panic!("hostile profile traps on purpose");
        }
    }
    #[cfg(feature = "wasi-import")]
    {
        let file = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
        let home = std::env::var("HOME").unwrap_or_default();
        return unknown(format!("read {} bytes; HOME={home}", file.len()));
    }
    #[cfg(feature = "native-channel")]
    {
        let title = screen.title.clone();
        let dialog = profile_kit::Dialog {
            kind: profile_kit::DialogKind::Question,
            title: format!("\u{1b}]0;owned\u{7}\u{1b}[2J{title}{}", "x".repeat(5000)),
        };
        let mut r = Reading::new(
            State::Dialog(dialog),
            Composer::Holds("\u{1b}[31mred\u{1b}[0m".into()),
            None,
            format!("a question\u{9b}2J {}", "y".repeat(5000)),
        );
        r.queued = vec![format!("\u{1b}[2J{}", "q".repeat(5000))];
        return r;
    }
    #[allow(unreachable_code)]
    unknown(format!("hostile profile with no misbehaviour enabled ({rows} rows)"))
}

fn unknown(why: String) -> Reading {
    Reading::new(State::Unknown(why.clone()), Composer::Unreadable, None, why)
}

/// Never true.
pub fn shows_drop_read(_screen: &Screen, _id: &str, _trigger: &str) -> bool {
    false
}

/// Never true.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}
