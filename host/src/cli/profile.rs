//! `team profile list | check | explain | test`: the installed vendor profiles, a vendor's
//! validation of a component, the tool that reads a captured screen, and the conformance run
//! of a component over a folder of screens.
//!
//! Invariant: these commands load only what they show — `list` compiles dropped-in files
//! (to validate them) and no bundled one; `check` loads the one file; `explain` loads the
//! one profile the current team would use for the cli; `test` loads the one file. Documents:
//! `team.profile.list`, `team.profile.check`, `team.profile.explain`, `team.profile.test`
//! (schema/profile-*.schema.json), each with `schema: {name, version}` and `format: 1`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::{Args as ClapArgs, Subcommand};
use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::outcome::{self, render_json, TeamError};
use crate::output::{one_line, Output};
use crate::profiles::{Profile, ProfileHost, Reading, Screen, Source, State};

/// Arguments of `team profile`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Every installed profile (bundled and dropped in) and which one each seat of the current team uses.
    List {
        /// Print one `team.profile.list` document.
        #[arg(long)]
        json: bool,
    },
    /// Validate a profile component as the host would before using it.
    Check {
        /// The component (`.wasm`).
        file: PathBuf,
        /// Print one `team.profile.check` document.
        #[arg(long)]
        json: bool,
    },
    /// Read a captured screen with a profile and say what it shows and why.
    Explain {
        /// The cli whose profile reads the screen (`claude-code`, `codex`, …).
        cli: String,
        /// A screen file: ANSI (`tmux capture-pane -e -p`, `herdr pane read --format ansi`) or plain text.
        screen: PathBuf,
        /// The terminal title the pane showed.
        #[arg(long)]
        title: Option<String>,
        /// The pane size as COLSxROWS (default: the widest row by the number of rows).
        #[arg(long, value_name = "COLSxROWS")]
        size: Option<String>,
        /// Read with this component instead of the one the team would use.
        #[arg(long, value_name = "FILE.wasm")]
        profile: Option<PathBuf>,
        /// Print one `team.profile.explain` document.
        #[arg(long)]
        json: bool,
    },
    /// Read every screen of a folder with a component and say which read as its meta says (exit 1 if any does not).
    Test {
        /// The component (`.wasm`).
        file: PathBuf,
        /// A folder of `<name>.ansi` + `.title` + `.meta.json` (+ `.txt`) screens, or of such folders.
        screens: PathBuf,
        /// Print one `team.profile.test` document.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args, ctx: &Ctx, out: &mut Output) -> i32 {
    let host = ProfileHost::new(&ctx.paths);
    let (json, res) = match args.command {
        Cmd::List { json } => (json, list(&host, ctx, json)),
        Cmd::Check { file, json } => (json, check(&host, &file, json)),
        Cmd::Explain { cli, screen, title, size, profile, json } => {
            (json, explain(ctx, &cli, &screen, title.as_deref(), size.as_deref(), profile.as_deref(), json))
        }
        Cmd::Test { file, screens, json } => (json, super::profile_test::run(&host, &file, &screens, json)),
    };
    match res {
        // (a document is already JSON: its control characters are escaped by serde_json)
        Ok((text, code)) => {
            out.out(&text);
            code
        }
        Err(e) => super::report_error("profile", json, &e, out),
    }
}

pub(super) fn schema(name: &str) -> Value {
    json!({"name": name, "version": 1})
}

fn source_json(s: &Source) -> Value {
    json!(s.word())
}

/// Formats rows as columns separated by two spaces (the last column unpadded); every cell is
/// shown escaped (ids, versions and reasons come from files and components).
fn table(rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| one_line(c).into_owned()).collect()).collect();
    super::table::layout(&rows, "")
}

/// One `label     value` line; labels are padded to one width in every command's output. The
/// value is shown on one line, escaped: a profile's words never reach the terminal raw.
pub(super) fn labelled(label: &str, value: &str) -> String {
    format!("{label:<9} {}\n", one_line(value))
}

/// The team file in scope (walking up from the cwd), if any.
fn current_team(ctx: &Ctx) -> outcome::Result<Option<crate::team_file::Loaded>> {
    let cwd = ctx.cwd()?;
    crate::team_file::find(&cwd)
}

// ---------------------------------------------------------------- list

