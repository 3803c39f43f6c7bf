//! The `seats:` list of a team file: each entry read and checked — its name, its nickname,
//! its CLI and its own `delivery_order`.
//!
//! Invariant: names and nicknames are unique across the file and none is a reserved word
//! (`lead`, `all` as a nickname; a seat so named loads with a note); each entry is checked
//! against the ones before it by lookup, so a file of n seats loads in time linear in n.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::host::Hosts;
use super::{at, check_order, line_of, valid_name, FileNote, Scalar, Seat, Sp};
use crate::error;
use crate::vocab::names::{RESERVED_ALL, RESERVED_LEAD};

#[derive(Deserialize)]
pub(super) struct RawSeat {
    name: Option<Sp<String>>,
    nickname: Option<Sp<String>>,
    role: Option<Scalar>,
    cli: Option<Sp<String>>,
    leads: Option<bool>,
    assistant: Option<bool>,
    stopped: Option<bool>,
    delivery_order: Option<Sp<Vec<Sp<String>>>>,
    label: Option<Scalar>,
    vendor: Option<Scalar>,
    model: Option<Scalar>,
    version: Option<Scalar>,
    launch: Option<Scalar>,
    effort: Option<Scalar>,
    host: Option<Sp<String>>,
}

/// The names and nicknames taken so far (a nickname with its seat).
#[derive(Default)]
struct Taken {
    names: HashSet<String>,
    nicks: HashMap<String, String>,
}

/// The seats, in the file's order, and the notes their names deserve.
pub(super) fn read(raw: Vec<Sp<RawSeat>>, hosts: &Hosts) -> error::Result<(Vec<Seat>, Vec<FileNote>)> {
    let mut seats: Vec<Seat> = Vec::new();
    let mut taken = Taken::default();
    let mut notes = Vec::new();
    for rs in raw {
        seats.push(seat(rs, hosts, &mut taken, &mut notes)?);
    }
    Ok((seats, notes))
}

/// One entry.
fn seat(rs: Sp<RawSeat>, hosts: &Hosts, taken: &mut Taken, notes: &mut Vec<FileNote>) -> error::Result<Seat> {
    let line = line_of(&rs) as usize;
    let r = rs.value;
    let name = match r.name {
        Some(n) => n,
        None => return Err(at(line as u64, "a seat has no name:")),
    };
    let nl = line_of(&name);
    let name = name.value.trim().to_string();
    if !valid_name(&name) {
        return Err(at(
            nl,
            format!(
                "seat name \"{name}\" is not a seat name (lower-case letters, digits, '.', '_' or '-', at most 63)"
            ),
        ));
    }
    if !taken.names.insert(name.clone()) {
        return Err(at(nl, format!("seat \"{name}\" is declared twice")));
    }
    if name == RESERVED_LEAD {
        notes.push(FileNote::LegacyLead { line: nl as usize });
    }
    if name == RESERVED_ALL {
        notes.push(FileNote::LegacyAll { line: nl as usize });
    }
    let nickname = match r.nickname {
        None => None,
        Some(n) => Some(nickname(&name, &n, taken)?),
    };
    let cli = match r.cli {
        Some(c) if !c.value.trim().is_empty() => c.value.trim().to_string(),
        Some(c) => return Err(at(line_of(&c), format!("seat \"{name}\": cli: is empty"))),
        None => {
            return Err(at(
                line as u64,
                format!("seat \"{name}\" has no cli: (claude-code, codex, cursor, agy, grok, …)"),
            ))
        }
    };
    let delivery_order = match &r.delivery_order {
        None => None,
        Some(o) => Some(check_order(line_of(o), &o.value)?),
    };
    Ok(Seat {
        name,
        nickname,
        role: r.role.map(|s| s.0),
        cli,
        leads: r.leads.unwrap_or(false),
        assistant: r.assistant.unwrap_or(false),
        stopped: r.stopped.unwrap_or(false),
        delivery_order,
        label: r.label.map(|s| s.0),
        vendor: r.vendor.map(|s| s.0),
        model: r.model.map(|s| s.0),
        version: r.version.map(|s| s.0),
        launch: r.launch.map(|s| s.0),
        effort: r.effort.map(|s| s.0),
        host: r.host.map(|h| hosts.resolve(&h.value, line_of(&h) as usize)),
        line,
    })
}

/// Seat `name`'s nickname (a leading `@` dropped): a name no other seat has, and not a
/// reserved word.
fn nickname(name: &str, n: &Sp<String>, taken: &mut Taken) -> error::Result<String> {
    let v = n.value.trim().trim_start_matches('@').to_string();
    if v == RESERVED_LEAD {
        return Err(at(line_of(n), format!("seat \"{name}\": nickname \"lead\" is reserved for lead@<team>")));
    }
    if v == RESERVED_ALL {
        return Err(at(line_of(n), format!("seat \"{name}\": nickname \"all\" is reserved for team send all")));
    }
    if !valid_name(&v) {
        return Err(at(
            line_of(n),
            format!("seat \"{name}\": nickname \"{v}\" is not a name (lower-case letters, digits, '.', '_' or '-')"),
        ));
    }
    if let Some(o) = taken.nicks.get(&v) {
        return Err(at(line_of(n), format!("seat \"{name}\": nickname \"{v}\" is already seat \"{o}\"'s")));
    }
    taken.nicks.insert(v.clone(), name.to_string());
    Ok(v)
}
