//! Where a team file is, said from where the run stands, and a file that is not YAML shown at
//! its place: the file named, its line (and the one above it) with a caret under the column.

use std::path::Path;

use crate::error::TeamError;

/// `path` as a person standing in `cwd` reaches it: relative (`.agents/team.yaml`,
/// `../.agents/team.yaml`) when the two share a folder, else as it is.
pub fn shown(path: &Path, cwd: &Path) -> String {
    // the folder as the run names it (a logical path through a link the user entered by)
    // first, then as it really is
    let canon = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let as_named = relative(path, cwd);
    if !as_named.starts_with('/') {
        return as_named;
    }
    relative(path, &canon)
}

fn relative(path: &Path, cwd: &Path) -> String {
    let mut up = 0;
    let mut base: &Path = cwd;
    loop {
        if let Ok(rest) = path.strip_prefix(base) {
            if base == Path::new("/") && up > 0 {
                break;
            }
            let mut s = "../".repeat(up);
            s.push_str(&rest.display().to_string());
            return s;
        }
        match base.parent() {
            Some(p) => {
                base = p;
                up += 1;
            }
            None => break,
        }
    }
    path.display().to_string()
}

/// A file that is not the YAML the loader reads: its error names the file, and its repair
/// shows the line (and the one above it) with a caret under the place. Any other error (a
/// value the loader refuses) is returned as it is: `line <n>: …` already says where.
pub(super) fn located(e: TeamError, shown: &str, text: &str) -> TeamError {
    let Err(yaml) = serde_saphyr::from_str::<super::RawFile>(text) else { return e };
    let Some(loc) = yaml.location() else { return e };
    let (mut line, mut col) = (loc.line().max(1) as usize, loc.column().max(1) as usize);
    let mut fix = "fix the YAML there (`team check` reads the file again)".to_string();
    if let Some(m) = super::mistakes::explain(text, line) {
        (line, col) = (m.line, m.col);
        fix = format!("{} (`team check` reads the file again)", m.fix);
    }
    let rows: Vec<&str> = text.lines().collect();
    let width = line.to_string().len();
    let mut snippet = String::new();
    for n in line.saturating_sub(1).max(1)..=line {
        if let Some(row) = rows.get(n - 1) {
            snippet.push_str(&format!("{n:>width$} | {}\n", crate::vocab::text::one_line(row)));
        }
    }
    snippet.push_str(&format!("{:>width$} | {}^\n", "", " ".repeat(col - 1)));
    TeamError::bad_file(format!("{shown}: {}", e.message())).with_repair(format!("{snippet}{fix}"))
}

#[cfg(test)]
mod tests {
    use super::super::find;
    use super::*;
    use crate::error;

    #[test]
    fn a_file_that_is_not_yaml_is_named_and_shown_with_a_caret() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(repo.join(".agents")).unwrap();
        std::fs::write(repo.join(".agents/team.yaml"), "project: beacon\nseats:\n  - name: a\n   cli: codex\n")
            .unwrap();
        let e = find(&repo).unwrap_err();
        assert_eq!(e.kind, error::Kind::BadFile);
        // (a newcomer's mistake, said in the project's words at its line)
        assert_eq!(
            e.message(),
            ".agents/team.yaml: line 4: `cli:` is indented 3 spaces, and this seat's name: 4: the keys of one seat line up"
        );
        assert_eq!(
            e.repair().as_deref(),
            Some(
                "3 |   - name: a\n4 |    cli: codex\n  |    ^\nindent `cli:` 4 spaces, under the seat's name: (`team check` reads the file again)"
            )
        );
        // YAML that is no newcomer's mistake keeps the reader's words and its generic repair
        std::fs::write(repo.join(".agents/team.yaml"), "project: [beacon\nseats: []\n").unwrap();
        let e = find(&repo).unwrap_err();
        assert!(
            e.repair().as_deref().unwrap().ends_with("fix the YAML there (`team check` reads the file again)"),
            "{e:?}"
        );
        // a value the loader refuses keeps its own `line <n>:` and no caret
        std::fs::write(repo.join(".agents/team.yaml"), "project: beacon\ndelivery_order: [x]\nseats: []\n").unwrap();
        let e = find(&repo).unwrap_err();
        assert_eq!(e.message(), "line 2: delivery_order: unknown leg \"x\"");
        assert!(e.repair().is_none());
    }

    #[test]
    fn paths_are_shown_from_where_the_run_stands() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        let f = root.join(".agents/team.yaml");
        assert_eq!(shown(&f, &root), ".agents/team.yaml");
        assert_eq!(shown(&f, &root.join("a/b")), "../../.agents/team.yaml");
        assert_eq!(shown(Path::new("/etc/x"), &root.join("a")), "/etc/x");
    }
}
