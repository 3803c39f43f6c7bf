//! `team send`: one message to one seat, `--list`, `--dry-run`, `--record`, and every
//! `--wait` refusal.
//!
//! Order of a run: the terminal check (a run with no terminal is refused before anything
//! else, `--list` included) → the invocation → the team file and the registry → the caller →
//! `--list`, or: resolve the target → admission → the `--wait` refusals → the walk's plan →
//! dry run / record / the typed leg.
//!
//! Invariant: every decision is made by [`decide`] before anything is written; a dry run
//! writes nothing (no drop, no history, no team.log line); a refusal writes only its own
//! team.log line. The typed leg is one call site, [`deliver_typed`], which this build does
//! not carry yet.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::address::{self, SeatView, Target, TeamView, World};
use crate::admission::{self, Rule};
use crate::caller::{self, Caller};
use crate::history::{self, LogLine, MessageLine};
use crate::legs::{self, Order, Plan};
use crate::outcome::{self, context_line, render_json, Kind, TeamError};
use crate::registry::Registry;
use crate::team_file::{self, Loaded};
use crate::typed;

const USAGE: &str = "usage: team send <target> <message> [--wait] [--timeout <s>] [--json] [--dry-run]\n       team send <target> --file <path> [--wait] [--timeout <s>] [--json] [--dry-run]\n       team send --record <seat> --channel native --ms <N> [<message> | --file <path>] [--json] [--dry-run]\n       team send --list [--json]";

/// The sentence a run with no terminal is refused with (spec "Who may send to whom").
pub const NO_TERMINAL: &str =
    "only the owner or a seat the send admission admits runs this, from a terminal outside herdr or its own pane";

/// Arguments of `team send`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct Args {
    /// The seat to reach: a seat or nickname of this team, @nickname, seat@team, lead@team, or agt_… id.
    pub target: Option<String>,
    /// The message: every remaining word, joined with single spaces.
    pub message: Vec<String>,
    /// Read the whole body from a file instead of message words.
    #[arg(long, value_name = "path")]
    pub file: Option<PathBuf>,
    /// Wait for the reply (needs the native leg; refused in this build).
    #[arg(long)]
    pub wait: bool,
    /// Seconds to wait, 1 to 86400 (only with --wait).
    #[arg(long, value_name = "s")]
    pub timeout: Option<String>,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Resolve the seat and name the channel; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// List the addressable seats; send nothing.
    #[arg(long)]
    pub list: bool,
    /// Write down a delivery the sender made with its own native tool.
    #[arg(long, value_name = "seat")]
    pub record: Option<String>,
    /// The channel of a --record: native only.
    #[arg(long, value_name = "channel")]
    pub channel: Option<String>,
    /// The span the sender measured for a --record, in whole milliseconds.
    #[arg(long, value_name = "N")]
    pub ms: Option<String>,
}

/// What the invocation asks for, once its words are checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    List,
    Send { target: String, body: String, wait: bool },
    Record { target: String, body: Option<String>, ms: u64 },
}

fn usage(msg: impl Into<String>) -> TeamError {
    TeamError::usage(msg).with_repair(USAGE)
}

