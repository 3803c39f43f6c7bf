//! The watch's side of the inbox leg (docs/inbox.md): a send held in a seat's inbox is
//! withdrawn before anything is typed for it; claims whose hook died are offered again; a
//! typed trigger's companion no hook took is cleared; a hook's later delivery is reported once;
//! and a seat that worked and then sat free while a send waited unclaimed in its inbox — its
//! CLI ran none of team's hooks through a turn — is said once (`hook-stopped`), to the owner
//! at once when the team file's `notify:` names it urgent. A send whose retries stop while it
//! still waits in the inbox is said to wait there (`STILL_WAITING`): it is not withdrawn, and a
//! later hook may still hand it.
//!
//! The "seen working" marks (`decide::Action::SeenWorking`) are kept on disk, one empty file
//! per id under `<project folder>/watch-seen-working/`, so a restarted watch keeps what it saw;
//! a mark whose send is no longer held in an inbox is removed.
//!
//! Invariants: nothing here types; an id reaches a path only as the history's reader checked
//! it; a hook that took the message between the pass's read and its act wins (the inbox is
//! read again before anything is said or withdrawn).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{not_written, Event, Pass, Watch};
use crate::history::{Ledger, MessageLine, Receipt, ReceiptKind};
use crate::vocab::leg::Leg;

/// What a stop adds for a send still waiting in its seat's inbox (`{seat}` is the seat): it
/// stays there, and a hook may still hand it.
pub const STILL_WAITING: &str =
    "it is still waiting, unclaimed, in {seat}'s inbox: its CLI takes it at its next tool call or turn end";

/// The folder of the "seen working" marks, below the project's history folder.
const MARKS: &str = "watch-seen-working";