fn list(host: &ProfileHost, ctx: &Ctx, json: bool) -> outcome::Result<(String, i32)> {
    let team = current_team(ctx)?;
    let available = host.available();
    let mut seats = Vec::new();
    if let Some(t) = &team {
        for seat in &t.file.seats {
            let r = host.resolve(&seat.cli, &t.file.profiles, &available);
            seats.push((seat.name.clone(), seat.cli.clone(), t.file.profiles.get(&seat.cli).cloned(), r));
        }
    }
    if json {
        let profiles: Vec<Value> = available
            .iter()
            .map(|a| {
                json!({
                    "id": a.id,
                    "version": a.version,
                    "source": source_json(&a.source),
                    "path": a.source.path().map(|p| p.display().to_string()),
                    "valid": a.validity.is_ok(),
                    "why": a.validity.as_ref().err(),
                })
            })
            .collect();
        let team_doc = team.as_ref().map(|t| {
            json!({
                "project": t.file.project,
                "session": t.file.session,
                "file": t.path.display().to_string(),
                "pins": t.file.profiles,
                "seats": seats.iter().map(|(name, cli, pin, r)| json!({
                    "seat": name,
                    "cli": cli,
                    "pin": pin,
                    "profile": r.as_ref().ok().map(|a| json!({
                        "id": a.id, "version": a.version, "source": source_json(&a.source),
                        "path": a.source.path().map(|p| p.display().to_string()),
                    })),
                    "refusal": r.as_ref().err().map(|e| e.message.clone()),
                })).collect::<Vec<_>>(),
            })
        });
        let doc = json!({
            "schema": schema("team.profile.list"),
            "format": 1,
            "profiles": profiles,
            "team": team_doc,
        });
        return Ok((render_json(&doc), 0));
    }
    let mut out = String::new();
    if let Some(t) = &team {
        out.push_str(&outcome::context_line(&t.file.project, &t.file.session));
    }
    let mut rows = vec![vec!["PROFILE".to_string(), "VERSION".into(), "SOURCE".into(), "STATUS".into()]];
    for a in &available {
        rows.push(vec![
            a.id.clone(),
            a.version.clone(),
            a.source.to_string(),
            match &a.validity {
                Ok(()) => "ok".to_string(),
                Err(why) => format!("invalid: {why}"),
            },
        ]);
    }
    out.push_str(&table(&rows));
    if team.is_some() {
        out.push('\n');
        let mut rows = vec![vec!["SEAT".to_string(), "CLI".into(), "PIN".into(), "PROFILE".into()]];
        for (name, cli, pin, r) in &seats {
            rows.push(vec![
                name.clone(),
                cli.clone(),
                pin.clone().map(|p| format!("\"{p}\"")).unwrap_or_else(|| "-".into()),
                match r {
                    Ok(a) => format!("{} {} ({})", a.id, a.version, a.source),
                    Err(e) => e.message.clone(),
                },
            ]);
        }
        out.push_str(&table(&rows));
    }
    Ok((out, 0))
}

// ---------------------------------------------------------------- check

/// A blank pane, the smoke screen every profile must read without trapping.
fn smoke_screen() -> Screen {
    let blank = vec![String::new(); 40];
    Screen { styled: blank.clone(), plain: blank, title: String::new(), cols: 120, rows: 40, recent: Vec::new() }
}

/// Whether `path` is `<config>/profiles/<id>/<version>.wasm`; then the id and version the
/// host will hold the component to.
fn dropped_in_name(config: &Path, path: &Path) -> Option<(String, String)> {
    let root = config.join("profiles").canonicalize().ok()?;
    let full = path.canonicalize().ok()?;
    let rel = full.strip_prefix(&root).ok()?;
    let parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    match parts.as_slice() {
        [id, file] => Some((id.clone(), file.strip_suffix(".wasm")?.to_string())),
        _ => None,
    }
}

/// `None` when `bytes` begin as a WebAssembly component does; else what they are instead.
fn not_a_component(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0, b'a', b's', b'm', 0x0d, 0x00, 0x01, 0x00, ..] => None,
        [0, b'a', b's', b'm', _, _, 0x00, 0x00, ..] => Some("a WebAssembly core module, not a component"),
        [0, b'a', b's', b'm', ..] => Some("a WebAssembly file of a version this host does not read"),
        _ => Some("not a WebAssembly component"),
    }
}