/// Checks the invocation: every usage error is exit 2.
pub fn ask(a: &Args) -> outcome::Result<Ask> {
    if let Some(t) = &a.timeout {
        match t.trim().parse::<u64>() {
            Ok(n) if (1..=86_400).contains(&n) => {}
            _ => return Err(usage(format!("--timeout takes a whole number of seconds from 1 to 86400, not \"{t}\""))),
        }
    }
    let read_file = |p: &Path| -> outcome::Result<String> {
        std::fs::read_to_string(p).map_err(|e| TeamError::bad_file(format!("--file {}: {e}", p.display())))
    };
    if a.list {
        if a.target.is_some()
            || !a.message.is_empty()
            || a.file.is_some()
            || a.record.is_some()
            || a.wait
            || a.timeout.is_some()
            || a.dry_run
        {
            return Err(usage("--list takes no target, message, --file, --record, --wait, --timeout or --dry-run"));
        }
        if a.channel.is_some() || a.ms.is_some() {
            return Err(usage("--channel and --ms go with --record"));
        }
        return Ok(Ask::List);
    }
    if let Some(seat) = &a.record {
        if a.wait || a.timeout.is_some() {
            return Err(usage(
                "--wait and --timeout are refused beside --record: a recorded delivery has already happened",
            ));
        }
        match a.channel.as_deref() {
            Some("native") => {}
            Some(c) => return Err(usage(format!("--channel takes native only, not \"{c}\""))),
            None => return Err(usage("--record needs --channel native")),
        }
        let ms = match a.ms.as_deref() {
            None => return Err(usage("--record needs --ms <N>, the span the sender measured")),
            Some(m) => m
                .trim()
                .parse::<u64>()
                .map_err(|_| usage(format!("--ms takes a whole number of milliseconds, not \"{m}\"")))?,
        };
        let mut words: Vec<String> = a.target.iter().cloned().collect();
        words.extend(a.message.iter().cloned());
        if !words.is_empty() && a.file.is_some() {
            return Err(usage("a message and --file together: give the body one way"));
        }
        let body = match &a.file {
            Some(p) => Some(read_file(p)?),
            None if words.is_empty() => None,
            None => Some(words.join(" ")),
        };
        return Ok(Ask::Record { target: seat.clone(), body, ms });
    }
    if a.channel.is_some() || a.ms.is_some() {
        return Err(usage("--channel and --ms go with --record"));
    }
    let Some(target) = a.target.clone() else {
        return Err(usage("a target seat is required"));
    };
    if !a.message.is_empty() && a.file.is_some() {
        return Err(usage("a message and --file together: give the body one way"));
    }
    let body = match &a.file {
        Some(p) => read_file(p)?,
        None if a.message.is_empty() => {
            return Err(usage("a message is required: words after the seat, or --file <path>"))
        }
        None => a.message.join(" "),
    };
    if body.trim().is_empty() {
        return Err(usage("the message is empty: nothing to send"));
    }
    Ok(Ask::Send { target, body, wait: a.wait })
}

/// Everything a send decided before touching a pane: the typed leg starts from here.
#[derive(Debug, Clone)]
pub struct Decision {
    pub caller: Caller,
    /// The cwd's team file, when the run stands in a team folder.
    pub file: Option<Loaded>,
    /// The resolved seat: its team (name, session, project, root, entity, file) and its seat
    /// (name, cli, registry record with its agent id, the file's `Seat`), with the spec.
    pub target: Target,
    /// The rule that admitted the pair.
    pub rule: Rule,
    /// The order in force and the walk: the `failed` list and the terminal leg.
    pub plan: Plan,
    /// The sender header (drop files, the history body).
    pub header: String,
}

impl Decision {
    /// The receiving team's checkout root (its `.agents/` takes the drop and the log line).
    pub fn root(&self) -> Option<&Path> {
        self.target.team.root.as_deref()
    }
    /// `team <project>, session "<session>"` for this run.
    pub fn context(&self) -> (String, String) {
        context_of(self.file.as_ref(), Some(&self.target.team))
    }
}

fn context_of(file: Option<&Loaded>, team: Option<&TeamView>) -> (String, String) {
    match (file, team) {
        (Some(l), _) => (l.file.project.clone(), l.file.session.clone()),
        (None, Some(t)) => (t.file_project.clone().unwrap_or_else(|| t.project.clone()), t.session.clone()),
        (None, None) => (String::new(), String::new()),
    }
}

