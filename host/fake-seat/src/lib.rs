//! The fake seat: the test double of a vendor CLI's seat. A small program that draws a vendor
//! CLI's real screens in the terminal it runs in and reacts to keys like that CLI, for `team`'s
//! tests and benchmarks. It is built only with `team`'s `test-fakes` feature (as the
//! `fake-seat` binary; `cargo test` turns the feature on, `cargo install` never does), and it
//! does not depend on `team`: what it writes outside its screen (its process name, Claude
//! Code's sessions-registry entry and socket, the transcripts) it places by its own encoding
//! of the vendors' facts (`vendor`), so a product function that drifts from them fails a test.
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
//! | `ignores-enters:<n>` | the first `<n>` Enters do nothing (the text stays in the box); later ones as `takes-line` |
//! | `reads-late` | Enter clears the box and echoes the prompt, and nothing more shows for `--delay-ms` (a CLI whose status lags while it works); then the turn's rows appear at once: the read row and, with `--transcript`, the transcript rows |
//! | `clears-without-working` | Enter clears the box and echoes the prompt; it never works nor reads |
//! | `dialog:<kind>` | the captured dialog of that kind (permission, question, trust, vendor-notice, provider-error, rate-limit, held-message); keys change nothing but Esc, which cancels it (both CLIs' dialogs say `Esc to cancel` / `esc to cancel`) and leaves the idle prompt, then as `takes-line` |
//! | `draft` | starts with unsent text in the composer; otherwise `takes-line` |
//! | `placeholder` | an empty composer showing a faint (SGR 2) placeholder; otherwise `takes-line` |
//! | `exited` | the CLI has exited: a shell prompt; typed lines are echoed, never run |
//! | `narrow-cursor` | a Cursor-agent-like seat (synthesized: no capture exists) whose `ctrl+c to stop` hint wraps in a narrow pane; takes the line |
//! | `already-working` | working from the start; a line sent then is queued (Claude: drawn as 2.1.295 draws a queued line) or steered (Codex) and taken when the turn ends — with `--turn-ends-when <file>`, once that file exists; otherwise never |
//!
//! In every mode the double leaves as its CLI does when asked at its prompt (the process ends,
//! status 0): Claude Code on `/exit` submitted, Codex on Ctrl-C over an empty composer.
//!
//! With `--hooks <file>` the double runs that file's hooks as the CLI would (`hooks`): with
//! `--tool-ms <n>` a working seat makes a tool call every `n` ms and runs its PostToolUse
//! hooks; a turn's end runs its Stop hooks (a block keeps it working one more `--delay-ms`);
//! a line taken at the prompt runs its UserPromptSubmit hooks first. `--hook-log` records
//! every run.
//!
//! With `--status-reports follow` a Codex double writes OSC 7501 status reports as Codex
//! 0.171.0 does (`ESC ] 7501 ; state=idle|working|blocked:app=codex ESC \`, on each change:
//! blocked at a dialog, working while a turn runs — a `reads-late` turn too — else idle;
//! docs/status-reports.md); `--status-reports blocked` reports blocked whatever its screen
//! shows (a dialog its screen does not show).
//!
//! Codex's paste-burst rule is reproduced: an Enter that arrives within 30 ms of typed text
//! (or in the same read) becomes a newline in the composer, as the real CLI does.
//!
//! Under herdr, the seat is watched as the CLI it draws: it runs with `HERDR_AGENT=<label>`
//! (re-executing itself once to set it), which herdr 0.7.1 reads from `/proc/<pid>/environ`.
//!
//! The parts: `seat` is the CLI's state and its answer to keys, `layout` turns that state
//! into a screen of the CLI's rows, `screens` holds the captured rows, `term` owns the
//! terminal (raw mode, size, input, painting), `transcript` writes the vendor's session file,
//! `native` shows the process name and the native channel, `vendor` holds the vendors' facts,
//! `world` decides where the double may write and writes there without following a link.
//!
//! Invariants: the double runs only under a HOME of a test's own world (`world`: inside the
//! temp folder, never the password database's home) and refuses a symbolic link wherever it
//! writes (`--log`, `--drawn` and its temp file, the registry and transcript folders) before
//! it draws anything; a refusal is `fake-seat: <why>` on stderr, exit 2. With `--log <file>`,
//! every byte received is appended to the file before it is acted on (unbuffered, `O_APPEND`),
//! so a test can assert exactly what was typed and that nothing reached a dialog or a draft.
//! With `--drawn <file>`, the plain rows of every frame are written there (whole, by rename)
//! once the frame has gone to the terminal, so a test can wait until the pane shows a whole
//! frame drawn at the pane's size.

