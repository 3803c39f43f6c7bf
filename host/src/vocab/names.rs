//! The grammars of the words `team` joins into paths and addresses, checked when a file is
//! read (the team file, `teams.yaml`, an agent record), so that every path built from them —
//! `<state>/seat-locks/<session>/<seat>`, `.agents/send-drops/<session>/<seat>/<id>`, the
//! history folder — stays inside its folder.
//!
//! Invariant: a word that passes either grammar is one path component that is neither `.` nor
//! `..`, holds no `/`, no control character and no space, and is at most 63 bytes long.
//!
//! - a **name** (seat, nickname, team): `[a-z0-9][a-z0-9._-]{0,62}`;
//! - a **word** (session, project, entity): `[A-Za-z0-9][A-Za-z0-9._-]{0,62}` — a name that
//!   may hold upper-case letters, as tmux and herdr session names and project names do;
//! - a **pane id** (a registry record's `pane`): 1 to 64 of `[A-Za-z0-9%:._@-]`.

/// The longest name or word, in bytes.
pub const MAX_LEN: usize = 63;

/// The name grammar's words for a refusal.
pub const NAME_RULE: &str = "lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63";

/// The word grammar's words for a refusal.
pub const WORD_RULE: &str = "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63";

fn grammar(s: &str, upper: bool) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > MAX_LEN {
        return false;
    }
    let first = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || (upper && c.is_ascii_uppercase());
    first(b[0]) && b[1..].iter().all(|&c| first(c) || matches!(c, b'.' | b'_' | b'-'))
}

/// A seat, nickname or team name: `[a-z0-9][a-z0-9._-]{0,62}`.
pub fn valid_name(s: &str) -> bool {
    grammar(s, false)
}

/// A session, project or entity word: `[A-Za-z0-9][A-Za-z0-9._-]{0,62}`.
pub fn valid_word(s: &str) -> bool {
    grammar(s, true)
}

/// A pane id as tmux (`%3`) or herdr (`w1:p2`) spells it.
pub fn valid_pane(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'%' | b':' | b'.' | b'_' | b'@' | b'-'))
}

/// What a name or word is, for the sentence that refuses one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Seat,
    Nickname,
    Team,
    Session,
    Project,
    Entity,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Seat => "seat",
            Kind::Nickname => "nickname",
            Kind::Team => "team",
            Kind::Session => "session",
            Kind::Project => "project",
            Kind::Entity => "entity",
        }
    }
    fn is_name(self) -> bool {
        matches!(self, Kind::Seat | Kind::Nickname | Kind::Team)
    }
}

/// `Ok` when `value` follows its kind's grammar; else the sentence saying it does not
/// (`session "../x" is not a session name (letters, digits, …)`), the value escaped.
pub fn check(kind: Kind, value: &str) -> Result<(), String> {
    let (ok, rule) = if kind.is_name() { (valid_name(value), NAME_RULE) } else { (valid_word(value), WORD_RULE) };
    if ok {
        return Ok(());
    }
    let shown = crate::vocab::text::one_line(value);
    let w = kind.word();
    Err(format!("{w} \"{shown}\" is not a {w} name ({rule})"))
}

/// The word reserved for the `lead@<team>` address.
pub const RESERVED_LEAD: &str = "lead";

/// The word reserved for `team send all` (the broadcast).
pub const RESERVED_ALL: &str = "all";

/// Is `s` an agent id (`agt_` + 1..64 of `[0-9a-z]`)?
pub fn is_agent_id(s: &str) -> bool {
    s.strip_prefix("agt_").is_some_and(|r| {
        !r.is_empty() && r.len() <= 64 && r.bytes().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_words() {
        for ok in ["a", "claude-keeper", "gpt.reviewer_2", "0x", &"a".repeat(63)] {
            assert!(valid_name(ok) && valid_word(ok), "{ok}");
        }
        for bad in ["", "-a", ".a", "..", ".", "a b", "a/b", "é", "a\rb", "a\u{1b}", &"a".repeat(64)] {
            assert!(!valid_name(bad) && !valid_word(bad), "{bad:?}");
        }
        assert!(!valid_name("Beacon") && valid_word("Beacon"));
        assert!(valid_pane("%3") && valid_pane("w1:p2") && !valid_pane("../x") && !valid_pane(""));
    }

    #[test]
    fn the_refusal_names_the_value_escaped() {
        assert_eq!(
            check(Kind::Session, "../../x\r").unwrap_err(),
            "session \"../../x\\r\" is not a session name (letters, digits, '.', '_' or '-', starting with a letter or digit, at most 63)"
        );
        assert!(check(Kind::Seat, "a").is_ok());
    }
}
