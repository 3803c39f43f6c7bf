use super::*;

fn team(d: &Path) -> Loaded {
    std::fs::create_dir_all(d.join(".agents")).unwrap();
    std::fs::create_dir_all(d.join(".git")).unwrap();
    std::fs::write(d.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(
        d.join(".agents/team.yaml"),
        "format: 1\nproject: beacon\nteam: beacon\nsession: beacon\nseats:\n  - name: keeper\n    cli: claude-code\n    leads: true\n  - name: rev\n    cli: codex\n  - name: cur\n    cli: cursor\n",
    )
    .unwrap();
    crate::team_file::load(&d.join(".agents/team.yaml")).unwrap()
}

fn format_of(cli: &str) -> Option<HookFormat> {
    match cli {
        "claude-code" => Some(HookFormat::ClaudeSettings),
        "codex" => Some(HookFormat::CodexHooksJson),
        _ => None,
    }
}

fn words(rows: &[Row]) -> Vec<(String, &'static str, Option<&'static str>)> {
    rows.iter().map(|r| (r.seat.clone(), r.state.word(), r.done.map(Done::word))).collect()
}

#[test]
fn install_status_remove_round_trip_keeping_the_user_s_own() {
    let d = tempfile::tempdir().unwrap();
    let l = team(d.path());
    let root = &l.root;
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let mine = r#"{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}"#;
    std::fs::write(root.join(".claude/settings.local.json"), mine).unwrap();
    std::fs::create_dir_all(root.join(".codex")).unwrap();
    std::fs::write(root.join(".codex/config.toml"), "# mine\nmodel = \"m\"\n").unwrap();

    let st = run(&l, &[], "/bin/team", Action::Status, format_of).unwrap();
    assert_eq!(
        words(&st),
        [("keeper".into(), "missing", None), ("rev".into(), "missing", None), ("cur".into(), "unsupported", None)]
    );
    let inst = run(&l, &[], "/bin/team", Action::Install, format_of).unwrap();
    assert_eq!(words(&inst)[0], ("keeper".into(), "missing", Some("written")));
    let st = run(&l, &[], "/bin/team", Action::Status, format_of).unwrap();
    assert_eq!(words(&st)[..2], [("keeper".into(), "installed", None), ("rev".into(), "installed", None)]);
    assert!(installed(root, HookFormat::CodexHooksJson));
    assert_eq!(state(root, HookFormat::ClaudeSettings, "/other/team"), State::Stale { command: "/bin/team".into() });
    let settings = std::fs::read_to_string(root.join(".claude/settings.local.json")).unwrap();
    assert!(settings.contains("\"command\": \"/bin/team hook post-tool-use\""), "{settings}");
    assert!(settings.contains("say done") && settings.contains("Bash(ls)"));
    let toml = std::fs::read_to_string(root.join(".codex/config.toml")).unwrap();
    assert!(toml.starts_with("# mine\nmodel = \"m\"\n") && toml.contains("codex_hooks = true"), "{toml}");
    assert_eq!(
        words(&run(&l, &["keeper".into()], "/bin/team", Action::Install, format_of).unwrap()),
        [("keeper".into(), "installed", Some("unchanged"))]
    );

    let rm = run(&l, &[], "/bin/team", Action::Remove, format_of).unwrap();
    assert_eq!(words(&rm)[1], ("rev".into(), "installed", Some("removed")));
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".claude/settings.local.json")).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(mine).unwrap());
    assert_eq!(std::fs::read_to_string(root.join(".codex/config.toml")).unwrap(), "# mine\nmodel = \"m\"\n");
    // the file install made holds an empty object once team's hooks are out
    assert_eq!(std::fs::read_to_string(root.join(".codex/hooks.json")).unwrap(), "{\n}\n");
}