mod ansi;
mod codex_cloud;
mod hooks;
mod layout;
mod native;
mod screens;
mod seat;
mod term;
mod transcript;
pub mod vendor;
pub mod world;

use seat::Seat;
use std::path::{Path, PathBuf};
use term::Term;
use transcript::Transcript;
use vendor::Cli;

/// The double's command line.
#[derive(clap::Parser, Debug, Clone)]
#[command(name = "fake-seat", about = "The test double of a vendor CLI's seat (team's tests only).")]
pub struct Args {
    /// The CLI to imitate: `claude-code`, `codex`, `codex-cloud` (its own modes:
    /// `codex_cloud.rs`) (and `cursor`, implied by `narrow-cursor`).
    #[arg(long, default_value = "claude-code")]
    pub cli: String,
    /// How it behaves (see the module docs): takes-line, ignores-first-enter, ignores-enter,
    /// ignores-enters:<n>, reads-late, clears-without-working, dialog:<kind>, draft,
    /// placeholder, exited, narrow-cursor, already-working.
    #[arg(long, default_value = "takes-line")]
    pub mode: String,
    /// Append every byte received to this file (never through a link).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Write the session transcript rows (the vendor's format) into this folder; `auto`: where
    /// the CLI writes them under HOME (`.claude/projects/<cwd, each character not a letter or
    /// digit as ->/`, `.codex/sessions/YYYY/MM/DD/`).
    #[arg(long)]
    pub transcript: Option<String>,
    /// Write the plain rows of every frame drawn to this file (its first line: `<cols>x<rows>`),
    /// so a test can wait until the pane shows a whole frame.
    #[arg(long)]
    pub drawn: Option<PathBuf>,
    /// Once the bytes of a read are acted on and the frame they lead to is drawn, write how
    /// many bytes were received in all to this file (whole, by rename): a test that waits for
    /// it to reach what it sent knows the double has taken every byte and shows the result,
    /// so "nothing happened" is asserted on a frame drawn after the keys, never after a sleep.
    /// (`codex-cloud` does not write it.)
    #[arg(long)]
    pub acted: Option<PathBuf>,
    /// How long a turn works, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub delay_ms: u64,
    /// How much of Claude Code's native channel to show: `full` (its sessions-registry entry
    /// and its listening socket), `socket-only`, `none`.
    #[arg(long, default_value = "full")]
    pub native: String,
    /// Run the hooks this file lists as the CLI would (`hooks`): PostToolUse at each
    /// simulated tool call, Stop when a turn ends, UserPromptSubmit when a line is taken.
    #[arg(long)]
    pub hooks: Option<PathBuf>,
    /// While working, one simulated tool call every this many milliseconds (0: none).
    #[arg(long, default_value_t = 0)]
    pub tool_ms: u64,
    /// Append one JSON line per hook run (what it answered, and what the model was handed).
    #[arg(long)]
    pub hook_log: Option<PathBuf>,
    /// An open-ended turn (`already-working`) ends once this file exists, as any turn ends (its
    /// Stop hooks run): the test's stand-in for the model finishing its work.
    #[arg(long)]
    pub turn_ends_when: Option<PathBuf>,
    /// A line taken at the prompt runs its UserPromptSubmit hooks and clears the box at once,
    /// but its turn shows (working, its tool calls, its end) only once this file exists: a CLI
    /// whose screen lags the turn it started (Gemini CLI under load read idle, then working, a
    /// moment apart). With `--turn-ends-when` the turn is open-ended.
    #[arg(long)]
    pub turn_shows_when: Option<PathBuf>,
    /// A turn a line started does not end (it keeps working, its read rows unshown) before
    /// this file exists, whatever `--delay-ms` says: a test holds the seat's turn open across
    /// what it does meanwhile (a cut), then lets it end, with no time window.
    #[arg(long)]
    pub turn_held_until: Option<PathBuf>,
    /// With `--turn-shows-when`: while the taken line's turn is not shown, the screen is empty
    /// (a frame caught between a full-screen CLI's clear and its repaint, or a CLI drawing its
    /// first frame), which no reader takes for an idle prompt.
    #[arg(long)]
    pub blank_while_unshown: bool,
    /// Write OSC 7501 status reports as Codex 0.171.0 does (`ESC ] 7501 ; state=<s>:app=codex
    /// ESC \`, on every change; docs/status-reports.md): `follow` reports the seat's own state
    /// (idle, working, blocked at a dialog); `blocked` reports blocked whatever its screen
    /// shows (a dialog the screen does not show). Codex only.
    #[arg(long)]
    pub status_reports: Option<String>,
}