/// The order in force for one seat of `team`: entity → project → team → seat.
pub fn order_for(reg: &Registry, team: &TeamView, seat: &SeatView) -> Order {
    let project_key = team.file_project.clone().unwrap_or_else(|| team.project.clone());
    let entity = reg.entity_order(&team.entity).map(|v| v.as_slice());
    let project = reg.project_order(&project_key).map(|v| v.as_slice());
    let team_level = team.file.as_ref().and_then(|f| f.delivery_order.as_deref());
    let seat_level = seat.file_seat.as_ref().and_then(|s| s.delivery_order.as_deref());
    let [e, p, t, s] = legs::LEVELS;
    legs::order_in_force(&[(e, entity), (p, project), (t, team_level), (s, seat_level)])
}

/// Whether a seat's CLI has a compose module. Every bundled profile describes itself with
/// `has_compose: false` (profiles/*/src/describe.rs), and answering for a dropped-in one
/// means loading its component — a cost `--list` does not pay yet, so such a seat lists as
/// typed. (seam: ask `profiles::ProfileHost` once a cheap description read exists)
fn has_compose(_cli: &str) -> bool {
    false
}

/// The run's world: the cwd's team file and the registry.
struct Loadout {
    file: Option<Loaded>,
    reg: Registry,
}

fn load() -> outcome::Result<Loadout> {
    let cwd =
        std::env::current_dir().map_err(|e| TeamError::bad_file(format!("the current folder cannot be read: {e}")))?;
    let file = team_file::find(&cwd)?;
    let reg = Registry::load_default()?;
    Ok(Loadout { file, reg })
}

/// The `--wait` refusal for a resolved seat, in the spec's words (without `refused: `).
pub fn wait_refusal(target: &Target, order: &Order) -> String {
    let seat = target.name();
    let cli = target.cli();
    if cli == legs::NATIVE_CLI {
        if order.first() == Some("native") {
            format!("{seat}: --wait needs the native leg (team route + your own SendMessage), which this build does not carry; nothing was sent")
        } else {
            format!(
                "{seat}: --wait needs the native leg first, and its delivery order is {}; nothing was sent",
                order.spelled()
            )
        }
    } else {
        format!("{seat} runs {cli}: this build confirms that a native CLI submitted and does not carry its reply; nothing was sent")
    }
}

/// Resolves, admits and plans a send (or a record) for `caller`. Writes nothing.
pub fn decide(file: Option<Loaded>, reg: &Registry, caller: Caller, spec: &str) -> outcome::Result<Decision> {
    let world = World::new(reg, file.as_ref());
    let target = address::resolve(&world, spec)?;
    let rule = admission::admit(&world, &caller, &target, crate::clock::now())?;
    let order = order_for(reg, &target.team, &target.seat);
    let plan = Plan::walk(target.cli(), order);
    let header = admission::sender_header(&world, &caller, &rule);
    drop(world);
    Ok(Decision { caller, file, target, rule, plan, header })
}

