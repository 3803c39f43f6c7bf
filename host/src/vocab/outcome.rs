//! The words of a history line, parsed once when the line is read: how a send ended
//! ([`Outcome`]), the way it travelled ([`Via`]), when ([`Ts`]) and the qualifier beside the
//! outcome ([`Note`]). Code branches on these types; their words are rendered here and
//! nowhere else (`word()` and `Display`).
//!
//! Invariant: a line read and written back is byte for byte the line that was read. Every
//! type keeps a word it does not know (an older or newer build's, another program's) as it
//! was written — `Outcome::Unknown`, `Via::Unknown`, `Note::Said`, and `Ts` keeps its text
//! beside the instant it parsed to — so no history file is ever rewritten by reading it.

use std::fmt;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::vocab::leg::Leg;

mod decider;
mod ended;
pub use decider::Decider;
pub use ended::Ended;

/// How a send ended: the history's `outcome`, the words `team send` prints and exits by, and
/// an MCP recipient's word (docs/spec/team-send.md, docs/mcp.md).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The seat took the line.
    Delivered,
    /// A waited send got its answer (`--wait`).
    Answered,
    /// The message is safely on disk; nothing was typed.
    Held,
    /// The message waits in the seat's inbox for its CLI's next hook, and the send did not wait
    /// for the receipt: an agent's send to a working seat (docs/inbox.md). Not delivered — the
    /// hook that hands it writes the `delivered` line — and nothing to retry by hand.
    Queued,
    /// A line was typed and never taken.
    NotSubmitted,
    /// A waited send got no answer in its window.
    Timeout,
    /// The seat was not reached.
    Unreachable,
    /// Nothing sent on purpose.
    Refused,
    /// A run stopped by an error (an MCP recipient's word).
    Failed,
    /// A word this build does not know, kept as written.
    Unknown(String),
}

impl Outcome {
    /// Every word this build knows, in the spec's order (`queued`, the inbox leg's, beside
    /// `held`).
    pub const KNOWN: [Outcome; 9] = [
        Outcome::Delivered,
        Outcome::Answered,
        Outcome::Held,
        Outcome::Queued,
        Outcome::NotSubmitted,
        Outcome::Timeout,
        Outcome::Unreachable,
        Outcome::Refused,
        Outcome::Failed,
    ];

    pub fn word(&self) -> &str {
        match self {
            Outcome::Unknown(w) => w,
            known => known.known_word().unwrap_or_default(),
        }
    }

    /// The word of an outcome this build knows, for good (`None`: an unknown one's word is
    /// its own, [`Outcome::word`]).
    pub fn known_word(&self) -> Option<&'static str> {
        Some(match self {
            Outcome::Delivered => "delivered",
            Outcome::Answered => "answered",
            Outcome::Held => "held",
            Outcome::Queued => "queued",
            Outcome::NotSubmitted => "not-submitted",
            Outcome::Timeout => "timeout",
            Outcome::Unreachable => "unreachable",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
            Outcome::Unknown(_) => return None,
        })
    }

    /// The outcome a word names; a word this build does not know is kept.
    pub fn parse(word: &str) -> Outcome {
        Outcome::KNOWN.into_iter().find(|o| o.word() == word).unwrap_or_else(|| Outcome::Unknown(word.to_string()))
    }

    /// Held, not-submitted or unreachable: a send that reached no one and is not refused —
    /// what needs the owner, and what the feed's `--stats` counts as not delivered. (Queued is
    /// not: the seat's own CLI takes it at its next hook.)
    pub fn stranded(&self) -> bool {
        matches!(self, Outcome::Held | Outcome::NotSubmitted | Outcome::Unreachable)
    }
}

/// A history line written before this field existed defaulted to the empty word.
impl Default for Outcome {
    fn default() -> Self {
        Outcome::Unknown(String::new())
    }
}

/// The way a message travelled: a leg of the delivery order (`native`, `mcp-inbox`, `typed`,
/// `compose`), or the owner's inbox (the owner is no seat).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Via {
    Leg(Leg),
    /// Left whole in `<root>/.agents/owner-inbox` (`converse::owner`).
    OwnerInbox,
    /// Handed over ssh to the seat's own machine, whose `team` ran its leg (`legs::remote`).
    Ssh,
    /// A word this build does not know (the spec's older `socket`, another build's), as written.
    Unknown(String),
}

