//! `team feed`: reads the project's message history, its briefs and the Desk audit lines,
//! and prints them as one table (or one `team.feed` document). It writes nothing: it creates
//! no folder, no lock file, no log line, and following never grows anything.
//!
//! What it reads, oldest event first:
//! - **messages** — `<config>/<project>-<hash8>/messages.jsonl.2`, `.1`, then the current
//!   file (`history::read_history`: O_NOFOLLOW, a link or FIFO on the ladder from `<config>`
//!   down refused, unparsable lines skipped and counted). In a checkout that is the team
//!   file's project; with `--all`, or outside a checkout, every `<name>-<8 hex>` folder of
//!   `<config>`, each event then also naming its `project`.
//! - **briefs** — (`history::read_briefs`) every `<from>-to-<to>.md` file of `--briefs <dir>`, or of `<root>/briefs`
//!   in a checkout (none by default under `--all`). The name is split at its first `-to-`;
//!   a file whose name does not split into two non-empty parts is not a brief and is passed
//!   over. Its time is the file's modification time; its event carries the whole text as
//!   `body` and the file as `path`, and the table's DETAIL shows the file name and its first
//!   non-empty line. Kind `brief`.
//! - **audit lines** — (`history::audit_files`, `history::read_audit`) Desk guard and bridge `audit.jsonl` files: `<config>/lobby/audit.jsonl`
//!   and `<config>/lobby/<any>/audit.jsonl`, or only `--audit <path>` (a file, or a folder
//!   read the same way as the lobby) when given. Each line is one JSON object; its time is
//!   the first of `ts`, `time`, `at`; the actor the first of `from`, `actor`, `caller`,
//!   `sender`; the target the first of `to`, `target`, `seat`; the action the first of
//!   `action`, `event`, `decision`, `outcome`; the text the first of `detail`, `reason`,
//!   `message`, `summary`. A line with a `project` other than the run's is another team's
//!   and is left out; a line that is not an object or has no time is skipped and counted.
//!   Kind `audit`; the event keeps the whole object as `record`. Signed answer files in the
//!   lobby are not read by this build.
//!
//! - **receipts** — `receipts.jsonl` beside the history (`history::read_receipts`), which
//!   `team watch` writes: joined by id (`history::Ledger`), a delivered message still waiting
//!   for its sign is shown read (and when), not yet read, or never acted on — in the KIND cell
//!   (`delivered (via typed in 20031 ms, read 09:00:41)`) and as `read` on its `--json` event. A
//!   delivered line with no qualifier was confirmed by its own send and carries neither, so the
//!   spec's table stands as it is. A line the watch wrote says so in its KIND cell
//!   (`held (retry 1, …)`, `delivered (taken but never acted on)`).
//!
//! `--stats` counts instead of listing (`history::stats`): per CLI and profile version, the
//! sends in view (one per message id), how they ended, and the median and 90th percentile
//! milliseconds to delivered and to read; `--json` makes it one `team.feed.stats` document.
//!
//! Skipped lines are said on stderr (plain) or as `skipped` in the document (`--json`).
//! Events are ordered by time; events of equal time keep the order they were read in
//! (messages in file order, then briefs by name, then audit lines).