/// The typed leg: drop file, seat lock, trigger line, read-back, Enter, evidence; then the
/// history line and the team.log line. `Ok` is a delivered run; every other verdict is the
/// error the run exits 1 with (already logged).
fn deliver_typed(d: &Decision, body: &str) -> RunResult {
    let ctx = d.context();
    let seat = d.target.name().to_string();
    let Some(root) = d.root().map(Path::to_path_buf) else {
        return Err(plain_err(TeamError::refused(format!(
            "{seat}: its team's checkout is not known to the registry, so there is no folder for its drop file; nothing was sent"
        ))));
    };
    let no_pins = std::collections::BTreeMap::new();
    let team_file = d.target.team.file.as_ref();
    let id = crate::clock::new_id();
    let text = admission::with_header(&d.header, body);
    let req = typed::PlainSend {
        session: &d.target.team.session,
        seat: &seat,
        cli: d.target.cli(),
        root: &root,
        text: &text,
        id: &id,
        pins: team_file.map(|f| &f.profiles).unwrap_or(&no_pins),
        multiplexer: team_file.and_then(|f| f.multiplexer.as_deref()),
    };
    let report = typed::send_plain(&req);
    let (word, kind, reason, note) = match &report.run.verdict {
        typed::Verdict::Delivered { note } => ("delivered", None, None, note.clone()),
        typed::Verdict::Held(r) => ("held", Some(Kind::Held), Some(r.clone()), None),
        typed::Verdict::NotSubmitted(r) => ("not-submitted", Some(Kind::NotSubmitted), Some(r.clone()), None),
        typed::Verdict::Unreachable(r) => ("unreachable", Some(Kind::Unreachable), Some(r.clone()), None),
        typed::Verdict::Refused(r) => ("refused", Some(Kind::Refused), Some(r.clone()), None),
    };
    let drop = report.drop.as_ref().map(|p| p.display().to_string());
    // A refusal sent nothing and is no completed send: it writes its log line only.
    if report.drop.is_some() && word != "refused" {
        let line = MessageLine {
            ms: Some(report.ms),
            via: report.run.typed.then(|| "typed".to_string()),
            failed: d.plan.failed.clone(),
            note: note.clone(),
            ..history_line(d, &id, body, word)
        };
        let _ = history::append_message(&history_project(d), &root, &line);
    }
    let mut detail = format!("id {id}, {} Enter(s)", report.run.enters);
    if let Some(n) = &note {
        // An unverified send is said once in the log, for the orchestrator to follow up.
        detail.push_str(&format!(", unverified: {n}"));
    }
    if let Some(p) = &drop {
        detail.push_str(&format!(", drop {p}"));
    }
    log(Some(&root), &d.caller, Some(&seat), word, Some(body.len()), Some(detail));
    match kind {
        None => {
            let line = match &note {
                Some(n) => format!("{seat}: delivered ({n})"),
                None => format!("{seat}: delivered"),
            };
            let mut doc = send_doc(&ctx, false, "delivered", &line, &seat, Some("typed"), Some(&id), None);
            doc["note"] = json!(note);
            doc["drop"] = json!(drop);
            doc["ms"] = json!(report.ms);
            Ok(Out { context: Some(ctx), doc, line: format!("{line}\n") })
        }
        Some(Kind::Refused) => Err((TeamError::refused(format!("{seat}: {}", reason.unwrap_or_default())), true)),
        Some(k) => {
            let e = TeamError::new(k, format!("{seat}: {word} ({})", reason.unwrap_or_default()));
            Err((e.with_context(ctx), true))
        }
    }
}

/// One output of a run: stdout text (plain) or a document (--json), and the exit code.
struct Out {
    context: Option<(String, String)>,
    line: String,
    doc: Value,
}

fn emit(json: bool, out: &Out) -> i32 {
    if json {
        print!("{}", render_json(&out.doc));
    } else {
        let mut s = String::new();
        if let Some((p, sess)) = &out.context {
            s.push_str(&context_line(p, sess));
        }
        s.push_str(&out.line);
        print!("{s}");
    }
    0
}

fn send_doc(
    ctx: &(String, String),
    dry_run: bool,
    status: &str,
    summary: &str,
    seat: &str,
    channel: Option<&str>,
    sent: Option<&str>,
    plan: Option<Value>,
) -> Value {
    let opt = |s: &str| if s.is_empty() { Value::Null } else { Value::String(s.to_string()) };
    let mut d = json!({
        "schema": {"name": "team.send", "version": 1},
        "format": 1,
        "dry_run": dry_run,
        "status": status,
        "action_summary": summary,
        "project": opt(&ctx.0),
        "session": opt(&ctx.1),
        "seat": seat,
        "channel": channel,
        "ids": {"sent": sent},
    });
    if let Some(p) = plan {
        d["plan"] = p;
    }
    d
}

/// Writes the run's team.log line under `root` (when there is one); a log that cannot be
/// written never changes the outcome already reached.
fn log(
    root: Option<&Path>,
    caller: &Caller,
    seat: Option<&str>,
    outcome: &str,
    bytes: Option<usize>,
    detail: Option<String>,
) {
    if let Some(root) = root {
        let _ = history::append_log(
            root,
            &LogLine {
                command: "send".into(),
                caller: caller.describe(),
                seat: seat.map(str::to_string),
                outcome: outcome.into(),
                bytes,
                detail,
            },
        );
    }
}

