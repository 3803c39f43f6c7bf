//! `team watch`, the use-case: one project's sends watched after they ended — held,
//! not-submitted and dialog-stopped sends retried, delivered ones confirmed or said to have
//! been taken but never acted on (docs/spec/team-send.md "Outcomes"; docs/watch.md).
//!
//! A pass reads the project's history and receipts (`history::Ledger`), asks `decide::plan`
//! which seats need a look, looks at each (`look`), asks `decide::after_look` what to do, and
//! does it: a retry through `typed::retrigger` (the same typed leg a send runs, for the drop
//! already on disk), and for every retry, stop and "never acted on" one history line or
//! receipt and one team.log line. What it did comes back as [`Event`]s for `cli::watch` to
//! print (in `words`); confirmations are recorded and printed by nobody.
//!
//! Invariants:
//! - nothing is ever typed for a send that was delivered: only `decide` chooses a retry, and it
//!   never chooses one for an id with a delivered line; the retry itself reads the seat again
//!   under the seat lock before it types, as a send does;
//! - intent before action (`history::intent`): a retry's `retry-started` receipt is on the
//!   disk, fsync'd, before its first keystroke, and its history line (fsync'd) ends it; a retry
//!   whose intent cannot be written types nothing and stops that message's retries, said once;
//!   one found started and never ended is ended from what the seat shows, never typed again;
//! - a record that cannot be written (a stop, a line) makes this process leave the message
//!   alone and say so once (`decide::Memory`), rather than act and say it on every pass;
//! - the drop file is never written: a retry names the file the send wrote;
//! - what was said is kept on disk (a retry's and a "never acted on" history line, a
//!   `retries-stopped` receipt), so a restarted watch says nothing twice;
//! - a history or receipt line whose id is no message id is passed over by the reader and
//!   said once (a problem), never typed, never a path;
//! - nothing here prints.

pub mod decide;
pub mod doc;
mod hops;
mod inbox;
pub mod lock;
pub mod look;
pub mod run;
pub mod words;

pub use decide::{retryable, Limits, StopWhy, TRIES};
pub use lock::{acquire, running, Holder, ProjectLock};

use crate::ctx::Ctx;
use crate::error::{self, TeamError};
use crate::history::{self, Ledger, LogLine, MessageLine, Receipt, ReceiptKind, Sign};
use crate::legs::typed;
use crate::mux::Mux;
use crate::profiles::ProfileHost;
use crate::registry::Registry;
use crate::team_file::{self, Loaded};
use crate::vocab::leg::Leg;
use crate::vocab::outcome::{Note, Outcome, Via};
use crate::workspace::Workspace;
use decide::{Action, Memory};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// How often a running watch makes a pass, before `TEAM_TIME_SCALE`.
pub const PASS_MS: u64 = 2_000;

