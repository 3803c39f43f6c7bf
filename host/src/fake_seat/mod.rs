//! `team fake-seat` (hidden): a small program that draws a vendor CLI's real screens in the
//! terminal it runs in and reacts to keys like that CLI, for tests and `team demo`.
//!
//! It draws the captures of `tests/data/screens/` (embedded; see `screens`), puts the terminal
//! in raw mode, redraws the whole screen on every change (clear + rows), sets the title with
//! OSC 0 (Codex's and Claude's working spinner live there), and follows its `--mode`:
//!
//! | mode | behaviour |
//! | --- | --- |
//! | `takes-line` | Enter: the box clears, the prompt is echoed, working shows (spinner row/hint and title spinner) for `--delay-ms`, then a row showing the drop being read (Codex `• Explored` / `└ Read <id>`; Claude `Read 1 file`, plus a transcript row with `--transcript`), then idle |
//! | `ignores-first-enter` | the first Enter does nothing; later ones as `takes-line` |
//! | `ignores-enter` | no Enter is ever taken: the typed text stays in the box |
//! | `clears-without-working` | Enter clears the box and echoes the prompt; it never works nor reads |
//! | `dialog:<kind>` | the captured dialog of that kind (permission, question, trust, vendor-notice, provider-error, rate-limit, held-message); keys change nothing |
//! | `draft` | starts with unsent text in the composer; otherwise `takes-line` |
//! | `placeholder` | an empty composer showing a faint (SGR 2) placeholder; otherwise `takes-line` |
//! | `exited` | the CLI has exited: a shell prompt; typed lines are echoed, never run |
//! | `narrow-cursor` | a Cursor-agent-like seat (synthesized: no capture exists) whose `ctrl+c to stop` hint wraps in a narrow pane; takes the line |
//! | `already-working` | working from the start; a line sent then is queued (Claude: drawn as 2.1.295 draws a queued line) or steered (Codex) and taken when the turn ends |
//!
//! Codex's paste-burst rule is reproduced: an Enter that arrives within 30 ms of typed text
//! (or in the same read) becomes a newline in the composer, as the real CLI does.
//!
//! Under herdr, the seat is watched as the CLI it draws: it runs with `HERDR_AGENT=<label>`
//! (re-executing itself once to set it), which herdr 0.7.1 reads from `/proc/<pid>/environ`.
//!
//! The parts: `seat` is the CLI's state and its answer to keys, `layout` turns that state
//! into a screen of the CLI's rows, `screens` holds the captured rows, `term` owns the
//! terminal (raw mode, size, input, painting), `transcript` writes the vendor's session file.
//!
//! Invariant: with `--log <file>`, every byte received is appended to the file before it is
//! acted on (unbuffered, `O_APPEND`), so a test can assert exactly what was typed and that
//! nothing reached a dialog or a draft. With `--drawn <file>`, the plain rows of every frame
//! are written there (whole, by rename) once the frame has gone to the terminal, so a test
//! can wait until the pane shows a whole frame drawn at the pane's size.

mod codex_cloud;
mod layout;
mod native;
mod screens;
mod seat;
mod term;
mod transcript;

use seat::Seat;
use std::path::PathBuf;
use term::Term;
use transcript::Transcript;