fn check(host: &ProfileHost, file: &Path, json: bool) -> outcome::Result<(String, i32)> {
    if !file.exists() {
        return Err(TeamError::usage(format!("{}: no such file", file.display())));
    }
    // Something that is not a component at all is said in one line, before wasmtime reads it.
    let mut head = [0u8; 8];
    let n = std::fs::File::open(file).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    if let Some(what) = not_a_component(&head[..n]) {
        return Err(TeamError::refused(format!(
            "{} is {what}: a profile is a component built for wasm32-wasip2 (see docs/writing-a-profile.md)",
            file.display()
        )));
    }
    let mut steps: Vec<(&str, Result<String, String>)> = Vec::new();
    let mut profile: Option<Profile> = None;
    match host.load_file(file) {
        Ok(p) => {
            let compose = if p.line().has_compose() {
                format!(" and {}", crate::profiles::v0_2::COMPOSE_EXPORT)
            } else {
                String::new()
            };
            steps.push(("load", Ok(format!("imports allowed, exports {}{compose}", p.line().export()))));
            profile = Some(p);
        }
        Err(e) => {
            let m = e.message.strip_prefix("refused: ").unwrap_or(&e.message);
            let m = m.strip_prefix(&format!("{} is not a usable profile: ", file.display())).unwrap_or(m);
            steps.push(("load", Err(m.to_string())));
        }
    }
    let mut smoke: Option<Reading> = None;
    if let Some(p) = profile.as_mut() {
        let d = p.describe().clone();
        let name_check = match dropped_in_name(host.config_dir(), file) {
            Some((id, version))
                if id != d.id
                    || crate::profiles::pins::Version::parse(&version).ok()
                        != crate::profiles::pins::Version::parse(&d.version).ok() =>
            {
                Err(format!("describe() says {} {} but it is installed as {id}/{version}.wasm", d.id, d.version))
            }
            _ => Ok(format!(
                "{} {} (clis: {}; max trigger {}; enter pause {} ms)",
                d.id,
                d.version,
                if d.clis.is_empty() { "none".to_string() } else { d.clis.join(", ") },
                d.max_trigger,
                d.enter_pause_ms
            )),
        };
        steps.push(("describe", name_check));
        let s = smoke_screen();
        let r = p.classify(&s).and_then(|r| {
            p.shows_drop_read(&s, "00000000-0000-4000-8000-000000000000", "read the drop")?;
            p.transcript_shows_drop_read(&[], "00000000-0000-4000-8000-000000000000")?;
            Ok(r)
        });
        match r {
            Ok(r) => {
                steps.push(("smoke", Ok(format!("a blank 120x40 screen reads as {}", r.state))));
                smoke = Some(r);
            }
            Err(e) => steps.push(("smoke", Err(e.message))),
        }
    }
    let failed = steps.iter().find_map(|(_, r)| r.as_ref().err().cloned());
    let ok = failed.is_none();
    let verdict = match (&failed, &profile) {
        (None, Some(p)) => {
            format!("ok: {} can be used as the {} profile {}", file.display(), p.describe().id, p.describe().version)
        }
        (Some(why), _) => format!("refused: {} cannot be used: {why}", file.display()),
        (None, None) => unreachable!("a load error is a failed step"),
    };
    let code = if ok { 0 } else { 1 };
    if json {
        let doc = json!({
            "schema": schema("team.profile.check"),
            "format": 1,
            "file": file.display().to_string(),
            "ok": ok,
            "verdict": verdict,
            "steps": steps.iter().map(|(name, r)| json!({
                "step": name,
                "ok": r.is_ok(),
                "detail": match r { Ok(s) | Err(s) => s },
            })).collect::<Vec<_>>(),
            "profile": profile.as_ref().map(|p| {
                let d = p.describe();
                json!({
                    "id": d.id, "version": d.version, "sha256": p.sha256(), "cache": p.cache_use().word(),
                    "interface": p.line().export(),
                    "clis": d.clis, "process_names": d.process_names, "native_channel": d.native_channel,
                    "max_trigger": d.max_trigger, "working_hints": d.working_hints, "enter_pause_ms": d.enter_pause_ms,
                    "queues_while_working": d.queues_while_working, "forbidden_starts": d.forbidden_starts,
                    "has_compose": d.has_compose, "transcript_patterns": d.transcript_patterns, "features": d.features,
                })
            }),
            "smoke": smoke.as_ref().map(reading_json),
        });
        return Ok((render_json(&doc), code));
    }
    let mut out = String::new();
    for (name, r) in &steps {
        match r {
            Ok(s) => out.push_str(&labelled(name, &format!("ok: {s}"))),
            Err(s) => out.push_str(&labelled(name, &format!("failed: {s}"))),
        }
    }
    out.push_str(&labelled("verdict", &verdict));
    Ok((out, code))
}