/// One thing a pass did, for the command layer to print (a line of `team watch --json`:
/// [`doc::LineDoc`]).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A held, not-submitted or dialog-stopped send's drop file was triggered again through
    /// the typed leg (same id; the file is not rewritten). outcome is the retry's own; detail
    /// its note (delivered) or its reason (every other outcome).
    Retried {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        #[serde(rename = "try")]
        #[schemars(range(min = 1, max = 3))]
        n: u32,
        #[schemars(extend("const" = TRIES))]
        tries: u32,
        /// The retry's outcome.
        // (the typed leg's verdict: a refused retry is no retry, it stops: `Watch::retry`)
        #[schemars(extend("enum" = ["delivered", "held", "not-submitted", "unreachable"]))]
        outcome: crate::vocab::outcome::Outcome,
        /// Its note (delivered) or reason (every other outcome).
        detail: Option<String>,
        drop: PathBuf,
    },
    /// The watch stopped retrying a send: after three tries, after thirty minutes without the
    /// seat idle with an empty box, because a retry was refused, because a retry was cut off
    /// before its end was written and the seat shows no sign of it (nothing is typed again on
    /// a guess), or because its records cannot be written. drop is where the message is.
    Stopped {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        why: String,
        drop: PathBuf,
    },
    /// <seat>: a send from <from> was taken but never acted on — said once per id; the
    /// history keeps one more line for it.
    NeverActedOn {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        drop: PathBuf,
    },
    /// A send that ended held in the seat's inbox was handed to the model by the seat's own
    /// hook afterwards (docs/inbox.md): the hook wrote its delivered line (via mcp-inbox);
    /// note names the hook, ms is from the send's start. Reported once by the watch that saw
    /// it.
    Handed {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        note: String,
        ms: Option<u64>,
        drop: PathBuf,
    },
    /// A seat worked and then sat free while a send waited unclaimed in its inbox: its CLI ran
    /// none of team's hooks through that turn (docs/inbox.md). Said once (a hook-stopped
    /// receipt); the send is typed instead when the seat is ready.
    HookStopped {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        drop: PathBuf,
    },
    /// A retry cut off before its end was written down (the watch was killed after its intent
    /// was recorded, or its history line could not be written) ended from what the seat
    /// shows: its screen or transcript shows the drop read. Nothing was typed; the try's own
    /// history line (retry: try) and a read receipt keep it.
    Resolved {
        seat: String,
        from: String,
        #[schemars(regex(pattern = crate::vocab::id::ID_PATTERN))]
        id: String,
        #[serde(rename = "try")]
        #[schemars(range(min = 1, max = 3))]
        n: u32,
        // (`Watch::resolve` writes no other)
        #[schemars(extend("const" = "delivered"))]
        outcome: crate::vocab::outcome::Outcome,
        // (the two signs `decide` reads a cut-off retry's end from)
        #[schemars(extend("enum" = ["transcript", "screen"]))]
        sign: Sign,
        drop: PathBuf,
    },
    /// A send to a seat on another machine left in doubt (the connection cut, the far side not
    /// asked) whose far side answered, asked by the id: its outcome there, written down here
    /// under the same id (via ssh). Nothing was carried or typed again.
    ReadBack {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        /// The seat's host, as the team file names it.
        host: String,
        /// The far side's outcome.
        outcome: crate::vocab::outcome::Outcome,
        /// Its note (delivered) or reason (every other outcome).
        detail: Option<String>,
    },
    /// A send to a seat on another machine left in doubt whose far side, asked by the id,
    /// answered that it never took it (nothing was sent under it): carried again under the same
    /// id (the far side's once-only key), try n of tries; outcome is that try's.
    SentAgain {
        seat: String,
        from: String,
        #[schemars(length(min = 1))]
        id: String,
        /// The seat's host, as the team file names it.
        host: String,
        #[serde(rename = "try")]
        #[schemars(range(min = 1, max = 3))]
        n: u32,
        #[schemars(extend("const" = TRIES))]
        tries: u32,
        /// The try's outcome.
        outcome: crate::vocab::outcome::Outcome,
        /// Its note (delivered) or reason (every other outcome).
        detail: Option<String>,
    },
}

/// What one pass did.
#[derive(Debug, Default)]
pub struct Pass {
    pub events: Vec<Event>,
    /// Delivered sends confirmed by this pass (recorded, printed by nobody).
    pub confirmed: usize,
    /// Records that could not be written, each a sentence (the pass went on).
    pub problems: Vec<String>,
}

/// A watch over one team file's project.
pub struct Watch<'a> {
    ctx: &'a Ctx,
    host: &'a ProfileHost,
    team: Loaded,
    mux: Box<dyn Mux>,
    profiles: look::Profiles,
    transcripts: look::Transcripts,
    memory: Memory,
    limits: Limits,
    /// Per CLI: whether its profile composes (the watch acts only for typed seats).
    composes: HashMap<String, bool>,
    /// The registry as last read.
    registry: Option<Registry>,
    /// The problems already said (each is said once for the life of the process).
    said: HashSet<String>,
    /// The ids whose hook delivery this process reported, and the instant from which a hook's
    /// `delivered` line is news (one pass before the watch began).
    handed: HashSet<String>,
    since: chrono::DateTime<chrono::Utc>,
}

