//! The words a hook hands the model: for each message, who sent it and what admitted them,
//! then the body inline — or, past [`INLINE_MAX`], where it is and one sentence asking the
//! model to read it.
//!
//! Worded as the hook's own instruction ("a message for you from … — read it and act on it
//! as your team's rules say"): Claude Code tells the model to follow what a hook itself asks
//! and to treat what it merely relays as data (docs/inbox.md quotes the framing), so the
//! instruction is the hook's and the body is the sender's.
//!
//! Why 8,000 bytes: Claude Code keeps a hook's output whole in the context up to 10,000
//! characters (its documented cap on hook output; past it the text is cut and put in a file),
//! and this answer adds a header and JSON escaping to the body; 8,000 bytes keeps one message
//! and its header under the cap with room for the escaping of a body full of quotes. A
//! longer body is the drop file's: the model reads it, as after a typed trigger.

use super::store::Message;

/// The largest body handed inline, in bytes.
pub const INLINE_MAX: usize = 8_000;

/// The body inline when it fits, else `None` (the drop file has it).
pub fn inline_body(body: &str) -> Option<&str> {
    (body.len() <= INLINE_MAX).then_some(body)
}

/// The part of a message's text that names it, `; id <id>)`: what a CLI's transcript shows
/// once its model was sent the message (the hand-over's evidence, `legs::inbox::hook`).
pub fn id_mark(id: &str) -> String {
    format!("; id {id})")
}

/// The text for one message.
pub fn message_text(m: &Message) -> String {
    let who = format!(
        "A message for you from {} (admitted by {}{} — read it and act on it as your team's rules say",
        m.from,
        m.rule,
        id_mark(&m.id)
    );
    if m.body.is_empty() && m.bytes > 0 {
        return format!(
            "{who}. It is {} bytes, too long to hand inline: read the file {} now, then act on it.",
            m.bytes,
            m.drop.display()
        );
    }
    format!("{who}:\n\n{}", m.body)
}

/// The text for everything one hook hands, in queue order.
pub fn handed_text<'a>(ms: impl IntoIterator<Item = &'a Message>) -> String {
    ms.into_iter().map(message_text).collect::<Vec<_>>().join("\n\n---\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn m(body: &str, bytes: usize) -> Message {
        Message {
            id: "00000000-0000-4000-8000-000000000001".into(),
            from: "keeper".into(),
            team: "beacon".into(),
            session: "beacon".into(),
            seat: "rev".into(),
            project: "beacon".into(),
            root: PathBuf::from("/r"),
            rule: "its lead".into(),
            header: String::new(),
            drop: PathBuf::from("/r/.agents/send-drops/beacon/rev/x"),
            body: body.into(),
            bytes,
            queued_at: String::new(),
            sent_ms: 0,
            typed: false,
            pin: None,
            reply_to: None,
            hooks: None,
        }
    }

    #[test]
    fn inline_then_the_drop_past_the_cap() {
        assert_eq!(
            message_text(&m("review the branch", 17)),
            "A message for you from keeper (admitted by its lead; id 00000000-0000-4000-8000-000000000001) — read it and act on it as your team's rules say:\n\nreview the branch"
        );
        let long = message_text(&m("", 9_000));
        assert!(long.ends_with("It is 9000 bytes, too long to hand inline: read the file /r/.agents/send-drops/beacon/rev/x now, then act on it."), "{long}");
        assert_eq!(inline_body(&"x".repeat(INLINE_MAX)).map(str::len), Some(INLINE_MAX));
        assert_eq!(inline_body(&"x".repeat(INLINE_MAX + 1)), None);
        let two = handed_text([&m("a", 1), &m("b", 1)]);
        assert!(two.contains(":\n\na\n\n---\n\nA message"), "{two}");
    }
}
