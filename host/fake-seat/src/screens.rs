//! The fake seat's screens: the real captures of Claude Code 2.1.197 and Codex 0.171.0
//! (`tests/data/screens/`, embedded), and the rows a turn adds, styled as those captures style
//! them (a queued line as 2.1.295, the one version captured queueing one, draws it). A capture's rows carry SGR state across line ends (tmux writes only changes), so each
//! row is made self-contained (the state at its start replayed) before it is drawn alone.

/// One drawable screen: styled rows (top to bottom), the title, where the cursor sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screen {
    pub rows: Vec<String>,
    pub title: String,
    /// (row, col), 0-based; `None`: cursor hidden.
    pub cursor: Option<(usize, usize)>,
}

macro_rules! capture {
    ($dir:literal, $name:literal) => {
        (
            include_str!(concat!("../../../tests/data/screens/", $dir, "/", $name, ".ansi")),
            include_str!(concat!("../../../tests/data/screens/", $dir, "/", $name, ".title")),
        )
    };
}

/// A captured screen: (ansi capture, title file).
pub type Captured = (&'static str, &'static str);

pub const CLAUDE_IDLE: Captured = capture!("claude-code-2.1.197", "idle-empty-welcome");
pub const CODEX_IDLE: Captured = capture!("codex-0.171.0", "idle-empty-welcome");

/// The captured dialog screen of `kind` for a CLI, or `None` when that CLI has no such screen.
pub fn dialog(cli: &str, kind: &str) -> Option<Captured> {
    Some(match (cli, kind) {
        ("claude-code", "permission") => capture!("claude-code-2.1.197", "permission-bash"),
        ("claude-code", "question") => capture!("claude-code-2.1.197", "question"),
        ("claude-code", "trust") => capture!("claude-code-2.1.197", "trust-dialog"),
        ("claude-code", "vendor-notice") => capture!("claude-code-2.1.197", "api-key-confirm"),
        ("claude-code", "provider-error") => capture!("claude-code-2.1.197", "provider-error"),
        ("claude-code", "rate-limit") => capture!("claude-code-2.1.197", "rate-limit-dialog"),
        // Not dialogs: idle prompts whose last turn ended in an error (the screens show it).
        ("claude-code", "rate-limit-idle") => capture!("claude-code-2.1.197", "rate-limit-idle"),
        ("codex", "rate-limit-idle") => capture!("codex-0.171.0", "rate-limit-usage-idle"),
        // 2.1.197 has no held-message dialog; 2.1.295 drew it (same composer and rules).
        ("claude-code", "held-message") => capture!("claude-code-2.1.295", "held-message-dialog-idle"),
        ("codex", "permission") => capture!("codex-0.171.0", "permission-shell"),
        ("codex", "question") => capture!("codex-0.171.0", "question"),
        ("codex", "trust") => capture!("codex-0.171.0", "trust-dialog"),
        ("codex", "vendor-notice") => capture!("codex-0.171.0", "onboarding-signin"),
        ("codex", "provider-error") => capture!("codex-0.171.0", "provider-error"),
        ("codex", "rate-limit") => capture!("codex-0.171.0", "rate-limit-usage-dialog"),
        _ => return None,
    })
}

/// The dialog kinds a mode may name.
pub const DIALOG_KINDS: &[&str] = &[
    "permission",
    "question",
    "trust",
    "vendor-notice",
    "provider-error",
    "rate-limit",
    "held-message",
    "rate-limit-idle",
];

/// The rows of a capture, each self-contained: it opens with the SGR state in force where it
/// starts in the capture and closes with a reset.
pub fn rows_of(capture: &str) -> Vec<String> {
    let body = capture.strip_suffix('\n').unwrap_or(capture);
    let mut state: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in body.split('\n') {
        let prefix = if state.is_empty() { String::new() } else { format!("\x1b[{}m", state.join(";")) };
        out.push(format!("{prefix}{line}\x1b[0m"));
        track_sgr(line, &mut state);
    }
    out
}

/// The title a capture's `.title` file holds (without `display -p`'s newline).
pub fn title_of(title_file: &str) -> String {
    title_file.strip_suffix('\n').unwrap_or(title_file).to_string()
}