/// Runs the double with the process's arguments; its exit code (2: a usage error or a refusal).
pub fn main() -> i32 {
    use clap::Parser;
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("fake-seat: {e}");
            2
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    TakesLine,
    IgnoresFirstEnter,
    /// Never takes a line: every Enter is swallowed and the text stays in the box.
    IgnoresEnter,
    /// The first `n` Enters are swallowed.
    IgnoresEnters(u32),
    /// Takes the line and shows nothing of its turn until `--delay-ms` has passed.
    ReadsLate,
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
        "reads-late" => Mode::ReadsLate,
        _ if s.starts_with("ignores-enters:") => match s["ignores-enters:".len()..].parse() {
            Ok(n) => Mode::IgnoresEnters(n),
            Err(_) => return Err(format!("unknown mode \"{s}\" (ignores-enters:<n> takes a whole number)")),
        },
        _ => match s.strip_prefix("dialog:") {
            Some(k) if screens::DIALOG_KINDS.contains(&k) => Mode::Dialog(k.to_string()),
            Some(k) => {
                return Err(format!("unknown dialog kind \"{k}\" (kinds: {})", screens::DIALOG_KINDS.join(", ")))
            }
            None => return Err(format!("unknown mode \"{s}\"")),
        },
    })
}

/// The checks every double passes before it does anything (see `world`): the HOME it runs
/// under, and no link where `--log` or `--drawn` (or its temp file) would write. The checked
/// HOME.
fn checked(args: &Args) -> Result<PathBuf, String> {
    let home = std::env::var("HOME").ok();
    let home = world::checked_home(home.as_deref(), &std::env::temp_dir(), world::passwd_home().as_deref())?;
    for p in args.log.iter().chain(args.hook_log.iter()) {
        world::refuse_link(p)?;
    }
    for p in args.drawn.iter().chain(args.acted.iter()) {
        world::refuse_link(p)?;
        world::refuse_link(&world::temp_of(p))?;
    }
    Ok(home)
}

/// The `--log` file, opened for appending (made when missing), never through a link.
fn open_log(log: Option<&Path>) -> Result<Option<std::fs::File>, String> {
    log.map(|p| world::open_append(p, 0o600)).transpose()
}

