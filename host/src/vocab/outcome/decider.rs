//! What decided a verdict: the witness a leg's ending rests on ([`Decider`]) — the seat's
//! screen, the CLI's own status report, its transcript, its hook's receipt, or the
//! multiplexer's status of the agent (herdr) — kept on the history line (`by`) and said in
//! `team feed` (`by status report`). Its words are written here and nowhere else.
//!
//! Invariant: a line without the field (written before it existed, or by a leg that read no
//! witness: a refusal before anything was looked at) stays without it; a word this build does
//! not know is kept as written ([`Decider::Unknown`]).

/// The witness a verdict rests on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Decider {
    /// The seat's screen as its profile read it (a dialog, the box, the drop read, working).
    Screen,
    /// The CLI's own OSC 7501 status report (docs/status-reports.md).
    StatusReport,
    /// The CLI's session transcript shows the drop read.
    Transcript,
    /// The seat's own hook handed the message and wrote its receipt.
    HookReceipt,
    /// The multiplexer's status of the agent (herdr's `agent get`).
    MuxStatus,
    /// A word this build does not know, kept as written.
    Unknown(String),
}

impl Decider {
    /// Every witness this build names.
    pub const KNOWN: [Decider; 5] =
        [Decider::Screen, Decider::StatusReport, Decider::Transcript, Decider::HookReceipt, Decider::MuxStatus];

    /// The history's word.
    pub fn word(&self) -> &str {
        match self {
            Decider::Screen => "screen",
            Decider::StatusReport => "status-report",
            Decider::Transcript => "transcript",
            Decider::HookReceipt => "hook-receipt",
            Decider::MuxStatus => "mux-status",
            Decider::Unknown(w) => w,
        }
    }

    /// The words a person reads (`team feed`'s `by …`).
    pub fn said(&self) -> String {
        match self {
            Decider::MuxStatus => "multiplexer status".to_string(),
            d => d.word().replace('-', " "),
        }
    }

    pub fn parse(word: &str) -> Decider {
        Decider::KNOWN.into_iter().find(|d| d.word() == word).unwrap_or_else(|| Decider::Unknown(word.to_string()))
    }
}

/// Its schema lists the words this build writes; any other string is one kept as read.
impl schemars::JsonSchema for Decider {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Decider".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let words: Vec<&str> = Decider::KNOWN.iter().map(Decider::word).collect();
        super::open_words(
            vec![serde_json::json!({ "enum": words,
                "description": "What decided the verdict: the screen, the CLI's own status report (OSC 7501), its transcript, its hook's receipt, or the multiplexer's status (docs/status-reports.md)." })],
            "A word this build does not know (another build's), kept as it was read.",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_and_an_unknown_one_is_kept() {
        for d in Decider::KNOWN {
            assert_eq!(Decider::parse(d.word()), d);
            assert_eq!(serde_json::to_string(&d).unwrap(), format!("\"{}\"", d.word()));
        }
        assert_eq!(Decider::parse("osc"), Decider::Unknown("osc".into()));
        let back: Decider = serde_json::from_str("\"carrier-pigeon\"").unwrap();
        assert_eq!(back.word(), "carrier-pigeon");
        assert_eq!(Decider::StatusReport.said(), "status report");
        assert_eq!(Decider::HookReceipt.said(), "hook receipt");
    }
}
