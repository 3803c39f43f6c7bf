//! The demo seat's screens, as Claude Code 2.1.197 and Codex 0.171.0 draw them: the top rows
//! of their captured idle screens (`tests/data/screens/*/idle-empty-welcome.ansi`, embedded),
//! then the turns, the composer and the footer, styled as the captures style them.

use super::seat::{Seat, Vendor};

const CLAUDE_IDLE: &str = include_str!("../../../tests/data/screens/claude-code-2.1.197/idle-empty-welcome.ansi");
const CODEX_IDLE: &str = include_str!("../../../tests/data/screens/codex-0.171.0/idle-empty-welcome.ansi");

/// The welcome rows both CLIs draw above their transcript.
const WELCOME_ROWS: usize = 11;

/// The rows of a capture, each self-contained: opened with the SGR parameters in force where
/// it starts (tmux writes only changes, so a style can run across a line end), closed with a
/// reset.
fn rows_of(capture: &str) -> Vec<String> {
    let body = capture.strip_suffix('\n').unwrap_or(capture);
    let mut state: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in body.split('\n') {
        let prefix = if state.is_empty() { String::new() } else { format!("\x1b[{}m", state.join(";")) };
        out.push(format!("{prefix}{line}\x1b[0m"));
        let mut rest = line;
        while let Some(at) = rest.find("\x1b[") {
            let tail = &rest[at + 2..];
            let end = tail.find(|c: char| ('\x40'..='\x7e').contains(&c)).unwrap_or(tail.len());
            if tail[end..].starts_with('m') {
                let p = &tail[..end];
                if p.is_empty() || p == "0" || p.starts_with("0;") {
                    state.clear();
                }
                if let Some(p) = p.strip_prefix("0;").or((!p.is_empty() && p != "0").then_some(p)) {
                    state.push(p.to_string());
                }
            }
            rest = tail.get(end + 1..).unwrap_or("");
        }
    }
    out
}

/// `s` cut to `cols` cells (escape sequences kept, taking none), closed with a reset.
pub fn truncate(s: &str, cols: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let (mut n, mut it) = (0, s.chars());
    while let Some(c) = it.next() {
        if c == '\x1b' {
            out.push(c);
            for c in it.by_ref() {
                out.push(c);
                if ('@'..='~').contains(&c) && c != '[' {
                    break;
                }
            }
        } else if n < cols {
            out.push(c);
            n += 1;
        }
    }
    out.push_str("\x1b[0m");
    out
}

/// A screen: its styled rows and the window title.
pub struct Screen {
    pub rows: Vec<String>,
    pub title: String,
    /// Where the terminal cursor shows (row, column); `None`: hidden (Claude draws its own).
    pub cursor: Option<(usize, usize)>,
}

const CLAUDE_SPINNER: &[char] = &['✢', '✳', '✶', '✻', '✽'];
const BRAILLE: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// One past turn, as rows above the composer.
pub fn echo(vendor: Vendor, line: &str, cols: usize) -> Vec<String> {
    match vendor {
        Vendor::Claude => vec![format!("\x1b[38;5;239m\x1b[48;5;237m❯ \x1b[38;5;231m{line}\x1b[0m")],
        Vendor::Codex => {
            let pad = |used: usize| " ".repeat(cols.saturating_sub(used));
            let bg = "\x1b[38;2;238;238;238m\x1b[48;2;68;68;68m";
            vec![
                format!("{bg}{}\x1b[0m", pad(0)),
                format!("\x1b[1;2m{bg}› \x1b[0m{bg}{line}{}\x1b[0m", pad(2 + line.chars().count())),
                format!("{bg}{}\x1b[0m", pad(0)),
            ]
        }
    }
}

/// The rows a finished turn leaves: the drop file (named `file`) read, then done.
pub fn finished(vendor: Vendor, file: Option<&str>) -> Vec<Vec<String>> {
    match vendor {
        Vendor::Claude => {
            let mut v = vec![vec!["\x1b[38;5;231m●\x1b[39m Let me read that file.\x1b[0m".to_string()]];
            if file.is_some() {
                v.push(
                    vec!["  \x1b[38;5;246mRead \x1b[1m1\x1b[0m\x1b[38;5;246m file (ctrl+o to expand)\x1b[0m".into()],
                );
            }
            v.push(vec!["\x1b[38;5;231m●\x1b[39m Done. I read the message.\x1b[0m".to_string()]);
            v.push(vec!["\x1b[38;5;246m✻\x1b[39m \x1b[38;5;246mBaked for 1s\x1b[0m".to_string()]);
            v
        }
        Vendor::Codex => {
            let mut v = Vec::new();
            if let Some(f) = file {
                v.push(vec![
                    "\x1b[2m•\x1b[0m \x1b[1mExplored\x1b[0m".to_string(),
                    format!("\x1b[2m  └ \x1b[0m\x1b[38;2;99;168;248mRead\x1b[39m {f}\x1b[0m"),
                ]);
            }
            v.push(vec!["\x1b[2m• \x1b[0mDone. I read the message.\x1b[0m".to_string()]);
            v
        }
    }
}

impl Seat {
    /// The whole screen at `cols`×`rows`.
    pub fn screen(&self, cols: usize, rows: usize) -> Screen {
        match self.vendor {
            Vendor::Claude => self.claude(cols, rows),
            Vendor::Codex => self.codex(cols, rows),
        }
    }