/// Runs the fake seat until its terminal closes; an `Err` is a usage error in its flags or a
/// refusal (`world`).
pub fn run(args: Args) -> Result<(), String> {
    let home = checked(&args)?;
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
    let native = native::Native::parse(&args.native)?;
    if let Mode::Dialog(k) = &mode {
        if screens::dialog(cli.id(), k).is_none() {
            return Err(format!("{} has no captured {k} dialog", cli.id()));
        }
    }
    // herdr names an agent from its process (or from `HERDR_AGENT` in its environment, read
    // from /proc): a fake seat starts as `fake-seat` (it takes its CLI's process name later,
    // `native.rs`), so it re-executes itself once with the label of the CLI it draws, and
    // herdr then watches it as that CLI.
    let label = cli.herdr_label();
    if std::env::var("HERDR_AGENT").ok().as_deref() != Some(label) {
        if let Ok(exe) = std::env::current_exe() {
            use std::os::unix::process::CommandExt;
            let err =
                std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("HERDR_AGENT", label).exec();
            return Err(format!("cannot re-execute the fake seat: {err}"));
        }
    }
    let log = open_log(args.log.as_deref())?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let transcript = args.transcript.as_deref().map(|t| Transcript::new(cli, t, &cwd, &home)).transpose()?;
    // the CLI's process name and, for a native-channel CLI, its registry entry and socket
    let _shown = native::show(cli, mode == Mode::Exited, native, &home)?;
    let mut term = Term::enter(args.drawn)?;
    let hook_log = open_log(args.hook_log.as_deref())?;
    let transcript_file = transcript.as_ref().map(|t| t.path().to_path_buf());
    let hooks = args.hooks.clone().map(|f| hooks::Hooks::new(cli, f, hook_log, cwd.clone(), transcript_file));
    let mut seat = Seat::new(cli, mode, args.delay_ms, log, transcript, cwd);
    seat.hooks = hooks;
    seat.tool_every = (args.tool_ms > 0).then(|| std::time::Duration::from_millis(args.tool_ms));
    seat.turn_ends_when = args.turn_ends_when.clone();
    seat.turn_shows_when = args.turn_shows_when.clone();
    seat.turn_held_until = args.turn_held_until.clone();
    seat.blank_while_unshown = args.blank_while_unshown;
    let reports = match (args.status_reports.as_deref(), cli) {
        (None, _) => None,
        (Some(r @ ("follow" | "blocked")), Cli::Codex) => Some(Reports { always_blocked: r == "blocked", last: None }),
        (Some(r), _) => return Err(format!("--status-reports {r}: only codex reports, as follow or blocked")),
    };
    serve(&mut seat, &mut term, args.acted.as_deref(), reports)
}

/// The status reports a Codex double writes, and the last one written.
struct Reports {
    always_blocked: bool,
    last: Option<&'static str>,
}

impl Reports {
    /// Writes the seat's report when it changed: Codex 0.171.0's bytes exactly.
    fn say(&mut self, seat: &Seat) -> Result<(), String> {
        use std::io::Write;
        let now = if self.always_blocked { Some("blocked") } else { seat.reported() };
        if now == self.last {
            return Ok(());
        }
        self.last = now;
        let Some(state) = now else { return Ok(()) };
        let mut out = std::io::stdout().lock();
        out.write_all(format!("\x1b]7501;state={state}:app=codex\x1b\\").as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to the terminal: {e}"))
    }
}

/// Draws, waits for keys or the next tick, and answers them, until the terminal goes away.
/// With `acted`, the count of bytes received is written there after each read's frame.
fn serve(seat: &mut Seat, term: &mut Term, acted: Option<&Path>, mut reports: Option<Reports>) -> Result<(), String> {
    let size = term.size();
    if let Some(r) = reports.as_mut() {
        r.say(seat)?;
    }
    term.paint(&seat.screen(size.0, size.1), size, true);
    let mut buf = [0u8; 4096];
    let mut total: u64 = 0;
    loop {
        let mut read = false;
        if term.wait_input(seat.next_timeout())? {
            let n = term.read(&mut buf)?;
            if n == 0 {
                return Ok(()); // the terminal went away
            }
            seat.received(&buf[..n]);
            total += n as u64;
            read = true;
            if seat.left {
                return Ok(()); // the CLI left as asked: the terminal is given back to the shell
            }
        }
        seat.tick();
        if let Some(r) = reports.as_mut() {
            r.say(seat)?;
        }
        let size = term.size();
        term.paint(&seat.screen(size.0, size.1), size, false);
        if let (true, Some(p)) = (read, acted) {
            world::write_whole(p, total.to_string().as_bytes(), 0o644)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(parse_mode("dialog:trust"), Ok(Mode::Dialog("trust".into())));
        assert!(parse_mode("dialog:nope").is_err());
        assert_eq!(parse_mode("ignores-enters:3"), Ok(Mode::IgnoresEnters(3)));
        assert!(parse_mode("ignores-enters:x").is_err());
        assert!(parse_mode("sleepy").is_err());
    }
}
