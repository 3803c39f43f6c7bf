//! `team feed --stats`'s rendering: the figures `feed::stats` counted, as a table under the
//! context line or one `team.feed.stats` document (`schema/feed-stats.schema.json`).

use crate::error;
use crate::feed::stats::Stats;
use crate::history::stats::{Row, Spread};
use crate::output::Output;
use crate::vocab::text::one_line;

/// Prints the figures: the table and the count of sends (plain), or the document.
pub fn render(s: &Stats, json: bool, out: &mut Output) {
    if json {
        out.doc(&s.document());
        return;
    }
    let mut text = String::new();
    if let Some((p, s)) = &s.team {
        text.push_str(&error::context_line(p, s));
    }
    if !s.rows.is_empty() {
        text.push_str(&table(&s.rows, (s.rows.len() > 1).then_some(&s.total)));
    }
    let n = s.total.sends;
    text.push_str(&format!("{n} send{}\n", if n == 1 { "" } else { "s" }));
    out.out(&text);
    if let Some(note) = super::feed::skipped_note(s.skipped) {
        out.err(&note);
    }
}

fn spread(s: &Spread) -> String {
    match (s.median, s.p90) {
        (Some(m), Some(p)) => format!("{m} / {p} ms"),
        _ => "-".to_string(),
    }
}

/// The table: two-space indent, columns padded to their widest cell, no trailing spaces.
fn table(rows: &[Row], total: Option<&Row>) -> String {
    const HEAD: [&str; 12] = [
        "CLI",
        "PROFILE",
        "SENDS",
        "DELIVERED",
        "READ",
        "TAKEN",
        "ACKED",
        "HELD",
        "NOT-SUBMITTED",
        "UNREACHABLE",
        "TO DELIVERED (MEDIAN / P90)",
        "TO READ (MEDIAN / P90)",
    ];
    let cells = |r: &Row| -> Vec<String> {
        vec![
            one_line(&r.cli).into_owned(),
            one_line(&r.profile).into_owned(),
            r.sends.to_string(),
            r.delivered.to_string(),
            r.read.to_string(),
            r.taken_not_confirmed.to_string(),
            r.acked.to_string(),
            r.held.to_string(),
            r.not_submitted.to_string(),
            r.unreachable.to_string(),
            spread(&r.ms_to_delivered),
            spread(&r.ms_to_read),
        ]
    };
    // the inbox leg's column only once some send went by it (a history without reads as before)
    let inbox = rows.iter().any(|r| r.inbox > 0);
    let with_inbox = |mut cells: Vec<String>, n: String| {
        if inbox {
            // right after UNREACHABLE, wherever the columns before it move
            let at = HEAD.iter().position(|h| *h == "UNREACHABLE").map_or(cells.len(), |i| i + 1);
            cells.insert(at, n);
        }
        cells
    };
    let mut all: Vec<Vec<String>> = vec![with_inbox(HEAD.iter().map(|h| h.to_string()).collect(), "MCP-INBOX".into())];
    all.extend(rows.iter().map(|r| with_inbox(cells(r), r.inbox.to_string())));
    all.extend(total.map(|r| with_inbox(cells(r), r.inbox.to_string())));
    crate::vocab::table::table(&all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_pads_and_says_dash_for_no_figure() {
        let row = Row {
            cli: "codex".into(),
            profile: "0.1.0".into(),
            sends: 3,
            delivered: 2,
            read: 1,
            taken_not_confirmed: 1,
            held: 1,
            ms_to_delivered: Spread { median: Some(130), p90: Some(20_031), n: 2 },
            ..Row::default()
        };
        let t = table(&[row], None);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "  CLI    PROFILE  SENDS  DELIVERED  READ  TAKEN  ACKED  HELD  NOT-SUBMITTED  UNREACHABLE  TO DELIVERED (MEDIAN / P90)  TO READ (MEDIAN / P90)"
        );
        assert_eq!(
            lines[1],
            "  codex  0.1.0    3      2          1     1      0      1     0              0            130 / 20031 ms               -"
        );
        let inbox = Row { cli: "codex".into(), profile: "0.1.0".into(), sends: 1, inbox: 1, ..Row::default() };
        let t = table(std::slice::from_ref(&inbox), None);
        assert!(t.lines().next().unwrap().contains("UNREACHABLE  MCP-INBOX  TO DELIVERED"), "{t}");
        assert_eq!(serde_json::to_value(&inbox).unwrap()["inbox"], 1);
        assert!(serde_json::to_value(Row::default()).unwrap().get("inbox").is_none());
    }
}