use super::feed_read::{threaded, AckMark, ReadMark};
use crate::ctx::Ctx;
use crate::history::ledger::NOTE_NEVER_ACTED;
use crate::history::{self, Ledger, MessageLine};
use crate::outcome::{self, TeamError};
use crate::output::Output;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Arguments of `team feed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the events this seat sent or received (its name, or @<nickname> in a checkout).
    #[arg(long, value_name = "name")]
    seat: Option<String>,
    /// Only the last <n> events.
    #[arg(long, value_name = "n")]
    limit: Option<usize>,
    /// Every project's history on this machine, not only this checkout's.
    #[arg(long)]
    all: bool,
    /// Read Desk audit lines from this audit.jsonl (or folder) instead of the lobby's.
    #[arg(long, value_name = "path")]
    audit: Option<PathBuf>,
    /// Read briefs (<from>-to-<to>.md) from this folder instead of <checkout>/briefs.
    #[arg(long, value_name = "dir")]
    briefs: Option<PathBuf>,
    /// Keep reading; print each pass that brings new entries.
    #[arg(long, conflicts_with = "json")]
    follow: bool,
    /// Count, per CLI and profile version: sends, how they ended, ms to delivered and to read.
    #[arg(long, conflicts_with_all = ["follow", "limit"])]
    stats: bool,
    /// Print one team.feed document.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    match feed(&args, ctx, out) {
        Ok(code) => code,
        Err(e) => super::report_error("feed", args.json, &e, out),
    }
}

/// What one run reads.
#[derive(Debug, Default)]
struct Scope {
    /// The single team the run names (`None` under `--all` or outside a checkout).
    team: Option<(String, String)>,
    /// History folders, each with the project name its events carry under `--all`.
    dirs: Vec<(Option<String>, PathBuf)>,
    briefs: Option<PathBuf>,
    audits: Vec<PathBuf>,
    /// (nickname, seat name) of the team file's seats, for `--seat @<nickname>`.
    nicknames: Vec<(String, String)>,
    /// (seat name, cli) of the team file's seats: the CLI `--stats` counts a line under when
    /// the line does not name one.
    clis: Vec<(String, String)>,
    /// `<config>`: the ladder a history read checks.
    config: PathBuf,
}

impl Scope {
    /// What `--stats` reads.
    fn stats_scope(&self) -> super::feed_stats::StatsScope<'_> {
        super::feed_stats::StatsScope {
            team: self.team.as_ref(),
            dirs: &self.dirs,
            config: &self.config,
            clis: &self.clis,
        }
    }

    /// `--seat <name>` names a seat of the team file, the owner, or a name the history holds;
    /// anything else is a mistake said as one (exit 2), with the nearest seat and the file's.
    fn known_seat(&self, seat: &str, events: &[Event]) -> outcome::Result<()> {
        let Some((project, _)) = &self.team else { return Ok(()) };
        let names: Vec<&str> = self.clis.iter().map(|(s, _)| s.as_str()).collect();
        if names.contains(&seat) || seat == "owner" || events.iter().any(|e| e.involves(seat)) {
            return Ok(());
        }
        let hint = crate::nearest::nearest(seat, names.iter().copied()).map(|n| format!(" (did you mean {n}?)"));
        let hint = hint.unwrap_or_default();
        Err(TeamError::usage(format!(
            "--seat {}: no seat of {project} has that name, and the history names no such sender or receiver{hint}; the file's seats are {}",
            crate::output::one_line(seat),
            if names.is_empty() { "none yet".to_string() } else { names.join(", ") }
        )))
    }

    /// The seat name `--seat` means: `@<nickname>` of a seat of the team file is that
    /// seat; anything else is taken as written.
    fn seat_name(&self, seat: &str) -> String {
        seat.strip_prefix('@')
            .and_then(|n| self.nicknames.iter().find(|(nick, _)| nick == n))
            .map(|(_, name)| name.clone())
            .unwrap_or_else(|| seat.to_string())
    }
}

fn feed(args: &Args, ctx: &Ctx, out: &mut Output) -> outcome::Result<i32> {
    let cwd = ctx.cwd()?;
    let scope = scope(args, &cwd, &ctx.paths.config)?;
    if args.stats {
        let (project_seat, json) = (args.seat.as_deref().map(|s| scope.seat_name(s)), args.json);
        return super::feed_stats::run(&scope.stats_scope(), project_seat.as_deref(), json, out);
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut first = true;
    // on a terminal the sender header is drawn faint, apart from the body it opens (the
    // piped text stays the spec's: header and body one space apart)
    let styled = out.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    loop {
        let read = read(&scope)?;
        let mut events: Vec<Event> = read.events;
        if let Some(seat) = &args.seat {
            let seat = scope.seat_name(seat);
            if first {
                scope.known_seat(&seat, &events)?;
            }
            events.retain(|e| e.involves(&seat));
        }
        if args.follow {
            let keys = keys(&events);
            let fresh: Vec<Event> =
                events.into_iter().zip(keys).filter(|(_, k)| seen.insert(k.clone())).map(|(e, _)| e).collect();
            if first || !fresh.is_empty() {
                let shown = if first { limited(fresh, args.limit) } else { fresh };
                let (text, note) =
                    plain(&scope, &shown, read.skipped, ctx.clock.now().with_timezone(&chrono::Local), styled);
                out.out(&text);
                if let Some(n) = note {
                    out.err(&n);
                }
            }
            first = false;
            // A follow runs until its reader goes away (`team feed --follow | head -3`).
            for _ in 0..10 {
                if out.closed() || out.reader_gone() {
                    return Ok(0);
                }
                std::thread::sleep(ctx.clock.scaled(100));
            }
            continue;
        }
        let events = limited(events, args.limit);
        if args.json {
            out.doc(&document(&scope, &events, read.skipped.lines));
        } else {
            let (text, note) =
                plain(&scope, &events, read.skipped, ctx.clock.now().with_timezone(&chrono::Local), styled);
            out.out(&text);
            if let Some(n) = note {
                out.err(&n);
            }
        }
        return Ok(0);
    }
}

fn limited(mut events: Vec<Event>, limit: Option<usize>) -> Vec<Event> {
    if let Some(n) = limit {
        let drop = events.len().saturating_sub(n);
        events.drain(..drop);
    }
    events
}

/// A stable key per event for `--follow`: its document form and its occurrence number, so
/// two identical lines are two entries.
fn keys(events: &[Event]) -> Vec<String> {
    let mut count: HashMap<String, usize> = HashMap::new();
    events
        .iter()
        .map(|e| {
            let k = e.to_json(true).to_string();
            let n = count.entry(k.clone()).or_default();
            *n += 1;
            format!("{k}#{n}")
        })
        .collect()
}

fn refusal(e: std::io::Error) -> TeamError {
    TeamError::refused(e.to_string())
}

fn scope(args: &Args, cwd: &Path, config: &Path) -> outcome::Result<Scope> {
    let config = config.to_path_buf();
    // A place the run names itself must be there: reading nothing from it would look like
    // an empty feed.
    for (flag, p) in [("--audit", &args.audit), ("--briefs", &args.briefs)] {
        if let Some(p) = p {
            if std::fs::symlink_metadata(p).is_err() {
                return Err(TeamError::usage(format!("{flag} {}: no such file or folder", p.display())));
            }
        }
    }
    let loaded = if args.all { None } else { crate::team_file::find(cwd)? };
    let mut s = Scope { config: config.clone(), ..Scope::default() };
    match &loaded {
        Some(l) => {
            s.team = Some((l.file.project.clone(), l.file.session.clone()));
            s.dirs.push((None, history::project_dir(&config, &l.file.project, &l.root)));
            s.briefs = Some(args.briefs.clone().unwrap_or_else(|| l.root.join("briefs")));
            s.nicknames =
                l.file.seats.iter().filter_map(|seat| Some((seat.nickname.clone()?, seat.name.clone()))).collect();
            s.clis = l.file.seats.iter().map(|seat| (seat.name.clone(), seat.cli.clone())).collect();
        }
        None => {
            s.dirs = history::project_dirs(&config).map_err(refusal)?.into_iter().map(|(p, d)| (Some(p), d)).collect();
            s.briefs = args.briefs.clone();
        }
    }
    s.audits = match &args.audit {
        Some(p) => history::audit_files(p, None).map_err(refusal)?,
        None => history::audit_files(&config.join("lobby"), Some(&config)).map_err(refusal)?,
    };
    Ok(s)
}

/// A history time as the table shows it: in `now`'s time zone (the local one, `TZ` honoured),
/// with its date when it is not `now`'s day.
pub(super) fn local_time<Tz: chrono::TimeZone>(ts: &str, now: &chrono::DateTime<Tz>) -> String
where
    Tz::Offset: std::fmt::Display,
{
    match chrono::DateTime::parse_from_rfc3339(ts) {
        Ok(t) => {
            let local = t.with_timezone(&now.timezone());
            let form = if local.date_naive() == now.date_naive() { "%H:%M:%S" } else { "%Y-%m-%d %H:%M:%S" };
            local.format(form).to_string()
        }
        Err(_) => ts.to_string(),
    }
}

/// One entry of the feed.
// (A message is most of the entries and the largest: boxing it would add an allocation per
// history line to save a move.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Message {
        line: MessageLine,
        project: Option<String>,
        /// Where a delivered message waiting for its sign stands (from the receipts).
        read: Option<ReadMark>,
        /// Its seat acked it (`team ack`, or its reply), on the line that delivered it.
        acked: Option<AckMark>,
    },
    Brief {
        ts: String,
        from: String,
        to: String,
        body: String,
        path: PathBuf,
    },
    Audit {
        ts: String,
        from: Option<String>,
        to: Option<String>,
        action: Option<String>,
        detail: Option<String>,
        path: PathBuf,
        record: Value,
    },
}

impl Event {
    fn ts(&self) -> &str {
        match self {
            Event::Message { line, .. } => &line.ts,
            Event::Brief { ts, .. } | Event::Audit { ts, .. } => ts,
        }
    }

    fn involves(&self, seat: &str) -> bool {
        match self {
            Event::Message { line, .. } => line.from == seat || line.to == seat,
            Event::Brief { from, to, .. } => from == seat || to == seat,
            Event::Audit { from, to, .. } => from.as_deref() == Some(seat) || to.as_deref() == Some(seat),
        }
    }

    /// The time in `now`'s time zone (the local one, `TZ` honoured), with its date when it is
    /// not `now`'s day.
    fn time_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        local_time(self.ts(), now)
    }

    /// The project a message belongs to (`--all`); `-` for a brief or an audit line.
    fn project_cell(&self) -> String {
        match self {
            Event::Message { project: Some(p), .. } => p.clone(),
            _ => "-".to_string(),
        }
    }

    fn kind_cell<Tz: chrono::TimeZone>(&self, now: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        match self {
            Event::Message { line, read, acked, .. } => {
                let mut parts: Vec<String> = Vec::new();
                if let Some(n) = line.retry {
                    parts.push(format!("retry {n}"));
                }
                if line.note.as_deref() == Some(NOTE_NEVER_ACTED) {
                    parts.push(NOTE_NEVER_ACTED.to_string());
                }
                match (&line.via, line.ms) {
                    (Some(v), Some(ms)) => parts.push(format!("via {v} in {ms} ms")),
                    (Some(v), None) => parts.push(format!("via {v}")),
                    (None, Some(ms)) => parts.push(format!("in {ms} ms")),
                    (None, None) => {}
                }
                parts.extend(read.as_ref().map(|r| r.words(|ts| local_time(ts, now))));
                parts.extend(acked.as_ref().map(|a| a.words(|ts| local_time(ts, now))));
                if parts.is_empty() {
                    line.outcome.clone()
                } else {
                    format!("{} ({})", line.outcome, parts.join(", "))
                }
            }
            Event::Brief { .. } => "brief".to_string(),
            Event::Audit { action, .. } => match action {
                Some(a) => format!("audit ({a})"),
                None => "audit".to_string(),
            },
        }
    }

    fn seat_cell(&self) -> String {
        let pair = |f: &str, t: &str| format!("{f} -> {t}");
        match self {
            Event::Message { line, .. } => pair(&line.from, &line.to),
            Event::Brief { from, to, .. } => pair(from, to),
            Event::Audit { from, to, .. } => match (from, to) {
                (Some(f), Some(t)) => pair(f, t),
                (Some(f), None) => f.clone(),
                (None, Some(t)) => pair("-", t),
                (None, None) => "-".to_string(),
            },
        }
    }

    /// A message's DETAIL in its parts: what leads it (an unreachable send's note, with its
    /// space), the sender header its body opens with (`from … — admitted by: …`), the body.
    fn detail_parts(&self) -> (String, Option<String>, String) {
        let Event::Message { line, .. } = self else { return (String::new(), None, self.detail_cell()) };
        let lead = match &line.note {
            Some(n) if line.outcome == "unreachable" => format!("({}) ", collapse(n)),
            _ => String::new(),
        };
        // a reply's header has a second line, `in-reply-to: <id> (<question>)`
        let one_header = |h: &str| {
            !h.contains('\n')
                || h.split_once('\n').is_some_and(|(_, r)| r.starts_with("in-reply-to: ") && !r.contains('\n'))
        };
        match line.body.split_once("\n\n") {
            Some((h, b)) if h.starts_with("from ") && h.contains(" — admitted by: ") && one_header(h) => {
                (lead, Some(collapse(h)), collapse(b))
            }
            _ => (lead, None, collapse(&line.body)),
        }
    }

    fn detail_cell(&self) -> String {
        match self {
            // an unreachable send says why, from its history line's note
            Event::Message { line, .. } => match &line.note {
                Some(n) if line.outcome == "unreachable" => format!("({}) {}", collapse(n), collapse(&line.body)),
                _ => collapse(&line.body),
            },
            Event::Brief { body, path, .. } => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                match body.lines().map(str::trim).find(|l| !l.is_empty()) {
                    Some(first) => format!("{name}: {}", collapse(first)),
                    None => name,
                }
            }
            Event::Audit { detail, .. } => detail.as_deref().map(collapse).unwrap_or_default(),
        }
    }

    /// The event as the `team.feed` document carries it. `with_project` adds the project a
    /// message belongs to when the run names no single team.
    fn to_json(&self, with_project: bool) -> Value {
        match self {
            Event::Message { line, project, read, acked } => {
                let mut v = serde_json::to_value(line).expect("a history line always serialises");
                if let (true, Some(p), Value::Object(m)) = (with_project, project, &mut v) {
                    m.insert("project".into(), json!(p));
                }
                if let (Some(r), Value::Object(m)) = (read, &mut v) {
                    m.insert("read".into(), r.to_json());
                }
                if let (Some(a), Value::Object(m)) = (acked, &mut v) {
                    m.insert("acked".into(), a.to_json());
                }
                v
            }
            Event::Brief { ts, from, to, body, path } => json!({
                "kind": "brief", "ts": ts, "from": from, "to": to, "body": body,
                "path": path.display().to_string(),
            }),
            Event::Audit { ts, from, to, action, detail, path, record } => json!({
                "kind": "audit", "ts": ts, "from": from, "to": to, "action": action,
                "body": detail, "path": path.display().to_string(), "record": record,
            }),
        }
    }
}

impl From<history::Brief> for Event {
    fn from(b: history::Brief) -> Event {
        Event::Brief { ts: b.ts, from: b.from, to: b.to, body: b.body, path: b.path }
    }
}

impl From<history::AuditLine> for Event {
    fn from(a: history::AuditLine) -> Event {
        Event::Audit {
            ts: a.ts,
            from: a.from,
            to: a.to,
            action: a.action,
            detail: a.detail,
            path: a.path,
            record: a.record,
        }
    }
}

/// Whitespace runs (newlines included) become one space; the ends are trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Read {
    events: Vec<Event>,
    skipped: Skipped,
}

/// The lines a run did not show: every one skipped, and how many of them for an id that is no
/// message id (the history's and the receipts' readers pass those over: `history::id`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    pub lines: usize,
    pub bad_ids: usize,
}

/// The line for stderr that says what was skipped, when anything was.
pub fn skipped_note(s: Skipped) -> Option<String> {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match s {
        Skipped { lines: 0, .. } => None,
        Skipped { lines, bad_ids: 0 } => Some(format!("team feed: skipped {lines} unreadable line{}\n", plural(lines))),
        Skipped { lines, bad_ids } => Some(format!(
            "team feed: skipped {lines} unreadable line{} ({bad_ids} whose id is no message id)\n",
            plural(lines)
        )),
    }
}

fn read(scope: &Scope) -> outcome::Result<Read> {
    let mut events = Vec::new();
    let mut skipped = Skipped::default();
    for (project, dir) in &scope.dirs {
        let h = history::read_history(&scope.config, dir).map_err(refusal)?;
        let r = history::read_receipts_checked(&scope.config, dir).map_err(refusal)?;
        skipped.lines += h.skipped + r.skipped;
        skipped.bad_ids += h.bad_ids() + r.bad_ids();
        let receipts = r.lines;
        // Each delivered line a send could not confirm shows where its message stands.
        let mut marks: Vec<Option<ReadMark>> = vec![None; h.lines.len()];
        let mut acks: Vec<Option<AckMark>> = vec![None; h.lines.len()];
        let ledger = Ledger::build(&h.lines, &receipts);
        for e in &ledger.entries {
            if let (Some(d), Some(state)) = (e.delivered, ledger.read_state(e)) {
                marks[d] = ReadMark::of(&ledger, state);
            }
            if let Some(r) = e.acked {
                acks[e.delivered.unwrap_or(e.first)] = Some(AckMark::of(&ledger, r));
            }
        }
        drop(ledger);
        events.extend(h.lines.into_iter().zip(marks).zip(acks).map(|((line, read), acked)| Event::Message {
            line,
            project: project.clone(),
            read,
            acked,
        }));
    }
    if let Some(dir) = &scope.briefs {
        events.extend(history::read_briefs(dir).map_err(refusal)?.into_iter().map(Event::from));
    }
    for path in &scope.audits {
        let project = scope.team.as_ref().map(|t| t.0.as_str());
        let (lines, n) = history::read_audit(path, project).map_err(refusal)?;
        skipped.lines += n;
        events.extend(lines.into_iter().map(Event::from));
    }
    // Stable: equal times keep the order read.
    events.sort_by_key(|e| sort_key(e.ts()));
    Ok(Read { events, skipped })
}

fn sort_key(ts: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(ts).ok().map(|t| t.with_timezone(&chrono::Utc))
}

fn document(scope: &Scope, events: &[Event], skipped: usize) -> Value {
    let (project, session) = match &scope.team {
        Some((p, s)) => (json!(p), json!(s)),
        None => (Value::Null, Value::Null),
    };
    let multi = scope.team.is_none();
    let mut doc = json!({
        "schema": {"name": "team.feed", "version": 1},
        "format": 1,
        "project": project,
        "session": session,
        "events": events.iter().map(|e| e.to_json(multi)).collect::<Vec<_>>(),
    });
    if skipped > 0 {
        doc["skipped"] = json!(skipped);
    }
    doc
}

mod table;
use table::plain;

#[cfg(test)]
mod tests;