pub fn run(a: Args) -> i32 {
    let json = a.json;
    let ask = match ask(&a) {
        Ok(x) => x,
        Err(e) => return super::report_error("send", json, &e),
    };
    let Loadout { file, reg } = match load() {
        Ok(l) => l,
        Err(e) => return super::report_error("send", json, &e),
    };
    let caller = find_caller(&reg, file.as_ref());
    // A caller neither a verified pane's seat nor the owner at a terminal sends nothing, and
    // `--list` is no exception (spec "Who may send to whom").
    match &caller {
        Caller::NoTerminal => return super::report_error("send", json, &TeamError::new(Kind::Refused, NO_TERMINAL)),
        Caller::Blocked { why, repair } => {
            let mut e = TeamError::refused(format!("{why}; nothing was sent"));
            if let Some(r) = repair {
                e = e.with_repair(r.clone());
            }
            return super::report_error("send", json, &e);
        }
        _ => {}
    }
    let caller_root = file.as_ref().map(|l| l.root.clone());
    let res = match &ask {
        Ask::List => list(file.as_ref(), &reg),
        Ask::Send { target, body, wait } => send(file, &reg, caller.clone(), target, body, *wait, a.dry_run),
        Ask::Record { target, body, ms } => record(file, &reg, caller.clone(), target, body.as_deref(), *ms, a.dry_run),
    };
    match res {
        Ok(out) => emit(json, &out),
        Err((e, logged)) => {
            if !a.dry_run
                && !logged
                && ask != Ask::List
                && e.kind != Kind::Usage
                && e.kind != Kind::BadFile
                && e.id_for("send") != "send.not-built"
            {
                let seat = match &ask {
                    Ask::Send { target, .. } | Ask::Record { target, .. } => Some(target.as_str()),
                    Ask::List => None,
                };
                log(caller_root.as_deref(), &caller, seat, e.kind.row(), None, Some(e.message.clone()));
            }
            super::report_error("send", json, &e)
        }
    }
}

/// The caller, found through the multiplexer the team file (or the environment) chooses and
/// the installed profiles' facts about their CLIs.
fn find_caller(reg: &Registry, file: Option<&Loaded>) -> Caller {
    let mux = crate::mux::choose(file.and_then(|l| l.file.multiplexer.as_deref()));
    let pins = file.map(|l| l.file.profiles.clone()).unwrap_or_default();
    let vendors = match crate::profiles::ProfileHost::new() {
        Ok(host) => caller::Vendors::from_descriptions(&host.descriptions(&pins)),
        Err(_) => caller::Vendors::default(),
    };
    caller::find(reg, file, mux.as_ref(), &vendors)
}

type RunResult = Result<Out, (TeamError, bool)>;

fn plain_err(e: TeamError) -> (TeamError, bool) {
    (e, false)
}

/// The history's `from`: `owner`, the seat in its own team's history, `<seat>@<team>` in
/// another team's.
/// The history line of a decided send: who to whom, the body under its sender header, and the
/// address as written beside the seat it resolved to. Callers add `ms`, `via`, `failed`, `note`.
fn history_line(d: &Decision, id: &str, text: &str, outcome: &str) -> MessageLine {
    let (spec, resolved) = d.target.spec_and_resolved();
    MessageLine {
        ts: crate::clock::now_iso(),
        from: from_of(d),
        to: d.target.name().to_string(),
        body: admission::with_header(&d.header, text),
        id: id.to_string(),
        outcome: outcome.into(),
        spec,
        resolved,
        ..Default::default()
    }
}

/// The project key the receiving team's history lives under.
fn history_project(d: &Decision) -> String {
    d.target.team.file_project.clone().unwrap_or_else(|| d.target.team.project.clone())
}