impl Via {
    pub fn word(&self) -> &str {
        match self {
            Via::Leg(l) => l.word(),
            Via::OwnerInbox => "owner-inbox",
            Via::Ssh => "ssh",
            Via::Unknown(w) => w,
        }
    }

    pub fn parse(word: &str) -> Via {
        if word == Via::OwnerInbox.word() {
            return Via::OwnerInbox;
        }
        if word == Via::Ssh.word() {
            return Via::Ssh;
        }
        Leg::from_word(word).map(Via::Leg).unwrap_or_else(|| Via::Unknown(word.to_string()))
    }

    /// Whether the message went by `leg`.
    pub fn is(&self, leg: Leg) -> bool {
        *self == Via::Leg(leg)
    }
}

impl From<Leg> for Via {
    fn from(l: Leg) -> Self {
        Via::Leg(l)
    }
}

/// When a line was written: its text as written, and the instant it names (`None` when the
/// text is no RFC 3339 time). The product writes whole seconds in UTC, `2026-11-29T09:00:00Z`.
#[derive(Debug, Clone, Default)]
pub struct Ts {
    text: String,
    at: Option<DateTime<Utc>>,
}

impl Ts {
    /// The stamp of `at` as the product writes it (whole seconds, `Z`).
    pub fn of(at: DateTime<Utc>) -> Ts {
        Ts::parse(&at.to_rfc3339_opts(SecondsFormat::Secs, true))
    }

    /// A stamp as read; text that is no time is kept, with no instant.
    pub fn parse(text: &str) -> Ts {
        let at = DateTime::parse_from_rfc3339(text).ok().map(|t| t.with_timezone(&Utc));
        Ts { text: text.to_string(), at }
    }

    /// The instant, when the text names one.
    pub fn at(&self) -> Option<DateTime<Utc>> {
        self.at
    }

    /// The text as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// Two stamps are the same when they were written the same.
impl PartialEq for Ts {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl Eq for Ts {}

/// The qualifier a history line carries beside its outcome. A delivered line's notes are a
/// closed set the product writes (whether the seat's sign is still to come is read from the
/// variant, never from the text); a held, not-submitted or unreachable line's note is the
/// reason in a leg's own words — an open set (a profile's or a compose module's sentence) —
/// and so is any note this build does not know ([`Note::Said`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Note {
    /// `taken, not yet confirmed`: the line left the box with no sign yet that the seat acted.
    Taken,
    /// `taken, not yet confirmed: <why>`: a compose leg that could not read the sign.
    TakenUnconfirmed(String),
    /// `queued, not yet confirmed`: the CLI shows the line queued behind its current turn.
    Queued,
    /// `taken but never acted on`: the watch's later line for an id whose sign never came.
    NeverActed,
    /// `handed whole by its hook`: the seat's own hook gave the model the message whole.
    HandedWhole,
    /// `handed by its <event> hook`: the inbox leg's delivery, by the hook event that made it.
    HandedBy(String),
    /// `the seat opened a <kind> dialog after taking the line`.
    DialogAfter(String),
    /// `created <item>`: the compose leg's note naming the item it created.
    Created(String),
    /// `the text did not pass through this CLI`: a `--record` without the body.
    TextNotThrough,
    /// A reason or a note in its own words.
    Said(String),
}

const TAKEN: &str = "taken, not yet confirmed";
const QUEUED: &str = "queued, not yet confirmed";
const NEVER_ACTED: &str = "taken but never acted on";
const HANDED_WHOLE: &str = "handed whole by its hook";
const TEXT_NOT_THROUGH: &str = "the text did not pass through this CLI";
const HANDED_BY: (&str, &str) = ("handed by its ", " hook");
const DIALOG_AFTER: (&str, &str) = ("the seat opened a ", " dialog after taking the line");
const TAKEN_BECAUSE: &str = "taken, not yet confirmed: ";
const CREATED: &str = "created ";

impl Note {
    /// The note a text is (exact words first, then the worded forms; else the text itself).
    pub fn parse(text: &str) -> Note {
        let between = |(pre, post): (&str, &str)| {
            text.strip_prefix(pre).and_then(|r| r.strip_suffix(post)).filter(|w| !w.is_empty()).map(str::to_string)
        };
        match text {
            TAKEN => Note::Taken,
            QUEUED => Note::Queued,
            NEVER_ACTED => Note::NeverActed,
            HANDED_WHOLE => Note::HandedWhole,
            TEXT_NOT_THROUGH => Note::TextNotThrough,
            _ => {
                if let Some(w) = between(HANDED_BY) {
                    Note::HandedBy(w)
                } else if let Some(w) = between(DIALOG_AFTER) {
                    Note::DialogAfter(w)
                } else if let Some(w) = text.strip_prefix(TAKEN_BECAUSE) {
                    Note::TakenUnconfirmed(w.to_string())
                } else if let Some(w) = text.strip_prefix(CREATED).filter(|w| !w.is_empty()) {
                    Note::Created(w.to_string())
                } else {
                    Note::Said(text.to_string())
                }
            }
        }
    }