impl Watch<'_> {
    /// A send held in the seat's inbox (its last line went `via mcp-inbox`) is withdrawn before
    /// anything is typed for it, so no hook can hand it after the trigger: `false` (type
    /// nothing) when a hook holds it or handed it (its line comes from the hook), or when the
    /// inbox cannot be read.
    pub(super) fn taken_back(&mut self, id: &str, seat: &str, last: &MessageLine, pass: &mut Pass) -> bool {
        use crate::mailbox::{Where, Withdraw};
        if !last.went_by(Leg::McpInbox) {
            return true;
        }
        let (config, f) = (&self.ctx.paths.config, &self.team.file);
        let Some(b) = crate::mailbox::seat_box_at(config, &f.project, &self.team.root, &f.session, seat) else {
            return true;
        };
        match b.withdraw_id(id) {
            Ok(Withdraw::Withdrawn(_) | Withdraw::NotWaiting(Where::Withdrawn(_) | Where::Nowhere)) => true,
            Ok(Withdraw::NotWaiting(_)) => false,
            Err(e) => {
                self.problem(pass, format!("{seat}: its inbox could not be read ({e}); nothing was typed for {id}"));
                false
            }
        }
    }

    /// Claims of the seats' inboxes whose hook died before handing them: offered again (a later
    /// hook hands them), or moved on when their receipt was written.
    pub(super) fn recover_inboxes(&mut self, ledger: &Ledger, pass: &mut Pass) {
        // (a seat with no inbox folder costs one failed directory read; a project with no inbox
        // leg sends none at all)
        let mut seats: Vec<String> = ledger
            .entries
            .iter()
            .filter(|e| e.delivered.is_none() && ledger.line(e.last_try).went_by(Leg::McpInbox))
            .map(|e| ledger.line(e.first).to.clone())
            .collect();
        seats.sort();
        seats.dedup();
        let handed: HashMap<&str, Option<&str>> = ledger
            .receipts
            .iter()
            .filter(|r| r.receipt == ReceiptKind::Handed)
            .map(|r| (r.id.as_str(), r.event.as_deref()))
            .collect();
        let f = &self.team.file;
        let mut problems = Vec::new();
        for seat in seats {
            let Some(b) =
                crate::mailbox::seat_box_at(&self.ctx.paths.config, &f.project, &self.team.root, &f.session, &seat)
            else {
                continue;
            };
            match b.recover(crate::mailbox::Claimer::alive, |id| handed.contains_key(id)) {
                Ok(got) => self.settle_recovered(&seat, &b, got, &handed, &mut problems),
                Err(e) => problems.push(format!("{seat}: its inbox could not be recovered: {e}")),
            }
        }
        for said in problems {
            if self.said.insert(said.clone()) {
                pass.problems.push(said);
            }
        }
        self.clear_companions(ledger);
    }

    /// What recovery left to do: a claim whose hook died after its receipt gets the
    /// `delivered` line it may lack; a claim in doubt is settled by its CLI's transcript when
    /// that shows the answer taken (the watch has no hook input, so no later turn to compare:
    /// a hook of the seat settles the rest).
    fn settle_recovered(
        &self,
        seat: &str,
        b: &crate::mailbox::SeatBox,
        got: Vec<crate::mailbox::store::Recovered>,
        handed: &HashMap<&str, Option<&str>>,
        problems: &mut Vec<String>,
    ) {
        use crate::legs::inbox::hook::{self, evidence::Rule};
        use crate::mailbox::store::Recovered;
        use crate::vocab::hook_event::Event;
        let f = &self.team.file;
        let rules = || {
            let Some(s) = f.seats.iter().find(|s| s.name == seat) else { return Vec::new() };
            self.host
                .description(&s.cli, &f.profiles)
                .map(|(d, _)| Rule::from_features(&d.features))
                .unwrap_or_default()
        };
        for r in got {
            match r {
                Recovered::Receipted(c) => {
                    let event = handed.get(c.key.id()).copied().flatten().and_then(Event::from_word);
                    hook::complete(self.ctx, b, &c, event.unwrap_or(Event::PostToolUse), problems);
                }
                Recovered::InDoubt(c) => {
                    let by = hook::Settler { seat: None, input: None, rules: &rules };
                    hook::settle(self.ctx, b, &c, &by, problems);
                }
                Recovered::Reoffered(_) => {}
            }
        }
    }

    /// A typed trigger's companion still waiting a minute after the trigger was delivered: the
    /// seat's CLI ran no hook for it (none installed any more, or not trusted), and the typed
    /// leg's delivery stands alone; it is withdrawn, so no later hook hands it out of its time.
    fn clear_companions(&self, ledger: &Ledger) {
        let now = self.ctx.clock.now();
        let f = &self.team.file;
        for seat in &f.seats {
            let Some(b) = crate::mailbox::seat_box_at(
                &self.ctx.paths.config,
                &f.project,
                &self.team.root,
                &f.session,
                &seat.name,
            ) else {
                continue;
            };
            // one directory read per seat; a seat never sent to by the inbox has no folder
            for k in b.waiting().unwrap_or_default() {
                let Some(d) = ledger.entry(k.id()).and_then(|e| e.delivered) else { continue };
                let line = ledger.line(d);
                let old = line.ts.at().is_some_and(|t| now - t >= self.limits.free);
                if line.went_by(Leg::Typed) && old && b.read(&k).is_ok_and(|m| m.typed) {
                    let _ = b.withdraw(&k);
                }
            }
        }
    }

    /// Reports, once, each send that ended held in a seat's inbox and was later handed by the
    /// seat's own hook (its `delivered` line `via mcp-inbox` follows an earlier line), when that
    /// line is news to this watch.
    pub(super) fn report_handed(&mut self, ledger: &Ledger, pass: &mut Pass) {
        for e in &ledger.entries {
            let Some(d) = e.delivered.filter(|d| *d != e.first) else { continue };
            let line = ledger.line(d);
            let fresh = line.ts.at().is_some_and(|t| t >= self.since);
            if !line.went_by(Leg::McpInbox) || !fresh || !self.handed.insert(line.id.clone()) {
                continue;
            }
            pass.events.push(Event::Handed {
                seat: line.to.clone(),
                from: line.from.clone(),
                id: line.id.clone(),
                note: line.note.as_ref().map(ToString::to_string).unwrap_or_default(),
                ms: line.ms,
                drop: self.drop_of(&line.to, &line.id),
            });
        }
    }

    /// Whether `id` was held in `seat`'s inbox and waits there still.
    pub(super) fn still_in_inbox(&self, id: &str, seat: &str, ledger: &Ledger) -> bool {
        let Some(e) = ledger.entry(id) else { return false };
        if !ledger.line(e.last_try).went_by(Leg::McpInbox) {
            return false;
        }
        let (config, f) = (&self.ctx.paths.config, &self.team.file);
        crate::mailbox::seat_box_at(config, &f.project, &self.team.root, &f.session, seat)
            .is_some_and(|b| matches!(b.find(id), Ok(crate::mailbox::Where::Waiting(_))))
    }

    /// The marks on disk become the memory's "seen working" ids; a mark whose send is no
    /// longer held in an inbox (delivered, stopped, said) is removed.
    pub(super) fn read_marks(&mut self, ledger: &Ledger) {
        let dir = self.dir().join(MARKS);
        let Ok(rd) = std::fs::read_dir(&dir) else {
            self.memory.inbox_working.clear();
            return;
        };
        let held: HashSet<&str> = ledger
            .entries
            .iter()
            .filter(|e| {
                let last = ledger.line(e.last_try);
                e.delivered.is_none() && e.stopped.is_none() && e.hook_stopped.is_none() && last.went_by(Leg::McpInbox)
            })
            .map(|e| ledger.line(e.first).id.as_str())
            .collect();
        let mut seen = HashSet::new();
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if held.contains(name.as_str()) {
                seen.insert(name);
            } else {
                let _ = std::fs::remove_file(e.path());
            }
        }
        self.memory.inbox_working = seen;
    }

    /// The seat of `id` was seen working while `id` waited in its inbox: kept as a mark (a mark
    /// that cannot be written is kept in memory only, said once).
    pub(super) fn seen_working(&mut self, id: &str, seat: &str, pass: &mut Pass) {
        let config = self.ctx.paths.config.clone();
        let Some(rel) = self.dir().file_name().map(|n| Path::new(n).join(MARKS)) else { return };
        let made = crate::fsx::ensure_dirs(&config, &rel, 0o700)
            .and_then(|d| crate::fsx::write_atomic(&d.join(id), b"", 0o600));
        if let Err(e) = made {
            self.problem(pass, format!("{seat}: the watch could not keep that it saw the seat working ({e})"));
        }
    }

    /// The seat of `id` worked and then sat free, and `id` still waits in its inbox: its CLI ran
    /// no hook for it. Said once — a `hook-stopped` receipt, a team.log line, the event, the
    /// owner's urgent notification — unless a hook took it meanwhile.
    pub(super) fn hook_stopped(&mut self, id: &str, seat: &str, ledger: &Ledger, pass: &mut Pass) {
        let _ = std::fs::remove_file(self.dir().join(MARKS).join(id));
        self.memory.inbox_working.remove(id);
        let (config, f) = (&self.ctx.paths.config, &self.team.file);
        let Some(b) = crate::mailbox::seat_box_at(config, &f.project, &self.team.root, &f.session, seat) else {
            return;
        };
        if !matches!(b.find(id), Ok(crate::mailbox::Where::Waiting(_))) {
            return;
        }
        let Some(e) = ledger.entry(id) else { return };
        let first = ledger.line(e.first);
        let drop = self.drop_of(seat, id);
        let why = format!(
            "{seat} worked and then sat free while the message waited in its inbox, and its CLI ran none of team's hooks for it: its hooks may be untrusted (Codex's Hooks need review), removed or not loaded (team hooks status {seat})"
        );
        let r = Receipt {
            why: Some(why.clone()),
            ..Receipt::new(ReceiptKind::HookStopped, self.ctx.clock.now_ts(), id, seat)
        };
        let written = self.receipt(&r);
        self.log(seat, "hook-stopped", format!("id {id}, drop {}{}", drop.display(), not_written(&written)));
        if let Err(e) = written {
            self.problem(pass, format!("{seat}: its hook-stopped receipt could not be written: {e}"));
        }
        let line = MessageLine { ts: r.ts.clone(), ..ledger.line(e.last_try).clone() };
        let ev = crate::notify::Event::of_line(
            crate::team_file::notify::Event::HookStopped,
            &line,
            Some(&format!("its CLI ran no team hook; team hooks status {seat}")),
            Some(&drop),
        );
        if let Some(p) = crate::notify::urgent(self.ctx, &self.team, ev) {
            self.problem(pass, p);
        }
        pass.events.push(Event::HookStopped {
            seat: seat.to_string(),
            from: first.from.clone(),
            id: id.to_string(),
            drop,
        });
    }
}
