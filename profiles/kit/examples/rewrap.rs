//! Re-wraps a real Codex capture to a narrower pane the way Codex 0.171.0 wraps, for the narrow
//! dialog fixtures (issue: in a 30-column herdr split Codex wraps its approval's phrases over two
//! rows). Run from the repository root:
//!
//! ```sh
//! cargo run -p profile-kit --example rewrap -- tests/data/screens/codex-0.171.0 permission-shell 30
//! ```
//!
//! writes `<name>-narrow<cols>.{ansi,txt,title,meta.json}` beside the capture. How Codex wraps,
//! as its real narrow captures (`idle-typed-wrapped-narrow60`, the `■` rows at 120 columns) show:
//! - a paragraph is re-flowed at word boundaries, two columns short of the pane's right edge
//!   (the 120-column trust dialog wraps its paragraph so); rows of the wide capture that were
//!   themselves wrapped (the next word would not have fitted) are joined first;
//! - a continuation row keeps the paragraph's indent; a `› `/`• `/`└ ` row's continuation is
//!   indented past its marker; a numbered option's past its `N. `; a `■ ` error row's starts at
//!   column 0; a word longer than the row is cut;
//! - a rounded box (`╭…╮ │…│ ╰…╯`) and a `─` rule are redrawn at the new width; a right-aligned
//!   row (indent past half the width) loses its indent;
//! - the pane keeps its height: blank rows under the content go first, then the top rows
//!   scroll away.
//!
//! Every cell keeps its style; each written row carries its own SGR (reset, then attributes), so
//! the `.txt` is the `.ansi` stripped.

use std::path::Path;

use profile_kit::ansi::{parse_rows, Cell, Color, Style};
use serde_json::Value;

/// Codex keeps paragraphs this many columns from the pane's right edge.
const MARGIN: usize = 2;

fn text(cells: &[Cell]) -> String {
    cells.iter().map(|c| c.ch).collect()
}

fn blank(c: &Cell) -> bool {
    c.ch == ' ' && !c.style.reverse && c.style.bg == Color::Default
}

fn trim_end(mut cells: Vec<Cell>) -> Vec<Cell> {
    while cells.last().map(blank).unwrap_or(false) {
        cells.pop();
    }
    cells
}

fn indent_of(cells: &[Cell]) -> usize {
    cells.iter().take_while(|c| c.ch == ' ').count()
}

/// Where a continuation row of this line starts.
fn hanging_indent(cells: &[Cell]) -> usize {
    let t = text(cells);
    let lead = indent_of(cells);
    let rest = &t[lead..];
    if rest.starts_with('■') {
        return 0;
    }
    // `› 1. `, `  2. `, `> 1. `: past the number.
    let marker = rest.strip_prefix("› ").or_else(|| rest.strip_prefix("> ")).map(|r| (r, 2)).unwrap_or((rest, 0));
    let digits = marker.0.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && marker.0[digits..].starts_with(". ") {
        return lead + marker.1 + digits + 2;
    }
    if ["› ", "• ", "└ ", "> "].iter().any(|m| rest.starts_with(m)) {
        return lead + 2;
    }
    lead
}

fn is_box(t: &str) -> bool {
    let s = t.trim();
    let (first, last) = (s.chars().next(), s.chars().last());
    matches!((first, last), (Some('╭'), Some('╮')) | (Some('│'), Some('│')) | (Some('╰'), Some('╯')))
}

fn is_rule(t: &str, cols: usize) -> bool {
    let s = t.trim();
    !s.is_empty() && s.chars().all(|c| c == '─') && s.chars().count() * 10 >= cols * 9
}

fn is_list_start(t: &str) -> bool {
    let rest = t.trim_start().trim_start_matches(['›', '>', ' ']);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(". ")
}

fn first_word_len(cells: &[Cell]) -> usize {
    cells.iter().skip(indent_of(cells)).take_while(|c| c.ch != ' ').count()
}

/// Redraws a box row at `w` columns.
fn redraw_box(cells: &[Cell], w: usize) -> Vec<Cell> {
    let lead = indent_of(cells);
    let body = &cells[lead..];
    let w = w.saturating_sub(lead).max(4);
    let border = body[0].style;
    let edge = |ch| Cell { ch, style: border };
    let mut out: Vec<Cell> = cells[..lead].to_vec();
    let first = body[0].ch;
    if first == '│' {
        let inner: Vec<Cell> = trim_end(body[1..body.len() - 1].to_vec());
        out.push(edge('│'));
        let mut inner: Vec<Cell> = inner.into_iter().take(w - 2).collect();
        while inner.len() < w - 2 {
            inner.push(Cell { ch: ' ', style: Style::default() });
        }
        out.extend(inner);
        out.push(edge('│'));
    } else {
        let last = body[body.len() - 1].ch;
        let label: Vec<Cell> = body[1..].iter().take_while(|c| c.ch != '─').copied().take(w - 2).collect();
        out.push(edge(first));
        let n = label.len();
        out.extend(label);
        out.extend(std::iter::repeat_n(edge('─'), w - 2 - n));
        out.push(edge(last));
    }
    out
}