    /// Whether a delivered line with this note waits for the seat's sign that it acted.
    pub fn awaits_sign(&self) -> bool {
        matches!(self, Note::Taken | Note::TakenUnconfirmed(_) | Note::Queued)
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let around = |f: &mut fmt::Formatter<'_>, (pre, post): (&str, &str), w: &str| write!(f, "{pre}{w}{post}");
        match self {
            Note::Taken => f.write_str(TAKEN),
            Note::TakenUnconfirmed(why) => write!(f, "{TAKEN_BECAUSE}{why}"),
            Note::Queued => f.write_str(QUEUED),
            Note::NeverActed => f.write_str(NEVER_ACTED),
            Note::HandedWhole => f.write_str(HANDED_WHOLE),
            Note::HandedBy(event) => around(f, HANDED_BY, event),
            Note::DialogAfter(kind) => around(f, DIALOG_AFTER, kind),
            Note::Created(item) => write!(f, "{CREATED}{item}"),
            Note::TextNotThrough => f.write_str(TEXT_NOT_THROUGH),
            Note::Said(text) => f.write_str(text),
        }
    }
}

/// `Display`, `Serialize` (as the word), `Deserialize` (through `parse`, never failing on a
/// word) and `From<&str>`/`From<String>` for the word types.
macro_rules! as_word {
    ($t:ty, |$v:ident| $word:expr) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let $v = self;
                f.write_str($word)
            }
        }
        as_word!(@serde $t, |$v| $word);
    };
    (@serde $t:ty, |$v:ident| $word:expr) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let $v = self;
                s.collect_str(&$word)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
                Ok(<$t>::parse(&text))
            }
        }
        impl From<&str> for $t {
            fn from(text: &str) -> Self {
                <$t>::parse(text)
            }
        }
        impl From<String> for $t {
            fn from(text: String) -> Self {
                <$t>::parse(&text)
            }
        }
    };
}

as_word!(Outcome, |o| o.word());
as_word!(Via, |v| v.word());
as_word!(Ts, |t| t.as_str());
as_word!(Decider, |d| d.word());
as_word!(@serde Note, |n| n);

/// An open word's schema: `type: string`, the words this build writes listed first (each
/// branch of `anyOf` with what it means), then the branch of a word it keeps as read — so the
/// schema lists every word `Display` can produce and says that any other string is one read
/// back from a file, not one this build makes up.
fn open_words(known: Vec<serde_json::Value>, kept: &str) -> schemars::Schema {
    let mut any = known;
    any.push(serde_json::json!({ "description": kept }));
    schemars::json_schema!({ "type": "string", "anyOf": any })
}

/// Its schema lists every word this build knows ([`Outcome::KNOWN`]); [`Outcome::Unknown`] is
/// any other string, kept as read.
impl schemars::JsonSchema for Outcome {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Outcome".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let words: Vec<&str> = Outcome::KNOWN.iter().map(Outcome::word).collect();
        open_words(
            vec![serde_json::json!({ "enum": words })],
            "A word this build does not know (another build's or program's), kept as it was read.",
        )
    }
}

