//! `team send all`'s rendering: one line per seat (each as `team send <seat>` would say it,
//! without the context line), the summary, and the `team.send.all` document; exit 0 only when
//! every seat took the message (`send::all`).

use crate::error::context_line;
use crate::output::Output;
use crate::send::{self, SendReport};
use crate::vocab::text::one_line;

/// A notify command that failed, said on stderr (plain runs; the team.log line keeps it too).
pub(super) fn notify_words(r: &SendReport, json: bool, out: &mut Output) {
    if let (false, Some(p)) = (json, &r.notify) {
        out.err(&format!("team send: {}\n", one_line(p)));
    }
}

/// `team send all`: one line per seat and the summary; exit 0 only when every seat took it.
pub(super) fn render(f: &send::all::Fanout, dry_run: bool, json: bool, out: &mut Output) -> i32 {
    use send::all::Row;
    let summary = f.summary(dry_run);
    let code = if f.done() { 0 } else { 1 };
    if json {
        out.doc(&f.document(dry_run, Row::line));
        return code;
    }
    for r in &f.rows {
        if let Row::Sent(s) = r {
            notify_words(s, json, out);
        }
    }
    let mut text = context_line(&f.project, &f.session);
    for r in &f.rows {
        text.push_str(&one_line(&r.line()));
        text.push('\n');
    }
    text.push_str(&summary);
    text.push('\n');
    out.out(&text);
    code
}
