//! profile-artifacts: the bundled profile components, embedded as bytes.
//!
//! `build.rs` builds every profile crate for `wasm32-wasip2` (profile `guest`) with a nested
//! cargo and a separate target dir, and computes each component's sha256 at build time. The
//! host depends on this crate normally: the bundled components ship inside the `team` binary.
//! With feature `test-components` (every test build of the host), [`hostile`] holds
//! deliberately misbehaving components for the host's sandbox tests, [`legacy`] the codex
//! profile built from the frozen `wit/v0.1`, and [`TEMPLATE`] the template crate; an install
//! builds none of them.
//!
//! Invariant: `BUNDLED[i].id`/`version`/`description` equal what that component's
//! `describe()` returns (a test below checks them against the native crates; the host's tests
//! against the components themselves), and `sha256` is the digest of `bytes`.

/// One bundled profile component.
#[derive(Debug, Clone, Copy)]
pub struct Bundled {
    /// The profile id (`claude-code`, `codex`, `cursor`, `agy`, `grok-cli`, `grok`, `gemini-cli`,
    /// `qwen-code`, `copilot`, `opencode`, `codex-cloud`).
    pub id: &'static str,
    /// The profile's own version.
    pub version: &'static str,
    /// The component (`wasm32-wasip2`, component model).
    pub bytes: &'static [u8],
    /// Lowercase hex sha256 of `bytes`, computed at build time.
    pub sha256: &'static str,
    /// What the component's `describe()` returns, as a JSON object (WIT `description`'s
    /// fields, `_` for `-`), taken from the profile crate's own `describe()` at build time.
    pub description: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The bundled profile with this id.
pub fn bundled(id: &str) -> Option<&'static Bundled> {
    BUNDLED.iter().find(|b| b.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_component(bytes: &[u8]) -> bool {
        // `\0asm` + version 0x0d + layer 1: a component, not a core module (layer 0).
        bytes.len() > 8 && &bytes[..4] == b"\0asm" && bytes[4..8] == [0x0d, 0x00, 0x01, 0x00]
    }

    /// The released WIT lines are frozen: every file of a line named in `wit/released.sha256`
    /// keeps the digest recorded there, and the line holds no file that is not recorded.
    #[test]
    fn released_wit_files_never_change() {
        use sha2::Digest;
        use std::fmt::Write;
        let wit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wit");
        let listed = std::fs::read_to_string(wit.join("released.sha256")).unwrap();
        let mut lines = std::collections::BTreeSet::new();
        let mut files = std::collections::BTreeSet::new();
        for l in listed.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (digest, path) = l.split_once("  ").expect("`<sha256>  <path>`");
            let bytes = std::fs::read(wit.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut hex = String::new();
            for b in sha2::Sha256::digest(&bytes) {
                write!(hex, "{b:02x}").unwrap();
            }
            assert_eq!(
                hex, digest,
                "wit/{path} is part of a released line and changed: released WIT files never change (wit/README.md); put the change in the next line's folder"
            );
            lines.insert(path.split('/').next().unwrap().to_string());
            files.insert(path.to_string());
        }
        assert!(lines.contains("v0.1"), "team:profile@0.1.0 is released");
        for line in &lines {
            for e in std::fs::read_dir(wit.join(line)).unwrap() {
                let name = format!("{line}/{}", e.unwrap().file_name().to_string_lossy());
                assert!(files.contains(&name), "wit/{name} was added to the released line {line}");
            }
        }
    }

    #[test]
    fn ids_and_versions_match_the_native_describe() {
        let native = [
            profile_claude_code::describe(),
            profile_codex::describe(),
            profile_cursor::describe(),
            profile_agy::describe(),
            profile_grok_cli::describe(),
            profile_grok::describe(),
            profile_gemini_cli::describe(),
            profile_qwen_code::describe(),
            profile_copilot::describe(),
            profile_opencode::describe(),
            profile_codex_cloud::describe(),
        ];
        assert_eq!(BUNDLED.len(), native.len());
        for (b, d) in BUNDLED.iter().zip(native.iter()) {
            assert_eq!(b.id, d.id);
            assert_eq!(b.version, d.version);
            let j: serde_json::Value = serde_json::from_str(b.description).unwrap();
            assert_eq!(j["id"], d.id.as_str());
            assert_eq!(j["native_channel"], d.native_channel, "{}", b.id);
            assert_eq!(j["has_compose"], d.has_compose, "{}", b.id);
            assert_eq!(j["max_trigger"], d.max_trigger, "{}", b.id);
        }
    }

    #[test]
    fn every_fixture_has_a_profile_and_reads_as_its_meta_says_natively() {
        use profile_kit::fixtures;
        let all = fixtures::all().unwrap();
        let mut failures = Vec::new();
        let mut per_cli = std::collections::BTreeMap::<String, usize>::new();
        for f in &all {
            let classify: fn(&profile_kit::Screen) -> profile_kit::Reading = match f.cli.as_str() {
                "claude-code" => profile_claude_code::classify,
                "codex" => profile_codex::classify,
                "cursor" => profile_cursor::classify,
                "agy" => profile_agy::classify,
                "grok-cli" => profile_grok_cli::classify,
                "gemini-cli" => profile_gemini_cli::classify,
                "qwen-code" => profile_qwen_code::classify,
                "copilot" => profile_copilot::classify,
                "opencode" => profile_opencode::classify,
                "grok" => profile_grok::classify,
                "codex-cloud" => profile_codex_cloud::classify,
                other => panic!("{}: no profile reads cli {other:?}", f.label()),
            };
            failures.extend(fixtures::conformance(std::slice::from_ref(f), classify));
            *per_cli.entry(f.cli.clone()).or_default() += 1;
        }
        assert!(failures.is_empty(), "{} of {} misread:\n{}", failures.len(), all.len(), failures.join("\n"));
        // Every profile is specified by screens; the three real CLIs by real ones.
        for b in BUNDLED {
            assert!(per_cli.get(b.id).copied().unwrap_or(0) >= 5, "{}: too few fixtures ({per_cli:?})", b.id);
        }
        // Real captures (grok-cli 0.0.34's seven live ones, Claude Code's two of a team_add call and
        // Qwen Code's untrusted folder among them), and the screens derived
        // from real ones (re-wrapped to narrow panes).
        assert_eq!(all.iter().filter(|f| !f.synthetic && f.derived_from.is_none()).count(), 205, "{per_cli:?}");
        assert!(all.iter().filter(|f| f.derived_from.is_some()).count() >= 15, "{per_cli:?}");
    }

    #[test]
    fn plain_rows_alone_read_the_same() {
        // A multiplexer may give text only: placeholders are then recognised by their words. A
        // screen whose meta says what it reads as `without_styles` (a ghost told apart by its
        // colour alone, such as Qwen's next-prompt suggestion) must read so: a draft, nothing
        // typed into it, never an empty box.
        use profile_kit::fixtures;
        let mut failures = Vec::new();
        for f in fixtures::all().unwrap().iter().filter(|f| !f.synthetic) {
            let mut expect = f.expect.clone();
            if let Some(text) = f.meta["without_styles"]["composer"].as_str() {
                expect.composer = Some(Some(text.to_string()));
            }
            let mut s = f.screen.clone();
            s.styled.clear();
            let classify: fn(&profile_kit::Screen) -> profile_kit::Reading = match f.cli.as_str() {
                "claude-code" => profile_claude_code::classify,
                "codex" => profile_codex::classify,
                "grok-cli" => profile_grok_cli::classify,
                "gemini-cli" => profile_gemini_cli::classify,
                "qwen-code" => profile_qwen_code::classify,
                "copilot" => profile_copilot::classify,
                "opencode" => profile_opencode::classify,
                "codex-cloud" => profile_codex_cloud::classify,
                _ => continue,
            };
            if let Err(m) = fixtures::check(&expect, &classify(&s)) {
                failures.push(format!("{}: {m}", f.label()));
            }
        }
        assert!(failures.is_empty(), "{} misread from plain rows:\n{}", failures.len(), failures.join("\n"));
    }

    /// A row re-encoded the way herdr 0.7.1's `pane read --format ansi` writes it: every styled
    /// run as `ESC[0m ESC[<attrs>m … ESC[0m`, no state carried between rows.
    fn herdr_row(cells: &[profile_kit::ansi::Cell]) -> String {
        use profile_kit::ansi::{Color, Style};
        fn color(c: Color, base: u16, out: &mut Vec<String>) {
            match c {
                Color::Default => {}
                Color::Idx(i) if i < 8 => out.push((base + i as u16).to_string()),
                Color::Idx(i) => out.push(format!("{};5;{i}", base + 8)),
                Color::Rgb(r, g, b) => out.push(format!("{};2;{r};{g};{b}", base + 8)),
            }
        }
        let attrs = |st: &Style| {
            let mut a = Vec::new();
            for (on, code) in
                [(st.bold, "1"), (st.faint, "2"), (st.italic, "3"), (st.underline, "4"), (st.reverse, "7")]
            {
                if on {
                    a.push(code.to_string());
                }
            }
            color(st.fg, 30, &mut a);
            color(st.bg, 40, &mut a);
            a.join(";")
        };
        let mut out = String::new();
        let mut i = 0;
        while i < cells.len() {
            let st = cells[i].style;
            let j = cells[i..].iter().position(|c| c.style != st).map(|k| i + k).unwrap_or(cells.len());
            let text: String = cells[i..j].iter().map(|c| c.ch).collect();
            if st == Style::default() {
                out.push_str(&text);
            } else {
                out.push_str(&format!("\x1b[0m\x1b[{}m{text}\x1b[0m", attrs(&st)));
            }
            i = j;
        }
        out
    }

    #[test]
    fn every_real_screen_reads_the_same_in_herdr_ansi_form() {
        use profile_kit::fixtures;
        let mut failures = Vec::new();
        for f in fixtures::all().unwrap().iter().filter(|f| !f.synthetic) {
            let classify: fn(&profile_kit::Screen) -> profile_kit::Reading = match f.cli.as_str() {
                "claude-code" => profile_claude_code::classify,
                "codex" => profile_codex::classify,
                "grok-cli" => profile_grok_cli::classify,
                "gemini-cli" => profile_gemini_cli::classify,
                "qwen-code" => profile_qwen_code::classify,
                "copilot" => profile_copilot::classify,
                "opencode" => profile_opencode::classify,
                "codex-cloud" => profile_codex_cloud::classify,
                _ => continue,
            };
            let mut s = f.screen.clone();
            let cells = profile_kit::ansi::parse_rows(&f.screen.styled);
            s.styled = cells.iter().map(|c| herdr_row(c)).collect();
            // The re-encoding keeps every cell's style (so faint placeholders are still faint).
            assert_eq!(profile_kit::ansi::parse_rows(&s.styled), cells, "{}", f.label());
            // herdr's text form trims trailing spaces, like capture-pane -p.
            s.plain = s.plain.iter().map(|r| r.trim_end_matches(' ').to_string()).collect();
            if let Err(m) = fixtures::check(&f.expect, &classify(&s)) {
                failures.push(format!("{}: {m}", f.label()));
            }
        }
        assert!(failures.is_empty(), "{} misread in herdr's form:\n{}", failures.len(), failures.join("\n"));
    }

    #[test]
    fn descriptions_say_what_the_issue_measured() {
        let by_id = |id: &str| -> profile_kit::Description {
            match id {
                "claude-code" => profile_claude_code::describe(),
                "codex" => profile_codex::describe(),
                "cursor" => profile_cursor::describe(),
                "agy" => profile_agy::describe(),
                "grok-cli" => profile_grok_cli::describe(),
                "grok" => profile_grok::describe(),
                "gemini-cli" => profile_gemini_cli::describe(),
                "qwen-code" => profile_qwen_code::describe(),
                "copilot" => profile_copilot::describe(),
                "opencode" => profile_opencode::describe(),
                "codex-cloud" => profile_codex_cloud::describe(),
                other => panic!("{other}"),
            }
        };
        for b in BUNDLED {
            let d = by_id(b.id);
            assert_eq!(
                d.native_channel,
                b.id == "claude-code",
                "{}: only Claude Code carries the native channel",
                b.id
            );
            // Only a profile that exports compose says so; it takes no trigger line.
            assert_eq!(d.has_compose, b.id == "codex-cloud", "{}", b.id);
            assert!(d.max_trigger >= 100 || d.has_compose, "{}", b.id);
            assert!(!d.clis.is_empty() && !d.process_names.is_empty() && !d.working_hints.is_empty(), "{}", b.id);
            // A pattern names every session's file: a wildcard in the file name, or in the
            // session's folder (Copilot: `session-state/<uuid>/events.jsonl`).
            for p in &d.transcript_patterns {
                let wild = p.split('/').skip(1).any(|s| s.contains('*') || s.starts_with("{yyyy"));
                assert!(p.starts_with("{home}/") && p.ends_with(".jsonl") && wild, "{}: {p}", b.id);
            }
        }
        let codex = by_id("codex");
        assert!(codex.enter_pause_ms >= 50, "Codex turns a same-burst Enter into a newline");
        assert!(codex.queues_while_working);
        // Gemini CLI keeps text and Enter typed in one burst as a draft (gemini-cli-0.61.0
        // `idle-typed-burst`); a lone Enter 0.3 s later submitted it.
        assert!(by_id("gemini-cli").enter_pause_ms >= 300, "Gemini CLI swallows a same-burst Enter");
        let claude = by_id("claude-code");
        assert!(claude.queues_while_working);
        for w in ["!", "/"] {
            assert!(claude.forbidden_starts.iter().any(|f| f == w), "claude-code must refuse `{w}`");
        }
        assert_eq!(claude.transcript_patterns, ["{home}/.claude/projects/{cwd-dashed}/*.jsonl"]);
        assert_eq!(codex.transcript_patterns, ["{home}/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl"]);
        let grok_cli = by_id("grok-cli");
        assert!(!grok_cli.queues_while_working, "grok-cli starts a second turn at once");
        for w in ["ls", "cat", "cd", "echo", "rm"] {
            assert!(grok_cli.forbidden_starts.iter().any(|f| f == w), "grok-cli runs `{w} …` as a shell command");
        }
        assert!(grok_cli.transcript_patterns.is_empty(), "grok-cli keeps no history");
    }

    #[test]
    fn every_artifact_is_a_component_with_its_digest() {
        if std::env::var("TEAM_SKIP_WASM_BUILD").is_ok() {
            return;
        }
        use sha2::Digest;
        use std::fmt::Write;
        for b in BUNDLED {
            assert!(is_component(b.bytes), "{} is not a wasm component", b.id);
            assert_eq!(b.sha256.len(), 64);
            assert!(b.bytes.len() > 1000);
        }
        for (name, bytes) in [
            ("endless-loop", hostile::ENDLESS_LOOP),
            ("huge-alloc", hostile::HUGE_ALLOC),
            ("trap", hostile::TRAP),
            ("wasi-import", hostile::WASI_IMPORT),
            ("wrong-world", hostile::WRONG_WORLD),
            ("compose-bad-key", hostile::COMPOSE_BAD_KEY),
            ("compose-control", hostile::COMPOSE_CONTROL),
            ("compose-endless", hostile::COMPOSE_ENDLESS),
            ("compose-spin", hostile::COMPOSE_SPIN),
            ("compose-lies", hostile::COMPOSE_LIES),
            ("long-pause", hostile::LONG_PAUSE),
            ("walk-patterns", hostile::WALK_PATTERNS),
            ("codex built from wit/v0.1", legacy::CODEX_V0_1),
            ("the template", TEMPLATE),
        ] {
            assert!(is_component(bytes), "hostile {name} is not a wasm component");
        }
        // Each digest is of its bytes, recomputed here.
        for b in BUNDLED {
            let mut hex = String::new();
            for byte in sha2::Sha256::digest(b.bytes) {
                write!(hex, "{byte:02x}").unwrap();
            }
            assert_eq!(hex, b.sha256, "{}: stale digest", b.id);
        }
        assert!(bundled("codex").is_some() && bundled("nope").is_none());
    }
}