#[test]
fn a_broken_or_linked_file_is_refused_and_left_as_it_is() {
    let d = tempfile::tempdir().unwrap();
    let l = team(d.path());
    std::fs::create_dir_all(l.root.join(".claude")).unwrap();
    std::fs::write(l.root.join(".claude/settings.local.json"), "{ not json").unwrap();
    let e = run(&l, &["keeper".into()], "/bin/team", Action::Install, format_of).unwrap_err();
    assert!(e.message().contains(".claude/settings.local.json is not JSON"), "{}", e.message());
    assert!(e.message().ends_with("nothing was written"), "{}", e.message());
    assert_eq!(std::fs::read_to_string(l.root.join(".claude/settings.local.json")).unwrap(), "{ not json");
    let st = run(&l, &["keeper".into()], "/bin/team", Action::Status, format_of).unwrap();
    assert_eq!(st[0].state.word(), "unreadable");
    // JSON whose edit could not be told safe: a key on team's way named twice, a comment
    for (mine, why) in [
        ("{\"hooks\": {\"Stop\": []},\n \"hooks\": {}}\n", "names hooks twice"),
        ("{\"hooks\": {} // mine\n}\n", "is not JSON"),
    ] {
        std::fs::write(l.root.join(".claude/settings.local.json"), mine).unwrap();
        let e = run(&l, &["keeper".into()], "/bin/team", Action::Install, format_of).unwrap_err();
        assert!(e.message().contains(why) && e.message().ends_with("nothing was written"), "{}", e.message());
        assert_eq!(std::fs::read_to_string(l.root.join(".claude/settings.local.json")).unwrap(), mine);
    }

    let elsewhere = d.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, l.root.join(".codex")).unwrap();
    assert!(run(&l, &["rev".into()], "/bin/team", Action::Install, format_of).is_err());
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert!(run(&l, &["nobody".into()], "/bin/team", Action::Status, format_of)
        .unwrap_err()
        .message()
        .contains("is not a seat of beacon"));
}

#[test]
fn codex_without_its_switch_is_incomplete() {
    let d = tempfile::tempdir().unwrap();
    let l = team(d.path());
    run(&l, &["rev".into()], "/bin/team", Action::Install, format_of).unwrap();
    std::fs::write(l.root.join(".codex/config.toml"), "").unwrap();
    let s = state(&l.root, HookFormat::CodexHooksJson, "/bin/team");
    assert_eq!(s.word(), "incomplete");
    assert!(s.detail(Some(HookFormat::CodexHooksJson)).contains("codex_hooks = true"), "{}", s.detail(None));
    assert!(!s.runs());
}

#[test]
fn the_bundled_profiles_name_their_hook_formats() {
    let d = tempfile::tempdir().unwrap();
    let host = crate::profiles::ProfileHost::new(&crate::paths::Paths::under(d.path()));
    let none = std::collections::BTreeMap::new();
    let of = |cli: &str| host.description(cli, &none).map(|(d, _)| HookFormat::from_features(&d.features));
    assert_eq!(
        of("claude-code").unwrap(),
        Some(HookFormat::ClaudeSettings),
        "{:?}",
        host.description("claude-code", &none).map(|d| d.0.features)
    );
    assert_eq!(of("codex").unwrap(), Some(HookFormat::CodexHooksJson));
    assert_eq!(of("gemini-cli").unwrap(), Some(HookFormat::GeminiSettings));
    assert_eq!(of("qwen-code").unwrap(), Some(HookFormat::QwenSettings));
    assert_eq!(of("copilot").unwrap(), Some(HookFormat::CopilotSettings));
    assert_eq!(of("opencode").unwrap(), None);
    assert_eq!(of("cursor").unwrap(), None);
}

