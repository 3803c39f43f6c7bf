//! The words `team profile list | check | explain | test` say: the profiles' and the seats'
//! tables, a check's steps, a reading's fields and a conformance run's screens, each field one
//! `label     value` line.
//!
//! Invariant: words only, every value shown escaped on one line (ids, versions, reasons and a
//! profile's own words come from files and components and never reach the terminal raw).

use super::{CheckReport, Conformance, Explained, Listing};
use crate::error::context_line;
use crate::vocab::text::one_line;

/// Rows as columns separated by two spaces (the last column unpadded); every cell is shown
/// escaped (ids, versions and reasons come from files and components).
fn table(rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| one_line(c).into_owned()).collect()).collect();
    crate::vocab::table::layout(&rows, "")
}

/// One `label     value` line; labels are padded to one width in every command's output. The
/// value is shown on one line, escaped: a profile's words never reach the terminal raw.
fn labelled(label: &str, value: &str) -> String {
    format!("{label:<9} {}\n", one_line(value))
}

impl Listing {
    /// The profiles' table, and under the team's context line, the seats' (which profile each
    /// seat uses).
    pub fn said(&self) -> String {
        let mut out = String::new();
        if let Some(t) = &self.team {
            out.push_str(&context_line(&t.project, &t.session));
        }
        let mut rows = vec![vec!["PROFILE".to_string(), "VERSION".into(), "SOURCE".into(), "STATUS".into()]];
        for a in &self.profiles {
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
        if let Some(t) = &self.team {
            out.push('\n');
            let mut rows = vec![vec!["SEAT".to_string(), "CLI".into(), "PIN".into(), "PROFILE".into()]];
            for s in &t.seats {
                rows.push(vec![
                    s.seat.clone(),
                    s.cli.clone(),
                    s.pin.clone().map(|p| format!("\"{p}\"")).unwrap_or_else(|| "-".into()),
                    match &s.profile {
                        Ok(a) => format!("{} {} ({})", a.id, a.version, a.source),
                        Err(e) => e.message(),
                    },
                ]);
            }
            out.push_str(&table(&rows));
        }
        out
    }
}

impl CheckReport {
    /// Each step, `ok` or `failed` with what it found, then the verdict.
    pub fn said(&self) -> String {
        let mut out = String::new();
        for s in &self.steps {
            match &s.result {
                Ok(d) => out.push_str(&labelled(s.name.word(), &format!("ok: {d}"))),
                Err(d) => out.push_str(&labelled(s.name.word(), &format!("failed: {d}"))),
            }
        }
        out.push_str(&labelled("verdict", &self.verdict()));
        out
    }
}

impl Explained {
    /// Which profile read which file, then what it read and why, and its notes.
    pub fn said(&self) -> String {
        let (profile, reading, d) = (&self.profile, &self.reading, self.profile.describe());
        let mut out = format!(
            "{} {} ({}) reads {}:\n",
            one_line(&d.id),
            one_line(&d.version),
            one_line(&profile.source().to_string()),
            one_line(&self.screen_file.display().to_string())
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
        out
    }
}

impl Conformance {
    /// The component and the folder with the count of screens, each screen `ok` or `FAIL`
    /// with why, then the verdict.
    pub fn said(&self) -> String {
        let d = self.profile.describe();
        let mut out = format!(
            "{} {} ({}) on {}: {} screens, {} of other CLIs skipped\n",
            d.id,
            d.version,
            self.profile.line().export(),
            self.screens_dir.display(),
            self.checked.len(),
            self.skipped
        );
        for c in &self.checked {
            match &c.result {
                Ok(()) => out.push_str(&labelled("ok", &c.label)),
                Err(why) => out.push_str(&labelled("FAIL", &format!("{}: {why}", c.label))),
            }
        }
        out.push_str(&labelled("verdict", &self.verdict()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_pads_all_but_the_last_column() {
        let t = table(&[vec!["a".into(), "bb".into(), "c".into()], vec!["ddd".into(), "e".into(), "".into()]]);
        assert_eq!(t, "a    bb  c\nddd  e\n");
    }
}