fn from_of(d: &Decision) -> String {
    match &d.caller {
        Caller::Seat { team, seat, .. } if *team != d.target.team.name => format!("{seat}@{team}"),
        c => c.from_name(),
    }
}

fn send(
    file: Option<Loaded>,
    reg: &Registry,
    caller: Caller,
    spec: &str,
    body: &str,
    wait: bool,
    dry_run: bool,
) -> RunResult {
    let d = decide(file, reg, caller, spec).map_err(plain_err)?;
    let ctx = d.context();
    let seat = d.target.name().to_string();
    let cli = d.target.cli().to_string();
    if wait {
        let why = wait_refusal(&d.target, &d.plan.order);
        // a waited Claude Code send's dry run prints its refusal as a dry-run line; a
        // native-CLI seat's --wait --dry-run is the real run's refusal itself
        if dry_run && cli == legs::NATIVE_CLI {
            let reason = why.strip_prefix(&format!("{seat}: ")).unwrap_or(&why);
            let line = format!("{seat}: dry-run: {cli} {reason}");
            let plan = json!({"refused": why, "order": d.plan.order.legs});
            return Ok(Out {
                context: Some(ctx.clone()),
                doc: send_doc(&ctx, true, "dry-run", &line, &seat, None, None, Some(plan)),
                line: format!("{line}\n"),
            });
        }
        return Err(plain_err(TeamError::refused(why)));
    }
    let set_aside: Vec<String> = d.plan.order.set_aside.iter().map(|s| s.sentence()).collect();
    if dry_run {
        let line = match &d.plan.terminal {
            Some(_) => format!("{seat}: dry-run: {cli} via a 0600 drop file and one trigger line; nothing was written"),
            None => format!(
                "{seat}: dry-run: unreachable: no leg of its delivery order would take the send ({}); nothing was written",
                d.plan.failed.join("; ")
            ),
        };
        let mut text = format!("{line}\n");
        for s in &set_aside {
            text.push_str(&format!("{seat}: {s}\n"));
        }
        let plan = json!({
            "channel": d.plan.terminal,
            "order": d.plan.order.legs,
            "failed": d.plan.failed,
            "set_aside": set_aside,
            "rule": d.rule.words(),
        });
        return Ok(Out {
            context: Some(ctx.clone()),
            doc: send_doc(&ctx, true, "dry-run", &line, &seat, None, None, Some(plan)),
            line: text,
        });
    }
    match d.plan.terminal.as_deref() {
        Some("typed") => deliver_typed(&d, body),
        Some(other) => {
            Err(plain_err(TeamError::failed(format!("{seat}: the {other} leg is not in this build; nothing was sent"))))
        }
        None => {
            // a walk that ran out of legs is unreachable, and a completed run: history + log
            let root = d.root().map(Path::to_path_buf);
            let id = crate::clock::new_id();
            let line = MessageLine { failed: d.plan.failed.clone(), ..history_line(&d, &id, body, "unreachable") };
            if let Some(root) = &root {
                let _ = history::append_message(&history_project(&d), root, &line);
            }
            let mut detail = d.plan.ran_out();
            for s in &set_aside {
                detail.push_str(&format!("; {s}"));
            }
            log(root.as_deref(), &d.caller, Some(&seat), "unreachable", Some(body.len()), Some(detail));
            Err((
                TeamError::new(Kind::Unreachable, format!("{seat}: unreachable ({})", d.plan.ran_out()))
                    .with_context(ctx),
                true,
            ))
        }
    }
}