/// What a fake seat is asked to be (the `team fake-seat` flags; see `cli/fake_seat.rs`).
#[derive(Debug, Clone)]
pub struct Options {
    /// The CLI to imitate: `claude-code`, `codex`, `codex-cloud` (its own modes: `fake_seat/codex_cloud.rs`) (and `cursor`, implied by `narrow-cursor`).
    pub cli: String,
    /// How it behaves (see the module docs).
    pub mode: String,
    /// Append every byte received to this file.
    pub log: Option<PathBuf>,
    /// Write the session transcript rows into this directory; `auto`: where the CLI writes them.
    pub transcript: Option<String>,
    /// Write the plain rows of each frame drawn to this file.
    pub drawn: Option<PathBuf>,
    /// How long a turn works, in milliseconds.
    pub delay_ms: u64,
    /// How much of the native channel to show: `full`, `socket-only`, `none` (`native.rs`).
    pub native: String,
    /// The run's folders (its profile host reads the CLI's description).
    pub paths: crate::paths::Paths,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    TakesLine,
    IgnoresFirstEnter,
    /// Never takes a line: every Enter is swallowed and the text stays in the box.
    IgnoresEnter,
    ClearsWithoutWorking,
    Dialog(String),
    Draft,
    Placeholder,
    Exited,
    NarrowCursor,
    AlreadyWorking,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Ok(match s {
        "takes-line" => Mode::TakesLine,
        "ignores-first-enter" => Mode::IgnoresFirstEnter,
        "ignores-enter" => Mode::IgnoresEnter,
        "clears-without-working" => Mode::ClearsWithoutWorking,
        "draft" => Mode::Draft,
        "placeholder" => Mode::Placeholder,
        "exited" => Mode::Exited,
        "narrow-cursor" => Mode::NarrowCursor,
        "already-working" => Mode::AlreadyWorking,
        _ => match s.strip_prefix("dialog:") {
            Some(k) if screens::DIALOG_KINDS.contains(&k) => Mode::Dialog(k.to_string()),
            Some(k) => {
                return Err(format!("unknown dialog kind \"{k}\" (kinds: {})", screens::DIALOG_KINDS.join(", ")))
            }
            None => return Err(format!("unknown mode \"{s}\"")),
        },
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cli {
    Claude,
    Codex,
    Cursor,
}

impl Cli {
    /// The profile id of the CLI drawn.
    fn id(self) -> &'static str {
        match self {
            Cli::Claude => "claude-code",
            Cli::Codex => "codex",
            Cli::Cursor => "cursor",
        }
    }

    /// The agent name herdr knows the CLI by.
    fn herdr_label(self) -> &'static str {
        match self {
            Cli::Claude => "claude",
            Cli::Codex => "codex",
            Cli::Cursor => "cursor",
        }
    }
}

/// Runs the fake seat until its terminal closes; an `Err` is a usage error in its flags.
pub fn run(args: Options) -> Result<(), String> {
    if args.cli == "codex-cloud" {
        return codex_cloud::run(&args);
    }
    let mode = parse_mode(&args.mode)?;
    let cli = match (args.cli.as_str(), &mode) {
        (_, Mode::NarrowCursor) | ("cursor", _) => Cli::Cursor,
        ("claude-code" | "claude", _) => Cli::Claude,
        ("codex", _) => Cli::Codex,
        (other, _) => return Err(format!("unknown CLI \"{other}\" (claude-code, codex, cursor)")),
    };
    // herdr names an agent from its process (or from `HERDR_AGENT` in its environment, read
    // from /proc): a fake seat starts as `team` (it takes its CLI's process name later,
    // `native.rs`), so it re-executes itself once with the label
    // of the CLI it draws, and herdr then watches it as that CLI.
    let label = cli.herdr_label();
    if std::env::var("HERDR_AGENT").ok().as_deref() != Some(label) {
        if let Ok(exe) = std::env::current_exe() {
            use std::os::unix::process::CommandExt;
            let err =
                std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("HERDR_AGENT", label).exec();
            return Err(format!("cannot re-execute the fake seat: {err}"));
        }
    }
    if let Mode::Dialog(k) = &mode {
        if screens::dialog(cli.id(), k).is_none() {
            return Err(format!("{} has no captured {k} dialog", cli.id()));
        }
    }
    // the CLI's process name and, for a native-channel CLI, its registry entry and socket
    let _shown = native::show(cli.id(), mode == Mode::Exited, native::Native::parse(&args.native)?, &args.paths)?;
    let log = match &args.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open the log {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let transcript = args.transcript.as_deref().map(|t| Transcript::new(cli, t, &cwd));
    let mut term = Term::enter(args.drawn)?;
    let mut seat = Seat::new(cli, mode, args.delay_ms, log, transcript, cwd);
    serve(&mut seat, &mut term)
}

/// Draws, waits for keys or the next tick, and answers them, until the terminal goes away.
fn serve(seat: &mut Seat, term: &mut Term) -> Result<(), String> {
    let size = term.size();
    term.paint(&seat.screen(size.0, size.1), size, true);
    let mut buf = [0u8; 4096];
    loop {
        if term.wait_input(seat.next_timeout())? {
            let n = term.read(&mut buf)?;
            if n == 0 {
                return Ok(()); // the terminal went away
            }
            seat.received(&buf[..n]);
        }
        seat.tick();
        let size = term.size();
        term.paint(&seat.screen(size.0, size.1), size, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(parse_mode("dialog:trust"), Ok(Mode::Dialog("trust".into())));
        assert!(parse_mode("dialog:nope").is_err());
        assert!(parse_mode("sleepy").is_err());
    }
}