/// Follows SGR sequences of `line`, keeping the parameters in force since the last reset.
fn track_sgr(line: &str, state: &mut Vec<String>) {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == 0x1b && i + 1 < b.len() && b[i + 1] == b'[' {
            let start = i + 2;
            let mut j = start;
            while j < b.len() && !(0x40..=0x7e).contains(&b[j]) {
                j += 1;
            }
            if j < b.len() && b[j] == b'm' {
                let params = &line[start..j];
                if params.is_empty() || params == "0" {
                    state.clear();
                } else if let Some(rest) = params.strip_prefix("0;") {
                    state.clear();
                    state.push(rest.to_string());
                } else {
                    state.push(params.to_string());
                }
                if state.len() > 64 {
                    state.drain(..32);
                }
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
}

/// The number of cells `s` takes (escape sequences take none; one cell per char otherwise).
pub fn width(s: &str) -> usize {
    crate::ansi::strip(s).chars().count()
}

/// `s` cut to `cols` cells, escape sequences kept, closed with a reset.
pub fn truncate(s: &str, cols: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut n = 0;
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            out.push(c);
            if it.peek() == Some(&'[') {
                for c in it.by_ref() {
                    out.push(c);
                    if ('@'..='~').contains(&c) && c != '[' {
                        break;
                    }
                }
            }
            continue;
        }
        if n >= cols {
            continue;
        }
        out.push(c);
        n += 1;
    }
    out.push_str("\x1b[0m");
    out
}

// ---- Claude Code 2.1.197 rows (styles as in the captures) ----

pub fn claude_rule(cols: usize) -> String {
    format!("\x1b[38;5;244m{}\x1b[0m", "─".repeat(cols))
}

/// The live composer row: `❯` + NBSP + text + the drawn (reverse-video) cursor cell.
pub fn claude_composer(text: &str) -> String {
    format!("\x1b[39m❯\u{a0}{text}\x1b[7m \x1b[0m")
}

/// The faint placeholder composer: the cursor on the first letter, the rest dim.
pub fn claude_placeholder() -> String {
    "\x1b[39m❯\u{a0}\x1b[7mT\x1b[0;2mry \"how do I log an error?\"\x1b[0m".to_string()
}

/// A past prompt echoed in the transcript (`❯` + ASCII space on a 237 background).
pub fn claude_echo(text: &str) -> String {
    format!("\x1b[38;5;239m\x1b[48;5;237m❯ \x1b[38;5;231m{text}\x1b[0m")
}

pub fn claude_spinner_row(glyph: char, secs: u64) -> String {
    format!(
        "\x1b[38;5;174m{glyph}\x1b[39m \x1b[38;5;174mPhilosophising… \x1b[38;5;246m({secs}s · ↓ {} tokens)\x1b[0m",
        secs * 2 + 3
    )
}

pub fn claude_footer_idle() -> String {
    "  \x1b[38;5;246m? for shortcuts · ← for agents\x1b[0m".to_string()
}

pub fn claude_footer_working() -> String {
    "  \x1b[38;5;246mesc to interrupt · ← for agents\x1b[0m".to_string()
}

/// The dim placeholder while a message is queued.
pub fn claude_queued_placeholder() -> String {
    "\x1b[39m❯\u{a0}\x1b[7mP\x1b[0;2mress up to edit queued messages\x1b[0m".to_string()
}

/// A line queued mid-turn, as Claude Code 2.1.295 draws it above the spinner row (the one
/// capture of a queued line, `claude-code-2.1.295/working-queued`): the line on the echo
/// background, its wrapped rows indented two, then the `ctrl+x ctrl+s to send now` marker.
pub fn claude_queued_rows(rows: &[String]) -> Vec<String> {
    let mut out: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("\x1b[38;5;246m\x1b[48;5;237m{}{r}\x1b[0m", if i == 0 { "❯ " } else { "  " }))
        .collect();
    out.push("  \x1b[38;5;246mctrl+x ctrl+s to send now\x1b[0m".to_string());
    out
}

pub fn claude_bullet(text: &str) -> String {
    format!("\x1b[38;5;231m●\x1b[39m {text}\x1b[0m")
}

pub fn claude_read_row() -> String {
    "  \x1b[38;5;246mRead \x1b[1m1\x1b[0m\x1b[38;5;246m file (ctrl+o to expand)\x1b[0m".to_string()
}

pub fn claude_done_row(secs: u64) -> String {
    format!("\x1b[38;5;246m✻\x1b[39m \x1b[38;5;246mBaked for {secs}s\x1b[0m")
}

pub const CLAUDE_SPINNER: &[char] = &['✢', '✳', '✶', '✻', '✽'];

// ---- Codex 0.171.0 rows ----

pub fn codex_composer(text: &str) -> Vec<String> {
    if text.is_empty() {
        return vec!["\x1b[1m›\x1b[0m \x1b[2mAsk Codex to do anything\x1b[0m".to_string()];
    }
    text.split('\n')
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("\x1b[1m›\x1b[0m {l}") } else { format!("  {l}") })
        .collect()
}

