//! The layering ARCHITECTURE.md describes, held: its table "host/src: layers" names every
//! top-level module of `host/src` in one layer, and the product code's `crate::<module>` paths
//! (test code left out: `#[cfg(test)]` items and the modules they declare) never point up a
//! layer, and never close a cycle among modules of one layer. A failure names the file and the
//! line of the import.
//!
//! The checker is plain text work, so it is tested here on a small tree with a deliberate
//! upward import and a deliberate cycle, before it judges the real one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One layer of the table, top first: its name and its modules.
#[derive(Debug)]
struct Layer {
    name: String,
    modules: Vec<String>,
}

/// A `crate::<to>` path in `file` at `line`, in module `from`.
#[derive(Debug, Clone)]
struct Import {
    from: String,
    to: String,
    file: String,
    line: usize,
}

/// The table under the heading `## host/src: layers`: rows `| Layer | `m1`, `m2` | Job |`, top
/// first. The second column lists top-level modules only, each in backticks.
fn layers_of(architecture: &str) -> Result<Vec<Layer>, String> {
    let start =
        architecture.find("## host/src: layers").ok_or("ARCHITECTURE.md has no \"## host/src: layers\" heading")?;
    let mut layers = Vec::new();
    for row in
        architecture[start..].lines().skip(1).skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[1] == "Layer" || cells[1].starts_with("---") {
            continue;
        }
        let modules =
            cells[2].split('`').skip(1).step_by(2).map(|m| m.trim_end_matches('/').to_string()).collect::<Vec<_>>();
        if modules.is_empty() {
            return Err(format!("the layer row \"{}\" names no module in backticks", cells[1]));
        }
        layers.push(Layer { name: cells[1].to_string(), modules });
    }
    if layers.is_empty() {
        return Err("the layers table has no rows".into());
    }
    Ok(layers)
}

/// `text` with comments, string and char literals blanked (newlines kept, so lines still count).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !b.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // a raw string: r"…", r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &x in &b[i..j.min(b.len())] {
                out.push(blank(x));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // a char literal ('x', '\n', '\u{1b}'), else a lifetime
            let end = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.extend(std::iter::repeat_n(' ', e + 1 - i));
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` with every item under `#[cfg(test)]` blanked (a `mod x;`, a `use …;`, or a braced
/// item), and the names of the `mod x;` declarations so blanked.
fn without_test_items(code: &str) -> (String, Vec<String>) {
    let mut out: Vec<char> = code.chars().collect();
    let mut test_mods = Vec::new();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= out.len() {
        if out[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        // the item: up to its `;` at depth 0, or its matching `}`
        let mut j = i + marker.len();
        let mut depth = 0i32;
        let mut item = String::new();
        while j < out.len() {
            let c = out[j];
            item.push(c);
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let words: Vec<&str> =
            item.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        if let Some(p) = words.iter().position(|w| *w == "mod") {
            if item.trim_end().ends_with(';') {
                if let Some(name) = words.get(p + 1) {
                    test_mods.push(name.to_string());
                }
            }
        }
        for c in &mut out[i..j.min(code.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = j;
    }
    (out.into_iter().collect(), test_mods)
}

/// The `mod x;` declarations of product code (after [`without_test_items`]); an inline
/// `mod x { … }` has no file of its own.
fn declared_mods(code: &str) -> Vec<String> {
    // tokens: identifiers, and every other non-space character alone
    let mut tokens: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in code.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            tokens.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens.windows(3).filter(|w| w[0] == "mod" && w[2] == ";").map(|w| w[1].clone()).collect()
}

/// Every `crate::<module>` the code names, with its line (a `crate::{a, b::c}` group names
/// `a` and `b`).
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut rest = code;
    let mut offset = 0;
    while let Some(at) = rest.find("crate::") {
        let start = offset + at;
        let before = code[..start].chars().next_back();
        let after = &code[start + "crate::".len()..];
        let line = code[..start].matches('\n').count() + 1;
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            if let Some(group) = after.strip_prefix('{') {
                let mut depth = 1;
                let mut item = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 || (depth == 1 && c == ',') {
                        if let Some(w) = ident_at(item.trim()) {
                            found.push((line, w));
                        }
                        item.clear();
                        if depth == 0 {
                            break;
                        }
                    } else if depth == 1 {
                        item.push(c);
                    }
                }
            } else if let Some(w) = ident_at(after) {
                found.push((line, w));
            }
        }
        offset = start + "crate::".len();
        rest = &code[offset..];
    }
    found
}

fn ident_at(s: &str) -> Option<String> {
    let w: String = s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!w.is_empty()).then_some(w)
}

