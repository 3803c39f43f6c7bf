//! The imitation's screens: a grid of styled cells laid out as the captures lay out the task
//! list, the New Task page and the chooser, written to the terminal one styled run at a time.

use super::{Cloud, Env, Page, Submit};

/// One cell: a character and the SGR parameters it is drawn with (`""`: none).
type Cell = (char, &'static str);

/// The screen as a grid of cells, `cols` × `rows`.
pub(super) struct Grid {
    cells: Vec<Vec<Cell>>,
}

impl Grid {
    fn new(cols: usize, rows: usize) -> Grid {
        Grid { cells: vec![vec![(' ', ""); cols]; rows] }
    }
    /// Writes `text` at (row, col) in `sgr`, cut at the grid's edge.
    fn put(&mut self, row: usize, col: usize, text: &str, sgr: &'static str) {
        let Some(r) = self.cells.get_mut(row) else { return };
        for (k, ch) in text.chars().enumerate() {
            if let Some(c) = r.get_mut(col + k) {
                *c = (ch, sgr);
            }
        }
    }
    /// A box from (top, left) to (bottom, right) inclusive, `title` in its top border.
    fn frame(
        &mut self,
        top: usize,
        left: usize,
        bottom: usize,
        right: usize,
        round: bool,
        title: &[(&str, &'static str)],
    ) {
        let (tl, tr, bl, br) = if round { ('╭', '╮', '╰', '╯') } else { ('┌', '┐', '└', '┘') };
        let w = right - left - 1;
        self.put(top, left, &format!("{tl}{}{tr}", "─".repeat(w)), "");
        let mut c = left + 1;
        for (t, sgr) in title {
            self.put(top, c, t, sgr);
            c += t.chars().count();
        }
        for r in top + 1..bottom {
            self.put(r, left, "│", "");
            self.put(r, left + 1, &" ".repeat(w), "");
            self.put(r, right, "│", "");
        }
        self.put(bottom, left, &format!("{bl}{}{br}", "─".repeat(w)), "");
    }
    /// The rows as the terminal is sent them: each styled run opened and closed.
    pub(super) fn styled(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut cur = "";
                for &(ch, sgr) in row {
                    if sgr != cur {
                        if !cur.is_empty() {
                            s.push_str("\x1b[0m");
                        }
                        if !sgr.is_empty() {
                            s.push_str(&format!("\x1b[{sgr}m"));
                        }
                        cur = sgr;
                    }
                    s.push(ch);
                }
                if !cur.is_empty() {
                    s.push_str("\x1b[0m");
                }
                s
            })
            .collect()
    }
    #[cfg(test)]
    pub(super) fn plain(&self) -> Vec<String> {
        self.cells.iter().map(|r| r.iter().map(|c| c.0).collect::<String>().trim_end().to_string()).collect()
    }
}

const BOLD: &str = "1";
const DIM: &str = "2";

pub(super) fn draw(c: &Cloud, cols: usize, rows: usize) -> Grid {
    let mut g = Grid::new(cols, rows);
    if c.page == Page::Exited {
        g.put(0, 0, "$ codex cloud", "");
        g.put(1, 0, "user@vm:~/work$ ", "");
        return g;
    }
    let bottom = rows.saturating_sub(3);
    let right = cols - 1;
    match c.page {
        Page::List => {
            let env = c.list_env.as_deref().unwrap_or("All");
            g.frame(0, 0, bottom, right, false, &[("Cloud Tasks", ""), (&format!(" • {env}  • 0%"), DIM)]);
            let mut r = 2;
            for (i, t) in c.tasks.iter().enumerate() {
                if r + 2 >= bottom {
                    break;
                }
                let sel = i == c.cursor;
                let style = if sel { BOLD } else { "" };
                g.put(r, 1, &format!("{}[{}] {}", if sel { "› " } else { "  " }, t.status, t.title), style);
                // A task's environment is named only when the environments list knows it.
                let meta = match &t.env {
                    Some(e) if c.envs.iter().any(|x| &x.label == e) => format!("  {e}  •  {}", t.age),
                    _ => format!("  {}", t.age),
                };
                g.put(r + 1, 1, &meta, DIM);
                g.put(r + 2, 1, "  +3/−1 • 1 files", "");
                r += 4;
            }
            g.put(
                bottom + 1,
                0,
                "↑/↓: Move  r: Refresh  Enter: Open  a: Apply  o : Set Env  n : New Task  q: Quit",
                DIM,
            );
            // The refresh after a submit.
            if matches!(c.submit, Submit::Created(_)) || c.status.starts_with("Submitted as ") {
                g.put(18, 42, "• Loading tasks…", DIM);
                g.put(bottom + 1, 102, "• Loading…", DIM);
            }
        }
        Page::NewTask => {
            let env = c.task_env.as_deref().unwrap_or("Env: none (press ctrl-o to choose)");
            g.frame(
                0,
                0,
                bottom,
                right,
                false,
                &[("New Task", "1;38;5;5"), ("  • ", ""), (env, DIM), ("  • ", ""), ("1 attempt", "38;5;6")],
            );
            // The composer sits at the bottom of the box, wrapped rows growing upwards.
            let width = cols.saturating_sub(5).max(10);
            let text: Vec<char> = c.composer.chars().collect();
            let lines: Vec<String> =
                if text.is_empty() { Vec::new() } else { text.chunks(width).map(|ch| ch.iter().collect()).collect() };
            let first = bottom.saturating_sub(3 + lines.len().saturating_sub(1));
            g.put(first, 1, "›", BOLD);
            if lines.is_empty() {
                g.put(first, 3, "Compose new task", DIM);
            }
            for (k, l) in lines.iter().enumerate() {
                g.put(first + k, 3, l, "");
            }
            g.put(bottom - 1, 1, "  ⏎ send · Shift+⏎ newline · Ctrl+O env · Ctrl+N attempts · Ctrl+C quit", "");
            g.put(bottom - 1, cols - 20, "100% context left", "");
            g.put(bottom + 1, 0, "↑/↓: Move  r: Refresh  Enter: Open  a: Apply  o : Set Env  Ctrl+N: Attempts 1x  (editing new task)  q:", DIM);
        }
        Page::Exited => {}
    }
    g.put(bottom + 2, 0, &c.status, "");
    if let Some((search, cur)) = &c.chooser {
        let (top, left, mbottom, mright) = (4, 12, rows.saturating_sub(5), cols.saturating_sub(13));
        g.frame(top, left, mbottom, mright, true, &[("Select Environment", "")]);
        g.put(top + 2, left + 3, "Type to search, Enter select, Esc cancel", "2;38;5;6");
        g.put(top + 3, left + 3, &format!("Search: {search}"), "");
        for (i, e) in c.matches(search).iter().enumerate() {
            let r = top + 4 + i;
            if r >= mbottom {
                break;
            }
            let text = e.map(Env::row).unwrap_or_else(|| "All Environments (Global)".into());
            if i == *cur {
                g.put(r, left + 3, &format!("› {text}"), BOLD);
            } else {
                g.put(r, left + 5, &text, "");
            }
        }
    }
    g
}