/// Its schema lists the legs' words and `owner-inbox`; [`Via::Unknown`] is any other string
/// (the spec's older `socket`), kept as read.
impl schemars::JsonSchema for Via {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Via".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut words: Vec<&str> = Leg::ALL.iter().map(|l| l.word()).collect();
        words.push(Via::OwnerInbox.word());
        words.push(Via::Ssh.word());
        let owner = "owner-inbox: a message or reply to the owner, left in <root>/.agents/owner-inbox/ (docs/conversations.md); ssh: handed to the team of the seat's own machine over ssh, which ran its leg (docs/remote.md).";
        open_words(
            vec![serde_json::json!({ "enum": words, "description": owner })],
            "A word this build does not know (the spec's older socket, another build's), kept as it was read.",
        )
    }
}

/// An RFC 3339 time as written (the product writes whole seconds in UTC); a text that is no
/// time is kept as read, so `format` is what the product writes, not a promise about a file.
impl schemars::JsonSchema for Ts {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ts".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date-time" })
    }
}

/// Its schema lists the closed words a delivered line carries and the worded forms (each
/// built from the same constants `Display` writes), then [`Note::Said`]: a reason in a leg's
/// own words, any string.
impl schemars::JsonSchema for Note {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Note".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        use regex::escape;
        let around = |(pre, post): (&str, &str)| format!("^{}.+{}$", escape(pre), escape(post));
        let forms = vec![
            serde_json::json!({ "enum": [TAKEN, QUEUED, NEVER_ACTED, HANDED_WHOLE, TEXT_NOT_THROUGH] }),
            serde_json::json!({ "pattern": format!("^{}", escape(TAKEN_BECAUSE)),
                "description": "A compose leg that could not read the sign, and why." }),
            serde_json::json!({ "pattern": around(HANDED_BY),
                "description": "The inbox leg's delivery, by the hook event that made it." }),
            serde_json::json!({ "pattern": around(DIALOG_AFTER) }),
            serde_json::json!({ "pattern": format!("^{}.+", escape(CREATED)),
                "description": "The item a compose leg created." }),
        ];
        open_words(
            forms,
            "A reason in a leg's own words (a held, not-submitted or unreachable line's), or a note this build does not know, kept as it was read.",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json<T: Serialize>(t: &T) -> String {
        serde_json::to_string(t).unwrap()
    }

    fn back<T: for<'de> Deserialize<'de>>(s: &str) -> T {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn every_known_outcome_parses_to_itself_and_back() {
        for o in Outcome::KNOWN {
            assert_eq!(Outcome::parse(o.word()), o);
            assert_eq!(back::<Outcome>(&json(&o)), o);
            assert_eq!(json(&o), format!("\"{o}\""));
        }
        let words: Vec<&str> = Outcome::KNOWN.iter().map(Outcome::word).collect();
        assert_eq!(
            words,
            ["delivered", "answered", "held", "queued", "not-submitted", "timeout", "unreachable", "refused", "failed"]
        );
    }

    #[test]
    fn an_unknown_outcome_round_trips_byte_for_byte() {
        for w in ["bounced", "", "Delivered", "delivered ", "d\u{e9}livr\u{e9}\n\"x\""] {
            let o = Outcome::parse(w);
            assert_eq!(o, Outcome::Unknown(w.to_string()));
            let s = serde_json::to_string(&serde_json::json!(w)).unwrap();
            assert_eq!(json(&back::<Outcome>(&s)), s);
        }
    }

    #[test]
    fn every_via_word_parses_to_its_leg_and_back() {
        for l in [Leg::Native, Leg::McpInbox, Leg::Typed, Leg::Compose] {
            assert_eq!(Via::parse(l.word()), Via::Leg(l));
            assert_eq!(json(&Via::from(l)), format!("\"{}\"", l.word()));
        }
        assert_eq!(Via::parse("owner-inbox"), Via::OwnerInbox);
        for w in ["socket", "", "Typed"] {
            assert_eq!(Via::parse(w), Via::Unknown(w.into()));
            assert_eq!(json(&back::<Via>(&json(&w))), json(&w));
        }
    }

    #[test]
    fn a_ts_keeps_its_text_and_reads_its_instant() {
        let t = Ts::parse("2026-11-29T09:00:05Z");
        assert_eq!(t.at(), Some(chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 11, 29, 9, 0, 5).unwrap()));
        assert_eq!(Ts::of(t.at().unwrap()), t);
        // another offset, fractions: the instant is read, the text kept as written
        for w in ["2026-11-29T10:00:05+01:00", "2026-11-29T09:00:05.250Z"] {
            let u: Ts = back(&json(&w));
            assert_eq!((u.as_str(), json(&u)), (w, json(&w)));
            assert!(u.at().is_some());
        }
        let odd: Ts = back("\"t\"");
        assert_eq!((odd.at(), json(&odd)), (None, "\"t\"".to_string()));
    }

    #[test]
    fn every_note_the_product_writes_parses_to_its_variant_and_back() {
        let cases = [
            ("taken, not yet confirmed", Note::Taken),
            (
                "taken, not yet confirmed: the board did not answer",
                Note::TakenUnconfirmed("the board did not answer".into()),
            ),
            ("queued, not yet confirmed", Note::Queued),
            ("taken but never acted on", Note::NeverActed),
            ("handed whole by its hook", Note::HandedWhole),
            ("handed by its PostToolUse hook", Note::HandedBy("PostToolUse".into())),
            ("the seat opened a permission dialog after taking the line", Note::DialogAfter("permission".into())),
            ("created 42", Note::Created("42".into())),
            ("the text did not pass through this CLI", Note::TextNotThrough),
            (
                "the pane shows a permission dialog; nothing was pressed",
                Note::Said("the pane shows a permission dialog; nothing was pressed".into()),
            ),
        ];
        for (text, note) in cases {
            assert_eq!(Note::parse(text), note, "{text}");
            assert_eq!(note.to_string(), text);
            assert_eq!(json(&back::<Note>(&json(&text))), json(&text));
        }
        let waits: Vec<bool> =
            [Note::Taken, Note::TakenUnconfirmed("x".into()), Note::Queued, Note::NeverActed, Note::HandedWhole]
                .iter()
                .map(Note::awaits_sign)
                .collect();
        assert_eq!(waits, [true, true, true, false, false]);
    }

    /// Whether one of the schema's listed branches (every one but the last, open one) takes
    /// `text`.
    fn listed<T: schemars::JsonSchema>(text: &str) -> bool {
        let s = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
        let any = s.get("anyOf").and_then(|a| a.as_array()).expect("an open word lists its words in anyOf");
        any[..any.len() - 1].iter().any(|b| {
            let in_enum = b.get("enum").and_then(|e| e.as_array()).is_some_and(|e| e.iter().any(|w| w == text));
            let matches =
                b.get("pattern").and_then(|p| p.as_str()).is_some_and(|p| regex::Regex::new(p).unwrap().is_match(text));
            in_enum || matches
        })
    }

    #[test]
    fn the_schemas_list_every_word_this_build_writes() {
        for o in Outcome::KNOWN {
            assert!(listed::<Outcome>(o.word()), "{o}");
        }
        for v in
            [Leg::Native, Leg::McpInbox, Leg::Typed, Leg::Compose].map(Via::Leg).into_iter().chain([Via::OwnerInbox])
        {
            assert!(listed::<Via>(v.word()), "{v}");
        }
        let written = [
            Note::Taken,
            Note::TakenUnconfirmed("the board did not answer".into()),
            Note::Queued,
            Note::NeverActed,
            Note::HandedWhole,
            Note::HandedBy("PostToolUse".into()),
            Note::DialogAfter("permission".into()),
            Note::Created("42".into()),
            Note::TextNotThrough,
        ];
        for n in written {
            // (a variant added to Note stops this match compiling until it is listed above)
            match &n {
                Note::Taken
                | Note::TakenUnconfirmed(_)
                | Note::Queued
                | Note::NeverActed
                | Note::HandedWhole
                | Note::HandedBy(_)
                | Note::DialogAfter(_)
                | Note::Created(_)
                | Note::TextNotThrough
                | Note::Said(_) => {}
            }
            assert!(listed::<Note>(&n.to_string()), "{n}");
        }
        assert!(
            !listed::<Note>("the pane shows a permission dialog; nothing was pressed"),
            "a reason is no listed word"
        );
    }

    #[test]
    fn a_note_this_build_does_not_know_round_trips_byte_for_byte() {
        for w in ["", "created ", "handed by its  hook", "the seat opened a  dialog after taking the line", "queued"] {
            let n = Note::parse(w);
            assert_eq!(n.to_string(), w);
            assert_eq!(json(&back::<Note>(&json(&w))), json(&w));
        }
    }
}