fn record(
    file: Option<Loaded>,
    reg: &Registry,
    caller: Caller,
    spec: &str,
    body: Option<&str>,
    ms: u64,
    dry_run: bool,
) -> RunResult {
    let d = decide(file, reg, caller, spec).map_err(plain_err)?;
    let ctx = d.context();
    let seat = d.target.name().to_string();
    let cli = d.target.cli().to_string();
    if cli != legs::NATIVE_CLI {
        return Err(plain_err(TeamError::refused(format!(
            "{seat} runs {cli}, which carries no native channel; nothing was recorded"
        ))));
    }
    if !d.plan.order.keeps("native") {
        return Err(plain_err(TeamError::refused(format!(
            "{seat}: its delivery order is {}, which does not keep the native leg; nothing was recorded",
            d.plan.order.spelled()
        ))));
    }
    let summary = format!("{seat}: recorded (native, {ms} ms)");
    if dry_run {
        let line = format!("{seat}: dry-run: would record a native delivery ({ms} ms); nothing was written");
        let plan = json!({"record": "messages.jsonl", "via": "native", "ms": ms, "rule": d.rule.words()});
        return Ok(Out {
            context: Some(ctx.clone()),
            doc: send_doc(&ctx, true, "dry-run", &line, &seat, None, None, Some(plan)),
            line: format!("{line}\n"),
        });
    }
    let Some(root) = d.root().map(Path::to_path_buf) else {
        return Err(plain_err(TeamError::refused(format!("{seat}: its team's checkout is not known to the registry, so the delivery cannot be written down; nothing was recorded"))));
    };
    let text = body.unwrap_or("(the text did not pass through this CLI)");
    let id = crate::clock::new_id();
    let line = MessageLine {
        ms: Some(ms),
        via: Some("native".into()),
        note: body.is_none().then(|| "the text did not pass through this CLI".to_string()),
        ..history_line(&d, &id, text, "delivered")
    };
    let project = history_project(&d);
    if let Err(e) = history::append_message(&project, &root, &line) {
        return Err(plain_err(TeamError::refused(format!(
            "{seat}: the delivery could not be written down ({e}); nothing was recorded"
        ))));
    }
    log(Some(&root), &d.caller, Some(&seat), "recorded", body.map(str::len), Some(format!("native, {ms} ms, id {id}")));
    Ok(Out {
        context: Some(ctx.clone()),
        doc: send_doc(&ctx, false, "recorded", &summary, &seat, Some("native"), Some(&id), None),
        line: format!("{summary}\n"),
    })
}

/// One `--list` row.
struct Row {
    name: String,
    nickname: Option<String>,
    cli: String,
    role: Option<String>,
    project: String,
    reach: &'static str,
    stopped: bool,
}

fn row(reg: &Registry, team: &TeamView, s: &SeatView, own: bool) -> Row {
    let order = order_for(reg, team, s);
    let cli = s.cli().to_string();
    Row {
        name: if own { s.name.clone() } else { format!("{}@{}", s.name, team.name) },
        nickname: s.nickname.as_ref().map(|n| if own { format!("@{n}") } else { format!("{n}@{}", team.name) }),
        reach: legs::reach(&cli, &order, has_compose(&cli)),
        cli,
        role: s.role.clone(),
        project: team.project.clone(),
        stopped: s.stopped,
    }
}