/// The product files of the crate rooted at `src/lib.rs`, each with its top-level module,
/// found through the `mod` declarations (a module declared under `#[cfg(test)]` is no
/// product code), and the product code of each.
fn product_files(src: &Path) -> Result<Vec<(String, PathBuf, String)>, String> {
    let mut files = Vec::new();
    let lib = src.join("lib.rs");
    let (code, _) = without_test_items(&code_only(&read(&lib)?));
    let mut queue: Vec<(String, PathBuf)> = Vec::new();
    for m in declared_mods(&code) {
        queue.push((m.clone(), module_file(src, &m)?));
    }
    while let Some((top, file)) = queue.pop() {
        let (code, _) = without_test_items(&code_only(&read(&file)?));
        let dir = if file.file_name().is_some_and(|n| n == "mod.rs") {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        for m in declared_mods(&code) {
            queue.push((top.clone(), module_file(&dir, &m)?));
        }
        files.push((top, file, code));
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(files)
}

fn module_file(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, _) => Ok(flat),
        (false, true) => Ok(nested),
        (false, false) => Err(format!("the module {name} declared under {} has no file", dir.display())),
    }
}

fn read(p: &Path) -> Result<String, String> {
    fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// Every violation, as the sentences a failure prints: a module in no layer or two, an import
/// that points up a layer, an import that closes a cycle among modules of one layer.
fn violations(layers: &[Layer], modules: &BTreeSet<String>, imports: &[Import]) -> Vec<String> {
    let mut bad = Vec::new();
    let mut rank: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, l) in layers.iter().enumerate() {
        for m in &l.modules {
            if rank.insert(m.as_str(), layers.len() - i).is_some() {
                bad.push(format!("the module `{m}` is in two layers of the table"));
            }
        }
    }
    for m in modules {
        if !rank.contains_key(m.as_str()) {
            bad.push(format!("the module `{m}` is in no layer of ARCHITECTURE.md's table"));
        }
    }
    for m in rank.keys() {
        if !modules.contains(*m) {
            bad.push(format!("the table names `{m}`, which is no top-level module of host/src"));
        }
    }
    let layer_of =
        |m: &str| layers.iter().find(|l| l.modules.iter().any(|x| x == m)).map(|l| l.name.as_str()).unwrap_or("?");
    let mut same: BTreeMap<&str, BTreeMap<&str, &Import>> = BTreeMap::new();
    for imp in imports {
        let (Some(&from), Some(&to)) = (rank.get(imp.from.as_str()), rank.get(imp.to.as_str())) else { continue };
        if imp.from == imp.to {
            continue;
        }
        if to > from {
            bad.push(format!(
                "{}:{}: `{}` ({}) names `crate::{}` ({}), a higher layer",
                imp.file,
                imp.line,
                imp.from,
                layer_of(&imp.from),
                imp.to,
                layer_of(&imp.to)
            ));
        } else if to == from {
            same.entry(&imp.from).or_default().entry(&imp.to).or_insert(imp);
        }
    }
    // a cycle: an edge a→b where b reaches a
    let reaches = |start: &str, goal: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(m) = stack.pop() {
            if m == goal {
                return true;
            }
            if seen.insert(m) {
                stack.extend(same.get(m).into_iter().flat_map(|e| e.keys().copied()));
            }
        }
        false
    };
    for (from, edges) in &same {
        for (to, imp) in edges {
            if reaches(to, from) {
                bad.push(format!(
                    "{}:{}: `{from}` names `crate::{to}`, and `{to}` reaches `{from}` back: a cycle in the layer {}",
                    imp.file,
                    imp.line,
                    layer_of(from)
                ));
            }
        }
    }
    bad
}