/// A past prompt: three rows on a grey background, the `›` bold and dim.
pub fn codex_echo(text: &str, cols: usize) -> Vec<String> {
    let pad = |used: usize| " ".repeat(cols.saturating_sub(used));
    vec![
        format!("\x1b[38;2;238;238;238m\x1b[48;2;68;68;68m{}\x1b[0m", pad(0)),
        format!(
            "\x1b[1;2m\x1b[38;2;238;238;238m\x1b[48;2;68;68;68m› \x1b[0m\x1b[38;2;238;238;238m\x1b[48;2;68;68;68m{text}{}\x1b[0m",
            pad(2 + text.chars().count())
        ),
        format!("\x1b[38;2;238;238;238m\x1b[48;2;68;68;68m{}\x1b[0m", pad(0)),
    ]
}

pub fn codex_working_row(secs: u64) -> String {
    format!(
        "\x1b[1m\x1b[38;2;128;128;128m•\x1b[0m \x1b[2mWorking\x1b[0m \x1b[2m({secs}s • \x1b[0;1mesc\x1b[0;2m to interrupt)\x1b[0m"
    )
}

pub fn codex_explored(id: &str) -> Vec<String> {
    vec![
        "\x1b[2m•\x1b[0m \x1b[1mExplored\x1b[0m".to_string(),
        format!("\x1b[2m  └ \x1b[0m\x1b[38;2;99;168;248mRead\x1b[39m {id}\x1b[0m"),
        "\x1b[2m    + Show details\x1b[0m".to_string(),
    ]
}

pub fn codex_done() -> Vec<String> {
    vec![
        "\x1b[2m• \x1b[0mDone. The command finished.\x1b[0m".to_string(),
        String::new(),
        "\x1b[2m  Worked for <1s • 19:52\x1b[0m".to_string(),
    ]
}

pub fn codex_status_line(thread: Option<&str>) -> String {
    match thread {
        None => "  \x1b[38;2;246;226;183mgpt-5.1-codex default\x1b[39m · \x1b[38;2;171;223;167m/tmp/drop/cproj2\x1b[0m".into(),
        Some(t) => format!(
            "  \x1b[38;2;246;226;183mgpt-5.1-codex default\x1b[39m · \x1b[38;2;171;223;167m/tmp/drop/cproj2\x1b[39m · \x1b[38;2;116;199;236m{t}\x1b[0m"
        ),
    }
}

pub const BRAILLE: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Codex's thread name: the first prompt, cut to about 45 characters.
pub fn codex_thread(first: &str, ellipsis: &str) -> String {
    if first.chars().count() <= 45 {
        first.to_string()
    } else {
        format!("{}{ellipsis}", first.chars().take(42).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ansi::strip as strip_ansi;

    #[test]
    fn rows_are_self_contained_and_keep_the_text() {
        let rows = rows_of(CLAUDE_IDLE.0);
        assert_eq!(rows.len(), 40);
        let plain: Vec<String> = rows.iter().map(|r| strip_ansi(r).trim_end_matches(' ').to_string()).collect();
        let txt = include_str!("../../../tests/data/screens/claude-code-2.1.197/idle-empty-welcome.txt");
        let want: Vec<&str> = txt.strip_suffix('\n').unwrap().split('\n').collect();
        assert_eq!(plain, want);
        // the state carried into a row is replayed at its start
        let r = rows_of("\x1b[2mA\nB\x1b[0m\nC");
        assert_eq!(r, vec!["\x1b[2mA\x1b[0m", "\x1b[2mB\x1b[0m\x1b[0m", "C\x1b[0m"]);
    }

    #[test]
    fn truncate_counts_cells_not_escapes() {
        assert_eq!(strip_ansi(&truncate("\x1b[1mabcdef\x1b[0m", 3)), "abc");
        assert_eq!(width("\x1b[1m❯\u{a0}x"), 3);
    }

    #[test]
    fn a_queued_line_is_drawn_as_the_capture_shows_it() {
        let txt = include_str!("../../../tests/data/screens/claude-code-2.1.295/working-queued.txt");
        let rows: Vec<&str> = txt.lines().collect();
        let at = rows.iter().position(|r| *r == "❯ also check the tests").expect("the captured queued line");
        let drawn: Vec<String> =
            claude_queued_rows(&["also check the tests".to_string()]).iter().map(|r| strip_ansi(r)).collect();
        assert_eq!(drawn, rows[at..at + 2]);
        let ansi = include_str!("../../../tests/data/screens/claude-code-2.1.295/working-queued.ansi");
        assert!(ansi.contains("\x1b[38;5;246m\x1b[48;5;237m❯ also check the tests"), "the capture's styling");
        assert!(claude_queued_rows(&["x".to_string()])[0].starts_with("\x1b[38;5;246m\x1b[48;5;237m❯ x"));
    }

    #[test]
    fn every_dialog_kind_has_a_claude_screen() {
        for k in DIALOG_KINDS {
            assert!(dialog("claude-code", k).is_some(), "{k}");
        }
        assert!(dialog("codex", "held-message").is_none());
    }
}