    fn claude(&self, cols: usize, rows: usize) -> Screen {
        let mut top: Vec<String> = rows_of(CLAUDE_IDLE).into_iter().take(WELCOME_ROWS).collect();
        top.push(String::new());
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        if let Some(secs) = self.working() {
            let g = CLAUDE_SPINNER[self.spin / 2 % CLAUDE_SPINNER.len()];
            top.push(String::new());
            top.push(format!(
                "\x1b[38;5;174m{g}\x1b[39m \x1b[38;5;174mPhilosophising… \x1b[38;5;246m({secs}s · ↓ {} tokens)\x1b[0m",
                secs * 2 + 3
            ));
        }
        top.push(String::new());
        let rule = format!("\x1b[38;5;244m{}\x1b[0m", "─".repeat(cols));
        let footer = match (self.working().is_some(), self.composer.is_empty()) {
            (_, false) => String::new(),
            (true, true) => "  \x1b[38;5;246mesc to interrupt · ← for agents\x1b[0m".to_string(),
            (false, true) => "  \x1b[38;5;246m? for shortcuts · ← for agents\x1b[0m".to_string(),
        };
        // `❯` + NBSP + text + the drawn (reverse-video) cursor cell
        let composer = format!("\x1b[39m❯\u{a0}{}\x1b[7m \x1b[0m", self.composer);
        let title = match self.working() {
            Some(_) => format!("{} Claude Code", if self.spin.is_multiple_of(2) { '⠂' } else { '⠐' }),
            None => "✳ Claude Code".to_string(),
        };
        Screen { rows: stack(top, vec![rule.clone(), composer, rule, footer], rows, false), title, cursor: None }
    }

    fn codex(&self, cols: usize, rows: usize) -> Screen {
        let idle = rows_of(CODEX_IDLE);
        let mut top: Vec<String> = idle.iter().take(WELCOME_ROWS).cloned().collect();
        for b in &self.history {
            top.push(String::new());
            top.extend(b.iter().cloned());
        }
        let mut bottom = Vec::new();
        if let Some(secs) = self.working() {
            bottom.push(format!(
                "\x1b[1m\x1b[38;2;128;128;128m•\x1b[0m \x1b[2mWorking\x1b[0m \x1b[2m({secs}s • \x1b[0;1mesc\x1b[0;2m to interrupt)\x1b[0m"
            ));
            bottom.push(String::new());
        }
        bottom.push(String::new());
        let composer_at = bottom.len();
        bottom.push(if self.composer.is_empty() {
            "\x1b[1m›\x1b[0m \x1b[2mAsk Codex to do anything\x1b[0m".to_string()
        } else {
            format!("\x1b[1m›\x1b[0m {}", self.composer)
        });
        bottom.push(String::new());
        bottom
            .push("  \x1b[38;2;246;226;183mgpt-5.1-codex default\x1b[39m · \x1b[38;2;171;223;167m~/demo\x1b[0m".into());
        bottom.push(if self.composer.is_empty() { idle.get(39).cloned().unwrap_or_default() } else { String::new() });
        let n = bottom.len();
        let all = stack(top, bottom, rows, true);
        let row = all.len() - n + composer_at;
        let col = (2 + self.composer.chars().count()).min(cols.saturating_sub(1));
        let title = match self.working() {
            Some(_) => format!("{} demo", BRAILLE[self.spin % BRAILLE.len()]),
            None => "demo".to_string(),
        };
        Screen { rows: all, title, cursor: Some((row, col)) }
    }
}

/// `top` (the oldest rows dropped when it does not fit), then `bottom`: right below `top`, or
/// pinned to the last rows.
fn stack(mut top: Vec<String>, bottom: Vec<String>, rows: usize, pin_bottom: bool) -> Vec<String> {
    let room = rows.saturating_sub(bottom.len());
    if top.len() > room {
        top.drain(..top.len() - room);
    }
    if pin_bottom {
        top.resize(room, String::new());
    }
    top.extend(bottom);
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_welcome_rows_are_the_captures_text() {
        for (ansi, txt) in [
            (CLAUDE_IDLE, include_str!("../../../tests/data/screens/claude-code-2.1.197/idle-empty-welcome.txt")),
            (CODEX_IDLE, include_str!("../../../tests/data/screens/codex-0.171.0/idle-empty-welcome.txt")),
        ] {
            let plain: Vec<String> =
                rows_of(ansi).iter().map(|r| crate::mux::strip_ansi(r).trim_end().to_string()).collect();
            let want: Vec<String> = txt.lines().map(|l| l.trim_end().to_string()).collect();
            assert_eq!(plain, want);
        }
        // a style carried across a line end is replayed at the next row's start
        assert_eq!(rows_of("\x1b[2mA\nB\x1b[0m\nC"), vec!["\x1b[2mA\x1b[0m", "\x1b[2mB\x1b[0m\x1b[0m", "C\x1b[0m"]);
    }

    #[test]
    fn truncate_counts_cells_not_escapes() {
        assert_eq!(crate::mux::strip_ansi(&truncate("\x1b[1mabcdef\x1b[0m", 3)), "abc");
    }
}