/// issue 29: `hooks remove` re-indented the user's JSON (content and order kept, every byte of
/// layout rewritten two-space pretty). Install then remove gives the file back byte for byte,
/// and install only adds.
#[test]
fn remove_after_install_gives_back_the_user_s_file_byte_for_byte() {
    let d = tempfile::tempdir().unwrap();
    let l = team(d.path());
    std::fs::create_dir_all(l.root.join(".claude")).unwrap();
    std::fs::create_dir_all(l.root.join(".codex")).unwrap();
    let claude = "{\n\t\"permissions\": {\"allow\": [\"Bash(ls)\"]},\n\t\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}\n}";
    let codex = "{\r\n    \"hooks\" : {\r\n        \"PreToolUse\" : [ ]\r\n    }\r\n}\r\n";
    std::fs::write(l.root.join(".claude/settings.local.json"), claude).unwrap();
    std::fs::write(l.root.join(".codex/hooks.json"), codex).unwrap();
    run(&l, &[], "/bin/team", Action::Install, format_of).unwrap();
    let installed = std::fs::read_to_string(l.root.join(".claude/settings.local.json")).unwrap();
    assert!(installed.starts_with("{\n\t\"permissions\": {\"allow\": [\"Bash(ls)\"]},\n\t\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}"), "{installed}");
    run(&l, &[], "/bin/team", Action::Remove, format_of).unwrap();
    assert_eq!(std::fs::read_to_string(l.root.join(".claude/settings.local.json")).unwrap(), claude);
    assert_eq!(std::fs::read_to_string(l.root.join(".codex/hooks.json")).unwrap(), codex);
}