/// Wraps one logical line (cells, its own indent included) at `w` columns.
fn wrap(line: &[Cell], w: usize) -> Vec<Vec<Cell>> {
    let mut lead = indent_of(line);
    let mut hang = hanging_indent(line);
    if lead * 2 >= w {
        lead = 0;
        hang = 0;
    }
    if hang * 2 >= w {
        hang = 2.min(hang);
    }
    let body = &line[indent_of(line)..];
    // Words with the one space before each (kept with the word it precedes).
    let mut words: Vec<Vec<Cell>> = Vec::new();
    let mut cur: Vec<Cell> = Vec::new();
    for c in body {
        if c.ch == ' ' && !cur.is_empty() && cur.last().map(|l| l.ch != ' ').unwrap_or(false) {
            words.push(std::mem::take(&mut cur));
        }
        cur.push(*c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let space = Cell { ch: ' ', style: Style::default() };
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    let mut row: Vec<Cell> = vec![space; lead];
    let mut row_has_word = false;
    for mut word in words {
        if row_has_word && row.len() + word.len() > w {
            rows.push(std::mem::replace(&mut row, vec![space; hang]));
            row_has_word = false;
        }
        if !row_has_word {
            // A row never starts with the space that separated it from the last word.
            let spaces = word.iter().take_while(|c| c.ch == ' ').count();
            word.drain(..spaces);
        }
        // A word longer than the row is cut.
        while row.len() + word.len() > w {
            let rest = word.split_off(w - row.len());
            row.extend(word);
            rows.push(std::mem::replace(&mut row, vec![space; hang]));
            word = rest;
        }
        row.extend(word);
        row_has_word = true;
    }
    rows.push(row);
    rows.into_iter().map(trim_end).collect()
}

/// One row as SGR-carrying text: every styled run as `ESC[0m ESC[<attrs>m … ESC[0m`.
fn encode(cells: &[Cell]) -> String {
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
        for (on, code) in [(st.bold, "1"), (st.faint, "2"), (st.italic, "3"), (st.underline, "4"), (st.reverse, "7")] {
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
        let t: String = cells[i..j].iter().map(|c| c.ch).collect();
        if st == Style::default() {
            out.push_str(&t);
        } else {
            out.push_str(&format!("\x1b[0m\x1b[{}m{t}\x1b[0m", attrs(&st)));
        }
        i = j;
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, name, cols] = args.as_slice() else {
        eprintln!("usage: rewrap <fixture dir> <state name> <cols>");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let w: usize = cols.parse().expect("cols is a number");
    let read = |ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).expect(ext);
    let mut meta: Value = serde_json::from_str(&read("meta.json")).unwrap();
    let orig_cols = meta["cols"].as_u64().unwrap() as usize;
    let height = meta["rows"].as_u64().unwrap() as usize;
    let styled = profile_kit::split_rows(&read("ansi"));
    let rows: Vec<Vec<Cell>> = parse_rows(&styled).into_iter().map(trim_end).collect();

    // Logical lines: join the rows the wide pane wrapped.
    let mut lines: Vec<Vec<Cell>> = Vec::new();
    for r in rows {
        let t = text(&r);
        let joinable = |prev: &Vec<Cell>| {
            let pt = text(prev);
            !r.is_empty()
                && !prev.is_empty()
                && !is_box(&t)
                && !is_box(&pt)
                && !is_rule(&t, orig_cols)
                && !is_list_start(&t)
                && prev.len() + 1 + first_word_len(&r) > orig_cols - MARGIN
                && indent_of(&r) == hanging_indent(prev)
        };
        match lines.last_mut() {
            Some(prev) if joinable(prev) => {
                prev.push(Cell { ch: ' ', style: Style::default() });
                let lead = indent_of(&r);
                prev.extend_from_slice(&r[lead..]);
            }
            _ => lines.push(r),
        }
    }
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for l in &lines {
        let t = text(l);
        if l.is_empty() {
            out.push(Vec::new());
        } else if is_box(&t) {
            out.push(redraw_box(l, w));
        } else if is_rule(&t, orig_cols) {
            out.push(vec![Cell { ch: '─', style: l[indent_of(l)].style }; w]);
        } else {
            out.extend(wrap(l, w - MARGIN));
        }
    }
    // The pane keeps its height: blank rows under the content go first, then the top rows
    // scroll away.
    while out.len() > height && out.last().map(Vec::is_empty).unwrap_or(false) {
        out.pop();
    }
    let keep = out.len().saturating_sub(height);
    let mut out: Vec<Vec<Cell>> = out.split_off(keep);
    while out.len() < height {
        out.push(Vec::new());
    }
    let ansi: String = out.iter().map(|r| encode(r) + "\n").collect();
    let txt: String = out.iter().map(|r| text(r).trim_end_matches(' ').to_string() + "\n").collect();
    let stem = format!("{name}-narrow{w}");
    meta["cols"] = Value::from(w as u64);
    meta["cursor"] = serde_json::json!({ "x": 0, "y": height - 1, "visible": false });
    let how = meta["how"].as_str().unwrap_or("").to_string();
    meta["how"] = Value::from(format!(
        "{name} re-wrapped to {w} columns the way Codex wraps (profiles/kit/examples/rewrap.rs); the capture: {how}"
    ));
    meta["derived_from"] = Value::from(format!("{}/{name}", dir.file_name().unwrap().to_string_lossy()));
    let write = |ext: &str, body: &str| std::fs::write(dir.join(format!("{stem}.{ext}")), body).unwrap();
    write("ansi", &ansi);
    write("txt", &txt);
    write("title", &read("title"));
    write("meta.json", &(serde_json::to_string_pretty(&meta).unwrap() + "\n"));
    println!("{}", dir.join(stem).display());
}