impl<'a> Watch<'a> {
    /// A watch over `team` with the run's working set: its profile host, and the multiplexer
    /// the file chooses under the one policy every command locates seats by
    /// ([`Workspace::mux`]: the herdr adapter told where each seat was last seen).
    pub fn new(ws: &'a Workspace<'_>, team: Loaded) -> Watch<'a> {
        let mux = ws.mux(team.file.multiplexer.as_deref());
        Watch::with_mux(ws.ctx, ws.profiles(), team, mux)
    }

    /// A watch over `team` through `mux` (a server named other than by the environment).
    pub fn with_mux(ctx: &'a Ctx, host: &'a ProfileHost, team: Loaded, mux: Box<dyn Mux>) -> Watch<'a> {
        Watch {
            ctx,
            host,
            team,
            mux,
            profiles: look::Profiles::default(),
            transcripts: look::Transcripts::default(),
            memory: Memory::default(),
            limits: Limits::SPEC.scaled(ctx.clock.scale()),
            composes: HashMap::new(),
            registry: None,
            said: HashSet::new(),
            handed: HashSet::new(),
            since: ctx.clock.now() - chrono::Duration::milliseconds(ctx.clock.scaled(PASS_MS).as_millis() as i64),
        }
    }

    /// The team file watched (as last read).
    pub fn team(&self) -> &Loaded {
        &self.team
    }

    /// The history folder of the project.
    fn dir(&self) -> PathBuf {
        history::project_dir(&self.ctx.paths.config, &self.team.file.project, &self.team.root)
    }

    /// One pass. `Err`: the team file or the history could not be read (nothing was done).
    pub fn pass(&mut self) -> error::Result<Pass> {
        // The file may have changed since the last pass (a seat added, a pin moved).
        self.team = team_file::load(&self.team.path)?;
        let config = self.ctx.paths.config.clone();
        let dir = self.dir();
        let refusal = |e: std::io::Error| TeamError::refused(e.to_string());
        let h = history::read_history(&config, &dir).map_err(refusal)?;
        let r = history::read_receipts_checked(&config, &dir).map_err(refusal)?;
        let mut pass = Pass::default();
        // Lines whose id is no message id: passed over by the reader, said once here.
        for p in h.passed_over.iter().chain(&r.passed_over) {
            self.problem(&mut pass, p.sentence());
        }
        let receipts = r.lines;
        let ledger = Ledger::build(&h.lines, &receipts);
        let now = self.ctx.clock.now();
        // The seats' records (their recorded panes come first); none when it cannot be read.
        self.registry = Registry::load(&config).ok();

        for cli in self.team.file.seats.iter().map(|s| s.cli.clone()).collect::<Vec<_>>() {
            if !self.composes.contains_key(&cli) {
                let c =
                    self.host.description(&cli, &self.team.file.profiles).map(|(d, _)| d.has_compose).unwrap_or(true);
                self.composes.insert(cli, c);
            }
        }
        self.read_marks(&ledger);
        // a hop left in doubt is asked about by its id before anything else (`hops`)
        self.ask_hops(&ledger, &mut pass);
        let (file, composes) = (&self.team.file, &self.composes);
        let typed_seat = |seat: &str| file.seat(seat).is_some_and(|s| composes.get(&s.cli) == Some(&false));
        let (wanted, mut actions) = decide::plan(&ledger, now, &self.limits, &typed_seat, &self.memory);
        self.recover_inboxes(&ledger, &mut pass);
        self.report_handed(&ledger, &mut pass);

        let mut seats: Vec<&String> = wanted.keys().collect();
        seats.sort();
        for seat in seats {
            let w = &wanted[seat];
            let Some(s) = self.team.file.seat(seat) else { continue };
            let at = crate::legs::SeatTarget {
                session: &self.team.file.session,
                team: &self.team.file.team,
                seat,
                cli: &s.cli,
                root: &self.team.root,
                pins: &self.team.file.profiles,
                record: self.registry.as_ref().and_then(|r| r.agent_for(&self.team.file.team, seat)),
            };
            let seen = look::look(self.mux.as_ref(), &mut self.profiles, &mut self.transcripts, self.host, &at, w).ok();
            actions.extend(decide::after_look(seat, w, seen.as_ref(), &ledger, now, &self.limits, &mut self.memory));
        }
        for a in actions {
            self.act(a, &ledger, &mut pass);
        }
        // the owner's digest, when one is due (its events are read from what is on disk now)
        if self.team.file.notify.is_some() {
            let h = history::read_history(&config, &dir).map(|h| h.lines).unwrap_or_default();
            let r = history::read_receipts(&config, &dir).map(|r| r.0).unwrap_or_default();
            let (file, root) = (&self.team.file, &self.team.root);
            if let Some(p) = crate::notify::digest(self.ctx, file, root, &h, &r, now) {
                self.problem(&mut pass, p);
            }
        }
        Ok(pass)
    }

    /// Adds a problem to the pass unless this process said it already.
    fn problem(&mut self, pass: &mut Pass, text: String) {
        if self.said.insert(text.clone()) {
            pass.problems.push(text);
        }
    }

    /// Where the drop of `id` is (ids come from the checked history: one that is no message
    /// id never reaches here, and would be shown as it was written, never joined).
    fn drop_of(&self, seat: &str, id: &str) -> PathBuf {
        typed::drop_path(&self.team.root, &self.team.file.session, seat, id).unwrap_or_else(|_| PathBuf::from(id))
    }

    fn act(&mut self, a: Action, ledger: &Ledger, pass: &mut Pass) {
        match a {
            Action::Retry { id, seat, n } => self.retry(&id, &seat, n, ledger, pass),
            Action::SeenWorking { id, seat } => self.seen_working(&id, &seat, pass),
            Action::HookStopped { id, seat } => self.hook_stopped(&id, &seat, ledger, pass),
            Action::Stop { id, seat, why } => self.stop(&id, &seat, why, ledger, pass),
            Action::Confirm { id, seat, sign, ms } => {
                let r = Receipt {
                    sign: Some(sign),
                    ms: Some(ms),
                    ..Receipt::new(ReceiptKind::Read, self.ctx.clock.now_ts(), &id, &seat)
                };
                match self.receipt(&r) {
                    Ok(()) => pass.confirmed += 1,
                    Err(e) => self.problem(pass, format!("{}: the confirmation could not be written: {e}", r.to)),
                }
            }
            Action::Resolve { id, seat, n, sign, ms } => self.resolve(&id, &seat, n, sign, ms, ledger, pass),
            Action::NeverActed { id, seat } => {
                let Some(e) = ledger.entry(&id) else { return };
                let first = ledger.line(e.first);
                let delivered = ledger.line(e.delivered.unwrap_or(e.first));
                let line = MessageLine {
                    ts: self.ctx.clock.now_ts(),
                    outcome: Outcome::Delivered,
                    note: Some(Note::NeverActed),
                    cli: delivered.cli.clone(),
                    profile: delivered.profile.clone(),
                    ..copy_of(first)
                };
                let drop = self.drop_of(&seat, &id);
                let written = self.history(&line);
                self.log(&seat, "never-acted-on", format!("id {id}, drop {}{}", drop.display(), not_written(&written)));
                if let Err(e) = written {
                    // Not kept on disk: only this process's memory keeps it from being said again.
                    self.memory.give_up(&id);
                    self.problem(pass, format!("{seat}: its history line could not be written: {e}"));
                }
                // the owner is told at once (once: the line above keeps it from being said again)
                let ev = crate::notify::Event::of_line(
                    crate::team_file::notify::Event::NeverActedOn,
                    &line,
                    None,
                    Some(&drop),
                );
                if let Some(p) = crate::notify::urgent(self.ctx, &self.team, ev) {
                    self.problem(pass, p);
                }
                pass.events.push(Event::NeverActedOn { seat, from: first.from.clone(), id, drop });
            }
        }
    }

    fn retry(&mut self, id: &str, seat: &str, n: u32, ledger: &Ledger, pass: &mut Pass) {
        let Some(e) = ledger.entry(id) else { return };
        if !self.taken_back(id, seat, ledger.line(e.last_try), pass) {
            return;
        }
        let Some(cli) = self.team.file.seat(seat).map(|s| s.cli.clone()) else { return };
        let first = ledger.line(e.first);
        let (report, claimed) = self.type_again(id, seat, &cli, n);
        match claimed {
            Some(Err(e)) => return self.stop(id, seat, StopWhy::Unrecorded(e.to_string()), ledger, pass),
            // Another process holds this try: its end is read from the seat on a later pass.
            Some(Ok(history::Claim::Held)) => return,
            _ => {}
        }
        let ended = &report.run.verdict;
        if ended.is_refused() {
            return self.stop(id, seat, StopWhy::Refused(ended.reason().to_string()), ledger, pass);
        }
        let (outcome, note, detail) = match ended.is_delivered() {
            true => (Outcome::Delivered, ended.note.clone(), ended.note.as_ref().map(Note::to_string)),
            false => (ended.outcome.clone(), None, Some(ended.reason().to_string())),
        };
        let delivered = outcome == Outcome::Delivered;
        let line = MessageLine {
            ts: self.ctx.clock.now_ts(),
            outcome: outcome.clone(),
            ms: Some(report.ms),
            via: report.run.typed.then_some(Via::Leg(Leg::Typed)),
            note,
            cli: report.profile.as_ref().map(|_| cli.clone()),
            profile: report.profile.clone(),
            dialog: report.dialog.clone(),
            retry: Some(n),
            ..copy_of(first)
        };
        let written = self.history(&line);
        let drop = self.drop_of(seat, id);
        let mut log = format!("retry {n} of {TRIES}, id {id}, {} Enter(s), drop {}", report.run.enters, drop.display());
        if let (true, Some(note)) = (delivered, &detail) {
            log.push_str(&format!(", unverified: {note}"));
        }
        log.push_str(&not_written(&written));
        self.log(seat, outcome.word(), log);
        pass.events.push(Event::Retried {
            seat: seat.into(),
            from: first.from.clone(),
            id: id.into(),
            n,
            tries: TRIES,
            outcome,
            detail,
            drop,
        });
        if let Err(e) = written {
            // The try's end is not on the disk: no later try may be typed on top of it.
            self.problem(pass, format!("{seat}: the retry's history line could not be written: {e}"));
            return self.stop(id, seat, StopWhy::Unrecorded(e.to_string()), ledger, pass);
        }
        if !delivered && n >= TRIES {
            self.stop(id, seat, StopWhy::Tries, ledger, pass);
        }
    }

    /// Types try `n` of `id` into `seat` again (`typed::retrigger`), its intent on the disk
    /// before the first keystroke: the run's report, and how recording the intent went (`None`:
    /// the run stopped before it came to type).
    fn type_again(
        &self,
        id: &str,
        seat: &str,
        cli: &str,
        n: u32,
    ) -> (typed::Report, Option<Result<history::Claim, std::sync::Arc<std::io::Error>>>) {
        let at = crate::legs::SeatTarget {
            session: &self.team.file.session,
            team: &self.team.file.team,
            seat,
            cli,
            root: &self.team.root,
            pins: &self.team.file.profiles,
            record: self.registry.as_ref().and_then(|r| r.agent_for(&self.team.file.team, seat)),
        };
        let req = typed::Retrigger { at, id };
        let means = typed::Means {
            mux: self.mux.as_ref(),
            profiles: self.host,
            clock: &self.ctx.clock,
            state: &self.ctx.paths.state,
        };
        // Intent before action: the try is on the disk before the first keystroke.
        let intent =
            Receipt { attempt: Some(n), ..Receipt::new(ReceiptKind::RetryStarted, self.ctx.clock.now_ts(), id, seat) };
        let (config, project, root) = (&self.ctx.paths.config, &self.team.file.project, &self.team.root);
        let mut claimed = None;
        let mut record = || {
            let c = history::claim(config, project, root, &intent).map_err(std::sync::Arc::new);
            claimed = Some(c.clone());
            match c {
                Ok(history::Claim::Taken) => Ok(()),
                Ok(history::Claim::Held) => {
                    Err(typed::SeatError::Intent("this try was already started by another watch".to_string()))
                }
                Err(e) => Err(typed::SeatError::Intent(format!("the retry could not be recorded before typing ({e})"))),
            }
        };
        let report = typed::retrigger(&req, &means, &mut record);
        (report, claimed)
    }

    /// Ends try `n`, cut off before its end was written, as delivered: the seat showed the
    /// drop read (`sign`). One history line (the try's own, `retry: n`) and a `read` receipt;
    /// nothing typed.
    #[allow(clippy::too_many_arguments)]
    fn resolve(&mut self, id: &str, seat: &str, n: u32, sign: Sign, ms: u64, ledger: &Ledger, pass: &mut Pass) {
        let Some(e) = ledger.entry(id) else { return };
        let first = ledger.line(e.first);
        let last = ledger.line(e.last_try);
        let line = MessageLine {
            ts: self.ctx.clock.now_ts(),
            outcome: Outcome::Delivered,
            via: Some(Via::Leg(Leg::Typed)),
            note: Some(Note::Taken),
            cli: last.cli.clone(),
            profile: last.profile.clone(),
            retry: Some(n),
            ..copy_of(first)
        };
        let read = Receipt {
            sign: Some(sign),
            ms: Some(ms),
            ..Receipt::new(ReceiptKind::Read, self.ctx.clock.now_ts(), id, seat)
        };
        let written = self.history(&line).and_then(|()| self.receipt(&read));
        let drop = self.drop_of(seat, id);
        let detail =
            format!("retry {n} of {TRIES} ended from the seat's {}, id {id}, drop {}", sign.word(), drop.display());
        self.log(seat, Outcome::Delivered.word(), format!("{detail}{}", not_written(&written)));
        if let Err(e) = written {
            self.memory.give_up(id);
            self.problem(pass, format!("{seat}: the end of retry {n} could not be written: {e}"));
        }
        pass.events.push(Event::Resolved {
            seat: seat.into(),
            from: first.from.clone(),
            id: id.into(),
            n,
            outcome: Outcome::Delivered,
            sign,
            drop,
        });
    }

    fn stop(&mut self, id: &str, seat: &str, why: StopWhy, ledger: &Ledger, pass: &mut Pass) {
        let from = ledger.entry(id).map(|e| ledger.line(e.first).from.clone()).unwrap_or_default();
        let words = match self.still_in_inbox(id, seat, ledger) {
            true => format!("{} — {}", why.words(), inbox::STILL_WAITING.replace("{seat}", seat)),
            false => why.words(),
        };
        let r = Receipt {
            why: Some(words.clone()),
            ..Receipt::new(ReceiptKind::RetriesStopped, self.ctx.clock.now_ts(), id, seat)
        };
        let written = self.receipt(&r);
        let drop = self.drop_of(seat, id);
        self.log(seat, "stopped", format!("{words}, id {id}, drop {}{}", drop.display(), not_written(&written)));
        // Said once: kept by the receipt, and when that cannot be written, by this process.
        self.memory.give_up(id);
        if let Err(e) = written {
            self.problem(pass, format!("{seat}: the stop could not be written down: {e}"));
        }
        pass.events.push(Event::Stopped { seat: seat.into(), from, id: id.into(), why: words, drop });
    }

    /// A history line of the watch's, fsync'd (it ends a try, or says what was said).
    fn history(&self, line: &MessageLine) -> std::io::Result<()> {
        history::append_message_durably(&self.ctx.paths.config, &self.team.file.project, &self.team.root, line)
    }

    /// A receipt of the watch's, fsync'd.
    fn receipt(&self, r: &Receipt) -> std::io::Result<()> {
        history::append_receipt_durably(&self.ctx.paths.config, &self.team.file.project, &self.team.root, r)
    }

    fn log(&self, seat: &str, outcome: &str, detail: String) {
        let line = LogLine {
            command: "watch".into(),
            caller: format!("watch (pid {})", std::process::id()),
            seat: Some(seat.into()),
            outcome: outcome.into(),
            bytes: None,
            detail: Some(detail),
        };
        let _ = history::append_log(&self.team.root, &self.ctx.clock.now_iso(), &line);
    }
}

/// A line for the same message: who to whom, the body, the id, the address as written.
fn copy_of(first: &MessageLine) -> MessageLine {
    MessageLine {
        from: first.from.clone(),
        to: first.to.clone(),
        body: first.body.clone(),
        id: first.id.clone(),
        spec: first.spec.clone(),
        resolved: first.resolved.clone(),
        ..MessageLine::default()
    }
}

fn not_written(r: &std::io::Result<()>) -> String {
    match r {
        Err(e) => format!(", not written down: {e}"),
        Ok(()) => String::new(),
    }
}