fn list(file: Option<&Loaded>, reg: &Registry) -> RunResult {
    let world = World::new(reg, file);
    let mut rows = Vec::new();
    if let Some(own) = &world.own {
        for s in &own.seats {
            rows.push(row(reg, own, s, true));
        }
    }
    let entity = world.own_entity();
    let own_name = world.own.as_ref().map(|o| o.name.clone());
    for t in world.entity_teams(&entity) {
        if Some(&t) == own_name.as_ref() {
            continue;
        }
        if let Some(v) = world.team(&t) {
            for s in v.seats.iter().filter(|s| s.in_roster || s.agent.is_some()) {
                rows.push(row(reg, &v, s, false));
            }
        }
    }
    let summary = if rows.len() == 1 { "1 seat".to_string() } else { format!("{} seats", rows.len()) };
    let ctx = file.map(|l| (l.file.project.clone(), l.file.session.clone()));
    let dash = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
    let table: Vec<[String; 5]> =
        std::iter::once(["SEAT".into(), "NICKNAME".into(), "ROLE".into(), "PROJECT".into(), "REACH".into()])
            .chain(
                rows.iter().map(|r| {
                    [r.name.clone(), dash(&r.nickname), dash(&r.role), r.project.clone(), r.reach.to_string()]
                }),
            )
            .collect();
    let mut widths = [0usize; 5];
    for r in &table {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut text = String::new();
    if !rows.is_empty() {
        for r in &table {
            let mut l = String::from(" ");
            for (i, c) in r.iter().enumerate() {
                l.push(' ');
                l.push_str(c);
                if i + 1 < r.len() {
                    l.push_str(&" ".repeat(widths[i] - c.chars().count() + 1));
                }
            }
            text.push_str(l.trim_end());
            text.push('\n');
        }
    }
    text.push_str(&summary);
    text.push('\n');
    let seats: Vec<Value> = rows
        .iter()
        .map(|r| json!({"name": r.name, "nickname": r.nickname, "cli": r.cli, "role": r.role, "project": r.project, "reach": r.reach, "stopped": r.stopped}))
        .collect();
    let doc = json!({
        "schema": {"name": "team.send.list", "version": 1},
        "format": 1,
        "project": ctx.as_ref().map(|c| c.0.clone()),
        "session": ctx.as_ref().map(|c| c.1.clone()),
        "seats": seats,
        "summary": summary,
    });
    Ok(Out { context: ctx, line: text, doc })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Args {
        #[derive(clap::Parser)]
        struct T {
            #[command(flatten)]
            a: Args,
        }
        use clap::Parser;
        T::try_parse_from(std::iter::once("send").chain(words.iter().copied())).unwrap().a
    }

    fn usage_msg(words: &[&str]) -> String {
        let e = ask(&args(words)).unwrap_err();
        assert_eq!(e.kind, Kind::Usage, "{words:?}");
        e.message
    }

    #[test]
    fn the_invocation() {
        assert_eq!(
            ask(&args(&["x", "hello", "there"])).unwrap(),
            Ask::Send { target: "x".into(), body: "hello there".into(), wait: false }
        );
        assert_eq!(
            ask(&args(&["x", "hi", "--wait", "--timeout", "86400"])).unwrap(),
            Ask::Send { target: "x".into(), body: "hi".into(), wait: true }
        );
        assert_eq!(ask(&args(&["--list"])).unwrap(), Ask::List);
        assert_eq!(
            ask(&args(&["--record", "k", "--channel", "native", "--ms", "812"])).unwrap(),
            Ask::Record { target: "k".into(), body: None, ms: 812 }
        );
        assert_eq!(
            ask(&args(&["--record", "k", "--channel", "native", "--ms", "5", "done", "it"])).unwrap(),
            Ask::Record { target: "k".into(), body: Some("done it".into()), ms: 5 }
        );
        assert!(usage_msg(&["x", "hi", "--file", "/etc/hostname"]).starts_with("a message and --file together"));
        for t in ["0", "86401", "1.5", "-3", "soon"] {
            assert!(
                usage_msg(&["x", "hi", "--wait", &format!("--timeout={t}")])
                    .starts_with("--timeout takes a whole number"),
                "{t}"
            );
        }
        assert!(usage_msg(&["--record", "k", "--channel", "socket", "--ms", "1"])
            .starts_with("--channel takes native only"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1", "--wait"])
            .starts_with("--wait and --timeout are refused beside --record"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1", "--timeout", "5"])
            .starts_with("--wait and --timeout"));
        assert!(usage_msg(&["--record", "k", "--channel", "native", "--ms", "1.5"])
            .starts_with("--ms takes a whole number"));
        assert!(usage_msg(&["x"]).starts_with("a message is required"));
        assert!(usage_msg(&["x", " "]).starts_with("the message is empty"));
        assert!(usage_msg(&[]).starts_with("a target seat is required"));
        assert!(usage_msg(&["x", "hi", "--channel", "native"]).starts_with("--channel and --ms go with --record"));
    }
}