// ---------------------------------------------------------------- explain

fn parse_size(s: &str) -> outcome::Result<(u32, u32)> {
    let bad = || TeamError::usage(format!("--size {s}: expected COLSxROWS, such as 120x40"));
    let (c, r) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let c: u32 = c.trim().parse().map_err(|_| bad())?;
    let r: u32 = r.trim().parse().map_err(|_| bad())?;
    if c == 0 || r == 0 {
        return Err(bad());
    }
    Ok((c, r))
}

fn explain(
    ctx: &Ctx,
    cli: &str,
    screen_path: &Path,
    title: Option<&str>,
    size: Option<&str>,
    file: Option<&Path>,
    json: bool,
) -> outcome::Result<(String, i32)> {
    let host = &ProfileHost::new(&ctx.paths);
    let size = size.map(parse_size).transpose()?;
    let bytes = std::fs::read(screen_path).map_err(|e| TeamError::usage(format!("{}: {e}", screen_path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut screen = Screen::from_ansi(&text, title.unwrap_or(""));
    if let Some((c, r)) = size {
        screen.cols = c;
        screen.rows = r;
    }
    let mut profile = match file {
        Some(f) => {
            let p = host.load_file(f)?;
            if p.describe().id != cli {
                return Err(TeamError::refused(format!(
                    "{} is the {} profile, not a {cli} profile",
                    f.display(),
                    p.describe().id
                )));
            }
            p
        }
        None => {
            let pins = match current_team(ctx)? {
                Some(t) => t.file.profiles,
                None => BTreeMap::new(),
            };
            host.load(cli, &pins)?
        }
    };
    let reading = profile.classify(&screen)?;
    let d = profile.describe().clone();
    if json {
        let doc = json!({
            "schema": schema("team.profile.explain"),
            "format": 1,
            "profile": {
                "id": d.id,
                "version": d.version,
                "source": source_json(profile.source()),
                "path": profile.source().path().map(|p| p.display().to_string()),
                "pin": profile.pin(),
            },
            "screen": {
                "file": screen_path.display().to_string(),
                "cols": screen.cols,
                "rows": screen.rows,
                "title": screen.title,
            },
            "reading": reading_json(&reading),
            "why": reading.why,
        });
        return Ok((render_json(&doc), 0));
    }
    let mut out = format!(
        "{} {} ({}) reads {}:\n",
        one_line(&d.id),
        one_line(&d.version),
        one_line(&profile.source().to_string()),
        one_line(&screen_path.display().to_string())
    );
    out.push_str(&labelled("state", &reading.state.to_string()));
    out.push_str(&labelled("composer", &reading.composer.to_string()));
    for q in &reading.queued {
        out.push_str(&labelled("queued", &format!("\"{q}\"")));
    }
    out.push_str(&labelled("error", reading.last_error.map(|e| e.label()).unwrap_or("none")));
    out.push_str(&labelled("why", &reading.why));
    for n in profile.notes() {
        out.push_str(&labelled("note", n));
    }
    Ok((out, 0))
}

/// A reading as `--json` documents carry it.
pub(super) fn reading_json(r: &Reading) -> Value {
    let dialog = r.state.dialog();
    json!({
        "state": r.state.word(),
        "hint": r.state.hint(),
        "dialog": dialog.map(|d| d.kind.word()),
        "dialog_other": dialog.and_then(|d| d.kind.other_name()),
        "dialog_title": dialog.map(|d| d.title.clone()),
        "unknown": match &r.state { State::Unknown(w) => Some(w.clone()), _ => None },
        "composer": {
            "kind": r.composer.word(),
            "text": r.composer.text(),
        },
        "queued": r.queued,
        "last_error": r.last_error.map(|e| e.word()),
        "why": r.why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("120x40").unwrap(), (120, 40));
        assert!(parse_size("120").is_err());
        assert!(parse_size("0x4").is_err());
    }

    #[test]
    fn table_pads_all_but_the_last_column() {
        let t = table(&[vec!["a".into(), "bb".into(), "c".into()], vec!["ddd".into(), "e".into(), "".into()]]);
        assert_eq!(t, "a    bb  c\nddd  e\n");
    }
}