/// What is wrong with the crate whose sources are `src` against the table in `architecture`;
/// files are named relative to `shown_from`.
fn judge(architecture: &str, src: &Path, shown_from: &Path) -> Result<Vec<String>, String> {
    let layers = layers_of(architecture)?;
    let files = product_files(src)?;
    let modules: BTreeSet<String> = files.iter().map(|f| f.0.clone()).collect();
    let mut imports = Vec::new();
    for (top, file, code) in &files {
        let shown = file.strip_prefix(shown_from).unwrap_or(file).display().to_string();
        for (line, to) in crate_paths(code) {
            imports.push(Import { from: top.clone(), to, file: shown.clone(), line });
        }
    }
    Ok(violations(&layers, &modules, &imports))
}

#[test]
fn the_layers_hold() {
    let host = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = read(&host.join("../ARCHITECTURE.md")).unwrap();
    let bad = judge(&architecture, &host.join("src"), host.parent().unwrap()).unwrap();
    assert!(bad.is_empty(), "ARCHITECTURE.md's layers do not hold:\n{}", bad.join("\n"));
}

#[test]
fn an_upward_import_and_a_cycle_are_named_with_their_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    fs::create_dir_all(src.join("low")).unwrap();
    let w = |p: &str, t: &str| fs::write(src.join(p), t).unwrap();
    w("lib.rs", "pub mod cli;\npub mod low;\npub mod peer;\n#[cfg(test)]\nmod props;\n");
    w("cli.rs", "use crate::low::Thing;\nuse crate::{peer, low::x};\n");
    // low: a product file declares a child; the child names cli (up); a test module may
    w("low.rs", "pub mod inner;\n// crate::cli in a comment\nconst S: &str = \"crate::cli\";\n#[cfg(test)]\nmod tests { use crate::cli; }\n");
    w("low/inner.rs", "fn f() {\n    let c = '{';\n    crate::cli::run();\n}\n");
    // peer and low in one layer, naming each other
    w("peer.rs", "use crate::low;\n#[cfg(test)]\nmod tests;\n");
    w("props.rs", "use crate::cli;\n");
    let table = "## host/src: layers\n\n| Layer | Modules | Job |\n|---|---|---|\n| Top | `cli/` | x |\n| Low | `low`, `peer` | y |\n";
    let bad = judge(table, &src, dir.path()).unwrap();
    assert!(
        bad.iter().any(|b| b == "src/low/inner.rs:3: `low` (Low) names `crate::cli` (Top), a higher layer"),
        "{bad:#?}"
    );
    assert_eq!(
        bad.iter().filter(|b| b.contains("higher layer")).count(),
        1,
        "comments, strings, test items and test modules are no imports: {bad:#?}"
    );
    assert!(bad.is_empty() || !bad.iter().any(|b| b.contains("cycle")), "one-way: no cycle yet: {bad:#?}");
    // now close a cycle: low names peer while peer names low
    w("low.rs", "pub mod inner;\nuse crate::peer;\n");
    let bad = judge(table, &src, dir.path()).unwrap();
    assert!(
        bad.iter().any(|b| b.starts_with("src/low.rs:2: `low` names `crate::peer`, and `peer` reaches `low` back")),
        "{bad:#?}"
    );
    assert!(bad.iter().any(|b| b.starts_with("src/peer.rs:1: `peer` names `crate::low`")), "{bad:#?}");
    // a module the table misses, and a name the table has that is no module
    let table2 = "## host/src: layers\n\n| Layer | Modules | Job |\n|---|---|---|\n| Top | `cli` | x |\n| Low | `low`, `gone` | y |\n";
    let bad = judge(table2, &src, dir.path()).unwrap();
    assert!(bad.contains(&"the module `peer` is in no layer of ARCHITECTURE.md's table".to_string()), "{bad:#?}");
    assert!(bad.contains(&"the table names `gone`, which is no top-level module of host/src".to_string()), "{bad:#?}");
}
