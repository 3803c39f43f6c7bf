//! The keys `team` presses by name, beyond typed text and Enter: the words a profile's
//! description uses for them (`ctrl-c`), and what each is called in a sentence.
//!
//! Invariant: a word this table does not hold is no key — a description naming one is read as
//! declaring no such step, never as a key guessed at.

/// A key pressed on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Enter,
    Esc,
    CtrlC,
    CtrlD,
}

impl Key {
    /// The key a description's word names (`enter`, `esc`, `ctrl-c`, `ctrl-d`).
    pub fn from_word(w: &str) -> Option<Key> {
        Some(match w {
            "enter" => Key::Enter,
            "esc" => Key::Esc,
            "ctrl-c" => Key::CtrlC,
            "ctrl-d" => Key::CtrlD,
            _ => return None,
        })
    }

    /// The word a description writes for it.
    pub fn word(self) -> &'static str {
        match self {
            Key::Enter => "enter",
            Key::Esc => "esc",
            Key::CtrlC => "ctrl-c",
            Key::CtrlD => "ctrl-d",
        }
    }

    /// The key as a sentence names it (`Ctrl-C`).
    pub fn name(self) -> &'static str {
        match self {
            Key::Enter => "Enter",
            Key::Esc => "Esc",
            Key::CtrlC => "Ctrl-C",
            Key::CtrlD => "Ctrl-D",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_from_its_word() {
        for k in [Key::Enter, Key::Esc, Key::CtrlC, Key::CtrlD] {
            assert_eq!(Key::from_word(k.word()), Some(k));
        }
        assert_eq!(Key::from_word("ctrl-z"), None);
    }
}