/// Gemini CLI's and Qwen Code's hooks live in their settings.json beside the user's other keys
/// (the MCP servers among them): Gemini's under its own event names, Qwen's under Claude's; a
/// Claude-named team entry in Gemini's file is not counted as Gemini's.
#[test]
fn gemini_and_qwen_settings_take_team_s_hooks_under_their_own_event_names() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".agents")).unwrap();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    std::fs::write(
        d.path().join(".agents/team.yaml"),
        "format: 1\nproject: beacon\nteam: beacon\nsession: beacon\nseats:\n  - name: g\n    cli: gemini-cli\n    leads: true\n  - name: q\n    cli: qwen-code\n",
    )
    .unwrap();
    let l = crate::team_file::load(&d.path().join(".agents/team.yaml")).unwrap();
    let of = |cli: &str| match cli {
        "gemini-cli" => Some(HookFormat::GeminiSettings),
        _ => Some(HookFormat::QwenSettings),
    };
    let gemini = "{\n  \"mcpServers\": {\"x\": {\"command\": \"x\"}},\n  \"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}]}\n}\n";
    std::fs::create_dir_all(l.root.join(".gemini")).unwrap();
    std::fs::write(l.root.join(".gemini/settings.json"), gemini).unwrap();
    let rows = run(&l, &[], "/bin/team", Action::Install, of).unwrap();
    assert_eq!(words(&rows), [("g".into(), "missing", Some("written")), ("q".into(), "missing", Some("written"))]);
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(l.root.join(".gemini/settings.json")).unwrap()).unwrap();
    assert_eq!(g["hooks"]["AfterTool"][0]["hooks"][0]["command"], "/bin/team hook post-tool-use");
    assert_eq!(g["hooks"]["AfterTool"][0]["matcher"], "*");
    assert_eq!(g["hooks"]["AfterAgent"][0]["hooks"][0]["command"], "/bin/team hook stop");
    assert_eq!(g["hooks"]["BeforeAgent"][0]["hooks"][0]["command"], "/bin/team hook user-prompt-submit");
    assert_eq!(g["hooks"]["BeforeTool"][0]["hooks"][0]["command"], "lint");
    assert_eq!(g["mcpServers"]["x"]["command"], "x");
    let q: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(l.root.join(".qwen/settings.json")).unwrap()).unwrap();
    assert_eq!(q["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "/bin/team hook post-tool-use");
    assert_eq!(q["hooks"]["Stop"][0]["hooks"][0]["command"], "/bin/team hook stop");
    assert_eq!(state(&l.root, HookFormat::GeminiSettings, "/bin/team"), State::Installed);
    assert_eq!(state(&l.root, HookFormat::QwenSettings, "/bin/team"), State::Installed);
    assert!(State::Installed.detail(Some(HookFormat::GeminiSettings)).contains("AfterTool, AfterAgent, BeforeAgent"));

    // Claude's names in Gemini's file are not hooks Gemini runs
    let claude_named =
        r#"{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "/bin/team hook post-tool-use"}]}]}}"#;
    std::fs::write(l.root.join(".gemini/settings.json"), claude_named).unwrap();
    assert_eq!(state(&l.root, HookFormat::GeminiSettings, "/bin/team"), State::Missing);

    std::fs::write(l.root.join(".gemini/settings.json"), gemini).unwrap();
    run(&l, &[], "/bin/team", Action::Install, of).unwrap();
    run(&l, &[], "/bin/team", Action::Remove, of).unwrap();
    assert_eq!(std::fs::read_to_string(l.root.join(".gemini/settings.json")).unwrap(), gemini);
    assert_eq!(std::fs::read_to_string(l.root.join(".qwen/settings.json")).unwrap(), "{\n}\n");
}

/// GitHub Copilot CLI's hooks go into `.github/copilot/settings.local.json` beside the person's
/// own, each under Copilot's camelCase name, as a command of the event's list (no group: its
/// flat form, measured on 1.0.102); a team command under Claude's name there is not one Copilot
/// runs; remove gives the person's file back byte for byte.
#[test]
fn copilot_settings_take_team_s_commands_flat_under_its_own_event_names() {
    let d = tempfile::tempdir().unwrap();
    let l = team(d.path());
    let of = |_: &str| Some(HookFormat::CopilotSettings);
    let rel = ".github/copilot/settings.local.json";
    let mine = "{\n  \"model\": \"gpt-x\",\n  \"hooks\": {\n    \"preToolUse\": [{\"type\": \"command\", \"bash\": \"lint.sh\"}],\n    \"agentStop\": [{\"type\": \"command\", \"command\": \"say done\", \"timeoutSec\": 5}]\n  }\n}\n";
    std::fs::create_dir_all(l.root.join(".github/copilot")).unwrap();
    std::fs::write(l.root.join(rel), mine).unwrap();
    let rows = run(&l, &[], "/bin/team", Action::Install, of).unwrap();
    assert!(rows.iter().all(|r| r.done == Some(Done::Written) || r.done == Some(Done::Unchanged)), "{rows:?}");
    assert_eq!(rows[0].path.as_deref(), Some(l.root.join(rel).as_path()));
    let c: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(l.root.join(rel)).unwrap()).unwrap();
    assert_eq!(
        c["hooks"]["postToolUse"][0],
        serde_json::json!({"type": "command", "command": "/bin/team hook post-tool-use"})
    );
    assert_eq!(c["hooks"]["agentStop"][0]["command"], "say done", "the person's first, untouched");
    assert_eq!(c["hooks"]["agentStop"][1], serde_json::json!({"type": "command", "command": "/bin/team hook stop"}));
    assert_eq!(c["hooks"]["userPromptSubmitted"][0]["command"], "/bin/team hook user-prompt-submit");
    assert_eq!(c["hooks"]["preToolUse"][0]["bash"], "lint.sh");
    assert_eq!(state(&l.root, HookFormat::CopilotSettings, "/bin/team"), State::Installed);
    assert_eq!(
        State::Installed.detail(Some(HookFormat::CopilotSettings)),
        ".github/copilot/settings.local.json runs this team at postToolUse, agentStop, userPromptSubmitted"
    );
    run(&l, &[], "/bin/team", Action::Remove, of).unwrap();
    assert_eq!(std::fs::read_to_string(l.root.join(rel)).unwrap(), mine);

    // Claude's names in Copilot's file are not hooks team installed for it
    let claude_named =
        r#"{"hooks": {"PostToolUse": [{"type": "command", "command": "/bin/team hook post-tool-use"}]}}"#;
    std::fs::write(l.root.join(rel), claude_named).unwrap();
    assert_eq!(state(&l.root, HookFormat::CopilotSettings, "/bin/team"), State::Missing);
}
